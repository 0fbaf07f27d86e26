"""Tests of batch/work.py: one record becomes one row of the same fields, whatever happens to it."""
from __future__ import annotations

import pytest

from pith.batch import work
from pith.batch.records import Record
from pith.errors import InputEmpty

ARTICLE = ("<html lang='en'><head><title>Tides of the north | Coast Post</title></head><body>"
           "<nav><a href='/'>Home</a> <a href='/news'>News</a></nav><article><h1>Tides of "
           "the north</h1>" + "<p>The tide came in twice a day along the northern coast, and "
           "the fishermen read it like a clock they had always known.</p>" * 6
           + "</article></body></html>").encode()


def record(data: bytes | None, **kw) -> Record:
    return Record(0, "crawl.warc@12", "https://coast.example/tides", data, **kw)


def test_a_page_gives_an_ok_row_with_every_field_and_its_metadata():
    row = work.extract(record(ARTICLE), work.Job())
    assert tuple(row) == work.ROW_FIELDS
    assert row["status"] == "ok" and "read it like a clock" in row["text"]
    assert row["title"] == "Tides of the north" and row["language"] == "en"
    assert row["markdown"] is None and row["html"] is None and row["error"] is None
    assert row["path"] and row["page_type"] == "article"
    assert set(row["timings"]) == {"read_ms", "snapshot_ms", "select_ms", "render_ms"}


def test_markdown_and_html_come_only_when_asked_for():
    row = work.extract(record(ARTICLE), work.Job(extra=("markdown",)))
    assert row["markdown"].startswith("# Tides of the north") and row["html"] is None


def test_a_page_without_main_text_is_an_empty_row_not_a_failure():
    row = work.extract(record(b"<html><head><title>T</title></head><body><img src='a.png'>"
                              b"<script>var shown = 'no';</script></body></html>"), work.Job())
    assert (row["status"], row["text"], row["error"]) == ("empty", "", None)
    assert tuple(row) == work.ROW_FIELDS


def test_a_record_that_could_not_be_read_is_its_failure_with_no_work_done(monkeypatch):
    monkeypatch.setattr(work, "select", lambda *a: pytest.fail("no work for a failed record"))
    row = work.extract(record(None, failure=InputEmpty("the record has no body")), work.Job())
    assert row["status"] == "failed" and row["error"]["name"] == "input_empty"
    assert row["url"] == "https://coast.example/tides" and tuple(row) == work.ROW_FIELDS


@pytest.mark.parametrize("raised,words", [(ValueError("odd page"), "ValueError: odd page"),
                                          (RecursionError("max depth"), "too deep")])
def test_a_bug_on_one_page_is_that_pages_internal_error_and_the_crawl_goes_on(
        monkeypatch, raised, words):
    def broken(*args):
        raise raised
    monkeypatch.setattr(work, "select", broken)
    row = work.extract(record(ARTICLE), work.Job())
    assert row["status"] == "failed" and row["error"]["code"] == 1
    assert row["error"]["message"].startswith("crawl.warc@12: ") and words in row["error"]["message"]


def test_running_out_of_memory_is_left_to_the_pool(monkeypatch):
    def hungry(*args):
        raise MemoryError
    monkeypatch.setattr(work, "select", hungry)
    with pytest.raises(MemoryError):
        work.extract(record(ARTICLE), work.Job())


def test_an_http_charset_no_browser_knows_is_ignored_as_browsers_do():
    page = "<html><head><meta charset='utf-8'></head><body><p>Café crème</p></body></html>"
    row = work.extract(record(page.encode(), charset="x-no-such-charset"), work.Job())
    assert row["status"] == "ok" and "Café crème" in row["text"]
    forced = work.extract(record(page.encode(), charset="x-no-such-charset"),
                          work.Job(encoding="x-no-such-charset"))
    assert forced["status"] == "failed" and forced["error"]["name"] == "input_decode"


def test_the_http_content_language_stands_when_the_page_declares_none():
    page = b"<html><body><article><p>" + b"Ein langer Satz ueber das Meer. " * 20 + b"</p></article></body></html>"
    row = work.extract(record(page, language="de"), work.Job())
    assert row["language"] == "de"


def test_a_comment_thread_is_its_own_field_never_in_the_text():
    thread = "".join(
        f"<li class='comment' id='comment-{i}'><div class='comment-author'><a href='/u{i}'>"
        f"reader{i}</a></div><time datetime='2024-03-0{i}'>March {i}, 2024</time><p>Reply "
        f"number {i}: the tides were late this year near the harbour wall.</p>"
        f"<a class='comment-reply-link' href='#r{i}'>Reply</a></li>" for i in range(1, 7))
    page = ARTICLE.replace(b"</article>", b"</article><section id='comments'><h2>6 Comments"
                           b"</h2><ol class='comment-list'>" + thread.encode() + b"</ol></section>")
    row = work.extract(record(page), work.Job())
    assert "Reply number 3" in (row["comments"] or "")
    assert "Reply number" not in row["text"] and "read it like a clock" in row["text"]
    assert work.extract(record(ARTICLE), work.Job())["comments"] is None
