"""Framing: native-messaging frames over in-memory streams (no process, no pipe)."""
import io
import json
import struct

import pytest

from pith.native import framing, shape
from pith.errors import (FrameBadNumber, FrameNotJson, FrameNotUtf8, FrameTooDeep,
                         FrameTooLarge, FrameTruncated, ReplyTooLarge)


def frame_of(body: bytes) -> bytes:
    """A raw frame: native-order length + body, built independently of the module."""
    return struct.pack("=I", len(body)) + body


class CountingStream(io.BytesIO):
    """A BytesIO that records how many bytes were asked for in total."""

    def __init__(self, data: bytes):
        super().__init__(data)
        self.requested = 0

    def read(self, size=-1):
        self.requested += size if size >= 0 else len(self.getvalue())
        return super().read(size)


class TrickleStream(io.RawIOBase):
    """A pipe-like stream that returns at most one byte per read (short reads)."""

    def __init__(self, data: bytes):
        self._data, self._pos = data, 0

    def readable(self):
        return True

    def read(self, size=-1):
        chunk = self._data[self._pos:self._pos + min(size, 1)]
        self._pos += len(chunk)
        return chunk


def test_limits_are_the_browsers():
    assert framing.MAX_IN == 64 * 1024 * 1024
    assert framing.MAX_OUT == 1024 * 1024
    assert framing.HEADER.size == 4


@pytest.mark.parametrize("obj", [
    {"v": 1, "id": 1, "action": "hello"},
    {"text": "héllo wörld — «ελληνικά» 中文 עברית"},
    {"emoji": "😀🇫🇷👩‍👩‍👧", "nested": {"a": [1, 2.5, None, True, "x"]}},
    {},
])
def test_round_trip(obj):
    stream = io.BytesIO()
    written = framing.write_frame(stream, obj)
    assert written == len(stream.getvalue())
    stream.seek(0)
    assert framing.read_frame(stream) == obj
    assert framing.read_frame(stream) is None


def test_encoding_is_native_order_compact_utf8():
    data = framing.encode_frame({"a": "é", "b": [1, 2]})
    body = '{"a":"é","b":[1,2]}'.encode("utf-8")
    assert data == struct.pack("=I", len(body)) + body


def test_length_counts_bytes_not_characters():
    data = framing.encode_frame({"e": "😀"})
    (length,) = struct.unpack("=I", data[:4])
    assert length == len(data) - 4
    assert length == len('{"e":""}') + 4  # the emoji is 4 UTF-8 bytes


def test_lone_surrogate_is_escaped_not_lost():
    obj = {"t": "a\ud800b"}  # what json.loads gives for JSON.stringify of a broken pair
    data = framing.encode_frame(obj)
    data[4:].decode("utf-8")  # valid UTF-8 on the wire
    assert framing.read_frame(io.BytesIO(data)) == obj


def test_clean_eof_is_none():
    assert framing.read_frame(io.BytesIO(b"")) is None


@pytest.mark.parametrize("cut", [1, 2, 3])
def test_truncated_header(cut):
    with pytest.raises(FrameTruncated) as err:
        framing.read_frame(io.BytesIO(b"\x10\x00\x00\x00"[:cut]))
    assert f"expected 4 bytes, got {cut}" in err.value.message


def test_truncated_body():
    data = frame_of(b'{"v":1}')[:-3]
    with pytest.raises(FrameTruncated) as err:
        framing.read_frame(io.BytesIO(data))
    assert "expected 7 bytes, got 4" in err.value.message
    assert err.value.detail == {"expected": 7, "got": 4}


def test_oversize_declared_length_refused_without_reading_body():
    body = b'{"x":"' + b"a" * 100 + b'"}'
    stream = CountingStream(frame_of(body))
    with pytest.raises(FrameTooLarge) as err:
        framing.read_frame(stream, max_bytes=50)
    assert stream.tell() == 4 and stream.requested == 4
    assert err.value.detail["length"] == len(body)
    assert isinstance(err.value, framing.UNRECOVERABLE)


def test_default_limit_is_max_in():
    header = struct.pack("=I", framing.MAX_IN + 1)
    with pytest.raises(FrameTooLarge):
        framing.read_frame(io.BytesIO(header))
    # exactly MAX_IN is allowed: it fails only because the body is missing
    with pytest.raises(FrameTruncated):
        framing.read_frame(io.BytesIO(struct.pack("=I", framing.MAX_IN)))


def test_oversize_reply_refused_before_writing():
    stream = io.BytesIO()
    big = {"data": "x" * framing.MAX_OUT}
    with pytest.raises(ReplyTooLarge) as err:
        framing.write_frame(stream, big)
    assert stream.getvalue() == b""
    assert err.value.detail["limit"] == framing.MAX_OUT


def test_reply_of_exactly_max_out_is_allowed():
    overhead = len(framing.encode_frame({"d": ""})) - 4
    data = framing.encode_frame({"d": "x" * (framing.MAX_OUT - overhead)})
    assert len(data) == framing.MAX_OUT + 4
    with pytest.raises(ReplyTooLarge):
        framing.encode_frame({"d": "x" * (framing.MAX_OUT - overhead + 1)})


def test_not_utf8():
    with pytest.raises(FrameNotUtf8) as err:
        framing.read_frame(io.BytesIO(frame_of(b'{"a":"\xff"}')))
    assert err.value.detail == {"offset": 6}


@pytest.mark.parametrize("body", [b"", b"{", b"hello", b'{"a":1}x', b'{"a":NaN}',
                                  b'{"a":Infinity}'])
def test_not_json(body):
    with pytest.raises(FrameNotJson):
        framing.read_frame(io.BytesIO(frame_of(body)))


@pytest.mark.parametrize("body,kind", [(b"[1,2]", "an array"), (b'"s"', "a string"),
                                       (b"3", "a number"), (b"null", "null"),
                                       (b"true", "a boolean")])
def test_top_level_must_be_object(body, kind):
    with pytest.raises(FrameNotJson) as err:
        framing.read_frame(io.BytesIO(frame_of(body)))
    assert kind in err.value.message


def test_bad_body_leaves_stream_in_sync():
    stream = io.BytesIO(frame_of(b"nope") + frame_of(b"\xfe") + frame_of(b'{"ok":1}'))
    with pytest.raises(FrameNotJson):
        framing.read_frame(stream)
    with pytest.raises(FrameNotUtf8):
        framing.read_frame(stream)
    assert framing.read_frame(stream) == {"ok": 1}


def test_frames_back_to_back():
    objs = [{"i": i, "s": "é" * i} for i in range(20)]
    stream = io.BytesIO(b"".join(framing.encode_frame(o) for o in objs))
    got = []
    while (obj := framing.read_frame(stream)) is not None:
        got.append(obj)
    assert got == objs


def test_short_reads_are_reassembled():
    objs = [{"a": "😀"}, {"b": 2}]
    stream = TrickleStream(b"".join(framing.encode_frame(o) for o in objs))
    assert [framing.read_frame(stream), framing.read_frame(stream)] == objs
    assert framing.read_frame(stream) is None


def test_not_json_value_is_a_caller_bug():
    stream = io.BytesIO()
    with pytest.raises(ValueError):
        framing.write_frame(stream, {"score": float("nan")})
    with pytest.raises(TypeError):
        framing.write_frame(stream, {"s": {1, 2}})
    assert stream.getvalue() == b""


def test_encoded_body_is_plain_json():
    data = framing.encode_frame({"k": ["v", 1]})
    assert json.loads(data[4:].decode("utf-8")) == {"k": ["v", 1]}


class LargestReadStream(io.BytesIO):
    """A BytesIO that records the largest single read asked for."""

    def __init__(self, data: bytes):
        super().__init__(data)
        self.largest = 0

    def read(self, size=-1):
        self.largest = max(self.largest, size)
        return super().read(size)


def test_a_declared_length_is_read_in_pieces_not_asked_for_at_once():
    stream = LargestReadStream(struct.pack("=I", 60 * 2**20) + b'{"v":1}')
    with pytest.raises(FrameTruncated):
        framing.read_frame(stream)
    assert stream.largest <= framing.READ_CHUNK


def test_memory_follows_the_bytes_that_arrive_not_the_declared_length():
    """On a real buffered pipe, read(n) allocates n bytes up front: a peer declaring
    60 MiB and sending ten bytes must not cost 60 MiB."""
    import os
    import tracemalloc
    r, w = os.pipe()
    os.write(w, struct.pack("=I", 60 * 2**20) + b"0123456789")
    os.close(w)
    with open(r, "rb") as stream:
        tracemalloc.start()
        with pytest.raises(FrameTruncated):
            framing.read_frame(stream)
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
    assert peak < 2 * framing.READ_CHUNK + 2**20, f"peak {peak / 2**20:.1f} MiB"


def readings(body: bytes) -> tuple:
    """(what decode_body answers, what it answered when the json module read every body):
    a dict, or the error's class; a JSON value that is no object counts as FrameNotJson."""
    out = []
    def slowly(body):       # the json module's reading, within the same bounds
        shape.check(body)
        return framing._decode_slowly(body)
    for read in (framing.decode_body, slowly):
        try:
            value = read(body)
        except (FrameNotJson, FrameNotUtf8, FrameBadNumber, FrameTooDeep) as exc:
            value = type(exc)
        out.append(value if isinstance(value, (dict, type)) else FrameNotJson)
    return tuple(out)


@pytest.mark.parametrize("body", [
    b'{"a":1,"a":2}', b'{"n":18446744073709551615}', b'{"n":18446744073709551616}',
    b'{"n":-9223372036854775809}', b'{"v":123456789012345678901234567890}',
    b'{"x":1e400}', b'{"x":-1e400}', b'{"x":NaN}', b'{"x":Infinity}', b'{"s":"\\ud800"}',
    b'{"s":"\\ud83d\\ude00"}', b'\xef\xbb\xbf{"a":1}', b'{"a":1} ', b'{"a":"\xff"}',
    b'{"a":' + b'[' * 3000 + b']' * 3000 + b'}', b'null',
    b'{"u":"https://x.test/?id=1234567890123456789012"}',
    b'{"a":0.12345678901234567890123}', b'{"a":1E5,"b":-0.0,"c":5e-324}'])
def test_bodies_read_as_the_json_module_reads_them(body):
    """orjson reads most bodies; every body gives the object (same types, same values:
    compared by repr, so an int stays an int) or the error the json module gives."""
    got, want = readings(body)
    assert repr(got) == repr(want)


def test_a_snapshot_body_mutated_reads_as_the_json_module_reads_it():
    import random
    from builders import make_snapshot
    base = json.dumps({"v": 1, "id": 7, "action": "select", "params": {"snapshot": make_snapshot(
        [("html", -1), ("body", 0), ("p", 1, {"text": "Héllo wörld 12345 😀"})])}}).encode()
    rng = random.Random(13)
    pieces = [b"1", b"9" * 20, b"-", b".", b"e", b"\\ud800", b'"', b",", b"]", b"}", b"\xff", b" "]
    for _ in range(3000):
        body = bytearray(base)
        for _ in range(rng.randint(1, 3)):
            at = rng.randrange(len(body))
            body[at:at + rng.randint(0, 3)] = rng.choice(pieces)
        got, want = readings(bytes(body))
        assert repr(got) == repr(want), bytes(body)


# --- numbers ------------------------------------------------------------------------
@pytest.mark.parametrize("number", [b"1e400", b"-1e400", b"2e308", b"1e99999"])
def test_a_number_beyond_a_double_is_frame_bad_number(number):
    with pytest.raises(FrameBadNumber):
        framing.decode_body(b'{"a":' + number + b"}")


@pytest.mark.parametrize("number", [b"1.7976931348623157e308", b"1e-400", b"-0.0"])
def test_numbers_within_a_double_read(number):
    assert framing.decode_body(b'{"a":' + number + b"}") == json.loads(b'{"a":' + number + b"}")
