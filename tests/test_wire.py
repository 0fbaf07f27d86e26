"""Tests of pipeline/wire.py: a page's string is echoed whole up to its limit and cut, marked, past it."""
from __future__ import annotations

import pytest

from pith.pipeline import wire


@pytest.mark.parametrize("limit", [1, 2, wire.MAX_NAME_CHARS, wire.MAX_PAGE_CHARS])
def test_a_string_at_its_limit_is_whole_and_one_over_is_cut_to_the_limit(limit):
    whole = "x" * limit
    assert wire.page_string(whole, limit) == whole
    cut = wire.page_string(whole + "y", limit)
    assert len(cut) == limit and cut.endswith(wire.CUT_MARK)
    assert cut[:-1] == whole[:limit - 1]


def test_a_value_that_is_no_string_is_echoed_as_its_text():
    assert wire.page_string(12345, 10) == "12345"
    assert wire.page_string(None, 10) == "None"
    assert wire.page_string(10 ** 20, 5) == "1000" + wire.CUT_MARK


def test_astral_characters_count_once_each():
    emoji = "\N{GRINNING FACE}" * 4
    assert wire.page_string(emoji, 4) == emoji
    assert wire.page_string(emoji, 3) == emoji[:2] + wire.CUT_MARK

