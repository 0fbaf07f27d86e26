"""auto: the members' proposals vote by shared text; the medoid wins and is cleaned."""
import numpy as np
import pytest

from builders import make_snapshot
from pith import static
from pith.algorithms import auto
from pith.algorithms.base import Choice
from pith.errors import BadOptions, NoContent
from pith.features import compute
from pith.options import Options
from pith.select import select
from pith.snapshot import from_json


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
                 Options.from_overrides({"algorithm": "auto"}))
    members = {select(static.snapshot_from_html(html, "http://example.org/"),
                      Options.from_overrides({"algorithm": m})).node
               for m in Options().auto_members}
    assert sel.node in members
    text = " ".join(sel.snap.text[i] for i in np.flatnonzero(auto.covered(sel.snap, sel.result)))
    assert "A sentence of real content" in text and "Related one" not in text


def test_no_text_is_no_content():
    with pytest.raises(NoContent):
        select(make_snapshot([("html", -1), ("body", 0)]), Options.from_overrides({"algorithm": "auto"}))


@pytest.mark.parametrize("members", [[], ["auto"], ["magic"], "cnr"])
def test_members_must_be_known_methods(members):
    with pytest.raises(BadOptions, match="auto_members"):
        Options.from_overrides({"auto_members": members})
