"""Drive Debian firefox-esr over WebDriver BiDi for the tests: start, command, collect events, stop.

Playwright's Firefox needs a patched build, so the Firefox tests speak WebDriver BiDi
themselves (DESIGN.md §5). `Firefox` starts `firefox-esr -headless` on a fresh profile
(prefs below), reads the websocket address Firefox prints on stderr, opens a BiDi session
and sends commands with ids, keeping the events that arrive in between. Every wait is
bounded; `close` (also on `with` exit) ends the session, kills the process group and
removes the profile.

    with Firefox(home=tmp_home, prefs={...}) as ff:
        ctx = ff.new_tab()
        ff.navigate(ctx, "http://127.0.0.1:8000/")
        ff.evaluate(ctx, "document.title")

One connection, one thread (the caller's): events are only read while a command waits
for its reply or `wait_event` waits, which is all a test needs. Stderr and stdout of
Firefox are drained by a daemon thread into a bounded tail, shown in every error.
"""
from __future__ import annotations

import collections
import contextlib
import itertools
import json
import math
import os
import re
import shutil
import signal
import subprocess
import tempfile
import threading
import time
from pathlib import Path
from typing import Any, Callable

from websockets.exceptions import ConnectionClosed, WebSocketException
from websockets.sync.client import connect

# Executable names tried in turn on PATH.
FIREFOX_NAMES = ("firefox-esr", "firefox")
# Firefox prints this line on stderr once the BiDi server listens (port 0 = any free port).
LISTENING_RE = re.compile(r"WebDriver BiDi listening on (ws://\S+)")
# A cold start with a new profile takes 1–3 s here; a loaded CI machine far longer.
STARTUP_TIMEOUT_S = 30.0
# Default bound of one command's reply (navigation waits for the load event inside it).
COMMAND_TIMEOUT_S = 20.0
# `browser.close`, then SIGTERM, then SIGKILL: each gets this long to end the process.
SHUTDOWN_STEP_S = 5.0
# Lines of Firefox's output kept for error messages.
TAIL_LINES = 60
# Captures of 50k elements are several MB of JSON; BiDi has no frame limit of its own.
MAX_MESSAGE_BYTES = 256 * 2 ** 20

# Prefs of every profile. Firefox's remote agent already applies its "recommended
# preferences" (no updates, no telemetry upload, no first-run pages) when started with
# --remote-debugging-port; these are written to user.js too so the profile stays quiet
# even before the agent runs, and so that a reader sees them in one place.
BASE_PREFS: dict[str, Any] = {
    # no first-run, welcome or what's-new pages, no default-browser question
    "browser.shell.checkDefaultBrowser": False,
    "browser.startup.homepage_override.mstone": "ignore",
    "browser.startup.page": 0,
    "browser.aboutwelcome.enabled": False,
    "startup.homepage_welcome_url": "about:blank",
    "startup.homepage_welcome_url.additional": "",
    "datareporting.policy.dataSubmissionPolicyBypassNotification": True,
    "toolkit.telemetry.reportingpolicy.firstRun": False,
    # no updates of Firefox or add-ons, no network chatter that could slow a test down
    "app.update.disabledForTesting": True,
    "app.update.auto": False,
    "extensions.update.enabled": False,
    "extensions.getAddons.cache.enabled": False,
    "browser.safebrowsing.update.enabled": False,
    "network.captive-portal-service.enabled": False,
    "network.connectivity-service.enabled": False,
    "browser.newtabpage.enabled": False,
    # no telemetry or health reports
    "datareporting.healthreport.uploadEnabled": False,
    "datareporting.policy.dataSubmissionEnabled": False,
    "toolkit.telemetry.enabled": False,
    "toolkit.telemetry.unified": False,
    "toolkit.telemetry.server": "",
    # never ask to restore a session after the kill of the previous run
    "browser.sessionstore.resume_from_crash": False,
}


class BiDiError(RuntimeError):
    """A failure of Firefox or of a command; `tail` holds Firefox's last output lines."""

    def __init__(self, message: str, tail: str = "", error: str = ""):
        self.error = error
        self.tail = tail
        super().__init__(message + (f"\n--- firefox output (tail) ---\n{tail}" if tail else ""))


class BiDiTimeout(BiDiError, TimeoutError):
    """No reply (or awaited event) within the bound."""


class ScriptError(BiDiError):
    """The evaluated script threw (or its promise was rejected)."""


def find_firefox() -> str | None:
    """The path of firefox-esr (or firefox) on PATH, or None."""
    for name in FIREFOX_NAMES:
        path = shutil.which(name)
        if path:
            return path
    return None


def user_js(prefs: dict[str, Any]) -> str:
    """The text of a user.js setting `prefs` (values JSON-encoded, as prefs.js does)."""
    return "".join(f"user_pref({json.dumps(k)}, {json.dumps(v)});\n" for k, v in prefs.items())


def from_remote(value: dict) -> Any:
    """A BiDi RemoteValue as plain Python: primitives, lists, dicts (string keys only).

    Values with no JSON-like form (nodes, windows, functions, ...) come back as the raw
    RemoteValue dict, so a test can still look at them.
    """
    kind = value.get("type")
    if kind in ("undefined", "null"):
        return None
    if kind in ("string", "boolean", "bigint"):
        return int(value["value"]) if kind == "bigint" else value["value"]
    if kind == "number":
        v = value["value"]
        special = {"NaN": math.nan, "-0": -0.0, "Infinity": math.inf, "-Infinity": -math.inf}
        return special.get(v, v) if isinstance(v, str) else v
    if kind in ("array", "set") and "value" in value:
        return [from_remote(v) for v in value["value"]]
    if kind in ("object", "map") and "value" in value:
        return {(k if isinstance(k, str) else json.dumps(from_remote(k))): from_remote(v)
                for k, v in value["value"]}
    return value


class Firefox:
    """One headless Firefox with a fresh profile and one BiDi session (see module doc)."""

    def __init__(self, *, home: str | os.PathLike | None = None, prefs: dict | None = None,
                 executable: str | None = None, startup_timeout_s: float = STARTUP_TIMEOUT_S,
                 timeout_s: float = COMMAND_TIMEOUT_S, env: dict | None = None,
                 system_access: bool = False):
        self.executable = executable or find_firefox()
        self.home = None if home is None else str(home)
        self.prefs = {**BASE_PREFS, **(prefs or {})}
        self.startup_timeout_s = startup_timeout_s
        self.timeout_s = timeout_s
        self.extra_env = dict(env or {})
        # BiDi refuses to navigate to anything but http(s), file, blob and about:blank
        # ("not allowed in this context") unless Firefox runs with this flag; the tests
        # need it to open the add-on's own moz-extension:// pages.
        self.system_access = system_access
        self.proc: subprocess.Popen | None = None
        self.profile: str | None = None
        self.ws = None
        self._ws_stack = contextlib.ExitStack()   # `with connect(...)`, the form all versions take
        self.url: str | None = None
        self.events: list[dict] = []
        self.capabilities: dict = {}    # of session.new: browserName, browserVersion, ...
        self._ids = itertools.count(1)
        self._tail: collections.deque[str] = collections.deque(maxlen=TAIL_LINES)
        self._listening = threading.Event()
        self._reader: threading.Thread | None = None

    # --- life cycle -----------------------------------------------------------------------
    def __enter__(self) -> "Firefox":
        if self.proc is not None:      # started already (by `start`)
            return self
        try:
            self.start()
        except BaseException:
            self.close()
            raise
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def start(self) -> None:
        """Start Firefox, wait (bounded) for its BiDi server, connect and open a session."""
        if not self.executable:
            raise BiDiError(f"none of {', '.join(FIREFOX_NAMES)} is on PATH")
        self.profile = tempfile.mkdtemp(prefix="pith-firefox-profile-")
        Path(self.profile, "user.js").write_text(user_js(self.prefs), encoding="utf-8")
        env = {**os.environ, **self.extra_env, "MOZ_CRASHREPORTER_DISABLE": "1"}
        if self.home is not None:
            env["HOME"] = self.home
            for var in ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME"):
                env.pop(var, None)     # else they would point outside the temporary HOME
        cmd = [self.executable, "-headless", "-no-remote", "-profile", self.profile,
               "--remote-debugging-port=0"]
        if self.system_access:
            cmd.append("--remote-allow-system-access")
        self.proc = subprocess.Popen(cmd, env=env, stdin=subprocess.DEVNULL,
                                     stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                     start_new_session=True)   # own process group: killpg
        self._reader = threading.Thread(target=self._drain, name="firefox-output", daemon=True)
        self._reader.start()
        deadline = time.monotonic() + self.startup_timeout_s
        while not self._listening.wait(0.05):
            if self.proc.poll() is not None:
                self._reader.join(1)
                raise BiDiError(f"firefox exited with status {self.proc.returncode} before "
                                "its BiDi server listened", self.tail())
            if time.monotonic() > deadline:
                raise BiDiError(f"firefox did not announce its BiDi server within "
                                f"{self.startup_timeout_s:.0f} s", self.tail())
        try:
            self.ws = self._ws_stack.enter_context(connect(
                self.url + "/session", proxy=None, max_size=MAX_MESSAGE_BYTES,
                open_timeout=max(1.0, deadline - time.monotonic()),
                ping_interval=None, close_timeout=SHUTDOWN_STEP_S))
        except (OSError, WebSocketException) as exc:
            raise BiDiError(f"cannot connect to {self.url}/session: {exc}", self.tail()) from None
        self.capabilities = self.send("session.new", {"capabilities": {}})["capabilities"]

    def close(self) -> None:
        """End the session and Firefox (bounded: close, SIGTERM, SIGKILL), drop the profile."""
        asked_to_close = self.ws is not None
        if self.ws is not None:
            try:
                self.send("browser.close", {}, timeout_s=SHUTDOWN_STEP_S)
            except (BiDiError, OSError):
                pass    # the process group is ended below anyway
            try:
                self._ws_stack.close()
            except Exception:   # noqa: BLE001 - a dead socket cannot be closed more
                pass
            self.ws = None
        if self.proc is not None:
            steps = (None, signal.SIGTERM, signal.SIGKILL) if asked_to_close else (
                signal.SIGTERM, signal.SIGKILL)
            for sig in steps:
                if sig is not None:
                    try:
                        os.killpg(self.proc.pid, sig)
                    except (ProcessLookupError, PermissionError):
                        pass
                try:
                    self.proc.wait(SHUTDOWN_STEP_S)
                    break
                except subprocess.TimeoutExpired:
                    continue
            # Content processes of the group may outlive the parent for a moment.
            try:
                os.killpg(self.proc.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
            if self._reader is not None:
                self._reader.join(SHUTDOWN_STEP_S)
            self.proc = None
        if self.profile is not None:
            shutil.rmtree(self.profile, ignore_errors=True)
            self.profile = None

    def _drain(self) -> None:
        """Keep Firefox's output flowing (a full pipe would stall it); remember the tail."""
        assert self.proc is not None and self.proc.stdout is not None
        for raw in self.proc.stdout:
            line = raw.decode("utf-8", "replace").rstrip("\n")
            self._tail.append(line)
            if not self._listening.is_set():
                m = LISTENING_RE.search(line)
                if m:
                    self.url = m.group(1).rstrip("/")
                    self._listening.set()

    def tail(self) -> str:
        """Firefox's last output lines (stdout and stderr), for error messages."""
        return "\n".join(self._tail)

    # --- the wire -------------------------------------------------------------------------
    def send(self, method: str, params: dict | None = None, *,
             timeout_s: float | None = None) -> dict:
        """Send one command and return its `result`; events met meanwhile go to `events`."""
        if self.ws is None:
            raise BiDiError(f"{method}: no BiDi connection")
        msg_id = next(self._ids)
        try:
            self.ws.send(json.dumps({"id": msg_id, "method": method, "params": params or {}}))
        except ConnectionClosed as exc:
            raise BiDiError(f"{method}: the BiDi connection is closed: {exc}",
                            self.tail()) from None
        limit = self.timeout_s if timeout_s is None else timeout_s
        deadline = time.monotonic() + limit
        while True:
            msg = self._recv(deadline, f"the reply to {method}")
            if msg.get("id") != msg_id:
                continue
            if msg.get("type") == "error":
                raise BiDiError(f"{method}: {msg.get('error')}: {msg.get('message')}",
                                error=msg.get("error", ""))
            return msg.get("result", {})

    def _recv(self, deadline: float, what: str) -> dict:
        """The next message; events are also appended to `events`. BiDiTimeout past deadline."""
        left = deadline - time.monotonic()
        try:
            if left <= 0:
                raise TimeoutError
            raw = self.ws.recv(timeout=left)
        except TimeoutError:
            raise BiDiTimeout(f"no {what} in time", self.tail()) from None
        except ConnectionClosed as exc:
            raise BiDiError(f"BiDi connection closed while waiting for {what}: {exc}",
                            self.tail()) from None
        msg = json.loads(raw)
        if msg.get("type") == "event":
            self.events.append(msg)
        return msg

    def subscribe(self, *events: str) -> None:
        self.send("session.subscribe", {"events": list(events)})

    def wait_event(self, method: str, predicate: Callable[[dict], bool] = lambda p: True, *,
                   timeout_s: float | None = None) -> dict:
        """The params of the first collected event `method` whose params satisfy
        `predicate` (removed from `events`), reading more messages until the timeout."""
        deadline = time.monotonic() + (self.timeout_s if timeout_s is None else timeout_s)
        seen = 0
        while True:
            for i in range(seen, len(self.events)):
                ev = self.events[i]
                if ev.get("method") == method and predicate(ev.get("params", {})):
                    del self.events[i]
                    return ev["params"]
            seen = len(self.events)
            self._recv(deadline, f"event {method}")

    # --- conveniences ---------------------------------------------------------------------
    def install_extension(self, path: str | os.PathLike) -> str:
        """Install the unpacked add-on at `path` temporarily; its id."""
        res = self.send("webExtension.install",
                        {"extensionData": {"type": "path", "path": str(path)}})
        return res["extension"]

    def contexts(self) -> list[dict]:
        return self.send("browsingContext.getTree", {"maxDepth": 0})["contexts"]

    def new_tab(self) -> str:
        return self.send("browsingContext.create", {"type": "tab"})["context"]

    def navigate(self, context: str, url: str, *, timeout_s: float | None = None) -> None:
        """Load `url` and wait for its load event (bounded)."""
        self.send("browsingContext.navigate", {"context": context, "url": url, "wait": "complete"},
                  timeout_s=timeout_s)

    def evaluate(self, context: str, expression: str, *, await_promise: bool = True,
                 timeout_s: float | None = None) -> Any:
        """The value of `expression` in the page's own realm, as plain Python.

        Extension pages (moz-extension://) are evaluated in their realm too, so
        `browser.*` is in scope there. ScriptError when it throws or its promise rejects.
        """
        res = self.send("script.evaluate", {"expression": expression,
                                            "target": {"context": context},
                                            "awaitPromise": await_promise},
                        timeout_s=timeout_s)
        return self.script_value(res, expression)

    def call(self, context: str, function: str, *args: Any, await_promise: bool = True,
             timeout_s: float | None = None) -> Any:
        """`function` (JS source of a function) called with JSON-able `args`."""
        # Arguments travel as JSON strings and are parsed in the page: no RemoteValue
        # serialiser is needed on this side.
        res = self.send("script.callFunction", {
            "functionDeclaration": f"(...a) => ({function})(...a.map(s => JSON.parse(s)))",
            "arguments": [{"type": "string", "value": json.dumps(a)} for a in args],
            "target": {"context": context}, "awaitPromise": await_promise,
        }, timeout_s=timeout_s)
        return self.script_value(res, function)

    def pin_shadow_roots(self, context: str, selector: str = "pith-overlay, pith-toast") -> int:
        """Make the (closed) shadow roots of the elements `selector` matches readable in the
        page's realm as `__pithRoots.get(host)`; how many. BiDi serialises closed roots when
        asked (includeShadowTree "all"); a page's own scripts cannot reach them."""
        res = self.send("script.evaluate", {
            "expression": f"[...document.querySelectorAll({json.dumps(selector)})]",
            "target": {"context": context}, "awaitPromise": False,
            "serializationOptions": {"maxDomDepth": 0, "includeShadowTree": "all"}})
        roots = [n["value"]["shadowRoot"]["sharedId"] for n in res["result"]["value"]
                 if (n.get("value") or {}).get("shadowRoot")]
        for shared_id in roots:
            self.send("script.callFunction", {
                "functionDeclaration": "(sr) => { (globalThis.__pithRoots = globalThis.__pithRoots"
                                       " || new WeakMap()).set(sr.host, sr); }",
                "arguments": [{"sharedId": shared_id}], "target": {"context": context},
                "awaitPromise": False})
        return len(roots)

    @staticmethod
    def script_value(res: dict, source: str) -> Any:
        """The value of a script.evaluate/callFunction result; ScriptError if it threw."""
        if res.get("type") == "exception":
            details = res.get("exceptionDetails", {})
            text = details.get("text") or json.dumps(details.get("exception"))
            short = source if len(source) < 200 else source[:200] + "…"
            raise ScriptError(f"script threw: {text}\n  in: {short}")
        return from_remote(res["result"])
