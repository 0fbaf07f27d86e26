"""Tests of native/shape.py: a frame body's depth and decoded size are bounded before it is decoded."""
import io
import json

import pytest

from pith.errors import FrameTooComplex, FrameTooDeep
from pith.native import framing, shape
from test_framing import frame_of


@pytest.mark.parametrize("opener,closer", [(b"[", b"]"), (b'{"k":', b"}")])
def test_nesting_at_the_limit_reads_and_one_more_is_frame_too_deep(opener, closer):
    at = b'{"a":' + opener * (shape.MAX_DEPTH - 1) + b"1" + closer * (shape.MAX_DEPTH - 1) + b"}"
    assert framing.decode_body(at)["a"]
    over = b'{"a":' + opener * shape.MAX_DEPTH + b"1" + closer * shape.MAX_DEPTH + b"}"
    with pytest.raises(FrameTooDeep) as err:
        framing.decode_body(over)
    assert err.value.detail == {"depth": shape.MAX_DEPTH + 1, "limit": shape.MAX_DEPTH}


@pytest.mark.parametrize("body", [b"[" * 100_000, b'{"a":' * 3000 + b"1" + b"}" * 3000])
def test_a_runaway_nesting_is_frame_too_deep(body):
    with pytest.raises(FrameTooDeep):
        framing.read_frame(io.BytesIO(frame_of(body)))


@pytest.mark.parametrize("text", [r'"[[[[\"[[[["', r'"\\\\[[[["', r'"a\\"', r'"\\\"[["',
                                  r'"{\\\\\\\"[{"'])
def test_brackets_inside_strings_are_not_nesting(text):
    strings = ",".join([text] * (shape.MAX_DEPTH * 2)).encode()
    body = b'{"a":[' + strings + b"]}"
    assert shape.depth(body) == 2
    assert framing.decode_body(body) == json.loads(body)


def test_depth_is_exact_across_the_pieces_of_the_scan(monkeypatch):
    monkeypatch.setattr(shape, "_CHUNK", 7)
    body = b'{"s":"]]]]]]]]]]]]","a":' + b"[" * 200 + b'"}}}}}}}}}"' + b"]" * 200 + b"}"
    assert shape.depth(body) == 201


@pytest.mark.parametrize("item", [b"{}", b"[]", b'"a"', b"0", b"1.5", b'{"k":1}'])
def test_a_body_estimated_just_over_the_memory_bound_is_frame_too_complex(monkeypatch, item):
    """The bound holds for every kind of value: at a limit just under a body's estimate
    the body is refused before it is decoded, at its estimate it reads."""
    body = b'{"a":[' + b",".join([item] * 5000) + b"]}"
    estimate = shape.measure(body).estimate
    monkeypatch.setattr(shape, "MAX_DECODED_BYTES", estimate)
    monkeypatch.setattr(shape.check, "__defaults__", (shape.MAX_DEPTH, estimate))
    assert len(framing.decode_body(body)["a"]) == 5000
    monkeypatch.setattr(shape.check, "__defaults__", (shape.MAX_DEPTH, estimate - 1))
    with pytest.raises(FrameTooComplex) as err:
        framing.decode_body(body)
    assert err.value.detail == {"estimate": estimate, "limit": estimate - 1}


def test_the_estimate_is_an_upper_bound_of_what_decoding_takes():
    """Measured, not assumed: for each kind of value the real decoded size (a child
    process's peak memory, beyond its baseline) stays under the estimate."""
    import subprocess, sys
    code = (
        "import sys, resource, orjson; item = sys.argv[1].encode(); n = 2_000_000\n"
        "body = b'{\"a\":[' + (item + b',') * (n - 1) + item + b']}'\n"
        "base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss\n"
        "obj = orjson.loads(body)\n"
        "print(len(body), (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - base) * 1024)\n")
    for item in ('{}', '[]', '"a"', '""', '0', '1.5', '12345', '{"k":1}', '[0]', '"ab"'):
        out = subprocess.run([sys.executable, "-c", code, item], capture_output=True,
                             text=True, check=True).stdout.split()
        size, grown = int(out[0]), int(out[1])
        body = b'{"a":[' + ((item + ",").encode() * 2_000_000)[:-1] + b"]}"
        assert len(body) == size
        assert grown < shape.measure(body).estimate, item
