"""inject/highlight.js in real Chromium and firefox-esr: the outline and its bar hide no text of the selection; the label speaks a reader's words.

The script runs in the page's main world, as test_e2e_chromium's copy test runs it: it
only needs globalThis.__pith.nodes (capture.js's rows → elements), which the test sets to
the one element it outlines. The pages are the bundled example (host/examples, the one
`make run` shows) and tests/fixtures/pages/outline-top/page.html (a block that touches the
top of the window and is taller than it). The last test clicks the toolbar button of the
real extension with the real host on the bundled example, select then grow.

What is checked, from the page's own geometry (GEOMETRY_JS): the bar is on screen; no
client rect of the selection's text (Range.getClientRects over each of its text nodes)
meets the bar; the outline's painted band (outline-offset to outline-offset + width
around the box) meets none either.
"""
from __future__ import annotations

import re

import pytest

from conftest import PAGES, ROOT
from serving import serve

# highlight.js attaches closed shadow roots. Run here in the page's main world, it is
# preceded by a hook that keeps each root as __pithRoots.get(host) for the checks below:
# the test's own hook in its own world (the extension's isolated world is out of a page's
# reach, and tests/test_e2e_blocks.py checks that no page script gets in).
KEEP_ROOTS_JS = """(() => {
  const attach = Element.prototype.attachShadow;
  if (attach.keepsRoots) return;
  const roots = globalThis.__pithRoots = globalThis.__pithRoots || new WeakMap();
  Element.prototype.attachShadow = function (init) {
    const root = attach.call(this, init);
    roots.set(this, root);
    return root;
  };
  Element.prototype.attachShadow.keepsRoots = true;
})();
"""
HIGHLIGHT_JS = KEEP_ROOTS_JS + (ROOT / "extension" / "inject" / "highlight.js").read_text(encoding="utf-8")
EXAMPLES = ROOT / "host" / "examples"
OUTLINE_TOP = PAGES / "outline-top"
VIEWPORT = {"width": 1280, "height": 800}
# A word as a reader counts it (an independent rule from highlight.js's, same meaning).
WORD = re.compile(r"[^\W_]+(?:['\u2019][^\W_]+)*")

# Outline the element `selector` names (or the one __pith.nodes already has) and report.
SHOW_JS = """(selector) => {
  const el = document.querySelector(selector);
  globalThis.__pith = globalThis.__pith || {};
  __pith.nodes = [el];
  return __pith.overlay.show({node: 0, path: [0], tag: el.localName, doc: 1});
}"""

GEOMETRY_JS = """(selector) => {
  const el = document.querySelector(selector);
  const host = document.getElementById('pith-overlay');
  const sr = __pithRoots.get(host);
  const plain = (r) => ({left: r.left, top: r.top, right: r.right, bottom: r.bottom});
  const bar = plain(sr.querySelector('[part=bar]').getBoundingClientRect());
  const boxEl = sr.querySelector('[part=box]');
  const box = plain(boxEl.getBoundingClientRect());
  const cs = getComputedStyle(boxEl);
  const offset = parseFloat(cs.outlineOffset), width = parseFloat(cs.outlineWidth);
  const grow = (r, d) => ({left: r.left - d, top: r.top - d, right: r.right + d, bottom: r.bottom + d});
  const outer = grow(box, offset + width), inner = grow(box, offset);
  const meets = (a, b) => Math.min(a.right, b.right) - Math.max(a.left, b.left) > 0.5
                       && Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 0.5;
  // half a pixel of slack: rects are fractional, and a line's rect may end where the box ends
  const within = (a, b) => a.left >= b.left - 0.5 && a.right <= b.right + 0.5
                        && a.top >= b.top - 0.5 && a.bottom <= b.bottom + 0.5;
  const texts = [];
  const walk = (node) => {
    for (let n = node.firstChild; n; n = n.nextSibling) {
      if (n.nodeType === 3 && /\\S/.test(n.data)) {
        const range = document.createRange();
        range.selectNodeContents(n);
        for (const r of range.getClientRects()) {
          if (r.width > 0 && r.height > 0) texts.push({text: n.data.trim().slice(0, 40), ...plain(r)});
        }
      } else if (n.nodeType === 1 && !/^(script|style|template|noscript)$/.test(n.localName)) {
        if (n.shadowRoot) walk(n.shadowRoot);
        walk(n);
      }
    }
  };
  walk(el);
  return {
    bar, box, offset, width,
    viewport: {width: document.documentElement.clientWidth, height: innerHeight},
    under_bar: texts.filter((t) => meets(t, bar)).map((t) => t.text),
    under_outline: texts.filter((t) => meets(t, outer) && !within(t, inner)).map((t) => t.text),
    texts: texts.length,
    side: host.getAttribute('data-pith-bar'),
    label: sr.querySelector('[part=label]').textContent,
    inner_text: el.innerText,
  };
}"""

# (page folder, file, selector, where the bar should be, the label's name part)
CASES = [
    (EXAMPLES, "article.html", "article", "above", "\u201cHow tide tables are made\u201d"),
    (EXAMPLES, "article.html", "div.layout", None, "\u201cHow tide tables are made\u201d"),
    (EXAMPLES, "article.html", "body", None, "Whole page"),
    (OUTLINE_TOP, "page.html", "#story", "inside",
     "\u201cNotes from the harbour wall, written over a\u2026\u201d"),
    (OUTLINE_TOP, "page.html", "#lead", None, "Selected text"),
]
CASE_IDS = ["example-article", "example-layout", "example-body", "top-story", "top-lead"]


def words(text: str) -> str:
    """The label's word count as en-US writes it (Chromium's and Firefox's test locale)."""
    n = len(WORD.findall(text))
    return f"{n:,} word" + ("" if n == 1 else "s")


def check(geo: dict, side: str | None, name: str) -> None:
    bar, view = geo["bar"], geo["viewport"]
    assert geo["texts"] > 0, geo
    assert bar["left"] >= 0 and bar["top"] >= 0, geo["bar"]
    assert bar["right"] <= view["width"] and bar["bottom"] <= view["height"], (bar, view)
    assert geo["under_bar"] == [], f"the bar ({geo['side']}) covers text of the selection: {geo['under_bar']}"
    assert geo["offset"] >= 0, "the outline is drawn inside the box"
    assert geo["under_outline"] == [], f"the outline covers text: {geo['under_outline']}"
    if side is not None:
        assert geo["side"] == side, geo["side"]
    # " · 2 left out" follows when the host's block stage dims some blocks (the extension)
    label = re.sub(r" \u00b7 \d+ left out$", "", geo["label"])
    assert label == f"{name} \u00b7 {words(geo['inner_text'])}", geo["label"]
    assert "<" not in geo["label"]


@pytest.fixture(scope="module")
def servers():
    with serve(EXAMPLES) as examples, serve(OUTLINE_TOP) as top:
        yield {EXAMPLES: examples, OUTLINE_TOP: top}


# --- Chromium -----------------------------------------------------------------------------
@pytest.mark.browser
@pytest.mark.parametrize("folder, page, selector, side, name", CASES, ids=CASE_IDS)
def test_chromium_bar_and_outline_hide_no_text(chromium, servers, folder, page, selector, side, name):
    tab = chromium.new_page(viewport=VIEWPORT)
    try:
        tab.goto(f"{servers[folder]}/{page}", wait_until="load")
        tab.evaluate(HIGHLIGHT_JS)
        assert tab.evaluate(SHOW_JS, selector)["ok"] is True
        check(tab.evaluate(GEOMETRY_JS, selector), side, name)
    finally:
        tab.close()


@pytest.mark.browser
def test_chromium_bar_follows_scrolling_without_covering_text(chromium, servers):
    tab = chromium.new_page(viewport=VIEWPORT)
    try:
        tab.goto(f"{servers[OUTLINE_TOP]}/page.html", wait_until="load")
        tab.evaluate(HIGHLIGHT_JS)
        tab.evaluate(SHOW_JS, "#story")
        for y in (120, 400, 900):
            tab.evaluate(f"window.scrollTo(0, {y})")
            tab.evaluate("() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))")
            geo = tab.evaluate(GEOMETRY_JS, "#story")
            assert geo["under_bar"] == [] or geo["side"] == "inside", (y, geo["side"], geo["under_bar"])
            bar, view = geo["bar"], geo["viewport"]
            assert 0 <= bar["top"] and bar["bottom"] <= view["height"], (y, bar)
    finally:
        tab.close()


@pytest.mark.browser
def test_chromium_a_narrow_window_cuts_the_label_not_the_bar(chromium, servers):
    tab = chromium.new_page(viewport={"width": 400, "height": 800})
    try:
        tab.goto(f"{servers[EXAMPLES]}/article.html", wait_until="load")
        tab.evaluate(HIGHLIGHT_JS)
        tab.evaluate(SHOW_JS, "article")
        geo = tab.evaluate(GEOMETRY_JS, "article")
        assert geo["bar"]["left"] >= 0 and geo["bar"]["right"] <= geo["viewport"]["width"], geo["bar"]
        assert geo["under_bar"] == [] and geo["under_outline"] == [], geo
        buttons = tab.evaluate("""() => [...__pithRoots.get(document.getElementById('pith-overlay'))
            .querySelectorAll('button')].filter((b) => b.checkVisibility())
            .map((b) => { const r = b.getBoundingClientRect(); return [b.getAttribute('part'), r.left, r.right]; })""")
        assert [b[0] for b in buttons] == ["grow", "shrink", "reader", "close"], buttons
        assert all(0 <= left and right <= 400 for _, left, right in buttons), buttons
    finally:
        tab.close()


@pytest.mark.browser
def test_chromium_a_huge_selection_counts_the_words_of_its_start(chromium, servers):
    """A selection past MAX_COUNTED_CHARS (2**20) characters: the label counts the words
    of its first 2**20 characters of textContent and says there are more ("+")."""
    tab = chromium.new_page(viewport=VIEWPORT)
    try:
        tab.goto(f"{servers[EXAMPLES]}/article.html", wait_until="load")
        tab.evaluate("""() => { const p = document.createElement('p'); p.id = 'huge';
            p.textContent = 'one two '.repeat(200000); document.body.append(p); }""")
        tab.evaluate(HIGHLIGHT_JS)
        tab.evaluate(SHOW_JS, "#huge")
        label = tab.evaluate(GEOMETRY_JS, "#huge")["label"]
        start = tab.evaluate("() => document.getElementById('huge').textContent.slice(0, 1 << 20)")
        assert label == f"Selected text \u00b7 {len(WORD.findall(start)):,}+ words", label
    finally:
        tab.close()


# --- Firefox ------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def firefox(firefox_with_pith):
    """The worker's shared Firefox (conftest): each test opens a tab of its own and closes it;
    the extension installed there puts nothing into pages it was not asked to."""
    return firefox_with_pith[0]


@pytest.mark.firefox
@pytest.mark.parametrize("folder, page, selector, side, name", CASES, ids=CASE_IDS)
def test_firefox_bar_and_outline_hide_no_text(firefox, servers, folder, page, selector, side, name):
    ctx = firefox.new_tab()
    try:
        firefox.send("browsingContext.setViewport", {"context": ctx, "viewport": VIEWPORT})
        firefox.navigate(ctx, f"{servers[folder]}/{page}")
        firefox.evaluate(ctx, HIGHLIGHT_JS)
        assert firefox.call(ctx, SHOW_JS, selector)["ok"] is True
        check(firefox.call(ctx, GEOMETRY_JS, selector), side, name)
    finally:
        firefox.send("browsingContext.close", {"context": ctx})


# --- the real extension and host ----------------------------------------------------------
@pytest.mark.browser
def test_extension_outline_on_the_bundled_example(chromium_with_pith, servers):
    """make run's page: select (the article: the bar above it, clear of the sidebar's
    "Most read"), then grow (the layout div, from the top of the page). The worker's shared
    Chromium with the extension, as a fresh start leaves it (ExtensionBrowser.reset)."""
    xb = chromium_with_pith
    xb.reset()
    xb.page.set_viewport_size(VIEWPORT)
    xb.page.goto(f"{servers[EXAMPLES]}/article.html", wait_until="load")
    first = xb.click()
    assert first.get("ok") is True and first["tag"] == "article", first
    xb.pin_shadow_roots()          # the extension's closed roots, for GEOMETRY_JS
    check(xb.page.evaluate(GEOMETRY_JS, "article"), "above", "\u201cHow tide tables are made\u201d")
    most_read = xb.page.evaluate("""() => { const r = document.querySelector('aside h3').getBoundingClientRect();
        return {left: r.left, top: r.top, right: r.right, bottom: r.bottom}; }""")
    bar = xb.page.evaluate(GEOMETRY_JS, "article")["bar"]
    assert bar["right"] <= most_read["left"] or bar["bottom"] <= most_read["top"], (bar, most_read)
    grown = xb.command("grow")
    assert grown.get("ok") is True and grown["tag"] == "div", grown
    xb.pin_shadow_roots()
    geo = xb.page.evaluate(GEOMETRY_JS, "div.layout")
    assert geo["under_bar"] == [] and geo["under_outline"] == [], geo
    assert geo["label"].startswith("\u201cHow tide tables are made\u201d \u00b7 ")
    assert geo["label"].endswith(" left out") or geo["label"].endswith(" words"), geo["label"]
