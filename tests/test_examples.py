"""The bundled example pages (host/examples/): everything they load is shipped and served by `make run`'s server."""
from __future__ import annotations

import html.parser
import urllib.parse
import urllib.request
from pathlib import Path

import pytest

from pith import demo

EXAMPLES = demo.EXAMPLES
PAGES = sorted(EXAMPLES.glob("*.html"))
# What a page loads by itself (links a person follows are not fetched).
LOADED = {("img", "src"), ("script", "src"), ("source", "src"), ("link", "href"), ("video", "poster")}
FETCH_TIMEOUT_S = 10


class _Sources(html.parser.HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.urls: list[str] = []

    def handle_starttag(self, tag, attrs):
        for name, value in attrs:
            if (tag, name) in LOADED and value:
                self.urls.append(value)


def sources(page: Path) -> list[str]:
    parser = _Sources()
    parser.feed(page.read_text(encoding="utf-8"))
    return parser.urls


def test_there_is_an_example_with_an_image():
    assert demo.PAGE in [p.name for p in PAGES]
    assert any(u.endswith(".png") for u in sources(EXAMPLES / demo.PAGE))


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_every_source_is_shipped_and_served(page):
    httpd, base = demo.serve(EXAMPLES)
    try:
        for url in sources(page):
            full = urllib.parse.urljoin(f"{base}/{page.name}", url)
            assert full.startswith(base + "/"), f"{page.name} loads {url} from elsewhere"
            local = EXAMPLES / urllib.parse.unquote(urllib.parse.urlsplit(full).path.lstrip("/"))
            assert local.is_file(), f"{page.name} references {url}, which is not in {EXAMPLES}"
            with urllib.request.urlopen(full, timeout=FETCH_TIMEOUT_S) as reply:
                body = reply.read()
                assert reply.status == 200
                if url.endswith(".png"):
                    assert reply.headers["Content-Type"] == "image/png"
                    assert body.startswith(b"\x89PNG\r\n\x1a\n")
            assert body == local.read_bytes()
    finally:
        httpd.shutdown()
        httpd.server_close()
