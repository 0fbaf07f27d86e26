"""Capture pages in headless Debian Chromium through Playwright: the CLI's and the benchmarks' browser.

    with Browser(js=True, timeout_s=30.0) as b:
        snap = b.capture("page.html")            # or file:///…, http(s)://…
        snap = b.capture("https://example.org/")

One Chromium is launched per `Browser` and reused; every capture gets a fresh context and
page, so a crashed page is reported (BrowserFailed) and the next capture still works (a
dead browser is relaunched). The page runs `capture.js`, the very script the extension
injects, and its JSON string is parsed here. Like the extension's content scripts, it runs
in an isolated world of its own (CDP Page.createIsolatedWorld): a page that rewrites
Node.prototype, Array.prototype or JSON before we capture it changes nothing we see.

Local files never touch the network: their bytes are decoded by `static.decode_html`
(BOM, --encoding, <meta>, UTF-8, windows-1252), checked by `static.check_html`, and served
to the page as UTF-8 from a synthetic origin (`http://pith.invalid/<name>`, so the snapshot's
`url` and resolved links use that origin); files beside it (CSS, images, frames) are served
from the same folder and every other request is aborted, so pages render offline at once.

Playwright's sync API cannot time out `page.evaluate`; a private asyncio loop drives the
async API instead, so a page that hangs its renderer ends in `Timeout`, not a hung CLI.
The loop runs in a thread of its own, so `Browser` also works where the calling thread
already runs an event loop (a notebook, Playwright's sync API in the same test session).
"""
from __future__ import annotations

import asyncio
import json
import mimetypes
import os
import re
import threading
import time
from pathlib import Path
from urllib.parse import quote, unquote, urlsplit
from urllib.request import url2pathname

from . import network
from .local import read_local, unsupported_scheme
from ..errors import BrowserFailed, BrowserMissing, CaptureFailed, FetchFailed, Timeout
from .loopback import Loopback, Served
from .static import check_html, decode_html

CAPTURE_JS = Path(__file__).with_name("capture.js")
CHROMIUM_ENV = "PITH_CHROMIUM"           # explicit path to a Chromium binary, checked first
CHROMIUM_PATHS = ("/usr/bin/chromium", "/usr/bin/chromium-browser")
INSTALL_HINT = "sudo apt-get install chromium"
# DESIGN.md §5: the flags measured to run Debian Chromium headless here, minus the
# extension ones (the CLI runs capture.js itself).
CHROMIUM_FLAGS = ("--no-sandbox", "--disable-background-networking",
                  "--disable-component-update", "--disable-sync", "--no-first-run",
                  "--disable-quic", "--disable-gpu")
# A common desktop size: layout features (CLG) are about desktop layouts, and it matches
# the example in host/SNAPSHOT.md.
VIEWPORT = {"width": 1280, "height": 800}
# Largest local body answered through Playwright (route.fulfill); a larger one goes to
# Chromium from the loopback server (loopback.py). The driver passes a fulfilled body as
# one base64 message, about 0.5 s a MB (a 20 MB page held it 23 s, past any timeout);
# below 1 MB that is at most about half a second, and the server (a thread, a socket) is
# started only when a page or file needs it.
FULFILL_MAX_BYTES = 1 << 20
# .invalid never resolves (RFC 2606), so nothing real can answer for the synthetic origin.
LOCAL_ORIGIN = "http://pith.invalid"
# After DOMContentLoaded, wait at most this long for `load`: a slow image or ad must not
# block the capture of a page whose DOM is there.
LOAD_CAP_S = 5.0
# How often a local page's document.readyState is read while waiting for it (_navigate).
READY_POLL_MS = 20
READY_STATE_JS = "document.readyState"
# Closing a page or context of a wedged renderer must not hang the next capture.
CLOSE_TIMEOUT_S = 5.0
_NET_ERROR = re.compile(r"net::ERR_[A-Z0-9_]+")
# How often a running capture checks whether its page crashed meanwhile.
CRASH_POLL_S = 0.1
# Name of the isolated world capture.js runs in (shown in DevTools; any name works).
CAPTURE_WORLD = "pith-capture"


async def _ready_state(page, states: tuple[str, ...], timeout_ms: float) -> None:
    """Wait until the page's document.readyState is one of `states`, reading it every
    READY_POLL_MS with page.evaluate. Not page.wait_for_function: it builds its predicate
    with eval inside the page, which a page's Content-Security-Policy without
    'unsafe-eval' forbids (an EvalError, and the page was lost); an evaluate from the
    protocol is not the page's own script and passes. A read that fails while the page
    swaps its execution context (a navigation it started) is read again; one that fails
    because the page crashed is raised. PwTimeout after `timeout_ms`, also when a read
    does not return (a script that never yields holds the page's only thread)."""
    from playwright.async_api import Error, TimeoutError as PwTimeout
    deadline = time.monotonic() + timeout_ms / 1000
    while True:
        try:
            state = await asyncio.wait_for(page.evaluate(READY_STATE_JS),
                                           max(deadline - time.monotonic(), 0.001))
            if state in states:
                return
        except asyncio.TimeoutError:
            pass
        except Error as exc:
            if "crash" in str(exc).lower() or page.is_closed():
                raise
        if time.monotonic() >= deadline:
            raise PwTimeout(f"document.readyState not {' or '.join(states)} "
                            f"within {timeout_ms:g} ms")
        await asyncio.sleep(READY_POLL_MS / 1000)


def find_chromium() -> str:
    """Path of the Chromium binary: $PITH_CHROMIUM, else Debian's; else BrowserMissing."""
    explicit = os.environ.get(CHROMIUM_ENV)
    if explicit:
        if os.access(explicit, os.X_OK):
            return explicit
        raise BrowserMissing(f"${CHROMIUM_ENV} names {explicit}, which is not an executable")
    for path in CHROMIUM_PATHS:
        if os.access(path, os.X_OK):
            return path
    raise BrowserMissing(f"Chromium not found ({', '.join(CHROMIUM_PATHS)}); install it "
                         f"with `{INSTALL_HINT}` or set ${CHROMIUM_ENV}")


async def _in_isolated_world(page, script: str):
    """The completion value of `script` run in a fresh isolated world of `page`'s main frame:
    the same DOM, but the built-ins and prototypes of a world the page's scripts never saw."""
    from playwright.async_api import Error
    cdp = await page.context.new_cdp_session(page)
    try:
        tree = await cdp.send("Page.getFrameTree")
        world = await cdp.send("Page.createIsolatedWorld", {
            "frameId": tree["frameTree"]["frame"]["id"], "worldName": CAPTURE_WORLD})
        reply = await cdp.send("Runtime.evaluate", {
            "expression": script, "contextId": world["executionContextId"],
            "returnByValue": True})
    finally:
        # bounded: a crashed or wedged renderer never answers, and this also runs when
        # the caller's time limit cancels the evaluation
        try:
            await asyncio.wait_for(cdp.detach(), CLOSE_TIMEOUT_S)
        except (Error, asyncio.TimeoutError):
            pass            # the page is gone or stuck; the caller reports why
    if "exceptionDetails" in reply:
        details = reply["exceptionDetails"]
        raise Error((details.get("exception") or {}).get("description") or details.get("text", ""))
    return reply["result"].get("value")


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__


class _Local:
    """A local HTML file, decoded, and the synthetic URL it is served under (its bytes go
    to Chromium from the loopback server, loopback.py)."""

    def __init__(self, path: Path, encoding: str | None, errors: str):
        data = read_local(path)     # refused and worded as in --static
        self.text, self.charset = decode_html(data, encoding, errors)
        check_html(self.text, str(path))
        self.served = Served(path.name, self.text.encode("utf-8"), path.resolve().parent)
        self.url = f"{LOCAL_ORIGIN}/{quote(path.name)}"
        self.loopback: Loopback | None = None
        self.token = ""

    def serve(self, loopback: Loopback) -> None:
        self.loopback, self.token = loopback, loopback.add(self.served)

    def close(self) -> None:
        if self.loopback is not None:
            self.loopback.remove(self.token)

    async def route(self, route) -> None:
        """Answer the page and the files beside it (over FULFILL_MAX_BYTES: send them to
        the loopback server, loopback.py); abort everything else. A navigation of the page itself to anywhere else (a script's `location =
        ...`, a meta refresh, a form) gets `204 No Content`, which a browser answers by
        staying on the page: the capture is of the file asked for. Aborting it instead
        would replace the page with Chromium's error page ("This site can't be reached"),
        which is what two saved pages of wcxb_dev_full (0168, 0475: a script sends them to
        the site's home page) were captured as. A request the closed page leaves behind
        (a timeout, a crash) is dropped: nothing is left to answer it."""
        from playwright.async_api import Error
        request = route.request
        url = request.url.split("#", 1)[0]
        try:
            if url == self.url:
                await self._answer(route, self.served.name, self.served.body,
                                   "text/html; charset=utf-8")
            elif request.is_navigation_request() and request.frame.parent_frame is None:
                await route.fulfill(status=204, body=b"")
            elif not url.startswith(LOCAL_ORIGIN + "/"):
                await route.abort()
            else:
                rel = unquote(urlsplit(url).path).lstrip("/")
                file = (self.served.folder / rel).resolve()
                if not (file.is_relative_to(self.served.folder) and file.is_file()):
                    await route.fulfill(status=404, body=b"", headers={"content-type": "text/plain"})
                elif file.stat().st_size > FULFILL_MAX_BYTES:
                    await self._answer(route, rel, None, "")
                else:
                    kind = mimetypes.guess_type(file.name)[0] or "application/octet-stream"
                    await self._answer(route, rel, file.read_bytes(), kind)
        except (Error, OSError):
            pass

    async def _answer(self, route, rel: str, body: bytes | None, kind: str) -> None:
        """Fulfill with `body` when it is small; else let Chromium fetch `rel` from the
        loopback server (a large body would hold Playwright's driver for seconds)."""
        if body is not None and len(body) <= FULFILL_MAX_BYTES:
            await route.fulfill(status=200, body=body, headers={"content-type": kind})
        else:
            self.loopback.start()       # on first use: most runs never need it
            await route.continue_(url=self.loopback.url(self.token, rel))


class Browser:
    """Headless Chromium for captures; use as a context manager (or call start/close)."""

    def __init__(self, js: bool = True, timeout_s: float = 30.0, *,
                 encoding: str | None = None, encoding_errors: str = "strict",
                 viewport: dict | None = None):
        """`js` false disables page scripts (capture.js still runs: it is evaluated by
        the driver, not by the page). `timeout_s` bounds navigation and, separately, the
        capture script. `encoding`/`encoding_errors` go to `decode_html` for local files."""
        self.js = js
        self.timeout_s = timeout_s
        self.encoding = encoding
        self.encoding_errors = encoding_errors
        self.viewport = dict(viewport or VIEWPORT)
        # An optional `async def hook(page)` run after load, before any script: a seam for
        # tests (crash a page, slow it down). Not part of the public API.
        self.on_page = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._pw = None
        self._browser = None
        self._source: str | None = None
        self._loopback = Loopback()

    # --- lifecycle ---------------------------------------------------------------------
    def __enter__(self) -> "Browser":
        self.start()
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def start(self) -> None:
        """Launch Chromium (BrowserMissing when absent, BrowserFailed when it will not start)."""
        if self._browser is not None:
            return
        exe = find_chromium()
        try:
            self._source = CAPTURE_JS.read_text(encoding="utf-8")
        except OSError as exc:
            raise CaptureFailed(f"cannot read {CAPTURE_JS}: {exc}") from None
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, name="pith-browser",
                                        daemon=True)
        self._thread.start()
        try:
            self._run(self._launch(exe))
        except BaseException:
            self.close()
            raise

    def close(self) -> None:
        """Close the browser and Playwright; safe to call twice."""
        self._loopback.close()
        if self._loop is None:
            return
        try:
            self._run(self._shutdown())
        finally:
            self._loop.call_soon_threadsafe(self._loop.stop)
            self._thread.join()
            self._loop.close()
            self._loop = None

    # --- public work -------------------------------------------------------------------
    def capture(self, target) -> dict:
        """The snapshot of `target` (local path, file:// or http(s):// URL), plus `timings`."""
        started = time.perf_counter()
        (result,), timings = self._run(self._visit(str(target), [self._source], isolated=True))
        t = time.perf_counter()
        if not isinstance(result, str):
            raise CaptureFailed(f"capture.js returned {type(result).__name__}, not a JSON string")
        try:
            snap = json.loads(result)
        except ValueError as exc:
            raise CaptureFailed(f"capture.js returned invalid JSON: {exc}") from None
        timings["parse_ms"] = round((time.perf_counter() - t) * 1000, 1)
        timings["total_ms"] = round((time.perf_counter() - started) * 1000, 1)
        snap["timings"] = timings
        return snap

    def evaluate(self, target, expressions: list[str]) -> list:
        """Load `target` like `capture` and evaluate each expression in turn, in one page;
        returns their values. For tests and tools (e.g. inject capture.js twice)."""
        results, _ = self._run(self._visit(str(target), list(expressions)))
        return results

    # --- internals (run on the private loop) --------------------------------------------
    def _run(self, coro):
        if self._loop is None:
            coro.close()
            raise BrowserFailed("the browser is not started (use `with Browser() as b:`)")
        return asyncio.run_coroutine_threadsafe(coro, self._loop).result()

    async def _launch(self, exe: str) -> None:
        from playwright.async_api import Error, async_playwright
        if self._pw is None:
            self._pw = await async_playwright().start()
        try:
            self._browser = await self._pw.chromium.launch(
                executable_path=exe, headless=True, args=list(CHROMIUM_FLAGS))
        except Error as exc:
            raise BrowserFailed(f"cannot start Chromium ({exe}): {_first_line(exc)}") from None

    async def _shutdown(self) -> None:
        browser, self._browser = self._browser, None
        pw, self._pw = self._pw, None
        if browser is not None:
            try:
                await asyncio.wait_for(browser.close(), CLOSE_TIMEOUT_S)
            except Exception:       # already dead or wedged: the driver's exit kills it
                pass
        if pw is not None:
            try:
                await pw.stop()
            except Exception:       # the driver is gone already
                pass

    def _target(self, target: str) -> tuple[str, _Local | None]:
        """(url to navigate to, the local file or None)."""
        try:
            scheme = urlsplit(target).scheme.lower()
        except ValueError:          # e.g. a malformed IPv6 host: not a URL, maybe a path
            scheme = ""
        if scheme in ("http", "https", "about", "data"):
            return target, None
        if scheme == "file":
            path = Path(url2pathname(unquote(urlsplit(target).path)))
        elif unsupported_scheme(target) is not None:
            raise unsupported_scheme(target)
        else:
            path = Path(target)
        local = _Local(path, self.encoding, self.encoding_errors)
        return local.url, local

    async def _visit(self, target: str, scripts: list[str], *,
                     isolated: bool = False) -> tuple[list, dict]:
        """Open a fresh page on `target`, run `scripts` in it (in the page's own world, or
        in an isolated world of their own), close it; (results, timings)."""
        url, local = self._target(target)
        if self._browser is None or not self._browser.is_connected():
            self._browser = None
            await self._launch(find_chromium())
        from playwright.async_api import Error
        if local is not None:
            local.serve(self._loopback)
        try:
            context = await self._browser.new_context(
                java_script_enabled=self.js, viewport=self.viewport, service_workers="block")
        except Error as exc:
            self._browser = None        # relaunched on the next capture
            if local is not None:
                local.close()
            raise BrowserFailed(f"the browser failed: {_first_line(exc)}") from None
        try:
            page = await context.new_page()
            crashed: list[bool] = []
            page.on("crash", lambda _page: crashed.append(True))
            if local is not None:
                await page.route("**/*", local.route)
            t0 = time.perf_counter()
            await self._navigate(page, url, target, crashed, local is not None)
            if self.on_page is not None:
                await self.on_page(page)
            t1 = time.perf_counter()
            results = []
            for script in scripts:
                results.append(await self._evaluate(page, script, target, crashed, isolated))
            t2 = time.perf_counter()
            return results, {"load_ms": round((t1 - t0) * 1000, 1),
                             "eval_ms": round((t2 - t1) * 1000, 1)}
        finally:
            try:
                await asyncio.wait_for(context.close(), CLOSE_TIMEOUT_S)
            except Exception:
                if self._browser is not None and not self._browser.is_connected():
                    self._browser = None        # relaunched on the next capture
            if local is not None:
                local.close()

    async def _navigate(self, page, url: str, target: str, crashed: list,
                        local: bool = False) -> None:
        """Load `url` until its DOM is there, then wait up to LOAD_CAP_S for `load`.

        A local page is waited for by its own `document.readyState`, not by Playwright's
        lifecycle events: when the page's script navigates it away before
        DOMContentLoaded, the navigation is refused (_Local.route) and the document stays
        and completes, but Playwright files its events under the refused navigation and
        would wait for ever."""
        from playwright.async_api import Error, TimeoutError as PwTimeout
        timeout_ms = self.timeout_s * 1000
        try:
            response = await page.goto(url, wait_until="commit" if local else "domcontentloaded",
                                       timeout=timeout_ms)
            if local:
                await _ready_state(page, ("interactive", "complete"), timeout_ms)
        except PwTimeout:
            raise Timeout(f"{target}: the page did not load within {self.timeout_s:g} s") from None
        except Error as exc:
            if crashed or "crash" in str(exc).lower():
                raise BrowserFailed(f"{target}: the page crashed while loading") from None
            reason = _NET_ERROR.search(str(exc))
            raise network.unreachable(target, reason.group(0) if reason else _first_line(exc)
                                      ) from None
        if response is not None and response.status >= 400:
            raise FetchFailed(f"{target}: HTTP {response.status} {response.status_text}".rstrip(),
                              status=response.status)
        cap_ms = min(LOAD_CAP_S, self.timeout_s) * 1000
        try:
            if local:
                await _ready_state(page, ("complete",), cap_ms)
            else:
                await page.wait_for_load_state("load", timeout=cap_ms)
        except PwTimeout:
            pass            # the DOM is there; a slow subresource must not block the capture
        except Error as exc:
            if crashed or "crash" in str(exc).lower():
                raise BrowserFailed(f"{target}: the page crashed while loading") from None
            raise BrowserFailed(f"{target}: {_first_line(exc)}") from None

    async def _evaluate(self, page, script: str, target: str, crashed: list,
                        isolated: bool = False):
        """`script`'s value in `page`, within timeout_s. Watches for a crash while it waits:
        Playwright fails its own evaluate when the page crashes, but a CDP session (the
        isolated world) would wait for an answer that never comes."""
        from playwright.async_api import Error
        crash = BrowserFailed(f"{target}: the page crashed during capture")
        if crashed:
            raise crash
        run = _in_isolated_world(page, script) if isolated else page.evaluate(script)
        task = asyncio.ensure_future(run)
        deadline = time.monotonic() + self.timeout_s
        try:
            while not task.done():
                await asyncio.wait({task}, timeout=CRASH_POLL_S)
                if task.done():
                    break
                if crashed:
                    raise crash
                if time.monotonic() > deadline:
                    raise Timeout(f"{target}: the capture script did not finish within "
                                  f"{self.timeout_s:g} s (the page's own scripts may block it)")
            return task.result()
        except Error as exc:
            if crashed or "crash" in str(exc).lower():
                raise crash from None
            raise CaptureFailed(f"{target}: the capture script failed: "
                                f"{_first_line(exc)}") from None
        finally:
            if not task.done():
                task.cancel()           # not awaited: a wedged renderer may never answer
