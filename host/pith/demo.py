"""`make run`: the extension and the host on the bundled article, in Chromium — headed with a display, else headless with screenshots.

    python -m pith.demo [--headless] [--profile DIR] [--out DIR]

Both ways the host is registered in a dedicated Chromium profile (`.cache/profile`, as
`pith install-host --browser chromium --user-data-dir .cache/profile` does) and
host/examples/article.html is served on 127.0.0.1.

- With $DISPLAY (and no --headless): Chromium opens the page with the extension loaded;
  click the Pith button (or press Alt+Shift+P), then +, −, R, Esc. Ends when the browser
  window closes.
- Without a display: the same extension and host run in headless Chromium. The toolbar
  button is clicked (Extensions.triggerAction), the selection is printed (tag, path, the
  first lines of its text, timings), then grown once and shrunk back, and the reader view
  opened; screenshots go to `.cache/run/extract.png` (the highlight), `grow.png`,
  `reader-light.png` and `reader-dark.png` (the reader view in both themes).

Both end with the next steps to use Pith in one's own browser (`pith install-host`, load
`extension/`): the demo profile's registration serves only the Chromium started here.
"""
from __future__ import annotations

import argparse
import functools
import http.server
import os
import shutil
import subprocess
import sys
import threading
from pathlib import Path

from .native import install
from .pages.browser import CHROMIUM_FLAGS, find_chromium
from .errors import PithError
from .pages.extension import (ELEMENT_AT_PATH_JS, EXTENSION_DIR, ExtensionBrowser, ExtensionError,
                        drop_cached_worker)

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "host" / "examples"
PAGE = "article.html"
PROFILE = install.DEMO_PROFILE      # doctor recognises it and says what it is
OUT = ROOT / ".cache" / "run"
TEXT_LINES = 6              # lines of the selection's text printed
HEADING_CHARS = 60          # a longer heading is cut with "…" in the one-line summary
# The element's first heading, to name the choice in words (the reader's own clue).
FIRST_HEADING_JS = ("(p) => { const el = (" + ELEMENT_AT_PATH_JS + ")(p); "
                    "const h = el && el.querySelector('h1, h2, h3, h4, h5, h6'); "
                    "return h ? h.innerText : ''; }")


def in_words(tag: str, heading: str, text: str) -> str:
    """An element in words: 'the <article> "Title" · 1,240 words'."""
    heading = " ".join(heading.split())
    if len(heading) > HEADING_CHARS:
        heading = heading[:HEADING_CHARS - 1].rstrip() + "…"
    named = f' "{heading}"' if heading else ""
    words = len(text.split())
    return f"the <{tag}>{named} · {words:,} word{'s' if words != 1 else ''}"


def pith_command() -> str:
    """How to call `pith` from here: the venv's script when the venv is not on PATH."""
    script = Path(sys.executable).parent / "pith"
    if not script.exists() or shutil.which("pith") == str(script):
        return "pith"
    try:
        return str(script.relative_to(Path.cwd()))
    except ValueError:
        return str(script)


def next_steps(profile: Path) -> str:
    """How to use Pith in one's own browser after the demo."""
    return (f"The host is registered only in the demo profile ({profile}).\n"
            "To use Pith in your own browser:\n"
            f"  1. {pith_command()} install-host    (registers the host for Chrome, Chromium, "
            f"Edge, Brave and Firefox; `{pith_command()} doctor` checks it)\n"
            f"  2. load {EXTENSION_DIR}/ as an extension: chrome://extensions → Developer mode → "
            "Load unpacked (Edge: edge://extensions, Brave: brave://extensions); Firefox: "
            "about:debugging → This Firefox → Load Temporary Add-on → manifest.json\n"
            "  3. on any article, click the Pith button or press Alt+Shift+P; + grows, − shrinks, "
            "R opens the reader")


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


def serve(folder: Path) -> tuple[http.server.ThreadingHTTPServer, str]:
    httpd = http.server.ThreadingHTTPServer(
        ("127.0.0.1", 0), functools.partial(_Quiet, directory=str(folder)))
    httpd.daemon_threads = True
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    return httpd, f"http://127.0.0.1:{httpd.server_address[1]}"


def headed(url: str, profile: Path) -> int:
    drop_cached_worker(profile)
    install.install(["chromium"], profile)
    args = [find_chromium(), f"--user-data-dir={profile}", *CHROMIUM_FLAGS,
            f"--disable-extensions-except={EXTENSION_DIR}", f"--load-extension={EXTENSION_DIR}",
            url]
    print(f"Chromium opens {url} with the Pith extension (profile {profile}).\n"
          "Click the Pith button (under the puzzle-piece menu; pin it) or press Alt+Shift+P;\n"
          "then + grows, − shrinks, R opens the reader, Esc closes. Close the window to end.")
    code = subprocess.run(args).returncode
    print(next_steps(profile))
    return code


def headless(url: str, profile: Path, out: Path) -> int:
    from playwright.sync_api import sync_playwright
    out.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as pw, ExtensionBrowser(pw, profile) as xb:
        xb.page.goto(url, wait_until="load")
        reply = xb.click()
        if not reply.get("ok"):
            err = reply["error"]
            print(f"pith demo: {err['name']} ({err['code']}): {err['message']}", file=sys.stderr)
            return 1
        shots = [out / "extract.png", out / "grow.png"]
        xb.page.screenshot(path=str(shots[0]))
        text = xb.element_text(reply["path"]) or ""
        lines = [line for line in text.splitlines() if line.strip()]
        t = reply["timings"]
        heading = xb.page.evaluate(FIRST_HEADING_JS, reply["path"]) or ""
        print(f"Chose {in_words(reply['tag'], heading, text)} on {url}")
        print(f"click to highlight {t['total_ms']:.0f} ms (the host's first start included): "
              f"capture {t['capture_ms']:.0f}, transfer {t['transfer_ms']:.0f}, "
              f"host {t['host_ms']:.0f}, highlight {t['highlight_ms']:.0f}")
        for line in lines[:TEXT_LINES]:
            print(f"  | {line[:100]}")
        if len(lines) > TEXT_LINES:
            print(f"  | … ({len(lines) - TEXT_LINES} more lines)")
        grown = xb.command("grow")
        if grown.get("ok"):
            grown_text = xb.element_text(grown["path"]) or ""
            grown_heading = xb.page.evaluate(FIRST_HEADING_JS, grown["path"]) or ""
            print(f"grow → {in_words(grown['tag'], grown_heading, grown_text)} "
                  f"({grown['timings']['total_ms']:.0f} ms)")
        else:
            print(f"grow: {grown['error']['message']}")
        xb.page.screenshot(path=str(shots[1]))
        xb.command("shrink")
        shots += reader_shots(xb, out)
        for shot in shots:
            print(f"screenshot: {shot}")
    print(next_steps(profile))
    return 0


def reader_shots(xb: ExtensionBrowser, out: Path) -> list[Path]:
    """Open the reader on the selection; screenshots of it in the light and dark themes."""
    xb.ext_eval("() => chrome.storage.local.remove('readerPrefs')")
    page, _, shown_ms = xb.open_reader()
    print(f"reader view shown {shown_ms:.0f} ms after the command")
    page.wait_for_load_state("load")
    shots = [out / "reader-light.png", out / "reader-dark.png"]
    page.screenshot(path=str(shots[0]))
    page.keyboard.press("t")                     # the reader's theme key: light → dark
    page.wait_for_function("() => document.documentElement.dataset.theme === 'dark'")
    page.screenshot(path=str(shots[1]))
    xb.ext_eval("() => chrome.storage.local.remove('readerPrefs')")   # the next run starts light
    return shots


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m pith.demo", description=__doc__.splitlines()[0])
    parser.add_argument("--headless", action="store_true", help="even when $DISPLAY is set")
    parser.add_argument("--profile", type=Path, default=PROFILE, help=f"default {PROFILE}")
    parser.add_argument("--out", type=Path, default=OUT, help=f"screenshots (default {OUT})")
    args = parser.parse_args(argv)
    httpd, base = serve(EXAMPLES)
    url = f"{base}/{PAGE}"
    try:
        if os.environ.get("DISPLAY") and not args.headless:
            return headed(url, args.profile)
        return headless(url, args.profile, args.out)
    except (PithError, ExtensionError, install.InstallError) as exc:
        print(f"pith demo: {exc}", file=sys.stderr)
        return 1
    finally:
        httpd.shutdown()
        httpd.server_close()


if __name__ == "__main__":
    raise SystemExit(main())
