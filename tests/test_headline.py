"""The headline: the h1 (else h2) whose words are the title's, and where rows stand to it."""
import numpy as np

from pith.pages.static import snapshot_from_html
from pith.pipeline.blocks import headline
from pith.pipeline.features import compute
from pith.pipeline.snapshot import from_json


def page(title: str, body: str):
    html = f"<html><head><title>{title}</title></head><body>{body}</body></html>"
    snap = from_json(snapshot_from_html(html, "https://blog.example/p"), 10**5)
    return snap, compute(snap)


def first(snap, tag):
    return next(i for i in range(snap.n) if snap.tag[i] == tag)


def test_the_headline_is_the_heading_that_matches_the_title():
    snap, feats = page("The river rose overnight | Daily News",
                       "<h1>Daily News</h1><aside><h2>Popular posts</h2></aside>"
                       "<article><h2>The <em>river</em> rose overnight</h2><p>Text.</p></article>")
    head = headline.headline(snap, feats)
    assert snap.tag[head] == "h2" and snap.tag[snap.parent[head]] == "article"


def test_an_h1_that_matches_wins_over_h2_and_one_word_headings_do_not_count():
    snap, feats = page("Menu: how to bake bread", "<h2>How to bake bread</h2><h1>Menu</h1>"
                       "<h1>Bake bread: how to</h1>")
    head = headline.headline(snap, feats)
    assert snap.tag[head] == "h1" and "Bake" in headline.heading_text(snap, head)


def test_no_title_or_no_match_is_no_headline():
    snap, feats = page("", "<h1>Something</h1>")
    assert headline.headline(snap, feats) == -1
    snap, feats = page("Quite another thing", "<h1>Something else entirely</h1>")
    assert headline.headline(snap, feats) == -1
    after, box = headline.headline_columns(snap, feats, -1, np.arange(snap.n))
    assert (after == -1).all() and (box == -1).all()


def test_the_post_shares_a_small_container_with_the_headline_the_sidebar_the_page():
    sidebar = "<aside><ul>" + "".join(f"<li>Popular post number {i}</li>" for i in range(40)) \
        + "</ul></aside>"
    snap, feats = page("A short post", sidebar + "<article><h1>A short post</h1>"
                       "<p>Two lines of post.</p></article>")
    head = headline.headline(snap, feats)
    p, li = first(snap, "p"), first(snap, "li")
    after, box = headline.headline_columns(snap, feats, head, np.array([li, p]))
    assert after.tolist() == [0.0, 1.0]
    assert box[1] < 0.2 and box[0] == 1.0       # the sidebar's only common ancestor: the page
