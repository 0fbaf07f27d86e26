"""CNR (López, Silva, Insa): Algorithm 1 values, Algorithm 2 merging, the paper's example."""
import numpy as np
import pytest

from builders import make_snapshot
from pith.pages import static
from pith.pipeline.algorithms import cnr
from pith.errors import NoContent
from pith.pipeline.features import compute
from pith.pipeline.options import Options
from pith.pipeline.snapshot import from_json

# Example 3.2 of the paper, verbatim (the Wikipedia "Information retrieval" fragment).
EXAMPLE_3_2 = """<html><head><title>Information retrieval</title></head>
<body>
  <h1 id="firstHeading" class="firstHeading"> Information retrieval</h1>
  <div id="content">
    <p><b>Information retrieval</b>
      (IR) is the science of searching for documents, for information within documents,
      and for metadata about documents (...)</p>
  </div>
  <div class="portal" id="p-lang">
    <h5>Languages</h5> (...)</div>
  <div id="footer">
    <li id="footer-info-lastmod"> This page was last modified on 15 April 2011 at 23:32.</li>
    <li id="footer-info-copyright">Text is available under the
      <a rel="license"> Creative Commons Attribution-ShareAlike License</a>
      additional terms may apply. See Terms of Use for (...)</li>
  </div>
</body></html>"""


def run(obj, **overrides):
    snap = from_json(obj, 10**6)
    opts = Options.from_overrides(overrides)
    return snap, cnr.run(snap, compute(snap, opts.skip_hidden), opts)


def test_algorithm_1_weights_chars_and_ratio_follow_the_paper():
    # div > [p "abcd" <a>"link"</a> "ef"] , img ; text nodes weigh 1, a and img are
    # nonContentNodes: weight 1, 0 chars, subtree (the link text) not counted.
    obj = make_snapshot([
        ("div", -1),
        ("p", 0, {"text": "ab cd"}),
        ("a", 1, {"text": "link", "tail": "ef", "link": 1}),
        ("img", 0),
    ])
    snap = from_json(obj, 100)
    s = cnr.compute_cnr(snap, compute(snap), Options())
    # p: itself 1 + text "ab cd" 1 + a 1 + tail "ef" 1 = 4; chars 4 + 2 = 6
    assert s.weight.tolist() == [6, 4, 1, 1]
    assert s.chars.tolist() == [6, 6, 0, 0]
    assert s.cnr[1] == pytest.approx(1.5)
    assert s.cnr[0] == pytest.approx(1.0)


def test_paper_example_3_2_chooses_the_main_div_not_the_footer():
    snap, result = run(static.snapshot_from_html(EXAMPLE_3_2, "http://example.org/"))
    assert snap.tag[result.node] == "div"
    assert snap.id[result.node] == "content"
    assert "footer" not in {snap.id[b] for b in result.blocks[:1]}


def test_sibling_picks_merge_into_their_parent_until_fixpoint():
    # root > a > (b > (c, d)), e ; picks c, d, e: c+d → b; b alone under a stays.
    snap = from_json(make_snapshot([("r", -1), ("a", 0), ("b", 1), ("c", 2), ("d", 2),
                                    ("e", 0)]), 100)
    assert cnr.blocks(snap, np.array([3, 4, 5])).tolist() == [2, 5]
    # b and e are not siblings, a and e are: picks c, d and a's sibling e plus a → root
    assert cnr.blocks(snap, np.array([1, 3, 4, 5])).tolist() == [0]


def test_antichain_drops_descendants_of_other_picks():
    snap = from_json(make_snapshot([("r", -1), ("a", 0), ("b", 1), ("c", 0)]), 100)
    assert cnr.antichain(snap, np.array([2, 1, 3])).tolist() == [1, 3]


def test_top_rated_takes_the_configured_share_in_cnr_order():
    obj = make_snapshot([("body", -1)] + [("p", 0, {"text": "x" * k}) for k in (10, 40, 20, 30)])
    snap = from_json(obj, 100)
    scores = cnr.compute_cnr(snap, compute(snap), Options())
    picks = cnr.top_rated(scores, Options.from_overrides({"cnr_top_fraction": 0.4}))
    assert picks.tolist() == [2, 4]      # 5 text-holding rows → 2 picks: the 40 and the 30


def test_a_page_without_text_has_no_content():
    with pytest.raises(NoContent):
        run(make_snapshot([("html", -1), ("body", 0), ("img", 1)]))
