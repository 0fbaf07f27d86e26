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
    return np.bincount(codes, minlength=n).nonzero()[0]


def ascending_distinct(values: np.ndarray) -> np.ndarray:
    """The distinct values of the ascending (non-decreasing) int array `values`, in order:
    np.unique's answer without its sort and its module function's dispatch (about 20,000
    instructions a call against a few thousand; the metadata's searches map their hits
    to strings so several times a page)."""
    if len(values) < 2:
        return values
    keep = np.empty(len(values), np.bool_)
    keep[0] = True
    np.not_equal(values[1:], values[:-1], out=keep[1:])
    return values[keep]


def distinct(values: np.ndarray) -> np.ndarray:
    """np.unique of the int array `values` (its distinct values, ascending), by a sort
    in place of a copy and `ascending_distinct`."""
    values = values.copy()
    values.sort()
    return ascending_distinct(values)


def distinct_inverse(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """`np.unique(values, return_inverse=True)` of the 1-D int or float array `values`:
    the distinct values ascending and each value's place among them, by the same sort
    (`argsort`, quicksort) without the module function's dispatch and its generic steps
    (a few calls a page: the block features' names, CLG's codes, the comment finder's
    siblings). A float array holding NaN goes to np.unique, which folds the NaNs."""
    perm = values.argsort(kind="quicksort")
    aux = values[perm]
    if len(aux) and aux.dtype.kind == "f" and aux[-1] != aux[-1]:
        uniq, inverse = np.unique(values, return_inverse=True)
        return uniq, inverse.reshape(-1)
    mask = np.empty(len(aux), np.bool_)
    if len(aux):
        mask[0] = True
        np.not_equal(aux[1:], aux[:-1], out=mask[1:])
    inverse = np.empty(len(aux), np.intp)
    inverse[perm] = mask.cumsum() - 1
    return aux[mask], inverse
