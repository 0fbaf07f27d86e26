"""Snapshot validation: the contract of host/SNAPSHOT.md, enforced with precise errors."""
import numpy as np
import pytest

from builders import chain, make_snapshot, preorder
from pith.errors import (BadNode, NoContent, SnapshotInvalid, SnapshotOrder, SnapshotTooLarge,
                         SnapshotVersion)
from pith.pipeline.snapshot import from_json

MAX = 1_000_000


def small():
    # html(0) > head(1), body(2) > div(3) > p(4), p(5); body > footer(6)
    return make_snapshot([
        ("html", -1), ("head", 0), ("body", 0), ("div", 2), ("p", 3, {"text": "one"}),
        ("p", 3, {"text": "two"}), ("footer", 2, {"text": "foot"}),
    ])


def test_valid_snapshot_has_read_only_arrays_and_ranges():
    snap = from_json(small(), MAX)
    assert snap.n == 7
    assert snap.end.tolist() == [7, 2, 7, 6, 5, 6, 7]
    assert snap.depth.tolist() == [0, 1, 1, 2, 3, 3, 2]
    with pytest.raises(ValueError):
        snap.parent[1] = 3
    with pytest.raises(ValueError):
        snap.end[0] = 1


def test_paths_round_trip_and_bad_paths_are_refused():
    snap = from_json(small(), MAX)
    assert snap.path(0) == []
    assert snap.path(5) == [1, 0, 1]
    assert snap.path(6) == [1, 1]
    for node in range(snap.n):
        assert snap.node_at(snap.path(node)) == node
    with pytest.raises(BadNode, match="no child 2"):
        snap.node_at([1, 2])
    with pytest.raises(BadNode):
        snap.path(7)


def test_many_paths_at_once_equal_one_walk_each_on_a_random_tree():
    """Snapshot.paths (each ancestor's path built once) against the definition: at each
    level, how many earlier element children the parent has."""
    rng = np.random.default_rng(5)
    parents = [-1] + [int(rng.integers(0, i)) for i in range(1, 400)]
    order, row_of = preorder(parents)
    snap = from_json(make_snapshot([("div" if node else "html", row_of[parents[node]] if node else -1)
                                    for node in order]), MAX)

    def by_definition(row: int) -> list[int]:
        out = []
        while row > 0:
            p = int(snap.parent[row])
            out.append(int(np.count_nonzero(snap.parent[p + 1:row] == p)))
            row = p
        return out[::-1]

    rows = rng.permutation(snap.n).tolist()
    # one path on its own (a crawl row's) counts its ancestors' earlier siblings; many at
    # once number every row first (child_index): the two agree
    alone = [snap.path(r) for r in rows]
    assert ("child_index",) not in snap.__dict__.get("_memo", {})
    assert snap.paths(rows) == [by_definition(r) for r in rows] == alone
    assert all(snap.node_at(snap.path(r)) == r for r in rows)


def test_paths_of_thousands_of_blocks_deep_in_a_page_walk_each_row_once():
    """6,000 sibling blocks under a 500-deep chain: their paths share the chain's, so
    the walk up stops at the first known ancestor (the sibling count per level was
    recounted for every block before: 21 s for such a page in `pith extract`)."""
    depth, blocks = 500, 6000
    rows = [("html", -1)] + [("div", i) for i in range(depth - 1)]
    rows += [("p", depth - 1, {"text": "x"}) for _ in range(blocks)]
    snap = from_json(make_snapshot(rows), MAX)
    walked = []
    parent = snap.cols["parent"]

    class Counting:                       # counts every parent read of the walk
        def __getitem__(self, row):
            walked.append(row)
            return parent[row]

    snap.child_index()                    # computed once per snapshot, from the real column
    object.__setattr__(snap, "cols", {**snap.cols, "parent": Counting()})
    paths = snap.paths(range(depth, depth + blocks))
    assert paths[0] == [0] * (depth - 1) + [0] and paths[-1] == [0] * (depth - 1) + [blocks - 1]
    assert len(walked) <= depth + blocks


def test_subtree_sum_and_below_match_a_naive_walk():
    rng = np.random.default_rng(1)
    for _ in range(50):
        n = int(rng.integers(1, 80))
        parents, stack = [-1], [0]
        for i in range(1, n):
            k = int(rng.integers(0, len(stack)))
            stack = stack[:k + 1]
            parents.append(stack[-1])
            stack.append(i)
        snap = from_json(make_snapshot([("div", p) for p in parents]), MAX)
        values = rng.integers(0, 10, n)
        mask = rng.random(n) < 0.2
        naive_sum = values.copy()
        for i in range(n - 1, 0, -1):
            naive_sum[parents[i]] += naive_sum[i]
        naive_below = np.zeros(n, bool)
        for i in range(1, n):
            naive_below[i] = naive_below[parents[i]] or mask[parents[i]]
        assert snap.subtree_sum(values).tolist() == naive_sum.tolist()
        assert snap.below(mask).tolist() == naive_below.tolist()
        masks = rng.random((n, 3)) < 0.2       # several masks at once: each on its own
        masks[:, 0] = mask
        stacked = snap.below(masks)
        assert stacked.shape == (n, 3) and stacked[:, 0].tolist() == naive_below.tolist()
        for k in range(3):
            assert stacked[:, k].tolist() == snap.below(masks[:, k]).tolist()


def test_version_and_shape_errors_name_the_problem():
    obj = small()
    obj["v"] = 2
    with pytest.raises(SnapshotVersion, match="version 2"):
        from_json(obj, MAX)
    obj = small()
    obj["nodes"]["text"].pop()
    with pytest.raises(SnapshotInvalid, match="'text' has 6 rows"):
        from_json(obj, MAX)
    obj = small()
    del obj["nodes"]["fs"]
    with pytest.raises(SnapshotInvalid, match="'fs' is missing"):
        from_json(obj, MAX)
    with pytest.raises(SnapshotInvalid):
        from_json([1, 2], MAX)


def test_a_capture_of_a_document_without_root_is_no_content_not_invalid():
    """capture.js answers n = 0 with a no_document_element warning when the page's scripts
    removed the root element (wcxb_dev_full 0519): nothing to choose from, said so."""
    empty = {"v": 1, "n": 0, "nodes": {}, "warnings": [
        {"node": -1, "code": "no_document_element", "message": "the document has no root element"}]}
    with pytest.raises(NoContent, match="no document element"):
        from_json(empty, MAX)
    for n in (-1, False, "0"):
        with pytest.raises(SnapshotInvalid, match="positive integer"):
            from_json({**empty, "n": n}, MAX)


@pytest.mark.parametrize("column,value,message", [
    ("text", 5, "'text' row 3: expected a string"),
    ("parent", 1.5, "'parent' row 3: expected an integer"),
    ("parent", "2", "'parent' row 3: expected an integer"),
    ("x", None, "'x' row 3: expected a number"),
    ("hidden", 64, "bits outside"),
    ("link", "yes", "'link' row 3"),
])
def test_wrong_types_are_refused_with_column_and_row(column, value, message):
    obj = small()
    obj["nodes"][column][3] = value
    with pytest.raises(SnapshotInvalid, match=message):
        from_json(obj, MAX)


def test_parent_order_violations_and_cycles_are_refused():
    obj = small()
    obj["nodes"]["parent"][0] = 0
    with pytest.raises(SnapshotOrder, match="row 0"):
        from_json(obj, MAX)
    obj = small()
    obj["nodes"]["parent"][4] = 5          # 4 → 5 → 3: a forward edge
    with pytest.raises(SnapshotOrder, match="row 4 has parent 5"):
        from_json(obj, MAX)
    obj = small()
    obj["nodes"]["parent"][1:3] = [2, 1]   # 1 ↔ 2: a cycle
    with pytest.raises(SnapshotOrder, match="rules out cycles"):
        from_json(obj, MAX)
    obj = make_snapshot([("html", -1), ("a", 0), ("b", 1), ("c", 0), ("d", 2)])
    with pytest.raises(SnapshotOrder, match="not contiguous"):
        from_json(obj, MAX)


def test_oversize_is_refused_before_reading_columns():
    obj = small()
    obj["nodes"] = None  # never looked at
    with pytest.raises(SnapshotTooLarge, match="7 elements, over the limit of 5"):
        from_json(obj, 5)


def test_ten_thousand_levels_deep_validates():
    snap = from_json(chain(10_000), MAX)
    assert snap.depth[-1] == 9_999
    assert snap.end[0] == 10_000
    assert len(snap.path(9_999)) == 9_999


def test_subtrees_holds_the_rows_and_everything_below():
    snap = from_json(make_snapshot([("html", -1), ("body", 0), ("div", 1), ("p", 2),
                                    ("p", 1), ("span", 4)]), 100)
    assert np.flatnonzero(snap.subtrees([2])).tolist() == [2, 3]
    assert np.flatnonzero(snap.subtrees(np.array([2, 4]))).tolist() == [2, 3, 4, 5]
    assert not snap.subtrees([]).any()


@pytest.mark.parametrize("column", ["frame", "hidden", "link", "parent"])
@pytest.mark.parametrize("value", [2**53, 2**70, -2**64])
def test_integers_beyond_a_safe_integer_are_refused_not_wrapped(column, value):
    """Found by the fuzzer: 2**70 in an integer column was cast to int64 as garbage
    (frame -9223372036854775808) and accepted."""
    snap = make_snapshot([("html", -1), ("p", 0, {"text": "x"})])
    snap["nodes"][column][1] = value
    with pytest.raises(SnapshotInvalid, match=rf"'{column}' row 1: .*beyond a safe integer"):
        from_json(snap, 10)


def test_the_largest_safe_integer_is_still_an_integer():
    snap = make_snapshot([("html", -1), ("p", 0, {"text": "x", "frame": 2**53 - 1})])
    assert int(from_json(snap, 10).frame[1]) == 2**53 - 1


@pytest.mark.parametrize("column", ["text", "tail", "alt", "cls", "url"])
def test_lone_surrogates_become_replacement_characters(column):
    """Found by the fuzzer: a page's lone surrogate (JavaScript strings allow them) made
    select fail with an internal error, as no UTF-8 or UTF-32 form of it exists."""
    from pith.pipeline.select import select
    rows = [("html", -1), ("body", 0),
            ("p", 1, {"text": "A paragraph of text long enough to be the content. " * 4})]
    snap = make_snapshot(rows)
    snap["nodes"][column][2] = "left \ud800 right \udfff"
    validated = from_json(snap, 10)
    assert getattr(validated, column)[2] == "left \ufffd right \ufffd"
    assert select(validated).node == 2
    assert from_json(make_snapshot(rows), 10).text[2] == rows[2][2]["text"]   # untouched


def test_a_valid_pair_of_surrogates_is_one_character_and_stays():
    snap = make_snapshot([("html", -1), ("p", 0, {"text": "smile \U0001f600"})])
    assert from_json(snap, 10).text[1] == "smile \U0001f600"


@pytest.mark.parametrize("page", [{"w": []}, ["a", "b"], [1e400, 5], [-3, 4], [1, 2, 3], 7, None])
def test_a_malformed_page_or_viewport_size_reads_as_unknown(page):
    """Found by the fuzzer: "page": {"…": []} made select fail with internal (1),
    KeyError 0 in the CLG geometry."""
    from pith.pipeline.select import select
    rows = [("html", -1), ("body", 0),
            ("p", 1, {"text": "A paragraph of text long enough to be the content. " * 4,
                      "w": 600, "h": 80})]
    snap = make_snapshot(rows, layout=True)
    snap["page"], snap["viewport"] = page, page
    validated = from_json(snap, 10)
    assert validated.meta["page"] == validated.meta["viewport"] == [0.0, 0.0]
    assert select(validated).node == 2


def test_a_good_page_size_is_kept():
    snap = make_snapshot([("html", -1), ("p", 0, {"text": "x"})])
    snap["page"], snap["viewport"], snap["lang"] = [1280, 2000.5], [1280, 800], "fr"
    meta = from_json(snap, 10).meta
    assert (meta["page"], meta["viewport"], meta["lang"]) == ([1280.0, 2000.5], [1280.0, 800.0], "fr")


def test_tag_codes_name_every_row_and_are_found_once():
    snap = from_json(make_snapshot([("html", -1), ("body", 0), ("p", 1), ("div", 1), ("p", 3)]), 100)
    codes, names = snap.tag_codes()
    assert [names[c] for c in codes] == list(snap.tag)
    assert sorted(names) == ["body", "div", "html", "p"]
    assert snap.tag_codes()[0] is codes                 # kept, not found again


def test_string_codes_number_equal_strings_equally_with_the_empty_string_code_0():
    rows = [("html", -1), ("body", 0, {"cls": "page"}), ("div", 1, {"cls": "card x"}),
            ("p", 2), ("div", 1, {"cls": "card x", "id": "b"}), ("p", 4, {"cls": "page"})]
    snap = from_json(make_snapshot(rows), 100)
    codes, strings = snap.string_codes("cls")
    assert [strings[c] for c in codes] == list(snap.cls)
    assert codes.tolist() == [0, 1, 2, 0, 2, 1]          # first-seen order after ""
    assert strings == ["", "page", "card x"]
    ids, id_strings = snap.string_codes("id")
    assert ids.tolist() == [0, 0, 0, 0, 1, 0] and id_strings == ["", "b"]
    assert snap.string_codes("cls")[0] is codes           # kept, not found again
    with pytest.raises(ValueError):
        codes[0] = 1
    # a page where every row has a class: code 0 is still the empty string, unused
    full = from_json(make_snapshot([("html", -1, {"cls": "a"}), ("body", 0, {"cls": "a"})]), 100)
    assert full.string_codes("cls")[0].tolist() == [1, 1]
    assert full.string_codes("cls")[1] == ["", "a"]


def test_subtree_texts_are_kept_per_snapshot_row_and_separator():
    """Snapshot.subtree_texts: one dict per snapshot, which metadata/window.py text_of
    fills; a row's text is found once per separator, and another snapshot has its own."""
    from pith.pipeline.metadata import window
    rows = [("html", -1), ("p", 0, {"text": "By", "tail": " end"}), ("a", 1, {"text": "Jane"}),
            ("span", 1, {"text": "Doe"})]
    snap, other = (from_json(make_snapshot(rows), 100) for _ in range(2))
    assert snap.subtree_texts() is snap.subtree_texts() and snap.subtree_texts() == {}
    assert window.text_of(snap, 1) == "ByJaneDoe" and window.text_of(snap, 1, "\n") == "By\nJane\nDoe"
    assert snap.subtree_texts() == {(1, ""): "ByJaneDoe", (1, "\n"): "By\nJane\nDoe"}
    snap.subtree_texts()[(1, "")] = "kept"          # asked again: the kept text, not found anew
    assert window.text_of(snap, np.int64(1)) == "kept"
    assert other.subtree_texts() == {} and window.text_of(other, 1) == "ByJaneDoe"


def test_memo_computes_once_and_hands_out_a_read_only_array():
    snap = from_json(make_snapshot([("html", -1), ("body", 0), ("nav", 1), ("p", 1)]), 100)
    calls = []

    def compute():
        calls.append(1)
        return snap.tag == "nav"

    first = snap.memo(("nav",), compute)
    assert snap.memo(("nav",), compute) is first and len(calls) == 1
    assert first.tolist() == [False, False, True, False]
    with pytest.raises(ValueError):
        first[0] = True


def test_memo_keeps_any_immutable_answer_once_per_snapshot():
    snap = from_json(make_snapshot([("html", -1), ("body", 0)]), 100)
    other = from_json(make_snapshot([("html", -1), ("body", 0)]), 100)
    calls = []

    def compute():
        calls.append(1)
        return frozenset({"article"})

    first = snap.memo(("names",), compute)
    assert snap.memo(("names",), compute) is first and len(calls) == 1
    assert first == {"article"}
    assert other.memo(("names",), compute) == first and len(calls) == 2   # its own


def test_one_row_over_max_nodes_is_refused_and_max_nodes_reads():
    """SECURITY.md, "Limits": the snapshot size limit, at it and just over it."""
    obj = small()
    n = obj["n"]
    assert from_json(small(), n).n == n
    with pytest.raises(SnapshotTooLarge) as err:
        from_json(obj, n - 1)
    assert err.value.detail == {"n": n, "limit": n - 1}


def test_a_snapshot_keeps_its_first_warnings_only():
    from pith.pipeline.snapshot import MAX_WARNINGS
    obj = small()
    obj["warnings"] = [{"node": 0, "code": "cross_origin_frame", "message": str(k)}
                       for k in range(MAX_WARNINGS + 1)]
    kept = from_json(obj, MAX).meta["warnings"]
    assert len(kept) == MAX_WARNINGS and kept[-1]["message"] == str(MAX_WARNINGS - 1)
