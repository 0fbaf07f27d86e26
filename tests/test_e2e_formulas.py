"""Formulas and SVG figures end to end in Chromium and Firefox: page → host → collector → reader, and the CLI agreeing with the reader's Markdown.

Fixture pages (tests/fixtures/pages/formulas/*, figures/*): plain MathML, KaTeX's output,
MathJax 2's (with its source scripts, one never typeset) and MathJax 3's, an inline SVG
chart with a 16 px icon beside it, and a hostile SVG (script, onload, foreignObject,
external href, javascript: link, animate/set, a data: SVG image). The path is the real
one: toolbar click (host `select`), the `reader` command (host `clean`, collect.js,
storage.session), the reader tab. Every reader page is checked for what must never happen
there: a hostile part running (the fixtures set the title to PWNED-… when they run outside
an http: page), a request leaving the page, a securitypolicyviolation.
"""
from __future__ import annotations

import base64
import re
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import unquote

import pytest

from conftest import PAGES
from pith.pages.extension import ExtensionBrowser
from serving import serve

pytestmark = pytest.mark.browser

READER_WAIT_S = 15.0
MATH = ["mathml", "katex", "mathjax2", "mathjax3"]
# Formulas each math fixture shows: (inline, displayed).
COUNTS = {"mathml": (5, 1), "katex": (2, 1), "mathjax2": (3, 1), "mathjax3": (2, 1)}
FORMULA = re.compile(r"\$\$\n.*?\n\$\$|\$\$.*?\$\$|\$[^$\n]+\$", re.S)
SCREENSHOTS = Path("/tmp")

STATE_JS = """() => {
  const art = document.querySelector('article');
  return {
    title: document.title,
    text: art.textContent,
    inline: [...art.querySelectorAll('math')].filter(m => m.getAttribute('display') !== 'block').length,
    displayed: art.querySelectorAll('math[display="block"]').length,
    drawn: [...art.querySelectorAll('math')].every(m => m.getBoundingClientRect().width > 0),
    mathml_ns: [...art.querySelectorAll('math')].every(m => m.namespaceURI === 'http://www.w3.org/1998/Math/MathML'),
    math_attrs: [...art.querySelectorAll('math, math *')].flatMap(e => [...e.attributes].map(a => a.name)),
    foreign: art.querySelectorAll('maction, annotation-xml, mglyph, svg, script, style, foreignObject').length,
    images: [...art.querySelectorAll('img')].map(i => ({src: i.getAttribute('src'), alt: i.alt,
                                                         w: i.naturalWidth, done: i.complete})),
    handlers: [...document.querySelectorAll('*')].flatMap(e => [...e.attributes])
               .filter(a => /^on/i.test(a.name)).length,
    violations: window.pithReader.violations,
    markdown: window.pithReader.markdown(),
  };
}"""


def formulas(markdown: str) -> list[str]:
    return FORMULA.findall(markdown)


def svg_text(src: str) -> str:
    head, _, data = src.partition(",")
    return base64.b64decode(data).decode("utf-8") if head.endswith(";base64") else unquote(data)


@pytest.fixture(scope="module")
def cli_markdown(tmp_path_factory) -> dict[str, str]:
    """{formula page: `pith extract -f markdown` of it}, the four pages in one run (one
    browser); the outputs are named source.md, source-2.md, ... in input order."""
    out = tmp_path_factory.mktemp("formulas-md")
    done = subprocess.run([sys.executable, "-m", "pith", "extract", "-f", "markdown",
                           *(str(PAGES / "formulas" / name / "source.html") for name in MATH),
                           "--out", str(out)], capture_output=True, text=True, timeout=240)
    assert done.returncode == 0, done.stderr
    stems = ["source"] + [f"source-{k}" for k in range(2, len(MATH) + 1)]
    return {name: (out / f"{stem}.md").read_text(encoding="utf-8")
            for name, stem in zip(MATH, stems)}


# --- Chromium ---------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def server():
    with serve(PAGES) as url:
        yield url


@pytest.fixture(scope="module")
def xb(chromium_with_pith):
    """Chromium with the extension; the host registered by the real `pith install-host` (the
    worker's shared browser, as a fresh start leaves it: ExtensionBrowser.reset)."""
    chromium_with_pith.reset()
    return chromium_with_pith


@pytest.fixture(scope="module")
def chromium_readers(xb, server):
    """{fixture: (reader state, requests the reader page made)} for every fixture page, one reader tab each."""
    out = {}
    for name in [f"formulas/{m}" for m in MATH] + ["figures/chart", "figures/hostile-svg"]:
        xb.page.goto(f"{server}/{name}/source.html", wait_until="load")
        reply = xb.click()
        assert reply.get("ok") is True, reply
        requests: list[str] = []

        def record(r, seen=requests):
            try:
                where = r.frame.url
            except Exception:              # a worker's request: not the reader page's
                return
            if "/ui/reader.html" in where and not r.url.startswith(("chrome-extension:", "data:")):
                seen.append(r.url)

        xb.context.on("request", record)
        page, _, _ = xb.open_reader(READER_WAIT_S)
        try:
            page.wait_for_function("() => [...document.querySelectorAll('article img')].every(i => i.complete)",
                                   timeout=READER_WAIT_S * 1000)
            time.sleep(0.3)                    # a handler that slipped through would fire by now
            out[name] = (page.evaluate(STATE_JS), requests)
            page.screenshot(path=str(SCREENSHOTS / f"pith-reader-{name.replace('/', '-')}-chromium.png"), full_page=True)
        finally:
            xb.context.remove_listener("request", record)
            page.close()
    return out


@pytest.mark.parametrize("name", MATH)
def test_formulas_are_shown_as_mathml_in_chromium(chromium_readers, name):
    st, requests = chromium_readers[f"formulas/{name}"]
    assert (st["inline"], st["displayed"]) == COUNTS[name]
    assert st["drawn"] and st["mathml_ns"]
    assert "GLYPHS" not in st["text"]                     # the typesetter's aria-hidden glyphs
    assert st["foreign"] == 0 and st["handlers"] == 0
    assert not set(st["math_attrs"]) - {"display", "encoding", "accent", "alttext"}
    assert "PWNED" not in st["title"] and st["violations"] == 0 and requests == []


@pytest.mark.parametrize("name", MATH)
def test_cli_markdown_writes_the_formulas_the_reader_exports(chromium_readers, cli_markdown,
                                                            name):
    st, _ = chromium_readers[f"formulas/{name}"]
    reader = formulas(st["markdown"])
    assert len(reader) == sum(COUNTS[name])
    assert formulas(cli_markdown[name]) == reader


def test_math_markdown_holds_the_page_tex_where_it_is_known(chromium_readers):
    katex = formulas(chromium_readers["formulas/katex"][0]["markdown"])
    assert katex == ["$\\bar{x}$", "$\\sigma^2$",
                     "$$\n\\frac{1}{n}\\sum_{i=1}^{n} x_i^2 = \\sigma^2 + \\bar{x}^2\n$$"]
    mj2 = formulas(chromium_readers["formulas/mathjax2"][0]["markdown"])
    assert mj2 == ["$e^{i\\theta}$", "$\\theta = \\pi$", "$$\ne^{i\\pi} + 1 = 0\n$$",
                   "$\\cos^2\\theta + \\sin^2\\theta = 1$"]          # the last one never typeset
    mj3 = formulas(chromium_readers["formulas/mathjax3"][0]["markdown"])   # no TeX: rebuilt
    assert mj3 == ["$\\phi$", "$x^{2} = x + 1$", "$$\n\\phi = \\frac{1 + \\sqrt{5}}{2}\n$$"]


def test_an_inline_svg_chart_is_an_image_with_its_title_as_alt(chromium_readers):
    st, requests = chromium_readers["figures/chart"]
    [img] = st["images"]                                  # the 16 px icon is not a figure
    assert img["src"].startswith("data:image/svg+xml;base64,")
    assert img["alt"] == "Rainfall by month, 2023" and img["done"] and img["w"] == 320
    svg = svg_text(img["src"])
    assert svg.count("<rect") == 4 and 'fill="url(#bar)"' in svg and "<linearGradient" in svg
    assert "ICON" not in st["text"] and requests == [] and st["violations"] == 0


def test_a_hostile_svg_is_drawn_without_anything_that_runs_or_loads(chromium_readers):
    st, requests = chromium_readers["figures/hostile-svg"]
    [img] = st["images"]                                  # the data: SVG image is left out
    assert img["alt"] == "A green square and a circle." and img["w"] == 300
    svg = svg_text(img["src"]).replace('xmlns="http://www.w3.org/2000/svg"', "")
    for gone in ("script", "onload", "onclick", "foreignObject", "FOREIGN", "<image", "<style",
                 "style=", "tracker.invalid", "javascript", "<a", "LINK TEXT", "<animate", "<set",
                 "http:"):
        assert gone not in svg, gone
    assert 'fill="green"' in svg and 'href="#kept-shape"' in svg and "<circle" in svg
    assert "PWNED" not in st["title"] and st["handlers"] == 0 and st["violations"] == 0
    assert requests == []


# --- Firefox ----------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def fx(firefox_with_pith):
    from test_e2e_firefox import fresh_pith
    return fresh_pith(firefox_with_pith)


@pytest.mark.firefox
def test_formulas_and_figures_in_firefox(fx, server, cli_markdown):
    from test_e2e_firefox import assert_ok, reader_context
    for name in [f"formulas/{m}" for m in MATH] + ["figures/chart", "figures/hostile-svg"]:
        fx.load(f"{server}/{name}/source.html")
        assert_ok(fx.command("extract"), f"extract {name}")
        before = {c["context"] for c in fx.ff.contexts()}
        assert_ok(fx.command("reader"), f"reader {name}")
        ctx = reader_context(fx, before)
        try:
            deadline = time.monotonic() + READER_WAIT_S
            while not fx.ff.evaluate(ctx, "[...document.querySelectorAll('article img')].every(i => i.complete)"):
                assert time.monotonic() < deadline, f"{name}: images never loaded"
                time.sleep(0.05)
            time.sleep(0.3)
            st = fx.ff.call(ctx, STATE_JS)
            assert "PWNED" not in st["title"] and st["handlers"] == 0 and st["violations"] == 0, name
            assert st["foreign"] == 0 and "GLYPHS" not in st["text"], name
            if name.startswith("formulas/"):
                m = name.split("/")[1]
                assert (st["inline"], st["displayed"]) == COUNTS[m] and st["drawn"], name
                assert len(formulas(st["markdown"])) == sum(COUNTS[m])
                assert formulas(st["markdown"]) == formulas(cli_markdown[m]), name
            else:
                [img] = st["images"]
                assert img["src"].startswith("data:image/svg+xml;base64,") and img["w"] > 0, name
                assert "tracker.invalid" not in svg_text(img["src"]), name
            if name == "formulas/katex":
                shot = fx.ff.send("browsingContext.captureScreenshot", {"context": ctx, "origin": "document"})
                (SCREENSHOTS / "pith-reader-formulas-katex-firefox.png").write_bytes(base64.b64decode(shot["data"]))
        finally:
            fx.ff.send("browsingContext.close", {"context": ctx})
