"""pith.pipeline.metadata.window: the rows around the chosen element and how they are searched (matching_rows, matching_names, window_names, matching_strings, text_of)."""
from __future__ import annotations

import re

import numpy as np

from pith.pipeline.metadata import byline, dateline, window
from pith.pages import static
from pith.pipeline import snapshot as snapshot_mod

from builders import make_snapshot
from metadata_pages import meta_of


def test_matching_names_searches_each_distinct_name_once_and_answers_every_row():
    """matching_names finds the rows matching_rows finds (classes repeated over rows, ids
    mostly empty, names in any case), and searches each distinct name once."""
    import random
    import re
    rng = random.Random(11)
    names = ["byline", "Post-Meta", "entry-date", "author-box", "", "", "card", "BYLINE x",
             "published-on", "nav", "date", "writer2"]
    rows = [("html", -1), ("body", 0)] + [
        ("div", 1, {"cls": rng.choice(names), "id": rng.choice(names)}) for _ in range(300)]
    snap = snapshot_mod.from_json(make_snapshot(rows), 1000)
    rows_around = np.arange(2, 302)
    for column in ("cls", "id"):
        for rx in (byline.BYLINE_NAMES, dateline.DATE_NAMES):
            want = window.matching_rows(snap, column, rx, rows_around)
            assert len(want) and window.matching_names(snap, column, rx, rows_around).tolist() == want.tolist()

    class Counting:                      # a pattern that counts the strings it is given
        def __init__(self, rx):
            self.rx, self.searched = rx, []

        def finditer(self, text):
            self.searched.append(text)
            return self.rx.finditer(text)
    counting = Counting(dateline.DATE_NAMES)
    window.matching_names(snap, "cls", counting, rows_around)
    assert len(counting.searched) == 1
    assert counting.searched[0].count("\n") == len(set(snap.cls[rows_around].tolist()))
    assert window.matching_names(snap, "cls", re.compile("x"), rows_around[:0]).tolist() == []


def test_window_names_are_prepared_once_per_element_and_answer_as_matching_rows():
    """The byline's class words and the date line search the distinct names around the
    chosen element prepared once (window_names, remembered per snapshot and element): each
    pattern's rows are matching_rows's over `around` that element, for another element
    another window's; and the byline's "By" lines and credit sentences search one
    preparation of the short texts (Rows) with matching_rows's answers."""
    import random
    rng = random.Random(5)
    names = ["byline", "Post-Meta", "entry-date", "author-box", "", "", "card", "BYLINE x",
             "published-on", "nav", "date", "writer2", "Écrivain-date"]
    texts = ["By Jane Doe", "", "Written by Ann Roe", "March 3, 2024", "Share", "BY İLKER"]
    rows = [("html", -1), ("body", 0)] + [
        ("div", 1, {"cls": rng.choice(names), "id": rng.choice(names), "text": rng.choice(texts)})
        for _ in range(1200)]
    snap = snapshot_mod.from_json(make_snapshot(rows), 5000)
    for node in (1, 900, 1, 1100):
        prepared = window.window_names(snap, "cls", node)
        assert window.window_names(snap, "cls", node) is prepared
        for column in ("cls", "id"):
            for rx in (byline.BYLINE_NAMES_TRIE, dateline.DATE_NAMES_TRIE):
                want = window.matching_rows(snap, column, rx, window.around(snap, node))
                got = window.window_names(snap, column, node).matching(rx)
                assert len(want) and got.tolist() == want.tolist()
    assert window.window_names(snap, "cls", 1) is not window.window_names(snap, "cls", 900)
    short = window.short_rows(snap, "text", window.around(snap, 1), byline.MAX_BYLINE_CHARS * 2)
    prepared = window.Rows(snap, "text", short)
    for rx in (byline.BY_TEXT, byline.CREDIT_CUE, re.compile("İlker")):
        want = window.matching_rows(snap, "text", rx, short)
        assert len(want) and prepared.matching(rx).tolist() == want.tolist()
    assert window.Rows(snap, "text", short[:0]).matching(byline.BY_TEXT).tolist() == []


def test_a_line_break_in_the_headline_is_a_space():
    body = "<article><h1><span>News Product<br>Management Certification</span></h1><p>" + \
        "Course text. " * 40 + "</p></article>"
    m = meta_of(body, title="News Product Management Certification — News Product Alliance")
    assert m["title"] == "News Product Management Certification"
    snap = static.snapshot_of_html("<p>a<br>b</p>", "http://pith.test/", 100)
    assert window.text_of(snap, list(snap.tag).index("p")) == "a b"


def test_matching_strings_maps_hits_to_their_strings_after_a_longer_lower_case():
    # "İ" lower-cases to two code points; the hit in the third string stays the third's
    strings = ["İ" * 20, "posted by Ada", "x" * 40]
    assert window.matching_strings(strings, byline.BY_TEXT).tolist() == [1]


def test_matching_strings_lower_cases_each_string_as_the_joined_text():
    """matching_strings lower-cases each string alone (str.lower's slow path only for the
    strings beyond ASCII) and finds what the lower-cased joined text (lower_in_place,
    positions kept) finds: the same strings on random lists of ASCII, a final sigma
    before a newline, a dotted I (whose lower case grows), the Kelvin sign and ß."""
    from pith.pipeline.features import lower_in_place
    rng = np.random.default_rng(11)
    alphabet = ["By ", "by", "BY", "x", " ", "\t", "Σ", "ΣΑ", "İ", "\u212a", "ß", "é", "\n", "2024"]
    rx = re.compile(r"\n[ \t]*by[ \t\n]|σ|ς|k|2024")
    for _ in range(500):
        strings = ["".join(rng.choice(alphabet, size=int(rng.integers(0, 5))))
                   for _ in range(int(rng.integers(0, 8)))]
        big = lower_in_place("\n" + "\n".join(strings))
        starts = np.cumsum([0] + [len(s) + 1 for s in strings])
        want = sorted({int(np.searchsorted(starts, m.start(), side="right") - 1)
                       for m in rx.finditer(big)})
        assert window.matching_strings(strings, rx).tolist() == want, strings


def test_blank_short_texts_searched_as_empty_find_what_the_whole_texts_find():
    """The byline's short texts with their blank strings made "" (window.blank_emptied, the
    non-space counts features.column_lengths gives) are found by its three searches — the
    "By" lines, the credit sentences, the date lines' separators — as the texts as written
    are: edge lists (a "By" line whose match takes the newline after it, then a blank
    string, then another "By" line; "written", blank strings of every kind of whitespace,
    "by"; a string of no character at all) and random lists of By lines, blanks and words."""
    import random
    from pith.pipeline.features import nonspace_lengths
    patterns = (byline.BY_TEXT, byline.CREDIT_CUE, *byline.DATELINE_SEPARATORS)

    def both(strings):
        arr = np.array(strings, dtype=object)
        solid = nonspace_lengths(arr)
        emptied = window.blank_emptied(arr, solid).tolist()
        assert all(e == ("" if not s.strip() else s) for s, e in zip(strings, emptied))
        whole, blank = window.Searched(list(strings)), window.Searched(emptied)
        return [(whole.find(rx).tolist(), blank.find(rx).tolist()) for rx in patterns]

    edges = [["By", "   ", "By Jane Doe"], ["By", "\n  \n", "by Jane"], ["By:", "\t", "By Ann"],
             ["written", " \u00a0 ", "by Ann Roe"], ["written", "\u3000\n\u2003", "by", "x"],
             ["Author", "", "  ", "Author: Jo"], ["By ", " ", "\n", "作者：张三"],
             ["a | b", "\r\n", "· c", "  ", "• d"], ["BY İLKER", "\x0b\x0c", "by x"]]
    for strings in edges:
        for want, got in both(strings):
            assert got == want, strings
    rng = random.Random(3)
    pieces = ["By", "by ", "By:", "Written", "written by", "Author", "作者：", " Jane", "\n",
              "|", "·", "•", "x", "İ", "Posted by", "\t"]
    blanks = ["", " ", "\n", "\n   ", "\t \n", "\u00a0", "\u2003\n", "\r\n\x0c"]
    for _ in range(400):
        strings = [rng.choice(blanks) if rng.random() < 0.5 else
                   "".join(rng.choice(pieces) for _ in range(rng.randrange(1, 4)))
                   for _ in range(rng.randrange(0, 12))]
        for want, got in both(strings):
            assert got == want, strings


def test_the_byline_searches_its_short_texts_with_blanks_emptied():
    """The byline's Rows of short texts are searched with their blank strings emptied
    (blank_empty): the rows each pattern finds are matching_rows's over the same rows."""
    rows = [("html", -1), ("body", 0)]
    for text in ["By", "\n   ", "By Jane Doe", "  ", "written", " ", "by Ann Roe", "x | y · z • w"] * 30:
        rows.append(("span", 1, {"text": text}))
    snap = snapshot_mod.from_json(make_snapshot(rows), 1000)
    short = window.short_rows(snap, "text", np.arange(snap.n), byline.MAX_BYLINE_CHARS * 2)
    prepared = window.Rows(snap, "text", short, blank_empty=True)
    for rx in (byline.BY_TEXT, byline.CREDIT_CUE, *byline.DATELINE_SEPARATORS):
        want = window.matching_rows(snap, "text", rx, short)
        assert len(want) and prepared.matching(rx).tolist() == want.tolist()
    assert "\n   " not in prepared.searched.strings and "" in prepared.searched.strings
