"""Teaser lists: sibling items each linking to another page of the site under a headline."""
import numpy as np

from pith.pages.static import snapshot_from_html
from pith.pipeline.blocks import teasers
from pith.pipeline.features import compute
from pith.pipeline.snapshot import from_json


def page(body: str, url: str = "https://daily.example/story"):
    snap = from_json(snapshot_from_html(f"<html><body>{body}</body></html>", url), 10**5)
    return snap, compute(snap)


def cards(n: int, href=lambda i: f"/story{i}", text=lambda i: f"Another story headline {i}",
          extra: str = "<p>An excerpt.</p>") -> str:
    return "".join(f'<div class="card"><h3><a href="{href(i)}">{text(i)}</a></h3>{extra}</div>'
                   for i in range(n))


def rows_of(snap, tag, cls=""):
    return [i for i in range(snap.n) if snap.tag[i] == tag and snap.cls[i] == cls]


def test_a_related_list_after_the_article_is_marked_down_to_its_text():
    snap, feats = page('<article><p>The story itself, a sentence.</p><p>More of it, '
                       '<a href="/other-story-of-note">a link inside the text</a>.</p></article>'
                       f'<div class="related">{cards(4)}</div>')
    t = teasers.teaser_items(snap, feats)
    items = rows_of(snap, "div", "card")
    assert len(items) == 4 and np.allclose(t[items], np.log1p(4))
    for item in items:                         # the item's whole subtree
        assert (t[item:snap.end[item]] > 0).all()
    assert (t[rows_of(snap, "article")[0]:rows_of(snap, "div", "related")[0]] == 0).all()


def test_two_items_are_not_a_list():
    snap, feats = page(f'<div class="related">{cards(2)}</div>')
    assert not teasers.teaser_items(snap, feats).any()


def test_links_to_other_sites_menus_and_the_page_itself_are_not_teasers():
    for html in (cards(4, href=lambda i: f"https://elsewhere.example/s{i}"),   # another site
                 cards(4, text=lambda i: f"Home {i}"),                         # short link text
                 cards(4, href=lambda i: f"#part{i}"),                         # in-page anchors
                 cards(4, href=lambda i: "https://www.daily.example/story#c"),  # the page itself
                 cards(4, href=lambda i: "javascript:void(0)")):
        snap, feats = page(f'<div class="list">{html}</div>')
        assert not teasers.teaser_items(snap, feats).any(), html[:80]


def test_the_same_site_with_www_counts_and_long_items_are_posts_not_teasers():
    snap, feats = page(f'<div>{cards(3, href=lambda i: f"https://www.daily.example/s{i}")}</div>')
    assert teasers.teaser_items(snap, feats).any()
    long_text = "<p>" + "A long paragraph of a post. " * 30 + "</p>"
    snap, feats = page(f'<div>{cards(5, extra=long_text)}</div>')
    assert not teasers.teaser_items(snap, feats).any()


def test_a_list_of_paragraphs_with_a_few_links_is_not_a_teaser_list():
    paras = "".join(f"<p>Paragraph {i} of the story, in plain words.</p>" for i in range(8))
    paras += "".join(f'<p><a href="/story{i}">A linked sentence of the story {i}</a></p>'
                     for i in range(3))
    snap, feats = page(f"<article>{paras}</article>")
    assert not teasers.teaser_items(snap, feats).any()   # 3 of 11 items: under TEASER_SHARE
