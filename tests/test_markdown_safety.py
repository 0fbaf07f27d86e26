"""Markdown exports keep a page's text as text: the extension's (ui/markdown.js) and the CLI's (pipeline/render.py), over one corpus.

tests/fixtures/markdown-split-tags.json holds HTML whose text, once joined across inline
elements, reads as HTML, an autolink or an entity: `&lt;<span>img src=x onerror=…&gt;</span>`
is the text `<img src=x onerror=…>` split over two text nodes. Both renderers turn each case
into Markdown (the extension's: capture.js and collect.js in Chromium, then toMarkdown, as
the reader does; the CLI's: the static snapshot of the same page, then to_markdown), and a
CommonMark parser (markdown-it-py, GFM tables and strikethrough on) reads the result back:
no raw HTML, no autolink, no entity, links and images only to the page's own URLs, titles
as the page wrote them, and the case's words shown as words.
"""
from __future__ import annotations

import json
import re
from urllib.parse import unquote, urlsplit

import lxml.html
import pytest
from markdown_it import MarkdownIt

from conftest import ROOT
from test_collect import png
from pith.pages import static
from pith.pipeline import render
from pith.pipeline.features import compute
from pith.pipeline.options import Options
from pith.pipeline.select import select

CORPUS = json.loads((ROOT / "tests" / "fixtures" / "markdown-split-tags.json").read_text(encoding="utf-8"))
CASES = CORPUS["cases"]
ORIGIN = "http://pith.test"
UI = ROOT / "extension" / "ui"
CAPTURE_JS = (ROOT / "extension" / "inject" / "capture.js").read_text(encoding="utf-8")
COLLECT_JS = (ROOT / "extension" / "inject" / "collect.js").read_text(encoding="utf-8")
PAGE = ('<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Corpus</title></head><body>'
        + "".join(f'<article id="case-{k}">{c["html"]}</article>' for k, c in enumerate(CASES))
        + "</body></html>")
# The reader of the output: CommonMark, with the GFM parts both renderers write; entities
# and escapes stay tokens of their own (text_join merges them into text otherwise).
PARSER = MarkdownIt("commonmark").enable(["table", "strikethrough"]).disable("text_join")
PARSER.validateLink = lambda url: True   # see every link the renderer wrote, safe or not
# URL schemes a link or image of the output may have (relative URLs have none).
SAFE_SCHEME = re.compile(r"^(?:https?:|mailto:|file:|data:image/|[^:]*$)", re.I)
SPACES = re.compile(r"\s+")


def tokens(md: str):
    """Every token of `md`, inline children (and an image's alt) included."""
    todo = list(PARSER.parse(md))
    while todo:
        tok = todo.pop(0)
        yield tok
        todo[:0] = tok.children or []


def shown(md: str) -> str:
    """The text a Markdown viewer shows for `md`, whitespace collapsed."""
    parts = []
    for tok in tokens(md):
        if tok.type in ("text", "text_special", "code_inline", "fence", "code_block"):
            parts.append(tok.content)
        elif tok.type in ("softbreak", "hardbreak", "paragraph_close", "heading_close"):
            parts.append(" ")
    return SPACES.sub(" ", "".join(parts)).strip()


def page_urls(html: str) -> tuple[set[str], set[str]]:
    """(the link and image URLs, the link and image titles) the case's HTML holds."""
    tree = lxml.html.fragment_fromstring(html, create_parent="div")
    urls = {unquote(PARSER.normalizeLink(u)) for u in tree.xpath("//a/@href | //img/@src")}
    titles = {SPACES.sub(" ", t).strip() for t in tree.xpath("//a/@title | //img/@title")}
    return urls, titles


def problems(md: str, case: dict, autolinks: tuple[str, ...] = ()) -> list[str]:
    """What in `md` is not the case's text: HTML, autolinks (but those of `autolinks`),
    entities, links or titles the page did not have, words not shown."""
    urls, titles = page_urls(case["html"])
    found = []
    for tok in tokens(md):
        if tok.type in ("html_inline", "html_block"):
            found.append(f"HTML {tok.content!r}")
        elif tok.type == "text_special" and tok.info == "entity":
            found.append(f"entity {tok.markup!r}")
        elif (tok.type == "link_open" and tok.markup in ("autolink", "linkify")
              and tok.attrGet("href") not in autolinks):
            found.append(f"autolink {tok.attrGet('href')!r}")
        if tok.type in ("link_open", "image"):
            url = tok.attrGet("href") if tok.type == "link_open" else tok.attrGet("src")
            if unquote(url or "") not in urls:      # the CLI writes `(` as %28
                found.append(f"{tok.type} to {url!r}, not a URL of the page")
            if not SAFE_SCHEME.match(url or ""):
                found.append(f"{tok.type} to the unsafe {url!r}")
            title = tok.attrGet("title")
            if title is not None and title not in titles:
                found.append(f"title {title!r}, not the page's")
    if case["shows"] and SPACES.sub(" ", case["shows"]) not in shown(md):
        found.append(f"does not show {case['shows']!r}: {shown(md)!r}")
    return found


def test_the_oracle_sees_what_it_looks_for():
    """The checks find each thing they look for, in Markdown written to hold it."""
    case = {"html": '<a href="https://ok.example/">x</a>', "shows": "kept words"}
    assert problems("kept words [x](https://ok.example/)", case) == []
    for md, what in [("<img src=x onerror=alert(1)> kept words", "HTML"),
                     ("<div>\nkept words", "HTML"), ("kept words <https://evil.example/>", "autolink"),
                     ("kept words <1@evil.example>", "autolink"), ("kept words &lt;b>", "entity"),
                     ("![<b>x</b>](https://ok.example/) kept words", "HTML"),
                     ("kept words [x](https://evil.example/)", "not a URL of the page"),
                     ("kept words [x](javascript:alert(1))", "unsafe"),
                     ('kept words [x](https://ok.example/ "&amp;")', "not the page's"),
                     ("kept \\*words", "does not show")]:
        assert any(what in p for p in problems(md, case)), (md, what)


# --- the CLI: pipeline/render.py ----------------------------------------------------------
@pytest.fixture(scope="module")
def cli_markdown() -> list[str]:
    snap = static.snapshot_of_html(PAGE, f"{ORIGIN}/page.html", 10**6)
    feats = compute(snap)
    ids = snap.id.tolist()
    return [render.to_markdown(snap, feats, [ids.index(f"case-{k}")]) for k in range(len(CASES))]


@pytest.mark.parametrize("k", range(len(CASES)), ids=[c["name"] for c in CASES])
def test_cli_markdown_keeps_split_tags_text(cli_markdown, k):
    assert problems(cli_markdown[k], CASES[k]) == [], cli_markdown[k]


STORY = ("Tide tables are made from long records of the water level at one harbour, and the "
         "records are split into the pulls of the moon and the sun. ") * 4


@pytest.mark.parametrize("algorithm, overrides, html", [
    # sst's preface: the page's <title> when no visible h1 is chosen
    ("sst", {}, f"<title>&lt;img src=x onerror=alert(1)&gt; &amp;amp;</title><div><p>{STORY}</p><p>{STORY}</p></div>"),
    # filters' appendix: the words and URL of each removed text link
    ("filters", {"filters_retain_links": True},
     "<title>t</title><table><tr><td>" + " ".join(
         f'<a href="/s{k}">&lt;img src=x onerror=alert({k})&gt;</a>' for k in range(4))
     + f"</td></tr></table><div><p>{STORY}</p><p>{STORY}</p></div>"),
])
def test_cli_markdown_preface_and_appendix_are_text(algorithm, overrides, html):
    snap = static.snapshot_of_html(f"<html><head>{html}</body></html>", f"{ORIGIN}/page.html", 10**6)
    sel = select(snap, Options.from_overrides({"blocks": False, "algorithm": algorithm, **overrides}))
    assert sel.result.preface or sel.result.appendix          # the case reaches the lines
    md = render.output(sel.snap, sel.feats, sel.result, "markdown")
    assert problems(md, {"html": "", "shows": "<img src=x onerror=alert(1)>"}) == [], md
    assert render.output(sel.snap, sel.feats, sel.result, "text").count("<img") == md.count("<img")   # the same words


# --- the extension: ui/markdown.js over collect.js's payload, in Chromium ------------------
@pytest.fixture(scope="module")
def extension_markdown(chromium) -> list[str]:
    context = chromium.new_context()
    tab = context.new_page()

    def handle(route):
        path = urlsplit(route.request.url).path
        if path == "/page.html":
            route.fulfill(status=200, content_type="text/html; charset=utf-8", body=PAGE)
        elif path.endswith(".png"):                           # the corpus's images
            route.fulfill(status=200, content_type="image/png", body=png(4, 3))
        elif path.startswith("/ui/") and (UI / path[4:]).is_file() and "/" not in path[4:]:
            route.fulfill(status=200, content_type="text/javascript; charset=utf-8",
                          body=(UI / path[4:]).read_text(encoding="utf-8"))
        else:
            route.fulfill(status=404, body="")

    tab.route("**/*", handle)
    tab.goto(f"{ORIGIN}/page.html", wait_until="load")
    assert isinstance(tab.evaluate(CAPTURE_JS), str)
    tab.evaluate(COLLECT_JS)
    out = tab.evaluate("""async (n) => {
      const { toMarkdown } = await import('/ui/markdown.js');
      const rows = __pith.nodes;
      return Array.from({length: n}, (_, k) => {
        const reply = __pith.collect({node: rows.indexOf(document.getElementById('case-' + k)), drop: [], links: []});
        return reply.ok ? toMarkdown({title: 'Corpus', tree: reply.payload.tree}) : JSON.stringify(reply);
      });
    }""", len(CASES))
    context.close()
    return out


@pytest.mark.browser
@pytest.mark.parametrize("k", range(len(CASES)), ids=[c["name"] for c in CASES])
def test_extension_markdown_keeps_split_tags_text(extension_markdown, k):
    assert problems(extension_markdown[k], CASES[k]) == [], extension_markdown[k]


@pytest.mark.browser
def test_extension_markdown_header_is_text(chromium):
    """The title, byline and site of the payload go through the same escaping."""
    tab = chromium.new_page()
    tab.route(f"{ORIGIN}/**", lambda route: route.fulfill(
        status=200, content_type="text/javascript; charset=utf-8",
        body=(UI / urlsplit(route.request.url).path[4:]).read_text(encoding="utf-8"))
        if urlsplit(route.request.url).path.startswith("/ui/") else
        route.fulfill(status=200, content_type="text/html", body="<!DOCTYPE html><title>x</title>"))
    tab.goto(f"{ORIGIN}/x.html")
    md = tab.evaluate("""async () => (await import('/ui/markdown.js')).toMarkdown({
      title: '<img src=x onerror=alert(1)> &amp;', byline: '&lt;<b>', site: '<!-- s -->',
      url: 'https://ok.example/a b', tree: [{t: 'p', c: ['body']}]})""")
    tab.context.close()
    page = "https://ok.example/a%20b"          # the header's link to the page
    assert problems(md, {"html": f'<a href="{page}"></a>', "shows": "<img src=x onerror=alert(1)> &amp;"},
                    autolinks=(page,)) == [], md
    assert "&lt;<b>" in shown(md) and "<!-- s -->" in shown(md), md
