"""Inputs of the CLI: a path or URL → its snapshot (rendered in Chromium, or static with lxml).

`Capturer` hides the two modes behind one call, times the capture, and names each
input's output file (`X.html` → `X`, a URL → its last path segment or host), which is a
contract outside evaluation scripts rely on.

A rendered page that shows no text at all (an app whose scripts cannot load: saved pages
render offline; a forum that keeps its posts in <noscript> for crawlers) is captured
again as a browser without scripting shows it, the --static snapshot of the same HTML;
the snapshot then says `"fallback": "static"` and carries a `rendered_no_text` warning.
So is a page that shows less than half the text its noscripts hold (the same forum
showing its splash line only): warning `rendered_noscript`.
"""
from __future__ import annotations

import http.client
import re
import time
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass
from email.message import Message
from pathlib import Path
from typing import Any

import numpy as np

from . import network, static
from ..errors import FetchFailed, Timeout
from .local import check_local, read_local, unsupported_scheme

# Timeout of a --static URL fetch and of a page load in the browser: long enough for
# a slow site, short enough that a batch never hangs on one page.
DEFAULT_TIMEOUT_S = 30.0
# Largest page --static downloads; a browser would refuse to be useful beyond it too.
MAX_FETCH_BYTES = 64 * 1024 * 1024
_UNSAFE_NAME = re.compile(r"[^A-Za-z0-9._-]+")
# A rendered page showing less than this share of the text its noscripts hold was not
# drawn by its scripts (`undrawn`). Half: on 1,400 cached rendered training pages of
# wcxb_dev_full, dragnet_train and magic_html the one page its scripts did not draw shows
# 0.003 of it (a Discourse forum's splash line), every other 0.9 or more (NOTES.md, 'Why a
# rendered page its scripts did not draw is read without scripts').
NOSCRIPT_DRAWN_SHARE = 0.5
FALLBACK_MESSAGES = {
    "rendered_no_text": "the rendered page showed no text",
    "rendered_noscript": "the rendered page showed less text than its noscripts hold",
}


def is_url(target: str) -> bool:
    return re.match(r"^(https?|file)://", target, re.I) is not None


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
    # `snapshot` validated, when the capture had to read it (a rendered page's text
    # check): select takes it as it is rather than validating a million rows again
    validated: Any = None

    @property
    def for_select(self) -> Any:
        """What select reads: the validated Snapshot when there is one, else the capture."""
        return self.validated if self.validated is not None else self.snapshot


class Capturer:
    """Snapshots inputs in one mode; a context manager so the browser is started once."""

    def __init__(self, static_mode: bool = False, js: bool = True,
                 timeout_s: float = DEFAULT_TIMEOUT_S, encoding: str | None = None,
                 encoding_errors: str = "strict", max_nodes: int | None = None) -> None:
        self.static_mode = static_mode
        self.max_nodes = max_nodes      # select's limit (Options.max_nodes) when validating
        self.js = js
        self.timeout_s = timeout_s
        self.encoding = encoding
        self.encoding_errors = encoding_errors
        self._browser = None

    def __enter__(self) -> "Capturer":
        return self

    def _started(self):
        """The browser, started at the first input that needs it: a run whose inputs are
        all refused (a device, a FIFO, a data: URL) answers at once, without a browser."""
        if self._browser is None:
            from .browser import Browser   # Playwright is imported only when used
            browser = Browser(js=self.js, timeout_s=self.timeout_s,
                              encoding=self.encoding, encoding_errors=self.encoding_errors)
            browser.__enter__()
            self._browser = browser
        return self._browser

    def __exit__(self, *exc) -> None:
        if self._browser is not None:
            self._browser.__exit__(*exc)
            self._browser = None

    def capture(self, target: str) -> Captured:
        t0 = time.perf_counter()
        refused = unsupported_scheme(target)
        if refused is not None:
            raise refused
        if not self.static_mode:
            path = local_path(target)
            if path is not None:
                check_local(path)          # refused before a browser is started for it
            snap = self._started().capture(target)
            if path is not None:
                _to_file_urls(snap, path.resolve().parent.as_uri() + "/")
            shown, validated = text_check(snap, self.max_nodes)
            code = fallback_code(shown, validated)
            if code is not None:
                snap, validated = self.static_fallback(target, code), None
        else:
            snap, validated = self._static(target), None
        return Captured(target, snap, (time.perf_counter() - t0) * 1e3, validated)

    def static_fallback(self, target: str, code: str = "rendered_no_text") -> dict[str, Any]:
        """The --static snapshot of a rendered page its scripts did not draw (`code`,
        FALLBACK_MESSAGES: it showed no text, or less than its noscripts hold), marked so."""
        snap = self._static(target)
        snap["fallback"] = "static"
        snap.setdefault("warnings", []).append(
            {"code": code, "message": FALLBACK_MESSAGES[code] + "; captured as a browser "
                                                             "without scripting shows it"})
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


def fallback_code(shown: bool, validated: Any) -> str | None:
    """Why a rendered capture (`text_check`'s answer for it) is taken again without
    scripts, or None when it stands: `rendered_no_text` when it shows no text,
    `rendered_noscript` when its scripts did not draw the page (`undrawn`)."""
    if not shown:
        return "rendered_no_text"
    if validated is not None and undrawn(validated):
        return "rendered_noscript"
    return None


def rendered_fallback(snap: dict[str, Any]) -> str | None:
    """`fallback_code` of a rendered capture given as JSON (a cached one)."""
    return fallback_code(*text_check(snap))


def undrawn(snap_: Any) -> bool:
    """Whether the page's noscripts, read as a browser without scripting reads them (their
    raw markup parsed, less styles, scripts and drawings: static.markup_text), hold more than
    1 / NOSCRIPT_DRAWN_SHARE times the text the rendered page shows outside code: a
    forum that keeps its posts in <noscript> for crawlers, captured offline (a saved page:
    its app's scripts cannot load), shows its splash line only (NOTES.md, 'Why a rendered
    page its scripts did not draw is read without scripts')."""
    from ..pipeline import features
    rows = np.flatnonzero(snap_.tag == "noscript")
    if not len(rows):
        return False
    # a noscript built as elements (--no-js) is shown already; one held as raw markup
    # holds at most its length in text: most pages are told apart without parsing it
    raw = [t for t in snap_.cols["text"][rows].tolist() if t and "<" in t]
    if not raw:
        return False
    code = features.code_rows(snap_)
    shown = int(features.own_lengths(snap_)[~(code | snap_.below(code))].sum())
    if shown >= NOSCRIPT_DRAWN_SHARE * sum(map(len, raw)):
        return False
    held = static.markup_text("\n".join(raw))
    return shown < NOSCRIPT_DRAWN_SHARE * int(features.nonspace_lengths(np.array([held]))[0])


def has_text(snap: dict[str, Any]) -> bool:
    """Whether a snapshot holds any text outside code (hidden text counts: the pipeline
    scores it when nothing else is there); an invalid snapshot says yes, so that select
    reports what is wrong with it — but a capture of a document without a root element
    (its scripts removed it) has none."""
    return text_check(snap)[0]


def text_check(snap: dict[str, Any], max_nodes: int | None = None) -> tuple[bool, Any]:
    """(has_text, the validated Snapshot or None when it is invalid or has no root):
    the Snapshot is what select would build from `snap` under the same `max_nodes`
    (default: Options'), with the text counts it read kept on it."""
    from ..pipeline import features, snapshot
    from ..errors import NoContent, PithError
    from ..pipeline.options import Options
    try:
        snap_ = snapshot.from_json(snap, Options().max_nodes if max_nodes is None else max_nodes)
    except NoContent:
        return False, None
    except PithError:
        return True, None
    if snap_.n == 0:
        return False, snap_
    # text outside code, shown or hidden: features.compute(skip_hidden=False).chars[0] > 0
    # without the rest of the features (select computes them with its own options)
    code = features.code_rows(snap_)
    out = code | snap_.below(code)
    text = features.column_lengths(snap_, "text")
    tail = features.column_lengths(snap_, "tail")
    shown = bool((text[~out] > 0).any() or (tail[1:][~out[snap_.parent[1:]]] > 0).any())
    return shown, snap_


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
