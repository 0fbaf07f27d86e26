"""The reader view and per-site rules end to end in headless Debian Chromium: click, host, collector, reader page.

The page under test is tests/fixtures/pages/reader/source.html: everything a reader view
must keep (paragraphs, a table with headers, a code block, a captioned lazy image, a
quote) and everything it must not (navigation, a share bar, a form, hidden text) or must
never run (a script, an onerror handler, a javascript: link, an iframe; each would set the
title to PWNED if it ran anywhere but the http: page itself). The path through the
extension is the real one: toolbar click (Extensions.triggerAction), host `select`, the
`reader` command (host `clean`, inject/collect.js, storage.session), the reader tab.
"""
from __future__ import annotations

import time

import pytest

from serving import serve

from conftest import PAGES, ROOT
from pith.pages.extension import ExtensionBrowser

pytestmark = pytest.mark.browser

READER_WAIT_S = 15.0
EXPECTED_MD = PAGES / "reader" / "expected.md"
# The origin of the test server differs per run; the expected Markdown names it so.
ORIGIN_TOKEN = "http://pages.test"

# What a rendered reader page shows, for the assertions below (runs in the reader tab).
READER_STATE_JS = """() => {
  const art = document.querySelector('article');
  const all = [...document.querySelectorAll('*')];
  return {
    title: document.title,
    text: art ? art.innerText : '',
    html_lang: document.documentElement.lang,
    headers: [...document.querySelectorAll('article th')].map(th => th.textContent.trim()),
    caption: (document.querySelector('article table caption') || {}).textContent || null,
    code: (document.querySelector('article pre code') || {}).textContent || null,
    code_class: (document.querySelector('article pre code') || {}).className || null,
    figure_img: (document.querySelector('article figure img') || {}).src || null,
    figure_loaded: (() => { const i = document.querySelector('article figure img');
                            return i ? i.complete && i.naturalWidth > 0 : false; })(),
    figcaption: (document.querySelector('article figcaption') || {}).textContent || null,
    forbidden: all.filter(e => /^(script|iframe|form|input|button|object|embed|style)$/i.test(e.localName)
                               && e.closest('article')).map(e => e.localName),
    handlers: all.flatMap(e => [...e.attributes].filter(a => /^on/i.test(a.name)).map(a => e.localName + '@' + a.name)),
    js_urls: [...document.querySelectorAll('[href], [src]')].map(e => e.getAttribute('href') || e.getAttribute('src'))
             .filter(u => /^\\s*javascript:/i.test(u)),
    links: [...document.querySelectorAll('article a[href]')].map(a => a.href),
    violations: window.pithReader ? window.pithReader.violations : null,
  };
}"""


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


def ok(reply: dict, what: str) -> dict:
    assert reply.get("ok") is True, f"{what}: {reply}"
    return reply


def set_prefs(xb: ExtensionBrowser, prefs: dict | None) -> None:
    if prefs is None:
        xb.ext_eval("() => chrome.storage.local.remove('readerPrefs')")
    else:
        xb.ext_eval("(p) => chrome.storage.local.set({readerPrefs: p})", prefs)


def open_reader(xb: ExtensionBrowser):
    """The reader tab of the tab under test, once rendered, and the command's reply."""
    page, reply, _ = xb.open_reader(READER_WAIT_S)
    return page, reply


@pytest.fixture
def reader_page(xb, server):
    """The reader fixture page selected by a toolbar click, and its reader tab (closed after)."""
    set_prefs(xb, None)
    xb.page.goto(f"{server}/reader/source.html", wait_until="load")
    reply = ok(xb.click(), "click")
    assert reply["tag"] == "article"
    page, _ = open_reader(xb)
    page.wait_for_function("() => { const i = document.querySelector('article figure img');"
                           " return i && i.complete; }", timeout=READER_WAIT_S * 1000)
    yield page
    page.close()


def test_reader_keeps_the_content(reader_page, server):
    st = reader_page.evaluate(READER_STATE_JS)
    assert "Lichens are not plants but partnerships" in st["text"]
    assert "After a year the pane holds three species" in st["text"]
    assert st["headers"] == ["Month", "Area (mm²)", "Notes"]
    assert st["caption"].strip() == "Area covered on the pane"
    assert st["code"] == ("def schedule(days):\n    for day in range(days):\n        if day % 3 == 0:\n"
                          "            mist(day)      # every third day\n        else:\n"
                          "            rest(day)\n")
    assert "language-python" in st["code_class"]
    assert st["figure_img"] == f"{server}/reader/images/lichen.png"     # data-src, not the placeholder
    assert st["figure_loaded"], "the captioned image did not load in the reader"
    assert st["figcaption"].strip() == "Xanthoria parietina after six months on the pane."
    assert "Growth is slow, but it is growth." in st["text"]
    assert f"{server}/care" in st["links"]                               # made absolute
    assert st["html_lang"] == "en"
    assert reader_page.title().startswith("Growing lichens on glass")


def test_reader_leaves_out_navigation_share_bar_form_and_hidden_text(reader_page):
    text = reader_page.evaluate(READER_STATE_JS)["text"]
    for absent in ("About us", "Moss walls for small flats", "Share on X", "Subscribe",
                   "HIDDEN TEXT", "Privacy"):
        assert absent not in text, absent


def test_hostile_content_never_runs_or_leaks(reader_page):
    time.sleep(0.3)                       # give a handler that slipped through time to fire
    st = reader_page.evaluate(READER_STATE_JS)
    assert "PWNED" not in st["title"]
    assert st["forbidden"] == [] and st["handlers"] == [] and st["js_urls"] == []
    assert st["violations"] == 0          # nothing even tried to run against the CSP
    assert "this link that is really a script" in st["text"]   # its text stays, as text
    ran = reader_page.evaluate("() => [typeof window.pageScriptRan, document.querySelectorAll('iframe').length]")
    assert ran == ["undefined", 0]


def test_exported_markdown_equals_the_expected_file(reader_page, server):
    markdown = reader_page.evaluate("() => window.pithReader.markdown()")
    assert markdown.replace(server, ORIGIN_TOKEN) == EXPECTED_MD.read_text(encoding="utf-8")


def test_removed_links_are_listed_when_the_reader_asks(xb, server):
    set_prefs(xb, {"removedLinks": True})
    try:
        xb.page.goto(f"{server}/reader/source.html", wait_until="load")
        ok(xb.click(), "click")
        page, _ = open_reader(xb)
        body = page.evaluate("() => document.body.innerText")
        assert "Share on X" in body and "Facebook" in body
        assert "Share on X" not in page.evaluate("() => document.querySelector('article').innerText"
                                                 ".split('Links removed')[0]")
        page.close()
    finally:
        set_prefs(xb, None)


def test_the_bundled_example_reads_cleanly(xb):
    """host/examples/article.html as `make run` shows it: the site's own name, the byline
    once (in the header), and the figure's image."""
    set_prefs(xb, None)
    with serve(ROOT / "host" / "examples") as base:
        xb.page.goto(f"{base}/article.html", wait_until="load")
        ok(xb.click(), "click")
        page, _ = open_reader(xb)
        try:
            page.wait_for_function("() => { const i = document.querySelector('article figure img');"
                                   " return i && i.complete; }", timeout=READER_WAIT_S * 1000)
            assert page.locator("#title").text_content() == "How tide tables are made"
            assert page.locator("#meta .site").text_content() == "The Harbour Gazette"   # not 127.0.0.1
            # byline and date from the host's metadata (one computation for every output)
            assert page.locator("#meta .byline").text_content() == "Maren Holt"
            assert page.locator("#meta .published").get_attribute("datetime") == "2025-03-03"
            article = page.locator("article").inner_text()
            assert "Maren Holt" not in article                 # the byline line is not repeated
            assert article.lstrip().startswith("Every harbour master keeps a tide table")
            assert page.evaluate("() => document.querySelector('article figure img').naturalWidth") > 0
        finally:
            page.close()


def test_reader_without_a_selection_says_what_to_do(xb, server):
    xb.page.goto(f"{server}/reader/source.html", wait_until="load")
    reply = xb.command("reader")
    assert reply["ok"] is False and reply["error"]["name"] == "no_selection"


def overlay_remember_shown(xb: ExtensionBrowser) -> bool:
    xb.pin_shadow_roots()
    return xb.page.evaluate("""() => {
      const h = document.getElementById('pith-overlay');
      const b = h && __pithRoots.get(h).querySelector('[part=remember]');
      return !!b && getComputedStyle(b).display !== 'none';
    }""")


def test_a_remembered_block_is_chosen_on_reload_and_falls_back_when_gone(xb, server):
    try:
        xb.page.goto(f"{server}/reader/source.html", wait_until="load")
        first = ok(xb.click(), "click")
        assert first["tag"] == "article" and first.get("rule") is None
        assert not overlay_remember_shown(xb)
        moved = ok(xb.command("shrink"), "shrink")
        assert moved["path"][:len(first["path"])] == first["path"] and moved["path"] != first["path"]
        assert overlay_remember_shown(xb)            # a correction: the overlay offers to remember
        saved = ok(xb.command("remember"), "remember")
        assert saved["site"] == "127.0.0.1" and saved["selector"], saved
        assert not overlay_remember_shown(xb)

        xb.page.reload(wait_until="load")
        again = ok(xb.click(), "click after reload")
        assert again["rule"] == "applied" and again["tag"] == moved["tag"]
        assert again["path"] == moved["path"]

        # The page changed: the block lost its text, then it is gone altogether. The
        # algorithm chooses as if there were no rule, and says the rule did not apply.
        for change in ("document.querySelectorAll('article p').forEach(p => { p.textContent = 'short'; })",
                       "document.querySelector('main').remove()"):
            xb.page.reload(wait_until="load")
            xb.page.evaluate(change)
            other = ok(xb.click(), f"click after {change}")
            assert other["rule"] == "stale" and other["path"] != moved["path"], (change, other)
    finally:
        xb.ext_eval("() => chrome.storage.local.remove('siteRules')")


def test_the_whole_page_cannot_be_remembered_and_says_so(xb, server):
    xb.page.goto(f"{server}/reader/source.html", wait_until="load")
    ok(xb.click(), "click")
    grown = ok(xb.command("grow"), "grow")
    assert grown["tag"] == "body"              # grow passes over <main>, which adds no text
    reply = xb.command("remember")
    assert reply["ok"] is False and reply["error"]["name"] == "cannot_remember"
    assert reply["error"]["code"] == 69
    toast = xb.overlay()["toast"]
    assert toast and "cannot name this block" in toast
    assert xb.ext_eval("async () => (await chrome.storage.local.get('siteRules')).siteRules ?? null") in (None, {})


def test_options_page_lists_and_deletes_saved_blocks(xb):
    xb.ext_eval("""() => chrome.storage.local.set({siteRules: {'example.org': {
        selector: '#content', tag: 'div', chars: 900, path: [1, 2], title: 't', saved: '2026-01-02T03:04:05Z'}}})""")
    page = xb.context.new_page()
    try:
        page.goto(f"chrome-extension://{xb.id}/ui/options.html")
        page.wait_for_selector("#rules tbody tr")
        assert page.locator("#rules tbody tr td").first.inner_text() == "example.org"
        page.get_by_role("button", name="Delete the saved block for example.org").click()
        page.wait_for_selector("#rules-empty", state="visible")
        assert xb.ext_eval("async () => (await chrome.storage.local.get('siteRules')).siteRules") == {}
    finally:
        page.close()


def test_options_page_overrides_the_method(xb, server):
    # the tab under test is found as "the tab besides the options page": known before a
    # second options page opens (the module's first test after a reset has not asked yet)
    assert xb.tab_id
    page = xb.context.new_page()
    try:
        page.goto(f"chrome-extension://{xb.id}/ui/options.html")
        page.wait_for_function("() => !document.getElementById('algorithm').disabled")
        page.get_by_label("Method that chooses the block").select_option("cnr")
        page.get_by_role("button", name="Save options").click()
        page.wait_for_function("() => /Saved/.test(document.getElementById('options-status').textContent)")
        stored = xb.ext_eval("async () => (await chrome.storage.local.get('hostOptions')).hostOptions")
        assert stored == {"algorithm": "cnr"}
        xb.page.goto(f"{server}/article/source.html", wait_until="load")
        assert ok(xb.click(), "click with cnr")["algorithm"] == "cnr"
        # every host option is on the page with a label a screen reader announces
        names = page.evaluate("() => [...document.querySelectorAll('[data-option]')].map(e => e.labels.length ? e.labels[0].textContent : '')")
        assert len(names) > 20 and all(names)
    finally:
        xb.ext_eval("() => chrome.storage.local.remove('hostOptions')")
        page.close()


def test_a_blog_posts_comments_are_a_folded_section_not_the_body(xb, server):
    """tests/fixtures/pages/bread-post: a post with a thread longer than itself. The click
    outlines the post, the reader shows the post as its content and the thread under a
    closed "Comments" section, as text."""
    set_prefs(xb, None)
    xb.page.goto(f"{server}/bread-post/source.html", wait_until="load")
    ok(xb.click(), "click")
    page, _ = open_reader(xb)
    try:
        text = page.evaluate("() => document.querySelector('article').innerText")
        assert "measure the dough's temperature" in text
        assert "A cheap probe thermometer" not in text
        section = page.locator("#comments")
        assert section.is_visible() and section.get_attribute("open") is None
        section.locator("summary").click()
        comments = section.locator("#comments-list").inner_text()
        assert "A cheap probe thermometer changed my baking" in comments
        assert "Leave a Reply" not in comments
        assert page.evaluate("() => window.pithReader.violations") == 0
    finally:
        page.close()
