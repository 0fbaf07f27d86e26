"""pith.pipeline.codes: equal keys numbered by where each first occurs."""
import random

import numpy as np

from pith.pipeline.codes import ascending_distinct, distinct, first_seen, used


def test_first_seen_is_each_keys_first_index():
    keys = ["b", "a", "b", "c", "a", "b"]
    assert first_seen(keys).tolist() == [0, 1, 0, 3, 1, 0]
    assert first_seen(iter(keys), len(keys)).tolist() == [0, 1, 0, 3, 1, 0]   # any iterable
    assert first_seen([]).tolist() == []
    assert first_seen(zip("aab", "xxy")).tolist() == [0, 0, 2]                # tuples too


def test_first_seen_numbers_as_a_dense_numbering_does():
    """Equal keys get equal numbers and different keys different ones: the same partition
    as numbering distinct keys 0, 1, 2 … in order of appearance."""
    rng = random.Random(5)
    for _ in range(50):
        keys = [rng.choice("abcdefg") * rng.randint(1, 2) for _ in range(rng.randint(0, 40))]
        dense: dict = {}
        want = [dense.setdefault(k, len(dense)) for k in keys]
        got = first_seen(keys, len(keys))
        assert got.dtype == np.int64
        assert all(keys[g] == k for g, k in zip(got.tolist(), keys))          # its first index
        assert (np.equal.outer(got, got) == np.equal.outer(want, want)).all()


def test_used_is_the_distinct_codes_ascending():
    assert used(np.array([3, 0, 3, 1]), 5).tolist() == [0, 1, 3]
    assert used(np.zeros(0, np.int64), 4).tolist() == []


def test_distinct_is_np_unique_of_an_int_array():
    """codes.distinct (a sort and a mask) and codes.ascending_distinct (the mask of an
    ascending array) against np.unique, their definition: the same values, order and
    dtype, on random int arrays of 0 to 40 values with repeats; the argument unchanged."""
    rng = np.random.default_rng(9)
    for _ in range(300):
        values = rng.integers(0, int(rng.integers(1, 30)), int(rng.integers(0, 40)))
        before = values.copy()
        got = distinct(values)
        assert got.dtype == np.unique(values).dtype and got.tolist() == np.unique(values).tolist()
        assert (values == before).all()
        ascending = np.sort(values)
        assert ascending_distinct(ascending).tolist() == np.unique(values).tolist()
    assert distinct(np.zeros(0, np.int64)).tolist() == []


def test_distinct_inverse_is_np_unique_with_its_inverse():
    """codes.distinct_inverse against np.unique(return_inverse=True), its definition: the
    same distinct values (dtype and bits: -0.0 and 0.0 keep the one the sort puts first)
    and the same inverse, on random int and float arrays of 0 to 40 values with repeats,
    float ones holding -0.0, infinities and NaN (np.unique folds NaNs into one)."""
    from pith.pipeline.codes import distinct_inverse
    rng = np.random.default_rng(33)
    specials = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 1.5])
    for k in range(600):
        size = int(rng.integers(0, 40))
        if k % 2:
            values = rng.integers(-5, int(rng.integers(1, 30)), size)
        else:
            values = rng.choice(np.concatenate((specials, rng.integers(-3, 3, 6) / 2)), size)
        before = values.copy()
        got, inverse = distinct_inverse(values)
        want, want_inverse = np.unique(values, return_inverse=True)
        assert got.dtype == want.dtype and got.tobytes() == want.tobytes()
        assert inverse.tolist() == want_inverse.ravel().tolist()
        assert np.array_equal(values, before, equal_nan=True)
