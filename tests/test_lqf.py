"""LQF (Mantratzis, Orgun, Cassidy): link-list points, the extractor, the cleaner."""
import numpy as np
import pytest

from builders import make_snapshot
from pith.pipeline import render
from pith.pages import static
from pith.pipeline.algorithms import lqf
from pith.pipeline.algorithms.base import Choice
from pith.errors import NoContent
from pith.pipeline.features import compute
from pith.pipeline.options import Options
from pith.pipeline.select import select
from pith.pipeline.snapshot import from_json

PROSE = ("The committee met on Tuesday to discuss the budget for the coming year, and "
         "after a long debate it agreed to fund the new library wing in full. ")


def snap_of(html):
    return from_json(static.snapshot_from_html(html, "http://example.org/"), 10**6)


def quota(html, **overrides):
    snap = snap_of(html)
    return snap, lqf.link_quota(snap, compute(snap), Options.from_overrides(overrides))


def row(snap, ident):
    return int(np.flatnonzero(snap.id == ident)[0])


def test_pipe_separated_anchors_get_two_points():
    snap, lq = quota("""<body><div id="nav"><a href="/">Home</a> | <a href="/news">News</a> |
        <a href="/sport">Sport</a> | <a href="/contact">Contact</a></div></body>""")
    assert lq.points[row(snap, "nav")] == 2
    assert lq.link_list[row(snap, "nav")]


def test_nested_tables_form_a_list_only_as_a_whole():
    # Each row: a cell with a link and a cell with a count. The count cells alone have
    # no link at all; the rows and the tables, seen from above, are link lists.
    cells = "".join(f'<tr><td id="t{k}"><a href="/t/{k}">Topic {k}</a></td><td id="n{k}">({k})</td></tr>'
                    for k in range(6))
    snap, lq = quota(f"""<body><table id="outer"><tr><td>
        <table id="inner1">{cells}</table></td><td>
        <table id="inner2">{cells.replace('id="n', 'id="m')}</table></td></tr></table></body>""")
    assert lq.points[row(snap, "n3")] == 0
    assert lq.points[row(snap, "inner1")] == 2 and lq.points[row(snap, "inner2")] == 2
    assert lq.points[row(snap, "outer")] == 2
    # but a zero-point section with text (a count cell) keeps every ancestor from being
    # dropped as a list; the link cells are dropped one by one
    assert not lq.link_list[row(snap, "outer")]
    assert lq.link_list[row(snap, "t3")] and not lq.link_list[row(snap, "n3")]


def test_nested_tables_of_links_are_one_link_list():
    inner = "".join(f'<tr><td><a href="/s/{k}">Section {k}</a></td></tr>' for k in range(5))
    snap, lq = quota(f"""<body><table id="outer"><tr><td><table>{inner}</table></td>
        <td><table>{inner}</table></td></tr></table></body>""")
    assert lq.points[row(snap, "outer")] == 2 and lq.link_list[row(snap, "outer")]


def test_a_paragraph_with_two_inline_links_gets_no_point():
    snap, lq = quota(f"""<body><p id="p">{PROSE}See <a href="/a">the minutes</a> and
        <a href="/b">the budget</a> for the details. {PROSE}</p></body>""")
    assert lq.points[row(snap, "p")] == 0


def test_one_point_is_doubtful_and_not_a_list():
    # every item a short link and a long description: anchors are half the tags, but
    # linked text is a small share
    items = "".join(f'<li><a href="/{k}">Story {k}</a> {PROSE}</li>' for k in range(4))
    snap, lq = quota(f'<body><ul id="teasers">{items}</ul></body>')
    assert lq.points[row(snap, "teasers")] == 1
    assert not lq.link_list[row(snap, "teasers")]


def test_decay_weighs_deeper_sections_less():
    # div > (own text "x"*20, ul > li > a "y"*20): the link text is two levels down
    snap = from_json(make_snapshot([
        ("div", -1, {"text": "x" * 20}), ("ul", 0), ("li", 1), ("a", 2, {"text": "y" * 20, "link": 1}),
    ]), 100)
    lq = lqf.link_quota(snap, compute(snap), Options.from_overrides({"lqf_decay": 0.5}))
    anchors, tags, linked, chars = lq.values[0]
    assert (anchors, tags) == (pytest.approx(0.25), pytest.approx(1.25))
    assert (linked, chars) == (pytest.approx(5.0), pytest.approx(25.0))
    assert lq.points[0] == 0 and lq.points[1] == 2


def test_extractor_drops_link_lists_and_picks_the_article():
    nav = "".join(f'<li><a href="/{k}">Menu item {k}</a></li>' for k in range(12))
    html = f"""<html><body><div id="page">
      <ul id="menu">{nav}</ul>
      <div id="main"><h1>A headline</h1><p>{PROSE * 2}</p><p>{PROSE}</p>
        <p>{PROSE}See <a href="/x">this</a>.</p></div>
      <div id="side"><h3>More</h3><ul>{nav}</ul></div>
      <div id="footer">Copyright 2024 Example Org</div></div></body></html>"""
    snap = snap_of(html)
    choice = lqf.run(snap, compute(snap), Options())
    assert snap.id[choice.node] == "main"
    assert choice.blocks[0] == choice.node
    assert 0.8 < choice.score[choice.node] <= 1.0 and choice.score[0] == 1.0


def test_extractor_does_not_descend_into_one_dominant_paragraph():
    html = f"""<body><div id="story"><p>{PROSE * 4}</p><p>{PROSE}</p></div>
        <div>Copyright notice</div></body>"""
    snap = snap_of(html)
    assert snap.id[lqf.run(snap, compute(snap), Options()).node] == "story"


def test_extractor_drops_a_list_inside_the_block():
    items = "".join(f'<li><a href="/r/{k}">Related story number {k}</a></li>' for k in range(5))
    html = f'<body><article id="a"><p>{PROSE * 3}</p><ul id="rel">{items}</ul><p>{PROSE}</p></article></body>'
    sel = select(static.snapshot_from_html(html, "http://example.org/"),
                 Options.from_overrides({"blocks": False, "algorithm": "lqf"}))
    text = sel.output("text")
    assert "Related story" not in text and text.count("committee") == 4


def test_cleaner_removes_related_links_inside_an_article_and_keeps_its_paragraphs():
    related = "".join(f'<li><a href="/r/{k}">Another story you may like, part {k}</a></li>'
                      for k in range(6))
    html = f"""<html><body><ul>{related}</ul><article id="story"><h1>Budget agreed</h1>
      <p>{PROSE * 2}</p><p>{PROSE}</p>
      <div id="related"><h3>Related</h3><ul>{related}</ul></div>
      <p>{PROSE}Read <a href="/minutes">the minutes</a>.</p></article></body></html>"""
    capture = static.snapshot_from_html(html, "http://example.org/")
    plain = select(capture, Options.from_overrides({"blocks": False, "algorithm": "cnr"}))
    cleaned = select(capture, Options.from_overrides({"blocks": False, "algorithm": "cnr", "lqf_clean": True}))
    assert plain.node == cleaned.node and plain.snap.id[plain.node] == "story"
    before, after = plain.output("text"), cleaned.output("text")
    assert "Another story" in before and "Another story" not in after
    assert "Related" not in after
    assert after.count("committee") == 4 and "Budget agreed" in after
    assert "the minutes" in after


def test_cleaner_never_drops_the_chosen_node_or_its_ancestors():
    nav = "".join(f'<li><a href="/{k}">Item {k}</a></li>' for k in range(5))
    snap = snap_of(f'<body><div id="box"><ul id="menu">{nav}</ul></div></body>')
    feats, opts = compute(snap), Options()
    menu = row(snap, "menu")
    assert lqf.link_quota(snap, feats, opts).link_list[menu]
    for node in (menu, row(snap, "box")):
        choice = Choice(node=node, score=np.zeros(snap.n), blocks=np.array([node]))
        cleaned = lqf.clean(snap, feats, opts, choice)
        dropped = np.flatnonzero(cleaned.drop) if cleaned.drop is not None else []
        assert node not in dropped
        assert not any(d <= node < snap.end[d] for d in dropped)


def test_cleaner_keeps_the_drop_of_the_method_and_cleans_every_part():
    nav = "".join(f'<li><a href="/{k}">Item {k}</a></li>' for k in range(5))
    snap = snap_of(f"""<body><div id="a"><p>{PROSE}</p><ul id="l1">{nav}</ul></div>
        <div id="b"><p id="keep">{PROSE}</p><ul id="l2">{nav}</ul></div></body>""")
    prior = np.zeros(snap.n, np.bool_)
    prior[row(snap, "keep")] = True
    choice = Choice(node=1, score=np.zeros(snap.n), blocks=np.array([1]),
                    parts=np.array([row(snap, "a"), row(snap, "b")]), drop=prior)
    cleaned = lqf.clean(snap, compute(snap), Options(), choice)
    assert set(np.flatnonzero(cleaned.drop)) >= {row(snap, "l1"), row(snap, "l2"), row(snap, "keep")}


def test_fixture_like_page_with_nav_sidebar_and_comments():
    nav = " | ".join(f'<a href="/{k}">Section {k}</a>' for k in range(8))
    tags = "".join(f'<a href="/tag/{k}">tag{k}</a> ' for k in range(10))
    html = f"""<html><head><title>Story</title></head><body>
      <div id="header"><div class="logo">Example Daily</div><div id="nav">{nav}</div></div>
      <table><tr><td id="left"><div>{tags}</div></td>
        <td id="content"><h2>City plans a new library</h2>
          <div class="byline">By A. Writer, 3 May</div>
          <p>{PROSE}</p><p>{PROSE}</p><p>{PROSE}</p><p>{PROSE}</p>
          <div class="share"><a href="/s/1">Share</a> <a href="/s/2">Tweet</a></div></td>
        <td id="right"><div class="ad"><a href="http://ads.example/1">Buy now cheap</a></div>
          <div class="ad"><a href="http://ads.example/2">Best offers today</a></div></td></tr></table>
      <div id="foot">© Example Daily · <a href="/about">About</a> · <a href="/privacy">Privacy</a></div>
      </body></html>"""
    sel = select(static.snapshot_from_html(html, "http://example.org/"),
                 Options.from_overrides({"blocks": False, "algorithm": "lqf"}))
    assert sel.snap.id[sel.node] == "content"
    text = sel.output("text")
    assert text.startswith("City plans a new library") and "Tweet" not in text
    assert "Buy now" not in text and "Section 3" not in text


# --- bad input -----------------------------------------------------------------------
def test_no_text_at_all_is_no_content():
    snap = snap_of('<html><body><div><img src="a.png"></div></body></html>')
    with pytest.raises(NoContent, match="no visible text"):
        lqf.run(snap, compute(snap), Options())


def test_a_page_of_links_only_is_no_content():
    links = "".join(f'<li><a href="/{k}">Link {k}</a></li>' for k in range(20))
    snap = snap_of(f"<html><body><ul>{links}</ul></body></html>")
    with pytest.raises(NoContent, match="outside link lists"):
        lqf.run(snap, compute(snap), Options())


def test_one_giant_text_node_is_the_body():
    snap = snap_of("<html><body>" + "word " * 200_000 + "</body></html>")
    choice = lqf.run(snap, compute(snap), Options())
    assert snap.tag[choice.node] == "body" and choice.drop is None


def test_deep_nesting_costs_no_recursion():
    depth = 1500
    snap = from_json(make_snapshot([("html", -1)] + [("div", i) for i in range(depth)]
                                   + [("p", depth, {"text": PROSE})]), 10**6)
    choice = lqf.run(snap, compute(snap), Options())
    assert snap.tag[choice.node] == "p"   # it holds all the text: the walk loses nothing


# --- measuring CNR + LQF: `pith bench --option` ----------------------------------------
def test_bench_option_reaches_every_algorithm(tmp_path, capsys):
    import json
    from pith.measure import datasets
    from pith import cli
    dataset = datasets.shared_dir() / "datasets" / "readability"
    if not (dataset / "index.jsonl").is_file():
        pytest.skip("../shared/datasets is absent")
    code = cli.main(["bench", str(dataset), "--static", "--limit", "2", "--no-anchors",
                     "--json", "--quiet", "-a", "cnr", "--option", "lqf_clean=true",
                     "--save-predictions", str(tmp_path)])
    assert code == 0
    rows = json.loads(capsys.readouterr().out)
    assert [(r["algorithm"], r["options"]) for r in rows] == [
        ("cnr", {"lqf_clean": True}), ("cnr:element", {"lqf_clean": True})]
    with pytest.raises(SystemExit) as exc:
        cli.main(["bench", str(dataset), "--static", "--option", "lqf_clean=1"])
    assert exc.value.code == 2
    assert "lqf_clean" in capsys.readouterr().err
