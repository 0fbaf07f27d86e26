"""Register the native-messaging host with the browsers (`pith install-host`) and check the result (`pith doctor`).

A browser starts a native host from the absolute `path` in a small JSON "host manifest"
named after the host (`dev.pith.host.json`). Linux and macOS browsers look for that file in
a folder of their own; Windows browsers read its location from a registry key under
HKEY_CURRENT_USER. The browser's PATH is not the venv's, so `path` is a launcher written
here: it runs the very Python that ran `pith install-host`, with `-m pith.native.host` (a /bin/sh
script; on Windows a .bat file).

| browser | Linux folder | macOS folder (under ~/Library/Application Support) | Windows key (HKCU) |
|---|---|---|---|
| chrome | `~/.config/google-chrome/NativeMessagingHosts` | `Google/Chrome/NativeMessagingHosts` | `Software\\Google\\Chrome\\NativeMessagingHosts\\dev.pith.host` |
| chromium | `~/.config/chromium/NativeMessagingHosts` | `Chromium/NativeMessagingHosts` | `Software\\Chromium\\NativeMessagingHosts\\…` |
| edge | `~/.config/microsoft-edge/NativeMessagingHosts` | `Microsoft Edge/NativeMessagingHosts` | `Software\\Microsoft\\Edge\\NativeMessagingHosts\\…` |
| brave | `~/.config/BraveSoftware/Brave-Browser/NativeMessagingHosts` | `BraveSoftware/Brave-Browser/NativeMessagingHosts` | `Software\\BraveSoftware\\Brave-Browser\\NativeMessagingHosts\\…` |
| firefox | `~/.mozilla/native-messaging-hosts` | `Mozilla/NativeMessagingHosts` | `Software\\Mozilla\\NativeMessagingHosts\\…` |
| chromium-family with `--user-data-dir DIR` | `DIR/NativeMessagingHosts` | the same | (not supported: Windows reads the registry only) |

`~/.config` is `$XDG_CONFIG_HOME` when set. The launcher goes to
`$XDG_DATA_HOME/pith/pith-host` (`~/.local/share/…`; macOS `~/Library/Application
Support/pith/pith-host`; Windows `%LOCALAPPDATA%\\pith\\pith-host.bat`, with the manifests
beside it in `%LOCALAPPDATA%\\pith\\<browser>\\`), or beside the manifest under
`--user-data-dir`, so a throwaway profile leaves the home folder alone. The manifests come
from the templates `manifest/chrome.json` (Chrome, Chromium, Edge, Brave: they name the
extension by its Chrome id, pinned by the `key` of `extension/manifest.json`) and
`manifest/firefox.json` (its Firefox id); only `path` is filled in.

`plan()` computes everything to write (files, their text, registry values) for any
system, as a pure function, so each platform's layout is tested on any machine; `install`,
`uninstall` and `doctor` are thin layers over it that touch the disk and, on Windows, the
registry (`winreg`). Installing twice writes the same things.
"""
from __future__ import annotations

import base64
import hashlib
import json
import os
import re
import shlex
import shutil
import stat
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path, PurePath, PurePosixPath, PureWindowsPath
from typing import Mapping

import pith

from .. import PROTOCOL_VERSION
from . import framing

HOST_NAME = "dev.pith.host"
BROWSERS = ("chrome", "chromium", "edge", "brave", "firefox")
# Browsers built on Chromium: they read Chrome-style manifests (allowed_origins) and honour
# --user-data-dir.
CHROMIUM_FAMILY = ("chrome", "chromium", "edge", "brave")
PLACEHOLDER = "PITH_HOST_LAUNCHER"      # the template's `path`, replaced by the launcher's
LAUNCHER_NAME = "pith-host"
# The module the launcher runs, and the one launchers written before the host moved to
# pith/native/ ran: such a launcher fails at once, and doctor says to rewrite it.
HOST_MODULE = "pith.native.host"
OLD_HOST_MODULE = "pith.host"
INSTALL_COMMAND = "pith install-host"   # what error messages tell people to run
# Python's start-up plus the host's imports on a cold disk; hello itself takes a millisecond.
HELLO_TIMEOUT_S = 20.0

_REPO = Path(__file__).resolve().parents[3]
# The templates: the repository's manifest/ folder, else the copies packaged with pith.
TEMPLATE_DIRS = (_REPO / "manifest", Path(__file__).resolve().parent)
EXTENSION_MANIFEST = _REPO / "extension" / "manifest.json"
# The Chromium profile `make run` (pith.demo) registers the host in; doctor mentions it.
DEMO_PROFILE = _REPO / ".cache" / "profile"
# Which template each browser's manifest is made from.
TEMPLATE_OF = {**{b: "chrome" for b in CHROMIUM_FAMILY}, "firefox": "firefox"}
# Executables that tell a browser is installed on Linux (doctor skips a missing,
# unregistered one); macOS app bundles; Windows: the browser's own registry key exists.
EXECUTABLES = {"chrome": ("google-chrome", "google-chrome-stable"),
               "chromium": ("chromium", "chromium-browser"),
               "edge": ("microsoft-edge", "microsoft-edge-stable"),
               "brave": ("brave-browser", "brave-browser-stable", "brave"),
               "firefox": ("firefox", "firefox-esr")}
MAC_APPS = {"chrome": "Google Chrome.app", "chromium": "Chromium.app",
            "edge": "Microsoft Edge.app", "brave": "Brave Browser.app",
            "firefox": "Firefox.app"}
# Host-manifest folders: Linux (relative to $XDG_CONFIG_HOME, Firefox to $HOME) and
# macOS (relative to $HOME).
LINUX_DIRS = {"chrome": "google-chrome/NativeMessagingHosts",
              "chromium": "chromium/NativeMessagingHosts",
              "edge": "microsoft-edge/NativeMessagingHosts",
              "brave": "BraveSoftware/Brave-Browser/NativeMessagingHosts"}
LINUX_FIREFOX_DIR = ".mozilla/native-messaging-hosts"
MAC_DIRS = {"chrome": "Library/Application Support/Google/Chrome/NativeMessagingHosts",
            "chromium": "Library/Application Support/Chromium/NativeMessagingHosts",
            "edge": "Library/Application Support/Microsoft Edge/NativeMessagingHosts",
            "brave": "Library/Application Support/BraveSoftware/Brave-Browser/NativeMessagingHosts",
            "firefox": "Library/Application Support/Mozilla/NativeMessagingHosts"}
# Windows: the HKEY_CURRENT_USER key under which each browser looks up hosts by name; the
# key HOST_NAME below it holds the manifest's path as its default value.
WINDOWS_KEYS = {"chrome": "Software\\Google\\Chrome\\NativeMessagingHosts",
                "chromium": "Software\\Chromium\\NativeMessagingHosts",
                "edge": "Software\\Microsoft\\Edge\\NativeMessagingHosts",
                "brave": "Software\\BraveSoftware\\Brave-Browser\\NativeMessagingHosts",
                "firefox": "Software\\Mozilla\\NativeMessagingHosts"}


class InstallError(Exception):
    """A registration that cannot be done as asked (unsupported system, bad template)."""


# --- the system and where things go ------------------------------------------------------
@dataclass(frozen=True)
class System:
    """The machine to register on: `platform` as sys.platform says it (linux, darwin,
    win32), the user's home folder and the environment (XDG_*, LOCALAPPDATA)."""
    platform: str
    home: str
    env: Mapping[str, str] = field(default_factory=dict)

    @classmethod
    def here(cls) -> "System":
        home = os.environ.get("HOME") or os.environ.get("USERPROFILE") or str(Path.home())
        return cls(sys.platform, home, dict(os.environ))

    @property
    def windows(self) -> bool:
        return self.platform == "win32"

    def path(self, *parts) -> PurePath:
        """A path of this system: a real Path on the machine we run on, else a pure one."""
        if self.windows == (os.name == "nt"):
            return Path(*parts)
        return (PureWindowsPath if self.windows else PurePosixPath)(*parts)

    def var_dir(self, var: str, default: str) -> PurePath:
        """$var when it is an absolute path, else `default` under the home folder."""
        value = self.env.get(var)
        if value and self.path(value).is_absolute():
            return self.path(value)
        return self.path(self.home, *default.split("/"))

    def local_app_data(self) -> PurePath:
        return self.var_dir("LOCALAPPDATA", "AppData/Local")


def _system(system: System | None) -> System:
    return system if system is not None else System.here()


def manifest_dir(browser: str, user_data_dir: Path | None = None,
                 system: System | None = None) -> PurePath:
    """The folder where `browser` looks for host manifests (Windows: where install-host
    keeps the manifest the registry key names)."""
    system = _system(system)
    if user_data_dir is not None:
        if browser not in CHROMIUM_FAMILY:
            raise InstallError("--user-data-dir is a Chrome/Chromium profile folder; Firefox reads "
                               "$HOME/.mozilla/native-messaging-hosts")
        if system.windows:
            raise InstallError("on Windows browsers find native hosts through the registry "
                               "only, never in a profile folder: run without --user-data-dir")
        folder = system.path(user_data_dir)
        if isinstance(folder, Path):
            folder = folder.resolve()
        return folder / "NativeMessagingHosts"
    if system.windows:
        return system.local_app_data() / "pith" / browser
    if system.platform == "darwin":
        return system.path(system.home, *MAC_DIRS[browser].split("/"))
    if browser == "firefox":
        return system.path(system.home, *LINUX_FIREFOX_DIR.split("/"))
    return system.var_dir("XDG_CONFIG_HOME", ".config").joinpath(*LINUX_DIRS[browser].split("/"))


def manifest_path(browser: str, user_data_dir: Path | None = None,
                  system: System | None = None) -> PurePath:
    return manifest_dir(browser, user_data_dir, system) / f"{HOST_NAME}.json"


def registry_key(browser: str) -> str:
    """The HKEY_CURRENT_USER subkey whose default value names `browser`'s host manifest."""
    return f"{WINDOWS_KEYS[browser]}\\{HOST_NAME}"


def launcher_path(user_data_dir: Path | None = None, system: System | None = None) -> PurePath:
    """Where the launcher script goes."""
    system = _system(system)
    if user_data_dir is not None:
        return manifest_dir("chromium", user_data_dir, system) / LAUNCHER_NAME
    if system.windows:
        return system.local_app_data() / "pith" / f"{LAUNCHER_NAME}.bat"
    if system.platform == "darwin":
        return system.path(system.home, "Library", "Application Support", "pith", LAUNCHER_NAME)
    return system.var_dir("XDG_DATA_HOME", ".local/share") / "pith" / LAUNCHER_NAME


# --- what goes there ------------------------------------------------------------------
def _package_root() -> str:
    return str(Path(pith.__file__).resolve().parent.parent)


def launcher_script(python: str | None = None, system: System | None = None,
                    package_root: str | None = None) -> str:
    """The launcher's text: it runs `python -m pith.native.host` with this checkout's pith
    importable. A /bin/sh script; on Windows a .bat file (CRLF lines, `@echo off` so that
    nothing but the host's frames reaches stdout)."""
    system = _system(system)
    python = python or sys.executable
    package_root = package_root or _package_root()
    if system.windows:
        def bat(text: str) -> str:          # cmd expands %…%: a literal % is written %%
            return text.replace("%", "%%")
        lines = ["@echo off",
                 "rem Pith native-messaging host launcher, written by `pith install-host`; the",
                 "rem browser starts it. It runs the Python that installed it (a browser's PATH",
                 "rem knows no venv).",
                 f'set "PYTHONPATH={bat(package_root)};%PYTHONPATH%"',
                 f'"{bat(python)}" -m {HOST_MODULE} %*']
        return "\r\n".join(lines) + "\r\n"
    return ("#!/bin/sh\n"
            "# Pith native-messaging host launcher, written by `pith install-host`; the browser\n"
            "# starts it. It runs the Python that installed it (a browser's PATH knows no venv).\n"
            f"PYTHONPATH={shlex.quote(package_root)}${{PYTHONPATH:+:$PYTHONPATH}}\n"
            "export PYTHONPATH\n"
            f"exec {shlex.quote(python)} -m {HOST_MODULE} \"$@\"\n")


def template(kind: str) -> dict:
    """The host-manifest template `kind` ("chrome" or "firefox")."""
    for folder in TEMPLATE_DIRS:
        path = folder / f"{kind}.json"
        if path.is_file():
            return json.loads(path.read_text(encoding="utf-8"))
    raise InstallError(f"host manifest template {kind}.json not found in "
                       f"{', '.join(str(d) for d in TEMPLATE_DIRS)}")


def host_manifest(browser: str, launcher: PurePath) -> dict:
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


# --- the plan: what to write, computed, nothing touched -------------------------------------
@dataclass(frozen=True)
class FileToWrite:
    """One file of a registration: `what` it is (launcher or a browser), where, its text."""
    what: str
    path: PurePath
    text: str
    mode: int


@dataclass(frozen=True)
class RegistryValue:
    """A Windows registry value: HKEY_CURRENT_USER\\`key`, default value = `value`."""
    browser: str
    key: str
    value: str


@dataclass(frozen=True)
class Plan:
    """Everything install-host writes for some browsers on one system."""
    files: list[FileToWrite]
    registry: list[RegistryValue]


def plan(browsers: list[str], user_data_dir: Path | None = None, system: System | None = None,
         python: str | None = None, package_root: str | None = None) -> Plan:
    """What registering `browsers` on `system` writes: the launcher, one host manifest per
    browser (browsers sharing a folder share it) and, on Windows, one registry value per
    browser naming its manifest. Pure: reads only the manifest templates."""
    system = _system(system)
    launcher = launcher_path(user_data_dir, system)
    files = [FileToWrite("launcher", launcher, launcher_script(python, system, package_root),
                         0o755)]
    registry: list[RegistryValue] = []
    seen: set[PurePath] = set()
    for browser in browsers:
        path = manifest_path(browser, user_data_dir, system)
        if path not in seen:        # Chromium-family browsers share a --user-data-dir folder
            seen.add(path)
            text = json.dumps(host_manifest(browser, launcher), indent=2) + "\n"
            files.append(FileToWrite(browser, path, text, 0o644))
        if system.windows:
            registry.append(RegistryValue(browser, registry_key(browser), str(path)))
    return Plan(files, registry)


# --- the Windows registry (a thin layer over winreg; only ever run on Windows) -------------
def _registry_get(key: str) -> str | None:
    import winreg
    try:
        return winreg.QueryValue(winreg.HKEY_CURRENT_USER, key)
    except OSError:
        return None


def _registry_set(key: str, value: str) -> bool:
    """Set HKCU\\key's default value unless it holds exactly that; True if written."""
    import winreg
    if _registry_get(key) == value:
        return False
    with winreg.CreateKeyEx(winreg.HKEY_CURRENT_USER, key, 0, winreg.KEY_SET_VALUE) as handle:
        winreg.SetValueEx(handle, "", 0, winreg.REG_SZ, value)
    return True


def _registry_delete(key: str) -> bool:
    import winreg
    try:
        winreg.DeleteKey(winreg.HKEY_CURRENT_USER, key)
    except OSError:
        return False
    return True


# --- install / uninstall ----------------------------------------------------------------
@dataclass
class Written:
    """One file install-host wrote (or would have rewritten identically)."""
    what: str
    path: Path
    changed: bool


def _write(path: Path, text: str, mode: int) -> bool:
    """Write `text` to `path` (mode `mode`) unless it holds exactly that; True if written.
    Bytes, so a .bat keeps its CRLF lines on every system."""
    data = text.encode("utf-8")
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        same = path.read_bytes() == data
    except OSError:
        same = False
    if not same:
        tmp = path.with_name(path.name + ".tmp")
        tmp.write_bytes(data)
        os.replace(tmp, path)
    if stat.S_IMODE(path.stat().st_mode) != mode:
        path.chmod(mode)
    return not same


def resolve_browsers(browser: str | None, user_data_dir: Path | None) -> list[str]:
    """The browsers `--browser` names (default: all, or chromium with --user-data-dir)."""
    if browser in (None, "all"):
        if user_data_dir is not None:
            return ["chromium"] if browser is None else list(CHROMIUM_FAMILY)
        return list(BROWSERS)
    if browser not in BROWSERS:
        raise InstallError(f"unknown browser {browser!r} (choose from {', '.join(BROWSERS)}, all)")
    return [browser]


def install(browsers: list[str], user_data_dir: Path | None = None,
            python: str | None = None) -> list[Written]:
    """Write the launcher and the host manifest of each browser (and on Windows the
    registry values naming them) on this machine; what was written."""
    todo = plan(browsers, user_data_dir, System.here(), python)
    out = [Written(f.what, Path(f.path), _write(Path(f.path), f.text, f.mode))
           for f in todo.files]
    for value in todo.registry:
        out.append(Written(f"{value.browser} (registry)", Path(f"HKEY_CURRENT_USER\\{value.key}"),
                           _registry_set(value.key, value.value)))
    return out


def uninstall(browsers: list[str], user_data_dir: Path | None = None) -> list[Path]:
    """Remove the host manifests (and registry keys) of `browsers`, and the launcher once
    no manifest uses it."""
    system = System.here()
    removed = []
    for browser in browsers:
        path = Path(manifest_path(browser, user_data_dir, system))
        if path.exists():
            path.unlink()
            removed.append(path)
        if system.windows and _registry_delete(registry_key(browser)):
            removed.append(Path(f"HKEY_CURRENT_USER\\{registry_key(browser)}"))
    launcher = Path(launcher_path(user_data_dir, system))
    users = [b for b in BROWSERS if b in CHROMIUM_FAMILY or user_data_dir is None]
    still_used = any(_points_at(Path(manifest_path(b, user_data_dir, system)), launcher)
                     for b in users)
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


def _installed(browser: str, system: System | None = None) -> bool:
    """Whether `browser` seems installed: its executable on PATH (Linux), its app bundle
    (macOS), its own registry key (Windows: a browser creates it on first start)."""
    system = _system(system)
    if system.windows:
        return _registry_get(WINDOWS_KEYS[browser].rsplit("\\", 1)[0]) is not None
    if system.platform == "darwin":
        return any(Path(folder, MAC_APPS[browser]).is_dir()
                   for folder in ("/Applications", Path(system.home, "Applications")))
    return any(shutil.which(name) for name in EXECUTABLES[browser])


def check_registration(browser: str, user_data_dir: Path | None = None) -> tuple[Check, Path | None]:
    """The check of one browser's host manifest, and the launcher it names (or None)."""
    system = System.here()
    path = Path(manifest_path(browser, user_data_dir, system))
    flag = f" --user-data-dir {shlex.quote(str(user_data_dir))}" if user_data_dir else ""
    fix = f"{INSTALL_COMMAND} --browser {browser}{flag}"
    if system.windows:
        named = _registry_get(registry_key(browser))
        if named is None:
            if not _installed(browser, system):
                return Check(None, f"{browser}: not installed here, not registered (skipped)"), None
            return Check(False, f"{browser}: no registry key HKEY_CURRENT_USER\\"
                                f"{registry_key(browser)}", fix), None
        path = Path(named)
    if not path.exists():
        if user_data_dir is None and not system.windows and not _installed(browser, system):
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


def runs_old_module(launcher: Path) -> bool:
    """Whether `launcher` runs the host by its name before the move (`-m pith.host`)."""
    try:
        text = launcher.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return False
    return re.search(rf"-m\s+{re.escape(OLD_HOST_MODULE)}(?![\w.])", text) is not None


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


def demo_profile_note(browsers: list[str], profile: Path | None = None) -> list[Check]:
    """When `make run` registered the host in its own Chromium profile: say so, and what
    registers it for one's everyday browser (the demo profile serves only the Chromium
    `make run` opens)."""
    manifest = Path(profile or DEMO_PROFILE) / "NativeMessagingHosts" / f"{HOST_NAME}.json"
    if not manifest.is_file():
        return []
    which = "" if len(browsers) != 1 else f" --browser {browsers[0]}"
    return [Check(None, f"the demo profile of `make run` has the host registered ({manifest}); "
                        "it serves only the Chromium that `make run` opens"),
            Check(None, f"for your everyday browser run `{INSTALL_COMMAND}{which}`, then load "
                        f"{EXTENSION_MANIFEST.parent}/ as an unpacked extension "
                        "(chrome://extensions, Developer mode, Load unpacked; Firefox: "
                        "about:debugging, This Firefox, Load Temporary Add-on)")]


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
    if user_data_dir is None and any(c.ok is False for c in checks):
        checks.extend(demo_profile_note(browsers))
    for launcher in launchers:
        if runs_old_module(launcher):
            checks.append(Check(False, f"the host's launcher ({launcher}) runs `python -m "
                                       f"{OLD_HOST_MODULE}`, which this pith no longer has (the "
                                       f"host is {HOST_MODULE} now)",
                                f"{INSTALL_COMMAND} (rewrites the launcher)"))
            continue
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
