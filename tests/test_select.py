"""The pipeline's reply, and grow/shrink (the nearest block that shows more or less text; back down the grow trail)."""
import json
from pathlib import Path

import pytest

import numpy as np

from builders import make_snapshot
from pith.pipeline import features, render
from pith.pipeline.algorithms.base import Choice
from pith.errors import BadNode
from pith.pipeline.options import Options
from pith.pipeline.select import Selection, grow, select, shown_chars, shrink
from pith.pipeline.snapshot import from_json

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


def test_consume_empties_the_capture_and_changes_nothing_else():
    capture = json.loads((Path(__file__).parent / "fixtures" / "pages" / "article"
                          / "snapshot.json").read_text(encoding="utf-8"))
    kept = select(capture).to_wire()
    assert capture["nodes"]                                # by default the capture stays
    consumed = select(capture, consume=True).to_wire()
    assert capture["nodes"] == {}
    for key in ("node", "path", "tag", "blocks", "chars"):
        assert consumed[key] == kept[key], key


def test_select_reply_describes_the_choice():
    sel = select(page(), Options.from_overrides({"algorithm": "cnr", "blocks": False}))
    wire = sel.to_wire()
    assert wire["node"] == 5 and wire["tag"] == "article" and wire["id"] == "story"
    assert wire["path"] == [0, 1, 0]
    assert wire["title"] == "A page" and wire["algorithm"] == "cnr"
    assert wire["chars"] == 2 * len("".join(LONG.split())) + 5
    assert set(wire["timings"]) == {"validate_ms", "features_ms", "score_ms", "blocks_ms", "metadata_ms",
                                    "page_type_ms",
                                    "total_ms"}
    assert len(wire["candidates"]) <= Options().candidates
    assert "blocks" not in wire


def test_with_the_block_stage_the_reply_lists_kept_dropped_and_quiet_rows():
    sel = select(page(), Options.from_overrides({"algorithm": "cnr"}))
    wire = sel.to_wire()
    blocks = wire["blocks"]
    assert set(blocks) == {"kept", "drop", "quiet", "truncated"} and blocks["kept"]
    node = wire["node"]
    end = int(sel.snap.end[node])
    for row in blocks["kept"] + blocks["drop"] + blocks["quiet"]:
        assert node <= row < end                       # all inside the outlined node
    assert not set(blocks["kept"]) & set(blocks["drop"])
    assert list(sel.result.kept) == blocks["kept"]


def wrapped():
    """The article sits in two wrappers (main > div) that add no text of their own."""
    return make_snapshot([
        ("html", -1),                               # 0
        ("body", 0),                                # 1
        ("nav", 1),                                 # 2
        ("a", 2, {"text": "Home", "link": 1}),      # 3
        ("main", 1),                                # 4
        ("div", 4, {"cls": "wrap"}),                # 5
        ("article", 5, {"id": "story"}),            # 6
        ("p", 6, {"text": LONG}),                   # 7
        ("p", 6, {"text": LONG}),                   # 8
        ("p", 6, {"text": "short"}),                # 9
        ("footer", 1, {"text": "© nobody"}),        # 10
    ])


def test_grow_is_the_parent_when_the_parent_adds_text_and_stops_at_the_root():
    sel = select(page())
    assert grow(sel, 6)["node"] == 5          # the article adds the other paragraphs
    assert grow(sel, 5)["node"] == 1          # main only wraps the article: body adds the rest
    for top in (1, 0):                        # html shows what body shows
        with pytest.raises(BadNode, match="whole page"):
            grow(sel, top)
    with pytest.raises(BadNode):
        grow(sel, 99)


def test_grow_passes_over_wrappers_that_show_the_same_text():
    sel = select(wrapped())
    assert grow(sel, 7)["node"] == 6          # the article adds the other paragraphs
    assert grow(sel, 6)["node"] == 1          # div and main show the article's text only
    assert grow(sel, 5)["node"] == 1
    with pytest.raises(BadNode, match="whole page"):
        grow(sel, 1)                          # html shows exactly what body shows


def test_shrink_takes_the_child_with_the_highest_cnr():
    sel = select(page(), Options.from_overrides({"algorithm": "cnr"}))
    assert shrink(sel, 5)["node"] == 6        # the first of the two dense paragraphs
    assert shrink(sel, 1)["node"] == 4        # main, not the link-only nav
    with pytest.raises(BadNode, match="cannot shrink"):
        shrink(sel, 6)


def test_shrink_passes_through_wrappers_to_the_first_block_that_differs():
    sel = select(wrapped(), Options.from_overrides({"algorithm": "cnr"}))
    assert shrink(sel, 1)["node"] == 4        # main: less text than body
    assert shrink(sel, 4)["node"] == 7        # not div or article: they show main's text
    snap = make_snapshot([("html", -1), ("body", 0), ("div", 1), ("p", 2, {"text": LONG})])
    sel = select(snap, Options.from_overrides({"algorithm": "cnr"}))
    with pytest.raises(BadNode, match="cannot shrink"):
        shrink(sel, 1)                        # div and p show body's text: nothing smaller


def test_shrink_after_grow_goes_back_down_the_same_path():
    sel = select(page())
    up = grow(sel, 7)["node"]
    assert up == 5
    assert shrink(sel, up, trail=[7])["node"] == 7      # not 6, the best child
    assert shrink(sel, up, trail=[])["node"] == 6
    assert shrink(sel, up, trail=[2])["node"] == 6      # a trail from elsewhere is ignored


def test_shrink_after_a_grow_over_wrappers_returns_to_where_it_came_from():
    sel = select(wrapped(), Options.from_overrides({"algorithm": "cnr"}))
    first = grow(sel, 8)["node"]
    second = grow(sel, first)["node"]
    assert (first, second) == (6, 1)
    back = shrink(sel, second, trail=[8, first])["node"]
    assert back == 6                          # three levels down, not main (the best child)
    assert shrink(sel, back, trail=[8])["node"] == 8
    assert shrink(sel, 4, trail=[3])["node"] == 7       # a trail outside the node is ignored


def test_a_selection_of_parts_grows_to_the_whole_block_around_them():
    """A method answering with parts (SST, CLG) shows only them; the element that holds
    them shows more, so it is a step even when it is a wrapper of their common ancestor."""
    obj = wrapped()
    snap = from_json(obj, 100)
    feats = features.compute(snap)
    parts = Choice(node=6, score=np.zeros(snap.n), blocks=np.array([6]), parts=np.array([7, 8]))
    sel = Selection(snap=snap, feats=feats, result=parts, options=Options())
    assert shown_chars(sel, 6) == 2 * len("".join(LONG.split()))
    assert grow(sel, 6)["node"] == 5          # the article's whole text, "short" too
    assert grow(sel, 5)["node"] == 1          # from a plain node, wrappers are passed over
    assert shown_chars(sel, 5) == feats.chars[6]


# Recorded fixtures (snapshot.json beside source.html); hostile/ holds pages of its own kind.
FIXTURES = sorted(p for p in (Path(__file__).parent / "fixtures" / "pages").iterdir()
                  if (p / "snapshot.json").is_file())


@pytest.mark.parametrize("folder", FIXTURES, ids=lambda p: p.name)
def test_recorded_fixtures_give_their_expected_text(folder):
    """Regression on the page fixtures: `python tests/fixtures/regen.py NAME` re-records
    snapshot.json and expected.txt; read the diff of expected.txt before committing it."""
    sel = select(json.loads((folder / "snapshot.json").read_text(encoding="utf-8")))
    text = sel.output("text") + "\n"
    assert text == (folder / "expected.txt").read_text(encoding="utf-8")


def test_a_page_whose_text_is_all_hidden_is_scored_as_if_visible():
    """An anti-flicker `body { opacity: 0 }` left by a script that never ran: read as
    revealed (hidden_reveal), or, without that, as if nothing were hidden."""
    obj = page()
    obj["layout"] = True                   # a browser's capture (static reads inline opacity)
    obj["nodes"]["hidden"][1] = 4          # body: opacity 0
    sel = select(obj)
    assert not sel.hidden_ignored and sel.snap.tag[sel.node] == "article"
    sel = select(obj, Options(hidden_reveal=False))
    assert sel.hidden_ignored and sel.to_wire()["hidden_ignored"] is True
    assert sel.snap.tag[sel.node] == "article"
    assert select(page()).hidden_ignored is False


def drawer_page() -> dict:
    """page() inside an anti-flicker `body { opacity: 0 }`, with a closed menu drawer
    (display:none) longer than the article: a site's whole catalogue of links and blurbs."""
    obj = page()
    rows = [(t, p, {k: obj["nodes"][k][i] for k in ("text", "id", "link", "hidden")})
            for i, (t, p) in enumerate(zip(obj["nodes"]["tag"], obj["nodes"]["parent"]))]
    drawer = [("div", 1, {"id": "drawer", "hidden": 1})]
    drawer += [("p", 10, {"text": f"Section {k}: " + LONG}) for k in range(6)]
    out = make_snapshot(rows[:10] + drawer, title="A page", url="http://example.org/")
    out["layout"] = True
    out["nodes"]["hidden"][1] = 4          # body: opacity 0
    return out


def test_a_page_waiting_for_its_reveal_keeps_its_closed_menus_hidden():
    """Read as revealed, the drawer stays closed and the article is the answer; with
    nothing hidden (the fallback before hidden_reveal), the drawer's text won."""
    sel = select(drawer_page())
    assert sel.snap.tag[sel.node] == "article" and "Section" not in sel.output("text")
    assert not sel.hidden_ignored
    old = select(drawer_page(), Options(hidden_reveal=False))
    assert old.hidden_ignored and "Section" in old.output("text")


def test_hidden_text_is_not_chosen_when_visible_text_exists():
    obj = page()
    obj["nodes"]["hidden"][5] = 1          # the article: display none
    # in a plain container: a `main` landmark whose text is all display:none is parked
    # content, read as shown (features.parked_main; tests/test_features.py)
    obj["nodes"]["tag"][4] = "div"
    sel = select(obj)
    assert not sel.hidden_ignored
    assert sel.snap.tag[sel.node] != "article" and sel.node not in (6, 7, 8)


def test_a_page_with_little_visible_text_is_scored_as_if_visible():
    """Sections a scroll animation has not revealed yet (`opacity: 0`) leave only a sliver
    of the page visible: below options.hidden_min_visible it is scored with them."""
    obj = page()
    obj["layout"] = True                   # a browser's capture (static reads inline opacity)
    obj["nodes"]["hidden"][5] = 4          # the article: opacity 0
    snap = from_json(obj, 100)
    feats = features.compute(snap)
    share = feats.chars[0] / features.compute(snap, skip_hidden=False).chars[0]
    below = select(obj, Options(hidden_min_visible=min(1.0, share + 0.01), hidden_reveal=False))
    assert below.hidden_ignored and below.snap.tag[below.node] == "article"
    revealed = select(obj, Options(hidden_min_visible=min(1.0, share + 0.01)))
    assert not revealed.hidden_ignored and revealed.snap.tag[revealed.node] == "article"
    above = select(obj, Options(hidden_min_visible=share / 2))
    assert not above.hidden_ignored and above.snap.tag[above.node] != "article"


def test_a_block_choice_is_computed_once_per_node_and_reader_choice():
    from pith.pipeline.select import block_choice
    sel = select(page(), Options.from_overrides({"algorithm": "cnr"}))
    up = grow(sel, sel.node)["node"]                  # the grow's reply computed it
    assert block_choice(sel, up) is block_choice(sel, up)
    assert block_choice(sel, sel.node) is sel.result
    kept = [int(r) for r in sel.result.kept]
    assert block_choice(sel, sel.node, exclude=kept[:1]) is not sel.result
    assert kept[0] not in block_choice(sel, sel.node, exclude=kept[:1]).kept


def test_blocks_lists_are_cut_just_over_max_block_rows():
    """SECURITY.md, "Limits": a `blocks` list of MAX_BLOCK_ROWS rows is whole, one more
    is cut and marked."""
    from pith.pipeline.select import MAX_BLOCK_ROWS, blocks_reply
    at = Choice(node=0, score=np.zeros(1), blocks=np.zeros(1, np.int64),
                kept=np.arange(MAX_BLOCK_ROWS))
    over = Choice(node=0, score=np.zeros(1), blocks=np.zeros(1, np.int64),
                  kept=np.arange(MAX_BLOCK_ROWS + 1))
    assert blocks_reply(at)["truncated"] is False and len(blocks_reply(at)["kept"]) == MAX_BLOCK_ROWS
    assert blocks_reply(over)["truncated"] is True and len(blocks_reply(over)["kept"]) == MAX_BLOCK_ROWS


@pytest.mark.parametrize("field,limit", [("title", "MAX_PAGE_CHARS"), ("url", "MAX_PAGE_CHARS"),
                                         ("cls", "MAX_NAME_CHARS"), ("id", "MAX_NAME_CHARS")])
def test_echoed_page_strings_are_whole_at_their_limit_and_cut_one_over(field, limit):
    """SECURITY.md, "Limits": a page string the reply echoes, at its cap and one over."""
    from pith.pipeline import wire
    cap = getattr(wire, limit)
    for length, cut in ((cap, False), (cap + 1, True)):
        value = "é" * length
        rows = [("html", -1), ("body", 0), ("article", 1, {field: value} if field in ("cls", "id") else {}),
                ("p", 2, {"text": "A paragraph of an article that says something. " * 8})]
        meta = {field: value} if field in ("title", "url") else {}
        sel = select(make_snapshot(rows, **meta))
        got = sel.to_wire()[field] if field in ("title", "url") else sel.describe(2)[field]
        assert len(got) == cap
        assert got.endswith("…") is cut and (got == value) is not cut


FROST = [
    "The first frost came three weeks early this year, and it caught the dahlias with their "
    "buds still closed. By morning the leaves had gone black and limp along the whole south "
    "border.",
    "I had meant to lift the tubers at the end of the month, so this was a rush job: cut the "
    "stems to a hand's width, dig wide to spare the necks, and leave them upside down in the "
    "shed to drain.",
    "The ones in pots fared better. The terrace wall kept off the worst of it, and the two "
    "that stood against the brick are still flowering, which says more about the wall than "
    "about my planning.",
    "Next year the labels go on before the frost, not after. Half the tubers in the crates "
    "are now a guessing game of colour and height.",
]


def test_a_post_in_an_aside_the_method_dropped_as_furniture_is_read_whole():
    """The failure this fixes (dragnet_train T18: a blog whose post is an
    `aside.blogPost`): the vote's element was the column, which left the aside out as
    furniture; the expected-F1 choice moved the element to the aside and carried the
    column's drop over, so the element itself stayed dropped and the block stage kept only
    what passes the bar of a block outside it (the last, shorter paragraph and the byline
    were lost)."""
    from pith.pages import static
    teasers = "".join(f'<p><a href="/post/{k}">Another garden post about bulbs and borders '
                      f'number {k}</a> - Garden Diary</p>' for k in range(6))
    html = ('<!DOCTYPE html><html><head><meta charset="utf-8"><title>Frost came early | '
            'Garden Diary</title></head><body><header><a href="/">Garden Diary</a><nav><ul>'
            '<li><a href="/">Home</a></li><li><a href="/about">About</a></li></ul></nav>'
            '</header><div id="wrap"><section class="main"><aside class="blogPost">'
            '<h1>Frost came early</h1><h4>Posted 9 October 2012 by Ines</h4>'
            + "".join(f"<p>{p}</p>" for p in FROST) +
            '</aside><div class="more"><h3>More from the diary</h3>' + teasers +
            '</div><div class="comments-form"><h3>Leave a comment</h3><form><input name="n">'
            '<textarea></textarea><button>Send</button></form></div></section></div>'
            '<footer><p>Garden Diary 2012</p></footer></body></html>')
    sel = select(static.snapshot_from_html(html, "https://garden.example.org/2012/10/frost/"))
    element = sel.element
    assert sel.snap.tag[element.node] == "aside"
    assert element.drop is None or not element.drop[element.node]
    text = sel.output("text")
    assert all(p in text for p in FROST) and "More from the diary" not in text
