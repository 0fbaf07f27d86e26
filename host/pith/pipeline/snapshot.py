"""Snapshot validation: capture JSON (host/SNAPSHOT.md) → read-only numpy arrays and tree ranges.

Everything downstream trusts a `Snapshot`: columns have length `n` and the right types,
`parent` is in preorder and every subtree is the contiguous row range `i .. end[i]-1`,
strings are well-formed Unicode (a lone surrogate becomes U+FFFD).
Subtree aggregates are then prefix-sum differences (`subtree_sum`), with no recursion,
so a page nested 10,000 deep costs the same as a flat one.
`from_json` checks every element of a capture that came from outside (browser, extension,
protocol); `from_columns` takes the columns the static capture built itself, whose types
and ranges hold by construction, and checks only the size and the preorder.
"""
from __future__ import annotations

import math
import re
import sys
from dataclasses import dataclass
from typing import Any

import numpy as np

from .. import SNAPSHOT_VERSION
from .codes import first_seen
from .metadata import declared as declared_mod
from ..errors import (BadNode, NoContent, SnapshotInvalid, SnapshotOrder, SnapshotTooLarge,
                      SnapshotVersion)

# The largest finite double: a JSON integer beyond it has no float form.
MAX_FLOAT = sys.float_info.max

# Warnings a Snapshot keeps (the capture's first ones): they are for logs, and a Snapshot
# may be kept for grow/shrink, where 20 million of them held 1.9 GB.
MAX_WARNINGS = 100

STRING_COLUMNS = ("tag", "text", "tail", "id", "cls", "role", "host", "url", "alt", "color")
# numeric columns: name -> numpy dtype they are stored as
NUMBER_COLUMNS = {
    "parent": np.int64, "link": np.bool_, "x": np.float64, "y": np.float64,
    "w": np.float64, "h": np.float64, "hidden": np.int64, "fs": np.float64,
    "fw": np.float64, "frame": np.int64,
}
INTEGER_COLUMNS = ("parent", "link", "hidden", "frame")
# A page's strings may hold lone UTF-16 surrogates (JavaScript allows them; JSON.stringify
# writes them as \ud800 escapes). No UTF-8 or UTF-32 form exists for them, so every later
# encode (text statistics, output files, replies) would fail: validation replaces each
# with U+FFFD, as a browser does when it shows one.
LONE_SURROGATE = re.compile("[\ud800-\udfff]")
REPLACEMENT = "\ufffd"
# Integer columns come from JavaScript numbers: beyond 2**53 they are not exact there, nor
# in the float64 the column is read through, and beyond int64 the cast would wrap.
MAX_SAFE_INTEGER = 2**53 - 1
# hidden bitmask (SNAPSHOT.md): display none, visibility, opacity 0, zero size, aria-hidden
HIDDEN_BITS_MAX = 31


@dataclass(frozen=True, eq=False)
class Snapshot:
    """One validated capture. Arrays are read-only; rows are elements in preorder."""

    n: int
    cols: dict[str, np.ndarray]   # every column of SNAPSHOT.md, read-only
    end: np.ndarray               # subtree of i is rows i .. end[i]-1
    depth: np.ndarray             # root has depth 0
    meta: dict[str, Any]          # url, title, lang, layout, viewport, page, warnings, capture_ms, declared

    def __getattr__(self, name: str) -> np.ndarray:
        cols = self.__dict__.get("cols")
        if cols is not None and name in cols:
            return cols[name]
        raise AttributeError(name)

    @property
    def layout(self) -> bool:
        return bool(self.meta.get("layout"))

    def tag_codes(self) -> tuple[np.ndarray, list[str]]:
        """(code of each row's tag, the tag of each code): a page has a few dozen distinct
        tags, so a mask over tags is a lookup of a few dozen names and one gather instead
        of a Python test per row. Found on first use, then kept."""
        cached = self.__dict__.get("_tag_codes")
        if cached is None:
            tags = self.cols["tag"].tolist()
            ids = {t: code for code, t in enumerate(dict.fromkeys(tags))}   # first-seen order
            codes = np.fromiter(map(ids.__getitem__, tags), np.int64, self.n)
            codes.flags.writeable = False
            cached = (codes, list(ids))
            object.__setattr__(self, "_tag_codes", cached)
        return cached

    def string_codes(self, column: str) -> tuple[np.ndarray, list[str]]:
        """(code of each row's `column` string, the string of each code): code 0 is the
        empty string (a row without the attribute), the others dense in first-seen order.
        A page's class and id names repeat over its rows (a median page of the shared
        datasets: a few hundred distinct classes over a thousand rows, most ids empty), and
        the stages that match them (comments, blocks, page type, metadata) test each
        distinct string once and gather per row. Found on first use, then kept (NOTES.md,
        'Why a page's class and id names are numbered once')."""
        cache = self.__dict__.get("_string_codes")
        if cache is None:
            cache = {}
            object.__setattr__(self, "_string_codes", cache)
        cached = cache.get(column)
        if cached is None:
            col = self.cols[column]
            rows = (col != "").nonzero()[0]
            strings = col[rows].tolist()
            first = first_seen(strings, len(strings))      # index of each string's first row
            starts = (first == np.arange(len(strings))).nonzero()[0]
            dense = np.zeros(len(strings), np.int64)
            dense[starts] = np.arange(1, len(starts) + 1)
            codes = np.zeros(self.n, np.int64)
            codes[rows] = dense[first]
            codes.flags.writeable = False
            cached = cache[column] = (codes, [""] + [strings[i] for i in starts.tolist()])
        return cached

    def subtree_texts(self) -> dict[tuple[int, str], str]:
        """The subtree texts found on this snapshot ((row, separator) -> text), which
        metadata/window.py `text_of` fills and reads: the headline anchor, the title's
        choice, the byline and the date line ask for some rows' texts (the page's h1s, a
        byline that is also a date line) more than once (NOTES.md, 'Why a page's class
        and id names are numbered once')."""
        cache = self.__dict__.get("_subtree_texts")
        if cache is None:
            cache = {}
            object.__setattr__(self, "_subtree_texts", cache)
        return cache

    def memo(self, key: tuple, compute_fn) -> Any:
        """`compute_fn()` the first time `key` is asked for on this snapshot, then the same
        value, an array made read-only: for what depends on the capture alone and several
        stages read (masks: furniture, code rows, ad rows; answers: the declared types, a
        bool). Other values must be immutable (a frozenset, a tuple, a bool)."""
        cache = self.__dict__.get("_memo")
        if cache is None:
            cache = {}
            object.__setattr__(self, "_memo", cache)
        if key not in cache:
            value = compute_fn()
            if isinstance(value, np.ndarray):
                value.flags.writeable = False
            cache[key] = value
        return cache[key]

    # --- tree helpers ------------------------------------------------------------
    def subtree_sum(self, values: np.ndarray) -> np.ndarray:
        """Per row, the sum of `values` over its subtree (itself included)."""
        kind = np.float64 if values.dtype.kind == "f" else np.int64
        cs = np.empty(len(values) + 1, kind)     # the running sum after a 0, no concatenate
        cs[0] = 0
        values.cumsum(dtype=kind, out=cs[1:])
        return cs[self.end] - cs[:-1]

    def below(self, mask: np.ndarray) -> np.ndarray:
        """Rows that have a *strict* ancestor in `mask` (mask propagated down the tree);
        `mask` may be (n, k), k masks at once, each column on its own.

        In preorder, the rows strictly inside masked row j's subtree are j+1 .. end[j]-1,
        so a row is below the mask when it lies in one of those spans: +1 where a span
        opens, -1 where it closes, a running sum above 0. numpy's running sum is a vector
        loop, where the running maximum of `end` this was before steps through the rows
        one at a time, 5-6 ns a row (NOTES.md, 'Why masks go down the tree by a running
        sum and the block trees walk as heaps'). Several masks are counted in one flat
        sum, each in its own span of n + 1 slots (a mask's opens and closes cancel within
        its span)."""
        n = self.n
        if mask.ndim == 1:
            rows = mask.nonzero()[0]
            count = np.bincount(rows + 1, minlength=n + 1)
            count -= np.bincount(self.end[rows], minlength=n + 1)
            return count[:n].cumsum() > 0
        k = mask.shape[1]
        rows, which = np.divmod(mask.ravel().nonzero()[0], k)  # np.nonzero of 2-D: 5x slower
        span = which * (n + 1)
        count = np.bincount(span + rows + 1, minlength=k * (n + 1))
        count -= np.bincount(span + self.end[rows], minlength=k * (n + 1))
        return (count.cumsum() > 0).reshape(k, n + 1)[:, :n].T

    def subtrees(self, rows) -> np.ndarray:
        """Rows in the subtree of one of `rows` (the rows themselves included)."""
        mask = np.zeros(self.n, np.bool_)
        mask[rows] = True
        return mask | self.below(mask)

    def nearest(self, mask: np.ndarray) -> np.ndarray:
        """Per row, its nearest ancestor-or-self in `mask` (the root counts as in it);
        pointer doubling, O(n log depth)."""
        up = np.where(mask, np.arange(self.n), self.parent)
        up[0] = 0
        while True:
            nxt = up[up]
            if (nxt == up).all():        # np.array_equal: the same, with a wrapper's cost
                return up
            up = nxt

    def children(self, node: int) -> np.ndarray:
        """Element children of `node`, in document order."""
        self.check_node(node)
        rows = np.arange(node + 1, self.end[node])
        return rows[self.parent[rows] == node]

    def child_index(self) -> np.ndarray:
        """Each row's index among its parent's element children (the root's is 0), for
        every row at once: rows grouped by parent with a stable sort keep document order
        within each group, so a row's index is its place in its group."""
        def compute() -> np.ndarray:
            parent = self.cols["parent"]
            order = np.argsort(parent, kind="stable")
            grouped = parent[order]
            starts = np.flatnonzero(np.r_[True, grouped[1:] != grouped[:-1]])
            sizes = np.diff(np.r_[starts, self.n])
            index = np.empty(self.n, np.int64)
            index[order] = np.arange(self.n) - np.repeat(starts, sizes)
            return index
        return self.memo(("child_index",), compute)

    def path(self, node: int) -> list[int]:
        """Element-child index path from the root to `node` (the portable node form): at
        each ancestor, the rows between its parent and it that are that parent's children.
        Those spans are apart and lie before `node`, so one path reads at most `node` rows,
        where `paths` first numbers every row of the page (a sort: a crawl record's row
        asks for one path)."""
        node = self.check_node(node)
        if ("child_index",) in (self.__dict__.get("_memo") or ()):
            return self.paths([node])[0]         # every row numbered already
        parent = self.parent
        out = []
        while node > 0:
            up = int(parent[node])
            out.append(int(np.count_nonzero(parent[up + 1:node] == up)))
            node = up
        return out[::-1]

    def paths(self, nodes) -> list[list[int]]:
        """The paths of `nodes`, each ancestor's path built once: linear in the rows
        walked, where one walk per node re-counting siblings at each level was quadratic
        in depth (6,669 kept blocks 512 deep took 21 s in `pith extract`)."""
        index, parent = self.child_index(), self.cols["parent"]
        known: dict[int, tuple[int, ...]] = {0: ()}
        out = []
        for node in nodes:
            node = int(node)
            chain = []
            up = node
            while up not in known:
                chain.append(up)
                up = int(parent[up])
            base = known[up]
            for row in reversed(chain):
                base = base + (int(index[row]),)
                known[row] = base
            out.append(list(known[node]))
        return out

    def node_at(self, path: list[int]) -> int:
        """Row of the element at `path`; BadNode if the path leaves the tree."""
        node = 0
        for depth, k in enumerate(path):
            kids = self.children(node)
            if not isinstance(k, int) or not 0 <= k < len(kids):
                raise BadNode(f"path {path} has no child {k} at depth {depth}", path=path)
            node = int(kids[k])
        return node

    def check_node(self, node: Any) -> int:
        if isinstance(node, bool) or not isinstance(node, (int, np.integer)) or not 0 <= node < self.n:
            raise BadNode(f"node {node!r} is not a row of this snapshot (0..{self.n - 1})",
                          node=node if isinstance(node, int) else None)
        return int(node)


def from_json(obj: Any, max_nodes: int) -> Snapshot:
    """Validate a decoded snapshot object and build the Snapshot; raise on any violation."""
    if not isinstance(obj, dict):
        raise SnapshotInvalid(f"snapshot must be an object, got {type(obj).__name__}")
    if obj.get("v") != SNAPSHOT_VERSION:
        raise SnapshotVersion(f"snapshot version {obj.get('v')!r} is not supported; "
                              f"this host reads version {SNAPSHOT_VERSION}")
    n = obj.get("n")
    if n == 0 and not isinstance(n, bool):
        # capture.js's answer for a document without a root element (its scripts removed
        # it): a well-formed capture of nothing, not a malformed one
        raise NoContent("the page has no document element (its scripts removed it): no "
                        "text to choose from")
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise SnapshotInvalid(f"'n' must be a positive integer, got {n!r}")
    if n > max_nodes:
        raise _too_large(n, max_nodes)
    nodes = obj.get("nodes")
    if not isinstance(nodes, dict):
        raise SnapshotInvalid("'nodes' must be an object of columns")
    cols: dict[str, np.ndarray] = {}
    for name in STRING_COLUMNS:
        cols[name] = _string_column(nodes, name, n)
    for name, dtype in NUMBER_COLUMNS.items():
        cols[name] = _number_column(nodes, name, n, dtype)
    _check_ranges(cols)
    return _built(n, cols, obj, declared_mod.checked(obj.get("declared"), n))


def from_columns(n: int, columns: dict[str, Any], meta: dict[str, Any],
                 max_nodes: int, tag_codes: tuple[np.ndarray, list[str]] | None = None
                 ) -> Snapshot:
    """The Snapshot of columns this host built itself (pith.pages.static), without the
    per-element checks of `from_json`: what the caller promises instead is every column of
    SNAPSHOT.md with `n` rows, string columns as lists of well-formed str, number columns
    as numpy arrays whose values fit their column (a parent before its child, hidden bits
    0..31). Only the size limit is checked, and the preorder by the tree ranges, as in
    `from_json`. Captures from a browser, the extension or the protocol never come here.
    `tag_codes`: what `Snapshot.tag_codes` would find (the tags numbered in first-seen
    order), when the caller numbered them already (NOTES.md, 'Why a page's tree is
    walked by its children')."""
    if n > max_nodes:
        raise _too_large(n, max_nodes)
    cols: dict[str, np.ndarray] = {}
    for name in STRING_COLUMNS:      # fromiter: no discovery pass over the list's items
        cols[name] = np.fromiter(columns[name], dtype=object, count=n)
    for name, dtype in NUMBER_COLUMNS.items():
        cols[name] = np.asarray(columns[name]).astype(dtype)
    snap = _built(n, cols, meta, meta.get("declared") or declared_mod.empty())
    if tag_codes is not None:
        codes, names = tag_codes
        codes = np.asarray(codes, np.int64)
        codes.flags.writeable = False
        object.__setattr__(snap, "_tag_codes", (codes, list(names)))
    return snap


def _too_large(n: int, max_nodes: int) -> SnapshotTooLarge:
    return SnapshotTooLarge(f"snapshot has {n} elements, over the limit of {max_nodes} "
                            f"(option max_nodes)", n=n, limit=max_nodes)


def _built(n: int, cols: dict[str, np.ndarray], obj: dict[str, Any],
           declared: dict[str, list]) -> Snapshot:
    """The Snapshot of checked columns, with the tree ranges and the page fields of `obj`
    (url, title, ..., warnings), each replaced by its default when it is malformed, and
    the page's checked `declared` object (metadata.declared)."""
    end, depth = _tree_ranges(cols["parent"])
    for arr in (*cols.values(), end, depth):
        arr.flags.writeable = False
    meta = {k: obj.get(k) for k in ("url", "title", "lang", "layout", "viewport", "page",
                                    "capture_ms")}
    meta["url"] = meta["url"] if isinstance(meta["url"], str) else ""
    meta["title"] = meta["title"] if isinstance(meta["title"], str) else ""
    meta["lang"] = meta["lang"] if isinstance(meta["lang"], str) else ""
    meta["viewport"], meta["page"] = _size(meta["viewport"]), _size(meta["page"])
    meta["capture_ms"] = meta["capture_ms"] if _finite(meta["capture_ms"]) else None
    meta["layout"] = bool(meta["layout"])
    warnings = obj.get("warnings") or []
    meta["warnings"] = warnings[:MAX_WARNINGS] if isinstance(warnings, list) else []
    meta["declared"] = declared
    return Snapshot(n=n, cols=cols, end=end, depth=depth, meta=meta)


def well_formed(strings: list[str]) -> list[str]:
    """`strings` with every lone surrogate replaced by U+FFFD (the same list when there
    is none: one encode of the whole column finds out)."""
    try:
        "".join(strings).encode("utf-8")      # one pass for the whole column, the common case
    except UnicodeEncodeError:
        return [LONE_SURROGATE.sub(REPLACEMENT, v) for v in strings]
    return strings


def _finite(value: Any) -> bool:
    """A JSON number that a double holds: not inf (json reads 1e400 as inf), not an
    integer beyond a double (10**400 is a JSON integer; comparing it is exact, turning
    it into a float raises)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return False
    return math.isfinite(value) if isinstance(value, float) else abs(value) <= MAX_FLOAT


def _size(value: Any) -> list[float]:
    """A [width, height] of the page or viewport, or [0, 0] ("unknown") when it is not
    two finite non-negative numbers: like url and title, a bad size is not worth refusing
    the page for, and everything downstream reads [0, 0] as "measure the boxes"."""
    if isinstance(value, list) and len(value) == 2 and all(_finite(v) and v >= 0 for v in value):
        return [float(value[0]), float(value[1])]
    return [0.0, 0.0]


def _column(nodes: dict, name: str, n: int) -> list:
    col = nodes.get(name)
    if not isinstance(col, list):
        raise SnapshotInvalid(f"column {name!r} is missing or not an array", column=name)
    if len(col) != n:
        raise SnapshotInvalid(f"column {name!r} has {len(col)} rows, expected n={n}",
                              column=name)
    return col


def _string_column(nodes: dict, name: str, n: int) -> np.ndarray:
    col = _column(nodes, name, n)
    if not set(map(type, col)) <= {str}:
        bad = next(i for i, v in enumerate(col) if type(v) is not str)
        raise SnapshotInvalid(f"column {name!r} row {bad}: expected a string, got "
                              f"{type(col[bad]).__name__}", column=name, row=bad)
    return np.fromiter(well_formed(col), dtype=object, count=n)


def _number_column(nodes: dict, name: str, n: int, dtype) -> np.ndarray:
    col = _column(nodes, name, n)
    kinds = set(map(type, col))
    allowed = {int, float} if name not in INTEGER_COLUMNS else {int}
    if name == "link":
        allowed = {int, bool}
    if not kinds <= allowed:
        bad = next(i for i, v in enumerate(col) if type(v) not in allowed)
        want = "an integer" if name in INTEGER_COLUMNS else "a number"
        raise SnapshotInvalid(f"column {name!r} row {bad}: expected {want}, got "
                              f"{type(col[bad]).__name__}", column=name, row=bad)
    try:      # fromiter: the types are known, so no discovery pass over the list first
        arr = np.fromiter(col, dtype=np.float64, count=n)
    except OverflowError as exc:
        raise SnapshotInvalid(f"column {name!r}: a value is out of range", column=name) from exc
    if not np.all(np.isfinite(arr)):
        bad = int(np.flatnonzero(~np.isfinite(arr))[0])
        raise SnapshotInvalid(f"column {name!r} row {bad}: not a finite number",
                              column=name, row=bad)
    if name in INTEGER_COLUMNS and len(arr) and np.abs(arr).max() > MAX_SAFE_INTEGER:
        bad = int(np.flatnonzero(np.abs(arr) > MAX_SAFE_INTEGER)[0])
        raise SnapshotInvalid(f"column {name!r} row {bad}: {col[bad]} is beyond a safe "
                              f"integer (2^53-1)", column=name, row=bad)
    return arr.astype(dtype)


def _check_ranges(cols: dict[str, np.ndarray]) -> None:
    parent = cols["parent"]
    if parent[0] != -1:
        raise SnapshotOrder("row 0 must be the root (parent -1), got parent "
                            f"{int(parent[0])}", row=0)
    rows = np.arange(len(parent))
    bad = np.flatnonzero((parent[1:] < 0) | (parent[1:] >= rows[1:]))
    if len(bad):
        i = int(bad[0]) + 1
        raise SnapshotOrder(f"row {i} has parent {int(parent[i])}: parents must come before "
                            f"their children (0 <= parent[i] < i), which also rules out cycles",
                            row=i)
    hidden = cols["hidden"]
    bad = np.flatnonzero((hidden < 0) | (hidden > HIDDEN_BITS_MAX))
    if len(bad):
        raise SnapshotInvalid(f"column 'hidden' row {int(bad[0])}: bits outside 0..31",
                              column="hidden", row=int(bad[0]))


def _tree_ranges(parent: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Subtree end and depth of every row by pointer doubling (O(n log depth), no recursion).

    At step k, `up` is each row's ancestor 2**k levels up (-1 past the root); `size`
    and `last` hold the row count and the largest row among descendants less than 2**k
    levels down, and `depth` the distance to `up` (Wyllie's list ranking, which ends
    as the distance to the root). A subtree is contiguous exactly when size == last - i + 1, which the
    preorder contract requires; a violation is reported as `snapshot_order`.
    """
    n = len(parent)
    rows = np.arange(n)
    up = parent.copy()
    size = np.ones(n, np.int64)
    last = rows.copy()
    depth = (parent >= 0).astype(np.int64)   # distance to `up`, or to the root once past it
    while True:
        live = (up >= 0).nonzero()[0]
        if not len(live):
            break
        target = up[live]
        new_size, new_last = size.copy(), last.copy()
        np.add.at(new_size, target, size[live])
        np.maximum.at(new_last, target, last[live])
        new_depth = depth.copy()
        new_depth[live] += depth[target]
        size, last, depth = new_size, new_last, new_depth
        nxt = np.full(n, -1, np.int64)
        nxt[live] = up[target]
        up = nxt
    bad = np.flatnonzero(size != last - rows + 1)
    if len(bad):
        i = int(bad[0])
        raise SnapshotOrder(f"the subtree of row {i} is not contiguous: rows are not in "
                            f"preorder", row=i)
    return last + 1, depth
