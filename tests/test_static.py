"""pith.pages.static: charset decoding, the is-it-HTML check, and lxml snapshots that agree with the browser's."""
from __future__ import annotations

import json
import time

import pytest

from pith.pages import nesting, static

from conftest import PAGES
from pith.pipeline import snapshot as snapshot_mod
from pith.errors import InputDecode, InputEmpty, InputNotHtml
from pith.pages.static import MAX_URL_CHARS, check_html, decode_html, snapshot_from_html
from pith.pipeline.features import compute

H_DISPLAY_NONE, H_VISIBILITY, H_OPACITY, H_ARIA = 1, 2, 4, 16


# --- decode_html ------------------------------------------------------------------------
def test_utf8_bom_wins_over_the_meta():
    text, charset = decode_html(b'\xef\xbb\xbf<meta charset="windows-1252"><p>\xc3\xa9')
    assert charset == "utf-8" and text == '<meta charset="windows-1252"><p>é'


def test_utf16_bom():
    text, charset = decode_html("\ufeff<p>héllo</p>".encode("utf-16-le"))
    assert charset == "utf-16le" and text == "<p>héllo</p>"
    text, charset = decode_html("\ufeff<p>héllo</p>".encode("utf-16-be"))
    assert charset == "utf-16be" and text == "<p>héllo</p>"


@pytest.mark.parametrize("head", [
    b'<meta charset="iso-8859-2">',
    b"<META CHARSET=iso-8859-2>",
    b'<meta http-equiv="Content-Type" content="text/html; charset=ISO-8859-2">',
    b'<?xml version="1.0" encoding="iso-8859-2"?>',
])
def test_declared_charset(head):
    text, charset = decode_html(head + b"<p>\xb1\xbf</p>")       # ą ż in latin-2
    assert charset == "iso-8859-2" and text.endswith("<p>ąż</p>")


def test_meta_after_the_prescan_window_is_not_seen():
    data = b"<!--" + b"x" * 5000 + b'--><meta charset="iso-8859-2"><p>\xc3\xa9</p>'
    assert decode_html(data)[1] == "utf-8"


def test_latin1_label_means_windows_1252_like_browsers():
    text, charset = decode_html(b'<meta charset="iso-8859-1"><p>\x80 \x93x\x94 \x81</p>')
    assert charset == "windows-1252" and text.endswith("<p>€ “x” \x81</p>")


def test_undeclared_utf8_is_utf8():
    assert decode_html("<p>Grüße 你好</p>".encode()) == ("<p>Grüße 你好</p>", "utf-8")


def test_undeclared_latin1_falls_back_to_windows_1252():
    text, charset = decode_html("<p>Café – 4,50 €</p>".encode("cp1252"))
    assert charset == "windows-1252" and text == "<p>Café – 4,50 €</p>"


def test_declared_utf8_with_bad_bytes_names_charset_and_offset():
    data = b'<meta charset="utf-8"><p>caf\xe9</p>'
    with pytest.raises(InputDecode) as err:
        decode_html(data)
    assert "utf-8" in err.value.message and "byte offset 28" in err.value.message
    assert "--encoding-errors replace" in err.value.message
    assert err.value.detail == {"charset": "utf-8", "offset": 28}


def test_errors_replace_decodes_anyway():
    text, charset = decode_html(b'<meta charset="utf-8"><p>caf\xe9</p>', errors="replace")
    assert charset == "utf-8" and text.endswith("<p>caf\ufffd</p>")


def test_explicit_encoding_overrides_the_meta():
    text, charset = decode_html(b'<meta charset="utf-8"><p>caf\xe9</p>', encoding="latin-1")
    assert charset == "windows-1252" and text.endswith("<p>café</p>")


def test_explicit_encoding_that_does_not_fit_is_an_error():
    with pytest.raises(InputDecode, match=r"not valid shift_jis .*requested with --encoding"):
        decode_html(b"<p>\x81\xff</p>", encoding="shift_jis")


@pytest.mark.parametrize("kwargs,data", [
    ({}, b'<meta charset="klingon-8"><p>x</p>'),
    ({"encoding": "klingon-8"}, b"<p>x</p>"),
    ({"encoding": "base64"}, b"<p>x</p>"),                  # a Python codec, not a charset
])
def test_unknown_charset_label(kwargs, data):
    with pytest.raises(InputDecode, match="unknown charset"):
        decode_html(data, **kwargs)


def test_meta_utf16_without_bom_means_utf8():
    assert decode_html(b'<meta charset="utf-16"><p>\xc3\xa9</p>')[1] == "utf-8"


@pytest.mark.parametrize("declared,text", [
    ("windows-1252", "Don’t miss the café — 4,50 €"),
    ("gb2312", "谷歌在2014年收购的人工智能公司"),
    ("shift_jis", "日本語のページ"),
])
def test_valid_utf8_wins_over_a_declared_charset(declared, text):
    # a page re-saved as UTF-8 that kept its old <meta> (12 pages of the shared datasets)
    data = f'<meta charset="{declared}"><p>{text}</p>'.encode()
    assert decode_html(data) == (f'<meta charset="{declared}"><p>{text}</p>', "utf-8")
    assert decode_html(data, header=declared)[1] == "utf-8"


def test_text_in_a_legacy_charset_is_not_taken_for_utf8():
    for declared, text in (("windows-1252", "Don’t miss the café"), ("gb2312", "谷歌公司"),
                           ("shift_jis", "日本語のページ")):
        data = f'<meta charset="{declared}"><p>{text}</p>'.encode(declared)
        assert decode_html(data) == (f'<meta charset="{declared}"><p>{text}</p>',
                                     "windows-1252" if declared == "windows-1252" else
                                     "gbk" if declared == "gb2312" else declared)


def test_ascii_bytes_keep_the_declared_charset():
    # ISO-2022-JP is 7-bit: its escapes are ASCII bytes, so ASCII is not read as UTF-8
    data = '<meta charset="iso-2022-jp"><p>こんにちは</p>'.encode("iso-2022-jp")
    assert decode_html(data) == ('<meta charset="iso-2022-jp"><p>こんにちは</p>', "iso-2022-jp")


def test_the_http_header_charset_comes_before_the_meta():
    data = '<meta charset="iso-8859-2"><p>Съешь</p>'.encode("cp1251")
    assert decode_html(data, header="windows-1251") == (
        '<meta charset="iso-8859-2"><p>Съешь</p>', "windows-1251")
    # an unknown header label is ignored in lenient mode (the <meta> decides) and named
    # as the header's in strict mode
    assert decode_html(data, header="x-no-such", errors="replace")[1] == "iso-8859-2"
    with pytest.raises(InputDecode, match="declared in the HTTP header"):
        decode_html(data, header="x-no-such")


# --- check_html -------------------------------------------------------------------------
@pytest.mark.parametrize("text", ["", "  \n\t "])
def test_empty_input(text):
    with pytest.raises(InputEmpty):
        check_html(text, "page.html")


@pytest.mark.parametrize("data", [
    b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR",
    b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj",
    b"PK\x03\x04\x14\x00\x00\x00",
    b"<html>\x00\x00\x00binary</html>",
])
def test_binary_input_is_not_html(data):
    text, _ = decode_html(data, errors="replace")
    with pytest.raises(InputNotHtml, match="binary"):
        check_html(text, "file.bin")


def test_json_is_not_html_even_with_markup_inside():
    with pytest.raises(InputNotHtml, match="JSON"):
        check_html('{"html": "<p>hello</p>"}', "data.json")


def test_plain_text_is_not_html():
    with pytest.raises(InputNotHtml, match="plain text, not HTML"):
        check_html("Just some notes.\nNo markup at all, 3 < 4.", "notes.txt")
    with pytest.raises(InputNotHtml, match="no HTML tag"):
        check_html("Just some notes.\nNo markup at all, 3 < 4.", "notes")


MARKDOWN = ("# Release notes\n\nPress <kbd>Ctrl</kbd>+<kbd>P</kbd> to print; see "
            "<https://example.org/docs> and the [guide](guide.md).\n\n- first\n- second\n")


@pytest.mark.parametrize("name", ["notes.md", "dir/NOTES.MARKDOWN", "notes.md.gz",
                                  "https://example.org/raw/notes.md?plain=1", "notes.txt"])
def test_markdown_with_inline_tags_is_not_html_by_its_name(name):
    """A Markdown file may hold inline tags (<kbd>) and autolinks; it was taken as a page
    and read as one run-on paragraph."""
    with pytest.raises(InputNotHtml, match="not HTML"):
        check_html(MARKDOWN, name)


@pytest.mark.parametrize("name", ["notes", "https://example.org/notes"])
def test_an_autolink_is_not_an_html_tag(name):
    with pytest.raises(InputNotHtml, match="no HTML tag"):
        check_html("# Notes\n\nSee <https://example.org/docs> if 3 <4.\n", name)


@pytest.mark.parametrize("text", ["Hello <b>world</b>", "<!doctype html>", "[<p>x</p>",
                                  "<my-app></my-app><x-widget/>"])
def test_html_and_fragments_pass(text):
    check_html(text, "ok.html")


@pytest.mark.parametrize("text,name", [
    ("<!DOCTYPE html>\n<title>Notes</title><p>Saved as text.", "notes.md"),
    ("<html><body><p>A page someone named .txt</p></body></html>", "page.txt"),
    ("<!-- saved -->\n<div><p>Hello</p></div>", "https://example.org/page"),
    ("Intro <p>with a paragraph</p>", "README"),
])
def test_documents_that_say_they_are_html_pass_whatever_their_name(text, name):
    check_html(text, name)


# --- snapshots --------------------------------------------------------------------------
def static_of(name: str) -> dict:
    text, _ = decode_html((PAGES / name / "source.html").read_bytes())
    return snapshot_from_html(text, "http://pith.invalid/source.html")


def plain_fixtures() -> list[str]:
    """Fixtures both runtimes must agree on: no scripts, no shadow roots, no frames."""
    out = []
    for page in sorted(PAGES.iterdir()):
        source = page / "source.html"
        if source.is_file():
            html = source.read_bytes().lower()
            if b"<script" not in html and b"<iframe" not in html and b"<frame" not in html:
                out.append(page.name)
    return out


@pytest.mark.parametrize("name", plain_fixtures())
def test_static_agrees_with_the_recorded_browser_snapshot(name):
    """DESIGN §7.7: the same fixture through both runtimes gives the same tree and text."""
    ours = static_of(name)
    browser = json.loads((PAGES / name / "snapshot.json").read_text(encoding="utf-8"))
    for col in ("tag", "parent", "text", "tail", "link", "id", "cls", "role", "host",
                "url", "alt", "fw", "frame"):
        assert ours["nodes"][col] == browser["nodes"][col], f"{name}: column {col}"
    assert (ours["title"], ours["lang"], ours["n"]) == \
        (browser["title"], browser["lang"], browser["n"])


def test_plain_fixtures_cover_the_main_cases():
    assert {"article", "boilerplate", "hidden", "unicode", "legacy-charset"} <= \
        set(plain_fixtures())


@pytest.mark.parametrize("name", sorted(p.name for p in PAGES.iterdir()
                                         if (p / "snapshot.json").is_file()))
def test_both_runtimes_pass_snapshot_validation(name):
    browser = json.loads((PAGES / name / "snapshot.json").read_text(encoding="utf-8"))
    for snap in (browser, static_of(name)):
        assert snapshot_mod.from_json(snap, 1_000_000).n == snap["n"]


def test_static_shape():
    snap = snapshot_from_html("<p>hi", "https://example.org/a")
    assert snap["v"] == 1 and snap["layout"] is False and snap["url"] == "https://example.org/a"
    assert snap["nodes"]["tag"] == ["html", "head", "body", "p"]
    assert snap["nodes"]["parent"] == [-1, 0, 0, 2]
    assert snap["viewport"] == [0, 0] and snap["page"] == [0, 0]
    for col in ("x", "y", "w", "h"):
        assert snap["nodes"][col] == [0, 0, 0, 0]
    assert snap["nodes"]["color"] == ["", "", "", ""]


@pytest.mark.parametrize("html", ["", "   ", "<!-- only a comment -->"])
def test_empty_documents_have_html_head_body(html):
    snap = snapshot_from_html(html)
    assert snap["nodes"]["tag"] == ["html", "head", "body"]


def test_browser_tree_fixes():
    snap = snapshot_from_html(
        "<table> <tr><td>a</td></tr> <tr><td>b</td></tr> </table>"
        "<table><td>c</td><col></table>"
        "<template><p>inert</p></template><svg><text>drawn</text></svg>"
        "<iframe>fallback</iframe></body></html>\n<p>after the end</p>")
    cols = snap["nodes"]
    assert cols["tag"] == ["html", "head", "body", "table", "tbody", "tr", "td", "tr", "td",
                           "table", "tbody", "tr", "td", "colgroup", "col", "template", "svg",
                           "iframe", "p"]
    assert cols["text"][3] == " " and cols["tail"][5] == " " and cols["tail"][7] == " "
    assert cols["text"][15] == cols["text"][16] == cols["text"][17] == ""
    assert cols["text"][-1] == "after the end"
    assert cols["frame"][17] == 2
    assert snap["warnings"] == [{"node": 17, "code": "frame_not_loaded",
                                 "message": "static capture does not load frames"}]


def test_comments_dissolve_into_the_surrounding_text():
    cols = snapshot_from_html("<p>a<!-- x -->b<b>c</b>d<!-- y -->e<?pi z?>f</p>")["nodes"]
    p, b = cols["tag"].index("p"), cols["tag"].index("b")
    assert (cols["text"][p], cols["text"][b], cols["tail"][b]) == ("ab", "c", "def")


def test_script_and_style_text_is_not_captured():
    cols = snapshot_from_html("<style>p{}</style><script>var x = '<p>';</script>"
                              "<p>kept</p>")["nodes"]
    assert cols["text"] == ["", "", "", "", "", "kept"]


def test_links_sources_and_alt():
    long = "data:image/png;base64," + "A" * 5000
    cols = snapshot_from_html(
        '<base href="https://cdn.example.org/dir/">'
        '<a href="page.html">x</a><a name="anchor">y</a>'
        '<area href="HTTPS://MAP.Example.COM:8443/m" alt="map">'
        '<img src="i.png" title="t"><img src="/j.png" alt="a" title="t">'
        f'<img src="{long}"><iframe src="//player.example.net/v"></iframe>'
        '<a href="javascript:void(0)">z</a>',
        "https://site.example/page")["nodes"]
    rows = {t: [i for i, v in enumerate(cols["tag"]) if v == t] for t in ("a", "area", "img")}
    a1, a2, a3 = rows["a"]
    assert (cols["link"][a1], cols["url"][a1], cols["host"][a1]) == \
        (1, "https://cdn.example.org/dir/page.html", "cdn.example.org")
    assert (cols["link"][a2], cols["url"][a2], cols["host"][a2]) == (0, "", "")
    assert (cols["link"][a3], cols["host"][a3]) == (1, "")
    (area,) = rows["area"]
    assert cols["host"][area] == "map.example.com" and cols["alt"][area] == "map"
    i1, i2, i3 = rows["img"]
    assert cols["alt"][i1] == "t" and cols["alt"][i2] == "a"
    assert cols["url"][i2] == "https://cdn.example.org/j.png"
    assert len(cols["url"][i3]) == MAX_URL_CHARS and cols["host"][i3] == ""
    frame = cols["tag"].index("iframe")
    assert cols["host"][frame] == "player.example.net"


def test_static_hidden_bits():
    cols = snapshot_from_html(
        '<div id="a" hidden>a</div><div id="b" style="display: none !important">b</div>'
        '<div id="c" style="visibility:hidden"><span id="c1">c</span>'
        '<span id="c2" style="visibility: visible">v</span></div>'
        '<div id="d" style="opacity:0">d</div><div id="e" style="opacity:0.5">e</div>'
        '<div id="f" aria-hidden="TRUE">f</div><div id="g">g</div>')["nodes"]
    bits = {v: cols["hidden"][i] for i, v in enumerate(cols["id"]) if v}
    assert bits == {"a": H_DISPLAY_NONE, "b": H_DISPLAY_NONE, "c": H_VISIBILITY,
                    "c1": H_VISIBILITY, "c2": 0, "d": H_OPACITY, "e": 0, "f": H_ARIA, "g": 0}
    assert cols["hidden"][cols["tag"].index("head")] == H_DISPLAY_NONE


def test_react_streamed_segments_are_hidden_as_a_browser_has_them_and_read_as_shown():
    """React's streaming SSR parks late parts in `<div hidden id="S:n">` and its inline
    script moves them into their `<template id="B:n">` at once. The snapshot has the bits a
    browser without scripts computes; the pipeline reads the segment as shown
    (features.hidden_bits). Another hidden element, or one whose id only looks alike,
    stays hidden."""
    snap = snapshot_from_html(
        '<main><template id="B:1a"></template></main><p id="x" hidden>menu</p>'
        '<div hidden id="S:1a"><article id="post">The post itself.</article></div>'
        '<div hidden id="S:note">n</div><div hidden id="XS:1">y</div>'
        '<script>$RC("B:1a","S:1a")</script>')
    cols = snap["nodes"]
    row = {v: i for i, v in enumerate(cols["id"]) if v}
    assert cols["hidden"][row["S:1a"]] == H_DISPLAY_NONE and cols["hidden"][row["post"]] == 0
    hidden = compute(snapshot_mod.from_json(snap, 1000)).hidden
    assert not hidden[row["S:1a"]] and not hidden[row["post"]]
    assert hidden[row["x"]] and hidden[row["S:note"]] and hidden[row["XS:1"]]


def test_static_font_size_and_weight_inherit():
    cols = snapshot_from_html("<h1>a <a href=x>b</a></h1><p>c <strong>d <i>e</i></strong>"
                              "</p><h5>f</h5>")["nodes"]
    fs = dict(zip(cols["tag"], cols["fs"]))
    fw = dict(zip(cols["tag"], cols["fw"]))
    assert (fs["h1"], fs["a"], fs["p"], fs["h5"]) == (32, 32, 16, 13.28)
    assert (fw["h1"], fw["a"], fw["p"], fw["strong"], fw["i"]) == (700, 700, 400, 700, 700)


def test_title_and_lang():
    snap = snapshot_from_html('<html lang="fr"><title>  Un\n  titre </title><p>x')
    assert (snap["title"], snap["lang"]) == ("Un titre", "fr")


# --- size and depth ---------------------------------------------------------------------
def depths(parent: list[int]) -> list[int]:
    out = [0] * len(parent)
    for i in range(1, len(parent)):
        out[i] = out[parent[i]] + 1
    return out


def test_10000_deep_html_is_complete_and_nested_no_deeper_than_a_browser_nests():
    # every element and the text stay; past Chromium's 512 levels the elements are
    # siblings at the cap (pages/nesting.py), and the end tags still close them all
    html = "<body>" + "<div>" * 10_000 + "x" + "</div>" * 10_000 + "<p>end</p>"
    snap = snapshot_from_html(html)
    cols = snap["nodes"]
    assert snap["n"] == 3 + 10_000 + 1 and "x" in (cols["text"][-2], cols["tail"][-2])
    assert cols["text"][-1] == "end" and cols["parent"][-1] == 2
    assert max(depths(cols["parent"])) == nesting.MAX_DEPTH + 2    # html, body uncounted


def test_end_tags_close_what_is_left_open_inside_them_as_in_a_browser():
    # libxml2 ignored an end tag whose element had a div left open inside it, and nested
    # the rest of the page there: here the whole article inside a widget (a button), which
    # every method skips (a real page, wcxb_dev_full 0044, came out empty).
    snap = snapshot_from_html(
        "<body><header><button><div>menu</button></header>"
        "<section><div>unclosed</section><article><p>the article</p></article>")
    tags, parents = snap["nodes"]["tag"], snap["nodes"]["parent"]
    body, article = tags.index("body"), tags.index("article")
    assert parents[article] == body
    assert parents[tags.index("section")] == body
    assert tags[parents[tags.index("div")]] == "button"


def test_misnested_formatting_is_reconstructed_as_in_a_browser():
    # the adoption agency algorithm: <b> left open across a </p> is continued in the next
    # paragraph by a new <b>, not by moving the paragraph inside the first <b>
    cols = snapshot_from_html("<p>one <b>bold</p><p>two</b> three</p>")["nodes"]
    tags, parents = cols["tag"], cols["parent"]
    ps = [i for i, t in enumerate(tags) if t == "p"]
    assert [tags[parents[p]] for p in ps] == ["body", "body"]
    assert [tags[parents[i]] for i, t in enumerate(tags) if t == "b"] == ["p", "p"]


def test_200000_elements():
    html = "<body>" + "<div><p>text <a href='/x'>link</a></p></div>" * 66_667
    t0 = time.perf_counter()
    snap = snapshot_from_html(html, "https://example.org/")
    took = time.perf_counter() - t0
    print(f"static snapshot of {snap['n']} rows: {took * 1000:.0f} ms")
    assert snap["n"] == 3 + 3 * 66_667
    assert snap["nodes"]["url"][-1] == "https://example.org/x"


def test_unknown_declared_label_is_ignored_when_lenient():
    data = '<meta charset="iso-1252"><p>caf\u00e9</p>'.encode("cp1252")
    with pytest.raises(InputDecode, match="--encoding-errors replace"):
        decode_html(data)
    text, charset = decode_html(data, errors="replace")
    assert charset == "windows-1252" and "café" in text


def test_void_elements_have_no_children_as_in_a_browser():
    # libxml2 does not know <embed>, <source>, <track> or <wbr> as void and nests what
    # follows inside them; a browser puts it after them (here: the rest of the article).
    snap = snapshot_from_html(
        "<html><body><article><p>one</p><embed src='x.swf'>between<p>two</p>"
        "<video><source src='v.mp4'><track src='t.vtt'></video><p>three<wbr>four</p>"
        "</article></body></html>", "http://pith.invalid/a.html")
    nodes = snap["nodes"]
    tags, parents = nodes["tag"], nodes["parent"]
    article = tags.index("article")
    ps = [i for i, t in enumerate(tags) if t == "p"]
    assert [parents[i] for i in ps] == [article] * 3
    for void in ("embed", "source", "track", "wbr"):
        row = tags.index(void)
        assert row not in parents, f"<{void}> has children"
    assert nodes["tail"][tags.index("embed")] == "between"
    assert nodes["tail"][tags.index("wbr")] == "four"
    assert parents[tags.index("track")] == tags.index("video")


def test_math_elements_named_like_void_elements_keep_their_children():
    # In MathML a <source>, <input>, <link> or <wbr> is a MathML element, which holds
    # text and children; only the void tags that leave foreign content (img, br, hr,
    # embed, meta) are HTML's, childless, wherever they stand (the walk skips reading
    # their children: static._CLOSED_TAGS).
    snap = snapshot_from_html(
        "<p>a<math><mi>x</mi><source>in <mi>math</mi></source><input>too</input>"
        "<link>linked</link><wbr>w</wbr></math>b<img>after<br>br</p>")
    nodes = snap["nodes"]
    tags, parents, text, tail = nodes["tag"], nodes["parent"], nodes["text"], nodes["tail"]
    math = tags.index("math")
    for name, own in (("source", "in "), ("input", "too"), ("link", "linked"), ("wbr", "w")):
        row = tags.index(name)
        assert parents[row] == math and text[row] == own, name
    assert parents[tags.index("mi", tags.index("source"))] == tags.index("source")
    assert tail[math] == "b"
    assert tail[tags.index("img")] == "after" and tail[tags.index("br")] == "br"
    assert static._CLOSED_TAGS <= static.NO_CHILD_TAGS | static.VOID_ELEMENTS


@pytest.mark.parametrize("data, header, exact", [
    ("<p>café</p>".encode(), None, True),                                   # valid UTF-8
    (b"<p>plain ascii</p>", None, True),                                     # ASCII, undeclared
    (b'<meta charset="utf-8"><p>ascii</p>', None, True),                    # declared UTF-8
    (b'<meta charset="windows-1252"><p>ascii</p>', None, False),            # another label
    ('<meta charset="iso-8859-1"><p>caf\u00e9</p>'.encode("cp1252"), None, False),
    (b'<meta charset="utf-8"><p>caf\xe9 \xff</p>', None, False),           # replaced bytes
    (b"\xef\xbb\xbf<p>bom</p>", None, False),                                # the BOM is cut
    (b"<p>ascii</p>", "shift_jis", False),                                   # the header's
    ("<p>\u65e5\u672c</p>".encode(), "utf-8", True),
])
def test_decode_page_gives_the_bytes_only_when_they_are_the_texts_utf8(data, header, exact):
    """decode_page's third value is the page's bytes exactly when they are its text's UTF-8
    (the parse then takes them as they are), None otherwise; its text and charset are
    decode_html's."""
    text, charset, utf8 = static.decode_page(data, None, "replace", header)
    assert (text, charset) == decode_html(data, None, "replace", header)
    assert (utf8 is not None) == exact
    if utf8 is not None:
        assert utf8 is data and text.encode("utf-8") == data


@pytest.mark.parametrize("html", [
    "<body><p>caf\u00e9 <!-- x --> cr\u00e8me</p><svg><text>no</text></svg>"
    "<a href='/b?x=1'>link</a> tail</body>",
    "<body>" + "<div>" * 600 + "deep \u00e9" + "</div>" * 600 + "<p>after</p>",   # capped
])
def test_a_snapshot_from_the_pages_bytes_equals_one_from_its_text(html):
    """snapshot_of_html with the page's UTF-8 bytes (what a crawl's decode_page hands on)
    builds the same snapshot as from the text alone, also when the depth cap rewrites the
    page (the bytes are then not the parsed text, and are not used)."""
    data = html.encode("utf-8")
    text, _, utf8 = static.decode_page(data)
    assert utf8 is data
    one = static.snapshot_of_html(text, "http://pith.invalid/a", 10**6)
    two = static.snapshot_of_html(text, "http://pith.invalid/a", 10**6, utf8)
    assert one.n == two.n > 600 or "deep" not in html
    for name, col in one.cols.items():
        assert col.tolist() == two.cols[name].tolist(), name


def test_a_static_snapshot_comes_with_its_tags_numbered_as_tag_codes_numbers_them():
    # snapshot_of_html hands the tag codes the walk's columns were built with to the
    # Snapshot (snapshot.from_columns' tag_codes): no second numbering of every row, and
    # the same codes and names Snapshot.tag_codes finds on its own.
    html = ("<html><head><title>t</title></head><body><div id=a><p>one<b>two</b></p>"
            "<svg><circle/></svg><p>three<img src=x.png>four</p><custom-el>c</custom-el>"
            "<math><mi>x</mi></math></div></body></html>")
    snap = static.snapshot_of_html(html, "http://pith.invalid/", 10_000)
    assert "_tag_codes" in snap.__dict__
    codes, names = snap.tag_codes()
    fresh = snapshot_mod.from_json(snapshot_from_html(html, "http://pith.invalid/"), 10_000)
    assert "_tag_codes" not in fresh.__dict__
    fresh_codes, fresh_names = fresh.tag_codes()
    assert names == fresh_names and codes.tolist() == fresh_codes.tolist()
    assert [names[c] for c in codes.tolist()] == snap.tag.tolist()
    assert not codes.flags.writeable


def test_hidden_column_reads_styles_as_its_three_patterns_do():
    """static._hidden_column, whose ASCII styles are read by the patterns only when they
    hold the property's name, against the patterns run over every style (its old
    definition): random styles of the three properties in any letter case, their
    values, other properties, separators, and the characters re.I matches beside ASCII
    letters ("İ", "ı", "ſ", the Kelvin sign)."""
    import numpy as np
    import random

    def reference(parent, ua_none, found):
        n = len(parent)
        bits = np.where(ua_none, static.H_DISPLAY_NONE, 0).astype(np.int64)
        sets, vis = np.zeros(n, np.bool_), np.zeros(n, np.int64)
        for row, style in found["style"].items():
            if not style:
                continue
            if static._DISPLAY_NONE.search(style):
                bits[row] |= static.H_DISPLAY_NONE
            m = None
            for m in static._VISIBILITY.finditer(style):
                pass
            if m is not None:
                sets[row] = True
                vis[row] = 0 if m.group(1).lower() == "visible" else static.H_VISIBILITY
            if static._OPACITY_ZERO.search(style):
                bits[row] |= static.H_OPACITY
        return bits | static._inherited(parent, sets, vis, 0)

    names = ["display", "DISPLAY", "dİsplay", "dıſplay", "Visibility", "VISIBİLITY",
             "visıbility", "opacity", "OPACİTY", "color", "K"]
    values = ["none", "NONE", "hidden", "visible", "collapse", "0", ".0", "0%", "block",
              "1", "0 !important", "é"]
    rng = random.Random(12)
    n = 6
    parent = np.array([-1, 0, 1, 1, 0, 4], np.int64)
    fixed = ["dİsplay:none", "VISIBİLITY: hidden", "opacİty:0", "dıſplay :none;",
             "DISPLAY: NONE", "color:red; visibility:visible", "x;Opacity:.0", ""]
    cases = [dict(enumerate(fixed[i:i + n])) for i in range(0, len(fixed), n)]
    for _ in range(300):
        cases.append({row: rng.choice(["", " ", ";"]).join(
            rng.choice(names) + rng.choice([":", " : ", "", ";"]) + rng.choice(values)
            for _ in range(rng.randrange(0, 4))) for row in range(n) if rng.random() < 0.7})
    for styles in cases:
        found = {"hidden": {}, "aria-hidden": {}, "style": styles}
        ua = np.zeros(n, np.bool_)
        got = static._hidden_column(parent, ua, found)
        assert got.tolist() == reference(parent, ua, found).tolist(), styles
