"""pith.pages.inputs: inputs of the CLI, and the static fallback for rendered pages without text."""
from __future__ import annotations

import numpy as np
import pytest

from builders import make_snapshot, preorder
from conftest import chromium_or_skip
from pith.pages import inputs
from pith.pipeline import features
from pith.pipeline.options import Options
from pith.pipeline.select import select

APP_SHELL = """<!DOCTYPE html><html><head><title>Forum</title>
<script>document.documentElement.dataset.app = 'loading';</script></head>
<body><div id="app"></div>
<noscript><div class="post"><p>The first post of the thread, kept here for crawlers and for
readers without scripts, with enough words to be the content of the page.</p></div></noscript>
</body></html>"""


def test_has_text_ignores_code_and_counts_hidden_text():
    code_only = make_snapshot([("html", -1), ("body", 0), ("script", 1, {"text": "var a = 1;"}),
                               ("noscript", 1, {"text": "<p>raw</p>"})])
    hidden = make_snapshot([("html", -1), ("body", 0), ("p", 1, {"text": "later", "hidden": 4})])
    assert not inputs.has_text(code_only)
    assert inputs.has_text(hidden)
    assert inputs.has_text({"v": 1, "nodes": "broken"})     # select says what is wrong
    assert not inputs.has_text({"v": 1, "n": 0, "nodes": {}})   # a document without root


def test_the_text_check_agrees_with_the_features_on_random_trees():
    """text_check reads only the text counts and the code rows; the full features
    (skip_hidden=False) are its definition: text outside code, hidden or not."""
    rng = np.random.default_rng(11)
    tags = ["div", "p", "script", "style", "head", "noscript", "span"]
    for trial in range(300):
        size = int(rng.integers(2, 14))
        parents = [-1] + [int(rng.integers(0, i)) for i in range(1, size)]
        order, row_of = preorder(parents)
        rows = [("html", -1)]
        for node in order[1:]:
            cols = {"hidden": int(rng.choice([0, 0, 1, 4]))}
            if rng.random() < 0.25:
                cols["text"] = str(rng.choice(["", "  ", "word"]))
            if rng.random() < 0.25:
                cols["tail"] = str(rng.choice(["", "\n", "tail"]))
            rows.append((str(rng.choice(tags)), row_of[parents[node]], cols))
        shown, snap = inputs.text_check(make_snapshot(rows))
        assert shown == (int(features.compute(snap, skip_hidden=False).chars[0]) > 0), trial


def test_a_rendered_capture_is_validated_once_under_the_callers_limit(tmp_path, monkeypatch):
    """The text check's Snapshot is the one select runs on (a million-row page was
    validated twice: two seconds); it is built under the Capturer's max_nodes, so a
    lower limit than the default still refuses the page."""
    chromium_or_skip()
    from pith.errors import SnapshotTooLarge
    from pith.pipeline import snapshot as snapshot_mod
    page = tmp_path / "plain.html"
    page.write_text("<!DOCTYPE html><title>t</title><main><p>Plain visible text, enough of "
                    "it to be the page's content.</p></main>", encoding="utf-8")
    calls = []
    real = snapshot_mod.from_json
    monkeypatch.setattr(snapshot_mod, "from_json", lambda *a: calls.append(a[1]) or real(*a))
    with inputs.Capturer(max_nodes=1000) as capturer:
        captured = capturer.capture(str(page))
    assert calls == [1000]
    assert isinstance(captured.validated, snapshot_mod.Snapshot)
    assert captured.for_select is captured.validated
    assert "Plain visible text" in select(captured.for_select).output("text")
    assert len(calls) == 1                          # select took it as it was
    with inputs.Capturer(max_nodes=3) as capturer:
        captured = capturer.capture(str(page))
    assert captured.validated is None           # too large: select, given the capture, says so
    assert captured.for_select is captured.snapshot
    with pytest.raises(SnapshotTooLarge):
        select(captured.snapshot, Options.from_overrides({"max_nodes": 3}))


def test_a_rendered_page_without_text_falls_back_to_the_static_snapshot(tmp_path):
    chromium_or_skip()
    page = tmp_path / "shell.html"
    page.write_text(APP_SHELL, encoding="utf-8")
    with inputs.Capturer() as capturer:
        snap = capturer.capture(str(page)).snapshot
    assert snap["fallback"] == "static" and snap["layout"] is False
    assert "rendered_no_text" in [w["code"] for w in snap["warnings"]]
    assert any("first post of the thread" in t for t in snap["nodes"]["text"])


# The same forum as an app shell that draws a splash line before its scripts fail: the
# rendered page shows that line only, the posts wait in the noscript for crawlers.
SPLASH_SHELL = APP_SHELL.replace('<div id="app"></div>',
                                 '<div id="app"><a href="/">Back to the forum</a></div>')

POSTS_MARKUP = ("<style>.post{color:red}</style><div class='post'><p>The first post of the "
                "thread, kept for crawlers, with enough words to be the page.</p></div>")


def test_a_page_its_scripts_did_not_draw_is_told_apart_from_a_drawn_one():
    """`rendered_fallback`: a rendered capture that shows less than half the text its
    noscripts hold (their markup's text, styles left out) is taken again without scripts;
    one that shows more, or whose noscript holds a tracking pixel only, stands."""
    def page(shown: str, noscript: str) -> dict:
        return make_snapshot([("html", -1), ("body", 0), ("a", 1, {"text": shown}),
                              ("noscript", 1, {"text": noscript, "hidden": 1})], layout=True)
    assert inputs.rendered_fallback(page("Back to the forum", POSTS_MARKUP)) == \
        "rendered_noscript"
    drawn = "The first post of the thread, drawn by the page's own scripts for its reader."
    assert inputs.rendered_fallback(page(drawn, POSTS_MARKUP)) is None
    pixel = '<img src="https://tracker.example/p.gif" width="1" height="1" alt="">'
    assert inputs.rendered_fallback(page("Back to the forum", pixel)) is None
    styled = "<style>" + "a { color: red } " * 50 + "</style>"
    assert inputs.rendered_fallback(page("Back to the forum", styled)) is None
    assert inputs.rendered_fallback(page("", POSTS_MARKUP)) == "rendered_no_text"


def test_a_hostile_noscript_is_read_in_linear_time():
    """The noscripts' text is read by the HTML parser, not by a pattern with a back-reference
    (one that rescans the rest of the markup from every unclosed `<style`): 100,000
    unclosed openings and 200,000 nested divs are told apart from the shown text at once."""
    import time
    unclosed = "<style>" * 100_000 + "<p>" + "a post's words " * 1000
    nested = "<div>" * 200_000 + "a post's words " * 1000
    for markup in (unclosed, nested):
        obj = make_snapshot([("html", -1), ("body", 0), ("a", 1, {"text": "Back"}),
                             ("noscript", 1, {"text": markup, "hidden": 1})], layout=True)
        t0 = time.perf_counter()
        code = inputs.rendered_fallback(obj)
        assert time.perf_counter() - t0 < 20.0         # seconds, on a loaded machine
        assert code == ("rendered_noscript" if markup is nested else None)


def test_a_rendered_page_showing_a_splash_line_falls_back_to_its_noscript_posts(tmp_path):
    chromium_or_skip()
    page = tmp_path / "splash.html"
    page.write_text(SPLASH_SHELL, encoding="utf-8")
    with inputs.Capturer() as capturer:
        snap = capturer.capture(str(page)).snapshot
    assert snap["fallback"] == "static" and snap["layout"] is False
    assert "rendered_noscript" in [w["code"] for w in snap["warnings"]]
    assert "first post of the thread" in select(snap).output("text")


def test_a_rendered_page_with_text_is_kept(tmp_path):
    chromium_or_skip()
    page = tmp_path / "plain.html"
    page.write_text("<!DOCTYPE html><title>t</title><p>Plain visible text.</p>", encoding="utf-8")
    with inputs.Capturer() as capturer:
        snap = capturer.capture(str(page)).snapshot
    assert "fallback" not in snap and snap["layout"] is True


def test_static_fetch_failures_in_words():
    import socket
    from pith.errors import FetchFailed
    with pytest.raises(FetchFailed) as err:
        inputs.fetch("http://nonexistent.invalid/", 10)
    assert err.value.message == ("http://nonexistent.invalid/: cannot reach nonexistent.invalid: "
                                 "name not resolved")
    assert "Errno" in err.value.detail["reason"]          # the raw cause, for bug reports
    with socket.socket() as s:                           # a port that was free a moment ago
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    with pytest.raises(FetchFailed, match=f"cannot reach 127.0.0.1:{port}: connection refused$"):
        inputs.fetch(f"http://127.0.0.1:{port}/", 10)


@pytest.mark.parametrize("make", ["missing", "folder"])
def test_static_local_input_errors_name_the_path_once(tmp_path, make):
    from pith.errors import InputNotFound
    target = tmp_path / "nope.html" if make == "missing" else tmp_path
    with inputs.Capturer(static_mode=True) as capturer, pytest.raises(InputNotFound) as err:
        capturer.capture(str(target))
    assert err.value.message.count(str(target)) == 1
    assert err.value.message == (f"{target}: no such file" if make == "missing"
                                 else f"{target} is a directory, not an HTML file")


@pytest.mark.parametrize("target,code", [("/dev/zero", 59), ("data:text/html,<p>x</p>", 59),
                                         ("/no/such/page.html", None)])
def test_a_refused_input_starts_no_browser(monkeypatch, target, code):
    """A device, a FIFO or an unsupported scheme is refused before a browser is started for
    it: a run of only such inputs answers at once."""
    from pith.errors import PithError
    from pith.pages import browser

    def no_browser(*a, **k):
        raise AssertionError("a browser was started for a refused input")
    monkeypatch.setattr(browser, "Browser", no_browser)
    with inputs.Capturer(static_mode=False) as cap:
        with pytest.raises(PithError) as refused:
            cap.capture(target)
    assert code is None or refused.value.code == code
