"""Drive the real extension in Debian Chromium through Playwright: for `make run`, the e2e tests and the extension bench.

    with sync_playwright() as pw, ExtensionBrowser(pw, profile_dir) as xb:
        xb.page.goto(url)
        reply = xb.click()                   # the toolbar button, as a person clicks it
        xb.command("grow")                   # the test hook: {type: "pith:command", ...}
        xb.overlay()                         # what the page shows

`start()` registers the native host in the profile (`<profile>/NativeMessagingHosts`, as
`pith install-host --browser chromium --user-data-dir` does) and launches Chromium with
the unpacked extension (DESIGN.md §5 flags). `click()` uses the DevTools call
`Extensions.triggerAction` on the page's tab, which runs `action.onClicked` and grants
`activeTab` exactly as a click on the toolbar button does (it needs
`--enable-unsafe-extension-debugging` and Playwright's pipe connection). Messages go
through the extension's own options page, opened in a second tab, so they survive a
stopped service worker. The first tab, `page`, is the page under test.
"""
from __future__ import annotations

import json
import shutil
import time
from pathlib import Path
from typing import Any

from ..native import install
from .browser import CHROMIUM_FLAGS, VIEWPORT, find_chromium

EXTENSION_DIR = Path(__file__).resolve().parents[3] / "extension"
OPTIONS_PAGE = "ui/options.html"
READER_PAGE = "ui/reader.html"
# A click's whole round trip (capture, host, drawing); the first one also starts the host.
COMMAND_TIMEOUT_S = 30.0
POLL_S = 0.02
# After a click refused for a tab that was not active yet, wait this long before clicking again.
FOCUS_SETTLE_S = 0.3

# Runs in the page's main world: the element at a snapshot path, walking the same flat tree
# as capture.js (open shadow roots, slots' assigned nodes, same-origin frames, no svg kids).
ELEMENT_AT_PATH_JS = """
(path) => {
  const kids = (el) => {
    const name = el.localName;
    if (name === 'iframe' || name === 'frame') {
      let d = null;
      try { d = el.contentDocument; } catch (e) { d = null; }
      return d && d.documentElement ? [d.documentElement] : [];
    }
    if (name === 'svg') return [];
    if (el.shadowRoot) return [...el.shadowRoot.children];
    if (name === 'slot' && el.assignedNodes().length) {
      return el.assignedNodes().filter((n) => n.nodeType === 1);
    }
    return [...el.children];
  };
  let el = document.documentElement;
  for (const k of path) { el = el ? kids(el)[k] : undefined; }
  return el || null;
}
"""

# The overlay's shadow roots are closed: no page script reaches them. The DevTools protocol
# does; pin_shadow_roots hands each to the page's main world as __pithRoots.get(host), for
# the driver's and the tests' checks only (SHADOW_ROOT_JS reads it).
PIN_ROOT_JS = ("function () { (globalThis.__pithRoots = globalThis.__pithRoots || new WeakMap())"
               ".set(this.host, this); }")
OVERLAY_HOSTS = "pith-overlay, pith-toast"

# Runs in the page: what the overlay shows, and the rectangle of the element it should mark.
OVERLAY_JS = """
(elementAt) => {
  const ov = document.getElementById('pith-overlay');
  if (!ov) return null;
  const rect = (e) => { const r = e.getBoundingClientRect(); return [r.x, r.y, r.width, r.height]; };
  const sr = (globalThis.__pithRoots && __pithRoots.get(ov)) || null;
  const box = sr && sr.querySelector('[part~="box"]');
  const path = JSON.parse(ov.getAttribute('data-pith-path'));
  const el = elementAt(path);
  const buttons = {};
  if (sr) for (const b of sr.querySelectorAll('button[part]')) buttons[b.getAttribute('part')] = b.getAttribute('aria-label');
  const toast = sr && sr.querySelector('[part~="toast"]');
  return {
    under_root: ov.parentNode === document.documentElement,
    node: Number(ov.getAttribute('data-pith-node')), path, tag: ov.getAttribute('data-pith-tag'),
    open_shadow: ov.shadowRoot !== null, pinned: sr !== null, buttons,
    box: box ? rect(box) : null,
    outline: box ? getComputedStyle(box).outlineStyle : null,
    box_position: box ? getComputedStyle(box).position : null,
    target: el ? rect(el) : null, target_tag: el ? el.localName : null,
    text: el ? (el.innerText || '') : '',
    toast: toast && getComputedStyle(toast).display !== 'none' ? toast.textContent : null,
  };
}
"""


def pin_shadow_roots(page, selector: str = OVERLAY_HOSTS, cdp=None) -> int:
    """Make the (closed) shadow roots of the elements `selector` matches readable in the
    page's main world as `__pithRoots.get(host)`, through the DevTools protocol; how many.
    Only the automation protocol can do this: a page's own scripts cannot. `cdp`: a
    DevTools session of `page` to reuse (opening one takes about 100 ms)."""
    session = cdp or page.context.new_cdp_session(page)
    try:
        root = session.send("DOM.getDocument", {"depth": 0})["root"]["nodeId"]
        pinned = 0
        for node_id in session.send("DOM.querySelectorAll", {"nodeId": root, "selector": selector})["nodeIds"]:
            node = session.send("DOM.describeNode", {"nodeId": node_id, "depth": 0, "pierce": True})["node"]
            for shadow in node.get("shadowRoots", []):
                obj = session.send("DOM.resolveNode", {"backendNodeId": shadow["backendNodeId"]})["object"]
                session.send("Runtime.callFunctionOn", {"objectId": obj["objectId"],
                                                        "functionDeclaration": PIN_ROOT_JS})
                pinned += 1
        return pinned
    finally:
        if cdp is None:
            session.detach()


def drop_cached_worker(profile_dir: Path) -> None:
    """Forget the service worker scripts a Chromium profile cached.

    Chromium keeps an unpacked extension's service worker (and the modules it imports)
    across launches for as long as the manifest's version is unchanged, so a profile used
    before a `git pull` would run the old background code against new page scripts. The
    cache is rebuilt from extension/ at the next start; nothing else is lost."""
    shutil.rmtree(Path(profile_dir) / "Default" / "Service Worker", ignore_errors=True)


def extension_id(extension_dir: Path = EXTENSION_DIR) -> str:
    """The Chrome extension id pinned by the `key` of the extension's manifest."""
    manifest = json.loads((extension_dir / "manifest.json").read_text(encoding="utf-8"))
    return install.extension_id(manifest["key"])


def launch_args(extension_dir: Path = EXTENSION_DIR) -> list[str]:
    """Chromium flags: DESIGN.md §5's, the extension, and what Extensions.triggerAction needs."""
    return [*CHROMIUM_FLAGS, f"--disable-extensions-except={extension_dir}",
            f"--load-extension={extension_dir}", "--enable-unsafe-extension-debugging"]


class ExtensionError(RuntimeError):
    """The harness could not do what was asked (not an error the extension reports)."""


class ExtensionBrowser:
    """Chromium with the unpacked extension and its host registered in `profile_dir`."""

    def __init__(self, playwright, profile_dir: Path, *, headless: bool = True,
                 extension_dir: Path = EXTENSION_DIR, viewport: dict | None = None):
        self.pw = playwright
        self.profile_dir = Path(profile_dir)
        self.headless = headless
        self.extension_dir = extension_dir
        self.viewport = dict(viewport or VIEWPORT)
        self.id = extension_id(extension_dir)
        self.context = None
        self.page = None            # the tab under test
        self.ext = None             # the extension's options page, which sends the messages
        self.cdp = None             # a browser-level DevTools session
        self._tab_id: int | None = None
        self._pin_session = (None, None)   # (page, its DevTools session) for pin_shadow_roots

    def __enter__(self) -> "ExtensionBrowser":
        self.start()
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def start(self) -> None:
        self.profile_dir.mkdir(parents=True, exist_ok=True)
        drop_cached_worker(self.profile_dir)
        install.install(["chromium"], self.profile_dir)
        self.context = self.pw.chromium.launch_persistent_context(
            str(self.profile_dir), executable_path=find_chromium(), headless=self.headless,
            viewport=self.viewport, args=launch_args(self.extension_dir))
        try:
            if not self.context.service_workers:
                self.context.wait_for_event("serviceworker", timeout=COMMAND_TIMEOUT_S * 1000)
            self.page = self.context.pages[0] if self.context.pages else self.context.new_page()
            self.ext = self.context.new_page()
            self.ext.goto(f"chrome-extension://{self.id}/{OPTIONS_PAGE}")
            self.cdp = self.context.browser.new_browser_cdp_session()
        except BaseException:
            self.close()
            raise

    def reset(self) -> None:
        """The browser as start() leaves it, without a restart: a new tab under test and a
        new options page, every other tab closed (pages, reader tabs), the extension's
        storage emptied (site rules, reader preferences, host options, selections). The
        service worker and its host connection stay (tests share one browser: NOTES.md,
        'Why the suite shares browsers')."""
        page = self.context.new_page()
        for other in self.context.pages:
            if other is not page:
                other.close()
        self.page, self._tab_id, self._pin_session = page, None, (None, None)
        self.ext = self.context.new_page()
        self.ext.goto(f"chrome-extension://{self.id}/{OPTIONS_PAGE}")
        self.ext.evaluate("""async () => {
            await chrome.storage.local.clear();
            await chrome.storage.session.clear();
        }""")

    def close(self) -> None:
        context, self.context = self.context, None
        if context is not None:
            try:
                context.close()
            except Exception:          # already gone
                pass

    # --- the extension's side --------------------------------------------------------------
    def message(self, msg: dict, timeout_s: float = COMMAND_TIMEOUT_S) -> Any:
        """`runtime.sendMessage(msg)` from the extension page; its answer."""
        return self.ext.evaluate(
            """([m, ms]) => Promise.race([chrome.runtime.sendMessage(m),
                 new Promise((_, no) => setTimeout(() => no(new Error('no answer in ' + ms + ' ms')), ms))])""",
            [msg, int(timeout_s * 1000)])

    def ext_eval(self, expression: str, arg: Any = None) -> Any:
        """Evaluate a function expression in the extension page (chrome.* available)."""
        return self.ext.evaluate(expression, arg)

    @property
    def tab_id(self) -> int:
        """The extension's id of the tab under test (the tab other than the options page)."""
        if self._tab_id is None:
            ids = self.ext.evaluate("""async () => {
                const me = await chrome.tabs.getCurrent();
                return (await chrome.tabs.query({})).map(t => t.id).filter(id => id !== me.id);
            }""")
            if len(ids) != 1:
                raise ExtensionError(f"expected one tab besides the options page, found {len(ids)}")
            self._tab_id = ids[0]
        return self._tab_id

    def command(self, name: str, tab_id: int | None = None) -> dict:
        return self.message({"type": "pith:command", "command": name,
                             "tabId": self.tab_id if tab_id is None else tab_id})

    def state(self, tab_id: int | None = None) -> dict:
        return self.message({"type": "pith:state", "tabId": self.tab_id if tab_id is None else tab_id})

    def last(self, tab_id: int | None = None) -> tuple[int, dict | None]:
        """(seq, reply) of the last command on the tab; seq grows with every command."""
        got = self.message({"type": "pith:last", "tabId": self.tab_id if tab_id is None else tab_id})
        return got["seq"], got["reply"]

    def hello(self) -> dict:
        return self.message({"type": "pith:hello"})

    def badge(self) -> dict:
        return self.ext.evaluate("""async (tabId) => ({
            text: await chrome.action.getBadgeText({tabId}),
            title: await chrome.action.getTitle({tabId})})""", self.tab_id)

    # --- a person's side -------------------------------------------------------------------
    def _tab_target(self) -> str:
        url = self.page.url
        targets = self.cdp.send("Target.getTargets", {"filter": [{}]})["targetInfos"]
        tabs = [t for t in targets if t["type"] == "tab" and t["url"] == url]
        if len(tabs) != 1:
            raise ExtensionError(f"{len(tabs)} tab targets show {url}")
        return tabs[0]["targetId"]

    def click(self, timeout_s: float = COMMAND_TIMEOUT_S) -> dict:
        """Click the toolbar button on the page under test; the reply of the extract it runs.

        The click grants activeTab to the window's active tab. Headless Chromium may not
        have made the page active yet right after bring_to_front; the page then answers
        page_forbidden, and the click is made once more, as a person would click again.
        """
        reply = self._click_once(timeout_s)
        if not reply.get("ok") and (reply.get("error") or {}).get("name") == "page_forbidden":
            time.sleep(FOCUS_SETTLE_S)
            reply = self._click_once(timeout_s)
        return reply

    def _click_once(self, timeout_s: float) -> dict:
        before, _ = self.last()
        self.page.bring_to_front()           # the action acts on the window's active tab
        self.cdp.send("Extensions.triggerAction", {"id": self.id, "targetId": self._tab_target()})
        deadline = time.monotonic() + timeout_s
        while True:
            seq, reply = self.last()
            if seq != before and reply is not None:
                return reply
            if time.monotonic() > deadline:
                raise ExtensionError(f"no reply to the click within {timeout_s:g} s")
            time.sleep(POLL_S)

    def open_reader(self, timeout_s: float = COMMAND_TIMEOUT_S) -> tuple[Any, dict, float]:
        """Run the reader command on the page under test: (the reader tab once it has
        rendered, the command's reply, ms from sending the command to the reader shown).

        The time is wall clock in the browser: Date.now() in the extension page before the
        message, and the reader's own `pithReader.shownAt` (Date.now() after rendering)."""
        with self.context.expect_page(timeout=timeout_s * 1000) as opened:
            sent, reply = self.ext.evaluate(
                """async (tabId) => { const t = Date.now();
                     return [t, await chrome.runtime.sendMessage({type: 'pith:command', command: 'reader', tabId})]; }""",
                self.tab_id)
            if not reply.get("ok"):
                raise ExtensionError(f"reader: {reply.get('error')}")
        page = opened.value
        page.wait_for_function("() => window.pithReader && window.pithReader.shownAt",
                               timeout=timeout_s * 1000)
        if READER_PAGE not in page.url:
            raise ExtensionError(f"the tab opened is {page.url}, not the reader")
        return page, reply, float(page.evaluate("() => window.pithReader.shownAt") - sent)

    def pin_shadow_roots(self) -> int:
        """pin_shadow_roots on the page under test, over one DevTools session kept for it."""
        if self._pin_session[0] is not self.page:
            self._pin_session = (self.page, self.context.new_cdp_session(self.page))
        return pin_shadow_roots(self.page, cdp=self._pin_session[1])

    def overlay(self) -> dict | None:
        """What #pith-overlay shows, with the rectangle of the element its path names."""
        self.pin_shadow_roots()
        return self.page.evaluate(f"(() => ({OVERLAY_JS})({ELEMENT_AT_PATH_JS}))()")

    def content_script_eval(self, expression: str) -> Any:
        """`expression` evaluated in Pith's isolated world of the page under test (where its
        injected scripts run; chrome.runtime is theirs), promises awaited: what a content
        script can do. Through the DevTools protocol; a page cannot do this."""
        cdp = self.context.new_cdp_session(self.page)
        try:
            worlds = []
            cdp.on("Runtime.executionContextCreated", lambda e: worlds.append(e["context"]))
            cdp.send("Runtime.enable")         # reports the contexts that exist
            ours = [c["id"] for c in worlds if (c.get("auxData") or {}).get("type") == "isolated"
                    and c.get("origin") == f"chrome-extension://{self.id}"]
            if not ours:
                raise ExtensionError("Pith has no isolated world in the page (nothing injected yet)")
            res = cdp.send("Runtime.evaluate", {"contextId": ours[0], "expression": expression,
                                                "awaitPromise": True, "returnByValue": True})
            if "exceptionDetails" in res:
                raise ExtensionError(f"content script threw: {res['exceptionDetails'].get('text')}")
            return res["result"].get("value")
        finally:
            cdp.detach()

    def click_part(self, part: str) -> None:
        """A person's (trusted) mouse click on the overlay's element part=`part`."""
        self.pin_shadow_roots()
        x, y = self.page.evaluate("""(part) => {
            const el = __pithRoots.get(document.getElementById('pith-overlay'))
                .querySelector('[part~="' + part + '"]');
            const r = el.getBoundingClientRect();
            return [r.x + r.width / 2, r.y + r.height / 2]; }""", part)
        self.page.mouse.click(x, y)

    def element_text(self, path: list[int]) -> str:
        return self.page.evaluate(f"(p) => {{ const el = ({ELEMENT_AT_PATH_JS})(p); "
                                  "return el ? el.innerText : null; }", path)
