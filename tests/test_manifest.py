"""Cross-file contracts of the extension: ids, host name, protocol version, error codes, commands, files, docs, lint."""
from __future__ import annotations

import json
import re
import struct
import subprocess

import pytest

import pith
from conftest import ROOT
from pith import cli, errors
from pith.native import install
from pith.pages.extension import extension_id

EXT = ROOT / "extension"
MANIFEST = json.loads((EXT / "manifest.json").read_text(encoding="utf-8"))
TEMPLATES = ROOT / "manifest"
WEB_EXT = ROOT / "tests" / "node_modules" / ".bin" / "web-ext"
JS_FILES = sorted(EXT.rglob("*.js"))

# Chrome's rules for suggested shortcuts: Ctrl or Alt (not both... Ctrl+Alt is refused),
# optional Shift, then one of these keys; at most four commands may suggest one.
CHROME_KEYS = (set("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
               | {"Comma", "Period", "Home", "End", "PageUp", "PageDown", "Space", "Insert",
                  "Delete", "Up", "Down", "Left", "Right"})
MAX_SUGGESTED_KEYS = 4


def js(path: str) -> str:
    return (EXT / path).read_text(encoding="utf-8")


def js_constant(path: str, name: str) -> str:
    match = re.search(rf"export const {name} = ([^;]+);", js(path))
    assert match, f"{name} not found in {path}"
    return match.group(1).strip()


def js_object_keys(source: str, name: str) -> dict[str, str]:
    """`{key: value}` pairs of `const NAME = Object.freeze({...})` (flat literals only)."""
    match = re.search(rf"const {name} = Object\.freeze\(\{{(.*?)\}}\);", source, flags=re.DOTALL)
    assert match, f"{name} not found"
    pairs = re.findall(r"'?([\w-]+)'?\s*:\s*'?([\w-]+)'?", match.group(1))
    return dict(pairs)


# --- ids -------------------------------------------------------------------------------------
def test_extension_id_from_key_is_the_one_the_host_allows():
    ext_id = extension_id()
    assert re.fullmatch(r"[a-p]{32}", ext_id)
    chrome = json.loads((TEMPLATES / "chrome.json").read_text(encoding="utf-8"))
    assert chrome["allowed_origins"] == [f"chrome-extension://{ext_id}/"]


def test_gecko_id_is_the_one_the_host_allows():
    gecko = MANIFEST["browser_specific_settings"]["gecko"]["id"]
    firefox = json.loads((TEMPLATES / "firefox.json").read_text(encoding="utf-8"))
    assert firefox["allowed_extensions"] == [gecko] == ["pith@pith.dev"]


def test_install_writes_the_template_ids(tmp_path):
    written = install.host_manifest("chromium", tmp_path / "launcher")
    assert written["allowed_origins"] == [f"chrome-extension://{extension_id()}/"]
    assert install.host_manifest("firefox", tmp_path / "launcher")["allowed_extensions"] == \
        [MANIFEST["browser_specific_settings"]["gecko"]["id"]]


def test_host_name_everywhere():
    assert js_constant("background/native-host.js", "HOST_NAME").strip("'") == install.HOST_NAME
    for kind in ("chrome", "firefox"):
        data = json.loads((TEMPLATES / f"{kind}.json").read_text(encoding="utf-8"))
        assert data["name"] == install.HOST_NAME and data["type"] == "stdio"
        assert data["path"] == install.PLACEHOLDER
        packaged = ROOT / "host" / "pith" / "native" / f"{kind}.json"
        assert json.loads(packaged.read_text(encoding="utf-8")) == data


def test_protocol_version_in_js_is_pythons():
    assert int(js_constant("background/native-host.js", "PROTOCOL_VERSION")) == pith.PROTOCOL_VERSION


def test_extension_error_codes_match_errors_py():
    in_js = {k: int(v) for k, v in js_object_keys(js("background/errors.js"), "CODES").items()}
    in_py = {cls.name: cls.code for cls in errors.all_errors()}
    for name, code in in_js.items():
        assert in_py.get(name) == code, name
    extension_side = {n: c for n, c in in_py.items() if 60 <= c < 70 or 80 <= c < 90}
    assert extension_side and extension_side.items() <= in_js.items()


def test_install_command_in_js_is_the_cli_one():
    assert js_constant("background/errors.js", "INSTALL_COMMAND").strip("'") == install.INSTALL_COMMAND
    assert "install-host" in cli.build_parser()._subparsers._group_actions[0].choices


# --- the manifest ----------------------------------------------------------------------------
def test_manifest_shape():
    assert MANIFEST["manifest_version"] == 3
    assert MANIFEST["permissions"] == ["activeTab", "scripting", "storage", "nativeMessaging"]
    assert "host_permissions" not in MANIFEST
    bg = MANIFEST["background"]
    assert bg["service_worker"] == "background.js" and bg["scripts"] == ["background.js"]
    assert bg["type"] == "module"
    assert MANIFEST["action"]["default_title"]
    assert MANIFEST["version"] == pith.__version__


def test_extension_pages_run_only_their_own_scripts_and_load_only_images():
    """The reader shows content from pages: its CSP (the manifest's, for every extension
    page) must keep anything from running or loading but images."""
    policy = dict(
        (d.split()[0], d.split()[1:])
        for d in MANIFEST["content_security_policy"]["extension_pages"].split(";") if d.strip())
    assert policy["default-src"] == ["'none'"]
    assert policy["script-src"] == ["'self'"] and policy["style-src"] == ["'self'"]
    assert policy["base-uri"] == ["'none'"] and policy["form-action"] == ["'none'"]
    assert "'unsafe-inline'" not in str(policy) and "'unsafe-eval'" not in str(policy)
    assert not {"frame-src", "child-src", "object-src", "media-src"} & set(policy)  # default 'none'


def test_commands_follow_chromes_shortcut_rules():
    commands = MANIFEST["commands"]
    assert set(commands) == {"extract", "grow", "shrink", "open-reader"}
    suggested = [c["suggested_key"]["default"] for c in commands.values() if "suggested_key" in c]
    assert len(suggested) <= MAX_SUGGESTED_KEYS
    for combo in suggested:
        *mods, key = combo.split("+")
        assert key in CHROME_KEYS, combo
        assert ("Ctrl" in mods) != ("Alt" in mods), combo       # one of them, not both
        assert set(mods) <= {"Ctrl", "Alt", "Shift"}, combo
    assert all(c.get("description") for c in commands.values())


def test_every_command_has_a_handler():
    source = js("background/actions.js")
    routes = js_object_keys(source, "COMMAND_ACTIONS")
    handlers = set(re.search(r"const ACTIONS = Object\.freeze\(\{([^}]*)\}\)", source)
                   .group(1).replace(" ", "").split(","))
    for command in MANIFEST["commands"]:
        assert command in routes, command
        assert routes[command] in handlers, command
    assert {"extract", "grow", "shrink", "close"} <= handlers


def test_files_the_manifest_names_exist():
    names = [MANIFEST["background"]["service_worker"], *MANIFEST["background"]["scripts"],
             MANIFEST["options_ui"]["page"], *MANIFEST["icons"].values(),
             *MANIFEST["action"]["default_icon"].values()]
    for name in names:
        assert (EXT / name).is_file(), name
    for name in re.findall(r"'(inject/[\w-]+\.js)'", js("background/page.js")):
        assert (EXT / name).is_file(), name


def test_icons_are_pngs_of_their_size():
    for size, name in MANIFEST["icons"].items():
        data = (EXT / name).read_bytes()
        assert data[:8] == b"\x89PNG\r\n\x1a\n"
        width, height = struct.unpack(">II", data[16:24])
        assert width == height == int(size), name


def test_module_imports_resolve():
    for path in JS_FILES:
        for target in re.findall(r"^import .* from '(\.[^']+)';", path.read_text(encoding="utf-8"),
                                 flags=re.MULTILINE):
            assert (path.parent / target).resolve().is_file(), f"{path}: {target}"


# --- style rules (DESIGN.md §7) ----------------------------------------------------------------
def test_no_html_parsing_of_strings():
    for path in [*JS_FILES, *EXT.rglob("*.html")]:
        text = path.read_text(encoding="utf-8")
        for sink in ("innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval("):
            assert sink not in text, f"{path.relative_to(ROOT)} uses {sink}"


def test_every_file_says_its_job_first():
    for path in JS_FILES:
        first = path.read_text(encoding="utf-8").lstrip().splitlines()[0]
        assert first.startswith("/* Pith"), path
    for path in EXT.rglob("*.html"):
        assert "<!-- Pith" in path.read_text(encoding="utf-8").splitlines()[1], path


def test_background_registers_listeners_at_top_level():
    source = js("background.js")
    listeners = re.findall(r"^api\.[\w.]+\.addListener\(", source, flags=re.MULTILINE)
    assert len(listeners) >= 6
    assert "await" not in source          # nothing may delay the registration


# --- docs ------------------------------------------------------------------------------------
def test_readme_mentions_every_subcommand():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    subcommands = cli.build_parser()._subparsers._group_actions[0].choices
    for name in subcommands:
        assert f"pith {name}" in readme, f"README.md does not mention `pith {name}`"


# --- web-ext lint ----------------------------------------------------------------------------
@pytest.mark.skipif(not WEB_EXT.exists(), reason="web-ext is not installed (make npm)")
@pytest.mark.slow     # web-ext lint in Node: tens of seconds
def test_web_ext_lint_has_no_errors():
    done = subprocess.run([str(WEB_EXT), "lint", "--source-dir", str(EXT), "--output", "json"],
                          capture_output=True, text=True, timeout=120)
    report = json.loads(done.stdout[done.stdout.index("{"):])
    assert report["summary"]["errors"] == 0, report["errors"]
    codes = {w["code"] for w in report["warnings"]}
    assert codes <= {"BACKGROUND_SERVICE_WORKER_IGNORED"}, report["warnings"]
