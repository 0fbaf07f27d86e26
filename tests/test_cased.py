"""pith.pipeline.cased: lower-case patterns rewritten to search the text as written."""
from __future__ import annotations

import re

import numpy as np
import pytest

from pith.pipeline.cased import cased
from pith.pipeline.metadata import shown


def test_a_cased_pattern_finds_what_the_lower_case_one_finds_in_the_lowered_text():
    """Over random short texts of the byline's words in every case, dotted I, the Kelvin
    sign, a long s, accents, CJK marks, tabs and newlines, the byline's two searches and
    its class words (metadata/shown.py) find the same strings in the texts as written with
    the cased pattern as in the lowered texts with their own (Searched's two readings)."""
    rng = np.random.default_rng(12)
    parts = ["By", "by", "BY", "bY", "Written", "WRITTEN by", "written\u00a0by", "posted",
             "Published", "author", "Author(s)", "AUTHORS", "autoren", "Auteur", "von", "Par",
             "door", "作者", "记者：", "文/", " ", "\t", "\n", ":", "-", "—", "İ", "\u212a",
             "ſ", "é", "Jane Doe", "the post was written by", "x", "reviewed", "ing"]
    patterns = [shown.BY_TEXT, shown.CREDIT_CUE, shown.BYLINE_NAMES, shown.DATE_NAMES]
    rewritten = [re.compile(cased(rx.pattern)) for rx in patterns]
    for _ in range(400):
        strings = ["".join(rng.choice(parts, size=int(rng.integers(0, 6))))
                   for _ in range(int(rng.integers(1, 12)))]
        lowered, written = shown.Searched(strings), shown.Searched(strings, lower=False)
        for rx, raw in zip(patterns, rewritten):
            assert written.find(raw).tolist() == lowered.find(rx).tolist(), (rx.pattern, strings)


@pytest.mark.parametrize("pattern", [r"[^a]b", r"[a-z]", r"(?i)by", r"(?P<n>by)", r"\d{4}by",
                                     r"\wby"])
def test_what_cannot_be_rewritten_is_refused(pattern):
    with pytest.raises(ValueError):
        cased(pattern)


def test_the_rewriting_keeps_escapes_classes_and_look_arounds():
    assert cased(r"\n[ \t]*(?=[ab])(?:by|k)\b") == r"\n[ \t]*(?=[aAbB])(?:[bB][yY]|[kK" + "\u212a" + r"])\b"
