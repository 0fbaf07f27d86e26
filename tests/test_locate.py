"""inject/locate.js in real Chromium: selectors for per-site rules, and finding the block again.

The page is served from a route on http://pith.test; capture.js runs first (it leaves the
rows in __pith.nodes), then locate.js, both in the page's main world.
"""
from __future__ import annotations

import pytest

from conftest import ROOT

pytestmark = pytest.mark.browser

CAPTURE_JS = (ROOT / "extension" / "inject" / "capture.js").read_text(encoding="utf-8")
LOCATE_JS = (ROOT / "extension" / "inject" / "locate.js").read_text(encoding="utf-8")
URL = "http://pith.test/site/page.html"
LONG = ("Lichens grow slowly on old glass, and a year of patience shows a crust of orange and "
        "grey where there was nothing. ")
PAGE = f"""<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Rules</title></head>
<body>
<header id="site-header"><p>The site header</p></header>
<main>
  <div id="main-content"><p>{LONG}</p></div>
  <div id="post-123456" class="entry"><p>{LONG}</p></div>
  <div id="a1b2c3d4e5f6" class="css-1dbjc4n kVXzLG story-body"><p>{LONG}</p></div>
  <section class="active teaser"><p>Teaser one, a little text.</p></section>
  <section class="teaser"><p>Teaser two, a little text.</p></section>
  <div><div><p>first plain</p><p>second plain {LONG}</p></div></div>
  <div><div><p>another first</p><p>another second</p></div></div>
  <div id="hostile"></div>
</main>
<div id="shadow-host"></div>
<script>
  document.getElementById('shadow-host').attachShadow({{mode: 'open'}}).innerHTML = '<p id="inside">in the shadow</p>';
</script>
</body></html>"""
# Ids a generator made: a number run, a hash, a digit first, too long, CSS-in-JS, Ember,
# CSS modules, a random mixed-case token, characters CSS would need escaping for.
GENERATED_IDS = ["post-123456", "a1b2c3d4", "9lives", "x" * 41, "css-1dbjc4n", "ember42",
                 "Header_title__3xYz2", "kVXzLG", "user:7", "react-select-2-input"]
HANDWRITTEN_IDS = ["content-area", "article_body", "story", "sidebar2", "Comments"]


@pytest.fixture(scope="module")
def loaded_tab(chromium):
    """One tab for the module, serving PAGE: a new context per test started a renderer
    process each (about 0.2 s of CPU; host/NOTES.md, 'Why the suite shares browsers')."""
    context = chromium.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    page.set_default_timeout(20_000)
    page.route("http://pith.test/**", lambda route: route.fulfill(
        status=200, content_type="text/html; charset=utf-8", body=PAGE))
    yield page
    context.close()


@pytest.fixture
def tab(loaded_tab):
    """PAGE loaded afresh (a new document: no script state carries over), captured, with
    locate.js installed."""
    loaded_tab.goto(URL, wait_until="load")
    capture(loaded_tab)
    loaded_tab.evaluate(LOCATE_JS)
    return loaded_tab


def capture(tab) -> None:
    assert isinstance(tab.evaluate(CAPTURE_JS), str)


def row(tab, js: str) -> int:
    return tab.evaluate(f"__pith.nodes.indexOf({js})")


def selector_for(tab, js: str):
    return tab.evaluate(f"__pith.locate.selectorFor(__pith.nodes.indexOf({js}))")


def resolve(tab, selector, min_chars=0) -> int:
    return tab.evaluate("([s, m]) => __pith.locate.resolve(s, m)", [selector, min_chars])


def names_only(tab, selector: str, js: str) -> bool:
    """`selector` matches the element of `js` and nothing else."""
    return tab.evaluate(f"(s) => {{ const l = document.querySelectorAll(s); "
                        f"return l.length === 1 && l[0] === ({js}); }}", selector)


def text_chars(tab, js: str) -> int:
    return tab.evaluate(f"({js}).innerText.trim().length")


# --- selectorFor -------------------------------------------------------------------------
def test_a_handwritten_unique_id_is_the_selector(tab):
    el = "document.getElementById('main-content')"
    got = selector_for(tab, el)
    assert got == {"selector": "#main-content", "tag": "div", "chars": text_chars(tab, el)}
    assert got["chars"] > 100


def test_a_generated_id_is_passed_over_for_classes(tab):
    el = "document.getElementById('post-123456')"
    got = selector_for(tab, el)
    assert got["selector"] == "main div.entry"
    assert names_only(tab, got["selector"], el)


def test_hashed_ids_and_classes_are_passed_over(tab):
    el = "document.querySelector('.story-body')"
    got = selector_for(tab, el)
    assert got["selector"] == "main div.story-body"
    assert names_only(tab, got["selector"], el)


def test_state_classes_are_left_out_and_nth_of_type_makes_it_unique(tab):
    el = "document.querySelector('section.active')"
    got = selector_for(tab, el)
    assert "active" not in got["selector"] and ".teaser" in got["selector"]
    assert ":nth-of-type(" in got["selector"]
    assert names_only(tab, got["selector"], el)
    assert got["tag"] == "section"


def test_an_element_with_nothing_gets_a_child_chain(tab):
    el = "document.querySelectorAll('main > div > div > p')[1]"
    got = selector_for(tab, el)
    assert got["selector"].startswith("main > div")
    assert ":nth-of-type(" in got["selector"]
    assert names_only(tab, got["selector"], el)
    assert got["tag"] == "p"


def test_the_nearest_good_id_anchors_the_chain(tab):
    el = "document.querySelector('#main-content > p')"
    got = selector_for(tab, el)
    assert got["selector"] == "#main-content p"
    assert names_only(tab, got["selector"], el)


@pytest.mark.parametrize("bad", GENERATED_IDS)
def test_generated_looking_ids_are_not_used(tab, bad):
    tab.evaluate("(id) => { const d = document.getElementById('hostile'); d.id = id; "
                 "d.className = 'hostile-box'; d.textContent = 'x'; }", bad)
    capture(tab)
    el = "document.querySelector('.hostile-box')"
    got = selector_for(tab, el)
    assert got["selector"] == "main div.hostile-box"
    assert names_only(tab, got["selector"], el)


@pytest.mark.parametrize("good", HANDWRITTEN_IDS)
def test_handwritten_ids_are_used(tab, good):
    tab.evaluate("(id) => { document.getElementById('hostile').id = id; }", good)
    capture(tab)
    got = selector_for(tab, f"document.getElementById('{good}')")
    assert got["selector"] == f"#{good}"


def test_a_duplicated_id_is_not_used(tab):
    tab.evaluate("document.querySelector('main > section').id = 'main-content'")
    capture(tab)
    el = "document.querySelector('div#main-content')"
    got = selector_for(tab, el)
    assert got["selector"] != "#main-content"
    assert names_only(tab, got["selector"], el)


def test_ids_and_classes_are_escaped(tab):
    tab.evaluate("""() => { const d = document.getElementById('hostile');
                            d.id = 'a"b]{}'; d.className = 'x\\\\y "q" ]'; d.textContent = 'odd'; }""")
    capture(tab)
    el = "document.querySelector('main > div:last-child')"
    got = selector_for(tab, el)
    assert got is not None and names_only(tab, got["selector"], el)


def test_no_selector_for_html_body_head_shadow_or_bad_rows(tab):
    for js in ("document.documentElement", "document.body", "document.head",
               "document.querySelector('title')"):
        assert selector_for(tab, js) is None, js
    # inside a shadow root: a document selector cannot reach it
    tab.evaluate("__pith.nodes.push(document.getElementById('shadow-host').shadowRoot.firstElementChild)")
    assert tab.evaluate("__pith.locate.selectorFor(__pith.nodes.length - 1)") is None
    for bad in ("-1", "1e6", "'3'", "null", "1.5"):
        assert tab.evaluate(f"__pith.locate.selectorFor({bad})") is None, bad
    tab.evaluate("document.getElementById('main-content').remove()")
    assert selector_for(tab, "null") is None
    assert tab.evaluate("""() => { const el = __pith.nodes.find(e => e.id === 'main-content');
                                    return __pith.locate.selectorFor(__pith.nodes.indexOf(el)); }""") is None


# --- resolve -----------------------------------------------------------------------------
def test_resolve_finds_the_row_of_the_one_visible_long_enough_match(tab):
    el = "document.getElementById('main-content')"
    got = selector_for(tab, el)
    assert resolve(tab, got["selector"], 80) == row(tab, el) >= 0
    assert resolve(tab, got["selector"], got["chars"]) == row(tab, el)
    assert resolve(tab, got["selector"], got["chars"] + 1) == -1       # too short


def test_a_selector_survives_content_changes(tab):
    el = "document.querySelector('.story-body')"
    sel = selector_for(tab, el)["selector"]
    tab.evaluate("""() => {
        const main = document.querySelector('main');
        const fresh = document.createElement('div');
        fresh.className = 'entry-new';
        fresh.innerHTML = '<p>A new post at the top of the page.</p>';
        main.prepend(fresh);
        document.querySelector('.story-body p').textContent = 'Different words today, ' + 'and more. '.repeat(20);
    }""")
    capture(tab)
    assert resolve(tab, sel, 80) == row(tab, el) >= 0


def test_resolve_falls_back_when_the_element_is_gone_hidden_or_ambiguous(tab):
    assert resolve(tab, "p") == -1                                     # many matches
    assert resolve(tab, "#no-such-thing") == -1
    assert resolve(tab, "#site-header", 1) == row(tab, "document.getElementById('site-header')")
    tab.evaluate("document.getElementById('site-header').style.display = 'none'")
    assert resolve(tab, "#site-header", 1) == -1                       # hidden
    tab.evaluate("document.getElementById('site-header').style.cssText = 'visibility: hidden'")
    assert resolve(tab, "#site-header", 1) == -1
    tab.evaluate("document.getElementById('main-content').remove()")
    assert resolve(tab, "#main-content", 1) == -1                      # gone


@pytest.mark.parametrize("selector", ["##", "div[", "", "   ", None, 42, ":nth-of-type(x)"])
def test_resolve_refuses_invalid_selectors(tab, selector):
    assert resolve(tab, selector) == -1


def test_resolve_needs_the_element_in_the_last_capture(tab):
    tab.evaluate(f"""() => {{ const d = document.createElement('div'); d.id = 'late';
                             d.textContent = {LONG!r}; document.querySelector('main').append(d); }}""")
    assert resolve(tab, "#late", 10) == -1                             # not captured yet
    capture(tab)
    assert resolve(tab, "#late", 10) == row(tab, "document.getElementById('late')") >= 0


def test_locate_is_idempotent_and_does_not_change_the_page(tab):
    before = tab.evaluate("document.documentElement.outerHTML")
    first = selector_for(tab, "document.querySelector('section.active')")
    tab.evaluate(LOCATE_JS)
    assert selector_for(tab, "document.querySelector('section.active')") == first
    assert resolve(tab, first["selector"]) >= 0
    assert tab.evaluate("document.documentElement.outerHTML") == before
