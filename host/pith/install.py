"""Register the native-messaging host with the browsers (`pith install-host`) and check the result (`pith doctor`).

A browser starts a native host from the absolute `path` in a small JSON "host manifest"
named after the host (`dev.pith.host.json`) in a folder it knows. Its PATH is not the
venv's, so `path` is a launcher script written here: it execs the very Python that ran
`pith install-host`, with `-m pith.host`. Folders (Linux; macOS in `_MAC`):

| browser | host manifest folder |
|---|---|
| chrome | `$XDG_CONFIG_HOME/google-chrome/NativeMessagingHosts` (`~/.config/…`) |
| chromium | `$XDG_CONFIG_HOME/chromium/NativeMessagingHosts` |
| chrome/chromium with `--user-data-dir DIR` | `DIR/NativeMessagingHosts` (a browser started with that profile reads only this one) |
| firefox | `$HOME/.mozilla/native-messaging-hosts` |

The launcher goes to `$XDG_DATA_HOME/pith/pith-host` (`~/.local/share/pith/pith-host`), or
beside the manifest under `--user-data-dir`, so a throwaway profile leaves the home folder
alone. The manifests come from the templates `manifest/chrome.json` and
`manifest/firefox.json` (which name the extension: its Chrome id, pinned by the `key` of
`extension/manifest.json`, and its Firefox id); only `path` is filled in. Installing twice
writes the same files. Windows (which registers hosts in the registry) is not supported.
"""
from __future__ import annotations

import base64
import hashlib
import json
import os
import shlex
import shutil
import stat
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path

import pith

from . import PROTOCOL_VERSION, framing

HOST_NAME = "dev.pith.host"
BROWSERS = ("chrome", "chromium", "firefox")
PLACEHOLDER = "PITH_HOST_LAUNCHER"      # the template's `path`, replaced by the launcher's
LAUNCHER_NAME = "pith-host"
INSTALL_COMMAND = "pith install-host"   # what error messages tell people to run
# Python's start-up plus the host's imports on a cold disk; hello itself takes a millisecond.
HELLO_TIMEOUT_S = 20.0

_REPO = Path(__file__).resolve().parents[2]
# The templates: the repository's manifest/ folder, else the copies packaged with pith.
TEMPLATE_DIRS = (_REPO / "manifest", Path(__file__).resolve().parent / "native")
EXTENSION_MANIFEST = _REPO / "extension" / "manifest.json"
# Which template each browser's manifest is made from.
TEMPLATE_OF = {"chrome": "chrome", "chromium": "chrome", "firefox": "firefox"}
# Executables that tell a browser is installed (doctor skips a missing, unregistered one).
EXECUTABLES = {"chrome": ("google-chrome", "google-chrome-stable"),
               "chromium": ("chromium", "chromium-browser"),
               "firefox": ("firefox", "firefox-esr")}
_MAC = {"chrome": "Library/Application Support/Google/Chrome/NativeMessagingHosts",
        "chromium": "Library/Application Support/Chromium/NativeMessagingHosts",
        "firefox": "Library/Application Support/Mozilla/NativeMessagingHosts"}


class InstallError(Exception):
    """A registration that cannot be done as asked (unsupported system, bad template)."""


# --- where things go -----------------------------------------------------------------
def _home() -> Path:
    return Path(os.environ.get("HOME") or Path.home())


def _xdg(var: str, default: str) -> Path:
    value = os.environ.get(var)
    return Path(value) if value and os.path.isabs(value) else _home() / default


def _check_system() -> None:
    if sys.platform == "win32":
        raise InstallError("Windows registers native hosts in the registry; pith install-host "
                           "supports Linux and macOS only")


def manifest_dir(browser: str, user_data_dir: Path | None = None) -> Path:
    """The folder where `browser` looks for host manifests."""
    _check_system()
    if user_data_dir is not None:
        if browser == "firefox":
            raise InstallError("--user-data-dir is a Chrome/Chromium profile folder; Firefox reads "
                               "$HOME/.mozilla/native-messaging-hosts")
        return Path(user_data_dir).resolve() / "NativeMessagingHosts"
    if sys.platform == "darwin":
        return _home() / _MAC[browser]
    if browser == "firefox":
        return _home() / ".mozilla" / "native-messaging-hosts"
    folder = "google-chrome" if browser == "chrome" else "chromium"
    return _xdg("XDG_CONFIG_HOME", ".config") / folder / "NativeMessagingHosts"


def manifest_path(browser: str, user_data_dir: Path | None = None) -> Path:
    return manifest_dir(browser, user_data_dir) / f"{HOST_NAME}.json"


def launcher_path(user_data_dir: Path | None = None) -> Path:
    """Where the launcher script goes."""
    if user_data_dir is not None:
        return manifest_dir("chromium", user_data_dir) / LAUNCHER_NAME
    if sys.platform == "darwin":
        return _home() / "Library" / "Application Support" / "pith" / LAUNCHER_NAME
    return _xdg("XDG_DATA_HOME", ".local/share") / "pith" / LAUNCHER_NAME


# --- what goes there ------------------------------------------------------------------
def launcher_script(python: str | None = None) -> str:
    """A /bin/sh script running `python -m pith.host` with this checkout's pith importable."""
    python = python or sys.executable
    package_root = str(Path(pith.__file__).resolve().parent.parent)
    return ("#!/bin/sh\n"
            "# Pith native-messaging host launcher, written by `pith install-host`; the browser\n"
            "# starts it. It runs the Python that installed it (a browser's PATH knows no venv).\n"
            f"PYTHONPATH={shlex.quote(package_root)}${{PYTHONPATH:+:$PYTHONPATH}}\n"
            "export PYTHONPATH\n"
            f"exec {shlex.quote(python)} -m pith.host \"$@\"\n")


def template(kind: str) -> dict:
    """The host-manifest template `kind` ("chrome" or "firefox")."""
    for folder in TEMPLATE_DIRS:
        path = folder / f"{kind}.json"
        if path.is_file():
            return json.loads(path.read_text(encoding="utf-8"))
    raise InstallError(f"host manifest template {kind}.json not found in "
                       f"{', '.join(str(d) for d in TEMPLATE_DIRS)}")


def host_manifest(browser: str, launcher: Path) -> dict:
    """The host manifest for `browser`, pointing at `launcher`."""
    data = template(TEMPLATE_OF[browser])
    if data.get("path") != PLACEHOLDER or data.get("name") != HOST_NAME:
        raise InstallError(f"template {TEMPLATE_OF[browser]}.json must have name {HOST_NAME!r} "
                           f"and path {PLACEHOLDER!r}")
    data["path"] = str(launcher)
    return data


def extension_id(key_b64: str) -> str:
    """Chrome's extension id for a manifest `key` (base64 DER public key): the first 128
    bits of its SHA-256, written with the letters a–p for the hex digits 0–f."""
    digest = hashlib.sha256(base64.b64decode(key_b64)).hexdigest()[:32]
    return "".join(chr(ord("a") + int(c, 16)) for c in digest)


def expected_ids() -> dict[str, str]:
    """{'chrome': 'chrome-extension://<id>/', 'firefox': '<gecko id>'} from the templates."""
    return {"chrome": template("chrome")["allowed_origins"][0],
            "firefox": template("firefox")["allowed_extensions"][0]}


# --- install / uninstall ----------------------------------------------------------------
@dataclass
class Written:
    """One file install-host wrote (or would have rewritten identically)."""
    what: str
    path: Path
    changed: bool


def _write(path: Path, text: str, mode: int) -> bool:
    """Write `text` to `path` (mode `mode`) unless it holds exactly that; True if written."""
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        same = path.read_text(encoding="utf-8") == text
    except (OSError, UnicodeDecodeError):
        same = False
    if not same:
        tmp = path.with_name(path.name + ".tmp")
        tmp.write_text(text, encoding="utf-8")
        os.replace(tmp, path)
    if stat.S_IMODE(path.stat().st_mode) != mode:
        path.chmod(mode)
    return not same


def resolve_browsers(browser: str | None, user_data_dir: Path | None) -> list[str]:
    """The browsers `--browser` names (default: all, or chromium with --user-data-dir)."""
    if browser in (None, "all"):
        if user_data_dir is not None:
            return ["chromium"] if browser is None else ["chrome", "chromium"]
        return list(BROWSERS)
    if browser not in BROWSERS:
        raise InstallError(f"unknown browser {browser!r} (choose from {', '.join(BROWSERS)}, all)")
    return [browser]


def install(browsers: list[str], user_data_dir: Path | None = None,
            python: str | None = None) -> list[Written]:
    """Write the launcher and the host manifest of each browser; what was written."""
    launcher = launcher_path(user_data_dir)
    out = [Written("launcher", launcher, _write(launcher, launcher_script(python), 0o755))]
    seen: set[Path] = set()
    for browser in browsers:
        path = manifest_path(browser, user_data_dir)
        if path in seen:            # chrome and chromium share a --user-data-dir folder
            continue
        seen.add(path)
        text = json.dumps(host_manifest(browser, launcher), indent=2) + "\n"
        out.append(Written(browser, path, _write(path, text, 0o644)))
    return out


def uninstall(browsers: list[str], user_data_dir: Path | None = None) -> list[Path]:
    """Remove the host manifests of `browsers`, and the launcher once no manifest uses it."""
    removed = []
    for browser in browsers:
        path = manifest_path(browser, user_data_dir)
        if path.exists():
            path.unlink()
            removed.append(path)
    launcher = launcher_path(user_data_dir)
    users = [b for b in BROWSERS if b != "firefox" or user_data_dir is None]
    still_used = any(_points_at(manifest_path(b, user_data_dir), launcher) for b in users)
    if launcher.exists() and not still_used:
        launcher.unlink()
        removed.append(launcher)
    return removed


def _points_at(manifest: Path, launcher: Path) -> bool:
    try:
        return json.loads(manifest.read_text(encoding="utf-8")).get("path") == str(launcher)
    except (OSError, ValueError, AttributeError):
        return False


# --- doctor ----------------------------------------------------------------------------
@dataclass
class Check:
    """One line of `pith doctor`: ok True (✓), False (✗, with a fix) or None (skipped)."""
    ok: bool | None
    title: str
    fix: str = ""

    def line(self) -> str:
        mark = {True: "✓", False: "✗", None: "–"}[self.ok]
        return f"{mark} {self.title}" + (f"\n    fix: {self.fix}" if self.fix else "")


def _installed(browser: str) -> bool:
    return any(shutil.which(name) for name in EXECUTABLES[browser])


def check_registration(browser: str, user_data_dir: Path | None = None) -> tuple[Check, Path | None]:
    """The check of one browser's host manifest, and the launcher it names (or None)."""
    path = manifest_path(browser, user_data_dir)
    flag = f" --user-data-dir {shlex.quote(str(user_data_dir))}" if user_data_dir else ""
    fix = f"{INSTALL_COMMAND} --browser {browser}{flag}"
    if not path.exists():
        if user_data_dir is None and not _installed(browser):
            return Check(None, f"{browser}: not installed here, not registered (skipped)"), None
        return Check(False, f"{browser}: no host manifest at {path}", fix), None
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        return Check(False, f"{browser}: {path} is not readable JSON ({exc})", fix), None
    problems = []
    if data.get("name") != HOST_NAME:
        problems.append(f"name is {data.get('name')!r}, not {HOST_NAME!r}")
    if data.get("type") != "stdio":
        problems.append("type is not 'stdio'")
    ids = expected_ids()
    if browser == "firefox":
        if ids["firefox"] not in (data.get("allowed_extensions") or []):
            problems.append(f"allowed_extensions lacks {ids['firefox']}")
    elif ids["chrome"] not in (data.get("allowed_origins") or []):
        problems.append(f"allowed_origins lacks {ids['chrome']}")
    launcher = Path(str(data.get("path", "")))
    if not launcher.is_absolute():
        problems.append(f"path {str(launcher)!r} is not absolute")
    elif not launcher.is_file():
        problems.append(f"its launcher {launcher} does not exist")
    elif not os.access(launcher, os.X_OK):
        problems.append(f"its launcher {launcher} is not executable")
    if problems:
        return Check(False, f"{browser}: {path}: {'; '.join(problems)}", fix), None
    return Check(True, f"{browser}: registered in {path}"), launcher


def hello(launcher: Path, timeout_s: float = HELLO_TIMEOUT_S) -> tuple[dict, float]:
    """Start the host through `launcher`, send `hello` in real frames; (result, ms).

    Raises RuntimeError with the host's own words (its stderr) when it does not answer.
    """
    started = time.perf_counter()
    proc = subprocess.Popen([str(launcher)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)
    reply: list = []

    def read() -> None:
        try:
            reply.append(framing.read_frame(proc.stdout, framing.MAX_OUT))
        except Exception as exc:            # a broken stream: reported below
            reply.append(exc)

    try:
        proc.stdin.write(framing.encode_frame({"v": PROTOCOL_VERSION, "id": 1, "action": "hello"}))
        proc.stdin.flush()
    except BrokenPipeError:
        pass                                # it died at once; its stderr says why
    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    reader.join(timeout_s)
    elapsed = (time.perf_counter() - started) * 1000
    try:
        proc.stdin.close()
    except OSError:
        pass
    try:
        proc.wait(5)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
    err = proc.stderr.read().decode("utf-8", "replace").strip()
    tail = f": {err.splitlines()[-1]}" if err else ""
    if not reply:
        raise RuntimeError(f"no answer within {timeout_s:g} s{tail}")
    got = reply[0]
    if isinstance(got, Exception) or got is None:
        raise RuntimeError(f"the host exited without answering (status {proc.returncode}){tail}")
    if not got.get("ok"):
        raise RuntimeError(f"the host answered with an error: {got.get('error')}")
    return got["result"], elapsed


def doctor(browsers: list[str], user_data_dir: Path | None = None) -> list[Check]:
    """Every check of `pith doctor`, in order."""
    checks: list[Check] = []
    launchers: list[Path] = []
    for browser in browsers:
        check, launcher = check_registration(browser, user_data_dir)
        checks.append(check)
        if launcher is not None and launcher not in launchers:
            launchers.append(launcher)
    if not any(c.ok for c in checks) and not any(c.ok is False for c in checks):
        checks.append(Check(False, "no browser has the Pith host registered", INSTALL_COMMAND))
    for launcher in launchers:
        try:
            result, ms = hello(launcher)
        except (OSError, RuntimeError) as exc:
            checks.append(Check(False, f"the host ({launcher}) did not answer hello: {exc}",
                                f"{INSTALL_COMMAND} (rewrites the launcher for this Python)"))
            continue
        if result.get("protocol") != PROTOCOL_VERSION:
            checks.append(Check(False, f"the host ({launcher}) speaks protocol "
                                f"{result.get('protocol')}, this pith {PROTOCOL_VERSION}",
                                f"{INSTALL_COMMAND} (from the pith you mean to use)"))
            continue
        checks.append(Check(True, f"the host ({launcher}) answered hello in {ms:.0f} ms: pith "
                                  f"{result.get('version')}, protocol {result.get('protocol')}, "
                                  f"pid {result.get('pid')}"))
    if EXTENSION_MANIFEST.is_file():
        key = json.loads(EXTENSION_MANIFEST.read_text(encoding="utf-8")).get("key", "")
        origin = f"chrome-extension://{extension_id(key)}/" if key else ""
        if origin == expected_ids()["chrome"]:
            checks.append(Check(True, f"extension/manifest.json's key gives id {extension_id(key)}, "
                                      "the one the host allows"))
        else:
            checks.append(Check(False, "extension/manifest.json's key does not give the extension "
                                       f"id of manifest/chrome.json ({expected_ids()['chrome']})",
                                "put the key that matches manifest/chrome.json back in "
                                "extension/manifest.json"))
    return checks
