"""The extension end to end in headless firefox-esr (WebDriver BiDi): native host, overlay, grow/shrink/close.

The contract tested here, which extension/background*.js and inject/highlight.js implement:

- `runtime.sendMessage({type: "pith:command", command, tabId})`, command one of
  "extract", "grow", "shrink", "close", resolves to `{ok: true, node, path, tag, doc}` or
  `{ok: false, error: {code, name, message}}`; `{type: "pith:state", tabId}` resolves to
  the tab's selection, `{ok: true, node, path, tag, ...}`, with `node` null (or absent)
  when nothing is selected; `{type: "pith:hello"}` to `{ok, hello, storage}` (the host's
  hello, the storage backend); `{type: "pith:last", tabId}` to the reply of the last
  command nobody awaited (a toolbar click). A click on the toolbar button extracts.
- The page then shows `<pith-overlay id="pith-overlay">`, a child of
  document.documentElement, with attributes data-pith-node, data-pith-path (JSON) and
  data-pith-tag, and a closed shadow root (the page's scripts cannot reach in; the tests
  do through BiDi, Firefox.pin_shadow_roots) holding part="box" (the selected element's
  client rect, a visible outline) and the buttons part="grow", "shrink", "reader",
  "close". Escape closes it. Only trusted input acts on it (test_e2e_blocks.py).
- The node chosen is the host pipeline's on the page's recorded snapshot
  (tests/fixtures/pages/*/snapshot.json): Firefox's capture must lead to the same path.

How the browser is set up (the fixtures below):

- HOME is a temporary folder; `pith install-host --browser firefox` writes the host
  manifest into its `.mozilla/native-messaging-hosts/` (Firefox reads it from there).
- The add-on's internal UUID is pinned with the pref `extensions.webextensions.uuids`, so
  `moz-extension://<uuid>/ui/options.html` is known in advance. BiDi refuses to navigate
  to moz-extension:// URLs unless Firefox runs with `--remote-allow-system-access`.
- Messages are sent from that extension page, opened in a second tab; the page under
  test stays in the first tab. The extension asks only for `activeTab`, which Firefox
  grants on a click of its button or a shortcut: the fixture grants it exactly so
  (tabManager.addActiveTabPermission, from the browser's chrome scope) after each load.
- Pages come from a throwaway http.server on 127.0.0.1 (content scripts are not allowed
  into file:// pages).
"""
from __future__ import annotations

import functools
import json
import os
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

from serving import serve

pytest.importorskip("websockets", reason="tests/bidi.py needs websockets (extra `test`)")

from bidi import Firefox, find_firefox  # noqa: E402
from conftest import EARLIER_MODULE_JS, PAGES, ROOT, STORAGE_JS  # noqa: E402
from pith.pipeline.select import grow as host_grow  # noqa: E402
from pith.pipeline.select import select as host_select  # noqa: E402
from pith.pipeline.select import shrink as host_shrink  # noqa: E402

pytestmark = pytest.mark.firefox

EXTENSION = ROOT / "extension"
EXTENSION_ID = "pith@pith.dev"
HOST_NAME = "dev.pith.host"
OPTIONS_PAGE = "ui/options.html"
# Where Firefox on Linux looks for a user's native-messaging host manifests.
HOST_MANIFEST_DIR = Path(".mozilla") / "native-messaging-hosts"
# One extension command (capture, host round trip, drawing); the first also starts the host.
COMMAND_TIMEOUT_S = 20.0
# How long the overlay may take to appear, move or go after a command or an input event.
OVERLAY_WAIT_S = 5.0
POLL_S = 0.05
# The throwaway server stops itself after this long even if the module hangs.
# Tolerance when comparing the box with the element's client rect (sub-pixel rounding).
RECT_TOLERANCE_PX = 1.0
# WebDriver key value of Escape.
KEY_ESCAPE = "\ue00c"


def firefox_or_skip() -> None:
    if find_firefox() is None:
        pytest.skip("firefox-esr is not installed (Debian package firefox-esr)")


# --- host registration, server, browser ------------------------------------------------------
def register_host(home: Path) -> Path:
    """`pith install-host --browser firefox` with HOME=`home`; the manifest it wrote."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("XDG_")}
    env["HOME"] = str(home)         # no XDG_*: the launcher goes under this HOME too
    done = subprocess.run([sys.executable, "-m", "pith", "install-host", "--browser", "firefox"],
                          env=env, timeout=60, capture_output=True, text=True)
    assert done.returncode == 0, f"pith install-host failed:\n{done.stdout}{done.stderr}"
    manifest = home / HOST_MANIFEST_DIR / f"{HOST_NAME}.json"
    assert manifest.is_file(), f"no host manifest at {manifest}:\n{done.stdout}{done.stderr}"
    launcher = Path(json.loads(manifest.read_text(encoding="utf-8"))["path"])
    assert launcher.is_relative_to(home), f"the launcher {launcher} is outside the test's HOME"
    return manifest


@pytest.fixture(scope="module")
def firefox_home(tmp_path_factory):
    """A temporary HOME with the native host registered for Firefox."""
    firefox_or_skip()
    home = tmp_path_factory.mktemp("firefox-home")
    register_host(home)
    return home


@pytest.fixture(scope="module")
def pages_url():
    """http://127.0.0.1:<free port> serving tests/fixtures/pages, stopped after the module."""
    with serve(PAGES) as url:
        yield url


def start_firefox(home: Path, extension: Path) -> tuple[Firefox, str]:
    """Firefox with `extension` installed temporarily under a pinned UUID; (ff, uuid)."""
    ext_uuid = str(uuid.uuid4())
    ff = Firefox(home=home, system_access=True,
                 prefs={"extensions.webextensions.uuids": json.dumps({EXTENSION_ID: ext_uuid})})
    try:
        ff.start()
        assert ff.install_extension(extension) == EXTENSION_ID
    except BaseException:
        ff.close()
        raise
    return ff, ext_uuid


def fresh_pith(shared: tuple[Firefox, str]) -> "Pith":
    """A Pith on the shared Firefox (conftest's firefox_with_pith) as a fresh start leaves
    it: one new page tab (every other tab closed: no page, reader tab or selection of an
    earlier module is left), a new extension page, and the extension's storage empty (no
    site rule, reader preference or host option of an earlier module)."""
    ff, ext_uuid = shared
    keep = ff.new_tab()
    for ctx in ff.contexts():
        if ctx["context"] != keep:
            ff.send("browsingContext.close", {"context": ctx["context"]})
    pith = Pith(ff, ext_uuid)
    assert pith.page == keep, "the shared Firefox kept a tab it was told to close"
    ff.call(pith.ext, """async () => {
        await browser.storage.local.clear();
        await browser.storage.session.clear();
    }""")
    return pith


class Pith:
    """The page tab, the extension page that sends the messages, and what both can do."""

    def __init__(self, ff: Firefox, ext_uuid: str):
        self.ff = ff
        self.page = ff.contexts()[0]["context"]          # the first tab: pages under test
        self.ext = ff.new_tab()                          # the second: the extension's page
        ff.navigate(self.ext, f"moz-extension://{ext_uuid}/{OPTIONS_PAGE}")
        self.chrome = ff.send("browsingContext.getTree",
                              {"moz:scope": "chrome"})["contexts"][0]["context"]
        self.tab_id: int | None = None

    def load(self, url: str, *, grant: bool = True) -> None:
        """Open `url` in the page tab and (unless told not to) grant activeTab there, as a
        click on the extension's button would."""
        self.ff.navigate(self.page, url)
        self.tab_id = self.ff.call(self.ext, """async (url) => {
            const me = await browser.tabs.getCurrent();
            const others = (await browser.tabs.query({})).filter(t => t.id !== me.id);
            const hit = others.filter(t => t.url === url);
            if (hit.length === 1) return hit[0].id;
            if (others.length === 1) return others[0].id;
            throw new Error('cannot tell the page tab among ' + others.length + ' tabs');
        }""", url)
        if grant:
            assert self.active_tab(grant=True) is True

    def active_tab(self, *, grant: bool = False) -> bool:
        """Whether the extension holds activeTab on the page tab (granted first if asked)."""
        return self.ff.call(self.chrome, """(extId, tabId, grant) => {
            const {ExtensionParent} = ChromeUtils.importESModule(
                'resource://gre/modules/ExtensionParent.sys.mjs');
            const ext = ExtensionParent.GlobalManager.getExtension(extId);
            const tab = ExtensionParent.apiManager.global.tabTracker.getTab(tabId);
            if (grant) ext.tabManager.addActiveTabPermission(tab);
            return ext.tabManager.hasActiveTabPermission(tab);
        }""", EXTENSION_ID, self.tab_id, grant)

    def click_toolbar_button(self) -> None:
        """What a click on the extension's toolbar button does in the page tab (the same
        call as Firefox's own button and its _execute_action shortcut)."""
        self.ff.send("browsingContext.activate", {"context": self.page})
        self.ff.call(self.chrome, """(extId) => {
            const {ExtensionParent} = ChromeUtils.importESModule(
                'resource://gre/modules/ExtensionParent.sys.mjs');
            const ext = ExtensionParent.GlobalManager.getExtension(extId);
            ExtensionParent.apiManager.global.browserActionFor(ext).triggerAction(window);
        }""", EXTENSION_ID)

    def command(self, command: str, tab_id: int | None = None) -> dict:
        return self.message({"type": "pith:command", "command": command,
                             "tabId": self.tab_id if tab_id is None else tab_id})

    def state(self) -> dict:
        return self.message({"type": "pith:state", "tabId": self.tab_id})

    def message(self, msg: dict) -> dict:
        reply = self.ff.call(self.ext, "(m) => browser.runtime.sendMessage(m)", msg,
                             timeout_s=COMMAND_TIMEOUT_S)
        assert isinstance(reply, dict), f"{msg} got {reply!r}"
        return reply

    def overlay(self) -> dict | None:
        """What the page shows: the overlay's attributes, parts and box, and the client
        rect of the element at the overlay's data-pith-path; None when there is no overlay."""
        self.ff.pin_shadow_roots(self.page)
        return self.ff.call(self.page, """() => {
            const ov = document.getElementById('pith-overlay');
            if (!ov) return null;
            const rect = (e) => { const r = e.getBoundingClientRect();
                                  return [r.x, r.y, r.width, r.height]; };
            const path = JSON.parse(ov.getAttribute('data-pith-path'));
            let el = document.documentElement;
            for (const k of path) el = el && el.children[k];
            const sr = (globalThis.__pithRoots && __pithRoots.get(ov)) || null;
            const box = sr && sr.querySelector('[part~="box"]');
            const parts = {};
            if (sr) for (const e of sr.querySelectorAll('[part]')) {
                for (const p of e.getAttribute('part').split(/\\s+/)) parts[p] = e.localName;
            }
            return {
                tag: ov.localName, under_root: ov.parentNode === document.documentElement,
                node: ov.getAttribute('data-pith-node'),
                path: ov.getAttribute('data-pith-path'),
                ptag: ov.getAttribute('data-pith-tag'),
                open_shadow: ov.shadowRoot !== null, pinned: sr !== null, parts,
                box: box ? rect(box) : null,
                outline: box ? getComputedStyle(box).outlineStyle : null,
                target: el ? rect(el) : null, target_tag: el ? el.localName : null,
            };
        }""")

    def wait_overlay(self, predicate, what: str) -> dict | None:
        """Poll the overlay until `predicate(overlay)` holds (bounded). An overlay read in
        the moment a new one replaces it (between pinning its closed root and reading it)
        is read again: its root is pinned at the next poll."""
        deadline = time.monotonic() + OVERLAY_WAIT_S
        while True:
            ov = self.overlay()
            if predicate(ov) and (ov is None or ov["pinned"]):
                return ov
            if time.monotonic() > deadline:
                pytest.fail(f"{what}: not within {OVERLAY_WAIT_S} s; overlay is {ov}")
            time.sleep(POLL_S)

    def click_part(self, part: str) -> None:
        """A real (trusted) mouse click on the overlay's element part=`part`."""
        self.ff.pin_shadow_roots(self.page)
        x, y = self.ff.call(self.page, """(part) => {
            const el = __pithRoots.get(document.getElementById('pith-overlay'))
                .querySelector('[part~="' + part + '"]');
            el.scrollIntoView({block: 'center', inline: 'center'});
            const r = el.getBoundingClientRect();
            return [Math.round(r.x + r.width / 2), Math.round(r.y + r.height / 2)];
        }""", part)
        self.ff.send("browsingContext.activate", {"context": self.page})
        self.ff.send("input.performActions", {"context": self.page, "actions": [{
            "type": "pointer", "id": "mouse", "parameters": {"pointerType": "mouse"},
            "actions": [{"type": "pointerMove", "x": x, "y": y, "origin": "viewport"},
                        {"type": "pointerDown", "button": 0},
                        {"type": "pointerUp", "button": 0}]}]})
        self.ff.send("input.releaseActions", {"context": self.page})

    def press(self, key: str) -> None:
        """A real (trusted) key press in the page tab."""
        self.ff.send("browsingContext.activate", {"context": self.page})
        self.ff.send("input.performActions", {"context": self.page, "actions": [{
            "type": "key", "id": "keyboard",
            "actions": [{"type": "keyDown", "value": key}, {"type": "keyUp", "value": key}]}]})
        self.ff.send("input.releaseActions", {"context": self.page})


@pytest.fixture(scope="module")
def fx(firefox_with_pith):
    """Firefox with the real extension from extension/ installed temporarily (the worker's
    shared one, as a fresh start leaves it: fresh_pith)."""
    if not (EXTENSION / "manifest.json").is_file():
        pytest.skip("extension/manifest.json does not exist yet")
    assert (EXTENSION / OPTIONS_PAGE).is_file(), (
        f"the tests send their messages from extension/{OPTIONS_PAGE}, which is missing")
    return fresh_pith(firefox_with_pith)


# --- expectations from the host pipeline on the recorded snapshots -----------------------------
@functools.cache
def expected(page: str):
    """The host's Selection on the page's recorded snapshot (what the extension must show)."""
    snap = json.loads((PAGES / page / "snapshot.json").read_text(encoding="utf-8"))
    return host_select(snap)


def assert_same_rect(box, target):
    assert box is not None and target is not None, (box, target)
    assert all(abs(a - b) <= RECT_TOLERANCE_PX for a, b in zip(box, target)), (box, target)
    assert box[2] > 0 and box[3] > 0, box


def assert_overlay_on(ov: dict | None, reply: dict) -> None:
    """The overlay marks the element of `reply` (attributes, box over its rect, outline)."""
    assert ov is not None, "no #pith-overlay in the page"
    assert ov["tag"] == "pith-overlay" and ov["under_root"], ov
    assert ov["node"] == str(reply["node"])
    assert json.loads(ov["path"]) == reply["path"]
    assert ov["ptag"] == reply["tag"] == ov["target_tag"]
    assert not ov["open_shadow"] and ov["pinned"], "the overlay's shadow root must be closed"
    assert_same_rect(ov["box"], ov["target"])
    assert ov["outline"] not in (None, "none"), ov


def assert_ok(reply: dict, what: str) -> dict:
    assert reply.get("ok") is True, f"{what}: {reply}"
    return reply


# --- the harness itself, with a throwaway extension ------------------------------------------
HARNESS_BACKGROUND = """
browser.runtime.onMessage.addListener((msg) => {
  if (msg.type !== 'hello') return undefined;
  return new Promise((resolve) => {
    const port = browser.runtime.connectNative('%s');
    port.onMessage.addListener((reply) => { resolve({ok: true, reply}); port.disconnect(); });
    port.onDisconnect.addListener((p) => resolve({ok: false, error: String(p.error)}));
    port.postMessage({v: 1, id: 1, action: 'hello'});
  });
});
""" % HOST_NAME


def test_harness_native_messaging_with_temporary_home(firefox_home, tmp_path):
    """BiDi, temporary install, the UUID pin and native messaging through the temporary
    HOME, shown with a minimal add-on of the same id (independent of extension/)."""
    ext = tmp_path / "ext"
    (ext / "ui").mkdir(parents=True)
    (ext / "manifest.json").write_text(json.dumps({
        "manifest_version": 3, "name": "pith harness", "version": "0.0.1",
        "browser_specific_settings": {"gecko": {"id": EXTENSION_ID}},
        "background": {"scripts": ["background.js"]},
        "permissions": ["nativeMessaging", "storage"],
    }), encoding="utf-8")
    (ext / "background.js").write_text(HARNESS_BACKGROUND, encoding="utf-8")
    (ext / OPTIONS_PAGE).write_text("<!DOCTYPE html><title>harness</title>", encoding="utf-8")
    ff, ext_uuid = start_firefox(firefox_home, ext)
    with ff:
        ctx = ff.new_tab()
        ff.navigate(ctx, f"moz-extension://{ext_uuid}/{OPTIONS_PAGE}")
        assert ff.evaluate(ctx, "location.href") == f"moz-extension://{ext_uuid}/{OPTIONS_PAGE}"
        reply = ff.evaluate(ctx, "browser.runtime.sendMessage({type: 'hello'})",
                            timeout_s=COMMAND_TIMEOUT_S)
        assert reply["ok"], reply
        assert reply["reply"]["ok"] and reply["reply"]["result"]["host"] == "pith"
        # What the extension relies on in this Firefox: MV3 event page, storage.session.
        assert ff.evaluate(ctx, "typeof browser.storage.session.get") == "function"


# --- the real extension ---------------------------------------------------------------------
def test_extract_round_trip(fx, pages_url):
    """extract on the article: capture in Firefox, native host, the node the host picks."""
    fx.load(f"{pages_url}/article/source.html")
    reply = assert_ok(fx.command("extract"), "extract")
    want = expected("article").to_wire()
    assert reply["path"] == want["path"] and reply["tag"] == want["tag"]
    assert isinstance(reply["node"], int) and reply["node"] >= 0
    assert "doc" in reply


def test_highlight_is_drawn_on_the_selection(fx, pages_url):
    fx.load(f"{pages_url}/article/source.html")
    reply = assert_ok(fx.command("extract"), "extract")
    ov = fx.wait_overlay(lambda o: o is not None, "the overlay after extract")
    assert_overlay_on(ov, reply)
    assert {"grow", "shrink", "reader", "close"} <= set(ov["parts"])
    assert all(ov["parts"][p] == "button" for p in ("grow", "shrink", "reader", "close"))


def test_state_follows_the_selection(fx, pages_url):
    fx.load(f"{pages_url}/article/source.html")
    reply = assert_ok(fx.command("extract"), "extract")
    state = assert_ok(fx.state(), "state")
    assert state.get("node") == reply["node"] and state.get("path") == reply["path"]
    assert_ok(fx.command("close"), "close")
    assert fx.state().get("node") is None


def test_grow_then_shrink_goes_back(fx, pages_url):
    fx.load(f"{pages_url}/reader/source.html")
    first = assert_ok(fx.command("extract"), "extract")
    sel = expected("reader")
    grown = assert_ok(fx.command("grow"), "grow")
    assert grown["path"] == host_grow(sel, sel.node)["path"] != first["path"]
    assert_overlay_on(fx.wait_overlay(
        lambda o: o and json.loads(o["path"]) == grown["path"], "the overlay after grow"), grown)
    back = assert_ok(fx.command("shrink"), "shrink after grow")
    assert back["path"] == first["path"] and back["node"] == first["node"]
    assert_overlay_on(fx.wait_overlay(
        lambda o: o and json.loads(o["path"]) == back["path"], "the overlay after shrink"), back)


def test_shrink_without_trail_takes_the_best_child(fx, pages_url):
    fx.load(f"{pages_url}/article/source.html")
    assert_ok(fx.command("extract"), "extract")
    sel = expected("article")
    shrunk = assert_ok(fx.command("shrink"), "shrink")
    assert shrunk["path"] == host_shrink(sel, sel.node)["path"]


def test_close_removes_the_overlay(fx, pages_url):
    fx.load(f"{pages_url}/article/source.html")
    assert_ok(fx.command("extract"), "extract")
    fx.wait_overlay(lambda o: o is not None, "the overlay after extract")
    assert_ok(fx.command("close"), "close")
    fx.wait_overlay(lambda o: o is None, "no overlay after close")


def test_escape_closes_the_overlay(fx, pages_url):
    fx.load(f"{pages_url}/article/source.html")
    assert_ok(fx.command("extract"), "extract")
    fx.wait_overlay(lambda o: o is not None, "the overlay after extract")
    fx.press(KEY_ESCAPE)
    fx.wait_overlay(lambda o: o is None, "no overlay after Escape")


def test_grow_button_click(fx, pages_url):
    fx.load(f"{pages_url}/reader/source.html")
    assert_ok(fx.command("extract"), "extract")
    sel = expected("reader")
    fx.wait_overlay(lambda o: o is not None, "the overlay after extract")
    fx.click_part("grow")
    ov = fx.wait_overlay(lambda o: o and json.loads(o["path"]) == host_grow(sel, sel.node)["path"],
                           "the overlay on the parent after a click on grow")
    assert_same_rect(ov["box"], ov["target"])


def test_extract_again_gives_the_same_selection(fx, pages_url):
    """The injected scripts are idempotent and the overlay is not part of the capture."""
    fx.load(f"{pages_url}/article/source.html")
    first = assert_ok(fx.command("extract"), "extract")
    fx.wait_overlay(lambda o: o is not None, "the overlay after extract")
    again = assert_ok(fx.command("extract"), "extract again")
    assert again["path"] == first["path"] and again["node"] == first["node"]
    assert fx.ff.evaluate(fx.page, "document.querySelectorAll('pith-overlay').length") == 1


def test_second_page_boilerplate(fx, pages_url):
    fx.load(f"{pages_url}/boilerplate/source.html")
    reply = assert_ok(fx.command("extract"), "extract")
    want = expected("boilerplate").to_wire()
    assert reply["path"] == want["path"] and reply["tag"] == want["tag"]
    assert_overlay_on(fx.wait_overlay(lambda o: o is not None, "the overlay"), reply)


def test_a_tab_that_does_not_exist_is_an_error(fx, pages_url):
    fx.load(f"{pages_url}/article/source.html")
    reply = fx.command("extract", tab_id=987654321)
    assert reply.get("ok") is False, reply
    err = reply["error"]
    assert isinstance(err["code"], int) and isinstance(err["name"], str) and err["message"]


def test_toolbar_button_extracts(fx, pages_url):
    """The user's way in: a click on the button (which also grants activeTab) outlines
    the main block; `pith:last` holds the reply nobody awaited."""
    fx.load(f"{pages_url}/article/source.html", grant=False)
    assert fx.active_tab() is False, "a new load must start without activeTab"
    fx.click_toolbar_button()
    want = expected("article").to_wire()
    ov = fx.wait_overlay(lambda o: o is not None and json.loads(o["path"]) == want["path"],
                         "the overlay after a click on the toolbar button")
    last = fx.message({"type": "pith:last", "tabId": fx.tab_id})
    assert last["ok"] and last["reply"]["ok"] and last["reply"]["path"] == want["path"], last
    assert_overlay_on(ov, last["reply"])


def test_hello_reports_host_and_session_storage(fx):
    """The options page's check: the host answers, and Firefox has storage.session (MV3)."""
    hello = assert_ok(fx.message({"type": "pith:hello"}), "hello")
    assert hello["hello"]["host"] == "pith"
    assert hello["storage"] == "storage.session"


# --- the reader view ---------------------------------------------------------------------------
READER_WAIT_S = 15.0


def reader_context(fx, before: set[str]) -> str:
    """The browsing context of the reader tab opened since `before`, once it has rendered."""
    deadline = time.monotonic() + READER_WAIT_S
    while True:
        fresh = [c for c in fx.ff.contexts()
                 if c["context"] not in before and "/ui/reader.html" in c["url"]]
        if fresh:
            ctx = fresh[0]["context"]
            try:
                if fx.ff.evaluate(ctx, "!!(window.pithReader && window.pithReader.shownAt)"):
                    return ctx
            except Exception:       # the page is still loading its modules
                pass
        if time.monotonic() > deadline:
            pytest.fail(f"no rendered reader tab within {READER_WAIT_S} s")
        time.sleep(0.05)


def test_reader_view_in_firefox(fx, pages_url):
    """extract, then the reader: host clean, collect.js in Firefox's content-script
    sandbox, storage.session, the reader tab — content kept, clutter and scripts not."""
    fx.load(f"{pages_url}/reader/source.html")
    assert assert_ok(fx.command("extract"), "extract")["tag"] == "article"
    before = {c["context"] for c in fx.ff.contexts()}
    assert_ok(fx.command("reader"), "reader")
    ctx = reader_context(fx, before)
    try:
        st = fx.ff.call(ctx, """() => {
            const art = document.querySelector('article');
            return {
              text: art.innerText,
              headers: [...art.querySelectorAll('th')].map(th => th.textContent.trim()),
              code: (art.querySelector('pre code') || {}).textContent || null,
              img: (art.querySelector('figure img') || {}).src || null,
              caption: (art.querySelector('figcaption') || {}).textContent || null,
              forbidden: art.querySelectorAll('script, iframe, form, input, button, style').length,
              handlers: [...document.querySelectorAll('*')].flatMap(e => [...e.attributes])
                         .filter(a => /^on/i.test(a.name)).length,
              title: document.title,
              violations: window.pithReader.violations,
            };
        }""")
        assert "Lichens are not plants but partnerships" in st["text"]
        assert st["headers"] == ["Month", "Area (mm²)", "Notes"]
        assert st["code"].startswith("def schedule(days):\n    for day in range(days):\n")
        assert st["img"] == f"{pages_url}/reader/images/lichen.png"
        assert st["caption"].strip() == "Xanthoria parietina after six months on the pane."
        for absent in ("About us", "Share on X", "Subscribe", "HIDDEN TEXT"):
            assert absent not in st["text"], absent
        assert st["forbidden"] == 0 and st["handlers"] == 0 and st["violations"] == 0
        assert "PWNED" not in st["title"]
    finally:
        fx.ff.send("browsingContext.close", {"context": ctx})


def test_a_remembered_block_is_chosen_again_in_firefox(fx, pages_url):
    """locate.js in Firefox's content-script sandbox: the selector saved after a shrink
    names the same element on the next visit, and the host pins it."""
    url = f"{pages_url}/reader/source.html"
    try:
        fx.load(url)
        first = assert_ok(fx.command("extract"), "extract")
        moved = assert_ok(fx.command("shrink"), "shrink")
        assert moved["path"] != first["path"]
        saved = assert_ok(fx.command("remember"), "remember")
        assert saved["site"] == "127.0.0.1" and saved["selector"]
        fx.load(url)
        again = assert_ok(fx.command("extract"), "extract on the next visit")
        assert again["rule"] == "applied" and again["path"] == moved["path"]
    finally:
        fx.ff.call(fx.ext, "() => browser.storage.local.remove('siteRules')")


# --- the browser a worker shares among modules -----------------------------------------------


def test_a_module_takes_the_shared_firefox_as_a_fresh_start_leaves_it(firefox_with_pith):
    """What an earlier module left (stored rules, preferences, a selection, an open tab) is
    gone after fresh_pith: the page tab and the extension page only, storage empty."""
    earlier = fresh_pith(firefox_with_pith)
    earlier.ff.call(earlier.ext, EARLIER_MODULE_JS)
    earlier.ff.new_tab()
    now = fresh_pith(firefox_with_pith)
    assert now.ff.call(now.ext, STORAGE_JS) == [{}, {}]
    assert [c["context"] for c in now.ff.contexts()] == [now.page, now.ext]
