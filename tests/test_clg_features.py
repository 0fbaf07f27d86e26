"""CLG features (Wu, Liu, Fan §4): unions over subtrees, relative and adjusted values."""
import numpy as np
import pytest

from builders import make_snapshot
from pith.pipeline.algorithms import clg, clg_features as cf
from pith.pipeline.features import compute
from pith.pipeline.snapshot import from_json
from pith.pipeline.options import Options


def boxed_page():
    """html > body > [div#main > (h1, p "..." <a>link</a> tail, img), div#side > p], 1000×2000."""
    rows = [
        ("html", -1, {"x": 0, "y": 0, "w": 1000, "h": 2000}),
        ("body", 0, {"x": 0, "y": 0, "w": 1000, "h": 2000}),
        ("div", 1, {"x": 100, "y": 100, "w": 600, "h": 1000, "id": "main"}),
        ("h1", 2, {"text": "Title here", "x": 100, "y": 100, "w": 600, "h": 50, "fs": 32,
                   "color": "rgb(0, 0, 0)"}),
        ("p", 2, {"text": "Some long text ", "x": 100, "y": 150, "w": 600, "h": 400,
                  "color": "rgb(0, 0, 0)"}),
        ("a", 4, {"text": "link", "tail": " more", "link": 1, "x": 200, "y": 160, "w": 40,
                  "h": 20, "color": "rgb(0, 0, 255)"}),
        ("img", 2, {"x": 100, "y": 600, "w": 300, "h": 200}),
        ("div", 1, {"x": 750, "y": 100, "w": 200, "h": 300, "id": "side"}),
        ("p", 7, {"text": "side note", "x": 750, "y": 100, "w": 200, "h": 50,
                  "color": "rgb(0, 0, 255)", "fs": 12}),
        ("span", 1, {"text": "offscreen", "x": -9999, "y": 0, "w": 10, "h": 10}),
        ("div", 1, {"text": "hidden", "hidden": 1}),
    ]
    return from_json(make_snapshot(rows, layout=True), 1000), rows


def with_page(obj, w, h):
    obj["page"] = [w, h]
    return obj


def snap_and_feats():
    snap, rows = boxed_page()
    obj = make_snapshot(rows, layout=True)
    snap = from_json(with_page(obj, 1000, 2000), 1000)
    return snap, compute(snap)


def test_subtree_extents_match_brute_force_on_a_random_tree():
    rng = np.random.default_rng(7)
    n = 300
    parent = [-1] + [int(rng.integers(0, i)) for i in range(1, n)]
    # make it preorder: build children lists and walk
    kids = {i: [] for i in range(n)}
    for i in range(1, n):
        kids[parent[i]].append(i)
    order, stack = [], [0]
    while stack:
        v = stack.pop()
        order.append(v)
        stack.extend(reversed(kids[v]))
    new = {old: k for k, old in enumerate(order)}
    rows = [("div", -1 if old == 0 else new[parent[old]]) for old in order]
    snap = from_json(make_snapshot(rows), 10_000)
    values = rng.normal(size=n)
    got_min = cf.subtree_extents(snap, values, np.minimum, np.inf)
    got_max = cf.subtree_extents(snap, values, np.maximum, -np.inf)
    for i in range(n):
        sub = values[i:snap.end[i]]
        assert got_min[i] == sub.min() and got_max[i] == sub.max()


def test_geometry_unions_boxes_clips_to_the_page_and_skips_hidden_rows():
    snap, feats = snap_and_feats()
    geo = cf.geometry(snap, feats)
    assert geo.layout and (geo.page_w, geo.page_h) == (1000, 2000)
    # div#main: union of its own box and children (img ends at 800 < 1100)
    assert (geo.left[2], geo.top[2], geo.right[2], geo.bottom[2]) == (100, 100, 700, 1100)
    assert geo.area[2] == 600 * 1000
    # the offscreen span is clipped away entirely; the hidden div has no box
    assert not geo.has_box[9] and not geo.has_box[10]
    assert geo.area[9] == 0


def test_geometry_without_layout_is_flagged_static():
    snap = from_json(make_snapshot([("html", -1), ("p", 0, {"text": "x"})]), 10)
    geo = cf.geometry(snap, compute(snap))
    assert not geo.layout
    # layout true but every box empty: the same
    snap = from_json(make_snapshot([("html", -1), ("p", 0, {"text": "x"})], layout=True), 10)
    assert not cf.geometry(snap, compute(snap)).layout


def test_font_popularity_is_the_dot_product_of_colour_shares():
    snap, feats = snap_and_feats()
    rel = cf.relative(snap, feats)
    # visible own chars: h1 "Titlehere" 9 black; p "Somelongtext"+"more" 16 black; a "link" 4
    # blue; p side "sidenote" 8 blue; span "offscreen" 9 (colour "")
    own = {"black": 25, "blue": 12, "none": 9}
    total = sum(own.values())
    share = {k: v / total for k, v in own.items()}
    # node p (row 4): 16 black + 4 blue chars
    expect = (16 * share["black"] + 4 * share["blue"]) / 20
    assert rel.color_pop[4] == pytest.approx(expect)
    assert rel.chars[4] == pytest.approx(20 / total)
    # a node without characters scores 0
    assert rel.color_pop[6] == 0


def test_popularity_is_the_same_whichever_code_a_value_gets():
    """Sizes are coded by np.unique (sorted), strings by first appearance: the same
    column as numbers and as strings gives the same popularity, to the last bit."""
    snap, feats = snap_and_feats()
    rng = np.random.default_rng(5)
    sizes = rng.choice([16.0, 12.5, -0.0, 0.0, 32.0, 13.33], snap.n)
    own = rng.integers(0, 40, snap.n).astype(np.float64)
    chars = snap.subtree_sum(own)
    as_numbers = cf._popularity(snap, own, chars, sizes)
    as_strings = cf._popularity(snap, own, chars, np.array([str(v + 0.0) for v in sizes], object))
    assert np.array_equal(as_numbers, as_strings) and as_numbers.max() > 0


def test_colour_popularity_is_left_out_without_layout():
    """Only the rendered model reads colour popularity, and it scores only pages with
    layout: without layout it is not computed, and the static model's answer is that of
    a Relative that has it."""
    import dataclasses
    from pith.pipeline.algorithms import clg
    assert "font_color_popularity" not in cf.STATIC_FEATURES
    obj = make_snapshot([("html", -1), ("body", 0), ("p", 1, {"text": "one two", "color": "red"}),
                         ("p", 1, {"text": "three", "color": "blue"})])
    snap = from_json(obj, 10)
    feats = compute(snap)
    rel = cf.relative(snap, feats)
    assert not rel.geo.layout and not rel.color_pop.any()
    own = np.where(feats.gone, 0, feats.own_chars).astype(np.float64)
    full = dataclasses.replace(rel, color_pop=cf._popularity(snap, own, feats.chars.astype(float),
                                                             snap.color))
    assert full.color_pop.any()
    model = clg.load_models()["static"]
    assert np.array_equal(model.predict(snap, rel), model.predict(snap, full))


def test_font_size_scales_between_the_smallest_and_largest_size():
    snap, feats = snap_and_feats()
    rel = cf.relative(snap, feats)
    assert rel.font_size[3] == pytest.approx(1.0)           # the 32px heading
    assert rel.font_size[8] == pytest.approx(0.0)           # the 12px side note
    assert rel.font_size[4] == pytest.approx((16 - 12) / 20)


def test_densities_and_text_ratio_follow_the_paper():
    snap, feats = snap_and_feats()
    rel = cf.relative(snap, feats)
    # div#main: tags 5 (div, h1, p, a, img), chars 9 + 20 = 29, links 1
    assert rel.tag_density[2] == pytest.approx(5 / 30)
    assert rel.link_density[2] == pytest.approx(1 / 6)
    # the img alone: no text area
    assert rel.text_ratio[6] == 0
    text_area = 29 * 0.0 + (9 * 32 ** 2 + 20 * 16 ** 2) * cf.GLYPH_EM2
    assert rel.text_ratio[2] == pytest.approx(text_area / (text_area + 300 * 200 + 1))


def test_reading_span_puts_tails_after_their_element():
    # p: "ab " <b>"cd"</b> " ef" ; then p2 "gh"
    snap = from_json(make_snapshot([
        ("body", -1),
        ("p", 0, {"text": "ab "}),
        ("b", 1, {"text": "cd", "tail": " ef"}),
        ("p", 0, {"text": "gh"}),
    ]), 10)
    before, after = cf.reading_span(snap, compute(snap))
    assert before.tolist() == [0, 0, 2, 6]
    assert after.tolist() == [8, 6, 4, 8]


def test_adjusted_values_use_the_perfect_values():
    snap, feats = snap_and_feats()
    rel = cf.relative(snap, feats)
    best = {"left": 0.1, "right": 0.7, "top": 0.05, "bottom": 0.55, "centerx": 0.4,
            "centery": 0.3, "area": 0.3}
    x = cf.adjusted(snap.tag, rel, cf.FEATURES, best, {"p": 0.9}, 0.2)
    assert x.shape == (snap.n, 17)
    col = dict(zip(cf.FEATURES, x[2]))
    assert col["pos_left"] == pytest.approx(1.0)            # 100/1000 == BEST_LEFT
    assert col["pos_bottom"] == pytest.approx(1.0)          # 1100/2000 == BEST_BOTTOM
    assert col["pos_dist"] == pytest.approx(1.0)            # centre (0.4, 0.3)
    assert col["area_size"] == pytest.approx(0.3)
    assert col["area_dist"] == pytest.approx(0.0, abs=1e-12)
    assert col["tag_score"] == pytest.approx(0.2)           # div: the prior
    assert dict(zip(cf.FEATURES, x[4]))["tag_score"] == pytest.approx(0.9)
    # a row without a box: positions are the worst (0), never NaN
    assert np.isfinite(x).all()
    assert dict(zip(cf.FEATURES, x[10]))["pos_left"] == 0.0


def test_tag_scores_from_the_tag_codes_equal_those_per_row():
    snap, feats = snap_and_feats()
    table = {"p": 0.9, "div": 0.4}
    per_row = cf.tag_scores(snap.tag, table, 0.2)
    assert np.array_equal(cf.tag_scores(snap.tag, table, 0.2, snap.tag_codes()), per_row)
    assert set(per_row.tolist()) >= {0.9, 0.4}
    rel = cf.relative(snap, feats)
    best = {"start": 0.0, "end": 1.0, "middle": 0.5, "chars": 1.0}
    assert np.array_equal(
        cf.adjusted(snap.tag, rel, cf.STATIC_FEATURES, best, table, 0.2, snap.tag_codes()),
        cf.adjusted(snap.tag, rel, cf.STATIC_FEATURES, best, table, 0.2))


def test_static_features_need_no_box():
    snap, _ = boxed_page()
    obj = make_snapshot([("html", -1), ("body", 0), ("p", 1, {"text": "one two"}),
                         ("p", 1, {"text": "three"})])
    snap = from_json(obj, 10)
    rel = cf.relative(snap, compute(snap))
    best = {"start": 0.0, "end": 1.0, "middle": 0.5, "chars": 1.0}
    x = cf.adjusted(snap.tag, rel, cf.STATIC_FEATURES, best, {}, 0.3)
    col = dict(zip(cf.STATIC_FEATURES, x[1]))
    assert col["pos_start"] == 1.0 and col["pos_end"] == 1.0 and col["text_dist"] == 0.0
    assert np.isfinite(x).all()


def linked_page(colour: str, links: int = 3):
    """boxed_page with `links` text links in `colour` under div#side."""
    _, rows = boxed_page()
    rows = rows[:9] + [("a", 7, {"text": f"side link {k}", "link": 1, "x": 750, "y": 200 + 30 * k,
                                  "w": 150, "h": 20, "color": colour}) for k in range(links)]
    rows[5] = ("a", 4, {**rows[5][2], "color": colour})
    snap = from_json(with_page(make_snapshot(rows, layout=True), 1000, 2000), 1000)
    return snap, compute(snap)


def test_a_page_drawn_without_its_style_sheets_is_read_without_boxes():
    """Links in the browser's own blue (Chromium's and Firefox's user-agent colours): the
    page's style sheets did not load, its boxes are the browser's defaults, and CLG reads
    it as a static page (NOTES.md, 'Why CLG reads a page drawn without its style sheets
    as it reads a static one')."""
    for colour in cf.DEFAULT_LINK_COLOURS:
        snap, feats = linked_page(colour)
        assert cf.unstyled(snap, feats)
        rel = cf.relative(snap, feats)
        assert not rel.geo.layout and not rel.color_pop.any()
    # the page's own link colour: its boxes are its design
    snap, feats = linked_page("rgb(0, 0, 255)")
    assert not cf.unstyled(snap, feats) and cf.geometry(snap, feats).layout


def test_a_few_default_blue_links_do_not_make_a_page_unstyled():
    """Two links in a default colour, one of them the page's own choice, say nothing; nor
    do hidden links (a closed menu keeps the colours it never shows)."""
    snap, feats = linked_page(cf.DEFAULT_LINK_COLOURS[0], links=1)
    assert not cf.unstyled(snap, feats) and cf.geometry(snap, feats).layout
    _, rows = boxed_page()
    rows = rows[:9] + [("a", 7, {"text": f"menu {k}", "link": 1, "hidden": 1,
                                  "color": cf.DEFAULT_LINK_COLOURS[0]}) for k in range(5)]
    snap = from_json(with_page(make_snapshot(rows, layout=True), 1000, 2000), 1000)
    feats = compute(snap)
    assert not cf.unstyled(snap, feats) and cf.geometry(snap, feats).layout


def test_finite_is_nan_to_num():
    """clg_features.finite against np.nan_to_num(x, nan=0.0), its definition: the same
    bits (NaN 0, +-inf the largest finite values, -0.0 kept) on random float arrays."""
    rng = np.random.default_rng(36)
    specials = np.array([np.nan, np.inf, -np.inf, -0.0, 0.0, 1e308, -1e308])
    for _ in range(300):
        x = rng.choice(np.concatenate((specials, rng.normal(size=8))), int(rng.integers(0, 30)))
        want = np.nan_to_num(x, nan=0.0)
        assert cf.finite(x.copy()).tobytes() == want.tobytes()


def plain_page(x: float = 8, fs: float = 16, colour: str = "rgb(0, 0, 0)"):
    """A page without links whose text rows are drawn at `x`, in `fs` px and `colour`
    (a saved product page drawn without its style sheets: names and prices, no link)."""
    rows = [("html", -1, {"x": 0, "y": 0, "w": 1000, "h": 2000}),
            ("body", 0, {"x": 8, "y": 8, "w": 984, "h": 1984}),
            ("div", 1, {"x": 8, "y": 8, "w": 984, "h": 600, "id": "shop"})]
    rows += [("p", 2, {"text": f"Product name {k} and its line", "x": x, "y": 8 + 40 * k,
                       "w": 984, "h": 20, "fs": fs, "color": colour}) for k in range(6)]
    rows += [("button", 2, {"text": "Add", "x": 8, "y": 300, "w": 40, "h": 20, "fs": 13.3333,
                            "color": "rgb(0, 0, 0)"})]
    snap = from_json(with_page(make_snapshot(rows, layout=True), 1000, 2000), 1000)
    return snap, compute(snap)


def test_a_page_whose_text_is_drawn_in_the_browser_defaults_is_read_without_boxes():
    """No link to show the browser's blue: text at the body's 8 px margin, 16 px, black,
    is the browser's drawing, read box-free once clg_unstyled_text of the text is so
    (NOTES.md, 'Why a page whose text is drawn in the browser's defaults is read without
    boxes'); the test off (0), or a page that places, sizes or colours its own text,
    keeps its boxes."""
    share = Options().clg_unstyled_text
    snap, feats = plain_page()
    assert cf.default_drawn_share(snap, feats) >= share
    assert cf.unstyled(snap, feats, share)
    assert not cf.relative(snap, feats, share).geo.layout
    # the option reaches CLG's scores (and the block stage, which reads them)
    assert clg.scores(snap, feats, share)[2] == "static"
    assert not cf.unstyled(snap, feats) and cf.geometry(snap, feats).layout
    for kwargs in ({"x": 40}, {"fs": 15}, {"colour": "rgb(34, 34, 34)"}):
        snap, feats = plain_page(**kwargs)
        assert not cf.unstyled(snap, feats, share)
        assert cf.relative(snap, feats, share).geo.layout
