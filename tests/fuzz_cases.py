"""Fuzz targets shared by the short runs (tests/test_*_fuzz.py) and the long one (tests/fuzz.py).

Four targets, each a Hypothesis strategy of hostile inputs and a `check_*` function that
feeds one input to the real code and asserts the one property they all share: the input
either gives a normal answer or a PithError with a stable code of the error table
(host/PROTOCOL.md) other than `internal` (1), which means a bug. Any other exception, an
`internal` error, or an answer that breaks an invariant is a crash. The time per case is
the runner's to measure (Hypothesis' `deadline` in the short runs, tests/fuzz.py's slowest
case in the long one).

  framing   random bytes, frames with lengths near and over the limit, read whole and
            in random short pieces (framing.read_frame, encode_frame);
  protocol  every action with mutated envelope, fields and types, echoes nested around the
            depth bound and numbers beyond a double, written as a frame body and read
            as the host reads it (framing.decode_body), then answered through
            protocol.respond on a session that holds a real selection;
  snapshot  captures derived from the fixture pages' real snapshots with wrong parents,
            cycles, out-of-range indices, NaN/inf boxes, huge strings, unicode edge cases,
            wrong types and lengths (snapshot.from_json, then select and to_wire);
  static    the fixture pages' HTML mutated (tag soup, deep nesting, cut and repeated
            spans, bad bytes), through the function `pith extract --static` runs for each
            input (cli.extract_one with a static Capturer), in every output format.
"""
from __future__ import annotations

import contextlib
import io
import json
import math
import struct
import sys
import warnings
from functools import lru_cache
from pathlib import Path

from hypothesis import strategies as st

from pith.native import framing, protocol, shape
from pith.errors import PithError, all_errors
from pith.pipeline.options import ALGORITHMS, Options

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "pages"

# Page folders whose snapshot and HTML seed the mutations (the hostile corpus is the
# lead's end-to-end suite; its huge pages would make every case slow).
SEED_PAGES = ("article", "blocks", "boilerplate", "frames", "hidden", "legacy-charset",
              "reader", "shadow", "unicode")

# Codes a hostile input may legitimately get back: every documented one but `internal`.
STABLE_CODES = frozenset(cls.code for cls in all_errors()) - {1}

# Read sizes of the split-read stream: pipes hand over short pieces, down to one byte.
MAX_PIECE = 64

# A "huge" string: large against a page's texts, small enough for a case under a second.
HUGE_CHARS = 200_000

# Frames per input at most, so a case of many tiny frames stays short.
MAX_FRAMES = 64


# Python's default recursion limit, which pith-host runs with. Hypothesis raises the limit
# while a test runs (room for its own frames), under which an echo nested 1,000 deep was
# encoded fine: the fuzzers never met the RecursionError the host met. The targets run
# under the host's limit (`host_stack`).
HOST_RECURSION_LIMIT = 1000


@contextlib.contextmanager
def host_stack():
    """Run the body under the recursion limit pith-host has."""
    before = sys.getrecursionlimit()
    sys.setrecursionlimit(HOST_RECURSION_LIMIT)
    try:
        yield
    finally:
        sys.setrecursionlimit(before)


class Crash(AssertionError):
    """An input broke the property: the message says how."""


def check_error(exc: BaseException, where: str) -> None:
    """A PithError with a stable code is a fine answer; anything else is a crash."""
    if not isinstance(exc, PithError):
        raise Crash(f"{where}: {type(exc).__name__}: {exc}") from exc
    if exc.code not in STABLE_CODES:
        raise Crash(f"{where}: error code {exc.code} ({exc.name}): {exc.message}") from exc


# --- JSON values ---------------------------------------------------------------------
NASTY_TEXT = st.one_of(
    st.text(max_size=20),
    st.text(st.characters(exclude_categories=[]), max_size=20),   # surrogates too
    st.sampled_from(["", "\x00", "\ud800", "\udfff", "a\ud800b", "\u202e", "\ufeff",
                     "e\u0301", "\U0001f600", "\uffff", "\r\n", "<script>alert(1)</script>",
                     "javascript:alert(1)", "d" * 300, "\u0000" * 8]),
)
NASTY_NUMBER = st.one_of(
    st.integers(), st.floats(allow_nan=False, allow_infinity=False),
    st.sampled_from([0, -1, 1, -0.0, 2**31, 2**32, 2**53, 2**63, -2**63 - 1, 2**64,
                     10**30, 1e308, -1e308, 5e-324, 0.5, 10**400, -10**400]),
)
JSON_VALUES = st.recursive(
    st.one_of(st.none(), st.booleans(), NASTY_NUMBER, NASTY_TEXT),
    lambda inner: st.one_of(st.lists(inner, max_size=4),
                            st.dictionaries(NASTY_TEXT, inner, max_size=4)),
    max_leaves=8)


# Nesting around the host's bound (shape.MAX_DEPTH) and around what orjson and Python's
# recursion limit accept (1,024 and about 1,000 levels), where an echo once met a
# RecursionError while its reply was encoded.
DEPTHS = st.sampled_from([shape.MAX_DEPTH - 1, shape.MAX_DEPTH, shape.MAX_DEPTH + 1, 990,
                          1000, 1010, 1023, 1024, 1025, 5000])

# An echo's data nested that deep is written straight into the body where the request
# holds DEEP (a Python structure that deep would break json.dumps before the host).
DEEP = "\x00deep\x00"
DEEP_TEXT = json.dumps(DEEP).encode()

DEEP_BODIES = DEPTHS.map(lambda d: b'{"v":1,"id":1,"action":"echo","data":'
                         + b"[" * d + b"]" * d + b"}")

# Numbers JSON's grammar allows and a double does not hold (1e400): written into a body
# where a JSON value holds BIG_NUMBER, which json.dumps writes as BIG_NUMBER_TEXT.
BIG_NUMBERS = st.sampled_from([b"1e400", b"-1e400", b"1E+309", b"2e308", b"-9e99999",
                               b"123456789e301", b"1" * 400 + b".5e10"])
BIG_NUMBER = "\x00big number\x00"
BIG_NUMBER_TEXT = json.dumps(BIG_NUMBER).encode()
BIG_NUMBER_BODIES = BIG_NUMBERS.map(lambda n: b'{"v":1,"id":1,"action":"echo","data":[' + n
                                    + b"]}")


def request_body(request, numbers: list[bytes], depth: int) -> bytes:
    """`request` as the bytes of a frame body: JSON (NaN and infinities written as the
    json module does, which is not JSON), each BIG_NUMBER replaced by the next of
    `numbers`, DEEP by arrays nested `depth` deep."""
    body = json.dumps(request, allow_nan=True).encode("utf-8")
    for number in numbers:
        body = body.replace(BIG_NUMBER_TEXT, number, 1)
    return body.replace(DEEP_TEXT, b"[" * depth + b"]" * depth)


# --- framing -------------------------------------------------------------------------
@st.composite
def frame_streams(draw) -> tuple[bytes, list[int], int]:
    """(stream bytes, read sizes, max_bytes): random bytes, or frames whose declared
    lengths sit near and over `max_bytes`, with JSON, non-JSON or non-UTF-8 bodies."""
    max_bytes = draw(st.sampled_from([0, 1, 2, 7, 8, 64, 1024, framing.MAX_IN]))
    if draw(st.booleans()):
        data = draw(st.binary(max_size=512))
    else:
        parts = []
        for _ in range(draw(st.integers(1, 4))):
            body = draw(st.one_of(
                st.binary(max_size=64),
                JSON_VALUES.map(lambda v: json.dumps(v).encode("utf-8", "surrogatepass")),
                st.dictionaries(NASTY_TEXT, JSON_VALUES, max_size=3).map(
                    lambda v: json.dumps(v, ensure_ascii=False).encode("utf-8", "surrogatepass")),
                st.sampled_from([b"{}", b'{"v":1}', b"[]", b"NaN", b'{"a":Infinity}',
                                 b"[" * 5000 + b"]" * 5000, b'{"a":' * 3000 + b"1" + b"}" * 3000,
                                 b"\xff\xfe", b"{\"\xed\xa0\x80\":1}", b"1" * 5000]),
                DEEP_BODIES, BIG_NUMBER_BODIES))
            declared = draw(st.one_of(
                st.just(len(body)),
                st.sampled_from([max_bytes - 1, max_bytes, max_bytes + 1, 2**32 - 1,
                                 len(body) + 1, max(len(body) - 1, 0)]).filter(
                    lambda k: 0 <= k < 2**32)))
            parts.append(struct.pack("=I", declared) + body)
        data = b"".join(parts) + draw(st.binary(max_size=3))   # maybe a cut header
    pieces = draw(st.lists(st.integers(1, MAX_PIECE), min_size=1, max_size=16))
    return data, pieces, max_bytes


class PieceStream(io.RawIOBase):
    """A pipe-like stream: each read returns at most the next of `pieces` bytes."""

    def __init__(self, data: bytes, pieces: list[int]):
        self._data, self._pos, self._pieces, self._k = data, 0, pieces, 0

    def readable(self):
        return True

    def read(self, size=-1):
        piece = self._pieces[self._k % len(self._pieces)]
        self._k += 1
        size = piece if size < 0 else min(size, piece)
        chunk = self._data[self._pos:self._pos + size]
        self._pos += len(chunk)
        return chunk


def read_all(stream, max_bytes: int) -> list:
    """Every outcome of reading frames until the end or an unrecoverable error: a dict,
    or the code of a PithError."""
    out = []
    for _ in range(MAX_FRAMES):
        try:
            obj = framing.read_frame(stream, max_bytes)
        except PithError as exc:
            check_error(exc, "read_frame")
            out.append(exc.code)
            if isinstance(exc, framing.UNRECOVERABLE):
                break
            continue
        except Exception as exc:  # noqa: BLE001 - any other exception is the finding
            check_error(exc, "read_frame")
        if obj is None:
            break
        if not isinstance(obj, dict):
            raise Crash(f"read_frame returned {type(obj).__name__}")
        out.append(obj)
    return out


def check_framing(case: tuple[bytes, list[int], int]) -> None:
    """Whole reads and piecewise reads agree; every decoded object re-encodes to itself."""
    data, pieces, max_bytes = case
    with host_stack():
        whole = read_all(io.BytesIO(data), max_bytes)
        split = read_all(PieceStream(data, pieces), max_bytes)
    if whole != split:
        raise Crash(f"whole and piecewise reads differ: {whole!r:.200} vs {split!r:.200}")
    for obj in whole:
        if not isinstance(obj, dict):
            continue
        try:
            with host_stack():
                frame = framing.encode_frame(obj, max(max_bytes, 16))
        except PithError as exc:
            check_error(exc, "encode_frame")
            continue
        except Exception as exc:  # noqa: BLE001
            check_error(exc, "encode_frame")
        again = framing.read_frame(io.BytesIO(frame), len(frame))
        if again != obj:
            raise Crash(f"re-encoded frame reads back differently: {obj!r:.200}")


# --- snapshots -----------------------------------------------------------------------
@lru_cache(maxsize=None)
def _seed_snapshot_text(page: str) -> str:
    return (FIXTURES / page / "snapshot.json").read_text(encoding="utf-8")


def seed_snapshot(page: str) -> dict:
    """A fresh copy of a fixture page's real snapshot (callers mutate it)."""
    return json.loads(_seed_snapshot_text(page))


STRING_COLUMNS = ("tag", "text", "tail", "id", "cls", "role", "host", "url", "alt", "color")
NUMBER_COLUMNS = ("parent", "link", "x", "y", "w", "h", "hidden", "fs", "fw", "frame")
CELL_VALUES = st.one_of(
    NASTY_TEXT, NASTY_NUMBER, st.none(), st.booleans(),
    st.sampled_from([math.nan, math.inf, -math.inf, [], {}, [1], "1", "x" * HUGE_CHARS,
                     "\ud800" * 1000, "\U0001f600" * 5000, " \t\n" * 1000]))


@st.composite
def snapshot_mutations(draw) -> dict:
    """A real snapshot with a few hostile edits (the edits are the case)."""
    snap = seed_snapshot(draw(st.sampled_from(SEED_PAGES)))
    nodes, n = snap["nodes"], snap["n"]
    for _ in range(draw(st.integers(1, 4))):
        nodes = snap.get("nodes")
        if not isinstance(nodes, dict):      # an earlier edit replaced the columns
            break
        kind = draw(st.sampled_from(
            ["parent", "parent", "cell", "cell", "box", "text", "n", "length", "drop",
             "column_type", "top", "swap", "deepen", "hidden", "beyond"]))
        row = draw(st.integers(0, n - 1))
        if kind == "parent":          # wrong parents, self-loops, cycles, out of range
            _set(nodes, "parent", row, draw(st.one_of(
                st.integers(-3, n + 3), st.sampled_from([row, row + 1, -2**63, 2**40]))))
        elif kind == "cell":
            column = draw(st.sampled_from(STRING_COLUMNS + NUMBER_COLUMNS))
            _set(nodes, column, row, draw(CELL_VALUES))
        elif kind == "box":           # NaN/inf/huge layout values
            column = draw(st.sampled_from(("x", "y", "w", "h", "fs", "fw")))
            _set(nodes, column, row, draw(st.sampled_from(
                [math.nan, math.inf, -math.inf, 1e308, -1e308, 2**70, -1, 0])))
        elif kind == "text":          # huge strings and unicode edge cases
            column = draw(st.sampled_from(("text", "tail", "tag", "cls", "id", "url", "alt")))
            _set(nodes, column, row, draw(st.one_of(
                NASTY_TEXT, st.sampled_from(["x" * HUGE_CHARS, "word " * (HUGE_CHARS // 5),
                                             "\u0301" * 10_000, "\ud800\udc00" * 100]))))
        elif kind == "n":
            snap["n"] = draw(st.one_of(st.integers(-2, n + 2), st.sampled_from(
                [0, 2**31, 10**12, True, None, "3", 3.0])))
        elif kind == "length":        # a column longer or shorter than n
            column = draw(st.sampled_from(STRING_COLUMNS + NUMBER_COLUMNS))
            values = nodes.get(column)
            if not isinstance(values, list):
                continue
            if draw(st.booleans()) and values:
                values.pop()
            else:
                values.append(values[-1] if values else 0)
        elif kind == "drop":
            nodes.pop(draw(st.sampled_from(STRING_COLUMNS + NUMBER_COLUMNS)), None)
        elif kind == "column_type":
            nodes[draw(st.sampled_from(STRING_COLUMNS + NUMBER_COLUMNS))] = draw(
                st.one_of(JSON_VALUES, st.just("abc"), st.just({"0": 1})))
        elif kind == "top":           # the envelope's own keys
            key = draw(st.sampled_from(["v", "nodes", "layout", "url", "title", "warnings",
                                        "viewport", "page", "lang", "capture_ms"]))
            snap[key] = draw(st.one_of(JSON_VALUES, NASTY_NUMBER,     # sizes are pairs
                                       st.lists(NASTY_NUMBER, min_size=2, max_size=2)))
        elif kind == "swap":          # two rows exchanged: preorder broken, maybe a cycle
            other = draw(st.integers(0, n - 1))
            for column in nodes.values():
                if isinstance(column, list) and len(column) == n:
                    column[row], column[other] = column[other], column[row]
        elif kind == "deepen":        # a long chain appended under a row (deep nesting)
            depth = draw(st.integers(1, 3000))
            _append_chain(snap, row, depth)
            n = snap["n"] if isinstance(snap["n"], int) else n
        elif kind == "hidden":
            _set(nodes, "hidden", row, draw(st.integers(-40, 40)))
        elif kind == "beyond":        # a JSON integer no double holds, where a number is read
            snap[draw(st.sampled_from(["capture_ms", "viewport", "page"]))] = draw(
                st.sampled_from([10**400, -10**400, [10**400, 1], [1, -10**400]]))
    return snap


def _set(nodes: dict, column: str, row: int, value) -> None:
    """nodes[column][row] = value, when an earlier edit left that cell in place."""
    values = nodes.get(column)
    if isinstance(values, list) and row < len(values):
        values[row] = value


def _append_chain(snap: dict, under: int, depth: int) -> None:
    """`depth` nested divs under row `under`, placed at the end (still preorder only
    when `under` is the last subtree's ancestor: otherwise a wrong-order case)."""
    nodes = snap["nodes"]
    if not all(isinstance(c, list) for c in nodes.values()) or "parent" not in nodes \
            or "text" not in nodes:
        return
    start = len(nodes.get("tag", []))
    for k in range(depth):
        for name, column in nodes.items():
            column.append(("div" if name == "tag" else "" if name in STRING_COLUMNS else 0))
        nodes["parent"][-1] = under if k == 0 else start + k - 1
    nodes["text"][-1] = "deep text"
    if isinstance(snap.get("n"), int):
        snap["n"] = snap["n"] + depth


def check_snapshot(obj: dict) -> None:
    """Validation refuses with a stable code, or its Snapshot keeps the tree contract and
    the whole pipeline answers (or refuses) on it."""
    from pith.pipeline import snapshot as snapshot_mod
    from pith.pipeline.select import select
    try:
        with warnings.catch_warnings():  # numpy's "invalid value in cast": silent garbage
            warnings.simplefilter("error", RuntimeWarning)
            snap = snapshot_mod.from_json(obj, Options().max_nodes)
    except Exception as exc:  # noqa: BLE001
        check_error(exc, "from_json")
        return
    import numpy as np
    parent, end, n = snap.parent, snap.end, snap.n
    rows = np.arange(n)
    if parent[0] != -1 or (n > 1 and not (parent[1:] < rows[1:]).all()):
        raise Crash("a validated snapshot has parents out of preorder")
    if not ((end > rows) & (end <= n)).all():
        raise Crash("a validated snapshot has subtree ends out of range")
    if n > 1 and not (snap.depth[1:] == snap.depth[parent[1:]] + 1).all():
        raise Crash("a validated snapshot has wrong depths")
    for name in NUMBER_COLUMNS:
        values = getattr(snap, name)
        if values.dtype.kind == "f" and not np.isfinite(values).all():
            raise Crash(f"a validated snapshot has a non-finite {name}")
    try:
        sel = select(snap, Options())
        wire = sel.to_wire()
        json.dumps(wire, allow_nan=False)
    except Exception as exc:  # noqa: BLE001
        check_error(exc, "select")


# --- protocol ------------------------------------------------------------------------
@lru_cache(maxsize=1)
def seeded_selection():
    """A real selection of the article page, shared by every protocol case's session."""
    from pith.pipeline.select import select
    return select(seed_snapshot("article"), Options())


OPTION_NAMES = tuple(item["name"] for item in Options().describe())


@st.composite
def option_overrides(draw):
    """Options objects: mostly real names with random values, sometimes junk."""
    if draw(st.integers(0, 9)) == 0:
        return draw(JSON_VALUES)
    out = {}
    for _ in range(draw(st.integers(0, 3))):
        name = draw(st.one_of(st.sampled_from(OPTION_NAMES), NASTY_TEXT))
        out[name] = draw(st.one_of(JSON_VALUES, NASTY_NUMBER, st.sampled_from(
            list(ALGORITHMS) + [0, 100, 1e9, -1, [], ["cnr"], ["nope"], 10**400])))
    return out


@st.composite
def frames(draw) -> tuple[dict, list[bytes], int]:
    """(a request, the out-of-range numbers to write where it holds BIG_NUMBER, the depth
    of the arrays to write where it holds DEEP)."""
    return (draw(requests()), draw(st.lists(BIG_NUMBERS, min_size=1, max_size=2)),
            draw(DEPTHS))


@st.composite
def requests(draw) -> dict:
    """A request for a real action (or a junk name), with mutated envelope and fields."""
    junk = draw(st.integers(0, 9)) == 0            # one case in ten: a junk field or name
    action = draw(NASTY_TEXT) if junk else draw(st.sampled_from(list(protocol.ACTIONS)))
    req = {"v": 1, "id": draw(st.one_of(st.integers(0, 10**6), st.text(max_size=10))),
           "action": action}
    node = st.one_of(NASTY_NUMBER, JSON_VALUES) if junk else st.integers(-2, 45)
    doc = JSON_VALUES if junk else st.sampled_from(["d1"] * 6 + ["d2", "d0", "", "d1 "])
    rows = JSON_VALUES if junk else st.lists(st.integers(-1, 45), max_size=5)
    if action == "echo":
        req["data"] = draw(st.one_of(JSON_VALUES, st.sampled_from([DEEP, {"x": [DEEP]}]),
                                     st.sampled_from([[BIG_NUMBER], {"x": BIG_NUMBER}])))
    elif action == "select":
        req["snapshot"] = draw(st.one_of(
            st.sampled_from(SEED_PAGES).map(seed_snapshot), snapshot_mutations(), JSON_VALUES))
        if draw(st.booleans()):
            req["options"] = draw(option_overrides())
        if draw(st.booleans()):
            req["pin"] = draw(node)
    elif action in ("grow", "shrink", "clean"):
        req["doc"], req["node"] = draw(doc), draw(node)
        if action == "shrink" and draw(st.booleans()):
            req["trail"] = draw(rows)
        if action == "clean":
            for key in ("include", "exclude"):
                if draw(st.booleans()):
                    req[key] = draw(rows)
    for _ in range(draw(st.sampled_from([0, 0, 0, 0, 1, 1, 2, 3]))):  # mutate fields
        key = draw(st.one_of(st.sampled_from(["v", "id", "action", "snapshot", "options",
                                              "pin", "doc", "node", "trail", "include",
                                              "exclude", "data"]), NASTY_TEXT))
        if draw(st.booleans()):
            req.pop(key, None)
        else:
            req[key] = draw(JSON_VALUES)
    return req


def check_protocol(case) -> None:
    """A request (or a request and its out-of-range numbers, as `frames` draws it) is
    written as a frame body and read as the host reads it (framing.decode_body), then
    answered: a reply frame always comes back, readable, with the request's id when it
    had a valid one, and any error is a stable code."""
    request, numbers, depth = case if isinstance(case, tuple) else (case, [b"1e400"], 1)
    try:
        with host_stack():
            request = framing.decode_body(request_body(request, numbers, depth))
    except PithError as exc:
        check_error(exc, "decode_body")
        return
    except Exception as exc:  # noqa: BLE001
        check_error(exc, "decode_body")
    session = protocol.Session()
    session.remember(seeded_selection())          # "d1" is a real, cached selection
    try:
        with host_stack():
            frame = protocol.respond(request, session)
    except Exception as exc:  # noqa: BLE001 - respond must never raise
        raise Crash(f"respond raised {type(exc).__name__}: {exc}") from exc
    # read as the browser reads it: the reply to an echo nests 2 levels deeper than its
    # request, so the host's own bound on requests (shape.MAX_DEPTH) does not apply
    (length,) = framing.HEADER.unpack(frame[:framing.HEADER.size])
    if length != len(frame) - framing.HEADER.size or length > framing.MAX_OUT:
        raise Crash(f"reply frame of {len(frame)} bytes declares {length}")
    reply = json.loads(frame[framing.HEADER.size:])
    if reply.get("v") != 1 or reply.get("ok") not in (True, False):
        raise Crash(f"malformed reply {reply!r:.200}")
    if reply["id"] != protocol.request_id(request):
        raise Crash(f"reply id {reply['id']!r} for request id {request.get('id')!r}")
    if not reply["ok"]:
        code = reply["error"]["code"]
        if code not in STABLE_CODES:
            raise Crash(f"error {code} {reply['error'].get('name')}: "
                        f"{reply['error'].get('message')}")


# --- static extraction ---------------------------------------------------------------
@lru_cache(maxsize=None)
def seed_html(page: str) -> bytes:
    return (FIXTURES / page / "source.html").read_bytes()


SOUP = st.sampled_from([
    b"<div>", b"</div>", b"<p>", b"</p>", b"<table><tr><td>", b"</td></tr></table>",
    b"<script>alert(1)</script>", b"<svg onload=alert(1)><script>x</script></svg>",
    b"<img src=x onerror=alert(1)>", b"<a href='javascript:alert(1)'>j</a>",
    b"<base href='javascript:alert(1)//'>", b"<iframe srcdoc='<p>x</p>'></iframe>",
    b"<!--", b"-->", b"<![CDATA[", b"<?xml version='1.0'?>", b"<!DOCTYPE html>",
    b"<meta charset='utf-16'>", b"<meta charset='x-nonsense'>", b"<math><mi>x</mi></math>",
    b"<template><p>t</p></template>", b"<noscript><p>n</p></noscript>", b"<style>*{}</style>",
    b"<pre>", b"<code>", b"<h1>", b"<li>", b"<ul>", b"<body>", b"</html>", b"<head>",
    b"\x00", b"\xff\xfe", b"\xed\xa0\x80", b"\xc3", b"&#0;", b"&#xD800;", b"&nbsp;" * 50,
    b"\xe2\x80\xae", b"<p>" + "\u00e9\u0301\U0001f600".encode() * 50 + b"</p>",
])


@st.composite
def html_mutations(draw) -> tuple[bytes, str]:
    """(HTML bytes, output format): a fixture page with random edits, or random bytes."""
    fmt = draw(st.sampled_from(["text", "markdown", "html", "json"]))
    if draw(st.integers(0, 9)) == 0:
        return draw(st.binary(max_size=2000)), fmt
    data = bytearray(seed_html(draw(st.sampled_from(SEED_PAGES))))
    for _ in range(draw(st.integers(1, 6))):
        at = draw(st.integers(0, len(data)))
        kind = draw(st.sampled_from(["soup", "soup", "cut", "repeat", "nest", "bytes", "text"]))
        if kind == "soup":
            data[at:at] = draw(SOUP)
        elif kind == "cut":
            data[at:at + draw(st.integers(1, 400))] = b""
        elif kind == "repeat":
            span = bytes(data[at:at + draw(st.integers(1, 200))])
            data[at:at] = span * draw(st.integers(1, 50))
        elif kind == "nest":
            depth = draw(st.integers(1, 3000))
            tag = draw(st.sampled_from([b"div", b"span", b"b", b"table", b"li", b"p"]))
            data[at:at] = b"<" + tag + b">" * 1 + (b"<" + tag + b">") * (depth - 1) + b"deep"
        elif kind == "bytes":
            data[at:at] = draw(st.binary(min_size=1, max_size=16))
        else:
            data[at:at] = draw(NASTY_TEXT).encode("utf-8", "surrogatepass")
    return bytes(data), fmt


class StaticExtractor:
    """What `pith extract --static FILE` runs for each input, kept open across cases."""

    def __init__(self, folder: Path):
        from pith.pages.inputs import Capturer
        self.path = folder / "fuzz-input.html"
        self.capturer = Capturer(static_mode=True).__enter__()

    def __call__(self, case: tuple[bytes, str]) -> None:
        from pith.cli import extract_one
        data, fmt = case
        self.path.write_bytes(data)
        try:
            body, _record = extract_one(self.capturer, str(self.path), Options(), fmt)
        except Exception as exc:  # noqa: BLE001
            check_error(exc, f"extract --static --format {fmt}")
            return
        if not isinstance(body, str):
            raise Crash(f"extract returned {type(body).__name__}")
