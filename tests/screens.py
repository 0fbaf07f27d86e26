"""Screenshots of the outline and the reader on the bundled example, wide and 400 px, light and dark, for a person to look at.

    .venv/bin/python tests/screens.py [--out .cache/screens]

The real extension and host in headless Debian Chromium (pith.pages.extension.ExtensionBrowser,
a throwaway profile), host/examples/article.html served as `make run` serves it
(pith.demo.serve). Writes, and prints the paths of:

  outline-select.png    the toolbar click: the article outlined, its bar
  outline-grow.png      grown once: the layout around the article and sidebar
  outline-400.png       the click in a window 400 px wide
  reader-light.png      the reader view, light theme, 1280 px
  reader-dark.png       the same, dark theme
  reader-code.png       the reader scrolled to the wide code block, light theme, 560 px
  reader-400-light.png  the reader 400 px wide: the toolbar folded into Settings
  reader-400-menu.png   the same with the Settings menu open
  reader-400-dark.png   400 px wide, dark theme

Nothing is asserted here (tests/test_highlight.py and tests/test_reader_page.py check the
geometry); this is for eyes. The reader preferences are reset before and after.
"""
from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT / "host") not in sys.path:
    sys.path.insert(0, str(ROOT / "host"))

from pith import demo  # noqa: E402
from pith.pages.extension import ExtensionBrowser  # noqa: E402

OUT = ROOT / ".cache" / "screens"
WIDE = {"width": 1280, "height": 800}
NARROW = {"width": 400, "height": 800}
CODE_WIDTH = {"width": 560, "height": 800}     # narrow enough that the example's code line scrolls
READER_WAIT_S = 20.0


def settle(page) -> None:
    """Two animation frames: the overlay places itself on scroll and resize in one."""
    page.evaluate("() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))")


def reader_shots(xb: ExtensionBrowser, out: Path) -> list[Path]:
    page, _, _ = xb.open_reader(READER_WAIT_S)
    page.wait_for_function("() => { const i = document.querySelector('article img');"
                           " return !i || (i.complete && i.naturalWidth > 0); }")
    shots = []

    def shot(name: str) -> None:
        settle(page)
        path = out / name
        page.screenshot(path=str(path))
        shots.append(path)

    page.set_viewport_size(WIDE)
    shot("reader-light.png")
    page.keyboard.press("t")                                 # light → dark
    page.wait_for_function("() => document.documentElement.dataset.theme === 'dark'")
    shot("reader-dark.png")
    page.keyboard.press("t")
    page.keyboard.press("t")                                 # dark → sepia → light
    page.wait_for_function("() => document.documentElement.dataset.theme === 'light'")
    page.set_viewport_size(CODE_WIDTH)
    page.locator("article pre").scroll_into_view_if_needed()
    page.evaluate("window.scrollBy(0, 200)")
    shot("reader-code.png")
    page.evaluate("window.scrollTo(0, 0)")
    page.set_viewport_size(NARROW)
    page.locator("html[data-toolbar=narrow]").wait_for(state="attached")
    shot("reader-400-light.png")
    page.get_by_role("button", name="Settings").click()
    shot("reader-400-menu.png")
    page.keyboard.press("Escape")
    page.keyboard.press("t")
    page.wait_for_function("() => document.documentElement.dataset.theme === 'dark'")
    shot("reader-400-dark.png")
    page.close()
    return shots


def main(argv: list[str] | None = None) -> int:
    from playwright.sync_api import sync_playwright
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=OUT, help=f"default {OUT}")
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    httpd, base = demo.serve(demo.EXAMPLES)
    shots: list[Path] = []
    try:
        with tempfile.TemporaryDirectory(prefix="pith-screens-") as profile, \
                sync_playwright() as pw, ExtensionBrowser(pw, Path(profile), viewport=WIDE) as xb:
            xb.ext_eval("() => chrome.storage.local.remove('readerPrefs')")
            url = f"{base}/{demo.PAGE}"
            xb.page.goto(url, wait_until="load")
            reply = xb.click()
            if not reply.get("ok"):
                print(f"screens: the click failed: {reply}", file=sys.stderr)
                return 1
            settle(xb.page)
            xb.page.screenshot(path=str(args.out / "outline-select.png"))
            shots.append(args.out / "outline-select.png")
            xb.command("grow")
            settle(xb.page)
            xb.page.screenshot(path=str(args.out / "outline-grow.png"))
            shots.append(args.out / "outline-grow.png")
            xb.command("shrink")
            shots += reader_shots(xb, args.out)
            xb.page.set_viewport_size(NARROW)
            xb.page.goto(url, wait_until="load")
            xb.click()
            settle(xb.page)
            xb.page.screenshot(path=str(args.out / "outline-400.png"))
            shots.append(args.out / "outline-400.png")
            xb.ext_eval("() => chrome.storage.local.remove('readerPrefs')")
    finally:
        httpd.shutdown()
        httpd.server_close()
    for path in shots:
        print(f"screenshot: {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
