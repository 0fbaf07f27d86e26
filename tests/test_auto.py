"""auto: the members' proposals vote by shared text; the medoid wins and is cleaned."""
import numpy as np
import pytest

from builders import make_snapshot
from pith.pages import static
from pith.pipeline.algorithms import auto
from pith.pipeline.algorithms.base import Choice
from pith.errors import BadOptions, NoContent
from pith.pipeline.features import compute
from pith.pipeline.options import Options
from pith.pipeline.select import select
from pith.pipeline.snapshot import from_json


def test_agreement_is_a_weighted_jaccard_summed_over_the_others():
    w = np.array([0, 10, 10, 10, 10], float)
    a = np.array([0, 1, 1, 0, 0], bool)
    b = np.array([0, 1, 1, 1, 0], bool)
    c = np.array([0, 0, 0, 0, 1], bool)
    votes = auto.agreement([a, b, c], w)
    assert votes == pytest.approx([20 / 30, 20 / 30, 0.0])


def test_covered_rows_are_the_roots_subtrees_minus_drops():
    snap = from_json(make_snapshot([("r", -1), ("a", 0), ("b", 1), ("c", 1), ("d", 0)]), 100)
    drop = np.zeros(5, bool)
    drop[3] = True
    choice = Choice(node=1, score=np.zeros(5), blocks=np.array([1]), drop=drop)
    assert auto.covered(snap, choice).tolist() == [False, True, True, False, False]
    parts = Choice(node=0, score=np.zeros(5), blocks=np.array([0]), parts=np.array([2, 4]))
    assert auto.covered(snap, parts).tolist() == [False, False, True, False, True]


def test_the_winner_is_one_members_block_and_link_lists_inside_are_dropped():
    html = ("<html><body><nav><a href=/1>One</a> | <a href=/2>Two</a></nav><main><article>"
            + "<p>" + "A sentence of real content in the article body. " * 6 + "</p>" * 1
            + "<p>" + "Another paragraph that carries the argument further on. " * 6 + "</p>"
            + "<ul class=related><li><a href=/r1>Related one</a></li><li><a href=/r2>Related "
              "two</a></li><li><a href=/r3>Related three</a></li></ul>"
            + "</article></main><footer>© 2026</footer></body></html>")
    sel = select(static.snapshot_from_html(html, "http://example.org/"),
                 Options.from_overrides({"blocks": False, "algorithm": "auto"}))
    members = {select(static.snapshot_from_html(html, "http://example.org/"),
                      Options.from_overrides({"blocks": False, "algorithm": m})).node
               for m in Options().auto_members}
    assert sel.node in members
    text = " ".join(sel.snap.text[i] for i in np.flatnonzero(auto.covered(sel.snap, sel.result)))
    assert "A sentence of real content" in text and "Related one" not in text


def test_no_text_is_no_content():
    with pytest.raises(NoContent):
        select(make_snapshot([("html", -1), ("body", 0)]), Options.from_overrides({"blocks": False, "algorithm": "auto"}))


@pytest.mark.parametrize("members", [[], ["auto"], ["magic"], "cnr"])
def test_members_must_be_known_methods(members):
    with pytest.raises(BadOptions, match="auto_members"):
        Options.from_overrides({"auto_members": members})


def test_the_ballot_adds_wide_clg_and_lets_filters_vote_only():
    opts = Options()
    assert auto.ballot(opts) == [("cnr", {}, True), ("lqf", {}, True), ("sst", {}, True),
                                 ("clg", {}, True), ("clg", {"clg_depth": 0}, True),
                                 ("filters", {}, False)]
    plain = Options.from_overrides({"auto_clg_wide": False, "auto_filters_vote": False})
    assert auto.ballot(plain) == [(m, {}, True) for m in plain.auto_members]
    voting = Options.from_overrides({"auto_members": ["cnr", "filters"]})
    assert auto.ballot(voting) == [("cnr", {}, True), ("filters", {}, True)]


def test_a_method_that_only_votes_never_wins(monkeypatch):
    """filters' block overlaps both others most (the medoid) but may only vote: of the two
    proposers, the one it agrees with more wins."""
    from pith.pipeline.algorithms import cnr, filters, lqf
    rows = [("html", -1), ("body", 0)] + [("p", 1, {"text": "w" * 10 * (k + 1)}) for k in range(3)]
    snap = from_json(make_snapshot(rows), 100)

    def proposing(parts):
        return lambda *a: Choice(node=1, score=np.zeros(snap.n), blocks=np.array([1]),
                                 parts=np.array(parts))
    monkeypatch.setattr(cnr, "run", proposing([2, 3]))        # 10 + 20 characters
    monkeypatch.setattr(lqf, "run", proposing([3, 4]))        # 20 + 30
    monkeypatch.setattr(filters, "run", proposing([2, 3, 4]))
    monkeypatch.setattr(filters, "vote", proposing([2, 3, 4]))
    opts = Options.from_overrides({"blocks": False, "algorithm": "auto", "auto_members": ["cnr", "lqf"],
                                   "auto_clean": False})
    assert auto.run(snap, compute(snap), opts).parts.tolist() == [3, 4]
    everyone = Options.from_overrides({"blocks": False, "algorithm": "auto", "auto_clean": False,
                                       "auto_members": ["cnr", "lqf", "filters"]})
    assert auto.run(snap, compute(snap), everyone).parts.tolist() == [2, 3, 4]


def test_a_voter_is_asked_through_its_vote_and_a_proposer_through_run(monkeypatch):
    from pith.pipeline.algorithms import filters
    rows = [("html", -1), ("body", 0)] + [("p", 1, {"text": "w" * 40}) for _ in range(2)]
    snap = from_json(make_snapshot(rows), 100)
    asked = []

    def answering(name):
        def answer(snap, feats, opts):
            asked.append(name)
            return Choice(node=1, score=np.zeros(snap.n), blocks=np.array([1]))
        return answer
    monkeypatch.setattr(filters, "run", answering("run"))
    monkeypatch.setattr(filters, "vote", answering("vote"))
    voting = Options.from_overrides({"blocks": False, "auto_members": ["cnr"]})
    auto.run(snap, compute(snap), voting)
    assert asked == ["vote"]
    proposing = Options.from_overrides({"blocks": False, "auto_members": ["cnr", "filters"]})
    auto.run(snap, compute(snap), proposing)
    assert asked == ["vote", "run"]


def listing_page(items: int, prose: int) -> tuple:
    rows = [("html", -1), ("body", 0), ("main", 1), ("p", 2, {"text": "intro words " * prose}),
            ("ul", 2)]
    for k in range(items):
        rows += [("li", 4), ("a", len(rows), {"text": f"Item number {k} of the shop", "link": 1})]
    snap = from_json(make_snapshot(rows), 1000)
    feats = compute(snap)
    link_list = np.zeros(snap.n, bool)
    link_list[4] = True
    choice = Choice(node=2, score=np.zeros(snap.n), blocks=np.array([2]))
    return snap, feats, choice, link_list


def test_link_lists_are_dropped_unless_they_are_a_large_share_of_the_block():
    opts = Options()
    snap, feats, choice, lists = listing_page(items=3, prose=40)     # an article and a menu
    assert auto.clean(snap, feats, opts, choice, lists).drop[4]
    snap, feats, choice, lists = listing_page(items=30, prose=3)     # a listing
    assert auto.clean(snap, feats, opts, choice, lists).drop is None
    always = Options.from_overrides({"auto_clean_max": 1.0})
    assert auto.clean(snap, feats, always, choice, lists).drop[4]


def test_the_score_is_the_share_of_text_outside_link_lists():
    html = ("<html><body><nav><ul>" + "".join(f"<li><a href=/{k}>Section {k}</a></li>"
                                              for k in range(12)) + "</ul></nav><main><p>"
            + "A sentence of real content in the article body. " * 8 + "</p></main></body></html>")
    sel = select(static.snapshot_from_html(html, "http://example.org/"),
                 Options.from_overrides({"blocks": False, "algorithm": "auto"}))
    tags = list(sel.snap.tag)
    score = sel.result.score
    assert score[tags.index("main")] == pytest.approx(1.0)
    assert score[tags.index("nav")] == 0.0
    assert score[tags.index("body")] == pytest.approx(1.0)


def test_lowest_common_ancestor_of_rows():
    # html(0) > body(1) > [div(2) > p(3), p(4)], div(5) > p(6)
    rows = [("html", -1), ("body", 0), ("div", 1), ("p", 2), ("p", 2), ("div", 1), ("p", 5)]
    snap = from_json(make_snapshot(rows), 100)
    assert auto.lowest_common_ancestor(snap, np.array([3, 4])) == 2
    assert auto.lowest_common_ancestor(snap, np.array([3, 6])) == 1
    assert auto.lowest_common_ancestor(snap, np.array([4])) == 4


def spread_page(monkeypatch, second):
    """cnr and lqf both find paragraphs 2-3; sst alone finds paragraph 4, apart from them;
    filters (a voter) finds `second`."""
    from pith.pipeline.algorithms import cnr, filters, lqf, sst
    rows = [("html", -1), ("body", 0)] + [("p", 1, {"text": "w" * 10 * (k + 1)}) for k in range(3)]
    snap = from_json(make_snapshot(rows), 100)

    def proposing(parts):
        return lambda *a: Choice(node=1, score=np.zeros(snap.n), blocks=np.array([1]),
                                 parts=np.array(parts))
    monkeypatch.setattr(cnr, "run", proposing([2, 3]))
    monkeypatch.setattr(lqf, "run", proposing([2, 3]))
    monkeypatch.setattr(sst, "run", proposing([4]))
    monkeypatch.setattr(filters, "vote", proposing(second))   # a voter is asked to vote
    return snap


def test_a_separate_block_another_entry_agrees_with_joins_the_winner(monkeypatch):
    snap = spread_page(monkeypatch, [4])
    opts = Options.from_overrides({"blocks": False, "algorithm": "auto", "auto_members": ["cnr", "lqf", "sst"],
                                   "auto_clean": False, "auto_union": True})
    got = auto.run(snap, compute(snap), opts)
    assert got.parts.tolist() == [2, 3, 4] and got.node == 1
    off = Options.from_overrides({"blocks": False, "algorithm": "auto", "auto_members": ["cnr", "lqf", "sst"],
                                  "auto_clean": False, "auto_union": False})
    assert auto.run(snap, compute(snap), off).parts.tolist() == [2, 3]


def test_a_separate_block_no_other_entry_finds_stays_out(monkeypatch):
    snap = spread_page(monkeypatch, [2])           # the voter sides with the winner
    opts = Options.from_overrides({"blocks": False, "algorithm": "auto", "auto_members": ["cnr", "lqf", "sst"],
                                   "auto_clean": False, "auto_union": True})
    assert auto.run(snap, compute(snap), opts).parts.tolist() == [2, 3]


def test_union_takes_only_blocks_apart_from_what_is_shown_and_needs_enough_agreement():
    rows = [("html", -1), ("body", 0), ("div", 1), ("p", 2), ("p", 2), ("p", 1)]
    snap = from_json(make_snapshot(rows), 100)
    w = np.array([0, 0, 0, 10, 10, 10], float)

    def choice(parts):
        return Choice(node=1, score=np.zeros(6), blocks=np.array([1]), parts=np.array(parts))
    props = [choice([3]), choice([3]), choice([2]), choice([5]), choice([5])]
    masks = [auto.covered(snap, p) for p in props]
    jac = auto.jaccard(masks, w)
    votes = jac.sum(axis=1)
    proposes = np.ones(len(props), bool)
    got = auto.union(snap, props, masks, jac, votes, proposes, 0, 0.3)
    assert got.parts.tolist() == [3, 5]        # [2] overlaps the winner's row 3
    assert got.node == 1
    assert auto.union(snap, props, masks, jac, votes, proposes, 0, 1.0).parts.tolist() == [3, 5]
    lone = props[:3] + [choice([5])]
    m2 = masks[:4]
    j2 = auto.jaccard(m2, w)
    assert auto.union(snap, lone, m2, j2, j2.sum(axis=1), np.ones(4, bool), 0, 0.3) is lone[0]


def furniture_page(footer_words: int) -> tuple:
    """body > [main > p, footer > div > p]: the main paragraph is short, the footer's long."""
    rows = [("html", -1), ("body", 0), ("main", 1, {"text": "Main story words " * 10}),
            ("footer", 1), ("div", 3, {"text": "Privacy policy text " * footer_words})]
    return from_json(make_snapshot(rows), 100)


def test_a_proposal_inside_page_furniture_cannot_win_while_one_outside_can(monkeypatch):
    from pith.pipeline.algorithms import cnr, lqf
    snap = furniture_page(footer_words=40)

    def proposing(node):
        return lambda *a: Choice(node=node, score=np.zeros(snap.n), blocks=np.array([node]))
    monkeypatch.setattr(cnr, "run", proposing(4))     # inside the footer, voted first
    monkeypatch.setattr(lqf, "run", proposing(2))     # main
    opts = Options.from_overrides({"blocks": False, "algorithm": "auto", "auto_members": ["cnr", "lqf"],
                                   "auto_clean": False})
    assert auto.run(snap, compute(snap), opts).node == 2
    off = Options.from_overrides({"blocks": False, "algorithm": "auto", "auto_members": ["cnr", "lqf"],
                                  "auto_clean": False, "auto_furniture": False})
    assert auto.run(snap, compute(snap), off).node == 4
    monkeypatch.setattr(lqf, "run", proposing(3))     # every proposal is furniture
    assert auto.run(snap, compute(snap), opts).node == 4


@pytest.mark.parametrize("role", [None, "contentinfo", "Navigation", "complementary", "dialog",
                                  "alertdialog"])
def test_furniture_inside_the_winner_is_dropped(role):
    tag = "div" if role else "aside"
    attrs = {"text": "Share this and follow us " * 3}
    if role:
        attrs["role"] = role
    rows = [("html", -1), ("body", 0), ("article", 1, {"text": "Story words here " * 20}),
            (tag, 2, attrs)]
    snap = from_json(make_snapshot(rows), 100)
    choice = Choice(node=2, score=np.zeros(snap.n), blocks=np.array([2]))
    out = auto.drop_furniture(snap, compute(snap), Options(), choice, auto.furniture(snap))
    assert out.drop.tolist() == [False, False, False, True]


def test_a_vote_buttons_tooltip_inside_a_post_is_left_out_of_the_answer(monkeypatch):
    """Stack Exchange writes each vote button's hover text in the post ("This answer is
    useful") as a role=tooltip div a style sheet hides; a static snapshot showed it in the
    answer. It is dropped from auto's answer, yet is no furniture to the vote."""
    from pith.pipeline.algorithms import cnr, lqf
    tip = {"text": "This answer is useful", "role": "tooltip"}
    rows = [("html", -1), ("body", 0), ("div", 1, {"cls": "answer"}),
            ("div", 2, {"cls": "votecell"}), ("button", 3, {"text": "Up vote"}), ("div", 4, tip),
            ("div", 2, {"cls": "s-prose", "text": "Consider role model, a person others copy. " * 8})]
    snap = from_json(make_snapshot(rows), 100)
    for member in (cnr, lqf):
        monkeypatch.setattr(member, "run", lambda *a: Choice(node=2, score=np.zeros(snap.n),
                                                             blocks=np.array([2])))
    opts = Options.from_overrides({"blocks": False, "algorithm": "auto", "auto_members": ["cnr", "lqf"],
                                   "auto_clean": False})
    out = auto.run(snap, compute(snap), opts)
    assert out.node == 2 and out.drop is not None and out.drop[5] and not out.drop[6]
    assert not auto.furniture(snap)[5]


def test_a_page_without_furniture_has_none_inside_and_skips_the_sums(monkeypatch):
    snap = from_json(make_snapshot([("html", -1), ("body", 0), ("p", 1, {"text": "w" * 40})]),
                     100)
    feats = compute(snap)
    landmarks = auto.furniture(snap)
    monkeypatch.setattr(type(snap), "subtree_sum", lambda *a: pytest.fail("summed"))
    found = auto.furniture_inside(snap, feats, np.ones(snap.n, bool), landmarks, 0.9)
    assert found.shape == (snap.n,) and not found.any() and found is not landmarks


def test_furniture_holding_nearly_all_of_the_winner_stays():
    rows = [("html", -1), ("body", 0), ("div", 1, {"text": "x"}),
            ("aside", 2, {"text": "The whole story sits in an aside " * 20})]
    snap = from_json(make_snapshot(rows), 100)
    choice = Choice(node=2, score=np.zeros(snap.n), blocks=np.array([2]))
    feats = compute(snap)
    assert auto.drop_furniture(snap, feats, Options(), choice, auto.furniture(snap)).drop is None
    strict = Options.from_overrides({"auto_furniture_max": 1.0})
    assert auto.drop_furniture(snap, feats, strict, choice, auto.furniture(snap)).drop[3]


def test_agreement_is_counted_outside_furniture(monkeypatch):
    """Two proposals that share only a long footer do not agree on content: without that
    rule the body (main + footer) is the medoid; with it, main and the body tie and the
    earlier member's main wins."""
    from pith.pipeline.algorithms import cnr, lqf, sst
    rows = [("html", -1), ("body", 0), ("main", 1, {"text": "Story " * 20}),
            ("footer", 1), ("p", 3, {"text": "Policy " * 200})]
    snap = from_json(make_snapshot(rows), 100)

    def proposing(node):
        return lambda *a: Choice(node=node, score=np.zeros(snap.n), blocks=np.array([node]))
    monkeypatch.setattr(cnr, "run", proposing(2))     # main
    monkeypatch.setattr(lqf, "run", proposing(1))     # body: main and the footer
    monkeypatch.setattr(sst, "run", proposing(4))     # the footer's paragraph
    base = {"algorithm": "auto", "auto_members": ["cnr", "lqf", "sst"], "auto_clean": False}
    assert auto.run(snap, compute(snap), Options.from_overrides(base)).node == 2
    off = Options.from_overrides({**base, "auto_furniture": False})
    assert auto.run(snap, compute(snap), off).node == 1


def test_a_part_inside_a_dropped_dialog_goes_with_it():
    """SST answers with parts; one lying deep inside a cookie dialog is not shown."""
    rows = [("html", -1), ("body", 0), ("p", 1, {"text": "Story words here " * 20}),
            ("div", 1, {"role": "dialog"}), ("div", 3), ("p", 4, {"text": "We use cookies " * 5})]
    snap = from_json(make_snapshot(rows), 100)
    choice = Choice(node=1, score=np.zeros(snap.n), blocks=np.array([1]), parts=np.array([2, 5]))
    out = auto.drop_furniture(snap, compute(snap), Options(), choice, auto.furniture(snap))
    assert out.parts.tolist() == [2] and out.drop[3]
    alone = Choice(node=1, score=np.zeros(snap.n), blocks=np.array([1]), parts=np.array([5]))
    assert auto.drop_furniture(snap, compute(snap), Options(), alone,
                               auto.furniture(snap)).parts.tolist() == [5]


def test_a_block_wrapping_only_a_dialog_cannot_win(monkeypatch):
    """A consent SDK's container is no landmark itself, but all it shows is its dialog."""
    from pith.pipeline.algorithms import cnr, lqf
    rows = [("html", -1), ("body", 0), ("main", 1, {"text": "Main story words " * 10}),
            ("div", 1), ("div", 3, {"role": "dialog", "text": "We use cookies " * 40})]
    snap = from_json(make_snapshot(rows), 100)

    def proposing(node):
        return lambda *a: Choice(node=node, score=np.zeros(snap.n), blocks=np.array([node]))
    monkeypatch.setattr(cnr, "run", proposing(3))     # the wrapper, voted first
    monkeypatch.setattr(lqf, "run", proposing(2))
    opts = Options.from_overrides({"blocks": False, "algorithm": "auto", "auto_members": ["cnr", "lqf"],
                                   "auto_clean": False})
    assert auto.run(snap, compute(snap), opts).node == 2


def test_a_page_that_is_all_furniture_still_votes_on_its_text(monkeypatch):
    """Everything sits in an aside: the vote falls back to all visible text, so the
    proposal the others agree with wins, not merely the first."""
    from pith.pipeline.algorithms import cnr, lqf, sst
    rows = [("html", -1), ("body", 0), ("aside", 1), ("p", 2, {"text": "One " * 30}),
            ("p", 2, {"text": "Two " * 30}), ("p", 2, {"text": "Three " * 30})]
    snap = from_json(make_snapshot(rows), 100)

    def proposing(parts):
        return lambda *a: Choice(node=2, score=np.zeros(snap.n), blocks=np.array([2]),
                                 parts=np.array(parts))
    monkeypatch.setattr(cnr, "run", proposing([3]))
    monkeypatch.setattr(lqf, "run", proposing([3, 4, 5]))
    monkeypatch.setattr(sst, "run", proposing([4, 5]))
    opts = Options.from_overrides({"blocks": False, "algorithm": "auto", "auto_members": ["cnr", "lqf", "sst"],
                                   "auto_clean": False})
    assert auto.run(snap, compute(snap), opts).parts.tolist() == [3, 4, 5]


def test_member_options_are_made_once_per_options_and_equal_a_replace():
    opts = Options()
    made = auto.member_options(opts, "clg", {"clg_depth": 0})
    assert made == Options(algorithm="clg", clg_depth=0)
    assert auto.member_options(opts, "clg", {"clg_depth": 0}) is made
    assert auto.member_options(opts, "clg", {}) == Options(algorithm="clg")
    assert auto.member_options(Options(candidates=9), "clg", {}) == \
        Options(candidates=9, algorithm="clg")
