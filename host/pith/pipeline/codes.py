"""Equal keys numbered by where each first occurs: one pass in C, no Python frame per key.

`first_seen(keys)` gives, per key, the index of its first occurrence in `keys`: equal keys
get equal numbers, different keys different ones, and a key's number is the index of its
first row. The pipeline numbers a page's strings so (classes, block texts, sibling
signatures) to count or compare them with numpy: `dict.setdefault` mapped over the keys
and a counter runs in C, where a generator asking `setdefault(k, len(d))` per key ran a
Python frame per row (NOTES.md, 'Why a page's strings are numbered by first occurrence').
"""
from __future__ import annotations

from itertools import count
from typing import Hashable, Iterable

import numpy as np


def first_seen(keys: Iterable[Hashable], n: int = -1) -> np.ndarray:
    """Per key of `keys` (`n` of them when known), the index of its first occurrence."""
    seen: dict = {}
    return np.fromiter(map(seen.setdefault, keys, count()), np.int64, n)


def used(codes: np.ndarray, n: int) -> np.ndarray:
    """The distinct values of `codes` (numbers below `n`), ascending: which of a column's
    numbered strings some rows hold."""
    return np.flatnonzero(np.bincount(codes, minlength=n))
