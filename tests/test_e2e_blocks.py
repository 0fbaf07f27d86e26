"""What you see is what you get: the blocks the host leaves out are dimmed in the page, and toggling them changes the reader — in Chromium and Firefox.

The page is tests/fixtures/pages/blocks/source.html: an article of paragraphs with a share
bar, a "Related stories" list, an author box and a stray "Advertisement" run inside it,
comments after it, a menu, a sidebar and a footer around it. The path is the real one in
both browsers: the extension's capture, the native host's `select` (with its block stage),
the overlay of inject/highlight.js, trusted mouse clicks and key presses, the `reader`
command (host `clean` with the include / exclude rows, inject/collect.js, the reader tab).

Nothing here names the blocks the model keeps: every check reads the reply's `blocks`
({kept, drop, quiet}) and compares the overlay and the reader with it. To map rows to
elements the test runs capture.js once more in the page's main world (the overlay hangs
after <body>, so the rows inside <body> are the extension's rows; checked on the node).

Known gap, asserted around rather than over: the host's `clean` still applies its other
steps (link lists, DOM filters, furniture) after the reader's include rows, so a link
list taken in stays out of the reader. The block taken in here is the dimmed block with
the most text outside links.
"""
from __future__ import annotations

import re
import time
from pathlib import Path

import pytest

from hostproc import kill_host
from serving import serve

from conftest import PAGES, ROOT, chromium_or_skip
from pith.pages.extension import ExtensionBrowser

pytestmark = pytest.mark.browser

PAGE = "blocks/source.html"
CAPTURE_JS = (ROOT / "extension" / "inject" / "capture.js").read_text(encoding="utf-8")
# Bounded waits for what follows an input event or a command (never a timing assertion).
WAIT_S = 15.0
POLL_S = 0.05
# Sub-pixel rounding between a veil and its element's rect.
RECT_TOLERANCE_PX = 1.0
# A block whose text outside links is shorter than this is a link list or a label: too
# little to tell in the reader's text whether it is there.
MIN_BLOCK_CHARS = 40

# Runs in the page's main world: the test's own capture (row → element), and the
# element at the extension's node, to check both captures agree.
MAIN_CAPTURE_JS = """([source, node]) => {
  (0, eval)(source);
  const el = globalThis.__pith.nodes[node];
  return el ? el.localName : null;
}"""

# Runs in the page's main world: what the overlay shows of the blocks, and for `rows` their
# element's rect, text, text outside links and whether a veil covers their centre.
VIEW_JS = """(rows) => {
  const nodes = globalThis.__pith.nodes;
  const ov = document.getElementById('pith-overlay');
  if (!ov) return null;
  const sr = __pithRoots.get(ov);          // closed: handed over by the automation protocol
  const rect = (r) => [r.x, r.y, r.width, r.height];
  const veils = [...sr.querySelectorAll('[part~="veil"]')].map((v) => ({
    row: Number(v.dataset.row), rect: rect(v.getBoundingClientRect()),
    events: getComputedStyle(v).pointerEvents}));
  const quiet = sr.querySelectorAll('[part~="quiet"]').length;
  const focus = sr.querySelector('[part~="focus"]');
  const shown = focus && getComputedStyle(focus).display !== 'none';
  const inside = (x, y, r) => x > r[0] && x < r[0] + r[2] && y > r[1] && y < r[1] + r[3];
  const info = {};
  for (const row of rows) {
    const el = nodes[row];
    if (!el) continue;
    const r = rect(el.getBoundingClientRect());
    const cx = r[0] + r[2] / 2, cy = r[1] + r[3] / 2;
    const links = [...el.querySelectorAll('a')].map((a) => a.textContent).join('');
    info[row] = {
      rect: r, tag: el.localName,
      text: el.textContent.replace(/\\s+/g, ' ').trim(),
      prose: el.textContent.replace(/\\s+/g, '').length - links.replace(/\\s+/g, '').length,
      covered: veils.some((v) => !el.contains(nodes[v.row]) && inside(cx, cy, v.rect)),
    };
  }
  // non-blank text nodes directly inside `quietRows` (filled in below) with a box
  return {
    node: Number(ov.getAttribute('data-pith-node')),
    box: rect(sr.querySelector('[part~="box"]').getBoundingClientRect()),
    veils, quiet, capped: Number(ov.getAttribute('data-pith-capped')),
    editing: ov.getAttribute('data-pith-editing') === 'true',
    focus: shown ? {row: Number(focus.dataset.row), dropped: focus.dataset.dropped === 'true'} : null,
    info, clicks: window.pageClicks || 0,
  };
}"""

# Runs in the page's main world: how many non-blank text runs directly inside `rows` have
# a box (what the overlay dims as `quiet`).
QUIET_RUNS_JS = """(rows) => {
  let n = 0;
  for (const row of rows) {
    const el = globalThis.__pith.nodes[row];
    for (const t of el ? el.childNodes : []) {
      if (t.nodeType !== 3 || !/\\S/.test(t.data)) continue;
      const range = document.createRange();
      range.selectNodeContents(t);
      const r = range.getBoundingClientRect();
      if (r.width > 0 && r.height > 0) n++;
    }
  }
  return n;
}"""

# Runs in the page's main world: count the clicks that reach the page (bubbling to window).
COUNT_CLICKS_JS = """() => {
  window.pageClicks = 0;
  window.addEventListener('click', () => { window.pageClicks++; });
  return document.body.outerHTML;
}"""

# Runs in the page's main world, as a hostile page's script would: every key the overlay
# knows (on window, document, body, the focused element and the overlay's host), clicks on
# every part of the overlay it can reach and on the host, clicks and pointer presses on the
# blocks `rows` (edit mode toggles those), and the DOM event the overlay once listened to.
FORGE_JS = """(rows) => {
  const ov = document.getElementById('pith-overlay');
  const keys = ['+', '=', '-', 'r', 'R', 's', 'S', 'j', 'J', 'k', 'K', 'x', 'X', 'e', 'E', 'Escape'];
  const targets = [window, document, document.body, document.activeElement || document.body, ov];
  const opts = {bubbles: true, cancelable: true, composed: true, button: 0, view: window};
  for (const key of keys) for (const t of targets) for (const type of ['keydown', 'keypress', 'keyup']) {
    t.dispatchEvent(new KeyboardEvent(type, {key, ...opts}));
  }
  const reachable = ov.shadowRoot ? [...ov.shadowRoot.querySelectorAll('[part]')] : [];
  const press = (el) => {
    for (const type of ['pointerdown', 'mousedown', 'pointerup', 'mouseup', 'click']) {
      el.dispatchEvent(new (type.startsWith('pointer') ? PointerEvent : MouseEvent)(type, opts));
    }
  };
  for (const el of [...reachable, ov]) { press(el); if (el.click) el.click(); }
  for (const row of rows) { const el = globalThis.__pith.nodes[row]; if (el) press(el); }
  for (const t of [document, window, ov]) t.dispatchEvent(new CustomEvent('pith:overlay-replaced', opts));
  return {shadow_root: ov.shadowRoot !== null, reached: reachable.length};
}"""
# Long enough for a command a forged event set off to come back (grow, remember, reader).
FORGED_SETTLE_S = 1.5

# Runs in the page's main world: the rect of the overlay's part `part` (roots pinned first).
PART_RECT_JS = """(part) => {
  const r = __pithRoots.get(document.getElementById('pith-overlay'))
    .querySelector('[part~="' + part + '"]').getBoundingClientRect();
  return [r.x, r.y, r.width, r.height];
}"""

# Runs in the page's main world: bring row's element into view (the overlay follows on the
# next frame).
SCROLL_TO_JS = """(row) => {
  globalThis.__pith.nodes[row].scrollIntoView({block: 'center', inline: 'nearest'});
  return true;
}"""


def normal(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


# --- the two browsers behind one interface ----------------------------------------------------
class Chromium:
    name = "chromium"

    def __init__(self, xb: ExtensionBrowser):
        self.xb = xb

    def load(self, url: str) -> None:
        self.xb.page.goto(url, wait_until="load")

    def extract(self) -> dict:
        return self.xb.click()

    def command(self, name: str) -> dict:
        return self.xb.command(name)

    def state(self) -> dict:
        return self.xb.state()

    def hello(self) -> dict:
        return self.xb.hello()

    def eval(self, js: str, arg=None):
        return self.xb.page.evaluate(js, arg)

    def pin(self) -> None:
        """The overlay's closed shadow roots readable to eval as __pithRoots.get(host)."""
        self.xb.pin_shadow_roots()

    def rules(self) -> dict:
        return self.xb.ext_eval("async () => (await chrome.storage.local.get('siteRules')).siteRules || {}")

    def clear_rules(self) -> None:
        self.xb.ext_eval("() => chrome.storage.local.remove('siteRules')")

    def tabs(self) -> int:
        return len(self.xb.context.pages)

    def click(self, x: float, y: float) -> None:
        self.xb.page.mouse.click(x, y)

    def press(self, key: str) -> None:
        self.xb.page.keyboard.press(key)

    def extract_within(self, timeout_s: float) -> dict:
        """The extract command's reply, waited for up to `timeout_s` (huge pages)."""
        return self.xb.click(timeout_s)

    def reader_eval(self, js: str, arg=None):
        """`js` (a function) evaluated in the reader tab of the selection, then closed."""
        page, _, _ = self.xb.open_reader(WAIT_S)
        try:
            return page.evaluate(js, arg)
        finally:
            page.close()

    def reader_text(self) -> str:
        return self.reader_eval("() => document.querySelector('article').innerText")


class Firefox:
    name = "firefox"

    def __init__(self, fx):
        self.fx = fx

    def load(self, url: str) -> None:
        self.fx.load(url)

    def extract(self) -> dict:
        return self.fx.command("extract")

    def command(self, name: str) -> dict:
        return self.fx.command(name)

    def state(self) -> dict:
        return self.fx.state()

    def hello(self) -> dict:
        return self.fx.message({"type": "pith:hello"})

    def eval(self, js: str, arg=None):
        return self.fx.ff.call(self.fx.page, js, arg)

    def pin(self) -> None:
        self.fx.ff.pin_shadow_roots(self.fx.page)

    def rules(self) -> dict:
        return self.fx.ff.call(self.fx.ext, "async () => (await browser.storage.local.get('siteRules')).siteRules || {}")

    def clear_rules(self) -> None:
        self.fx.ff.call(self.fx.ext, "() => browser.storage.local.remove('siteRules')")

    def tabs(self) -> int:
        return len(self.fx.ff.contexts())

    def click(self, x: float, y: float) -> None:
        ff, ctx = self.fx.ff, self.fx.page
        ff.send("browsingContext.activate", {"context": ctx})
        ff.send("input.performActions", {"context": ctx, "actions": [{
            "type": "pointer", "id": "mouse", "parameters": {"pointerType": "mouse"},
            "actions": [{"type": "pointerMove", "x": round(x), "y": round(y), "origin": "viewport"},
                        {"type": "pointerDown", "button": 0},
                        {"type": "pointerUp", "button": 0}]}]})
        ff.send("input.releaseActions", {"context": ctx})

    def press(self, key: str) -> None:
        self.fx.press(key)

    def extract_within(self, timeout_s: float) -> dict:
        """The extract command's reply, waited for up to `timeout_s` (huge pages)."""
        return self.fx.ff.call(self.fx.ext, "(m) => browser.runtime.sendMessage(m)",
                               {"type": "pith:command", "command": "extract",
                                "tabId": self.fx.tab_id}, timeout_s=timeout_s)

    def reader_eval(self, js: str, arg=None):
        """`js` (a function) evaluated in the reader tab of the selection, then closed."""
        from test_e2e_firefox import reader_context
        before = {c["context"] for c in self.fx.ff.contexts()}
        reply = self.fx.command("reader")
        assert reply.get("ok") is True, reply
        ctx = reader_context(self.fx, before)
        try:
            return self.fx.ff.call(ctx, js, arg)
        finally:
            self.fx.ff.send("browsingContext.close", {"context": ctx})

    def reader_text(self) -> str:
        return self.reader_eval("() => document.querySelector('article').innerText")


@pytest.fixture(scope="module")
def server():
    with serve(PAGES) as url:
        yield url


@pytest.fixture(scope="module", params=["chromium", "firefox"], ids=["chromium", "firefox"])
def pith(request):
    """The extension in the worker's shared Chromium or Firefox, as a fresh start leaves it
    (conftest's chromium_with_pith, firefox_with_pith)."""
    if request.param == "chromium":
        chromium_or_skip()
        xb = request.getfixturevalue("chromium_with_pith")
        xb.reset()
        return Chromium(xb)
    from test_e2e_firefox import firefox_or_skip, fresh_pith
    firefox_or_skip()
    return Firefox(fresh_pith(request.getfixturevalue("firefox_with_pith")))


# --- helpers ----------------------------------------------------------------------------------
def ok(reply: dict, what: str) -> dict:
    assert reply.get("ok") is True, f"{what}: {reply}"
    return reply


def wait_for(probe, what: str):
    """Poll `probe()` until it returns something truthy (bounded); that value."""
    deadline = time.monotonic() + WAIT_S
    while True:
        value = probe()
        if value:
            return value
        if time.monotonic() > deadline:
            pytest.fail(f"{what}: not within {WAIT_S} s (last: {value!r})")
        time.sleep(POLL_S)


def host_gone(pid: int) -> bool:
    """Whether process `pid` has exited: no /proc entry, a zombie, or a /proc entry that
    vanishes while it is read (a process being reaped reads as ESRCH)."""
    try:
        return "zombie" in Path(f"/proc/{pid}/status").read_text()
    except (FileNotFoundError, ProcessLookupError):
        return True


class Session:
    """The fixture page selected in one browser: the reply, its blocks, and what the page shows."""

    def __init__(self, b, server: str):
        self.b = b
        b.load(f"{server}/{PAGE}")
        self.body = b.eval(COUNT_CLICKS_JS)
        self.reply = ok(b.extract(), "extract")
        self.set_blocks(self.reply)
        assert b.eval(MAIN_CAPTURE_JS, [CAPTURE_JS, self.reply["node"]]) == self.reply["tag"], (
            "the test's capture and the extension's disagree on the node's row")

    def set_blocks(self, reply: dict) -> None:
        blocks = reply.get("blocks")
        assert isinstance(blocks, dict), f"no blocks in the reply (block stage off?): {reply}"
        assert not blocks["truncated"]
        self.node = reply["node"]
        self.blocks = blocks
        self.kept, self.drop, self.quiet = blocks["kept"], blocks["drop"], blocks["quiet"]

    def view(self) -> dict:
        rows = sorted(set(self.kept) | set(self.drop) | {self.node})
        self.b.pin()
        view = self.b.eval(VIEW_JS, rows)
        assert view is not None, "no overlay in the page"
        return view

    def veil_rows(self) -> set[int]:
        return {v["row"] for v in self.view()["veils"]}

    def wait_veils(self, want: set[int], what: str) -> dict:
        return wait_for(lambda: (lambda v: v if {x["row"] for x in v["veils"]} == want else None)(self.view()),
                        what)

    def visible(self, rows) -> set[int]:
        info = self.view()["info"]
        return {r for r in rows if info[str(r)]["rect"][2] > 0 and info[str(r)]["rect"][3] > 0}

    def scroll_to(self, row: int) -> dict:
        """Row's element scrolled into view, once the overlay has followed: its info."""
        self.b.eval(SCROLL_TO_JS, row)
        return wait_for(self.settled, f"the overlay following row {row} into view")["info"][str(row)]

    def settled(self) -> dict | None:
        """The view once the overlay has followed the last scroll: the box on the node's
        element, every veil on its block's element."""
        v = self.view()
        info = v["info"]
        if not rect_close(v["box"], info[str(self.node)]["rect"]):
            return None
        for veil in v["veils"]:
            if str(veil["row"]) in info and not rect_close(veil["rect"], clip(info[str(veil["row"])]["rect"], v["box"])):
                return None
        return v

    def decisions(self) -> tuple[list[int], list[int]]:
        st = ok(self.b.state(), "state")
        return st.get("include"), st.get("exclude")

    def wait_decisions(self, include: list[int], exclude: list[int], what: str) -> None:
        wait_for(lambda: self.decisions() == (include, exclude), what)

    def pick_dropped(self) -> int:
        """The dimmed block with the most text outside links (see the module docstring)."""
        info = self.view()["info"]
        row = max(self.visible(self.drop), key=lambda r: info[str(r)]["prose"])
        assert info[str(row)]["prose"] >= MIN_BLOCK_CHARS, (
            f"no dimmed block with text on this page (drop={self.drop}); the fixture needs one")
        return row

    def click_veil(self, row: int) -> None:
        self.scroll_to(row)
        veil = [v for v in self.view()["veils"] if v["row"] == row]
        assert veil, f"no veil over row {row}"
        self.b.click(*centre(veil[0]["rect"]))

    def pick_kept(self) -> int:
        """The kept block with the most text (a paragraph), not the node itself."""
        info = self.view()["info"]
        row = max(self.visible(set(self.kept) - {self.node}), key=lambda r: len(info[str(r)]["text"]))
        assert info[str(row)]["prose"] >= MIN_BLOCK_CHARS, f"no kept paragraph (kept={self.kept})"
        return row


def clip(r, box):
    """Rect `r` cut to rect `box` ([x, y, w, h] each)."""
    x0, y0 = max(r[0], box[0]), max(r[1], box[1])
    x1, y1 = min(r[0] + r[2], box[0] + box[2]), min(r[1] + r[3], box[1] + box[3])
    return [x0, y0, max(0.0, x1 - x0), max(0.0, y1 - y0)]


def rect_close(a, b) -> bool:
    return all(abs(p - q) <= RECT_TOLERANCE_PX for p, q in zip(a, b))


def centre(r) -> tuple[float, float]:
    return r[0] + r[2] / 2, r[1] + r[3] / 2


def assert_overlay_matches(s: Session, view: dict, include=(), exclude=()) -> None:
    """Veils exactly over the dropped blocks (with the reader's decisions), placed on their
    elements, none over a kept block, and each clickable."""
    want = (s.visible(s.drop) - set(include)) | s.visible(exclude)
    assert {v["row"] for v in view["veils"]} == want
    assert view["capped"] == 0
    for v in view["veils"]:
        assert rect_close(v["rect"], clip(view["info"][str(v["row"])]["rect"], view["box"])), v
        assert v["events"] == "auto", v
    kept = (set(s.kept) | set(include)) - set(exclude) - {s.node}
    covered = [r for r in s.visible(kept) if view["info"][str(r)]["covered"]]
    assert covered == [], f"kept blocks under a veil: {covered}"


# --- the tests --------------------------------------------------------------------------------
def test_veils_cover_the_dropped_blocks_and_not_the_kept(pith, server):
    s = Session(pith, server)
    assert s.kept and s.drop, f"the fixture should have blocks kept and dropped: {s.blocks}"
    view = s.wait_veils(s.visible(s.drop), "veils over the dropped blocks")
    assert_overlay_matches(s, view)
    # the quiet rows' own text runs (the stray "Advertisement") get their lighter veil
    assert view["quiet"] == pith.eval(QUIET_RUNS_JS, s.quiet)
    assert view["editing"] is False and view["focus"] is None
    assert pith.eval("() => document.body.outerHTML") == s.body      # the page is untouched
    assert s.decisions() == ([], [])


def test_a_click_on_a_dimmed_block_takes_it_in(pith, server):
    s = Session(pith, server)
    row = s.pick_dropped()
    text = s.view()["info"][str(row)]["text"]
    assert text not in normal(pith.reader_text())            # control: the reader leaves it out
    s.click_veil(row)
    view = s.wait_veils(s.visible(s.drop) - {row}, "the veil gone after the click")
    assert_overlay_matches(s, view, include=[row])
    assert view["clicks"] == 0, "the click on the veil reached the page"
    s.wait_decisions([row], [], "the include row saved in the tab's selection")
    assert text in normal(pith.reader_text())
    assert pith.eval("() => document.body.outerHTML") == s.body


def test_edit_mode_click_leaves_a_kept_block_out(pith, server):
    s = Session(pith, server)
    row = s.pick_kept()
    text = s.view()["info"][str(row)]["text"]
    assert text in normal(pith.reader_text())                # control: the reader has it
    info = s.scroll_to(row)
    # Outside edit mode a click on kept content is the page's, and changes nothing.
    pith.click(*centre(info["rect"]))
    wait_for(lambda: s.view()["clicks"] == 1, "the page's own click")
    assert s.veil_rows() == s.visible(s.drop) and s.decisions() == ([], [])
    pith.press("e")
    wait_for(lambda: s.view()["editing"], "edit mode after E")
    info = s.scroll_to(row)
    pith.click(*centre(info["rect"]))
    view = s.wait_veils(s.visible(s.drop) | {row}, "a veil over the block left out")
    assert_overlay_matches(s, view, exclude=[row])
    assert view["clicks"] == 1, "the edit-mode click reached the page"
    s.wait_decisions([], [row], "the exclude row saved in the tab's selection")
    assert text not in normal(pith.reader_text())
    # the block left out is dimmed now: a click on its veil takes it back
    s.click_veil(row)
    s.wait_veils(s.visible(s.drop), "the veil gone after taking the block back")
    s.wait_decisions([], [], "no decision left")
    pith.press("e")
    wait_for(lambda: not s.view()["editing"], "edit mode off after E")


def test_keys_ring_and_toggle_blocks(pith, server):
    s = Session(pith, server)
    units = sorted((set(s.kept) | set(s.drop)) - {s.node})
    pith.press("j")
    first = wait_for(lambda: s.view()["focus"], "the ring after J")
    assert first == {"row": units[0], "dropped": units[0] in s.drop}
    pith.press("j")
    wait_for(lambda: (s.view()["focus"] or {}).get("row") == units[1], "the ring on the next block")
    pith.press("k")
    pith.press("k")
    wait_for(lambda: (s.view()["focus"] or {}).get("row") == units[-1], "the ring wrapped to the last block")
    pith.press("j")
    wait_for(lambda: (s.view()["focus"] or {}).get("row") == units[0], "the ring back on the first block")
    pith.press("x")
    if first["dropped"]:
        s.wait_veils(s.visible(s.drop) - {units[0]}, "X takes the ringed block in")
        s.wait_decisions([units[0]], [], "its include row saved")
    else:
        s.wait_veils(s.visible(s.drop) | s.visible([units[0]]), "X leaves the ringed block out")
        s.wait_decisions([], [units[0]], "its exclude row saved")
    pith.press("x")
    s.wait_veils(s.visible(s.drop), "X again undoes it")
    s.wait_decisions([], [], "no decision left")
    assert s.view()["clicks"] == 0


def test_grow_replaces_the_veils_and_resets_the_decisions(pith, server):
    s = Session(pith, server)
    row = s.pick_dropped()
    s.click_veil(row)
    s.wait_decisions([row], [], "the include row saved")
    grown = ok(pith.command("grow"), "grow")
    assert grown["node"] != s.reply["node"]
    s.set_blocks(grown)
    view = s.wait_veils(s.visible(s.drop), "the grown node's veils")
    assert view["node"] == grown["node"]
    assert_overlay_matches(s, view)
    assert s.decisions() == ([], [])
    shrunk = ok(pith.command("shrink"), "shrink back")
    assert shrunk["node"] == s.reply["node"]
    s.set_blocks(shrunk)
    assert_overlay_matches(s, s.wait_veils(s.visible(s.drop), "the veils after shrinking back"))
    assert pith.eval("() => document.body.outerHTML") == s.body


def test_decisions_survive_a_host_restart(pith, server):
    """The host died (as it does when Chrome stops the idle worker): the reader re-captures
    the page, and the include / exclude rows follow their elements into the new capture."""
    s = Session(pith, server)
    taken, left = s.pick_dropped(), s.pick_kept()
    info = s.view()["info"]
    taken_text, left_text = info[str(taken)]["text"], info[str(left)]["text"]
    s.click_veil(taken)
    s.wait_decisions([taken], [], "the include row saved")
    pith.press("e")
    wait_for(lambda: s.view()["editing"], "edit mode after E")
    pith.click(*centre(s.scroll_to(left)["rect"]))
    s.wait_decisions([taken], [left], "the exclude row saved")
    pid = ok(pith.hello(), "hello")["hello"]["pid"]
    kill_host(pid)
    wait_for(lambda: host_gone(pid), "the host gone")
    # one more element before <body>: every row inside it moves by one in the next capture
    pith.eval("() => { document.head.appendChild(document.createElement('meta')); return true; }")
    text = normal(pith.reader_text())
    assert taken_text in text and left_text not in text
    assert s.decisions() == ([taken + 1], [left + 1])
    assert ok(pith.hello(), "hello")["hello"]["pid"] != pid


def test_a_page_script_cannot_drive_the_overlay(pith, server):
    """Issue 34, finding 8: a page's scripts dispatch every key and click the overlay knows,
    reach for its buttons and veils, and fire the event it once listened to; nothing
    changes (selection, decisions, edit mode, stored rules, tabs), the overlay stays. The
    person's own input (trusted keys and clicks) still works afterwards."""
    s = Session(pith, server)
    try:
        grown = ok(pith.command("grow"), "grow")          # the Remember button (S) is offered now
        s.set_blocks(grown)
        pith.press("e")
        wait_for(lambda: s.view()["editing"], "edit mode after a trusted E")
        before = ok(pith.state(), "state")
        rules, tabs, view = pith.rules(), pith.tabs(), s.view()
        forged = pith.eval(FORGE_JS, sorted(set(s.kept) - {s.node}))
        time.sleep(FORGED_SETTLE_S)
        after = ok(pith.state(), "state")
        assert [after.get(k) for k in ("node", "path", "include", "exclude")] == \
            [before.get(k) for k in ("node", "path", "include", "exclude")], after
        assert pith.rules() == rules, "a forged S stored a site rule"
        assert pith.tabs() == tabs, "a forged R opened the reader"
        now = s.view()                                      # asserts the overlay is still up
        assert (now["editing"], now["focus"], now["node"]) == (view["editing"], view["focus"], view["node"])
        assert forged == {"shadow_root": False, "reached": 0}, forged   # closed: nothing to reach
        # the person's own keys and clicks still act
        pith.press("e")
        wait_for(lambda: not s.view()["editing"], "edit mode off after a trusted E")
        pith.press("-")
        wait_for(lambda: ok(pith.state(), "state")["node"] == s.reply["node"], "a trusted - shrinks back")
        pith.pin()
        pith.click(*centre(pith.eval(PART_RECT_JS, "close")))
        wait_for(lambda: not pith.eval("() => !!document.getElementById('pith-overlay')"),
                 "a trusted click on the close button")
    finally:
        pith.clear_rules()


# --- the comment thread, outlined on request (issue 36) -----------------------------------------
THREAD_PAGE = "bread-post/source.html"     # a blog post with a comment thread under it

# Runs in the page's main world (roots pinned first): the overlay's thread state, its thread
# outlines and the rects of the elements of `rows`, and the toast's text when it shows.
THREAD_JS = """(rows) => {
  const ov = document.getElementById('pith-overlay');
  if (!ov) return null;
  const sr = __pithRoots.get(ov);
  const rect = (r) => [r.x, r.y, r.width, r.height];
  const toast = sr.querySelector('[part~="toast"]');
  const els = {};
  for (const row of rows) { const el = globalThis.__pith.nodes[row]; if (el) els[row] = rect(el.getBoundingClientRect()); }
  const button = sr.querySelector('[part~="comments"]');
  return {
    state: ov.getAttribute('data-pith-thread'), button: getComputedStyle(button).display !== 'none',
    pressed: button.getAttribute('aria-pressed'), title: button.title,
    boxes: [...sr.querySelectorAll('[part~="thread-root"]')].map((b) => ({
      row: Number(b.dataset.row), rect: rect(b.getBoundingClientRect())})),
    els, vh: window.innerHeight,
    toast: getComputedStyle(toast).display !== 'none' ? toast.textContent : null,
  };
}"""

# Runs in the page's main world, as a page's script would (with the roots pinned, more than a
# page can reach): a C key on every target and a click on the Comments button.
FORGE_THREAD_JS = """() => {
  const ov = document.getElementById('pith-overlay');
  const opts = {bubbles: true, cancelable: true, composed: true, button: 0, view: window};
  for (const t of [window, document, document.body, ov]) for (const key of ['c', 'C']) {
    t.dispatchEvent(new KeyboardEvent('keydown', {key, ...opts}));
  }
  const button = __pithRoots.get(ov).querySelector('[part~="comments"]');
  button.dispatchEvent(new MouseEvent('click', opts));
  button.click();
  return true;
}"""


def thread_view(b, rows) -> dict:
    b.pin()
    view = b.eval(THREAD_JS, list(rows))
    assert view is not None, "no overlay in the page"
    return view


def outlined(b, rows):
    """The thread view once its outlines sit on the roots' elements, one on screen; else None."""
    v = thread_view(b, rows)
    if v["state"] != "shown" or sorted(x["row"] for x in v["boxes"]) != sorted(rows):
        return None
    for box in v["boxes"]:
        if not rect_close(box["rect"], v["els"][str(box["row"])]):
            return None
    on_screen = any(r[1] + r[3] > 0 and r[1] < v["vh"] for r in v["els"].values())
    return v if on_screen else None


def test_c_and_the_comments_button_outline_the_thread(pith, server):
    """C (a trusted key) outlines the host's comment thread roots, on their elements and
    scrolled into view, and hides them again; the Comments button does the same; a page's
    forged C and clicks do nothing."""
    pith.load(f"{server}/{THREAD_PAGE}")
    reply = ok(pith.extract(), "extract")
    assert pith.eval(MAIN_CAPTURE_JS, [CAPTURE_JS, reply["node"]]) == reply["tag"]
    roots = (reply.get("comments") or {}).get("roots")
    assert roots, f"the host found no thread on the fixture: {reply.get('comments')}"
    v = thread_view(pith, roots)
    assert (v["state"], v["boxes"], v["pressed"], v["button"]) == ("hidden", [], "false", True), v
    assert "(C)" in v["title"], v["title"]
    # the thread sits under the post: nothing of it on screen before C
    pith.press("c")
    v = wait_for(lambda: outlined(pith, roots), "the thread outlined after C")
    assert v["pressed"] == "true" and v["toast"] is None
    # the outline follows a scroll
    pith.eval("() => { window.scrollBy(0, -40); return true; }")
    wait_for(lambda: outlined(pith, roots), "the thread outlines following a scroll")
    pith.press("c")
    wait_for(lambda: (lambda v: v["state"] == "hidden" and v["boxes"] == [])(thread_view(pith, roots)),
             "the thread hidden after a second C")
    pith.eval(FORGE_THREAD_JS)
    time.sleep(FORGED_SETTLE_S)
    v = thread_view(pith, roots)
    assert (v["state"], v["boxes"]) == ("hidden", []), f"a forged C or click showed the thread: {v}"
    pith.click(*centre(pith.eval(PART_RECT_JS, "comments")))
    wait_for(lambda: outlined(pith, roots), "the thread outlined after a click on Comments")
    # grow keeps the capture, so the thread stays outlined
    ok(pith.command("grow"), "grow")
    wait_for(lambda: outlined(pith, roots), "the thread still outlined after grow")
    close_overlay(pith)


def test_c_on_a_page_without_a_thread_says_so(pith, server):
    pith.load(f"{server}/{PAGE}")
    reply = ok(pith.extract(), "extract")
    assert reply.get("comments") is None, reply.get("comments")
    v = thread_view(pith, [])
    assert (v["state"], v["button"]) == ("none", False), v      # the button only with a thread
    pith.press("c")
    v = wait_for(lambda: (lambda v: v if v["toast"] else None)(thread_view(pith, [])),
                 "a word after C on a page without a thread")
    assert "no comment thread" in v["toast"], v["toast"]
    assert (v["state"], v["boxes"]) == ("none", [])
    close_overlay(pith)


def close_overlay(b) -> None:
    b.pin()
    b.click(*centre(b.eval(PART_RECT_JS, "close")))
    wait_for(lambda: not b.eval("() => !!document.getElementById('pith-overlay')"), "the close button closes")
