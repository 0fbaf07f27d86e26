"""Block features: names, text statistics, and the matrix the block model reads."""
import numpy as np

from builders import make_snapshot
from pith.pipeline.blocks import features as bf
from pith.pipeline.blocks import segment as blocks_mod
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


def test_the_character_shares_are_counts_per_block():
    """One table and one bincount for all classes: each share is the plain count of its
    characters in the block, over the block's length."""
    strings = ["Ab 12, c.", "ÀÞ× ß ÿ", "。！？，、;", "𝟏𝟐 𝐀 ٣", "", "x" * 30, "  ", "Z9!"]
    digits, capitals, stops, commas, word_len = bf.text_stats(strings).T[:5]
    for k, t in enumerate(strings):
        size = max(len(t), 1)
        assert digits[k] == sum(c in "0123456789" for c in t) / size
        assert capitals[k] == sum("A" <= c <= "Z" or "\xc0" <= c <= "\xde" for c in t) / size
        assert stops[k] == sum(c in ".!?。！？" for c in t) / size * 100
        assert commas[k] == sum(c in ",;，、" for c in t) / size * 100
        assert word_len[k] == (min(len(t) / (t.count(" ") + 1), 30.0) if t else 0.0)


def test_containing_marks_the_strings_a_word_occurs_in():
    strings = ["three days ago", "chicago today", "agony", "", "a go", "today"]
    n = np.array([len(t) for t in strings])
    starts = np.concatenate(([0], np.cumsum(n + 1)[:-1]))
    joined = "\n".join(strings)
    assert bf._containing(joined, starts, n, ("ago", "today")).tolist() == \
        [True, True, True, False, False, True]
    assert bf._containing(joined, starts, n, ("zzz",)).tolist() == [False] * 6


def test_the_date_and_copyright_columns_equal_a_scan_of_every_block():
    """_DATE runs only over blocks with a decimal digit or a date word, and a copyright is a
    containment: the columns are those of the pattern run over every block, also for digits
    of other scripts (Arabic-Indic, mathematical bold, beyond the 16-bit plane)."""
    import re
    strings = ["posted 3 jan", "jan ٣", "٣ jan", "𝟏𝟐 feb", "feb 𝟏𝟐", "yesterday", "3 days ago",
               "chicago", "2024-01-02", "1/2/24", "no date here", "© 2024", "(c) acme", "(c",
               "c) 2020", "", "Today", "By Ada", "İstanbul, 5 May", "ß 5 jun"]
    stats = bf.text_stats(strings)
    copyright_re = re.compile(r"©|\(c\)")
    assert stats[:, 7].tolist() == [float(bool(bf._DATE.search(t.lower()))) for t in strings]
    assert stats[:, 8].tolist() == [float(bool(copyright_re.search(t.lower()))) for t in strings]
    assert stats[:, 7].sum() == 10 and stats[:, 8].sum() == 2    # the check checks something


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


def test_flag_words_name_no_family():
    """'has-comments' on a post says the post has comments, not that it is one: flag words
    (has-, no-, with-, show-, ...) are left out of a name; its other words still count."""
    snap = from_json(make_snapshot([
        ("html", -1), ("body", 0),
        ("article", 1, {"cls": "BlogItem has-comments"}), ("div", 1, {"cls": "no-sidebar"}),
        ("section", 1, {"cls": "BlogItem-comments"}),
        ("div", 1, {"cls": "with-sidebar share-bar"}), ("div", 1, {"cls": "xhas-comments"}),
    ]), 100)
    fam = bf.name_families(snap, np.ones(snap.n, bool))
    col = {k: i for i, k in enumerate(bf.FAMILIES)}
    assert not fam[2].any() and not fam[3].any()
    assert fam[4, col["comment"]]
    assert fam[5, col["share"]] and not fam[5, col["sidebar"]]
    assert fam[6, col["comment"]]                 # a flag word starts at a word's start


def test_names_of_a_page_wide_row_are_not_passed_down():
    """A body's theme switch ('tweak-blog-meta-comments') describes the page: its blocks
    are not in the comment family by it; a comments section's blocks are."""
    snap = from_json(make_snapshot([
        ("html", -1), ("body", 0, {"cls": "tweak-blog-meta-comments"}),
        ("article", 1), ("p", 2, {"text": "The story, long enough to be the page. " * 5}),
        ("section", 1, {"cls": "comments"}), ("p", 4, {"text": "Nice story."}),
    ]), 100)
    feats = compute(snap)
    sig = bf.page_signals(snap, feats, Options(), 0)
    comment = list(bf.FAMILIES).index("comment")
    assert sig.own_family[1, comment]             # the body's own name still reads so
    assert not sig.family[3, comment] and sig.family[5, comment]


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


def test_page_signals_read_the_names_of_the_rows_asked_for_and_their_ancestors():
    """With `read`, the names of inline rows inside blocks are not matched; at the rows
    read, the families and the matrix are those of reading every name."""
    snap = from_json(make_snapshot([
        ("html", -1), ("body", 0), ("article", 1, {"cls": "post-content"}),
        ("p", 2, {"text": "A paragraph with an inline link.", "cls": "story"}),
        ("a", 3, {"text": "share", "cls": "share-button", "link": 1, "url": "https://e.org/s"}),
        ("div", 2, {"cls": "comments"}), ("p", 5, {"text": "A comment here."}),
    ]), 100)
    feats = compute(snap)
    blocks = blocks_mod.compute(snap, feats)
    which = np.arange(blocks.count)
    rows = blocks.rows[which]
    every = bf.page_signals(snap, feats, Options(), 2)
    asked = bf.page_signals(snap, feats, Options(), 2, read=rows)
    share = list(bf.FAMILIES).index("share")
    assert every.own_family[4, share] and not asked.own_family[4].any()   # the inline link
    assert np.array_equal(asked.family[rows], every.family[rows])
    assert np.array_equal(asked.own_family[rows], every.own_family[rows])
    assert every.family[6, list(bf.FAMILIES).index("comment")]            # from its parent
    assert np.array_equal(bf.matrix(snap, feats, blocks, asked, 2, which, None, None, False),
                          bf.matrix(snap, feats, blocks, every, 2, which, None, None, False))


def _section_column(rows):
    snap = from_json(make_snapshot(rows), 100)
    feats = compute(snap)
    blocks = blocks_mod.compute(snap, feats)
    which = np.arange(blocks.count)
    texts = blocks_mod.texts(snap, blocks, which)
    away = bf.section_away(snap, feats.chars, blocks.rows[which], texts)
    return dict(zip(texts, away.tolist()))


def test_a_section_under_a_furniture_heading_runs_to_the_next_heading_of_its_level():
    """'Customer reviews' (an h2 wrapped in a title div) heads the blocks after it, its h3
    sub-headings included, up to the next h2; the story before it is not in it."""
    away = _section_column([
        ("html", -1), ("body", 0), ("main", 1),
        ("h1", 2, {"text": "A tent for every weather"}),
        ("p", 2, {"text": "It packs small and stands in a storm."}),
        ("div", 2, {"cls": "title"}), ("h2", 5, {"text": "Customer reviews"}),
        ("p", 2, {"text": "The poles are strong."}),
        ("h3", 2, {"text": "Dry all night"}),
        ("p", 2, {"text": "Kept me dry in the rain."}),
        ("h2", 2, {"text": "Specifications"}),
        ("p", 2, {"text": "Weight two kilograms."}),
    ])
    assert away == {"A tent for every weather": 0, "It packs small and stands in a storm.": 0,
                    "Customer reviews": 1, "The poles are strong.": 1, "Dry all night": 1,
                    "Kept me dry in the rain.": 1, "Specifications": 0,
                    "Weight two kilograms.": 0}


def test_a_section_ends_with_its_container():
    """'Popular posts' in an aside heads the aside's list, not the paragraph after the
    aside (no later heading closes it there)."""
    away = _section_column([
        ("html", -1), ("body", 0), ("aside", 1),
        ("h3", 2, {"text": "Popular posts"}),
        ("ul", 2), ("li", 4, {"text": "First post"}), ("li", 4, {"text": "Second post"}),
        ("p", 1, {"text": "The story goes on here."}),
    ])
    assert away == {"Popular posts": 1, "First post": 1, "Second post": 1,
                    "The story goes on here.": 0}


def test_headings_of_content_head_no_furniture_section():
    away = _section_column([
        ("html", -1), ("body", 0),
        ("h2", 1, {"text": "How the bridge was built"}), ("p", 1, {"text": "Stone by stone."}),
    ])
    assert set(away.values()) == {0}


def test_without_flags_is_each_names_substitution():
    """bf.without_flags (one substitution over the names joined) against _FLAG_WORD.sub
    of each name alone, its definition: flag words at a name's start, after a space,
    at its end, names holding a newline (read alone), empty names and lists, and random
    names of flag words, separators, spaces and newlines."""
    sub = lambda names: [bf._FLAG_WORD.sub("", s) for s in names]  # noqa: E731
    cases = [[], [""], ["has-x"], ["a has-x b", "no_sidebar", "is"], ["x\nhas-y", "has-z"],
             ["has-\nx", "show-y z"], ["post has-", "with_", "with-\n-a"], ["a", "", "b"]]
    rng = np.random.default_rng(7)
    parts = ["has", "no", "is", "-", "_", " ", "\n", "x", "post", "show", "\t", "disable"]
    for _ in range(400):
        cases.append(["".join(rng.choice(parts, int(rng.integers(0, 6))))
                      for _ in range(int(rng.integers(0, 6)))])
    for names in cases:
        assert bf.without_flags(names) == sub(names), names
