"""The element of highest expected F1 under the block probabilities, and auto's use of it."""
import json
from pathlib import Path

import numpy as np

from builders import make_snapshot
from pith.pipeline.blocks import expected, keep
from pith.pipeline.blocks import segment as blocks_mod
from pith.pipeline.features import compute
from pith.pipeline.options import Options
from pith.pipeline.select import block_choice, select
from pith.pipeline.snapshot import from_json

ARTICLE = Path(__file__).parent / "fixtures" / "pages" / "blocks" / "snapshot.json"


def two_regions():
    """html > body > (div a > p, p) (div b > p) (nav > a): the rows of the blocks are 3, 4,
    6 and 7 (the nav owns its link's text)."""
    return from_json(make_snapshot([
        ("html", -1), ("body", 0),                                       # 0 1
        ("div", 1), ("p", 2, {"text": "x" * 40}), ("p", 2, {"text": "y" * 20}),  # 2 3 4
        ("div", 1), ("p", 5, {"text": "z" * 30}),                        # 5 6
        ("nav", 1), ("a", 7, {"text": "w" * 10, "link": 1}),            # 7 8 (the nav's block)
    ]), 100)


def blocks_of(snap):
    return blocks_mod.compute(snap, compute(snap))


def test_the_expected_f1_of_each_element_is_worked_out_from_the_block_probabilities():
    snap = two_regions()
    blocks = blocks_of(snap)
    assert blocks.rows.tolist() == [3, 4, 6, 7] and blocks.chars.tolist() == [40, 20, 30, 10]
    p = np.array([1.0, 0.5, 0.0, 0.0])
    score = expected.expected_f1(snap, blocks, p)
    total = 40 + 10                                       # the expected content: 40 + 0.5 x 20
    assert np.isclose(score[2], 2 * 50 / (60 + total))   # div a: both its paragraphs
    assert np.isclose(score[3], 2 * 40 / (40 + total))   # its first paragraph alone
    assert np.isclose(score[1], 2 * 50 / (100 + total))  # body: everything
    assert score[5] == 0 and score[7] == 0               # nothing expected there
    # div a, 100 / 110 = 0.909, over its first paragraph alone, 80 / 90 = 0.889
    assert expected.choose(snap, blocks, p) == 2


def test_choose_takes_the_element_that_holds_the_content_spread_over_siblings():
    snap = two_regions()
    blocks = blocks_of(snap)
    p = np.array([0.9, 0.9, 0.9, 0.05])                   # content in both divs, not the nav
    # body and html hold the same blocks: the first in document order wins
    assert expected.choose(snap, blocks, p) == 0
    assert expected.choose(snap, blocks, np.zeros(4)) is None


def test_auto_moves_to_the_element_of_highest_expected_f1_and_keeps_the_probabilities():
    capture = json.loads(ARTICLE.read_text(encoding="utf-8"))
    on = select(capture)
    assert on.page is not None and len(on.page.p) == len(on.page.texts)
    blocks = blocks_mod.compute(on.snap, on.feats)
    assert len(on.page.p) == len(blocks.rows)
    best = expected.choose(on.snap, blocks, on.page.p)
    assert on.element.node == best
    off = select(json.loads(ARTICLE.read_text(encoding="utf-8")),
                 Options.from_overrides({"auto_block_choice": False}))
    assert off.page is None
    # the bundled article's comments sit beside the story: the vote's element holds them,
    # the element of highest expected F1 does not (what the block stage then keeps of the
    # vote's element is the model's: the comments may go there too)
    said = [r for r in range(on.snap.n) if "volunteers who kept counting" in on.snap.text[r]]
    holds = lambda sel, r: sel.element.node <= r < sel.snap.end[sel.element.node]  # noqa: E731
    assert said and all(holds(off, r) for r in said) and not any(holds(on, r) for r in said)
    assert "volunteers who kept counting" not in on.output("text")
    assert "Every second Sunday" in on.output("text")


def test_other_methods_and_pinned_answers_choose_nothing():
    capture = ARTICLE.read_text(encoding="utf-8")
    assert select(json.loads(capture), Options.from_overrides({"algorithm": "lqf"})).page is None
    pinned = select(json.loads(capture), pin=2)
    assert pinned.page is None and pinned.node == 2


def test_a_readers_include_is_decided_with_the_same_probabilities(monkeypatch):
    """An include changes the blocks it names and nothing else: the other blocks keep the
    decisions the answer was made with (the page's probabilities: none is computed again,
    for the chosen node or another one)."""
    sel = select(json.loads(ARTICLE.read_text(encoding="utf-8")))

    def no_new_probabilities(*args, **kwargs):
        raise AssertionError("the block stage computed probabilities again")
    monkeypatch.setattr(keep, "probabilities", no_new_probabilities)
    assert block_choice(sel, int(sel.snap.parent[sel.node])).kept is not None
    assert block_choice(sel, sel.node) is sel.result
    blocks = blocks_mod.compute(sel.snap, sel.feats)
    rows = blocks.rows[keep.scope(sel.snap, blocks, sel.scope)]
    kept = set(sel.result.kept.tolist())
    has_text = set(blocks.rows[blocks.chars > 0].tolist())
    left_out = [r for r in rows.tolist() if r not in kept and r in has_text
                and sel.node <= r < sel.snap.end[sel.node]]
    assert left_out, "the fixture's answer leaves a text block out"
    chosen = left_out[0]
    again = block_choice(sel, sel.node, include=[chosen])
    inside = {r for r in rows.tolist() if chosen <= r < sel.snap.end[chosen]}
    assert set(again.kept.tolist()) == kept | inside


def test_a_page_over_blocks_max_keeps_the_votes_element():
    capture = ARTICLE.read_text(encoding="utf-8")
    small = select(json.loads(capture), Options.from_overrides({"blocks_max": 5}))
    assert small.page is None
