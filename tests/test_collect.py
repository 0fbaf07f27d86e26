"""inject/collect.js in real Chromium: the reader's content payload (extension/READER.md) of a selected block.

Pages come from tests/fixtures/pages over http://127.0.0.1 (tests/serving.py) or, for the
small cases written here, from a route on http://pith.test (so relative URLs resolve as on
a real site). capture.js runs first, as in the extension; both scripts run in the page's
main world, which is enough to test them (the extension runs them in its isolated world).
"""
from __future__ import annotations

import base64
import re
import struct
import zlib
from urllib.parse import urlsplit

import pytest

from conftest import PAGES, ROOT
from serving import serve

pytestmark = pytest.mark.browser

CAPTURE_JS = (ROOT / "extension" / "inject" / "capture.js").read_text(encoding="utf-8")
COLLECT_JS = (ROOT / "extension" / "inject" / "collect.js").read_text(encoding="utf-8")
ORIGIN = "http://pith.test"
# The collector's caps (collect.js MAX_DEPTH, MAX_ELEMENTS): the tree never nests deeper
# than MAX_DEPTH elements, plus one level for a void element (img, br, hr) at the cap.
MAX_DEPTH = 40
MAX_ELEMENTS = 20000
# READER.md "Allowed tags".
ALLOWED = set("""p h1 h2 h3 h4 h5 h6 div blockquote pre hr ul ol li dl dt dd figure figcaption
    table caption thead tbody tfoot tr th td details summary a em strong b i u s del ins mark
    small sub sup code kbd samp var abbr cite q time br img span""".split())
ALLOWED_ATTRS = {
    "a": {"href", "title"}, "img": {"src", "alt", "title", "width", "height"},
    "th": {"colspan", "rowspan", "scope"}, "td": {"colspan", "rowspan"},
    "ol": {"start", "reversed", "type"}, "li": {"value"}, "pre": {"class"}, "code": {"class"},
    "time": {"datetime"}, "abbr": {"title"}, "details": {"open"},
}
BLOCK = set("""p h1 h2 h3 h4 h5 h6 div blockquote pre hr ul ol li dl dt dd figure figcaption
    table caption thead tbody tfoot tr th td details summary""".split())
TINY_GIF = "data:image/gif;base64,R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7"


# --- helpers -----------------------------------------------------------------------------
def png(width: int, height: int) -> bytes:
    """A valid RGBA PNG of the given size."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return (struct.pack(">I", len(data)) + kind + data
                + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF))
    rows = b"".join(b"\x00" + b"\x80\x40\x20\xff" * width for _ in range(height))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))


def nodes_of(tree):
    """Every element node of a payload tree, depth first, without recursion."""
    todo = list(reversed(tree))
    while todo:
        n = todo.pop()
        if isinstance(n, dict):
            yield n
            todo.extend(reversed(n.get("c", [])))


def strings_of(tree, blocks: bool = False) -> list[str]:
    """The text strings of a tree in order; with `blocks`, a " " around each block element."""
    out, todo = [], list(reversed(tree))
    while todo:
        n = todo.pop()
        if isinstance(n, str):
            out.append(n)
        elif blocks and n["t"] in BLOCK:
            todo.extend([" ", *reversed(n.get("c", [])), " "])
        else:
            todo.extend(reversed(n.get("c", [])))
    return out


def text_of(tree) -> str:
    return "".join(strings_of(tree))


def flat(tree) -> str:
    """The text as a reader sees it: blocks apart, whitespace collapsed."""
    return re.sub(r"\s+", " ", "".join(strings_of(tree, blocks=True))).strip()


def depth_of(tree) -> int:
    deepest, todo = 0, [(n, 1) for n in tree if isinstance(n, dict)]
    while todo:
        n, d = todo.pop()
        deepest = max(deepest, d)
        todo.extend((k, d + 1) for k in n.get("c", []) if isinstance(k, dict))
    return deepest


def tagged(tree, tag: str) -> list[dict]:
    return [n for n in nodes_of(tree) if n["t"] == tag]


# --- fixtures ----------------------------------------------------------------------------
@pytest.fixture(scope="module")
def server():
    with serve(PAGES) as url:
        yield url


@pytest.fixture(scope="module")
def module_tab(chromium):
    """One tab for the module: a new context per test started a renderer process each
    (about 0.2 s of CPU; host/NOTES.md, 'Why the suite shares browsers')."""
    context = chromium.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    page.set_default_timeout(20_000)
    yield page
    context.close()


@pytest.fixture
def tab(module_tab):
    """The module's tab on a blank document, with no route left by an earlier test; each
    test then loads its own page (a new document: no script state carries over)."""
    module_tab.unroute_all()
    module_tab.goto("about:blank")
    return module_tab


def prepare(tab) -> None:
    """Run capture.js then collect.js in the page, as the extension does."""
    assert isinstance(tab.evaluate(CAPTURE_JS), str)
    tab.evaluate(COLLECT_JS)


def open_fixture(tab, server: str, name: str) -> None:
    tab.goto(f"{server}/{name}/source.html", wait_until="load")
    prepare(tab)


def open_html(tab, body: str, head: str = "", lang: str = "en", title: str = "Test page") -> None:
    """Serve `body` as http://pith.test/a/page.html; images under /img/ (pixel*.png is 1×1)."""
    html = (f'<!DOCTYPE html><html lang="{lang}"><head><meta charset="utf-8">'
            f"<title>{title}</title>{head}</head><body>{body}</body></html>")

    def handle(route):
        path = urlsplit(route.request.url).path
        if path == "/a/page.html":
            route.fulfill(status=200, content_type="text/html; charset=utf-8", body=html)
        elif path.startswith("/img/pixel"):
            route.fulfill(status=200, content_type="image/png", body=png(1, 1))
        elif path.startswith("/img/"):
            route.fulfill(status=200, content_type="image/png", body=png(4, 3))
        else:
            route.fulfill(status=404, body="")

    tab.route(f"{ORIGIN}/**", handle)
    tab.goto(f"{ORIGIN}/a/page.html", wait_until="load")
    prepare(tab)


def collect(tab, node: str = "document.querySelector('article')", drop=(), links=(), quiet=()):
    """__pith.collect with the rows of the elements the JS expressions `node`, `drop`,
    `quiet` name."""
    return tab.evaluate(
        """([node, drop, links, quiet]) => {
             const rows = __pith.nodes, row = (js) => rows.indexOf((0, eval)(js));
             return __pith.collect({node: row(node), drop: drop.map(row), links, quiet: quiet.map(row)});
           }""", [node, list(drop), list(links), list(quiet)])


def payload_of(reply: dict) -> dict:
    assert reply["ok"] is True, reply
    return reply["payload"]


def assert_allowed(tree) -> None:
    for n in tree:
        if isinstance(n, str):
            continue
        if n["t"] in ("math", "svg"):     # the reader's own allow-lists: test_math.py, test_svg_figure.py
            continue
        assert n["t"] in ALLOWED, n
        for name, value in n.get("a", {}).items():
            assert name in ALLOWED_ATTRS.get(n["t"], set()) | {"lang", "dir"}, (n["t"], name)
            assert isinstance(value, str)
        assert_allowed(n.get("c", []))


# --- the reader fixture ------------------------------------------------------------------
@pytest.fixture
def reader(tab, server):
    open_fixture(tab, server, "reader")
    return tab


def source_code_block() -> str:
    html = (PAGES / "reader" / "source.html").read_text(encoding="utf-8")
    return re.search(r'<code class="language-python">(.*?)</code>', html, re.S).group(1)


def test_reader_keeps_paragraphs_list_table_code_figure_and_quote(reader, server):
    p = payload_of(collect(reader, drop=["document.querySelector('ul.share')"]))
    tree = p["tree"]
    assert_allowed(tree)
    assert tree[0] == {"t": "h1", "c": ["Growing lichens on glass"]}    # article is a container
    paras = [flat([n]) for n in tagged(tree, "p")]
    assert any(t.startswith("Lichens are not plants but partnerships") for t in paras)
    assert any(t.startswith("After a year the pane holds three species") for t in paras)
    assert [flat([li]) for li in tagged(tree, "li")] == [
        "an old window pane, cleaned with water only",
        "a few fragments of lichen from fallen twigs", "a spray bottle of rain water"]

    (table,) = tagged(tree, "table")
    assert [n["t"] for n in table["c"]] == ["caption", "thead", "tbody"]
    assert flat(table["c"][:1]) == "Area covered on the pane"
    assert [flat([th]) for th in tagged([table], "th")] == ["Month", "Area (mm²)", "Notes"]
    assert len(tagged([table], "td")) == 9 and len(tagged([table], "tr")) == 4

    (pre,) = tagged(tree, "pre")
    (code,) = pre["c"]
    assert code["t"] == "code" and code["a"] == {"class": "language-python"}
    assert code["c"] == [source_code_block()]                          # whitespace exactly
    assert "            mist(day)      # every third day\n" in code["c"][0]

    (figure,) = tagged(tree, "figure")
    img, caption = figure["c"]
    assert img["t"] == "img" and "c" not in img
    assert img["a"] == {"src": f"{server}/reader/images/lichen.png",     # not the data: GIF
                        "alt": "Orange lichen on a glass pane", "width": "64", "height": "64"}
    assert caption == {"t": "figcaption", "c": ["Xanthoria parietina after six months on the pane."]}

    (quote,) = tagged(tree, "blockquote")
    assert quote == {"t": "blockquote", "c": [{"t": "p", "c": ["Growth is slow, but it is growth."]}]}
    assert p["stats"]["truncated"] is False
    assert p["stats"]["elements"] == len(list(nodes_of(tree)))


def test_reader_leaves_out_scripts_frames_forms_handlers_and_hidden_text(reader, server):
    # the host's `clean` drops the subscribe form (READER.md: forms are unwrapped otherwise)
    tree = payload_of(collect(reader, drop=["document.querySelector('ul.share')",
                                            "document.querySelector('article form')"]))["tree"]
    tags = {n["t"] for n in nodes_of(tree)}
    assert not tags & {"script", "iframe", "form", "input", "button", "label", "nav", "style"}
    for n in nodes_of(tree):
        for name, value in n.get("a", {}).items():
            assert not name.lower().startswith("on")
            assert "javascript:" not in value.lower() and "PWNED" not in value
    text = flat(tree)
    assert "HIDDEN TEXT" not in text and "PWNED" not in text and "Subscribe" not in text
    assert "pageScriptRan" not in text
    assert "this link that is really a script." in text                 # unwrapped, text kept
    links = {flat([a]): a["a"]["href"] for a in tagged(tree, "a")}
    assert links == {"caring for slow growers": f"{server}/care"}        # relative → absolute
    # the 404 image (the one with the onerror handler) has no usable source: dropped
    assert [i["a"]["src"] for i in tagged(tree, "img")] == [f"{server}/reader/images/lichen.png"]


def test_a_form_not_dropped_is_unwrapped_without_its_widgets(reader):
    tree = payload_of(collect(reader))["tree"]
    assert "Subscribe" in flat(tree)                    # a page wrapped in a form keeps its text
    assert not {n["t"] for n in nodes_of(tree)} & {"form", "input", "button"}


def test_drop_rows_are_left_out(reader):
    kept = payload_of(collect(reader))
    dropped = payload_of(collect(reader, drop=["document.querySelector('ul.share')"]))
    assert "Share on X" in flat(kept["tree"])                           # control: it is there
    assert "Share on X" not in flat(dropped["tree"]) and "Facebook" not in flat(dropped["tree"])
    assert dropped["stats"]["dropped"] == kept["stats"]["dropped"] + 1
    assert dropped["stats"]["elements"] == kept["stats"]["elements"] - 7  # ul, 3 li, 3 a


def test_quiet_rows_lose_their_own_text_and_keep_their_children(tab):
    open_html(tab, """<article>Share this story: <a href="/x">on X</a>
      <p>First <b>kept</b> paragraph.</p> Sponsored <span>link</span>
      <div class="box">Box run<p>Inner paragraph.</p>tail run</div>
      <p id="own">A paragraph whose <em>text</em> stays.</p></article>""")
    kept = flat(payload_of(collect(tab))["tree"])
    assert "Share this story" in kept and "Sponsored" in kept and "Box run" in kept   # control
    p = payload_of(collect(tab, quiet=["document.querySelector('article')",
                                       "document.querySelector('.box')"]))
    text = flat(p["tree"])
    for gone in ("Share this story", "Sponsored", "Box run", "tail run"):
        assert gone not in text, gone
    for stays in ("on X", "First kept paragraph.", "link", "Inner paragraph.",
                  "A paragraph whose text stays."):
        assert stays in text, stays
    assert tagged(p["tree"], "a") and len(tagged(p["tree"], "p")) == 3
    # only direct text: a quiet row's descendants keep theirs
    inner = payload_of(collect(tab, quiet=["document.getElementById('own')"]))
    (own,) = [n for n in tagged(inner["tree"], "p") if "text" in flat([n])]
    assert own["c"] == [{"t": "em", "c": ["text"]}]
    assert "Share this story" in flat(inner["tree"])


def test_reader_metadata(reader, server):
    links = [{"text": "Share on X", "href": "https://twitter.example/share?u=lichens"},
             {"text": "relative", "href": "/moss"},
             {"text": "script", "href": "javascript:alert(1)"}, {"text": 3, "href": "https://x/"}]
    p = payload_of(collect(reader, links=links))
    assert p["v"] == 1 and p["url"] == f"{server}/reader/source.html"
    assert (p["lang"], p["dir"]) == ("en", "ltr")
    # collect.js counts runs of letters and digits (apostrophes joining), per text node
    words = sum(len(re.findall(r"[^\W_]+(?:['’][^\W_]+)*", s)) for s in strings_of(p["tree"]))
    assert p["words"] == words and p["minutes"] == max(1, round(words / 238)) >= 1
    assert p["links"] == [links[0], {"text": "relative", "href": f"{server}/moss"}]
    # title, byline, site and published are the host's (its `clean` reply's metadata;
    # the background adds them: tests/test_metadata_agree.py)
    assert set(p) == {"v", "url", "lang", "dir", "words", "minutes", "tree", "links", "stats"}
    assert set(p["stats"]) == {"elements", "dropped", "truncated"}


def test_collect_does_not_change_the_page(reader):
    before = reader.evaluate("document.documentElement.outerHTML")
    payload_of(collect(reader, drop=["document.querySelector('ul.share')"]))
    reader.evaluate(COLLECT_JS)                                          # idempotent install
    payload_of(collect(reader))
    assert reader.evaluate("document.documentElement.outerHTML") == before
    assert reader.evaluate("document.title") == "Growing lichens on glass – The Slow Garden"


def test_collect_is_idempotent(reader):
    first = collect(reader)
    reader.evaluate(COLLECT_JS)
    assert collect(reader) == first


def test_a_removed_or_missing_node_is_refused(reader):
    assert collect(reader, node="null")["ok"] is False                  # row -1
    reply = reader.evaluate("__pith.collect({node: 1e6, drop: [], links: []})")
    assert reply["ok"] is False and reply["reason"]
    reply = reader.evaluate("""() => { __pith.nodes.push(document.createTextNode('x'));
                                        return __pith.collect({node: __pith.nodes.length - 1}); }""")
    assert reply == {"ok": False, "reason": reply["reason"]} and "not an element" in reply["reason"]
    reader.evaluate("__pith.nodes.pop()")
    row = reader.evaluate("__pith.nodes.indexOf(document.querySelector('article'))")
    reader.evaluate("document.querySelector('article').remove()")
    reply = reader.evaluate(f"__pith.collect({{node: {row}, drop: [], links: []}})")
    assert reply["ok"] is False and "removed" in reply["reason"]


# --- robustness --------------------------------------------------------------------------
def test_100000_nested_divs_are_collected_without_overflow_and_truncated(tab):
    open_html(tab, '<article id="deep-root" style="display:none"></article>')
    # Inside a display:none block: Chromium's own renderer crashes laying out ~10,000 visible
    # levels. Built 400 levels at a time by the HTML parser (whose own limit is 512): one
    # DOM insertion per level walks all the ancestors, which takes minutes for 100,000.
    depth = tab.evaluate("""() => {
        const CHUNK = 400, chunk = '<div>'.repeat(CHUNK), root = document.getElementById('deep-root');
        let at = root;
        for (let made = 0; made < 100000; made += CHUNK) {
          at.insertAdjacentHTML('beforeend', chunk);
          for (let i = 0; i < CHUNK; i++) at = at.lastElementChild;
        }
        at.textContent = 'deep end';
        root.firstElementChild.prepend('top text ');
        let depth = 0;
        for (let e = root; e.firstElementChild; e = e.firstElementChild) depth++;
        return depth;
    }""")
    assert depth == 100000
    prepare(tab)
    p = payload_of(collect(tab, node="document.getElementById('deep-root')"))
    assert p["stats"]["truncated"] is True
    assert depth_of(p["tree"]) <= MAX_DEPTH + 1
    assert flat(p["tree"]).startswith("top text")
    assert "deep end" not in flat(p["tree"])      # below the walk's depth limit


def test_deep_but_renderable_nesting_is_flattened_not_lost(tab):
    open_html(tab, "<article><p>start</p></article>")
    tab.evaluate("""() => {
        let inner = document.createElement('p');
        inner.innerHTML = 'deep <b>end</b> <img src="/img/deep.png" alt="deep">';
        for (let i = 0; i < 300; i++) {
          const d = document.createElement(i % 2 ? 'div' : 'section');
          d.append('level ' + i + ' ', inner);
          inner = d;
        }
        document.querySelector('article').appendChild(inner);
    }""")
    tab.wait_for_load_state("load")
    prepare(tab)
    p = payload_of(collect(tab))
    text = flat(p["tree"])
    assert p["stats"]["truncated"] is True
    assert depth_of(p["tree"]) <= MAX_DEPTH + 1
    assert "level 299 level 298" in text and "level 0 deep end" in text   # blocks stay apart
    assert tagged(p["tree"], "img")                                        # void kept at the cap


def test_element_cap_truncates(tab):
    open_html(tab, "<article><p id='many'>x</p><p>after the flood</p></article>")
    tab.evaluate("""() => { const p = document.getElementById('many');
                            for (let i = 0; i < 20050; i++) { const b = document.createElement('b');
                                                              b.textContent = 'w' + i + ' '; p.appendChild(b); } }""")
    prepare(tab)
    p = payload_of(collect(tab))
    assert p["stats"]["truncated"] is True
    assert p["stats"]["elements"] == len(list(nodes_of(p["tree"]))) <= MAX_ELEMENTS
    assert "after the flood" not in flat(p["tree"])


def test_shadow_dom_content_is_collected(tab, server):
    open_fixture(tab, server, "shadow")
    p = payload_of(collect(tab, node="document.getElementById('card')"))
    tree = p["tree"]
    assert_allowed(tree)
    assert "slot" not in {n["t"] for n in nodes_of(tree)}
    assert flat(tree) == "shadow text Blue kettle Boils 1.7 litres in three minutes. price on request"
    (h2,) = tagged(tree, "h2")
    assert flat([h2]) == "Blue kettle"                  # slotted into the shadow tree's h2
    assert tagged(tree, "div")                          # div.card, from the shadow root


# --- the sanitiser on small pages --------------------------------------------------------
def test_images_take_the_best_source(tab):
    small_png = "data:image/png;base64," + base64.b64encode(png(2, 2)).decode()
    assert len(small_png) < 200                       # READER.md: a placeholder-sized data: URI
    open_html(tab, f"""<article><p>Pictures.</p>
      <img id="lazy" src="{TINY_GIF}" data-src="/img/real.png" alt="lazy">
      <img id="dset" src="{TINY_GIF}" data-srcset="/img/a.png 300w, /img/b.png 1200w, /img/c.png 800w" alt="w">
      <img id="xset" data-srcset="/img/x1.png 1x, /img/x3.png 3x, /img/x2.png 2x" alt="x">
      <img id="comma" data-srcset="/img/q.png?w=1,2 1x, /img/q.png?w=3,4 2x" alt="comma">
      <picture><source data-srcset="/img/p1.png 1x, /img/p2.png 2x"><img src="{TINY_GIF}" alt="pic"></picture>
      <img src="/img/pixel.png" alt="pixel">
      <img src="{small_png}" alt="tiny only">
      <img src="data:image/svg+xml,%3Csvg%3E%3C/svg%3E" alt="svg">
      <img src="javascript:alert(1)" alt="js">
      <img src="/img/plain.png" alt="plain">
    </article>""")
    imgs = {i["a"]["alt"]: i["a"]["src"] for i in tagged(payload_of(collect(tab))["tree"], "img")}
    assert imgs == {
        "lazy": f"{ORIGIN}/img/real.png", "w": f"{ORIGIN}/img/b.png", "x": f"{ORIGIN}/img/x3.png",
        "comma": f"{ORIGIN}/img/q.png?w=3,4", "pic": f"{ORIGIN}/img/p2.png",
        "tiny only": small_png, "plain": f"{ORIGIN}/img/plain.png",
    }


def test_tags_are_mapped_unwrapped_or_dropped(tab):
    open_html(tab, """<article>
      <p>One <b>two</b> <i>three</i> <big>four</big> <font color="red">five</font><label>six</label></p>
      <product-card>custom</product-card>
      <span style="display:block">block span</span>
      <center>centered</center>
      <p hidden>HIDDEN-ATTR</p><p aria-hidden="true">ARIA-HIDDEN</p>
      <p style="visibility:hidden">VIS-HIDDEN</p>
      <p>outside <span style="display:none">NONE</span>inside</p>
      <svg><text>SVG-TEXT</text></svg><math><mi>MATH-TEXT</mi></math>
      <svg width="16" height="16"><text>ICON-TEXT</text></svg>
      <nav>NAV-TEXT</nav><noscript>NOSCRIPT-TEXT</noscript><template>TEMPLATE-TEXT</template>
      <div class="ad"><span></span></div>
      <p>hr follows</p><hr><p>after <br>break</p>
    </article>""")
    tree = payload_of(collect(tab))["tree"]
    assert_allowed(tree)
    first = tree[0]
    assert first["t"] == "p" and flat([first]) == "One two three four fivesix"
    assert [k["t"] for k in first["c"] if isinstance(k, dict)] == ["b", "i"]   # unknown inline: unwrapped
    divs = [flat([d]) for d in tagged(tree, "div")]
    assert divs == ["custom", "block span", "centered"]                        # empty ad div left out
    text = flat(tree)
    for gone in ("HIDDEN-ATTR", "ARIA-HIDDEN", "VIS-HIDDEN", "NONE", "ICON-TEXT",
                 "NAV-TEXT", "NOSCRIPT-TEXT", "TEMPLATE-TEXT"):
        assert gone not in text
    # a figure (300×150, the default size) and a formula come as their own subtrees; an icon does not
    assert tagged(tree, "svg") == [{"t": "svg", "c": [{"t": "text", "c": ["SVG-TEXT"]}]}]
    assert tagged(tree, "math") == [{"t": "math", "c": [{"t": "mi", "c": ["MATH-TEXT"]}]}]
    assert "outside inside" in text and "after break" in text
    assert tagged(tree, "hr") == [{"t": "hr"}] and tagged(tree, "br") == [{"t": "br"}]


def test_whitespace_between_blocks_goes_between_inlines_stays(tab):
    open_html(tab, """<article>
      <p><em>alpha</em> <strong>beta</strong>
      <a href="/g">gamma</a></p>
      <ul>
        <li>one</li>
        <li>two</li>
      </ul>
    </article>""")
    tree = payload_of(collect(tab))["tree"]
    p, ul = tree
    assert p["c"][1] == " " and p["c"][3].strip() == "" and p["c"][3] != ""
    assert all(isinstance(k, dict) for k in ul["c"])                  # no whitespace strings
    assert all(isinstance(k, dict) for k in tree)


def test_attributes_are_filtered_and_urls_absolute(tab):
    open_html(tab, """<article lang="en">
      <table border="1" style="color:red"><tr><th scope="col" colspan="2" onclick="x()" class="h">H</th></tr>
        <tr><td rowspan="3" colspan="abc" data-x="1">c</td></tr></table>
      <pre class="lang-js highlight" data-line="2"><span class="k">let</span>  x = 1;

  y</pre>
      <ol start="3" reversed type="a" class="o"><li value="7" id="l">x</li></ol>
      <details open><summary>S</summary>inside</details>
      <p dir="RTL" lang="ar" title="t">مرحبا</p>
      <p><a href="mailto:a@b.example" title="mail" target="_blank" rel="noopener">mail</a>
        <a href=" JaVaScRiPt:alert(1)">js</a> <a href="data:text/html,x">data</a>
        <a href="rel/x?q=1#f">rel</a> <a name="anchor">anchor</a>
        <abbr title="HyperText" class="x">HTML</abbr> <time datetime="2020-01-02" class="d">then</time>
        <img src="/img/i.png" alt="i" width="40" height="50%" title="T" loading="lazy" onerror="x()"></p>
    </article>""")
    tree = payload_of(collect(tab))["tree"]
    assert_allowed(tree)
    (th,) = tagged(tree, "th")
    assert th == {"t": "th", "a": {"colspan": "2", "scope": "col"}, "c": ["H"]}
    (td,) = tagged(tree, "td")
    assert td == {"t": "td", "a": {"rowspan": "3"}, "c": ["c"]}
    assert "a" not in tagged(tree, "table")[0]
    (pre,) = tagged(tree, "pre")
    assert pre["a"] == {"class": "language-js"}
    assert text_of([pre]) == "let  x = 1;\n\n  y"
    assert tagged(tree, "ol")[0]["a"] == {"start": "3", "reversed": "", "type": "a"}
    assert tagged(tree, "li")[0]["a"] == {"value": "7"}
    assert tagged(tree, "details")[0]["a"] == {"open": ""}
    rtl = [n for n in tagged(tree, "p") if n.get("a")]
    assert rtl[0]["a"] == {"lang": "ar", "dir": "rtl"}
    links = {flat([a]): a["a"] for a in tagged(tree, "a")}
    assert links == {"mail": {"href": "mailto:a@b.example", "title": "mail"},
                     "rel": {"href": f"{ORIGIN}/a/rel/x?q=1#f"}}
    text = flat(tree)
    assert "js data" in text and "anchor" in text                     # unwrapped, text kept
    assert tagged(tree, "abbr")[0]["a"] == {"title": "HyperText"}
    assert tagged(tree, "time")[0]["a"] == {"datetime": "2020-01-02"}
    assert tagged(tree, "img")[0]["a"] == {"src": f"{ORIGIN}/img/i.png", "alt": "i", "width": "40", "title": "T"}


def test_a_content_root_is_kept_and_words_count_cjk_characters(tab):
    open_html(tab, """<main><h1>Heading here</h1>
      <table id="t"><tr><td>日本語 and English don't split</td></tr></table></main>""", lang="ja")
    p = payload_of(collect(tab, node="document.getElementById('t')"))
    assert [n["t"] for n in p["tree"]] == ["table"]                    # a content root is emitted
    assert p["words"] == 3 + 4                          # 日 本 語, and English don't split
    assert p["minutes"] == 1
    assert p["lang"] == "ja" and p["dir"] == "ltr"


def test_root_rules(tab):
    open_html(tab, """<form id="f"><p>in a form</p><input value="no"></form>
      <script id="s">var inScript = 1;</script>
      <div id="h" style="display:none"><p>hidden block</p></div>
      <ul><li id="li">item <b>bold</b></li></ul>
      <section id="fold"><p>shown</p><p hidden="until-found">folded text</p><p hidden>gone</p></section>""")
    def tree(el_id):
        return payload_of(collect(tab, node=f"document.getElementById('{el_id}')"))["tree"]
    assert tree("f") == [{"t": "p", "c": ["in a form"]}]          # a form root gives its children
    assert tree("s") == []                                          # a script root gives nothing
    assert flat(tree("h")) == "hidden block"                        # the reader chose it
    assert tree("li") == ["item ", {"t": "b", "c": ["bold"]}]       # a part gives its children
    assert flat(tree("fold")) == "shown folded text"                # until-found is findable content
