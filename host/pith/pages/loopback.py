"""Local pages handed to Chromium over a loopback socket, not through Playwright's driver.

browser.py serves a local file under the synthetic origin `http://pith.invalid/`; its
route handler answers with `route.fulfill(body=...)`, which Playwright passes to its
driver as one base64 message: the driver is busy about 0.5 s per MB (2 MB 0.9 s, 5 MB
1.9 s, 10 MB 5.0 s; a 20 MB page 23 s), deaf to everything else meanwhile, so a
`--timeout 1` on a 20 MB page returned after 22-31 s with a traceback of the handler the
closed page interrupted. A body over browser.FULFILL_MAX_BYTES is now sent here instead
(`route.continue_(url=...)`, which the page does not see: its URL stays
`http://pith.invalid/...`), and Chromium reads it from a socket at once (NOTES.md, 'Why a
WARC record is checked against its frame, and inputs against their kind (issue 34)').

One server per Browser, started on first use, bound to 127.0.0.1 on a free port,
serving only what is registered with it: each page under an unguessable token, the
page's decoded HTML at its own name and the files of its folder beside it (never outside
the folder), for as long as its capture runs. The page's own scripts cannot reach it:
the route handler aborts every request that is not to the synthetic origin.
"""
from __future__ import annotations

import http.server
import mimetypes
import secrets
import threading
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote, unquote, urlsplit


@dataclass(frozen=True)
class Served:
    """One local page: its name in its folder, its HTML as UTF-8, the folder."""

    name: str
    body: bytes
    folder: Path


class Loopback:
    """The server; `start()` before use, `close()` after (both safe to repeat)."""

    def __init__(self) -> None:
        self._pages: dict[str, Served] = {}
        self._server: http.server.ThreadingHTTPServer | None = None

    def start(self) -> None:
        if self._server is not None:
            return
        pages = self._pages

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self) -> None:     # noqa: N802 (the stdlib's name)
                token, _, rel = urlsplit(self.path).path.lstrip("/").partition("/")
                served = pages.get(token)
                body, kind = _answer(served, unquote(rel)) if served else (None, "")
                try:
                    if body is None:
                        self.send_error(404)
                        return
                    self.send_response(200)
                    self.send_header("Content-Type", kind)
                    self.send_header("Content-Length", str(len(body)))
                    self.end_headers()
                    self.wfile.write(body)
                except OSError:           # the page was closed mid-answer (a timeout)
                    pass

            def log_message(self, *args) -> None:
                pass

        self._server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        threading.Thread(target=self._server.serve_forever, name="pith-loopback",
                         daemon=True).start()

    def close(self) -> None:
        server, self._server = self._server, None
        if server is not None:
            server.shutdown()
            server.server_close()
        self._pages.clear()

    def add(self, served: Served) -> str:
        """Serve `served`; the token its URLs carry."""
        token = secrets.token_urlsafe(16)
        self._pages[token] = served
        return token

    def remove(self, token: str) -> None:
        self._pages.pop(token, None)

    def url(self, token: str, rel: str) -> str:
        """Where Chromium fetches `rel` (a path relative to the page's folder)."""
        assert self._server is not None, "start() the loopback server first"
        return f"http://127.0.0.1:{self._server.server_address[1]}/{token}/{quote(rel)}"


def _answer(served: Served, rel: str) -> tuple[bytes | None, str]:
    """(body, Content-Type) of `rel` for a page, None when it is not there."""
    if rel == served.name:
        return served.body, "text/html; charset=utf-8"
    file = (served.folder / rel).resolve()
    if not (file.is_relative_to(served.folder) and file.is_file()):
        return None, ""
    try:
        return file.read_bytes(), mimetypes.guess_type(file.name)[0] or "application/octet-stream"
    except OSError:
        return None, ""
