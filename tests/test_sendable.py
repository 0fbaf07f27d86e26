"""extension/background/sendable.js, run by Node: long texts are cut with a warning each, and the frame check counts what was cut."""
from __future__ import annotations

import json
import subprocess

from conftest import ROOT

SENDABLE_JS = ROOT / "extension" / "background" / "sendable.js"

# Runs one call of the module on the JSON argument and prints what came back (or the error).
RUN_JS = """
const m = await import(process.argv[1]);
const arg = JSON.parse(process.argv[2]);
let out;
try {
  if (arg.call === 'cut') {
    const removed = m.cutLongTexts(arg.snapshot, arg.limit);
    out = {removed, snapshot: arg.snapshot};
  } else if (arg.call === 'refused') {
    m.checkRefusedInPage(arg.snapshot);
    out = {sent: true};
  } else {
    const text = 'x'.repeat(arg.chars);
    m.checkSendable(text, arg.removed);
    out = {sent: true};
  }
} catch (err) {
  out = {error: err.name, code: err.code, message: err.message};
}
console.log(JSON.stringify({...out, max_text: m.MAX_TEXT_CHARS, max_bytes: m.MAX_SNAPSHOT_BYTES}));
"""


def run(arg: dict) -> dict:
    done = subprocess.run(["node", "--input-type=module", "-e", RUN_JS, str(SENDABLE_JS),
                           json.dumps(arg)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_texts_and_tails_past_the_limit_are_cut_each_with_a_warning():
    snapshot = {"nodes": {"text": ["short", "abcdefghij", 7, ""], "tail": ["", "", "0123456789ab", None]},
                "warnings": [{"node": 0, "code": "cross_origin_frame", "message": "x"}]}
    out = run({"call": "cut", "snapshot": snapshot, "limit": 8})
    nodes = out["snapshot"]["nodes"]
    assert nodes["text"] == ["short", "abcdefgh", 7, ""]
    assert nodes["tail"] == ["", "", "01234567", None]
    assert out["removed"] == 2 + 4
    assert [(w["node"], w["code"]) for w in out["snapshot"]["warnings"]] == [
        (0, "cross_origin_frame"), (1, "text_cut"), (2, "text_cut")]
    assert "tail of 12 characters cut to 8" in out["snapshot"]["warnings"][2]["message"]
    assert out["max_text"] == 2 ** 20


def test_a_cut_never_splits_a_surrogate_pair_and_a_malformed_capture_is_left_alone():
    out = run({"call": "cut", "snapshot": {"nodes": {"text": ["abc\U0001F642def"]}}, "limit": 4})
    assert out["snapshot"]["nodes"]["text"] == ["abc"] and out["removed"] == 5
    for broken in ({"nodes": "broken"}, {"nodes": {"text": "not a list"}}, {}):
        assert run({"call": "cut", "snapshot": broken, "limit": 4})["removed"] == 0


def test_the_frame_check_counts_what_was_cut():
    """A capture over the 63 MiB a message may carry goes when enough was cut from it, and
    is refused with page_too_large (80) when it is still over."""
    limit = run({"call": "check", "chars": 1, "removed": 0})["max_bytes"]
    assert run({"call": "check", "chars": limit, "removed": 0})["sent"] is True
    refused = run({"call": "check", "chars": limit + 10, "removed": 5})
    assert refused["error"] == "page_too_large" and refused["code"] == 80, refused
    assert "pith extract URL" in refused["message"]
    assert run({"call": "check", "chars": limit + 10, "removed": 10})["sent"] is True


def test_a_capture_the_page_refused_is_page_too_large_with_its_size():
    """capture.js answers {too_large: {at_least, limit}} when its JSON is surely over the
    limit (tests/test_capture.py); the background turns that into page_too_large (80)."""
    refused = run({"call": "refused", "snapshot": {"v": 1, "n": 9, "too_large": {
        "at_least": 80 * 1024 * 1024, "limit": 66060288}}})
    assert refused["error"] == "page_too_large" and refused["code"] == 80, refused
    assert "capture is at least 80 MB" in refused["message"] and "pith extract URL" in refused["message"]
    assert run({"call": "refused", "snapshot": {"v": 1, "n": 3, "nodes": {}}})["sent"] is True
