"""The reader page (extension/ui/reader.html) in Debian Chromium with the real extension: rendering, sanitising, themes, export, keys.

One Chromium per worker, shared with the other extension modules (conftest's
chromium_with_pith, reset for this module). Each test puts a content payload (READER.md)
into storage.session under "reader:<tab>" from the extension's own page, as the background
does, and opens ui/reader.html?tab=<tab> in a new tab; no native host is involved. Payloads
and the Markdown a person expects from them are in tests/fixtures/reader/: lichens (a
realistic article modelled on tests/fixtures/pages/reader/source.html), edge (escaping and
structure corner cases) and hostile (tags, attributes and URLs outside the allow-list, which
must never reach the page).
"""
from __future__ import annotations

import itertools
import json
import re
import struct
import zlib
from pathlib import Path

import pytest

from conftest import PAGES, ROOT
from pith.pages.extension import ExtensionBrowser
from serving import QuietHandler, serve

pytestmark = pytest.mark.browser

FIXTURES = ROOT / "tests" / "fixtures" / "reader"
# Generous: a loaded CI machine is slow; a broken page still fails within it.
WAIT_MS = 10_000
# Saving HTML may wait for image fetches (export.js EXPORT_BUDGET_MS is 15 s).
DOWNLOAD_MS = 30_000
EXPORT_CSP = "default-src 'none'; img-src data: http: https:; style-src 'unsafe-inline'"
PYTHON_CODE = ("def schedule(days):\n    for day in range(days):\n        if day % 3 == 0:\n"
               "            mist(day)      # every third day\n        else:\n            rest(day)\n")
HELP_WORDS = ("Select a block first", "click the Pith button", "Alt+Shift+P", "press R")
# `math` is allowed (its own allow-list, extension/ui/math.js); `svg` never is: a figure is an <img>.
FORBIDDEN_TAGS = ("script", "style", "iframe", "frame", "object", "embed", "form", "input", "button",
                  "svg", "meta", "link", "base", "template", "noscript", "marquee", "section")
_tabs = itertools.count(910_001)


def fixture(name: str) -> dict:
    return json.loads((FIXTURES / f"{name}.json").read_text(encoding="utf-8"))


def expected_markdown(name: str) -> str:
    return (FIXTURES / f"{name}.md").read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def xb(chromium_with_pith):
    """Chromium with the unpacked extension (the host is registered but never asked): the
    worker's shared browser, as a fresh start leaves it (ExtensionBrowser.reset)."""
    chromium_with_pith.reset()
    return chromium_with_pith


@pytest.fixture(autouse=True)
def fresh_prefs(xb):
    """Every test starts from the default reader preferences."""
    xb.ext_eval("() => chrome.storage.local.remove('readerPrefs')")
    yield


@pytest.fixture
def open_reader(xb):
    """open_reader(payload or None) -> a reader page showing it; closed after the test."""
    pages = []

    def _open(payload, *, tab: int | None = None, query: str | None = None):
        tab = next(_tabs) if tab is None else tab
        if payload is not None:
            store(xb, tab, payload)
        page = xb.context.new_page()
        pages.append(page)
        page.goto(f"chrome-extension://{xb.id}/ui/reader.html" + (query if query is not None else f"?tab={tab}"))
        page.locator("html[data-state=ready], html[data-state=empty]").wait_for(state="attached", timeout=WAIT_MS)
        return page

    yield _open
    for page in pages:
        page.close()


def store(xb: ExtensionBrowser, tab: int, payload) -> None:
    xb.ext_eval("async ([k, v]) => chrome.storage.session.set({[k]: v})", [f"reader:{tab}", payload])


def computed(page, selector: str, prop: str) -> str:
    return page.evaluate("([s, p]) => getComputedStyle(document.querySelector(s))[p]", [selector, prop])


def violations(page) -> int:
    return page.evaluate("pithReader.violations")


# --- rendering ----------------------------------------------------------------------------------
def test_realistic_article_is_shown_whole(open_reader):
    data = fixture("lichens")
    page = open_reader(data)
    assert page.title() == "Growing lichens on glass – Pith reader"
    assert page.locator("#title").text_content() == "Growing lichens on glass"
    assert page.locator("article h1").count() == 0, "the title heading is shown twice"
    # header metadata
    assert page.locator("#meta .byline").text_content() == "Ada Moss"
    site = page.locator("#meta a.site")
    assert site.text_content() == "The Slow Garden"
    assert site.get_attribute("href") == data["url"]
    assert site.get_attribute("rel") == "noopener noreferrer"
    published = page.locator("#meta time.published")
    assert published.get_attribute("datetime") == "2024-03-01T10:00:00Z"
    assert published.text_content() == "March 1, 2024"           # Intl, lang "en", the page's day
    assert page.locator("#meta .reading-time").text_content() == "2 min read"
    for selector in ("html", "article"):
        assert page.locator(selector).get_attribute("lang") == "en"
        assert page.locator(selector).get_attribute("dir") == "ltr"
    # paragraphs, whitespace collapsed by CSS but the words all there
    paragraphs = page.locator("article > p").all_inner_texts()
    # the byline line "By Ada Moss, 1 March 2024" repeats the header's byline and date: left out
    assert not any("Ada Moss" in p for p in paragraphs[:-1])
    assert paragraphs[0].startswith("Lichens are not plants but partnerships: a fungus that builds the body")
    assert paragraphs[-1] == ("After a year the pane holds three species, and the glass has become the most "
                              "interesting thing in the garden for anyone who stops to look closely.\n— Ada")
    assert page.locator("article h2").all_inner_texts() == [
        "What you need", "A year in numbers", "The misting schedule"]
    # lists: nested, ordered with start
    assert page.locator("article > ul > li").count() == 3
    assert page.locator("article > ul > li > ul > li").all_inner_texts() == [
        "Xanthoria parietina (orange)", "Parmelia sulcata (grey)"]
    assert page.locator("article > ol").get_attribute("start") == "4"
    # table with caption and header cells, in a scrolling wrapper
    table = page.locator("article .table-scroll > table")
    assert table.locator("caption").text_content() == "Area covered on the pane"
    assert table.locator("thead th").all_inner_texts() == ["Month", "Area (mm²)", "Notes"]
    assert table.locator("tbody tr").count() == 3
    assert page.locator("article .table-scroll").get_attribute("aria-label") == "Area covered on the pane"
    # code: exact whitespace, language class
    code = page.locator("article pre > code")
    assert code.text_content() == PYTHON_CODE
    assert code.get_attribute("class") == "language-python"
    assert computed(page, "article pre", "whiteSpace") == "pre"
    assert computed(page, "article pre", "overflowX") == "auto"
    # figure
    img = page.locator("article figure img")
    assert img.get_attribute("src") == "https://slow-garden.example/lichens/images/lichen.png"
    assert img.get_attribute("alt") == "Orange lichen on a glass pane"
    assert (img.get_attribute("loading"), img.get_attribute("decoding"),
            img.get_attribute("referrerpolicy")) == ("lazy", "async", "no-referrer")
    assert page.locator("article figure figcaption").inner_text() == \
        "Xanthoria parietina after six months on the pane."
    assert page.locator("article blockquote").inner_text() == "Growth is slow, but it is growth."
    # links open apart, without referrer
    link = page.locator("article a")
    assert link.count() == 1
    assert (link.get_attribute("href"), link.get_attribute("rel"), link.get_attribute("target")) == \
        ("https://slow-garden.example/care", "noopener noreferrer", "_blank")
    # removed links: offered (the payload has some) but off by default
    assert page.locator("#links-toggle").is_visible()
    assert page.locator("#removed-links").is_hidden()
    assert violations(page) == 0


def test_the_violation_counter_counts(open_reader):
    """The 0 the other tests expect means something: an inline style breaks the page's CSP."""
    page = open_reader(fixture("lichens"))
    assert violations(page) == 0
    page.evaluate("""() => {
        const el = document.createElement('div');
        el.setAttribute('style', 'color: red');
        document.body.append(el);
        return new Promise((done) => {
          const start = Date.now();
          const poll = () => (pithReader.violations || Date.now() - start > 3000 ? done() : setTimeout(poll, 20));
          poll();
        });
    }""")
    assert violations(page) == 1


def test_title_comes_from_the_first_heading_when_the_payload_has_none(open_reader):
    page = open_reader(fixture("edge"))
    assert page.locator("#title").text_content() == "Edge cases"
    assert page.title() == "Edge cases – Pith reader"
    assert page.locator("article h1").count() == 0
    assert page.locator("#meta time").text_content() == "Spring 2023"        # unparsable: as given
    site = page.locator("#meta a.site")                                      # no site name: the host
    assert site.text_content() == "example.org"
    assert site.get_attribute("href") == "https://example.org/notes/edge%20cases?a=1&b=(2)"
    assert page.locator("#meta .reading-time").text_content() == "1 min read"
    assert page.locator("#links-toggle").is_visible()


def test_removed_links_are_listed_when_the_preference_is_on(xb, open_reader):
    page = open_reader(fixture("lichens"))
    page.locator("#removed-links-pref").check()
    section = page.locator("#removed-links")
    section.wait_for(state="visible", timeout=WAIT_MS)
    assert section.locator("h2").text_content() == "Links removed from this block"
    assert section.locator("a").all_inner_texts() == ["Share on X", "Facebook", "Email"]
    assert section.locator("a").first.get_attribute("rel") == "noopener noreferrer"
    assert page.evaluate("pithReader.markdown()").endswith(
        "\n\n## Links removed from this block\n\n"
        "- [Share on X](https://twitter.example/share?u=lichens)\n"
        "- [Facebook](https://facebook.example/sharer?u=lichens)\n"
        "- [Email](https://mail.example/compose?subject=lichens)\n")
    assert xb.ext_eval("async () => (await chrome.storage.local.get('readerPrefs')).readerPrefs.removedLinks")
    again = open_reader(fixture("lichens"))
    assert again.locator("#removed-links").is_visible()


def test_hostile_payload_is_neutralised(open_reader):
    page = open_reader(fixture("hostile"))
    # let any image error or load handler that slipped through run
    page.evaluate("""() => Promise.race([
        Promise.all([...document.images].map((i) => i.decode().catch(() => null))),
        new Promise((done) => setTimeout(done, 3000))])""")
    assert page.title() == "Hostile <img src=x onerror=\"document.title='PWNED'\"> – Pith reader"
    assert page.locator("#title").text_content() == "Hostile <img src=x onerror=\"document.title='PWNED'\">"
    assert page.locator("#meta .byline").text_content() == "<script>document.title='PWNED'</script>"
    found = page.evaluate("""(tags) => {
        const all = [...document.querySelectorAll('*')];
        const article = document.querySelector('article');
        return {
          forbidden: [...article.querySelectorAll(tags.join(','))].map((e) => e.localName),
          handlers: all.flatMap((e) => [...e.attributes].filter((a) => /^on/i.test(a.name)).map((a) => a.name)),
          styles: all.filter((e) => e.hasAttribute('style') && e !== document.documentElement).length,
          other: [...article.querySelectorAll('[srcset], [ping], [srcdoc], [id], .x, [target="_self"]')].length,
          urls: all.flatMap((e) => ['href', 'src', 'action', 'data'].map((n) => e.getAttribute(n)).filter(Boolean)),
          images: [...article.querySelectorAll('img')].map((i) => i.getAttribute('src')),
          links: [...article.querySelectorAll('a')].map((a) => a.getAttribute('href')),
          pageScript: 'pageScriptRan' in window,
        };
    }""", list(FORBIDDEN_TAGS))
    assert found["forbidden"] == []
    assert found["handlers"] == []
    assert found["styles"] == 0
    assert found["other"] == 0
    assert not [u for u in found["urls"] if re.match(r"\s*(javascript|data:text|vbscript)", u, re.I)]
    assert found["images"] == ["https://evil.example/pixel.png"]
    assert found["links"] == ["https://example.org/ok"]
    assert not found["pageScript"]
    # unknown tags unwrapped, layout containers kept as div, text shown as text
    text = page.locator("article").inner_text()
    assert "Unknown tags are unwrapped, their text kept." in text
    assert "Layout containers become div." in text
    assert "Text that looks like markup stays text: <img src=x onerror=alert(1)>" in text
    assert "template content" not in text and "noscript content" not in text and "Go" not in text.split()
    assert page.locator("article pre").get_attribute("class") == "language-js"
    assert page.locator("article pre code").get_attribute("class") == "language-js"
    assert page.locator("article details").get_attribute("open") == ""
    # page-level values checked too
    assert page.locator("html").get_attribute("lang") is None
    assert page.locator("html").get_attribute("dir") == "auto"
    assert page.locator("#meta a").count() == 0                # javascript: page URL: no link
    assert page.locator("#meta .reading-time").text_content() == "1 min read"
    assert page.evaluate("pithReader.markdown()") == expected_markdown("hostile")
    page.locator("#removed-links-pref").check()
    assert page.locator("#removed-links a").evaluate_all("(as) => as.map((a) => a.href)") == [
        "https://example.org/fine"]
    assert page.evaluate("pithReader.markdown()").endswith(
        "\n\n## Links removed from this block\n\n- [fine](https://example.org/fine)\n")
    assert violations(page) == 0


def test_very_deep_nesting_is_cut_not_fatal(xb, open_reader):
    tab = next(_tabs)
    xb.ext_eval("""async ([key, depth]) => {
        let node = 'too deep to show';
        for (let i = 0; i < depth; i += 1) node = {t: 'span', c: [node]};
        await chrome.storage.session.set({[key]: {v: 1, title: 'Deep', tree: [{t: 'p', c: ['shallow text']}, node]}});
    }""", [f"reader:{tab}", 1000])
    page = open_reader(None, tab=tab)
    assert page.locator("html").get_attribute("data-state") == "ready"
    text = page.locator("article").inner_text()
    assert "shallow text" in text and "too deep to show" not in text
    assert "too deep to show" not in page.evaluate("pithReader.markdown()")


def test_wide_tables_and_code_scroll_inside_the_column(open_reader):
    row = [{"t": "td", "c": [f"column-{k}-with-a-long-unbroken-value"]} for k in range(30)]
    long_line = "x = [" + ", ".join(str(k) for k in range(400)) + "]\n"
    page = open_reader({"v": 1, "url": "https://example.org/", "title": "Wide", "lang": "en", "dir": "ltr",
                        "tree": [{"t": "table", "c": [{"t": "tr", "c": row}]},
                                 {"t": "pre", "c": [{"t": "code", "c": [long_line]}]}], "links": []})
    sizes = page.evaluate("""() => {
        const w = document.querySelector('.table-scroll'), pre = document.querySelector('article pre');
        return {wrap: [w.scrollWidth, w.clientWidth], pre: [pre.scrollWidth, pre.clientWidth],
                page: [document.documentElement.scrollWidth, innerWidth]};
    }""")
    assert sizes["wrap"][0] > sizes["wrap"][1], sizes
    assert sizes["pre"][0] > sizes["pre"][1], sizes
    assert sizes["page"][0] <= sizes["page"][1], sizes
    assert page.locator(".table-scroll").get_attribute("tabindex") == "0"


def test_rtl_payload_sets_direction_but_not_the_toolbars(open_reader):
    page = open_reader({"v": 1, "url": "https://example.org/ar", "title": "مرحبا", "lang": "ar", "dir": "rtl",
                        "tree": [{"t": "p", "c": ["نص عربي"]}], "links": []})
    assert page.evaluate("[document.documentElement.lang, document.documentElement.dir]") == ["ar", "rtl"]
    assert page.locator("article").get_attribute("dir") == "rtl"
    assert computed(page, "article p", "direction") == "rtl"
    assert computed(page, ".toolbar", "direction") == "ltr"
    assert page.locator(".toolbar").get_attribute("lang") == "en"


def test_a_new_selection_for_the_tab_replaces_the_page(xb, open_reader):
    tab = next(_tabs)
    page = open_reader(fixture("lichens"), tab=tab)
    other = {"v": 1, "url": "https://example.org/next", "title": "The next one", "lang": "en", "dir": "ltr",
             "tree": [{"t": "p", "c": ["Another block."]}], "links": []}
    store(xb, tab, other)
    page.locator("#title", has_text="The next one").wait_for(timeout=WAIT_MS)
    assert page.locator("article").inner_text() == "Another block."
    assert page.title() == "The next one – Pith reader"
    # the page's tab closes (state.js removes the key): what is on screen stays. The page's
    # own listener was added first, so it has run when this one sees the removal.
    page.evaluate("""(k) => { window.removed = new Promise((done) => chrome.storage.onChanged.addListener(
        (changes) => { if (k in changes && changes[k].newValue === undefined) done(true); })); }""",
                  f"reader:{tab}")
    xb.ext_eval("(k) => chrome.storage.session.remove(k)", f"reader:{tab}")
    assert page.evaluate("window.removed") is True
    assert page.evaluate("pithReader.payload && pithReader.payload.title") == "The next one"
    assert page.locator("#title").text_content() == "The next one"
    assert page.locator("html").get_attribute("data-state") == "ready"


# --- the header, the byline, wide code, the toolbar ----------------------------------------------
# The texts of the paragraphs left after withoutRepeatedByline, in order.
BYLINE_JS = """async ([tree, byline, published]) => {
    const { withoutRepeatedByline, sanitizeTree, textOf } = await import('./content-dom.js');
    const out = [];
    const walk = (nodes) => nodes.forEach((n) => {
        if (typeof n === 'string') return;
        if (n.t === 'p') out.push(textOf(n)); else walk(n.c);
    });
    walk(withoutRepeatedByline(sanitizeTree(tree), byline, published, 'en'));
    return out;
}"""
BODY = [{"t": "p", "c": ["Every harbour master keeps a tide table within reach, but few sailors ask "
                         "where its numbers come from; they are predicted, and the method is old."]}]


def p_(*children) -> dict:
    return {"t": "p", "c": list(children)}


def time_(datetime: str, text: str) -> dict:
    return {"t": "time", "a": {"datetime": datetime}, "c": [text]}


@pytest.mark.parametrize("line, byline, published, dropped", [
    (p_("By Maren Holt, 3 March"), "Maren Holt, 3 March", "", True),             # the bundled article
    (p_("By Ada Moss, ", time_("2024-03-01", "1 March 2024")), "Ada Moss", "2024-03-01T10:00:00Z", True),
    (p_("Ada Moss \u00b7 Updated 2 Mar 2024"), "Ada Moss", "2024-03-01", True),
    (p_(time_("2024-03-01", "1 March 2024")), "", "2024-03-01", True),           # a lone date line
    (p_("By Ada Moss, 1 March 2024"), "Ada Moss", "", False),     # the header shows no date: keep it
    (p_("By Ada Moss, staff reporter in Oslo"), "Ada Moss", "2024-03-01", False),  # more than a date
    (p_("Ada Moss, 42, has grown lichens for years."), "Ada Moss", "2024-03-01", False),
    (p_("By Ada Mossberg"), "Ada Moss", "", False),
    (p_("By Jo Writer"), "Ada Moss", "2024-03-01", False),                     # another person
])
def test_a_byline_line_repeating_the_header_is_left_out(open_reader, line, byline, published, dropped):
    page = open_reader(fixture("lichens"))
    got = page.evaluate(BYLINE_JS, [[{"t": "div", "c": [line, *BODY]}], byline, published])
    assert got[-1] == BODY[0]["c"][0]
    assert len(got) == (1 if dropped else 2), got


def test_a_byline_line_lower_down_is_text(open_reader):
    page = open_reader(fixture("lichens"))
    tree = [*BODY, *BODY, *BODY, p_("By Maren Holt, 3 March")]
    got = page.evaluate(BYLINE_JS, [tree, "Maren Holt, 3 March", ""])
    assert got[-1] == "By Maren Holt, 3 March"


def test_little_space_above_the_title(open_reader):
    page = open_reader(fixture("lichens"))
    gap = page.evaluate("""() => document.getElementById('title').getBoundingClientRect().top
        - document.querySelector('.toolbar').getBoundingClientRect().bottom""")
    # 1.25em of 20 px: room to breathe (it was 114 px: the content's h1 margin over the title's)
    assert 0 < gap <= 32, gap


def decode_png(data: bytes) -> list[list[tuple[int, int, int]]]:
    """Rows of RGB pixels of an 8-bit, non-interlaced RGB or RGBA PNG (Chromium's screenshots)."""
    pos, idat, width = 8, b"", 0
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, color = struct.unpack(">IIBB", body[:10])
            assert depth == 8 and color in (2, 6) and body[12] == 0, (depth, color)
            channels = 3 if color == 2 else 4
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    raw, stride, rows, prev = zlib.decompress(idat), width * channels, [], bytearray(width * channels)
    for y in range(height):
        kind, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - channels] if i >= channels else 0
            b, c = prev[i], prev[i - channels] if i >= channels else 0
            if kind == 1:
                line[i] = (line[i] + a) & 255
            elif kind == 2:
                line[i] = (line[i] + b) & 255
            elif kind == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif kind == 4:
                pa, pb, pc = abs(b - c), abs(a - c), abs(a + b - 2 * c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append([tuple(line[x * channels:x * channels + 3]) for x in range(width)])
        prev = line
    return rows


def edge_contrast(page, selector: str, side: str) -> float:
    """How far from the code background the outer 3 px of `side` of the element are, in its
    top padding (no text there): mean absolute difference over the strip and the channels
    (a shadow on a light theme, a lighter edge on a dark one)."""
    box = page.locator(selector).bounding_box()
    x = box["x"] + 1 if side == "left" else box["x"] + box["width"] - 4
    strip = decode_png(page.screenshot(clip={"x": x, "y": box["y"] + 7, "width": 3, "height": 5}))
    bg = page.evaluate("""() => { const c = document.createElement('canvas').getContext('2d');
        c.fillStyle = getComputedStyle(document.documentElement).getPropertyValue('--code-bg').trim();
        c.fillRect(0, 0, 1, 1); return [...c.getImageData(0, 0, 1, 1).data].slice(0, 3); }""")
    pixels = [px for row in strip for px in row]
    return sum(abs(bg[k] - px[k]) for px in pixels for k in range(3)) / (3 * len(pixels))


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_code_wider_than_the_column_shows_that_it_scrolls(xb, open_reader, theme):
    xb.ext_eval("(t) => chrome.storage.local.set({readerPrefs: {theme: t}})", theme)
    long_line = "height = sum(a * cos(w * t + phase) for a, w, phase in constituents)  # " + "x" * 120
    page = open_reader({"v": 1, "url": "https://example.org/", "title": "Code", "lang": "en", "dir": "ltr",
                        "tree": [{"t": "pre", "c": [{"t": "code", "c": [long_line]}]},
                                 {"t": "pre", "c": [{"t": "code", "c": ["short = 1"]}]}], "links": []})
    wide, short = "article pre:nth-of-type(1)", "article pre:nth-of-type(2)"
    assert page.locator(wide).get_attribute("data-scrolls") == "true"
    assert page.locator(wide).get_attribute("tabindex") == "0"        # the arrow keys scroll it
    assert page.locator(wide).get_attribute("aria-label") == "Code (scrolls sideways)"
    assert page.locator(short).get_attribute("data-scrolls") is None
    # a shadow on the side with more code, none on the other
    assert edge_contrast(page, wide, "right") > 12
    assert edge_contrast(page, wide, "left") < 3
    assert edge_contrast(page, short, "right") < 3
    page.evaluate("(s) => { const p = document.querySelector(s); p.scrollLeft = p.scrollWidth; }", wide)
    assert edge_contrast(page, wide, "right") < 3
    assert edge_contrast(page, wide, "left") > 12
    # the last character is not cut: padding after it, inside the scrolled box
    pad = page.evaluate("""(s) => { const p = document.querySelector(s), r = document.createRange();
        r.selectNodeContents(p.querySelector('code'));
        return p.getBoundingClientRect().right - r.getBoundingClientRect().right; }""", wide)
    assert pad >= 10, pad


CONTROLS_JS = """() => [...document.querySelectorAll('#toolbar-panel button, #toolbar-panel select, #toolbar-panel input')]
    .filter((e) => e.checkVisibility()).map((e) => { const r = e.getBoundingClientRect();
        return {id: e.id || e.dataset.choice, left: r.left, right: r.right, top: r.top, bottom: r.bottom}; })"""


def test_a_narrow_window_folds_the_toolbar_into_a_menu(open_reader):
    page = open_reader(fixture("lichens"))
    page.set_viewport_size({"width": 400, "height": 700})
    page.locator("html[data-toolbar=narrow]").wait_for(state="attached", timeout=WAIT_MS)
    toolbar = page.locator(".toolbar").bounding_box()
    assert toolbar["height"] <= 48, toolbar                          # one row, not three
    menu = page.get_by_role("button", name="Settings")
    assert menu.is_visible() and menu.get_attribute("aria-expanded") == "false"
    assert page.locator("#toolbar-panel").is_hidden()
    # keyboard: Enter opens it, Tab goes into it, Escape closes it and comes back
    menu.focus()
    page.keyboard.press("Enter")
    assert menu.get_attribute("aria-expanded") == "true"
    controls = page.evaluate(CONTROLS_JS)
    assert len(controls) == 13, controls
    for c in controls:
        assert c["left"] >= 0 and c["right"] <= 400 and c["bottom"] <= 700, c       # all on screen
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.id") == "font"
    page.keyboard.press("Escape")
    assert menu.get_attribute("aria-expanded") == "false"
    assert page.evaluate("document.activeElement.id") == "menu"
    assert page.locator("#toolbar-panel").is_hidden()
    # a control works from the menu; a click outside closes it
    menu.click()
    page.get_by_role("button", name="Dark").click()
    assert page.locator("html").get_attribute("data-theme") == "dark"
    page.locator("#content").click()
    assert menu.get_attribute("aria-expanded") == "false"
    # wide again: one row, no menu
    page.set_viewport_size({"width": 1280, "height": 700})
    page.locator("html[data-toolbar=wide]").wait_for(state="attached", timeout=WAIT_MS)
    assert menu.is_hidden()
    assert page.locator("#toolbar-panel").is_visible()
    assert page.locator(".toolbar").bounding_box()["height"] <= 48
    assert len(page.evaluate(CONTROLS_JS)) == 13


def test_the_removed_links_preference_says_what_it_does(xb, open_reader):
    page = open_reader(fixture("lichens"))
    box = page.get_by_role("checkbox", name="List left-out links")
    assert box.is_visible()
    description = page.evaluate("document.getElementById('removed-links-why').textContent")
    assert box.get_attribute("aria-describedby") == "removed-links-why"
    assert "links Pith left out" in description and "menus" in description
    options = xb.context.new_page()
    try:
        options.goto(f"chrome-extension://{xb.id}/ui/options.html")
        pref = options.get_by_role("checkbox", name="List left-out links")
        pref.wait_for(timeout=WAIT_MS)
        why = options.locator("#" + pref.get_attribute("aria-describedby")).text_content()
        assert "At the end of the reader, list the links Pith left out" in why
    finally:
        options.close()


# --- nothing to show ----------------------------------------------------------------------------
@pytest.mark.parametrize("payload,query", [
    (None, None),                        # nothing stored for the tab
    ({}, None),                          # an empty object
    ({"v": 2, "tree": []}, None),        # a payload version this page does not know
    ("not a payload", None),
    (None, ""),                          # no ?tab at all
    (None, "?tab=..%2Fsecret"),
])
def test_missing_payload_explains_how_to_select_a_block(open_reader, payload, query):
    page = open_reader(payload, query=query)
    assert page.locator("html").get_attribute("data-state") == "empty"
    assert page.locator("#title").text_content() == "Nothing to read yet."
    help_text = page.locator("#help").text_content()
    for words in HELP_WORDS:
        assert words in help_text
    assert page.title() == "Pith reader"
    for button in ("#copy-md", "#save-md", "#save-html", "#print"):
        assert page.locator(button).is_disabled()
    assert page.evaluate("pithReader.markdown()") == ""
    assert violations(page) == 0


# --- preferences ---------------------------------------------------------------------------------
def test_theme_buttons_change_the_colours_and_are_remembered(xb, open_reader):
    page = open_reader(fixture("lichens"))
    assert page.locator("html").get_attribute("data-theme") == "light"
    light = computed(page, "body", "backgroundColor")
    page.get_by_role("button", name="Dark").click()
    assert page.locator("html").get_attribute("data-theme") == "dark"
    dark = computed(page, "body", "backgroundColor")
    assert dark != light
    assert computed(page, "body", "color") != computed(page, "body", "backgroundColor")
    assert page.get_by_role("button", name="Dark").get_attribute("aria-pressed") == "true"
    assert page.get_by_role("button", name="Light").get_attribute("aria-pressed") == "false"
    assert page.evaluate("pithReader.prefs().theme") == "dark"
    second = open_reader(fixture("edge"))
    assert second.locator("html").get_attribute("data-theme") == "dark"
    assert computed(second, "body", "backgroundColor") == dark
    # the first page follows a change made in the second one (storage.onChanged)
    second.get_by_role("button", name="Sepia").click()
    page.locator("html[data-theme=sepia]").wait_for(state="attached", timeout=WAIT_MS)
    assert computed(page, "body", "backgroundColor") not in (light, dark)


def test_t_key_cycles_the_theme(open_reader):
    page = open_reader(fixture("lichens"))
    page.locator("body").click(position={"x": 5, "y": 300})
    themes = []
    for _ in range(3):
        page.keyboard.press("t")
        themes.append(page.locator("html").get_attribute("data-theme"))
    assert themes == ["dark", "sepia", "light"]


def test_font_size_buttons_and_keys(open_reader):
    page = open_reader(fixture("lichens"))
    assert computed(page, "article p", "fontSize") == "20px"
    assert computed(page, "article p", "lineHeight") == "32px"      # 20 px × 1.6
    page.get_by_role("button", name="Larger text").click()
    assert computed(page, "article p", "fontSize") == "21px"
    page.locator("body").click(position={"x": 5, "y": 300})
    page.keyboard.press("+")
    assert computed(page, "article p", "fontSize") == "22px"
    page.keyboard.press("-")
    page.keyboard.press("-")
    page.keyboard.press("-")
    assert computed(page, "article p", "fontSize") == "19px"
    assert page.evaluate("pithReader.prefs().size") == 19
    for _ in range(10):
        page.get_by_role("button", name="Smaller text").click(force=True)
    assert computed(page, "article p", "fontSize") == "14px"         # the range's floor
    assert page.get_by_role("button", name="Smaller text").is_disabled()


def test_quick_changes_are_all_saved(xb, open_reader):
    page = open_reader(fixture("lichens"))
    page.evaluate("""() => {
        const larger = document.getElementById('larger');
        larger.click(); larger.click(); larger.click();
        document.querySelector('button[data-choice=dark]').click();
    }""")
    assert computed(page, "article p", "fontSize") == "23px"
    second = open_reader(fixture("lichens"))
    assert second.evaluate("pithReader.prefs()")["size"] == 23
    assert second.locator("html").get_attribute("data-theme") == "dark"
    assert computed(page, "article p", "fontSize") == "23px"        # no step back through echoes


def test_font_width_and_line_height_controls(open_reader):
    page = open_reader(fixture("lichens"))
    serif = computed(page, "article p", "fontFamily")
    page.get_by_label("Font").select_option("mono")
    assert computed(page, "article p", "fontFamily") != serif
    assert "monospace" in computed(page, "article p", "fontFamily")
    page.get_by_label("Width").fill("50")
    assert computed(page, "main", "maxWidth") == "1000px"             # 50 em × 20 px
    page.get_by_label("Spacing").fill("2")
    assert computed(page, "article p", "lineHeight") == "40px"
    assert page.evaluate("pithReader.prefs()") == {
        "theme": "light", "font": "mono", "size": 20, "width": 50, "lineHeight": 2, "removedLinks": False,
        "voice": "", "rate": 1}


def test_preferences_saved_elsewhere_are_validated_and_followed(xb, open_reader):
    xb.ext_eval("() => chrome.storage.local.set({readerPrefs: {theme: 'sepia', size: 99, width: 'wide', "
                "lineHeight: 1.63, font: 'comic', removedLinks: 'yes', extra: 1}})")
    page = open_reader(fixture("lichens"))
    assert page.evaluate("pithReader.prefs()") == {
        "theme": "sepia", "font": "serif", "size": 32, "width": 38, "lineHeight": 1.6, "removedLinks": False,
        "voice": "", "rate": 1}
    assert computed(page, "article p", "fontSize") == "32px"
    # a change made by the options page (storage.local) is followed by the open reader
    xb.ext_eval("() => chrome.storage.local.set({readerPrefs: {theme: 'dark', size: 24}})")
    page.locator("html[data-theme=dark]").wait_for(state="attached", timeout=WAIT_MS)
    assert computed(page, "article p", "fontSize") == "24px"


# --- take it away --------------------------------------------------------------------------------
@pytest.mark.parametrize("name", ["lichens", "edge", "hostile"])
def test_markdown_is_what_a_person_expects(open_reader, name):
    page = open_reader(fixture(name))
    assert page.evaluate("pithReader.markdown()") == expected_markdown(name)


def test_save_markdown_downloads_the_markdown(open_reader):
    page = open_reader(fixture("lichens"))
    with page.expect_download(timeout=DOWNLOAD_MS) as got:
        page.get_by_role("button", name="Save Markdown").click()
    download = got.value
    assert download.suggested_filename == "Growing lichens on glass.md"
    assert Path(download.path()).read_text(encoding="utf-8") == expected_markdown("lichens")
    assert "Growing lichens on glass.md" in page.locator("#status").text_content()


def test_save_html_is_one_safe_self_contained_file(xb, open_reader, tmp_path):
    page = open_reader(fixture("lichens"))
    page.get_by_role("button", name="Dark").click()
    page.get_by_role("button", name="Larger text").click()
    with page.expect_download(timeout=DOWNLOAD_MS) as got:
        page.get_by_role("button", name="Save HTML").click()
    download = got.value
    assert download.suggested_filename == "Growing lichens on glass.html"
    html = Path(download.path()).read_text(encoding="utf-8")
    assert html.startswith("<!DOCTYPE html>\n<html lang=\"en\" dir=\"ltr\" data-theme=\"dark\"")
    assert "<script" not in html.lower()
    assert f'<meta http-equiv="Content-Security-Policy" content="{EXPORT_CSP}">' in html
    assert "Lichens are not plants but partnerships" in html
    assert "<style>" in html and '[data-theme="dark"]' in html and '[data-theme="sepia"]' not in html
    assert "Copy Markdown" not in html and "toolbar" not in html
    assert re.search(r"<h1 id=\"title\">Growing lichens on glass</h1>", html)
    assert not re.search(r"<[^>]*\son[a-z]+=", html)                   # no on* attributes
    # the file as a browser shows it: same text, same code whitespace, the saved theme and size
    saved = tmp_path / "saved.html"
    saved.write_text(html, encoding="utf-8")
    view = xb.context.new_page()
    try:
        view.goto(saved.as_uri())
        assert view.locator("article pre code").text_content() == PYTHON_CODE
        assert view.locator("article thead th").all_inner_texts() == ["Month", "Area (mm²)", "Notes"]
        assert view.locator("article figure figcaption").inner_text() == \
            "Xanthoria parietina after six months on the pane."
        assert computed(view, "body", "backgroundColor") == computed(page, "body", "backgroundColor")
        assert computed(view, "article p", "fontSize") == "21px"
    finally:
        view.close()


@pytest.mark.parametrize("title,ext,want", [
    ("Growing lichens on glass", "md", "Growing lichens on glass.md"),
    ("a/b\\c: d*e?f\"g<h>i|j", "md", "a b c d e f g h i j.md"),
    ("..hidden..", ".html", "hidden.html"),
    ("right\u202eto-left\u200b zero\u0007bell", "md", "rightto-left zerobell.md"),
    ("CON", "md", "CON_.md"),
    ("", "md", "Untitled.md"),
    ("x" * 200, "html", "x" * 75 + ".html"),
    ("日本語のタイトル" * 20, "md", "日本語のタイトル" * 9 + "日本語の" + "タ" + ".md"),
])
def test_file_names_are_short_and_safe(open_reader, title, ext, want):
    page = open_reader({"v": 1, "title": "", "tree": []})
    got = page.evaluate("async ([t, e]) => (await import('./markdown.js')).fileName({title: t, tree: []}, e)",
                        [title, ext])
    assert got == want
    assert len(got) <= 80


class _ImageHandler(QuietHandler):
    """Serves the reader fixture's images; under /cors/ with Access-Control-Allow-Origin: *."""

    def translate_path(self, path):
        return super().translate_path(path.replace("/cors/", "/", 1))

    def end_headers(self):
        if self.path.startswith("/cors/"):
            self.send_header("Access-Control-Allow-Origin", "*")
        super().end_headers()


def test_save_html_inlines_images_that_cors_allows(open_reader):
    with serve(PAGES / "reader", _ImageHandler) as base:
        allowed, refused = f"{base}/cors/images/lichen.png", f"{base}/images/lichen.png"
        page = open_reader({"v": 1, "url": "https://example.org/", "title": "Images", "lang": "en", "dir": "ltr",
                            "tree": [{"t": "figure", "c": [{"t": "img", "a": {"src": allowed, "alt": "allowed"}}]},
                                     {"t": "figure", "c": [{"t": "img", "a": {"src": refused, "alt": "refused"}}]}],
                            "links": []})
        html = page.evaluate("pithReader.html()")
    assert allowed not in html
    assert re.search(r'<img src="data:image/png;base64,[A-Za-z0-9+/=]+" alt="allowed"', html)
    assert f'<img src="{refused}" alt="refused"' in html
    # the page itself still shows the original URLs
    assert page.locator("img[alt=allowed]").get_attribute("src") == allowed
    assert violations(page) == 0


def test_copy_markdown_reports_success_or_failure(xb, open_reader):
    page = open_reader(fixture("lichens"))
    page.evaluate("""() => {
        window.copied = null;
        Object.defineProperty(navigator, 'clipboard', {configurable: true, value: {
            writeText: async (text) => { window.copied = text; } }});
    }""")
    page.get_by_role("button", name="Copy Markdown").click()
    page.locator("#status", has_text="copied").wait_for(timeout=WAIT_MS)
    assert page.evaluate("window.copied") == expected_markdown("lichens")
    page.evaluate("""() => Object.defineProperty(navigator, 'clipboard', {configurable: true, value: {
        writeText: async () => { throw new DOMException('Document is not focused.', 'NotAllowedError'); } }})""")
    page.get_by_role("button", name="Copy Markdown").click()
    status = page.get_by_role("status")
    status.filter(has_text="Could not copy").wait_for(timeout=WAIT_MS)
    assert "Document is not focused." in status.text_content()


def test_print_button_prints_and_print_hides_the_toolbar(open_reader):
    page = open_reader(fixture("lichens"))
    page.evaluate("() => { window.printed = 0; window.print = () => { window.printed += 1; }; }")
    page.get_by_role("button", name="Print").click()
    assert page.evaluate("window.printed") == 1
    page.emulate_media(media="print")
    try:
        assert computed(page, ".toolbar", "display") == "none"
        assert computed(page, "article pre", "whiteSpace") == "pre-wrap"
    finally:
        page.emulate_media(media="screen")
    assert computed(page, ".toolbar", "display") == "flex"


# --- keyboard and names ---------------------------------------------------------------------------
def test_tab_reaches_every_toolbar_control_and_each_has_a_name(open_reader):
    page = open_reader(fixture("lichens"))
    controls = page.locator(".toolbar button, .toolbar select, .toolbar input")
    want = controls.evaluate_all("(els) => els.filter((e) => e.checkVisibility()).map((e) => e.id || e.dataset.choice)")
    assert len(want) == 13
    seen = []
    for _ in range(len(want) + 3):
        page.keyboard.press("Tab")
        focused = page.locator(":focus")
        ident = focused.evaluate("(e) => e.closest('.toolbar') ? (e.id || e.dataset.choice) : null")
        if ident is None:
            break
        snapshot = focused.aria_snapshot()
        # `- button "Larger text"`, `- combobox "Font"`, `- slider "Width"`, `- checkbox "Removed links"`
        assert re.match(r'- (button|combobox|slider|checkbox) "[^"]+"', snapshot), (ident, snapshot)
        seen.append(ident)
    assert seen == want
    # the key shortcuts are written in the controls' titles
    assert "+" in page.locator("#larger").get_attribute("title")
    assert "-" in page.locator("#smaller").get_attribute("title")
    assert "key: t" in page.locator("button[data-choice=dark]").get_attribute("title")
    assert page.get_by_role("toolbar").get_attribute("aria-label")


def test_keys_are_left_alone_while_a_field_has_focus(open_reader):
    page = open_reader(fixture("lichens"))
    page.get_by_label("Font").focus()
    page.keyboard.press("t")
    assert page.locator("html").get_attribute("data-theme") == "light"
    page.keyboard.press("Escape")
    page.keyboard.press("t")
    assert page.locator("html").get_attribute("data-theme") == "dark"


def test_a_truncated_block_says_so(open_reader):
    data = fixture("lichens")
    assert open_reader(data).locator("#status").text_content() == ""
    data["stats"] = {**data.get("stats", {}), "truncated": True}
    status = open_reader(data).locator("#status").text_content()
    assert "longer or deeper than the reader view keeps" in status


# --- comments -----------------------------------------------------------------------------------
def test_comments_are_a_folded_section_after_the_content(open_reader):
    """The host's thread under the post (payload.comments) is shown after the article in a
    closed <details>, one paragraph per block, as text (markup in it is not parsed)."""
    data = fixture("lichens")
    plain = open_reader(data)
    assert plain.locator("#comments").is_hidden()
    data["comments"] = {"text": "Marta says:\n\nMine grew on the shed window too.\n\n"
                                "<img src=x onerror=alert(1)> Jonas says:",
                        "truncated": False}
    page = open_reader(data)
    section = page.locator("#comments")
    assert section.is_visible() and section.get_attribute("open") is None
    assert section.locator("summary").text_content() == "Comments"
    assert page.locator("#content").text_content().find("Mine grew") == -1
    section.locator("summary").click()
    paras = section.locator("#comments-list p")
    assert paras.all_inner_texts() == ["Marta says:", "Mine grew on the shed window too.",
                                       "<img src=x onerror=alert(1)> Jonas says:"]
    assert section.locator("img").count() == 0 and violations(page) == 0


def test_a_truncated_thread_says_so(open_reader):
    data = {**fixture("lichens"), "comments": {"text": "A first comment.", "truncated": True}}
    page = open_reader(data)
    page.locator("#comments summary").click()
    assert page.locator("#comments-list p").all_inner_texts() == [
        "A first comment.", "The thread is longer: the rest is on the page."]


# --- comments in the exports (host/NOTES.md, 'Why the exports carry the comments only when their section is open') ------------------------
THREAD_CUT = "The thread is longer: the rest is on the page."
CLI_TIMEOUT_S = 180


def md_section(md: str, heading: str) -> list[str] | None:
    """The paragraphs of the `## heading` section of Markdown `md` as a CommonMark reader
    shows them (plain text), None without the section; anything but plain-text paragraphs
    in it (a list, a heading, a link, HTML) fails."""
    from markdown_it import MarkdownIt
    tokens = MarkdownIt("commonmark").parse(md)
    at = next((i for i, t in enumerate(tokens) if t.type == "heading_open" and t.tag == "h2"
               and tokens[i + 1].content == heading), None)
    if at is None:
        return None
    out = []
    for t in tokens[at + 3:]:
        if t.type == "heading_open" and t.tag in ("h1", "h2"):
            break
        assert t.type in ("paragraph_open", "inline", "paragraph_close"), (t.type, md)
        if t.type == "inline":
            assert {c.type for c in t.children} <= {"text", "softbreak"}, (t.children, md)
            out.append("".join(c.content if c.type == "text" else "\n" for c in t.children))
    return out


def test_exports_carry_the_thread_only_when_its_section_is_unfolded(open_reader):
    """Markdown and HTML exports say what the reader shows: no thread while the Comments
    section is folded; unfolded, the thread after the content, its paragraphs as text."""
    lines = ["Marta says:", "# Not a heading", "1. Not a list",
             "<img src=x onerror=alert(1)> &amp; *not em* [x](javascript:alert(1))"]
    data = {**fixture("lichens"), "comments": {"text": "\n\n".join(lines), "truncated": True}}
    page = open_reader(data)
    folded = page.evaluate("pithReader.markdown()")
    assert md_section(folded, "Comments") is None and "Marta" not in folded
    assert "Marta" not in page.evaluate("pithReader.html()")
    page.locator("#comments summary").click()
    md = page.evaluate("pithReader.markdown()")
    assert md.startswith(folded.rstrip("\n") + "\n\n## Comments\n\n"), md
    assert md_section(md, "Comments") == [*lines, THREAD_CUT]
    import lxml.html
    doc = lxml.html.fromstring(page.evaluate("pithReader.html()"))
    assert [p.text_content() for p in doc.xpath('//*[@id="comments-list"]/p')] == [*lines, THREAD_CUT]
    assert doc.xpath('//*[@id="comments"]//img') == []


def test_reader_markdown_and_cli_agree_on_the_thread(open_reader):
    """bread-post: the reader's Markdown export of the host's `comments` (unfolded) and
    `pith extract -f markdown --comments` have the same Comments section."""
    import os
    import subprocess
    import sys
    page_file = PAGES / "bread-post" / "source.html"
    env = {**os.environ, "PYTHONPATH": str(ROOT / "host")}

    def cli(*args):
        run = subprocess.run([sys.executable, "-m", "pith", "extract", "--static", *args, str(page_file)],
                             capture_output=True, text=True, timeout=CLI_TIMEOUT_S, env=env, check=True)
        return run.stdout
    record = json.loads(cli("-f", "json"))
    comments = record["comments"]
    assert comments and comments["text"], record.get("comments")
    page = open_reader({**fixture("lichens"), "comments": comments})
    page.locator("#comments summary").click()
    reader = md_section(page.evaluate("pithReader.markdown()"), "Comments")
    printed = md_section(cli("-f", "markdown", "--comments"), "Comments")
    assert reader and len(reader) > 5
    assert printed == reader
