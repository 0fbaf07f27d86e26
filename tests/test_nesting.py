"""nesting.capped: a page's nesting capped at Chromium's 512 levels before lexbor parses it."""
import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from pith.pages import nesting, static

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "pages"


def tree_depth(html: str) -> int:
    """The depth of the deepest element of the static snapshot of `html`."""
    snap = static.snapshot_of_html(html, "", 10_000_000)
    return int(snap.depth.max())


@pytest.mark.parametrize("page", [
    "<html><body>" + "<div>" * 20_000 + "deep text" + "</div>" * 20_000,
    "<html><body>" + "<div>" * 20_000 + "deep text",                       # never closed
    "<html><body>" + "<div></span>" * 20_000 + "deep text",                # stray end tags
    "<html><body>" + "<div/>" * 20_000 + "deep text",                      # "/>" opens in HTML
    "<html><body>" + "<li><div>" * 10_000 + "deep text",                   # li inside div nests
    "<html><body>" + "<b>" * 20_000 + "deep text",                         # formatting elements
    "<html><body>" + "<div<!---->x>" * 20_000 + "deep text",               # a comment inside a tag
    "<html><body>" + '<i v="<script>">' * 20_000 + "deep text",            # a script inside a value
])
def test_a_page_nested_beyond_the_cap_is_parsed_no_deeper_and_keeps_its_text(page):
    depth = tree_depth(page)
    assert depth <= 2 * nesting.MAX_DEPTH + 3          # html, body, and what li adds
    snap = static.snapshot_of_html(page, "", 10_000_000)
    assert any("deep text" in t for t in snap.text.tolist() + snap.tail.tolist())


def test_nesting_under_the_cap_is_left_as_it_is():
    page = "<html><body>" + "<div>" * 500 + "x" + "</div>" * 500 + "<p>after</p>"
    assert nesting.capped(page) is page
    assert tree_depth(page) == 501                     # html 0, body 1, the divs 2..501


def test_the_fixture_pages_are_left_as_they_are():
    for source in sorted(FIXTURES.glob("*/source.html")):
        html = source.read_text(encoding="utf-8", errors="replace")
        assert nesting.capped(html) is html, source.parent.name


def test_what_lies_beyond_the_cap_is_beside_at_the_cap_in_order():
    page = ("<html><body>" + "<div>" * 600 + "<p>one</p><span>two</span><div>three</div>"
            + "</div>" * 600 + "<p>after</p>")
    snap = static.snapshot_of_html(page, "", 10_000)
    words = " ".join(f"{t} {tail}" for t, tail in zip(snap.text.tolist(), snap.tail.tolist()))
    assert words.split() == ["one", "two", "three", "after"]
    after = snap.text.tolist().index("after")
    assert snap.depth[after] == 2                      # back at the body: every end matched


@pytest.mark.parametrize("raw", ["script", "style", "textarea", "title", "xmp"])
def test_tags_inside_raw_text_and_comments_are_not_nesting(raw):
    inside = "<div>" * 2000
    page = f"<html><head><{raw}>{inside}</{raw}></head><body><!-- {inside} --><p>x</p>"
    assert nesting.capped(page) is page
    assert nesting.depth_bound(page) < 10


def test_end_tags_hidden_in_a_script_do_not_hide_the_nesting():
    page = "<html><body><script>" + "</div>" * 5000 + "</script>" + "<div>" * 5000 + "x"
    assert nesting.depth_bound(page) >= 5000
    assert tree_depth(page) <= nesting.MAX_DEPTH + 3


def test_self_closing_tags_close_only_in_svg_and_math():
    page = "<html><body><svg>" + "<path/>" * 3000 + "</svg><p>x</p>"
    assert nesting.capped(page) is page
    page = "<html><body>" + "<x-a/>" * 3000 + "<p>x</p>"
    assert nesting.capped(page) is not page


SOUP = ["<div>", "</div>", "<span>", "</span>", "<b>", "</b>", "<p>", "</p>", "<li>",
        "<ul>", "</ul>", "<svg>", "</svg>", "<path/>", "<div/>", "<script>", "</script>",
        "<!--", "-->", "x", "</x>", "<x>", "<a href='>'>", "</a>", "<DIV>", "</Div>",
        "<table>", "<tr>", "<td>", "</table>", "<br>", "<img src=x>"]


@settings(max_examples=60, deadline=None, database=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(SOUP), min_size=600, max_size=2500))
def test_the_quick_bound_is_never_below_the_tracked_depth(pieces):
    """depth_bound decides whether the exact pass runs, so it must never under-count:
    at a cap of the bound itself the exact pass drops nothing."""
    html = "".join(pieces)
    bound = nesting.depth_bound(html)
    assert nesting.capped(html, max_depth=max(bound, 0)) == html


def test_the_513th_level_opens_and_the_514th_goes_beside_it():
    """SECURITY.md, "Limits": up to one level past the cap the page is as it is; one more
    and the element beyond is put beside the one before it (which is closed first), the
    text in the innermost, the end tag of the closed one dropped (as Chromium does)."""
    depth = nesting.MAX_DEPTH + 1
    at = "<div>" * depth + "x" + "</div>" * depth
    assert nesting.capped(at) is at
    over = "<div>" * (depth + 1) + "x" + "</div>" * (depth + 1)
    assert nesting.capped(over) == ("<div>" * depth + "</div><div>x</div>"
                                    + "</div>" * nesting.MAX_DEPTH)


def test_the_skipped_pattern_finds_what_the_plain_alternation_finds():
    """_SKIPPED is a trie of RAW_TEXT's names: at every place of a text (tags of those
    names in any case, names that only begin like them, comments) it matches as the plain
    alternation does, with the same group."""
    import re
    plain = re.compile(r"<!--|<(" + "|".join(nesting.RAW_TEXT) + r")\b", re.I)
    rng = random.Random(3)
    pieces = [f"<{n}" for n in nesting.RAW_TEXT] + [
        "<SCRIPT", "<Style", "<scripts", "<titles", "<no", "<noembedx", "<t", "<x", "<!--",
        "<!-", "<iframe>", " ", ">", "a", "</script>", "<s", "<ti"]
    for _ in range(2000):
        text = "".join(rng.choice(pieces) for _ in range(rng.randint(1, 10)))
        for at in range(len(text)):
            a, b = nesting._SKIPPED.search(text, at), plain.search(text, at)
            assert (a and (a.span(), a.group(1))) == (b and (b.span(), b.group(1))), text


@pytest.mark.parametrize("deep", ["<DIV>", "<Div/>", "<x-a>"])
def test_the_order_free_count_does_not_wave_a_deep_page_through(deep):
    """A page of few opening start tags is answered by their count (no page order); a page
    nested past the cap among many tags that open nothing (void elements, paragraphs,
    stray end tags) and end tags hidden in a script is not."""
    depth = nesting.MAX_DEPTH + 20
    page = ("<html><body>" + "<br><p>x</p></span>" * 400 + "<script>" + "</div>" * 900
            + "</script>" + deep * depth + "x")
    assert nesting.depth_bound(page) >= depth
    assert nesting.capped(page) is not page
    shallow = "<html><body>" + "<br><p>x</p></span>" * 400 + "<div>" * 30 + "x"
    assert nesting.depth_bound(shallow) == 30 and nesting.capped(shallow) is shallow


def test_names_whose_tags_sum_below_zero_do_not_lower_the_bound_of_the_others():
    """Each name's counter restarts at its own first tag: a stray end tag of one name
    before each nested element of another (`</y-1><x-1></y-2><x-2>…`) once made every
    later name lose one, and 600 levels read as a bound near 0 (the cap was passed by)."""
    depth = nesting.MAX_DEPTH + 88
    page = "<html><body>" + "".join(f"</y-{i}><x-{i}>" for i in range(depth)) + "x"
    assert nesting.depth_bound(page) >= depth
    assert tree_depth(page) <= nesting.MAX_DEPTH + 3


def exact_depth(html: str) -> int:
    """The deepest the exact pass's stack goes without the cap (its tags, its rules)."""
    stack: list[str] = []
    deepest = 0
    for m in nesting._tags(html):
        name = m.group(2).lower()
        if m.group(1):
            if name in stack:
                while stack.pop() != name:
                    pass
        elif name not in nesting._NOT_OPENED and not (
                html[m.end() - 1] == "/" and ("svg" in stack or "math" in stack)):
            stack.append(name)
            deepest = max(deepest, len(stack))
    return deepest


def test_self_closing_drawings_under_the_cap_need_no_exact_pass():
    """An inline-SVG page (icons: thousands of `<path/>` in groups, symbols and nested
    svgs) is bounded by what it nests, not by its self-closing tags: the exact pass does
    not run for it (crawl8: one page in 73 ran it for nothing)."""
    icon = ('<svg viewBox="0 0 9 9"><defs><linearGradient id=g><stop/><stop offset=1 />'
            '</linearGradient></defs><g fill="#000"><path d="M0 0h9"/><polygon points="1 2"/>'
            '<svg><circle r=1 /></svg></g><symbol id=s><path d="M1 1"/></symbol></svg>')
    page = "<html><body>" + "<div>" * 20 + icon * 1500 + "</div>" * 20 + "<p>x</p>"
    assert nesting.depth_bound(page) <= 30
    math = "<math><mrow>" + "<mi>x</mi><mspace/>" * 2000 + "</mrow></math>"
    assert nesting.depth_bound("<html><body>" + math + "<p>x</p>") <= 5


@pytest.mark.parametrize("before", [
    "<div><svg></div>",                         # an ancestor's end tag closes the svg
    "<g><svg><g></g></g>",                      # an end tag pairs with the svg's parent
    "<b><svg><g><b></g></b>",                   # `</g>` closes b too; `</b>` the svg
    "<svg></svg>",                              # closed by its own end tag
    "<math></math>",
])
def test_self_closing_tags_after_a_drawing_closes_still_nest(before):
    """Past the end of an svg (its end tag, an ancestor's, or an end tag the exact pass
    reads as closing more than its pair) `<path/>` opens like `<path>`: the bound counts
    it and a page nested past the cap so is capped."""
    depth = nesting.MAX_DEPTH + 40
    page = "<html><body>" + before + "<path/>" * depth + "x"
    assert nesting.depth_bound(page) >= exact_depth(page) >= depth
    assert nesting.capped(page) is not page


def test_a_deep_page_with_drawings_is_capped_exactly_as_the_exact_pass_caps_it():
    """Drawings before a page nested past the cap do not hide its depth: the 514th level
    goes beside the 513th, as without them."""
    icons = "<svg>" + "<g><path/><rect/></g>" * 2000 + "</svg>"
    for drawing in (icons, "<math>" + "<mi/>" * 1000 + "</math>"):
        page = drawing + "<div>" * (nesting.MAX_DEPTH + 2) + "x"
        assert nesting.capped(page) == (drawing + "<div>" * (nesting.MAX_DEPTH + 1)
                                        + "</div><div>x")


@pytest.mark.parametrize("piece, depth", [
    ('<div title="</div>">x', 600),             # an end tag inside a tag's attribute
    ("<div<!---->x></divx>", 600),              # a tag cut by a comment is not joined
    ("<div<script></script>x></divx>", 600),    # nor by a script
])
def test_the_bound_reads_the_tags_the_exact_pass_reads(piece, depth):
    """The bound's tags are the exact pass's: an end tag written inside an attribute is
    none, and a tag cut short by a comment or a script does not take its name from text
    after it (both let 40,000 levels through the cap before crawl8)."""
    page = "<html><body>" + piece * depth
    assert nesting.depth_bound(page) >= exact_depth(page) >= depth
    assert nesting.capped(page) is not page


DRAWN = ["<svg>", "</svg>", "<math>", "</math>", "<g>", "</g>", "<path/>", "<path>",
         "</path>", "<svg/>", "<div>", "</div>", "<b>", "</b>", "<p>", "</p>", "<br/>",
         "<x-a/>", "<circle r=1 />", "<a title='</g>'>", "</a>", "<!--", "-->", "x",
         "<script>", "</script>", "<DIV>", "</SVG>", "<div<!---->", "<mi/>", "</span>"]


def test_the_bound_is_never_below_the_exact_depth_among_drawings():
    """Self-closing tags inside and outside svg and math, drawings closed every way,
    tags inside attributes and cut by comments: the bound never under-counts (random
    pages of 600 to 3,000 pieces, most past the cap's quick answers)."""
    rng = random.Random(8)
    weights = [4 if piece in ("<path/>", "<svg>", "<g>", "</g>") else 1 for piece in DRAWN]
    for _ in range(150):
        html = "".join(rng.choices(DRAWN, weights, k=rng.randint(600, 3000)))
        assert nesting.depth_bound(html) >= exact_depth(html), html
