"""The pipeline's reply, and grow/shrink (parent; best child; back down the grow trail)."""
import json
from pathlib import Path

import pytest

from builders import make_snapshot
from pith import render
from pith.errors import BadNode
from pith.options import Options
from pith.select import grow, select, shrink

LONG = "words that make a real paragraph of content " * 4


def page():
    return make_snapshot([
        ("html", -1),                               # 0
        ("body", 0),                                # 1
        ("nav", 1),                                 # 2
        ("a", 2, {"text": "Home", "link": 1}),      # 3
        ("main", 1),                                # 4
        ("article", 4, {"id": "story"}),            # 5
        ("p", 5, {"text": LONG}),                   # 6
        ("p", 5, {"text": LONG}),                   # 7
        ("p", 5, {"text": "short"}),                # 8
        ("footer", 1, {"text": "© nobody"}),        # 9
    ], title="A page", url="http://example.org/")


def test_select_reply_describes_the_choice():
    sel = select(page(), Options.from_overrides({"algorithm": "cnr"}))
    wire = sel.to_wire()
    assert wire["node"] == 5 and wire["tag"] == "article" and wire["id"] == "story"
    assert wire["path"] == [0, 1, 0]
    assert wire["title"] == "A page" and wire["algorithm"] == "cnr"
    assert wire["chars"] == 2 * len("".join(LONG.split())) + 5
    assert set(wire["timings"]) == {"validate_ms", "features_ms", "score_ms", "total_ms"}
    assert len(wire["candidates"]) <= Options().candidates


def test_grow_is_the_parent_and_stops_at_the_root():
    sel = select(page())
    assert grow(sel, 5)["node"] == 4
    assert grow(sel, 1)["node"] == 0
    with pytest.raises(BadNode, match="whole page"):
        grow(sel, 0)
    with pytest.raises(BadNode):
        grow(sel, 99)


def test_shrink_takes_the_child_with_the_highest_cnr():
    sel = select(page())
    assert shrink(sel, 5)["node"] == 6        # the first of the two dense paragraphs
    assert shrink(sel, 1)["node"] == 4        # main, not the link-only nav
    with pytest.raises(BadNode, match="cannot shrink"):
        shrink(sel, 6)


def test_shrink_after_grow_goes_back_down_the_same_path():
    sel = select(page())
    up = grow(sel, 7)["node"]
    assert up == 5
    assert shrink(sel, up, trail=[7])["node"] == 7      # not 6, the best child
    assert shrink(sel, up, trail=[])["node"] == 6
    assert shrink(sel, up, trail=[2])["node"] == 6      # a trail from elsewhere is ignored


FIXTURES = sorted((Path(__file__).parent / "fixtures" / "pages").iterdir())


@pytest.mark.parametrize("folder", FIXTURES, ids=lambda p: p.name)
def test_recorded_fixtures_give_their_expected_text(folder):
    """Regression on the page fixtures: `python tests/fixtures/regen.py NAME` re-records
    snapshot.json and expected.txt; read the diff of expected.txt before committing it."""
    sel = select(json.loads((folder / "snapshot.json").read_text(encoding="utf-8")))
    text = render.output(sel, "text") + "\n"
    assert text == (folder / "expected.txt").read_text(encoding="utf-8")


def test_a_page_whose_text_is_all_hidden_is_scored_as_if_visible():
    """An anti-flicker `body { opacity: 0 }` left by a script that never ran."""
    obj = page()
    obj["nodes"]["hidden"][1] = 4          # body: opacity 0
    sel = select(obj)
    assert sel.hidden_ignored and sel.to_wire()["hidden_ignored"] is True
    assert sel.snap.tag[sel.node] == "article"
    assert select(page()).hidden_ignored is False


def test_hidden_text_is_not_chosen_when_visible_text_exists():
    obj = page()
    obj["nodes"]["hidden"][5] = 1          # the article: display none
    sel = select(obj)
    assert not sel.hidden_ignored
    assert sel.snap.tag[sel.node] != "article" and sel.node not in (6, 7, 8)
