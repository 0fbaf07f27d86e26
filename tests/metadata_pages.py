"""Test helper: the metadata the pipeline answers for a small static page, and the pages the
metadata tests share."""
from __future__ import annotations

from pith.pages import static
from pith.pipeline.select import select


def meta_of(body: str, title: str = "Page", head: str = "", lang: str = "en",
            url: str = "http://pith.test/page.html") -> dict:
    html = (f'<!DOCTYPE html><html lang="{lang}"><head><title>{title}</title>{head}</head>'
            f"<body>{body}</body></html>")
    return select(static.snapshot_of_html(html, url, 10**6)).metadata.to_wire()


ARTICLE = "<article><h1>{h}</h1><p>" + "Words of the article go on for a while here. " * 8 + "</p></article>"


def qa_page(question_type: str) -> str:
    def post(kind, who, words):
        return (f'<div itemscope itemtype="https://schema.org/{kind}"><div itemprop="author" itemscope '
                f'itemtype="https://schema.org/Person"><span itemprop="name">{who}</span></div>'
                f'<div itemprop="text"><p>' + words * 12 + "</p></div></div>")
    return ("<h1>How do I fold a map?</h1>" + post(question_type, "Vader", "How do I fold it. ")
            + post("Answer", "pcurry", "Fold it twice. ") + post("Answer", "wjandrea", "Roll it. "))
