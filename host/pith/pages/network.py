"""Network failures in words: Chromium's `net::ERR_*` and Python's socket errors → "cannot reach HOST: why".

Both capture modes fail to load a URL in their own dialect: the rendered one gets
Chromium's `net::ERR_NAME_NOT_RESOLVED`, the static one Python's `[Errno -2] Name or
service not known`. A reader needs neither; `unreachable(url, cause)` turns either into one
`FetchFailed` whose message says it in words ("http://x.invalid/: cannot reach x.invalid:
name not resolved") and whose detail keeps the raw cause (`reason`) for bug reports. A
cause not in the tables below keeps its own text, so nothing is ever hidden.
"""
from __future__ import annotations

import errno
import re
import socket
import ssl
from urllib.parse import urlsplit

from ..errors import FetchFailed

# Chromium's net error names (net/base/net_error_list.h) that a page load commonly ends
# with, in words a reader understands.
CHROMIUM_WORDS = {
    "ERR_NAME_NOT_RESOLVED": "name not resolved",
    "ERR_NAME_RESOLUTION_FAILED": "name resolution failed",
    "ERR_INTERNET_DISCONNECTED": "no internet connection",
    "ERR_CONNECTION_REFUSED": "connection refused",
    "ERR_CONNECTION_RESET": "connection reset",
    "ERR_CONNECTION_CLOSED": "connection closed by the server",
    "ERR_CONNECTION_ABORTED": "connection aborted",
    "ERR_CONNECTION_FAILED": "connection failed",
    "ERR_CONNECTION_TIMED_OUT": "connection timed out",
    "ERR_TIMED_OUT": "timed out",
    "ERR_ADDRESS_UNREACHABLE": "address unreachable",
    "ERR_ADDRESS_INVALID": "invalid address",
    "ERR_NETWORK_CHANGED": "the network changed during the load",
    "ERR_NETWORK_ACCESS_DENIED": "network access denied",
    "ERR_EMPTY_RESPONSE": "the server closed the connection without answering",
    "ERR_TOO_MANY_REDIRECTS": "too many redirects",
    "ERR_UNSAFE_PORT": "the browser refuses this port as unsafe",
    "ERR_UNSAFE_REDIRECT": "the browser refuses an unsafe redirect",
    "ERR_INVALID_URL": "invalid URL",
    "ERR_DISALLOWED_URL_SCHEME": "URL scheme not allowed",
    "ERR_UNKNOWN_URL_SCHEME": "unknown URL scheme",
    "ERR_ABORTED": "the load was aborted",
    "ERR_BLOCKED_BY_CLIENT": "blocked by the browser",
    "ERR_BLOCKED_BY_RESPONSE": "blocked by the server's response headers",
    "ERR_PROXY_CONNECTION_FAILED": "the proxy cannot be reached",
    "ERR_TUNNEL_CONNECTION_FAILED": "the proxy tunnel failed",
    "ERR_SSL_PROTOCOL_ERROR": "secure connection failed (TLS protocol error)",
    "ERR_SSL_VERSION_OR_CIPHER_MISMATCH": "secure connection failed (no common TLS version "
                                          "or cipher)",
    "ERR_CERT_AUTHORITY_INVALID": "certificate not trusted (unknown authority)",
    "ERR_CERT_COMMON_NAME_INVALID": "certificate is for another name",
    "ERR_CERT_DATE_INVALID": "certificate expired or not yet valid",
    "ERR_CERT_REVOKED": "certificate revoked",
    "ERR_CERT_INVALID": "certificate invalid",
    "ERR_INVALID_RESPONSE": "invalid response from the server",
    "ERR_RESPONSE_HEADERS_TOO_BIG": "the server's response headers are too large",
    "ERR_CONTENT_DECODING_FAILED": "the server's compressed answer cannot be decoded",
    "ERR_HTTP2_PROTOCOL_ERROR": "HTTP/2 protocol error",
    "ERR_FILE_NOT_FOUND": "file not found",
    "ERR_ACCESS_DENIED": "access denied",
}

# getaddrinfo's failures (socket.gaierror): the EAI_* constants Python exposes.
_GAI_WORDS = {
    getattr(socket, "EAI_NONAME", None): "name not resolved",
    getattr(socket, "EAI_NODATA", None): "name not resolved",
    getattr(socket, "EAI_AGAIN", None): "name resolution failed (temporary)",
    getattr(socket, "EAI_FAIL", None): "name resolution failed",
}
_GAI_WORDS.pop(None, None)

# OS errors of connect/read (errno), the common ones.
ERRNO_WORDS = {
    errno.ECONNREFUSED: "connection refused",
    errno.ECONNRESET: "connection reset",
    errno.ECONNABORTED: "connection aborted",
    errno.ETIMEDOUT: "connection timed out",
    errno.EHOSTUNREACH: "host unreachable",
    errno.ENETUNREACH: "network unreachable",
    errno.ENETDOWN: "network down",
    errno.EADDRNOTAVAIL: "invalid address",
    errno.EPIPE: "connection closed by the server",
}

_NET_ERROR = re.compile(r"net::(ERR_[A-Z0-9_]+)")


def host_of(url: str) -> str:
    """The host part of `url` (with its port when it has one), else the URL itself."""
    try:
        parts = urlsplit(url)
        return parts.netloc.rpartition("@")[2] or url
    except ValueError:
        return url


def words(cause: BaseException | str) -> str:
    """Why a URL could not be loaded, in words; the raw text when the cause is unknown.

    `cause` is a Chromium error text holding `net::ERR_*`, or a Python exception (a
    `socket.gaierror`, an `OSError` with an errno, an `ssl` error, or any of these as
    `URLError.reason`)."""
    if isinstance(cause, str):
        found = _NET_ERROR.search(cause)
        if found:
            return CHROMIUM_WORDS.get(found.group(1), found.group(0))
        return cause.strip() or "unknown network error"
    if isinstance(cause, ssl.SSLCertVerificationError):
        return f"certificate not trusted ({cause.verify_message or 'verification failed'})"
    if isinstance(cause, ssl.SSLError):
        return "secure connection failed (TLS error)"
    if isinstance(cause, socket.gaierror) and cause.errno in _GAI_WORDS:
        return _GAI_WORDS[cause.errno]
    if isinstance(cause, TimeoutError):
        return "timed out"
    if isinstance(cause, OSError) and cause.errno in ERRNO_WORDS:
        return ERRNO_WORDS[cause.errno]
    if isinstance(cause, OSError) and cause.strerror:
        return cause.strerror[:1].lower() + cause.strerror[1:]
    return str(cause).strip() or type(cause).__name__


def raw(cause: BaseException | str) -> str:
    """The cause as its own code or text, for the error's detail."""
    if isinstance(cause, str):
        found = _NET_ERROR.search(cause)
        return found.group(0) if found else cause.strip()
    return f"{type(cause).__name__}: {cause}"


def unreachable(url: str, cause: BaseException | str) -> FetchFailed:
    """The FetchFailed for a URL that could not be loaded: "URL: cannot reach HOST: why"."""
    return FetchFailed(f"{url}: cannot reach {host_of(url)}: {words(cause)}", reason=raw(cause))
