"""Network failures in words (pith.pages.network): real resolver and socket errors, Chromium's codes."""
import socket
import ssl
import urllib.error
import urllib.request

import pytest

from pith.pages import network
from pith.errors import FetchFailed


def refused_port() -> int:
    """A local port that was free a moment ago: connecting to it is refused."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_a_name_that_never_resolves_says_so_in_words():
    with pytest.raises(socket.gaierror) as err:        # .invalid never resolves (RFC 2606)
        socket.getaddrinfo("nonexistent.invalid", 80)
    exc = network.unreachable("http://nonexistent.invalid/", err.value)
    assert isinstance(exc, FetchFailed) and exc.code == 54
    assert exc.message == ("http://nonexistent.invalid/: cannot reach nonexistent.invalid: "
                           "name not resolved")
    assert "Errno" not in exc.message
    assert exc.detail["reason"].startswith("gaierror: [Errno")     # the raw cause is kept


def test_a_refused_port_through_urllib_says_connection_refused():
    port = refused_port()
    url = f"http://127.0.0.1:{port}/page"
    with pytest.raises(urllib.error.URLError) as err:
        urllib.request.urlopen(url, timeout=5)
    exc = network.unreachable(url, err.value.reason)
    assert exc.message == f"{url}: cannot reach 127.0.0.1:{port}: connection refused"
    assert "ConnectionRefusedError" in exc.detail["reason"]


@pytest.mark.parametrize("text,said", [
    ("page.goto: net::ERR_NAME_NOT_RESOLVED at http://x.invalid/", "name not resolved"),
    ("net::ERR_CONNECTION_REFUSED at http://127.0.0.1:1/", "connection refused"),
    ("net::ERR_CERT_DATE_INVALID", "certificate expired or not yet valid"),
    ("net::ERR_UNSAFE_PORT at http://127.0.0.1:9/", "the browser refuses this port as unsafe"),
])
def test_chromium_codes_in_words_and_kept_in_detail(text, said):
    exc = network.unreachable("https://user@example.org:8443/a?b", text)
    assert exc.message == f"https://user@example.org:8443/a?b: cannot reach example.org:8443: {said}"
    code = exc.detail["reason"]
    assert code.startswith("net::ERR_") and code in text and code not in exc.message


def test_an_unknown_cause_keeps_its_own_text():
    assert network.words("net::ERR_SOMETHING_NEW") == "net::ERR_SOMETHING_NEW"
    assert network.words("the socket caught fire") == "the socket caught fire"
    assert network.words(ssl.SSLError(1, "bad handshake")) == \
        "secure connection failed (TLS error)"


def test_errno_and_timeouts_in_words():
    import errno
    assert network.words(OSError(errno.EHOSTUNREACH, "No route to host")) == "host unreachable"
    assert network.words(ConnectionResetError(errno.ECONNRESET, "reset")) == "connection reset"
    assert network.words(TimeoutError()) == "timed out"
    assert network.words(OSError(errno.EACCES, "Permission denied")) == "permission denied"
