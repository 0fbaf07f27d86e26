"""SECURITY.md's claims, each checked against the code: ids, permissions, CSPs, storage, network.

The tables and code blocks of SECURITY.md are parsed here, so the document and the code
cannot drift apart silently. The host's own behaviour (no socket, no file, no process) is
checked on a real `pith-host` process under a Python audit hook.
"""
from __future__ import annotations

import json
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from lxml import html as lxml_html

from pith.native import install

ROOT = Path(__file__).resolve().parents[1]
SECURITY_MD = ROOT / "SECURITY.md"
EXT = ROOT / "extension"
MANIFEST = json.loads((EXT / "manifest.json").read_text(encoding="utf-8"))
TEMPLATE_DIRS = (ROOT / "manifest", ROOT / "host" / "pith" / "native")
JS_FILES = sorted(EXT.rglob("*.js"))
HTML_PAGES = sorted(EXT.rglob("*.html"))

# The only file allowed a fetch(), and how many: the reader's HTML export inlines images.
FETCH_ALLOWED = {"ui/export.js": 1}

# Network and remote-code APIs no extension file may use at all.
FORBIDDEN_APIS = ("XMLHttpRequest", "WebSocket", "EventSource", "sendBeacon", "importScripts",
                  "new Worker", "new SharedWorker", "eval(", "new Function")

PROCESS_TIMEOUT = 60


def doc() -> str:
    return SECURITY_MD.read_text(encoding="utf-8")


def section(title: str) -> str:
    """The text of the `## title` section of SECURITY.md."""
    match = re.search(rf"^## {re.escape(title)}\n(.*?)(?=^## |\Z)", doc(),
                      flags=re.MULTILINE | re.DOTALL)
    assert match, f"SECURITY.md has no section {title!r}"
    return match.group(1)


def code_blocks(text: str) -> list[str]:
    return [b.strip() for b in re.findall(r"^```\n(.*?)^```", text, flags=re.MULTILINE | re.DOTALL)]


def table_first_column(text: str) -> list[str]:
    """The `code` in the first cell of each body row of the first table in `text`."""
    rows = re.findall(r"^\| `([^`]+)` \|", text, flags=re.MULTILINE)
    assert rows, "no table rows"
    return rows


def strip_js_comments(source: str) -> str:
    """JavaScript without /* */ and // comments (good enough for our own files: no
    comment markers inside their strings or regexes are used for code)."""
    source = re.sub(r"/\*.*?\*/", "", source, flags=re.DOTALL)
    return re.sub(r"(^|[^:\\'\"])//[^\n]*", r"\1", source)


def rel(path: Path) -> str:
    return path.relative_to(EXT).as_posix()


# --- who may start the host --------------------------------------------------------------
def test_host_manifests_allow_exactly_our_extension():
    chrome_id, firefox_id = code_blocks(section("Host manifests: who may start the host"))
    for folder in TEMPLATE_DIRS:
        chrome = json.loads((folder / "chrome.json").read_text(encoding="utf-8"))
        firefox = json.loads((folder / "firefox.json").read_text(encoding="utf-8"))
        assert chrome["allowed_origins"] == [chrome_id], folder
        assert firefox["allowed_extensions"] == [firefox_id], folder
        assert "allowed_extensions" not in chrome and "allowed_origins" not in firefox
        assert set(chrome) == set(firefox) - {"allowed_extensions"} | {"allowed_origins"}
    # what install writes keeps them, only `path` is filled in
    written = install.host_manifest("chrome", Path("/x/launcher"))
    assert written["allowed_origins"] == [chrome_id] and written["path"] == "/x/launcher"
    assert install.host_manifest("firefox", Path("/x/launcher"))["allowed_extensions"] == [firefox_id]
    assert chrome_id == f"chrome-extension://{install.extension_id(MANIFEST['key'])}/"
    assert firefox_id == MANIFEST["browser_specific_settings"]["gecko"]["id"]


def test_nothing_outside_pith_can_reach_it():
    for key in ("externally_connectable", "web_accessible_resources", "content_scripts",
                "host_permissions", "optional_permissions", "optional_host_permissions"):
        assert key not in MANIFEST, key
    for path in JS_FILES:
        code = strip_js_comments(path.read_text(encoding="utf-8"))
        for api in ("onMessageExternal", "onConnectExternal", "onUserScriptMessage"):
            assert api not in code, f"{rel(path)} listens to {api}"


# --- the outline in the page -------------------------------------------------------------
INJECTED = sorted((EXT / "inject").glob("*.js"))
# Events a page's script can forge that would be a person's input to the overlay.
INPUT_EVENTS = {"keydown", "keyup", "keypress", "click", "auxclick", "dblclick", "mousedown",
                "mouseup", "pointerdown", "pointerup", "mouseover", "contextmenu", "input"}
# Input listeners that act on nothing: they only keep the page from seeing Pith's events.
INERT_LISTENERS = {"stop"}


def listener_bodies(code: str):
    """(event type or variable, the listener's source) of each addEventListener in `code`:
    a named function's body, or an inline function up to its closing brace."""
    for m in re.finditer(r"addEventListener\(\s*(?:'([\w:-]+)'|(\w+))\s*,\s*(function\b|\w+)", code):
        kind = m.group(1) or m.group(2)
        if m.group(3) == "function":
            start, depth, i = code.index("{", m.end()), 0, code.index("{", m.end())
            while True:
                depth += {"{": 1, "}": -1}.get(code[i], 0)
                if depth == 0:
                    break
                i += 1
            yield kind, m.group(3), code[start:i + 1]
        else:
            body = re.search(rf"function {m.group(3)}\(\w*\) \{{\n(.*?)^  \}}", code,
                             flags=re.MULTILINE | re.DOTALL)
            yield kind, m.group(3), body.group(1) if body else ""


def test_the_overlay_listens_to_no_page_event():
    """SECURITY.md, "The outline in the page": shadow roots closed, no page event or message
    taken as an instruction, and every input listener of the injected scripts checks
    isTrusted (the e2e test in test_e2e_blocks.py checks what a page's events do)."""
    section("The outline in the page")
    checked = 0
    for path in INJECTED:
        code = strip_js_comments(path.read_text(encoding="utf-8"))
        for call in re.findall(r"attachShadow\(([^)]*)\)", code):
            assert re.fullmatch(r"\{ mode: 'closed' \}", call.strip()), f"{rel(path)}: attachShadow({call})"
        for api in ("CustomEvent", "dispatchEvent(", "postMessage", "addEventListener('message'"):
            assert api not in code, f"{rel(path)} uses {api}"
        for kind, name, body in listener_bodies(code):
            assert ":" not in kind, f"{rel(path)} listens to the page's own event {kind!r}"
            # a variable type is a list of input events (EDIT_EVENTS)
            if (kind in INPUT_EVENTS or kind == "type") and name not in INERT_LISTENERS:
                assert "isTrusted" in body, f"{rel(path)}: the {kind} listener {name} takes untrusted events"
                checked += 1
    assert checked >= 5         # highlight.js: keys, clicks, edit-mode pointer, hover, the toast


# --- permissions ---------------------------------------------------------------------------
def test_permissions_are_exactly_the_documented_ones():
    documented = table_first_column(section("Permissions of the extension"))
    assert MANIFEST["permissions"] == documented


# --- CSPs ----------------------------------------------------------------------------------
def test_the_csps_are_the_documented_ones():
    text = section("Content Security Policy of the extension pages")
    (pages_csp,) = code_blocks(text)
    assert MANIFEST["content_security_policy"] == {"extension_pages": pages_csp}
    export = (EXT / "ui" / "export.js").read_text(encoding="utf-8")
    (export_csp,) = re.findall(r'export const EXPORT_CSP = "([^"]+)";', export)
    assert f"`{export_csp}`" in text
    directives = dict((d.split()[0], d.split()[1:]) for d in export_csp.split(";") if d.strip())
    assert directives["default-src"] == ["'none'"] and "script-src" not in directives


def test_every_extension_page_is_documented_with_the_csp():
    text = section("Content Security Policy of the extension pages")
    assert {rel(p) for p in HTML_PAGES} == set(re.findall(r"`(ui/[\w-]+\.html)`", text))


@pytest.mark.parametrize("page", HTML_PAGES, ids=rel)
def test_extension_pages_have_no_inline_code(page):
    tree = lxml_html.fromstring(page.read_bytes())
    scripts = tree.xpath("//script")
    assert scripts, "a page without its script does nothing"
    for script in scripts:
        src = script.get("src")
        assert src and not (script.text or "").strip(), "inline script"
        assert not re.match(r"[a-z]+:", src) and (page.parent / src).is_file(), src
    for element in tree.iter():
        if not isinstance(element.tag, str):
            continue
        for name, value in element.attrib.items():
            assert not name.lower().startswith("on"), f"<{element.tag} {name}=…>"
            assert not value.strip().lower().startswith("javascript:"), f"<{element.tag} {name}>"
    for link in tree.xpath("//link[@href]"):
        assert (page.parent / link.get("href")).is_file(), "only our own stylesheets"


def test_the_reader_page_sends_no_referrer():
    tree = lxml_html.fromstring((EXT / "ui" / "reader.html").read_bytes())
    assert tree.xpath("//meta[@name='referrer']/@content") == ["no-referrer"]


# --- storage -------------------------------------------------------------------------------
def test_stored_keys_are_the_documented_ones():
    documented = set(table_first_column(section("What is stored, and where")))
    found = set()
    for path in JS_FILES:
        code = strip_js_comments(path.read_text(encoding="utf-8"))
        if "storage." not in code:
            continue
        found |= set(re.findall(r"\bKEY = '([\w-]+)'", code))
        found |= {f"{name}:<tabId>" for name in re.findall(r"=> `(\w+):\$\{tabId\}`", code)}
    assert found == documented


# --- network -------------------------------------------------------------------------------
def test_no_network_calls_in_extension_code_but_the_image_export():
    fetches = {}
    for path in JS_FILES:
        code = strip_js_comments(path.read_text(encoding="utf-8"))
        count = len(re.findall(r"\bfetch\s*\(", code))
        if count:
            fetches[rel(path)] = count
        for api in FORBIDDEN_APIS:
            assert api not in code, f"{rel(path)} uses {api}"
        assert not re.search(r"import\s*\(?\s*['\"]https?:", code), f"{rel(path)} imports remote code"
    assert fetches == FETCH_ALLOWED
    export = strip_js_comments((EXT / "ui" / "export.js").read_text(encoding="utf-8"))
    call = export[export.index("fetch("):export.index("fetch(") + 200]
    assert "credentials: 'omit'" in call and "referrerPolicy: 'no-referrer'" in call


# A host started under an audit hook that records what SECURITY.md says never happens,
# and makes any connection attempt fail.
AUDITED_HOST = textwrap.dedent("""
    import sys

    WATCHED = ("socket.", "subprocess.", "os.system", "os.exec", "os.posix_spawn", "os.fork",
               "os.spawn", "urllib.", "http.client.", "ftplib.", "smtplib.", "webbrowser.")
    seen = []

    def hook(event, args):
        if event.startswith(WATCHED):
            seen.append(event)
            if event in ("socket.connect", "socket.getaddrinfo", "socket.bind"):
                raise PermissionError("the host must make no network request")
        elif event == "open" and not isinstance(args[0], int) and len(args) > 1 \\
                and isinstance(args[1], str) and any(m in args[1] for m in "wax+"):
            # (an int is a descriptor already open: the frames' copy of stdout)
            seen.append(f"open for writing {args[0]}")

    sys.addaudithook(hook)
    from pith.native import host
    try:
        status = host.main()
    finally:
        sys.stderr.write("AUDIT " + repr(sorted(set(seen))) + "\\n")
    raise SystemExit(status)
""")


def test_the_host_opens_no_socket_writes_no_file_starts_no_process(tmp_path):
    from builders import make_snapshot
    from test_host import frame, host_env, parse_all_frames, req
    rows = [("html", -1), ("body", 0), ("nav", 1), ("a", 2, {"text": "Home", "link": 1}),
            ("article", 1), ("p", 4, {"text": "A first paragraph of the story. " * 6}),
            ("p", 4, {"text": "A second paragraph of the story. " * 6})]
    script = tmp_path / "audited_host.py"
    script.write_text(AUDITED_HOST)
    stdin = b"".join(frame(r) for r in (
        req("hello", 1), req("echo", 2, data="x"),
        req("select", 3, snapshot=make_snapshot(rows, url="https://example.org/a")),
        req("grow", 4, doc="d1", node=5), req("shrink", 5, doc="d1", node=4),
        req("clean", 6, doc="d1", node=4)))
    proc = subprocess.run([sys.executable, str(script)], input=stdin, capture_output=True,
                          env=host_env(PYTHONDONTWRITEBYTECODE="1"), timeout=PROCESS_TIMEOUT)
    stderr = proc.stderr.decode()
    assert proc.returncode == 0, stderr
    replies = parse_all_frames(proc.stdout)
    assert [r["id"] for r in replies] == [1, 2, 3, 4, 5, 6]
    assert all(r["ok"] for r in replies if r["id"] != 4), replies   # grow may find no bigger block
    (audit,) = re.findall(r"^AUDIT (.*)$", stderr, flags=re.MULTILINE)
    assert audit == "[]", audit


def test_the_audit_hook_sees_what_it_is_there_to_see(tmp_path):
    """The control run: the same hook in a host whose echo opens a socket, writes a file
    and starts a process reports all three, so an empty report above means something."""
    script = tmp_path / "noisy_audited_host.py"
    script.write_text(AUDITED_HOST.replace("from pith.native import host\n", textwrap.dedent("""\
        from pith.native import host, protocol
        import socket, subprocess
        original = protocol.ACTIONS["echo"]
        def noisy(params, session):
            try:
                socket.create_connection(("127.0.0.1", 9), timeout=0.1)
            except OSError:
                pass
            open(%r, "w").close()
            subprocess.run([sys.executable, "-c", "pass"])
            return original.run(params, session)
        protocol.ACTIONS["echo"] = protocol.Action(noisy, original.params)
    """) % str(tmp_path / "written.txt")))
    from test_host import frame, host_env
    proc = subprocess.run([sys.executable, str(script)], input=frame({"v": 1, "id": 1,
                          "action": "echo", "data": 1}), capture_output=True,
                          env=host_env(PYTHONDONTWRITEBYTECODE="1"), timeout=PROCESS_TIMEOUT)
    (audit,) = re.findall(r"^AUDIT (.*)$", proc.stderr.decode(), flags=re.MULTILINE)
    assert "socket.connect" in audit or "socket.getaddrinfo" in audit
    assert "open for writing" in audit and "subprocess.Popen" in audit


# --- the document itself -------------------------------------------------------------------
def test_every_test_the_document_names_exists():
    named = set(re.findall(r"`(tests/test_\w+\.py)(?:::(\w+))?`", doc()))
    assert named
    for path, name in named:
        file = ROOT / path
        assert file.is_file(), path
        if name:
            assert re.search(rf"^(async )?def {name}\(", file.read_text(encoding="utf-8"),
                             flags=re.MULTILINE), f"{path}::{name}"
