"""CLG (Wu, Liu, Fan): union area, grouping (Figure 8), refining (Algorithm 1), title, model."""
import json
from pathlib import Path

import numpy as np
import pytest

from builders import make_snapshot
from pith.pipeline import render
from pith.pages import static
from pith.pipeline.algorithms import clg
from pith.pipeline.features import compute
from pith.pipeline.options import Options
from pith.pipeline.select import select
from pith.pipeline.snapshot import from_json

ARTICLE = Path(__file__).parent / "fixtures" / "pages" / "article"


# --------------------------------------------------------------------------- union area
def raster_area(rects, size):
    grid = np.zeros((size, size), bool)
    for x0, y0, x1, y1 in rects:
        grid[int(y0):int(y1), int(x0):int(x1)] = True
    return int(grid.sum())


@pytest.mark.parametrize("seed", range(12))
def test_union_area_matches_a_brute_force_raster(seed):
    rng = np.random.default_rng(seed)
    k = int(rng.integers(1, 40))
    a = rng.integers(0, 60, size=(k, 2))
    b = a + rng.integers(0, 25, size=(k, 2))          # some empty rectangles too
    rects = np.hstack((a, b)).astype(float)
    assert clg.union_area(rects) == raster_area(rects, 100)


def test_union_area_edge_cases():
    assert clg.union_area(np.zeros((0, 4))) == 0
    assert clg.union_area([[0, 0, 0, 5]]) == 0                       # zero width
    assert clg.union_area([[0, 0, 2, 2], [0, 0, 2, 2]]) == 4          # duplicates
    assert clg.union_area([[0, 0, 10, 10], [2, 2, 3, 3]]) == 100      # nested
    assert clg.union_area([[0, 0, 1, 1], [1, 0, 2, 1]]) == 2          # touching


def test_union_area_sweeps_in_chunks(monkeypatch):
    monkeypatch.setattr(clg, "SWEEP_CHUNK", 3)
    rng = np.random.default_rng(99)
    a = rng.integers(0, 60, size=(30, 2))
    rects = np.hstack((a, a + rng.integers(1, 25, size=(30, 2)))).astype(float)
    assert clg.union_area(rects) == raster_area(rects, 100)


# --------------------------------------------------------------------------- grouping
def test_projection_overlap_ratio_is_the_larger_axis_ratio():
    a = np.array([[0, 0, 100, 50.0]])
    b = np.array([[50, 100, 150, 150.0]])      # x overlap 50 of 100 and 100; y none
    assert clg.por(a, b)[0] == pytest.approx(0.5)
    c = np.array([[0, 100, 200, 150.0]])       # x overlap 100: min(100/100, 100/200)
    assert clg.por(a, c)[0] == pytest.approx(0.5)
    assert clg.por(a, np.array([[0, 0, 0, 0.0]]))[0] == 0    # no box, no ratio


def groups(rects, parents, t=0.7):
    rects = np.asarray(rects, float)
    keep = clg.links_kept(rects, np.asarray(parents), t)
    return [g.tolist() for g in clg.groups_of(np.arange(len(rects)), keep)]


def test_figure_8a_stacked_nodes_stay_together():
    # same column, one under the other: horizontal ratio 1
    assert groups([[0, 0, 100, 50], [0, 60, 100, 200]], [1, 2]) == [[0, 1]]


def test_figure_8b_side_by_side_nodes_stay_together():
    assert groups([[0, 0, 100, 50], [120, 0, 300, 50]], [1, 2]) == [[0, 1]]


def test_overlapping_nodes_stay_together_whatever_the_ratio():
    assert groups([[0, 0, 100, 100], [90, 90, 500, 300]], [1, 2], t=0.99) == [[0, 1]]


FIG_8C = [[0, 0, 100, 100], [0, 110, 100, 200],        # v0, v1 aligned
          [300, 500, 500, 520], [300, 530, 500, 600]]  # v2, v3 aligned


def test_figure_8c_breaks_between_two_aligned_pairs():
    assert groups(FIG_8C, [1, 2, 3, 4]) == [[0, 1], [2, 3]]


def test_condition_2_same_parent_keeps_the_link():
    assert groups(FIG_8C, [1, 5, 5, 4]) == [[0, 1, 2, 3]]


def test_figure_8d_a_misaligned_node_between_aligned_neighbours_is_kept():
    # v1 is off to the side; v0 and v2 are aligned: conditions (3) and (4)
    rects = [[0, 0, 100, 100], [500, 150, 600, 160], [0, 200, 100, 300]]
    assert groups(rects, [1, 2, 3]) == [[0, 1, 2]]
    # without the aligned v2 the off-side node is cut off
    assert groups(rects[:2], [1, 2]) == [[0], [1]]


def test_threshold_decides_a_partial_alignment():
    rects = [[0, 0, 100, 50], [40, 60, 140, 100]]              # ratio 0.6
    assert groups(rects, [1, 2], t=0.7) == [[0], [1]]
    assert groups(rects, [1, 2], t=0.5) == [[0, 1]]


# --------------------------------------------------------------------------- refining
# html(0) > body(1) > [wrap(2) > [main(3) > p(4), p(5); side(6) > p(7)], footer(8) > p(9), p(10)]
TREE = [("html", -1), ("body", 0), ("div", 1), ("div", 2), ("p", 3), ("p", 3), ("div", 2),
        ("p", 6), ("div", 1), ("p", 8), ("p", 8)]
SIZES = [100, 98, 80, 60, 10, 10, 25, 1, 15, 10, 1]


def refine(group, score=None):
    snap = from_json(make_snapshot(TREE), 100)
    size = np.array(SIZES, float)
    space = clg.Space(np.zeros((len(TREE), 4)), size, 100.0, True)
    score = np.full(len(TREE), 0.5) if score is None else np.asarray(score, float)
    return clg.refine(snap, np.array(group), score, space, Options()).tolist()


def test_refine_a_deep_common_ancestor_is_returned_whole():
    assert refine([4, 5]) == [3]           # main is level 4 > d = 3


def test_refine_a_tiny_selection_grows_until_theta2():
    assert refine([7]) == [6]              # 1% → side (25% ≥ θ2), level 4


def test_refine_a_small_shallow_ancestor_is_returned_whole():
    assert refine([9, 10]) == [8]          # footer: level 3, 15% ≤ θ3


def test_refine_c_a_mid_sized_shallow_ancestor_keeps_the_candidates():
    assert refine([4, 7]) == [4, 7]        # wrap: level 3, 80% between θ3 and θ4


def test_refine_b_a_huge_ancestor_drills_down_and_weighs_score_by_area():
    # body 98% ≥ θ4: largest child wrap (80%) < θ4; then argmax p·s over body's children
    score = [0.5] * len(TREE)
    assert refine([4, 9], score) == [2]            # 0.5·80 > 0.5·15
    score[2], score[8] = 0.1, 1.0
    assert refine([4, 9], score) == [8]            # 0.1·80 < 1.0·15


def test_compact_drops_candidates_below_other_candidates():
    snap = from_json(make_snapshot(TREE), 100)
    mask = np.zeros(len(TREE), bool)
    mask[[3, 4, 5, 7, 9]] = True
    assert clg.compact(snap, mask).tolist() == [3, 7, 9]
    assert clg.lca(snap, np.array([4, 7])) == 2
    assert clg.lca(snap, np.array([5, 10])) == 1
    assert clg.lca(snap, np.array([5])) == 5


# --------------------------------------------------------------------------- title
def titled_page(heading="h1", gap=20, inner=None):
    rows = [("html", -1, {"w": 1000, "h": 3000}), ("body", 0, {"w": 1000, "h": 3000}),
            (heading, 1, {"text": "The headline", "x": 100, "y": 100, "w": 600, "h": 40}),
            ("div", 1, {"x": 100, "y": 140 + gap, "w": 600, "h": 800})]
    if inner:
        rows.append((inner, 3, {"text": "Section", "x": 100, "y": 140 + gap, "w": 600,
                                "h": 30}))
    rows.append(("p", 3, {"text": "Body text " * 30, "x": 100, "y": 200 + gap, "w": 600,
                          "h": 600}))
    obj = make_snapshot(rows, layout=True)
    obj["page"] = [1000, 3000]
    snap = from_json(obj, 100)
    feats = compute(snap)
    space = clg.space_of(clg.relative(snap, feats))
    return snap, feats, space


def test_title_above_the_selection_is_added():
    snap, feats, space = titled_page()
    assert clg.find_title(snap, feats, np.array([3]), space, Options()) == 2


def test_title_too_far_above_is_not_added():
    snap, feats, space = titled_page(gap=600)
    assert clg.find_title(snap, feats, np.array([3]), space, Options()) is None


def test_title_is_not_added_when_the_selection_has_one_as_good():
    snap, feats, space = titled_page(heading="h2", inner="h2")
    assert clg.find_title(snap, feats, np.array([3]), space, Options()) is None
    # an h1 above a selection holding only an h2 is still missing
    snap, feats, space = titled_page(heading="h1", inner="h2")
    assert clg.find_title(snap, feats, np.array([3]), space, Options()) == 2


# --------------------------------------------------------------------------- model
needs_model = pytest.mark.skipif(not clg.MODEL_PATH.is_file(), reason="no trained model")


def article_rendered():
    return json.loads((ARTICLE / "snapshot.json").read_text(encoding="utf-8"))


def article_static():
    return static.snapshot_from_html((ARTICLE / "source.html").read_text(encoding="utf-8"),
                                     "http://example.org/")


@needs_model
@pytest.mark.parametrize("capture, kind", [(article_rendered, "rendered"),
                                           (article_static, "static")])
def test_model_scores_the_fixture_page_in_both_modes(capture, kind):
    snap = from_json(capture(), 10_000)
    feats = compute(snap)
    p, _rel, used = clg.scores(snap, feats)
    assert used == kind
    assert p.shape == (snap.n,) and ((0 <= p) & (p <= 1)).all()
    assert (p[feats.gone] == 0).all()
    sel = select(snap, Options.from_overrides({"blocks": False, "algorithm": "clg"}))
    text = sel.output("text")
    assert "Lichens are partnerships" in text and "How lichens survive" in text
    parts = sel.result.parts
    if parts is not None:
        assert parts.tolist() == sorted(parts.tolist())
        assert sel.node == clg.lca(snap, parts)
    assert sel.result.blocks[0] == sel.node


@needs_model
def test_a_rendered_page_without_boxes_uses_the_static_model():
    obj = article_rendered()
    for col in ("x", "y", "w", "h"):
        obj["nodes"][col] = [0] * obj["n"]
    snap = from_json(obj, 10_000)
    assert clg.scores(snap, compute(snap))[2] == "static"


@needs_model
def test_baselines_lr_and_lr_a():
    snap = from_json(article_rendered(), 10_000)
    feats = compute(snap)
    p = clg.scores(snap, feats)[0]
    one = clg.run(snap, feats, Options.from_overrides({"blocks": False, "algorithm": "clg", "clg_mode": "lr_a"}))
    assert one.parts is None and one.node == int(np.argmax(p))
    lr = clg.run(snap, feats, Options.from_overrides({"blocks": False, "algorithm": "clg", "clg_mode": "lr"}))
    expected = clg.compact(snap, p > 0.55)
    assert lr.roots.tolist() == expected.tolist()


@needs_model
def test_scoring_is_deterministic():
    a = select(article_rendered(), Options.from_overrides({"blocks": False, "algorithm": "clg"}))
    b = select(article_rendered(), Options.from_overrides({"blocks": False, "algorithm": "clg"}))
    assert a.node == b.node and np.array_equal(a.result.score, b.result.score)


def test_group_values_prune_only_groups_that_cannot_win():
    rng = np.random.default_rng(4)
    n = 60
    a = rng.integers(0, 80, size=(n, 2)).astype(float)
    rect = np.hstack((a, a + rng.integers(1, 30, size=(n, 2))))
    size = (rect[:, 2] - rect[:, 0]) * (rect[:, 3] - rect[:, 1])
    space = clg.Space(rect, size, 100.0 * 100.0, True)
    score = rng.random(n)
    cuts = np.sort(rng.choice(np.arange(1, n), 15, replace=False))
    groups = np.split(np.arange(n), cuts)
    exact = np.array([score[g].mean() * clg.union_area(rect[g]) for g in groups])
    got = clg.group_values(groups, score, space)
    assert int(np.argmax(got)) == int(np.argmax(exact))
    assert got.max() == pytest.approx(exact.max())
    assert (got <= exact + 1e-9).all()


@needs_model
@pytest.mark.parametrize("capture", [article_rendered, article_static])
def test_a_second_run_with_another_depth_answers_as_a_first_run_does(capture):
    # auto runs CLG twice on one page (as configured, then clg_depth 0): the grouping both
    # share is computed once per page, and must not leak one run's answer into the other
    snap = from_json(capture(), 10_000)
    wide = Options(clg_depth=0)
    feats = compute(snap)
    first, second = clg.run(snap, feats, Options()), clg.run(snap, feats, wide)
    for opts, got in ((Options(), first), (wide, second)):
        alone = clg.run(snap, compute(snap), opts)
        assert got.node == alone.node and got.blocks.tolist() == alone.blocks.tolist()
        assert (got.parts is None) == (alone.parts is None)


@needs_model
def test_the_candidates_are_found_once_per_page_and_threshold(monkeypatch):
    snap = from_json(article_static(), 10_000)
    feats = compute(snap)
    calls = []
    found = clg.compact
    monkeypatch.setattr(clg, "compact", lambda s, mask: calls.append(1) or found(s, mask))
    first = clg.run(snap, feats, Options())
    clg.run(snap, feats, Options(clg_depth=0))            # auto's second, wide proposal
    assert len(calls) == 1
    p = clg.scores(snap, feats)[0]
    assert feats.cache[("clg_candidates", 0.55)].tolist() == found(snap, p > 0.55).tolist()
    clg.run(snap, feats, Options(clg_threshold=0.3))       # another threshold: found anew
    assert len(calls) == 2 and first.blocks[0] == first.node


@needs_model
def test_without_layout_every_link_is_kept_without_testing_pairs(monkeypatch):
    snap = from_json(article_static(), 10_000)
    feats = compute(snap)
    p, rel, kind = clg.scores(snap, feats)
    cands = clg.compact(snap, p > Options().clg_threshold)
    space = clg.space_of(rel)
    assert kind == "static" and len(cands) >= 2
    assert clg.links_kept(space.rect[cands], snap.parent[cands], Options().clg_overlap).all()
    monkeypatch.setattr(clg, "links_kept", lambda *a: pytest.fail("pairs tested"))
    _, groups, _ = clg._groups(snap, rel, cands, p, Options())
    assert [g.tolist() for g in groups] == [cands.tolist()]          # one group, as before
