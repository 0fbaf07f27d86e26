"""Inputs of the CLI: a path or URL → its snapshot (rendered in Chromium, or static with lxml).

`Capturer` hides the two modes behind one call, times the capture, and names each
input's output file (`X.html` → `X`, a URL → its last path segment or host), which is a
contract outside evaluation scripts rely on.

A rendered page that shows no text at all (an app whose scripts cannot load: saved pages
render offline; a forum that keeps its posts in <noscript> for crawlers) is captured
again as a browser without scripting shows it, the --static snapshot of the same HTML;
the snapshot then says `"fallback": "static"` and carries a `rendered_no_text` warning.
"""
from __future__ import annotations

import errno
import http.client
import os
import re
import stat
import time
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass
from email.message import Message
from pathlib import Path
from typing import Any

from . import network, static
from ..errors import (FetchFailed, InputNotFound, InputUnreadable, InputUnsupported, PithError,
                      Timeout)

# Timeout of a --static URL fetch and of a page load in the browser: long enough for
# a slow site, short enough that a batch never hangs on one page.
DEFAULT_TIMEOUT_S = 30.0
# Largest page --static downloads; a browser would refuse to be useful beyond it too.
MAX_FETCH_BYTES = 64 * 1024 * 1024
_UNSAFE_NAME = re.compile(r"[^A-Za-z0-9._-]+")
# A URL scheme (RFC 3986) at the start of an input; one letter is a Windows drive (C:).
_SCHEME = re.compile(r"^([A-Za-z][A-Za-z0-9+.-]+):")
READ_SCHEMES = ("http", "https", "file")


def is_url(target: str) -> bool:
    return re.match(r"^(https?|file)://", target, re.I) is not None


def unsupported_scheme(target: str) -> InputUnsupported | None:
    """The error for an input that is a URL of a scheme Pith does not read (`ftp://...`,
    `data:...`, `javascript:...`), None for anything else. A file whose name only looks
    like one (`notes:a.html` in the current folder) is a file."""
    match = _SCHEME.match(target)
    if match is None or match.group(1).lower() in READ_SCHEMES or _exists(target):
        return None
    return InputUnsupported(f"{target}: the URL scheme {match.group(1).lower()!r} is not "
                            "supported (use a file path, file://, http:// or https://)")


def _exists(path: str) -> bool:
    try:
        return os.path.lexists(path)
    except (OSError, ValueError):       # a name too long, a NUL byte
        return False


def check_local(path: Path) -> None:
    """Refuse a local input that cannot be read as a page, before reading it: missing
    (InputNotFound), a folder (InputNotFound, as static.read_page words it), no regular
    file (InputUnsupported: a FIFO would block the read for ever, a device never end),
    not readable (InputUnreadable: permission denied, a loop of symbolic links)."""
    try:
        mode = os.stat(path).st_mode
        if stat.S_ISREG(mode):
            with open(path, "rb"):
                pass
        elif stat.S_ISDIR(mode):
            os.scandir(path).close()    # a folder a walk could not list says so
    except OSError as exc:
        raise _os_error(path, exc) from None
    if stat.S_ISDIR(mode):
        raise InputNotFound(f"{path} is a directory, not an HTML file")
    if not stat.S_ISREG(mode):
        raise InputUnsupported(f"{path} is {_kind(mode)}, not a regular file; Pith reads "
                               "files (a pipe or device may never end)")


def read_local(path: Path) -> bytes:
    """The bytes of a local page: check_local, then static.read_page."""
    check_local(path)
    try:
        return static.read_page(path)
    except InputNotFound as exc:        # removed or made unreadable since the check
        raise exc if not Path(path).exists() else InputUnreadable(exc.message) from None


def _os_error(path: Path, exc: OSError) -> PithError:
    if exc.errno in (errno.ENOENT, errno.ENOTDIR, errno.ENAMETOOLONG):
        return InputNotFound(f"{path}: no such file")
    if exc.errno in (errno.EACCES, errno.EPERM):
        return InputUnreadable(f"{path}: permission denied (this user may not read it)")
    if exc.errno == errno.ELOOP:
        return InputUnreadable(f"{path}: a loop of symbolic links")
    return InputUnreadable(f"{path}: cannot be read ({exc.strerror or exc})")


def _kind(mode: int) -> str:
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe)"
    if stat.S_ISSOCK(mode):
        return "a socket"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    return "not a regular file"


def local_path(target: str) -> Path | None:
    """The file behind a path or file:// URL; None for http(s)."""
    if target.lower().startswith("file://"):
        return Path(urllib.parse.unquote(urllib.parse.urlparse(target).path))
    if is_url(target):
        return None
    return Path(target)


def output_stem(target: str) -> str:
    """`dir/X.html` (or `X.html.gz`) → `X`; `https://host/a/b.html` → `b`; `https://host/` → `host`."""
    path = local_path(target)
    if path is not None:
        name = path.name[:-3] if path.name.lower().endswith(".gz") else path.name
        base, dot, ext = name.rpartition(".")
        stem = base if dot and ext.lower() in ("html", "htm", "xhtml") else name
    else:
        parts = urllib.parse.urlparse(target)
        segment = parts.path.rstrip("/").rsplit("/", 1)[-1]
        stem = re.sub(r"\.(x?html?|php|aspx?)$", "", segment, flags=re.I) or parts.hostname or "page"
    return _UNSAFE_NAME.sub("_", stem).strip("._") or "page"


@dataclass
class Captured:
    """One input's snapshot and how long getting it took."""

    target: str
    snapshot: dict[str, Any]
    capture_ms: float


class Capturer:
    """Snapshots inputs in one mode; a context manager so the browser is started once."""

    def __init__(self, static_mode: bool = False, js: bool = True,
                 timeout_s: float = DEFAULT_TIMEOUT_S, encoding: str | None = None,
                 encoding_errors: str = "strict") -> None:
        self.static_mode = static_mode
        self.js = js
        self.timeout_s = timeout_s
        self.encoding = encoding
        self.encoding_errors = encoding_errors
        self._browser = None

    def __enter__(self) -> "Capturer":
        if not self.static_mode:
            from .browser import Browser   # Playwright is imported only when used
            self._browser = Browser(js=self.js, timeout_s=self.timeout_s,
                                    encoding=self.encoding, encoding_errors=self.encoding_errors)
            self._browser.__enter__()
        return self

    def __exit__(self, *exc) -> None:
        if self._browser is not None:
            self._browser.__exit__(*exc)
            self._browser = None

    def capture(self, target: str) -> Captured:
        t0 = time.perf_counter()
        refused = unsupported_scheme(target)
        if refused is not None:
            raise refused
        if self._browser is not None:
            snap = self._browser.capture(target)
            path = local_path(target)
            if path is not None:
                _to_file_urls(snap, path.resolve().parent.as_uri() + "/")
            if not has_text(snap):
                snap = self.static_fallback(target)
        else:
            snap = self._static(target)
        return Captured(target, snap, (time.perf_counter() - t0) * 1e3)

    def static_fallback(self, target: str) -> dict[str, Any]:
        """The --static snapshot of a rendered page that showed no text, marked so."""
        snap = self._static(target)
        snap["fallback"] = "static"
        snap.setdefault("warnings", []).append(
            {"code": "rendered_no_text",
             "message": "the rendered page showed no text; captured as a browser without "
                        "scripting shows it"})
        return snap

    def _static(self, target: str) -> dict[str, Any]:
        path = local_path(target)
        if path is not None:
            data, header_charset, url = read_local(path), None, path.resolve().as_uri()
        else:
            data, header_charset, url = fetch(target, self.timeout_s)
        text, _charset = static.decode_html(data, self.encoding, self.encoding_errors,
                                            header=header_charset)
        static.check_html(text, target)
        return static.snapshot_from_html(text, url)


def has_text(snap: dict[str, Any]) -> bool:
    """Whether a snapshot holds any text outside code (hidden text counts: the pipeline
    scores it when nothing else is there); an invalid snapshot says yes, so that select
    reports what is wrong with it — but a capture of a document without a root element
    (its scripts removed it) has none."""
    from ..pipeline import features, snapshot
    from ..errors import NoContent, PithError
    from ..pipeline.options import Options
    try:
        snap_ = snapshot.from_json(snap, Options().max_nodes)
    except NoContent:
        return False
    except PithError:
        return True
    return snap_.n > 0 and int(features.compute(snap_, skip_hidden=False).chars[0]) > 0


def _to_file_urls(snap: dict[str, Any], folder_uri: str) -> None:
    """Point the synthetic origin a local page was served from back at its folder.

    The browser serves a local file as http://pith.invalid/<name> (browser.py), so its
    own URL and its relative links resolve there; outputs should name the real files.
    """
    from .browser import LOCAL_ORIGIN
    prefix = LOCAL_ORIGIN + "/"
    if isinstance(snap.get("url"), str) and snap["url"].startswith(prefix):
        snap["url"] = folder_uri + snap["url"][len(prefix):]
    nodes = snap.get("nodes") or {}
    urls, hosts = nodes.get("url"), nodes.get("host")
    if not isinstance(urls, list) or not isinstance(hosts, list) or len(urls) != len(hosts):
        return
    for i, url in enumerate(urls):
        if isinstance(url, str) and url.startswith(prefix):
            urls[i] = folder_uri + url[len(prefix):]
            hosts[i] = ""


def fetch(url: str, timeout_s: float) -> tuple[bytes, str | None, str]:
    """GET an http(s) URL for --static: (body, charset from Content-Type, final URL)."""
    request = urllib.request.Request(url, headers={"User-Agent": "pith (+static fetch)"})
    try:
        with urllib.request.urlopen(request, timeout=timeout_s) as response:
            body = response.read(MAX_FETCH_BYTES + 1)
            if len(body) > MAX_FETCH_BYTES:
                raise FetchFailed(f"{url}: larger than {MAX_FETCH_BYTES} bytes")
            msg = Message()
            msg["content-type"] = response.headers.get("Content-Type", "")
            return body, msg.get_param("charset"), response.geturl()
    except urllib.error.HTTPError as exc:
        raise FetchFailed(f"{url}: HTTP {exc.code} {exc.reason}", status=exc.code) from None
    except urllib.error.URLError as exc:
        if isinstance(exc.reason, TimeoutError):
            raise Timeout(f"{url}: no answer within {timeout_s:g} s") from None
        raise network.unreachable(url, exc.reason) from None
    except TimeoutError:
        raise Timeout(f"{url}: no answer within {timeout_s:g} s") from None
    except (ConnectionError, http.client.HTTPException) as exc:   # dropped mid-answer
        raise network.unreachable(url, exc) from None
