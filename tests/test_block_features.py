"""Block features: names, text statistics, and the matrix the block model reads."""
import numpy as np

from builders import make_snapshot
from pith.pipeline import block_features as bf
from pith.pipeline import blocks as blocks_mod
from pith.pipeline.features import compute
from pith.pipeline.options import Options
from pith.pipeline.snapshot import from_json


def test_text_statistics_per_block():
    stats = bf.text_stats(["", "By Ada Moss, 3 March 2024", "Share on X | Email",
                           "The tide rose. It fell again!", "© 2024 Example Ltd", ""])
    assert stats.shape == (6, 10)
    assert not stats[0].any() and not stats[5].any()          # empty blocks: all zero
    digits, capitals, stops, commas, word_len, ends, boiler, date, copy, by = stats.T
    assert by[1] == 1 and date[1] == 1 and commas[1] > 0 and digits[1] > 0
    assert boiler[2] == 2 / 5                                # share, email of five words
    assert ends[3] == 1 and stops[3] > 0 and boiler[3] == 0
    assert copy[4] == 1 and capitals[4] > 0


def test_text_statistics_read_a_long_block_from_its_start():
    cap = bf.TEXT_STATS_MAX_CHARS
    long = "word " * (cap // 5) + "1999. " * 1000 + "By the end."       # digits, stops past it
    digits, capitals, stops, commas, word_len, ends, boiler, date, copy, by = \
        bf.text_stats([long, long[:cap]]).T
    assert digits[0] == digits[1] == 0 and stops[0] == stops[1] == 0  # read from the start
    assert ends[0] == 1 and ends[1] == 0                              # the end is the real end


def test_name_families_match_class_and_id_words():
    snap = from_json(make_snapshot([
        ("html", -1), ("body", 0),
        ("div", 1, {"cls": "comments-area"}), ("div", 1, {"id": "share-bar"}),
        ("div", 1, {"cls": "post-content"}), ("div", 1, {"cls": "loading"}),
    ]), 100)
    fam = bf.name_families(snap, np.ones(snap.n, bool))
    col = {k: i for i, k in enumerate(bf.FAMILIES)}
    assert fam[2, col["comment"]] and fam[3, col["share"]] and fam[4, col["content"]]
    assert not fam[5].any() and not fam[:2].any()
    assert not bf.name_families(snap, np.zeros(snap.n, bool)).any()   # outside: not read


def test_matrix_has_one_row_per_block_and_the_documented_columns():
    snap = from_json(make_snapshot([
        ("html", -1), ("body", 0), ("article", 1, {"cls": "post"}),
        ("h1", 2, {"text": "Headline"}),
        ("p", 2, {"text": "A paragraph of the story, with a comma."}),
        ("ul", 2, {"cls": "related"}),
        ("li", 5), ("a", 6, {"text": "Other story", "link": 1, "url": "https://e.org/o"}),
        ("li", 5), ("a", 8, {"text": "Another one", "link": 1, "url": "https://e.org/p"}),
    ]), 100)
    feats = compute(snap)
    blocks = blocks_mod.compute(snap, feats)
    which = np.arange(blocks.count)
    sig = bf.page_signals(snap, feats, Options(), 2)
    x = bf.matrix(snap, feats, blocks, sig, 2, which, None, None, layout=False)
    assert x.shape == (blocks.count, len(bf.NAMES)) and np.isfinite(x).all()
    col = {k: i for i, k in enumerate(bf.NAMES)}
    rows = blocks.rows.tolist()
    li = rows.index(6)
    assert x[li, col["link_density"]] == 1.0 and x[li, col["name_related"]] == 1
    assert x[li, col["log_alike"]] == np.log(2)               # two items alike
    assert x[rows.index(4), col["link_density"]] == 0.0
    assert x[rows.index(4), col["prev_heading"]] == 1        # the paragraph follows the h1
    wide = bf.matrix(snap, feats, blocks, sig, 2, which, None, None, layout=True)
    assert wide.shape[1] == len(bf.LAYOUT_NAMES)
