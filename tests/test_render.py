"""Output formats of a chosen node: plain text, Markdown and safe HTML."""
import numpy as np

from builders import make_snapshot
from pith.pipeline import render
from pith.pipeline.features import compute
from pith.pipeline.snapshot import from_json


def article():
    return from_json(make_snapshot([
        ("article", -1),                                                    # 0
        ("h1", 0, {"text": "Title"}),                                       # 1
        ("p", 0, {"text": "First   para with "}),                           # 2
        ("a", 2, {"text": "a link", "tail": " inside.", "link": 1,
                  "url": "https://example.org/x"}),                         # 3
        ("p", 0, {"text": "Line one"}),                                     # 4
        ("br", 4, {"tail": "line two"}),                                    # 5
        ("pre", 0),                                                         # 6
        ("code", 6, {"text": "def f():\n    return 1"}),                    # 7
        ("ul", 0),                                                          # 8
        ("li", 8, {"text": "alpha"}),                                       # 9
        ("li", 8, {"text": "beta"}),                                        # 10
        ("table", 0),                                                       # 11
        ("tr", 11),                                                         # 12
        ("th", 12, {"text": "k"}), ("th", 12, {"text": "v"}),               # 13 14
        ("tr", 11),                                                         # 15
        ("td", 15, {"text": "a|b"}), ("td", 15, {"text": "1"}),             # 16 17
        ("div", 0, {"text": "hidden text", "hidden": 1, "tail": "after hidden"}),  # 18
        ("script", 0, {"text": "var x = '<b>';"}),                          # 19
        ("img", 0, {"url": "https://example.org/i.png", "alt": "An image"}),  # 20
        ("p", 0, {"text": "<script>alert(1)</script> & more"}),             # 21
        ("a", 21, {"text": "bad", "link": 1, "url": "javascript:alert(1)"}),  # 22
        ("button", 0, {"text": "Share"}),                                   # 23
    ]), 1000)


def test_text_separates_blocks_with_blank_lines_and_keeps_lines():
    snap = article()
    text = render.to_text(snap, compute(snap), [0])
    blocks = text.split("\n\n")
    assert blocks[0] == "Title"
    assert blocks[1] == "First para with a link inside."
    assert blocks[2] == "Line one\nline two"
    assert blocks[3] == "def f():\n    return 1"
    assert "alpha" in text and "beta" in text
    assert "hidden text" not in text and "var x" not in text and "Share" not in text
    assert "after hidden" in text   # the tail of a skipped element is still page text


def test_markdown_keeps_structure():
    snap = article()
    md = render.to_markdown(snap, compute(snap), [0])
    assert md.startswith("# Title\n")
    assert "[a link](https://example.org/x)" in md
    assert "```\ndef f():\n    return 1\n```" in md
    assert "- alpha\n- beta" in md
    assert "| k | v |\n| --- | --- |\n| a\\|b | 1 |" in md
    assert "![An image](https://example.org/i.png)" in md
    assert "hidden text" not in md


def test_markdown_drops_unsafe_urls_and_keeps_links_one_token():
    snap = from_json(make_snapshot([
        ("p", -1, {"text": "See "}),                                                    # 0
        ("a", 0, {"text": "run", "tail": ", ", "link": 1, "url": "javascript:alert(1)"}),
        ("a", 0, {"text": "page", "tail": ", ", "link": 1,
                  "url": "data:text/html,<script>alert(1)</script>"}),
        ("a", 0, {"text": "odd", "tail": " and ", "link": 1, "url": " JaVaScRiPt:alert(1)"}),
        ("a", 0, {"text": "wiki", "tail": ".", "link": 1,
                  "url": "https://en.example/Foo_(bar) x"}),
        ("img", 0, {"url": "vbscript:msgbox(1)", "alt": "evil"}),
    ]), 1000)
    md = render.to_markdown(snap, compute(snap), [0])
    assert md == "See run, page, odd and [wiki](https://en.example/Foo_%28bar%29%20x)."


def test_html_escapes_page_text_and_drops_unsafe_urls():
    snap = article()
    out = render.to_html(snap, compute(snap), [0], title="T <x>")
    assert "<title>T &lt;x&gt;</title>" in out
    assert "&lt;script&gt;alert(1)&lt;/script&gt; &amp; more" in out
    assert "<script" not in out.replace("&lt;script", "")
    assert "javascript:" not in out
    assert '<a href="https://example.org/x">a link</a>' in out
    assert '<img src="https://example.org/i.png" alt="An image">' in out
    assert "<table>" in out and "<pre><code>" in out


def test_several_roots_in_order_and_dropped_rows():
    snap = article()
    drop = np.zeros(snap.n, bool)
    drop[3] = True                              # the link inside the first paragraph
    text = render.to_text(snap, compute(snap), [2, 9], drop)
    assert text == "First para with inside.\n\nalpha"
    md = render.to_markdown(snap, compute(snap), [1, 2], drop)
    assert md == "# Title\n\nFirst para with inside."


def layout_table():
    """A page laid out by a table: a menu cell and an article cell with paragraphs, and a
    small grid table inside the article cell."""
    return from_json(make_snapshot([
        ("table", -1),                                                      # 0
        ("tr", 0),                                                          # 1
        ("td", 1, {"text": "Menu"}),                                        # 2
        ("td", 1),                                                          # 3
        ("p", 3, {"text": "Article paragraph one."}),                       # 4
        ("p", 3, {"text": "Article paragraph two."}),                       # 5
        ("table", 3),                                                       # 6
        ("tr", 6),                                                          # 7
        ("td", 7, {"text": "k"}), ("td", 7, {"text": "v"}),                 # 8 9
    ]), 1000)


def test_markdown_of_a_layout_table_keeps_the_text_of_its_cells():
    """Before, the cells of a table with paragraphs inside were collected as a Markdown
    table's cells and dropped: pages laid out by tables came out empty."""
    snap = layout_table()
    md = render.to_markdown(snap, compute(snap), [0])
    assert "Menu" in md and "Article paragraph one." in md and "Article paragraph two." in md
    assert "| k | v |" in md                     # the grid inside is still a table
    assert render.grid_tables(snap).tolist() == [False] * 6 + [True] + [False] * 3


def test_markdown_of_a_cell_chosen_on_its_own_keeps_its_text():
    snap = layout_table()
    md = render.to_markdown(snap, compute(snap), [3])
    assert md.startswith("Article paragraph one.\n\nArticle paragraph two.")
    md = render.to_markdown(snap, compute(snap), [8])
    assert md == "k"
