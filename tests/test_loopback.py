"""Tests of pages/loopback.py: the local server serves a registered page's folder and nothing else."""
from __future__ import annotations

import http.client
import os

from urllib.parse import urlsplit

import pytest

from pith.pages.loopback import Loopback, Served


@pytest.fixture(scope="module")
def server():
    running = Loopback()
    running.start()
    yield running
    running.close()


@pytest.fixture
def served(server, tmp_path):
    folder = tmp_path / "page"
    folder.mkdir()
    (folder / "style.css").write_text("p { color: red }")
    (folder / "img").mkdir()
    (folder / "img" / "a b.png").write_bytes(b"\x89PNG")
    (tmp_path / "secret.txt").write_text("not the page's")
    token = server.add(Served(name="index.html", body="<p>héllo</p>".encode(),
                              folder=folder.resolve()))
    yield server, token, tmp_path
    server.remove(token)


def get(server: Loopback, path: str) -> tuple[int, bytes, str]:
    """GET a raw path (not normalised on the way, as a page's own request would be)."""
    conn = http.client.HTTPConnection("127.0.0.1", urlsplit(server.url("t", "x")).port,
                                      timeout=5)
    try:
        conn.request("GET", path)
        answer = conn.getresponse()
        return answer.status, answer.read(), answer.getheader("Content-Type") or ""
    finally:
        conn.close()


def test_the_page_is_served_as_utf8_html_at_its_name(served):
    server, token, _ = served
    status, body, kind = get(server, f"/{token}/index.html")
    assert (status, body.decode(), kind) == (200, "<p>héllo</p>", "text/html; charset=utf-8")


def test_files_beside_the_page_are_served_with_their_type_and_quoted_names(served):
    server, token, _ = served
    assert get(server, f"/{token}/style.css")[::2] == (200, "text/css")
    url = server.url(token, "img/a b.png")
    assert url.endswith("/img/a%20b.png")
    status, body, _ = get(server, urlsplit(url).path)
    assert (status, body) == (200, b"\x89PNG")


@pytest.mark.parametrize("rel", ["../secret.txt", "%2e%2e/secret.txt", "img/../../secret.txt",
                                 "%2Fetc%2Fpasswd", "img"])
def test_nothing_outside_the_folder_nor_a_folder_is_served(served, rel):
    server, token, _ = served
    assert get(server, f"/{token}/{rel}")[0] == 404


@pytest.mark.skipif(not hasattr(os, "symlink"), reason="no symlinks here")
def test_a_link_in_the_folder_to_a_file_outside_is_not_followed(served):
    server, token, root = served
    (root / "page" / "link.txt").symlink_to(root / "secret.txt")
    assert get(server, f"/{token}/link.txt")[0] == 404


def test_an_unknown_or_removed_token_serves_nothing(served):
    server, token, _ = served
    assert get(server, "/not-a-token/index.html")[0] == 404
    assert get(server, "/index.html")[0] == 404
    server.remove(token)
    assert get(server, f"/{token}/index.html")[0] == 404
    server.remove(token)                     # removing twice is no error


def test_tokens_are_unguessable_and_distinct(tmp_path):
    server = Loopback()                      # never started: tokens need no server
    page = Served(name="a.html", body=b"", folder=tmp_path)
    tokens = {server.add(page) for _ in range(50)}
    assert len(tokens) == 50 and min(len(t) for t in tokens) >= 20


def test_start_and_close_are_safe_to_repeat():
    server = Loopback()
    server.start()
    first = server.url("t", "a")
    server.start()
    assert server.url("t", "a") == first
    server.close()
    server.close()
    with pytest.raises(AssertionError):
        server.url("t", "a")
