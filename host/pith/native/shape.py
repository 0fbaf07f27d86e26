"""What a frame body would expand into once decoded, bounded on its bytes before decoding.

A 64 MiB body of `[{},{},…]` is 22 million dicts once decoded: 2 GB for a frame the
length check lets through (host/PROTOCOL.md, "Limits"). So before a body is decoded its
bytes are counted, with C-speed `bytes.count` and no parse, and two bounds are checked:

- depth: arrays and objects nested over MAX_DEPTH are `frame_too_deep` (15). The host
  answers what it reads (echo), and the reply encoder recurses once per level: a body
  nested 1,000 deep read fine and failed as it was answered (`internal`).
- size: an upper estimate of the decoded objects' memory (`estimate`) over
  MAX_DECODED_BYTES is `frame_too_complex` (16).

Both are upper bounds that count brackets, separators and quotes inside strings as if
they were structure (escapes aside): a body that passes them is certainly within them;
only a body that fails the quick bound gets the exact depth (strings masked, numpy).
The costs per value are measured (NOTES.md, 'Why frames, the cache and static parses
are bounded by size').
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ..errors import FrameTooComplex, FrameTooDeep

# Deepest nesting of arrays and objects a request may have: the extension's requests
# nest 4 deep (a snapshot's columns); the reply adds 2 levels (reply, result), and the
# json encoder stops at Python's recursion limit (1,000 frames, some already in use).
MAX_DEPTH = 128

# Most memory the decoded objects of one body may need, by `estimate`: a 1,000,000-row
# snapshot (the largest `max_nodes` allows, and about the most a 64 MiB frame holds:
# tests/bench_host_scale.py's, 62 MiB) is estimated at 0.8 GB (0.7 GB decoded), a 64 MiB
# body of tiny containers or one-letter strings at 1.4-2 GB.
MAX_DECODED_BYTES = 1 << 30

# Bytes one decoded value costs, measured on CPython 3 (64-bit) with orjson by the peak
# resident memory of decoding 64 MiB arrays of one value repeated (tests/test_shape.py
# checks the estimate against a real decode): the slot holding it in its list or dict
# (with the list's growth),
SLOT_BYTES = 21
# an array or object itself (a dict of one key is 184 bytes and its GC header, an
# empty list 56),
CONTAINER_BYTES = 200
# a non-empty string (the empty string is one shared object: a slot only),
STRING_BYTES = 60
# a number beyond CPython's cached small ints (-5..256: those cost their slot only),
# which has at least two of the characters NUMBER_CHARS (1.5, -6, 257, 1e5).
NUMBER_BYTES = 32
NUMBER_CHARS = b"0123456789-."
# The most a single body byte adds to the estimate (a "[": one more value, one more
# container, and itself), so a body under MAX_DECODED_BYTES / this needs no counting.
WORST_BYTES_PER_BYTE = 1 + SLOT_BYTES + CONTAINER_BYTES

# Structural bytes and the pieces of escapes.
_OPEN = (b"{", b"[")
_SEPARATORS = (b",", b":")
_ESCAPED_BACKSLASH = b"\\\\"
_ESCAPED_QUOTE = b'\\"'
_EMPTY_STRING = b'""'
_QUOTE = 34
_NOT_NUMBER_CHARS = bytes(i for i in range(256) if i not in NUMBER_CHARS)

# The exact depth scan keeps only quotes and brackets, then walks them with numpy.
_KEEP = b'"[]{}'
_DROP_ALL_BUT_KEEP = bytes(i for i in range(256) if i not in _KEEP)
_STEP = np.zeros(256, np.int8)
_STEP[[ord("["), ord("{")]] = 1
_STEP[[ord("]"), ord("}")]] = -1
# Pieces of the depth scan (bounded temporary memory on a 64 MiB body).
_CHUNK = 1 << 20


class Shape(NamedTuple):
    """What the counts say of a body: containers (at most), values and keys (at most),
    non-empty strings, numbers that are objects of their own (at most), and the
    estimated decoded memory in bytes."""
    containers: int
    tokens: int
    strings: int
    numbers: int
    estimate: int


def unescaped(body: bytes) -> bytes:
    """`body` without its escaped backslashes and escaped quotes: every quote left is a
    string's delimiter (a run of backslashes pairs up left to right, as JSON reads it)."""
    if b"\\" not in body:
        return body
    return body.replace(_ESCAPED_BACKSLASH, b"").replace(_ESCAPED_QUOTE, b"")


def measure(body: bytes) -> Shape:
    """Upper counts of `body`'s values and the memory its decoded objects would take."""
    containers = sum(body.count(c) for c in _OPEN)
    tokens = sum(body.count(c) for c in _SEPARATORS) + containers + 1
    plain = unescaped(body)
    all_strings = plain.count(b'"') // 2
    strings = max(0, all_strings - plain.count(_EMPTY_STRING))
    number_chars = len(body.translate(None, _NOT_NUMBER_CHARS))
    numbers = max(0, min(tokens - containers - all_strings, number_chars // 2))
    estimate = (len(body) + SLOT_BYTES * tokens + CONTAINER_BYTES * containers
                + STRING_BYTES * strings + NUMBER_BYTES * numbers)
    return Shape(containers, tokens, strings, numbers, estimate)


def depth(body: bytes) -> int:
    """The deepest nesting of arrays and objects in `body` (brackets inside strings do
    not count); exact for valid JSON."""
    marks = np.frombuffer(unescaped(body).translate(None, _DROP_ALL_BUT_KEEP), np.uint8)
    inside, level, deepest = 0, 0, 0
    for start in range(0, len(marks), _CHUNK):
        piece = marks[start:start + _CHUNK]
        quotes = np.cumsum(piece == _QUOTE, dtype=np.uint8)   # parity is all that counts
        in_string = ((quotes + inside) & 1).view(np.bool_)
        steps = np.where(in_string, 0, _STEP[piece])
        levels = np.cumsum(steps, dtype=np.int64) + level
        deepest = max(deepest, int(levels.max()))
        inside, level = int(in_string[-1]), int(levels[-1])
    return deepest


def check(body: bytes, max_depth: int = MAX_DEPTH,
          max_bytes: int = MAX_DECODED_BYTES) -> None:
    """FrameTooComplex or FrameTooDeep when `body` is over a bound, else nothing. A body
    short enough that even its worst bytes cannot reach `max_bytes` is not measured."""
    if len(body) * WORST_BYTES_PER_BYTE > max_bytes:
        shape = measure(body)
        if shape.estimate > max_bytes:
            raise FrameTooComplex(
                f"frame body would take about {shape.estimate // 2**20} MiB once decoded "
                f"({shape.tokens} values, {shape.containers} arrays and objects), over the "
                f"limit of {max_bytes // 2**20} MiB", estimate=shape.estimate, limit=max_bytes)
    if sum(body.count(c) for c in _OPEN) > max_depth:
        found = depth(body)
        if found > max_depth:
            raise FrameTooDeep(
                f"frame body nests arrays and objects {found} deep, over the limit of "
                f"{max_depth}", depth=found, limit=max_depth)
