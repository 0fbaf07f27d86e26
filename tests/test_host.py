"""The stdio host: a real `python -m pith.native.host` process on pipes, plus the loop in memory."""
import io
import json
import os
import struct
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from pith.native import framing, host, protocol

HOST_DIR = Path(__file__).resolve().parents[1] / "host"

# Generous: a cold interpreter start plus a few frames takes well under a second.
PROCESS_TIMEOUT = 30

# Arguments the browsers pass: Chrome the origin (and on Windows a window handle),
# Firefox the manifest path and the extension id.
CHROME_ARGS = ["chrome-extension://abcdefghijklmnopabcdefghijklmnop/", "--parent-window=0"]
FIREFOX_ARGS = ["/home/u/.mozilla/native-messaging-hosts/pith.json", "pith@example.org"]

try:
    import pith.pipeline.select  # noqa: F401
    HAVE_SELECT = True
except ImportError:
    HAVE_SELECT = False


def host_env(**extra) -> dict:
    """The environment for a host subprocess: `pith` importable whether installed or not."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(
        [str(HOST_DIR)] + ([env["PYTHONPATH"]] if env.get("PYTHONPATH") else []))
    env.pop("PITH_LOG", None)
    env.update(extra)
    return env


def frame(obj) -> bytes:
    return frame_raw(json.dumps(obj).encode("utf-8"))


def frame_raw(body: bytes) -> bytes:
    return struct.pack("=I", len(body)) + body


def parse_all_frames(data: bytes) -> list[dict]:
    """Every byte of `data` must belong to a well-formed frame of a JSON object.

    Written independently of pith.native.framing so that a bug there cannot hide here.
    """
    out, pos = [], 0
    while pos < len(data):
        assert pos + 4 <= len(data), f"stray bytes at {pos}: {data[pos:pos + 80]!r}"
        (length,) = struct.unpack("=I", data[pos:pos + 4])
        assert length <= framing.MAX_OUT, f"not a frame at {pos}: {data[pos:pos + 80]!r}"
        body = data[pos + 4:pos + 4 + length]
        assert len(body) == length, f"frame at {pos} cut short: {data[pos:pos + 80]!r}"
        obj = json.loads(body.decode("utf-8"))
        assert isinstance(obj, dict)
        out.append(obj)
        pos += 4 + length
    return out


def run_host(stdin: bytes, args=(), cmd=None, **env) -> subprocess.CompletedProcess:
    cmd = cmd or [sys.executable, "-m", "pith.native.host"]
    return subprocess.run([*cmd, *args], input=stdin, capture_output=True,
                          env=host_env(**env), timeout=PROCESS_TIMEOUT)


def req(action, id, **params):
    return {"v": 1, "id": id, "action": action, **params}


# --- a real process on pipes ------------------------------------------------------
@pytest.mark.parametrize("args", [[], CHROME_ARGS, FIREFOX_ARGS])
def test_session_over_pipes(args):
    stdin = b"".join([
        frame(req("hello", 1)),
        frame(req("echo", "e", data="héllo 😀")),
        frame_raw(b"this is not json"),
        frame_raw(b'{"v":1,"id":9,"action":"echo","data":"\xff"}'),
        frame_raw(b"[1, 2, 3]"),
        frame({"v": 1, "action": "hello"}),
        frame(req("explode", 3)),
        frame({"v": 2, "id": 4, "action": "hello"}),
        frame(req("echo", 5, data=list(range(10)))),
    ])
    proc = run_host(stdin, args)
    assert proc.returncode == 0, proc.stderr.decode()
    replies = parse_all_frames(proc.stdout)
    assert [(r["id"], r["ok"]) for r in replies] == [
        (1, True), ("e", True), (None, False), (None, False), (None, False),
        (None, False), (3, False), (4, False), (5, True)]
    hello = replies[0]["result"]
    assert hello["host"] == "pith" and hello["protocol"] == 1
    assert replies[1]["result"] == {"echo": "héllo 😀"}
    codes = [r["error"]["code"] for r in replies if not r["ok"]]
    assert codes == [13, 12, 13, 20, 22, 21]
    assert replies[8]["result"] == {"echo": list(range(10))}
    assert b"Traceback" not in proc.stderr


def test_empty_input_exits_zero_with_no_output():
    proc = run_host(b"")
    assert (proc.returncode, proc.stdout) == (0, b"")


def test_truncated_body_replies_once_and_exits_one():
    stdin = frame(req("hello", 1)) + frame(req("echo", 2, data="x"))[:-5]
    proc = run_host(stdin)
    assert proc.returncode == 1
    replies = parse_all_frames(proc.stdout)
    assert [r["id"] for r in replies] == [1, None]
    assert replies[1]["error"]["code"] == 10
    assert "got" in replies[1]["error"]["message"]


def test_truncated_header_replies_once_and_exits_one():
    proc = run_host(b"\x05\x00")
    assert proc.returncode == 1
    (reply,) = parse_all_frames(proc.stdout)
    assert reply["error"]["code"] == 10 and reply["id"] is None


def test_oversize_frame_is_refused_without_waiting_for_its_body():
    # Only the header is sent and stdin stays open: if the host tried to read the
    # 100 MB body it would block until the timeout instead of replying and exiting.
    proc = subprocess.Popen([sys.executable, "-m", "pith.native.host"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=host_env())
    try:
        proc.stdin.write(frame(req("hello", 1)) + struct.pack("=I", 100 * 1024 * 1024))
        proc.stdin.flush()
        assert proc.wait(timeout=PROCESS_TIMEOUT) == 1
        replies = parse_all_frames(proc.stdout.read())
    finally:
        proc.kill()
        proc.stdin.close()
        proc.stdout.close()
        proc.stderr.close()
    assert [r["id"] for r in replies] == [1, None]
    assert replies[1]["error"]["code"] == 11


def test_oversize_reply_becomes_an_error_and_the_host_goes_on():
    stdin = (frame(req("echo", "big", data="x" * framing.MAX_OUT))
             + frame(req("echo", "small", data="ok")))
    proc = run_host(stdin)
    assert proc.returncode == 0
    big, small = parse_all_frames(proc.stdout)
    assert big["id"] == "big" and big["error"]["code"] == 24
    assert small["result"] == {"echo": "ok"}


def test_log_level_from_environment_goes_to_stderr_only():
    proc = run_host(frame(req("hello", 1)), PITH_LOG="debug")
    assert proc.returncode == 0
    assert len(parse_all_frames(proc.stdout)) == 1
    assert b"DEBUG" in proc.stderr and b"hello" in proc.stderr


def test_bad_log_level_is_a_warning_not_a_failure():
    proc = run_host(frame(req("hello", 1)), PITH_LOG="loud")
    assert proc.returncode == 0
    assert len(parse_all_frames(proc.stdout)) == 1
    assert b"PITH_LOG" in proc.stderr


@pytest.mark.skipif(not HAVE_SELECT, reason="pith.pipeline.select not written yet")
def test_select_errors_cross_the_pipe():
    proc = run_host(frame(req("select", 1, snapshot={"v": 1})))
    assert proc.returncode == 0, proc.stderr.decode()
    (reply,) = parse_all_frames(proc.stdout)
    assert reply["id"] == 1 and reply["error"]["code"] == 30


# --- the stdout guard ---------------------------------------------------------------
# A wrapper that runs the real `main()` with the echo action replaced by one that writes
# to stdout in every way a dependency could: print(), the raw file descriptor, a child
# process inheriting it, and an unflushed print left for interpreter exit.
NOISY_WRAPPER = textwrap.dedent("""
    import os, subprocess, sys
    from pith.native import host, protocol

    original = protocol.ACTIONS["echo"]

    def noisy(params, session):
        print("NOISE-print-before")
        sys.stdout.flush()
        os.write(1, b"NOISE-fd-write\\n")
        subprocess.run([sys.executable, "-c", "print('NOISE-child')"], check=True)
        result = original.run(params, session)
        print("NOISE-print-after", end="")
        return result

    protocol.ACTIONS["echo"] = protocol.Action(noisy, original.params)
    if "--no-guard" in sys.argv:  # the control run: what happens without the guard
        host.claim_stdout = lambda: sys.stdout.buffer
    raise SystemExit(host.main())
""")

NOISES = [b"NOISE-print-before", b"NOISE-fd-write", b"NOISE-child", b"NOISE-print-after"]


@pytest.fixture
def noisy_host(tmp_path):
    path = tmp_path / "noisy_host.py"
    path.write_text(NOISY_WRAPPER)
    return [sys.executable, str(path)]


def test_stdout_guard_keeps_noise_off_the_pipe(noisy_host):
    stdin = frame(req("echo", 1, data="a")) + frame(req("echo", 2, data="b"))
    proc = run_host(stdin, cmd=noisy_host)
    assert proc.returncode == 0, proc.stderr.decode()
    replies = parse_all_frames(proc.stdout)  # nothing but frames ...
    assert [r["result"]["echo"] for r in replies] == ["a", "b"]
    for noise in NOISES:  # ... and the noise really happened, on stderr
        assert proc.stderr.count(noise) == 2, (noise, proc.stderr)


def test_without_the_guard_the_same_noise_corrupts_stdout(noisy_host):
    # The control for the test above: proves that the wrapper's noise would be caught.
    proc = run_host(frame(req("echo", 1, data="a")), args=["--no-guard"], cmd=noisy_host)
    assert any(noise in proc.stdout for noise in NOISES)
    with pytest.raises(AssertionError):
        parse_all_frames(proc.stdout)


# --- the loop in memory -----------------------------------------------------------
class ClosedPipe(io.BytesIO):
    """A stdout whose reader has gone away."""

    def write(self, data):
        raise BrokenPipeError(32, "Broken pipe")


def test_serve_in_memory_until_eof():
    stdin = io.BytesIO(frame(req("hello", 1)) + frame_raw(b"{") + frame(req("echo", 2)))
    stdout = io.BytesIO()
    assert host.serve(stdin, stdout) == host.EXIT_OK
    replies = parse_all_frames(stdout.getvalue())
    assert [(r["id"], r["ok"]) for r in replies] == [(1, True), (None, False), (2, True)]


def test_serve_keeps_its_session_between_requests(monkeypatch):
    session = protocol.Session()
    monkeypatch.setitem(protocol.ACTIONS, "echo", protocol.Action(
        lambda params, s: {"same": s is session}, ("data",)))
    stdout = io.BytesIO()
    host.serve(io.BytesIO(frame(req("echo", 1)) * 2), stdout, session)
    assert [r["result"] for r in parse_all_frames(stdout.getvalue())] == [{"same": True}] * 2


def test_serve_survives_a_bug_in_a_handler(monkeypatch):
    def broken(params, session):
        raise KeyError("oops")
    monkeypatch.setitem(protocol.ACTIONS, "echo", protocol.Action(broken, ("data",)))
    stdout = io.BytesIO()
    assert host.serve(io.BytesIO(frame(req("echo", 1)) + frame(req("hello", 2))),
                      stdout) == host.EXIT_OK
    first, second = parse_all_frames(stdout.getvalue())
    assert first["error"]["code"] == 1 and first["id"] == 1
    assert second["ok"] is True


def test_serve_exits_one_on_an_unrecoverable_frame():
    stdout = io.BytesIO()
    stdin = io.BytesIO(struct.pack("=I", framing.MAX_IN + 1) + frame(req("hello", 1)))
    assert host.serve(stdin, stdout) == host.EXIT_BROKEN_STREAM
    (reply,) = parse_all_frames(stdout.getvalue())
    assert reply["error"]["code"] == 11


def test_serve_ends_quietly_when_the_browser_closes_the_pipe():
    stdin = io.BytesIO(frame(req("hello", 1)) + frame(req("hello", 2)))
    assert host.serve(stdin, ClosedPipe()) == host.EXIT_OK


# --- the time limit (deadline.py) ----------------------------------------------------
def many_sections(sections: int) -> dict:
    """A snapshot of html > body > (section > h2, p) * `sections`: large enough that a
    select takes far more than the smallest allowed time limit."""
    from builders import make_snapshot
    rows = [("html", -1), ("body", 0)]
    for k in range(sections):
        rows += [("section", 1), ("h2", len(rows), {"text": f"Part {k}"}),
                 ("p", len(rows), {"text": "Words of a story that goes on for a while. " * 3})]
    return make_snapshot(rows)


@pytest.mark.skipif(not HAVE_SELECT, reason="pith.pipeline.select not written yet")
def test_a_select_over_the_time_limit_is_cut_off_and_the_host_goes_on():
    small = many_sections(3)
    stdin = (frame(req("select", "slow", snapshot=many_sections(20_000),
                       options={"max_request_ms": 100}))
             + frame(req("echo", "next", data="still here"))
             + frame(req("select", "small", snapshot=small)))
    proc = run_host(stdin)
    assert proc.returncode == 0, proc.stderr.decode()
    slow, echo, fine = parse_all_frames(proc.stdout)
    assert slow["id"] == "slow" and slow["ok"] is False
    assert (slow["error"]["code"], slow["error"]["name"]) == (70, "request_too_slow")
    assert slow["error"]["detail"] == {"limit_ms": 100, "action": "select"}
    assert echo["result"] == {"echo": "still here"}
    assert fine["ok"] is True and fine["result"]["doc"] == "d1"   # the cut one was not cached


# A host whose select never ends, and whose first cut is swallowed by a careless
# `except Exception`: the timer fires again until the request unwinds.
HANGING_WRAPPER = textwrap.dedent("""
    import sys, types
    from pith.native import host

    def select(snapshot, options, pin=None, consume=False):
        try:
            while True:
                pass
        except Exception:
            pass
        while True:
            pass

    sys.modules["pith.pipeline.select"] = types.SimpleNamespace(select=select)
    raise SystemExit(host.main())
""")


def test_a_hanging_algorithm_is_cut_off_even_if_it_swallows_the_first_cut(tmp_path):
    path = tmp_path / "hanging_host.py"
    path.write_text(HANGING_WRAPPER)
    stdin = (frame(req("select", 1, snapshot={"v": 1}, options={"max_request_ms": 200}))
             + frame(req("echo", 2, data="after")))
    proc = run_host(stdin, cmd=[sys.executable, str(path)])
    assert proc.returncode == 0, proc.stderr.decode()
    cut, echo = parse_all_frames(proc.stdout)
    assert cut["error"]["code"] == 70
    assert echo["result"] == {"echo": "after"}


# --- what a frame may expand into (shape.py; issue 34, finding 7 and 3) ---------------
def serve_frames(*bodies: bytes) -> list[dict]:
    """The replies of an in-memory host to these raw bodies, then a hello."""
    stdout = io.BytesIO()
    stdin = io.BytesIO(b"".join(frame_raw(b) for b in bodies) + frame(req("hello", "after")))
    assert host.serve(stdin, stdout) == host.EXIT_OK
    replies = parse_all_frames(stdout.getvalue())
    assert replies[-1]["id"] == "after" and replies[-1]["ok"] is True   # the host goes on
    return replies[:-1]


@pytest.mark.parametrize("number", [b"1e400", b"-1e400", b"1E+999", b"123456789e301"])
def test_an_echo_of_a_number_beyond_a_double_is_frame_bad_number(number):
    (reply,) = serve_frames(b'{"v":1,"id":1,"action":"echo","data":[' + number + b"]}")
    assert (reply["error"]["code"], reply["error"]["name"]) == (14, "frame_bad_number")


def test_an_echo_nested_1000_deep_is_frame_too_deep():
    body = b'{"v":1,"id":1,"action":"echo","data":' + b"[" * 1000 + b"]" * 1000 + b"}"
    (reply,) = serve_frames(body)
    assert (reply["error"]["code"], reply["error"]["name"]) == (15, "frame_too_deep")


def test_a_64_mib_frame_of_empty_objects_is_refused_before_it_is_built():
    items = (framing.MAX_IN - 64) // 3
    body = b'{"v":1,"id":1,"action":"echo","data":[' + b"{}," * (items - 1) + b"{}]}"
    assert len(body) <= framing.MAX_IN
    (reply,) = serve_frames(body)
    assert (reply["error"]["code"], reply["error"]["name"]) == (16, "frame_too_complex")


def snapshot_body(**fields) -> bytes:
    """A select of a small valid snapshot with `fields` set; the string "BIG" in them
    becomes an integer of 401 digits (valid JSON, beyond a double)."""
    from builders import make_snapshot
    snap = make_snapshot([("html", -1), ("body", 0), ("p", 1, {"text": "Some words here."})])
    snap.update(fields)
    body = json.dumps({"v": 1, "id": 1, "action": "select", "snapshot": snap}).encode()
    return body.replace(b'"BIG"', b"1" + b"0" * 400)


@pytest.mark.parametrize("body", [
    # an integer beyond a double where a float is read (issue 34, finding 7's siblings)
    b'{"v":1,"id":1,"action":"select","snapshot":{},"options":{"hidden_min_visible":1'
    + b"0" * 400 + b"}}",
    snapshot_body(capture_ms="BIG"),
    snapshot_body(viewport=["BIG", 1]),
    snapshot_body(page=[1, "BIG"]),
])
def test_an_integer_beyond_a_double_where_a_number_is_read_is_not_internal(body):
    (reply,) = serve_frames(body)
    assert reply["ok"] or reply["error"]["code"] != 1, reply["error"]
