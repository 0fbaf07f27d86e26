"""The extension end to end in headless Debian Chromium (Playwright): toolbar click, native host, overlay, failures.

One persistent Chromium for the module (DESIGN.md §5) with the unpacked extension and the
real host registered in its profile by `pith install-host --browser chromium
--user-data-dir DIR`; pages come from a throwaway http.server on 127.0.0.1. A click on
the toolbar button is `Extensions.triggerAction` (pith.pages.extension.ExtensionBrowser.click):
it runs the extension's own action.onClicked listener and grants activeTab as a real click
does; later commands go through the test hook, {type: "pith:command"} sent from the
extension's options page. The expected selection is what the host pipeline picks on the
page's recorded snapshot (tests/fixtures/pages/*/snapshot.json).
"""
from __future__ import annotations

import functools
import json
import time
from pathlib import Path

import pytest

from hostproc import kill_host
from serving import QuietHandler, serve

from conftest import (EARLIER_MODULE_JS, PAGES, ROOT, STORAGE_JS, chromium_or_skip,
                      registered_profile)
from pith.pages.extension import ELEMENT_AT_PATH_JS, ExtensionBrowser
from pith.pipeline.select import grow as host_grow
from pith.pipeline.select import select as host_select
from pith.pipeline.select import shrink as host_shrink

pytestmark = pytest.mark.browser

# The server stops itself after this long even if the module hangs.
# Sub-pixel rounding between the box and the element's client rect.
RECT_TOLERANCE_PX = 1.0
# How long the page may take to reflect a command sent by a key or a button.
OVERLAY_WAIT_S = 5.0
POLL_S = 0.02
# Generous ceilings for one warm grow/shrink as the background measures it (the budget is
# 50 ms; tests/bench_extension.py reports the real figures), so a loaded CI stays green.
PRESS_CEILING_MS = 500.0
# A page whose server stalls mid-document, to catch the page while it still parses.
STALL_S = 3.0
FIXTURE_PAGES = ("article", "boilerplate", "hidden", "shadow")
ROOT_EXT = ROOT / "extension"


class _Handler(QuietHandler):
    def do_GET(self):
        if self.path.startswith("/stalled"):
            # Half a document, then silence: document.readyState stays "loading".
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.end_headers()
            self.wfile.write(b"<!DOCTYPE html><html><head><title>stalled</title></head><body>"
                             b"<p>The first paragraph arrived; the rest is late." + b" " * 4096)
            self.wfile.flush()
            time.sleep(STALL_S)
            return
        super().do_GET()


@pytest.fixture(scope="module")
def server():
    with serve(PAGES, _Handler) as url:
        yield url


@pytest.fixture(scope="session")
def xb(playwright, tmp_path_factory):
    """Chromium with the extension; the host registered by the real `pith install-host`."""
    chromium_or_skip()
    profile = registered_profile(tmp_path_factory, "chromium-profile")
    with ExtensionBrowser(playwright, profile) as browser:
        yield browser


@functools.cache
def expected(page: str):
    """The host's Selection on the page's recorded snapshot."""
    snap = json.loads((PAGES / page / "snapshot.json").read_text(encoding="utf-8"))
    return host_select(snap)


def load(xb: ExtensionBrowser, url: str) -> None:
    xb.page.goto(url, wait_until="load")


def ok(reply: dict, what: str) -> dict:
    assert reply.get("ok") is True, f"{what}: {reply}"
    return reply


def wait_overlay(xb: ExtensionBrowser, predicate, what: str):
    deadline = time.monotonic() + OVERLAY_WAIT_S
    while True:
        ov = xb.overlay()
        # an overlay replaced between pinning its closed root and reading it is read again
        if predicate(ov) and (ov is None or ov["pinned"]):
            return ov
        if time.monotonic() > deadline:
            pytest.fail(f"{what}: not within {OVERLAY_WAIT_S} s; overlay is {ov}")
        time.sleep(POLL_S)


def assert_outlines(ov: dict | None, reply: dict) -> None:
    """The overlay marks the element of `reply`: attributes, box on its rect, outline."""
    assert ov is not None, "no #pith-overlay in the page"
    assert ov["under_root"] and not ov["open_shadow"] and ov["pinned"], ov   # closed: the page cannot reach in
    assert ov["node"] == reply["node"] and ov["path"] == reply["path"]
    assert ov["tag"] == reply["tag"] == ov["target_tag"], ov
    assert ov["box_position"] == "fixed" and ov["outline"] not in (None, "none"), ov
    box, target = ov["box"], ov["target"]
    assert target is not None and box[2] > 0 and box[3] > 0, ov
    assert all(abs(a - b) <= RECT_TOLERANCE_PX for a, b in zip(box, target)), (box, target)


# --- extract ------------------------------------------------------------------------------
@pytest.mark.parametrize("name", FIXTURE_PAGES)
def test_click_outlines_the_block_the_host_picks(xb, server, name):
    load(xb, f"{server}/{name}/source.html")
    reply = ok(xb.click(), f"click on {name}")
    want = expected(name).to_wire()
    assert (reply["path"], reply["tag"]) == (want["path"], want["tag"])
    ov = xb.overlay()
    assert_outlines(ov, reply)
    assert set(ov["buttons"]) == {"grow", "shrink", "edit", "comments", "remember", "reader", "close"}
    assert all(ov["buttons"].values()), ov["buttons"]          # every button has an aria-label
    state = ok(xb.state(), "state")
    assert (state["node"], state["path"], state["doc"]) == (reply["node"], reply["path"], reply["doc"])
    assert xb.badge()["text"] in (reply["tag"], "✓")
    t = reply["timings"]
    assert {"capture_ms", "transfer_ms", "host_ms", "highlight_ms", "total_ms"} <= set(t)


def test_box_follows_resizing_and_scrolling(xb, server):
    load(xb, f"{server}/article/source.html")
    reply = ok(xb.click(), "click")
    size = xb.page.viewport_size
    x0 = xb.overlay()["target"][0]
    xb.page.set_viewport_size({"width": 900, "height": 400})    # the centred article moves
    try:
        ov = wait_overlay(xb, lambda o: o and o["target"][0] != x0
                          and abs(o["box"][0] - o["target"][0]) <= RECT_TOLERANCE_PX,
                          "the box after resizing")
        assert_outlines(ov, reply)
        xb.page.evaluate("window.scrollBy(0, 150)")
        ov = wait_overlay(xb, lambda o: o and o["target"][1] < 0
                          and abs(o["box"][1] - o["target"][1]) <= RECT_TOLERANCE_PX,
                          "the box after scrolling")
        assert_outlines(ov, reply)
    finally:
        xb.page.set_viewport_size(size)


# --- grow, shrink, keys, buttons ---------------------------------------------------------
def grown_path(page: str) -> list[int]:
    """Where the host's grow goes from its choice on the page's recorded snapshot (the
    reader fixture: the article, grown past the same-text <main> to the page body)."""
    sel = expected(page)
    return host_grow(sel, sel.node)["path"]


def test_grow_selects_the_next_block_and_shrink_comes_back(xb, server):
    load(xb, f"{server}/reader/source.html")
    first = ok(xb.click(), "click")
    sel = expected("reader")
    grown = ok(xb.command("grow"), "grow")
    assert grown["path"] == grown_path("reader") and grown["path"] != first["path"]
    assert grown["path"] == first["path"][:len(grown["path"])]          # an ancestor
    assert_outlines(xb.overlay(), grown)
    assert ok(xb.state(), "state")["trail"] == [first["node"]]
    back = ok(xb.command("shrink"), "shrink")
    assert (back["node"], back["path"]) == (first["node"], first["path"])
    assert_outlines(xb.overlay(), back)
    best = ok(xb.command("shrink"), "shrink without trail")
    assert best["path"] == host_shrink(sel, sel.node)["path"]
    for reply in (grown, back, best):
        assert reply["timings"]["total_ms"] < PRESS_CEILING_MS, reply["timings"]


def test_keys_in_the_page(xb, server):
    load(xb, f"{server}/reader/source.html")
    first = ok(xb.click(), "click")
    xb.page.keyboard.press("+")
    wait_overlay(xb, lambda o: o and o["path"] == grown_path("reader"), "grow by '+'")
    xb.page.keyboard.press("-")
    ov = wait_overlay(xb, lambda o: o and o["path"] == first["path"], "shrink by '-'")
    assert_outlines(ov, first)
    xb.page.keyboard.press("Escape")
    wait_overlay(xb, lambda o: o is None, "no overlay after Escape")
    deadline = time.monotonic() + OVERLAY_WAIT_S
    while xb.state()["node"] is not None:
        assert time.monotonic() < deadline, "the selection outlived Escape"
        time.sleep(POLL_S)
    assert xb.badge()["text"] == ""


def test_bar_buttons(xb, server):
    # the reader fixture: with the block stage the host's element on the boilerplate page
    # is already its body (select grows the method's choice once), which cannot grow
    load(xb, f"{server}/reader/source.html")
    ok(xb.click(), "click")
    xb.click_part("grow")             # closed shadow root: a trusted click where the button is
    wait_overlay(xb, lambda o: o and o["path"] == grown_path("reader"), "grow button")
    xb.click_part("close")
    wait_overlay(xb, lambda o: o is None, "close button")


def test_reader_shows_the_selected_block(xb, server):
    """The reader tab holds every paragraph of the outlined element (tests/test_e2e_reader.py
    checks the reader view itself in depth) but the byline line, which its header shows."""
    load(xb, f"{server}/article/source.html")
    first = ok(xb.click(), "click")
    paragraphs = xb.page.evaluate(
        f"(p) => [...({ELEMENT_AT_PATH_JS})(p).querySelectorAll('p:not(.byline)')]"
        ".map(e => e.innerText.replace(/\\s+/g, ' ').trim()).filter(Boolean)", first["path"])
    reader, reply, _ = xb.open_reader()
    try:
        shown = reader.evaluate("() => document.querySelector('article').innerText.replace(/\\s+/g, ' ')")
        assert paragraphs and all(p in shown for p in paragraphs), (paragraphs, shown)
        assert reply["path"] == first["path"]
    finally:
        reader.close()


def test_extract_again_gives_one_overlay_and_the_same_block(xb, server):
    load(xb, f"{server}/article/source.html")
    first = ok(xb.click(), "click")
    again = ok(xb.command("extract"), "extract again")
    assert (again["node"], again["path"]) == (first["node"], first["path"])
    assert xb.page.evaluate("document.querySelectorAll('pith-overlay').length") == 1


# --- failures and recovery ---------------------------------------------------------------
def test_nothing_selected(xb, server):
    load(xb, f"{server}/article/source.html")
    ok(xb.click(), "click")
    ok(xb.command("close"), "close")
    reply = xb.command("grow")
    assert reply["ok"] is False and reply["error"]["name"] == "no_selection"
    assert reply["error"]["code"] == 66


def _wait_gone(pid: int) -> None:
    deadline = time.monotonic() + OVERLAY_WAIT_S
    while Path(f"/proc/{pid}").exists():
        try:
            status = Path(f"/proc/{pid}/status").read_text()
        except (FileNotFoundError, ProcessLookupError):   # gone between the two looks (a
            return                   # process being reaped reads as ESRCH, not ENOENT)
        if "State:\tZ" in status:
            return                   # a zombie until Chromium reaps it: dead all the same
        assert time.monotonic() < deadline, f"host {pid} still alive"
        time.sleep(POLL_S)


def test_killed_host_restarts_on_the_next_command(xb, server):
    load(xb, f"{server}/reader/source.html")
    first = ok(xb.click(), "click")
    pid = ok(xb.hello(), "hello")["hello"]["pid"]
    kill_host(pid)
    _wait_gone(pid)
    grown = ok(xb.command("grow"), "grow after the host was killed")
    assert grown["path"] == grown_path("reader")
    assert_outlines(xb.overlay(), grown)
    assert ok(xb.hello(), "hello")["hello"]["pid"] != pid
    again = ok(xb.command("extract"), "extract after the host was killed")
    assert again["path"] == first["path"]


def test_reader_opens_after_the_host_was_killed(xb, server):
    """The host's `clean` finds its document gone with the old process: the page is
    captured again, the selection re-found by its path, and the reader opens."""
    load(xb, f"{server}/reader/source.html")
    first = ok(xb.click(), "click")
    pid = ok(xb.hello(), "hello")["hello"]["pid"]
    kill_host(pid)
    _wait_gone(pid)
    reader, reply, _ = xb.open_reader()
    try:
        assert reply["path"] == first["path"]
        assert "Lichens are not plants" in reader.evaluate("() => document.querySelector('article').innerText")
    finally:
        reader.close()


def test_stopped_service_worker_keeps_the_selection(xb, server):
    load(xb, f"{server}/reader/source.html")
    first = ok(xb.click(), "click")
    grown = ok(xb.command("grow"), "grow")
    session = xb.context.new_cdp_session(xb.page)
    try:
        session.send("ServiceWorker.enable")
        session.send("ServiceWorker.stopAllWorkers")
    finally:
        session.detach()
    state = ok(xb.state(), "state after the worker stopped")     # wakes a new worker
    assert (state["path"], state["trail"]) == (grown["path"], [first["node"]])
    back = ok(xb.command("shrink"), "shrink in the new worker")
    assert back["path"] == first["path"]
    assert_outlines(xb.overlay(), back)


def test_browser_pages_are_refused_in_words(xb):
    xb.page.goto("chrome://version")
    reply = xb.command("extract")
    assert reply["ok"] is False, reply
    err = reply["error"]
    assert (err["code"], err["name"]) == (64, "page_forbidden")
    assert "chrome://" in err["message"]
    badge = xb.badge()
    assert badge["text"] == "!" and err["message"] in badge["title"]


def test_page_without_a_click_is_refused_in_words(xb, server):
    load(xb, f"{server}/article/source.html")
    reply = xb.command("extract")                 # no toolbar click: no activeTab grant
    assert reply["ok"] is False and reply["error"]["name"] == "page_forbidden"
    assert "click" in reply["error"]["message"]


def test_page_still_loading(xb, server):
    xb.page.goto(f"{server}/stalled", wait_until="commit")
    xb.page.wait_for_function("document.body !== null")
    reply = xb.click()
    assert reply["ok"] is False and reply["error"]["name"] == "page_loading", reply
    assert "loading" in reply["error"]["message"]


def _running_host(xb: ExtensionBrowser, server: str) -> int:
    """Load the article and return the pid of the host answering the extension."""
    load(xb, f"{server}/article/source.html")
    return ok(xb.hello(), "hello")["hello"]["pid"]


def _click_after_killing(xb: ExtensionBrowser, pid: int) -> dict:
    """Kill the host, click, and return the error the click must answer with."""
    kill_host(pid)
    _wait_gone(pid)
    reply = xb.click()
    assert reply["ok"] is False, reply
    return reply["error"]


def test_host_not_installed(xb, server):
    manifest = xb.profile_dir / "NativeMessagingHosts" / "dev.pith.host.json"
    hidden = manifest.with_name("dev.pith.host.json.away")
    pid = _running_host(xb, server)
    manifest.rename(hidden)
    try:
        err = _click_after_killing(xb, pid)
        assert (err["code"], err["name"]) == (60, "host_not_installed")
        assert "pith install-host" in err["message"]
        xb.pin_shadow_roots()
        toast = xb.page.evaluate("""() => {
            const t = document.querySelector('pith-toast, pith-overlay');
            const el = t && __pithRoots.get(t).querySelector('[part="toast"]');
            return el ? el.textContent : null; }""")
        assert toast is not None and "pith install-host" in toast
    finally:
        hidden.rename(manifest)
    ok(xb.click(), "click once the host is back")


def test_host_that_dies_at_start_is_reported_then_recovers(xb, server):
    launcher = xb.profile_dir / "NativeMessagingHosts" / "pith-host"
    good = launcher.read_text(encoding="utf-8")
    pid = _running_host(xb, server)
    launcher.write_text("#!/bin/sh\necho 'pith-host: broken on purpose' >&2\nexit 3\n")
    try:
        err = _click_after_killing(xb, pid)
        assert (err["code"], err["name"]) == (61, "host_exited")
        assert "again" in err["message"] and "pith doctor" in err["message"]
        assert xb.badge()["text"] == "!"
    finally:
        launcher.write_text(good, encoding="utf-8")
    ok(xb.click(), "the next click starts a working host")


def test_options_page_shows_the_host(xb):
    xb.ext.reload()
    # a locator, not wait_for_function: extension pages' CSP forbids the eval it polls with
    xb.ext.locator("#host-status.ok").wait_for(timeout=OVERLAY_WAIT_S * 1000)
    assert xb.ext.locator("#host-pid").text_content().startswith("pid ")


def test_a_content_script_speaks_only_for_its_own_tab(xb, server):
    """What a script in Pith's isolated world of a page may ask the background (a
    compromised renderer can send anything a content script can): the overlay's commands
    and block decisions, for its own tab only; no selection read, no other tab named."""
    load(xb, f"{server}/article/source.html")
    ok(xb.click(), "click")
    send = "(m) => chrome.runtime.sendMessage(m).then((r) => ({r: r ?? null}), (e) => ({error: String(e)}))"
    ask = lambda msg: xb.content_script_eval(f"({send})({json.dumps(msg)})")    # noqa: E731
    assert ask({"type": "pith:state", "tabId": xb.tab_id}).get("r") is None       # no state read
    assert ask({"type": "pith:command", "command": "extract"}).get("r") is None    # not the overlay's
    assert xb.state()["node"] is not None
    closed = ask({"type": "pith:command", "command": "close", "tabId": 999999}).get("r")
    assert closed and closed.get("ok") is True, closed                              # its own tab
    assert xb.state()["node"] is None


def test_a_copy_in_another_world_takes_the_overlay_over(xb, server):
    """An extension reloaded while the page stays open injects into a new isolated world;
    the old copy's overlay must go rather than stack (here the other world is the page's)."""
    load(xb, f"{server}/article/source.html")
    first = ok(xb.click(), "click")
    inject = ROOT_EXT / "inject"
    xb.page.evaluate((inject / "capture.js").read_text(encoding="utf-8"))
    xb.page.evaluate((inject / "highlight.js").read_text(encoding="utf-8"))
    shown = xb.page.evaluate("(sel) => globalThis.__pith.overlay.show(sel)",
                             {"node": first["node"], "path": first["path"], "tag": first["tag"]})
    assert shown["ok"] is True
    assert xb.page.evaluate("document.querySelectorAll('pith-overlay').length") == 1
    xb.page.evaluate("globalThis.__pith.overlay.close()")
    assert xb.page.evaluate("document.querySelectorAll('pith-overlay').length") == 0


@pytest.mark.parametrize("name", ["explode", "constructor", "__proto__"])
def test_unknown_commands_are_refused(xb, name):
    reply = xb.command(name)
    assert reply["ok"] is False and (reply["error"]["code"], reply["error"]["name"]) == (23, "bad_request")


# --- the browser a worker shares among modules -----------------------------------------------


def test_a_module_takes_the_shared_chromium_as_a_fresh_start_leaves_it(chromium_with_pith):
    """What an earlier module left (stored rules, preferences, a selection, an open reader
    tab) is gone after reset(): one tab under test besides the options page, storage empty."""
    xb = chromium_with_pith
    xb.reset()
    xb.ext_eval(EARLIER_MODULE_JS)
    xb.context.new_page()
    xb.reset()
    assert xb.ext_eval(STORAGE_JS) == [{}, {}]
    assert xb.context.pages == [xb.page, xb.ext]
    assert isinstance(xb.tab_id, int)              # exactly one tab besides the options page
