"""Code samples on a service page: a product's demo is left out, an article's or a reference's code is not (issue 33's service pages)."""
import json

import numpy as np

from conftest import PAGES
from pith.pages import static
from pith.pipeline import demos, pagetype
from pith.pipeline.options import Options
from pith.pipeline.select import select

FOLDER = PAGES / "service-code"
URL = "https://harbourhost.example.com/"
PITCH = ("Ship your web apps without the servers",
         "Write an endpoint in the language you already use",
         "From your first visitor to your millionth",
         "Plans for every team")
CODE = ("export default async (request)", "Missing name", 'path: "/api/greeting"')


def read(html, options=None, url=URL):
    return select(static.snapshot_from_html(html, url), Options.from_overrides(options or {}))


def test_a_landing_pages_code_sample_is_left_out():
    """The failure this fixes: the block stage keeps every `pre` whatever the model says,
    so a hosting platform's landing page read as its pitch with a function's source in
    the middle (fails with blocks_service_code off, below)."""
    html = (FOLDER / "source.html").read_text(encoding="utf-8")
    sel = read(html)
    assert sel.page_type[0] == "service"
    text = sel.output("text")
    assert all(line in text for line in PITCH)
    assert not any(line in text for line in CODE)
    before = read(html, {"blocks_service_code": False}).output("text")
    assert all(line in before for line in PITCH + CODE)


def test_the_rendered_snapshot_leaves_it_out_too():
    sel = select(json.loads((FOLDER / "snapshot.json").read_text(encoding="utf-8")))
    text = sel.output("text")
    assert "Ship your web apps without the servers" in text
    assert not any(line in text for line in CODE)


def test_inline_code_in_a_sentence_stays():
    html = (FOLDER / "source.html").read_text(encoding="utf-8").replace(
        "<p>Every plan includes",
        "<p>Set <code>HARBOUR_REGION</code> to pin your functions to one region of the "
        "network, close to your database.</p>\n    <p>Every plan includes")
    text = read(html).output("text")
    assert "Set HARBOUR_REGION to pin your functions" in text
    assert not any(line in text for line in CODE)


def test_code_stays_on_a_page_of_another_type(monkeypatch):
    """A documentation page's or an article's code is what its reader came for."""
    html = (FOLDER / "source.html").read_text(encoding="utf-8")
    for kind in ("documentation", "article", "forum"):
        monkeypatch.setattr(pagetype, "classify", lambda snap, feats, node, k=kind: (k, 0.9))
        text = read(html).output("text")
        assert all(line in text for line in CODE), kind


def test_a_page_without_kept_code_does_not_ask_for_its_type(monkeypatch):
    """The page type costs a millisecond: asked for only when a kept block is code."""
    asked = []
    real = pagetype.classify

    def spy(snap, feats, node):
        asked.append(node)
        return real(snap, feats, node)
    monkeypatch.setattr(pagetype, "classify", spy)
    sel = read("<main><h1>A note</h1><p>" + "Plain words about nothing much. " * 20
               + "</p></main>", {"auto_teasers": False}, "https://example.org/note")
    keep = np.ones(len(sel.snap.tag), np.bool_)
    rows = np.arange(sel.snap.n)
    asked.clear()
    out = demos.left_out(sel.snap, sel.feats, sel.node, rows, keep, frozenset({"pre"}))
    assert out is keep and asked == []
