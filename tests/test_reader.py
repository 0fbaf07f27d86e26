"""pith.pipeline.reader: what the reader view leaves out of a selected block."""
from __future__ import annotations

import dataclasses
import json

import numpy as np
import pytest

from builders import make_snapshot
from conftest import PAGES
from pith.errors import BadNode
from pith.pipeline import reader
from pith.pipeline.options import Options
from pith.pipeline.select import reader_view
from pith.pipeline.select import select as select_with_blocks

# The seed methods' cleaners are what the reader uses with the block stage off; the tests
# of those steps run with it off, the block stage's own tests at the end run with it on.
ELEMENT = Options.from_overrides({"blocks": False})


def select(snap, options=ELEMENT):
    return select_with_blocks(snap, options)

PARAGRAPH = ("A paragraph of the story with enough plain words in it to be content for "
             "every method, and then some more words so that it is clearly the text.")


@pytest.fixture(scope="module")
def page():
    snap = json.loads((PAGES / "reader" / "snapshot.json").read_text(encoding="utf-8"))
    return select(snap)


def rows_of(sel, result):
    return {(str(sel.snap.tag[r]), str(sel.snap.cls[r])) for r in result["drop"]}


def test_the_article_loses_its_share_bar_form_script_frame_and_hidden_text(page):
    assert page.snap.tag[page.node] == "article"
    result = reader_view(page, page.node)
    assert rows_of(page, result) == {("ul", "share"), ("form", ""), ("script", ""),
                                     ("iframe", ""), ("p", "gone")}
    assert page.node not in result["drop"]
    assert [l["text"] for l in result["links"]] == ["Share on X", "Facebook", "Email"]
    assert result["links"][0]["href"] == "https://twitter.example/share?u=lichens"
    assert result["dropped_chars"] > 0


def test_drop_lists_only_topmost_rows_inside_the_node(page):
    result = reader_view(page, page.node)
    drop = np.array(result["drop"])
    start, end = page.node, page.snap.end[page.node]
    assert ((drop > start) & (drop < end)).all()
    marked = np.zeros(page.snap.n, np.bool_)
    marked[drop] = True
    assert not (marked & page.snap.below(marked)).any()
    assert result["drop"] == sorted(result["drop"])


def test_grown_to_body_the_menus_and_footer_go_too(page):
    body = int(page.snap.parent[page.snap.parent[page.node]])
    assert page.snap.tag[body] == "body"
    tags = {t for t, _ in rows_of(page, reader_view(page, body))}
    assert {"header", "aside", "footer"} <= tags and "main" not in tags


def test_a_form_holding_the_page_is_not_dropped():
    snap = make_snapshot([
        ("html", -1), ("body", 0), ("form", 1), ("div", 2),
        ("p", 3, {"text": PARAGRAPH}), ("p", 3, {"text": PARAGRAPH}),
        ("form", 3), ("input", 6), ("button", 6, {"text": "Search"}),
    ])
    sel = select(snap)
    result = reader_view(sel, 1)
    assert 2 not in result["drop"]                 # the ASP.NET-style page form stays
    assert 6 in result["drop"]                     # the small search form goes


def test_hidden_rows_stay_when_the_selection_counted_hidden_text(page):
    shown = dataclasses.replace(page, hidden_ignored=True)
    assert ("p", "gone") not in rows_of(shown, reader_view(shown, page.node))


def test_rows_outside_the_parts_go_while_the_answer_is_unchanged():
    snap = make_snapshot([
        ("html", -1), ("body", 0), ("div", 1),
        ("p", 2, {"text": PARAGRAPH}), ("div", 2, {"text": "Unrelated box"}),
        ("p", 2, {"text": PARAGRAPH}),
    ])
    sel = select(snap)
    parts = dataclasses.replace(sel.result, node=2, parts=np.array([3, 5]))
    sel = dataclasses.replace(sel, result=parts)
    assert reader_view(sel, 2)["drop"] == [4]
    assert 4 not in reader_view(sel, 1)["drop"]   # grown: the parts no longer apply


def test_image_links_stay():
    snap = make_snapshot([
        ("html", -1), ("body", 0), ("article", 1), ("p", 2, {"text": PARAGRAPH}),
        ("a", 2, {"link": 1, "url": "https://example.org/big.jpg", "host": "example.org"}),
        ("img", 4, {"url": "https://example.org/small.jpg", "host": "example.org"}),
        ("p", 2, {"text": PARAGRAPH}),
    ])
    sel = select(snap)
    assert 4 not in reader_view(sel, 2)["drop"]


def test_links_are_capped(page, monkeypatch):
    monkeypatch.setattr(reader, "MAX_LINKS", 2)
    assert len(reader_view(page, page.node)["links"]) == 2


def test_a_node_outside_the_snapshot_is_bad_node(page):
    with pytest.raises(BadNode):
        reader_view(page, page.snap.n)


def test_page_furniture_leaves_a_grown_block_unless_it_is_the_block():
    """Grown to the whole page, the reader still drops menus, sidebars, footer and dialog;
    a block that is nearly all one aside keeps it."""
    from pith.pages import static
    from pith.pipeline.options import Options
    html = ("<html><body><nav><a href=/a>Home</a> <a href=/b>Blog</a></nav>"
            f"<main><article><p>{PARAGRAPH}</p><p>{PARAGRAPH}</p></article></main>"
            "<div id=wrap><aside><p>Side notes that are words and more words here.</p></aside>"
            "</div><footer><p>Copyright and addresses and so on.</p></footer>"
            "<div aria-modal=true><p>We use cookies to improve the site for you.</p></div>"
            "</body></html>")
    sel = select(static.snapshot_from_html(html, "http://example.org/"))
    tags = list(sel.snap.tag)
    body = tags.index("body")
    dropped = {str(sel.snap.tag[r]) for r in reader_view(sel, body)["drop"]}
    assert {"nav", "aside", "footer"} <= dropped
    assert any(sel.snap.role[r] == "dialog" for r in reader_view(sel, body)["drop"])
    assert "article" not in dropped and "main" not in dropped
    wrap = list(sel.snap.id).index("wrap")
    assert reader_view(sel, wrap)["drop"] == []
    off = dataclasses.replace(sel, options=Options.from_overrides({"auto_furniture": False, "blocks": False}))
    assert not {"aside", "footer"} & {str(off.snap.tag[r]) for r in reader_view(off, body)["drop"]}


def test_link_lists_that_are_most_of_the_block_stay():
    """A listing's items are link lists to LQF; when they are most of the block the reader
    keeps them (an article's share bar still goes: the first test)."""
    rows = [("html", -1), ("body", 0), ("main", 1), ("ul", 2)]
    for k in range(8):
        li = len(rows)
        rows += [("li", 3), ("a", li, {"text": f"Listing entry number {k} with a title",
                                       "link": 1, "url": f"https://example.org/{k}"})]
    rows.append(("p", 2, {"text": "Eight entries."}))
    sel = select(make_snapshot(rows))
    main = list(sel.snap.tag).index("main")
    assert reader_view(sel, main)["drop"] == []
    loose = dataclasses.replace(sel, options=dataclasses.replace(sel.options, auto_clean_max=1.0))
    assert 3 in reader_view(loose, main)["drop"]


# What the reader drops whatever a block decision says: widgets, embeds, code, hidden rows.
HARD_TAGS = ("iframe", "frame", "embed", "object", "script", "style", "noscript", "form",
             "input", "button", "select", "textarea", "meta", "link")


def hard(sel, row):
    return bool(sel.feats.hidden[row]) or str(sel.snap.tag[row]) in HARD_TAGS \
        or bool(sel.snap.host[row])


def ancestors(sel, row):
    out, p = [], int(sel.snap.parent[row])
    while p >= 0:
        out.append(p)
        p = int(sel.snap.parent[p])
    return out


def reader_page():
    return select_with_blocks(json.loads((PAGES / "reader" / "snapshot.json").read_text(
        encoding="utf-8")))


def test_with_blocks_the_reader_leaves_out_exactly_the_dropped_blocks_and_hard_rows():
    sel = reader_page()
    node = sel.node
    dropped = set(reader_view(sel, node)["drop"])
    blocks = sel.blocks_wire(node)
    for row in blocks["drop"]:        # every block the model left out is left out
        assert row in dropped or dropped & set(ancestors(sel, row))
    for row in blocks["kept"]:        # nothing kept is dropped, unless it is never content
        hit = [a for a in [row, *ancestors(sel, row)] if a in dropped]
        assert not hit or hard(sel, hit[0])


def test_the_readers_include_and_exclude_win_over_the_model():
    sel = reader_page()
    node = sel.node
    every = [int(r) for r in sel.snap.children(node)]
    gone = reader_view(sel, node, exclude=every)
    assert {r for r in every if sel.feats.chars[r] > 0} <= set(gone["drop"])
    back = reader_view(sel, node, include=every)
    assert all(hard(sel, r) for r in back["drop"]), back["drop"]


def test_drop_and_quiet_lists_are_cut_just_over_their_limit(page, monkeypatch):
    """SECURITY.md, "Limits": clean's row lists, at the limit and one row over it."""
    from pith.pipeline import wire
    full = reader_view(page, 0)
    rows = len(full["drop"])
    assert rows >= 2 and full["truncated"] is False
    monkeypatch.setattr(wire, "MAX_BLOCK_ROWS", rows)
    assert reader_view(page, 0)["truncated"] is False
    monkeypatch.setattr(wire, "MAX_BLOCK_ROWS", rows - 1)
    cut = reader_view(page, 0)
    assert cut["truncated"] is True and cut["drop"] == full["drop"][:rows - 1]
