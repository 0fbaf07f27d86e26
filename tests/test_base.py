"""Tests of pipeline/algorithms/base.py: a Choice's roots are its parts, else its one element."""
from __future__ import annotations

import numpy as np

from pith.pipeline.algorithms.base import Choice


def test_roots_are_the_node_alone_without_parts():
    choice = Choice(node=4, score=np.zeros(6), blocks=np.array([4, 2]))
    assert choice.roots.tolist() == [4]


def test_roots_are_the_parts_when_the_answer_is_a_union():
    choice = Choice(node=1, score=np.zeros(6), blocks=np.array([1]), parts=np.array([2, 5]))
    assert choice.roots.tolist() == [2, 5]


def test_a_choice_is_frozen_and_compared_by_identity():
    a = Choice(node=1, score=np.zeros(3), blocks=np.array([1]))
    b = Choice(node=1, score=np.zeros(3), blocks=np.array([1]))
    assert a != b and a == a               # eq=False: numpy fields make == ambiguous
    try:
        a.node = 2
    except Exception as exc:               # dataclasses.FrozenInstanceError
        assert type(exc).__name__ == "FrozenInstanceError"
    else:
        raise AssertionError("a Choice could be changed")
    assert a.appendix == () and a.preface == () and a.drop is None and a.kept is None
