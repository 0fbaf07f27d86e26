"""Test helper: serve a folder on 127.0.0.1 (a free port) for a bounded time, quietly."""
from __future__ import annotations

import contextlib
import functools
import http.server
import threading
from pathlib import Path
from typing import Iterator

# A test server that outlives its tests (a hung test, a forgotten fixture) stops itself.
SERVER_LIFETIME_S = 300.0


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    """SimpleHTTPRequestHandler without the per-request log lines on stderr."""

    def log_message(self, *args):
        pass


@contextlib.contextmanager
def serve(directory: Path, handler: type = QuietHandler,
          lifetime_s: float = SERVER_LIFETIME_S) -> Iterator[str]:
    """Yields the base URL (http://127.0.0.1:PORT) of a server for `directory`."""
    httpd = http.server.ThreadingHTTPServer(
        ("127.0.0.1", 0), functools.partial(handler, directory=str(directory)))
    httpd.daemon_threads = True
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    deadline = threading.Timer(lifetime_s, httpd.shutdown)
    deadline.daemon = True
    deadline.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}"
    finally:
        deadline.cancel()
        httpd.shutdown()
        httpd.server_close()
        thread.join(5)
