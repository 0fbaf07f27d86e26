"""Blocks: which rows own which text, and rendering only the kept blocks."""
import numpy as np
import pytest

from builders import make_snapshot
from pith.pipeline import render
from pith.pipeline.blocks import segment as blocks
from pith.pipeline.features import compute
from pith.pipeline.snapshot import from_json


def page():
    return from_json(make_snapshot([
        ("html", -1),                                                        # 0
        ("body", 0),                                                         # 1
        ("div", 1, {"text": "Share this", "cls": "post"}),                   # 2  own run
        ("p", 2, {"text": "First paragraph with "}),                         # 3
        ("a", 3, {"text": "a link", "tail": " inside.", "link": 1,
                  "url": "https://example.org/x"}),                          # 4  inline: p's
        ("div", 3, {"text": "div inside p"}),                                # 5  atomic p owns
        ("ul", 2),                                                           # 6
        ("li", 6, {"text": "one"}),                                          # 7
        ("li", 6, {"text": "two"}),                                          # 8
        ("table", 2),                                                        # 9  layout table
        ("tr", 9),                                                           # 10
        ("td", 10, {"text": "cell a"}),                                      # 11 a layout cell
        ("td", 10, {"text": "cell b"}),                                      # 12
        ("table", 2),                                                        # 13 data table
        ("tr", 13),                                                          # 14
        ("th", 14, {"text": "k"}),                                           # 15
        ("tr", 13),                                                          # 16
        ("td", 16, {"text": "v"}),                                           # 17
        ("div", 2),                                                          # 18
        ("img", 18, {"url": "https://example.org/i.png"}),                   # 19 image-only block
        ("button", 2, {"text": "Like", "tail": " tail of button"}),          # 20 widget: no text
        ("p", 2, {"text": "hidden", "hidden": 1}),                           # 21 hidden: no block
    ]), 1000)


def test_block_rows_follow_the_definition():
    snap = page()
    b = blocks.compute(snap, compute(snap))
    # the div's own run (and the button's tail), p, li, li, two layout cells, data table,
    # image div
    assert b.rows.tolist() == [2, 3, 7, 8, 11, 12, 13, 18]
    owner = b.owner
    assert owner[4] == 3 and owner[5] == 3          # inline link and a div inside an atomic p
    assert owner[11] == 11 and owner[12] == 12       # layout cells are blocks
    assert owner[15] == owner[17] == 13              # a data table is one block
    texts = dict(zip(b.rows.tolist(), blocks.texts(snap, b)))
    assert texts[3] == "First paragraph with a link inside. div inside p"
    assert texts[11] == "cell a"
    assert texts[2] == "Share this tail of button"   # a widget's own label is not text
    assert b.images[b.rows.tolist().index(18)] == 1 and b.chars[b.rows.tolist().index(18)] == 0
    assert b.linked[b.rows.tolist().index(3)] == len("alink")


def test_nested_tables_and_cells_with_paragraphs_are_not_data_tables():
    snap = from_json(make_snapshot([
        ("table", -1), ("tr", 0), ("th", 1, {"text": "h"}), ("td", 1),
        ("table", 3), ("tr", 4), ("td", 5, {"text": "x"}),
    ]), 100)
    assert not blocks.data_tables(snap).any()
    snap = from_json(make_snapshot([
        ("div", -1),
        ("table", 0), ("tr", 1), ("th", 2, {"text": "h"}), ("td", 2, {"text": "1"}),   # data
        ("table", 0), ("tr", 5), ("th", 6, {"text": "menu"}), ("td", 6),                 # layout
        ("p", 8, {"text": "A whole article in a cell."}),
    ]), 100)
    assert blocks.data_tables(snap).tolist() == [False, True] + [False] * 3 + [False] * 5


def test_a_page_without_tables_has_no_data_table_and_skips_the_sums(monkeypatch):
    snap = from_json(make_snapshot([("div", -1), ("p", 0, {"text": "x"})]), 100)
    monkeypatch.setattr(type(snap), "subtree_sum", lambda *a: pytest.fail("summed"))
    assert blocks.data_tables(snap).tolist() == [False, False]


def test_render_masks_show_exactly_the_kept_blocks():
    snap = page()
    feats = compute(snap)
    b = blocks.compute(snap, feats)
    keep = np.isin(b.rows, [3, 8, 13])
    drop, quiet = blocks.render_masks(snap, b, keep, 2)
    text = render.to_text(snap, feats, [2], drop, quiet)
    assert "First paragraph with a link inside." in text
    assert "two" in text and "k" in text and "v" in text
    for gone in ("Share this", "one", "cell a", "tail of button"):
        assert gone not in text
    assert quiet[2] and not drop[2]                  # the container stays, its run goes
    assert drop[7] and drop[9] and drop[18]          # the topmost rows with nothing kept go
    assert not drop[11]                              # (inside the dropped layout table)


def test_render_masks_keep_an_image_block_and_a_kept_container_run():
    snap = page()
    feats = compute(snap)
    b = blocks.compute(snap, feats)
    keep = np.isin(b.rows, [2, 18])
    drop, quiet = blocks.render_masks(snap, b, keep, 2)
    assert not quiet.any()
    md = render.to_markdown(snap, feats, [2], drop, quiet)
    assert "Share this" in md and "i.png" in md and "First paragraph" not in md


def test_texts_join_each_blocks_pieces_in_reading_order():
    """blocks.texts: per block, its pieces (blocks.pieces, in reading order) joined with
    the spaces collapsed, for all blocks and for a subset in any order, as a loop over the
    pieces appending each to its block gives (an equivalence test: it holds on the code
    before it too)."""
    snap = page()
    b = blocks.compute(snap, compute(snap))

    def by_loop(which):
        blk, strings = blocks.pieces(snap, b, which)
        k = len(b.rows) if which is None else len(which)
        out = [[] for _ in range(k)]
        for i, s in zip(blk.tolist(), strings):
            out[i].append(s)
        return [" ".join(" ".join(parts).split()) for parts in out]

    for which in (None, np.arange(len(b.rows))[::-1], np.array([2, 0]), np.zeros(0, np.int64)):
        assert blocks.texts(snap, b, which) == by_loop(which)
    got = dict(zip(b.rows.tolist(), blocks.texts(snap, b)))
    assert got[3] == "First paragraph with a link inside. div inside p"
