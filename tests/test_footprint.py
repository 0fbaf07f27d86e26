"""footprint.of: the bytes a kept selection holds, each buffer and string counted once."""
import sys

import numpy as np

from pith.pipeline import footprint


def test_an_array_and_its_views_count_once():
    arr = np.zeros(1_000_000)
    alone = footprint.of(arr)
    assert alone >= arr.nbytes
    assert footprint.of([arr, arr[10:], arr.reshape(1000, 1000), arr[::2]]) - alone < 2000


def test_a_string_column_counts_its_strings_and_shares_the_empty_one():
    words = np.array(["word %d" % i for i in range(1000)] + [""] * 100_000, dtype=object)
    size = footprint.of(words)
    strings = sum(sys.getsizeof("word %d" % i) for i in range(1000))
    assert words.nbytes + 0.9 * strings < size < words.nbytes + 1.1 * strings


def test_containers_and_objects_are_walked_once():
    class Holder:
        def __init__(self, payload):
            self.payload, self.again = payload, payload
    payload = np.ones(100_000, np.int64)
    size = footprint.of(Holder(payload))
    assert payload.nbytes < size < payload.nbytes + 2000


def test_a_real_selection_counts_its_snapshot_features_and_answers():
    from test_host import many_sections
    from pith.pipeline.select import block_choice, select
    sel = select(many_sections(2000))
    arrays = sum(a.nbytes for a in sel.snap.cols.values())
    before = sel.nbytes()
    assert before > arrays              # features, scores, blocks on top of the columns
    block_choice(sel, 3)                # a grow's answer is kept with the selection
    assert sel.nbytes() > before


def test_a_selection_keeps_a_bounded_number_of_block_answers():
    from test_host import many_sections
    from pith.pipeline.select import MAX_CHOICES, block_choice, select
    sel = select(many_sections(200))
    for node in range(2, 2 + 3 * MAX_CHOICES):
        block_choice(sel, node)
    assert len(sel.choices) == MAX_CHOICES
    newest = list(sel.choices)[-1]
    assert newest[0] == 1 + 3 * MAX_CHOICES
