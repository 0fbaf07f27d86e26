"""Bytes on the pipe: read and write native-messaging frames (length + UTF-8 JSON).

A frame is a 4-byte unsigned length in the machine's native byte order followed by that
many bytes of UTF-8 JSON; Chrome and Firefox both speak it (host/PROTOCOL.md, "Framing").
Everything here is a pure function over a binary stream, so it is tested with
`io.BytesIO`; what a message *means* is `protocol.py`'s job.
"""
from __future__ import annotations

import json
import math
import struct
from typing import Any, BinaryIO, Callable

import orjson

from . import shape
from ..errors import (FrameBadNumber, FrameNotJson, FrameNotUtf8, FrameTooLarge,
                      FrameTruncated, ReplyTooLarge)

# The length prefix: unsigned 32-bit, native byte order ("=" = native order, no padding),
# which is what both browsers write and expect.
HEADER = struct.Struct("=I")

# The browser never sends more than 64 MiB to a host (Chrome's documented cap), so a larger
# declared length can only mean a corrupt or desynchronised stream.
MAX_IN = 64 * 1024 * 1024

# The browser refuses a host message over 1 MB (both browsers) and drops the port.
MAX_OUT = 1024 * 1024

# A body is read in pieces of at most this size: a buffered pipe's read(n) allocates n
# bytes before any arrive, so a peer declaring 64 MiB and sending ten bytes would cost
# 64 MiB; in 1 MiB pieces memory follows what actually arrives, at no measurable cost.
READ_CHUNK = 1024 * 1024

# Errors after which the stream position is unknown: the reader cannot find the next
# header, so the host must reply once (if it can) and exit.
UNRECOVERABLE = (FrameTruncated, FrameTooLarge)

# Compact JSON out: every byte counts against MAX_OUT.
_SEPARATORS = (",", ":")

# Bodies are decoded by orjson, in a third of the json module's time (a rendered page's
# snapshot: 0.39 against 1.26 ms median over 300 WCXB snapshots, a tenth of the host's
# time per page), and by the json module when orjson refuses one (the json module then
# names the fault, or accepts what orjson does not: lone surrogates escaped as
# JSON.stringify writes them) or when it holds a run of LONG_DIGITS digits: orjson reads
# an integer beyond 64 bits as a float where the json module keeps the int, and the
# protocol answers an int by its range, a float by its type. Such runs are mostly in URLs
# (28 of those 300 snapshots); finding one costs 0.13 ms.
LONG_DIGITS = 19
_DIGITS_AS_ZERO = bytes(48 if 48 <= i <= 57 else 32 for i in range(256))
_LONG_RUN = b"0" * LONG_DIGITS


def read_exactly(stream: BinaryIO, size: int) -> bytes:
    """Up to `size` bytes; fewer only at end of stream (pipes may return short reads).
    Read READ_CHUNK bytes at a time, so nothing is allocated for bytes that never come."""
    chunks, got = [], 0
    while got < size:
        chunk = stream.read(min(size - got, READ_CHUNK))
        if not chunk:
            break
        chunks.append(chunk)
        got += len(chunk)
    return b"".join(chunks)


def read_frame(stream: BinaryIO, max_bytes: int = MAX_IN,
               reserve: Callable[[int], None] | None = None) -> dict | None:
    """The next message as a dict, or None on a clean end of stream (no header byte).

    Raises FrameTruncated (header or body cut short), FrameTooLarge (declared length over
    `max_bytes`; the body is not read), FrameNotUtf8 or FrameNotJson. After the first two
    the stream is unusable; after the last two the frame was consumed whole and the next
    frame can be read. `reserve`, when given, is told the body's length once it is known
    to be within `max_bytes`, before the body is read (the host makes room for it).
    """
    header = read_exactly(stream, HEADER.size)
    if not header:
        return None
    if len(header) < HEADER.size:
        raise FrameTruncated(
            f"frame header cut short: expected {HEADER.size} bytes, got {len(header)}",
            expected=HEADER.size, got=len(header))
    (length,) = HEADER.unpack(header)
    if length > max_bytes:
        raise FrameTooLarge(
            f"frame declares {length} bytes, over the limit of {max_bytes}",
            length=length, limit=max_bytes)
    if reserve is not None:
        reserve(length)
    body = read_exactly(stream, length)
    if len(body) < length:
        raise FrameTruncated(
            f"frame body cut short: expected {length} bytes, got {len(body)}",
            expected=length, got=len(body))
    return decode_body(body)


def decode_body(body: bytes) -> dict:
    """The JSON object in a frame body; FrameNotUtf8 / FrameNotJson otherwise, and
    FrameTooDeep / FrameTooComplex (shape.py) before anything is built, FrameBadNumber
    for a number beyond a double. The same object the json module gives (see LONG_DIGITS
    for how orjson is used)."""
    shape.check(body)
    if body.translate(_DIGITS_AS_ZERO).find(_LONG_RUN) >= 0:
        obj = _decode_slowly(body)
    else:
        try:
            obj = orjson.loads(body)
        except orjson.JSONDecodeError:
            obj = _decode_slowly(body)
    if not isinstance(obj, dict):
        raise FrameNotJson(
            f"frame body must be a JSON object, got {_json_type(obj)}")
    return obj


def _decode_slowly(body: bytes) -> Any:
    """The json module's reading of `body`, with the words for what is wrong with it."""
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise FrameNotUtf8(f"frame body is not UTF-8 (bad byte at offset {exc.start})",
                           offset=exc.start) from None
    try:
        return json.loads(text, parse_constant=_refuse_constant, parse_float=_finite_float)
    except RecursionError:
        raise FrameNotJson("frame body is JSON nested too deeply") from None
    except ValueError as exc:  # JSONDecodeError, NaN/Infinity, ints over Python's digit cap
        raise FrameNotJson(f"frame body is not JSON: {exc}") from None


def encode_frame(obj: Any, max_bytes: int = MAX_OUT) -> bytes:
    """Header + compact UTF-8 JSON of `obj`; ReplyTooLarge if the body exceeds `max_bytes`.

    A value that is not JSON (NaN, a set, ...) raises the json module's ValueError or
    TypeError: that is a bug of the caller, not of the peer.
    """
    text = json.dumps(obj, ensure_ascii=False, separators=_SEPARATORS, allow_nan=False)
    try:
        body = text.encode("utf-8")
    except UnicodeEncodeError:
        # A lone surrogate (pages can hold them; JSON.stringify escapes them) has no UTF-8
        # form: fall back to \u escapes, which are valid JSON and decode to the same string.
        body = json.dumps(obj, ensure_ascii=True, separators=_SEPARATORS,
                          allow_nan=False).encode("ascii")
    if len(body) > max_bytes:
        raise ReplyTooLarge(
            f"reply is {len(body)} bytes, over the browser's limit of {max_bytes}",
            size=len(body), limit=max_bytes)
    return HEADER.pack(len(body)) + body


def write_frame(stream: BinaryIO, obj: Any, max_bytes: int = MAX_OUT) -> int:
    """Encode `obj`, write it as one frame and flush; the number of bytes written.

    Nothing is written when encoding fails (ReplyTooLarge, or a value that is not JSON).
    """
    frame = encode_frame(obj, max_bytes)
    stream.write(frame)
    stream.flush()
    return len(frame)


def _finite_float(text: str) -> float:
    """json.loads hook: a number beyond a double (1e400) is refused, not read as
    Infinity (orjson refuses it too, which is how it gets here)."""
    value = float(text)
    if math.isinf(value):
        raise FrameBadNumber(f"frame body holds the number {text[:40]}, beyond a double's "
                             f"range (about 1.8e308)", number=text[:40])
    return value


def _refuse_constant(name: str):
    """json.loads hook: NaN and Infinity are not JSON, whatever Python accepts."""
    raise ValueError(f"{name} is not allowed in JSON")


def _json_type(obj: Any) -> str:
    """The JSON name of a decoded value's type, for error messages."""
    if isinstance(obj, list):
        return "an array"
    if isinstance(obj, str):
        return "a string"
    if isinstance(obj, bool):
        return "a boolean"
    if obj is None:
        return "null"
    return "a number"
