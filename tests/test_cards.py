"""Listed items' cards: a short link between two kept lines of a listing is kept, a card's button label is not (cards.py)."""
import numpy as np

from pith.pages import static
from pith.pipeline import cards
from pith.pipeline.blocks import keep as blocks_keep, segment
from pith.pipeline.options import Options
from pith.pipeline.select import select

TOOLS = ("Quillmate", "Ledgerly", "Parcelbird", "Tallyhoist", "Brambledesk", "Cobaltnote",
         "Harvestly", "Fernpost", "Mossgrid", "Lanternsoft", "Pebblecast", "Dunebridge")


def ranking_page():
    """A software ranking: each item a rank, the product's name linked to its own page,
    a score and a Compare button (the shape of a training site's ranking page)."""
    items = "".join(
        f'<div class="rank-row"><div class="rank-num">{i + 1}.</div>'
        f'<div class="rank-name"><a href="/products/{name.lower()}">{name}</a></div>'
        f'<div class="rank-score">{9.4 - i * 0.2:.1f}</div>'
        f'<button class="cmp">Compare</button></div>'
        for i, name in enumerate(TOOLS))
    return ("<!DOCTYPE html><html><head><title>Top Ranked Invoicing Software</title></head>"
            "<body><header><nav><a href='/'>Home</a> <a href='/categories'>Categories</a>"
            "</nav></header><main><h1>Top Ranked Invoicing Software</h1>"
            "<p>See how the top invoicing products rank on their overall score, from "
            "verified reviews by small and large businesses.</p>"
            f'<div class="ranking">{items}</div></main>'
            "<footer><a href='/privacy'>Privacy Policy</a> <a href='/terms'>Terms</a>"
            "</footer></body></html>")


def read(options=None):
    snap = static.snapshot_from_html(ranking_page(), "https://ranks.example.com/invoicing")
    return select(snap, Options.from_overrides(options or {}))


def dropped_names():
    """The ranking page's selection, its blocks, and a decision that keeps every text
    block but the linked names: what the block model decided on a training site's
    ranking page (each name 0.05 to 0.25 likely content, under the model's bar)."""
    sel = read()
    blocks = segment.compute(sel.snap, sel.feats)
    rows = blocks.rows
    texts = segment.texts(sel.snap, blocks, np.arange(len(rows)))
    has_text = blocks.chars > 0
    named = np.array([t in TOOLS for t in texts])
    keep = has_text & ~named & (rows > 8)           # past the header's menu
    return sel, rows, keep, has_text, blocks.chars, texts, named


def test_a_ranked_listing_keeps_its_items_names():
    """The failure this fixes: kept ranks and scores without the products' names ("1.
    9.4 2. 9.2"); each name between its rank and its score is kept back, the menu's
    links (not between kept lines) are not."""
    sel, rows, keep, has_text, chars, texts, named = dropped_names()
    assert sel.page_type[0] in cards.LISTED
    out = cards.names(sel.snap, sel.feats, sel.element.node, rows, keep, has_text, chars,
                      texts)
    assert out[named].all()
    assert not out[rows <= 8].any()
    assert (out[~named] == keep[~named]).all()


def test_an_article_keeps_its_decision(monkeypatch):
    """On a page the page type model calls an article, a link line between two kept
    paragraphs is another story's teaser: the decision stays as the model made it."""
    sel, rows, keep, has_text, chars, texts, named = dropped_names()
    monkeypatch.setattr(cards.pagetype, "classify", lambda *a, **k: ("article", 0.9))
    out = cards.names(sel.snap, sel.feats, sel.element.node, rows, keep, has_text, chars,
                      texts)
    assert (out == keep).all()


def test_between_keeps_only_a_unique_short_link_between_two_kept_blocks():
    keep = np.array([True, False, True, False, True, False, False, True])
    has_text = np.array([True, True, True, True, True, True, True, True])
    linked = np.array([False, True, False, True, False, True, True, False])
    chars = np.array([3, 9, 3, 300, 3, 9, 9, 3])
    texts = ["1.", "Quillmate", "2.", "x" * 300, "3.", "Compare", "Compare", "4."]
    out = cards.between(keep, has_text, linked, chars, texts)
    # the name between two kept lines; not the over-long link, not a repeated label,
    # not a link whose neighbour is not kept
    assert out.tolist() == [False, True, False, False, False, False, False, False]


def test_between_skips_text_less_blocks_for_the_neighbours():
    keep = np.array([True, False, False, True])
    has_text = np.array([True, False, True, True])
    linked = np.array([False, False, True, False])
    out = cards.between(keep, has_text, linked, np.array([3, 0, 9, 3]),
                        ["1.", "", "Ledgerly", "9.2"])
    assert out.tolist() == [False, False, True, False]


def test_the_block_stage_keeps_the_names_it_doubts():
    """Through the block stage (blocks/keep.apply): with the page's blocks judged as on
    the training site (names 0.15, their rank and score 0.6), the answer reads every
    name; with blocks_item_names off it read none of them (the failure)."""
    sel, rows, keep, has_text, chars, texts, named = dropped_names()
    p = np.where(named, 0.15, np.where(has_text & (rows > 8), 0.6, 0.0))
    page = blocks_keep.Judged(p=p, texts=texts)
    for on in (True, False):
        opts = Options.from_overrides({"blocks_item_names": on})
        choice = blocks_keep.apply(sel.snap, sel.feats, opts, sel.scope, sel.element,
                                   page=page)
        kept = set(choice.kept.tolist())
        found = [r in kept for r in rows[named].tolist()]
        assert all(found) if on else not any(found)


def test_between_leaves_a_count_out():
    """A name is words: a link holding no letter ("6207", a link to the item's reviews)
    between two kept lines stays as decided."""
    keep = np.array([True, False, True, False, True])
    has_text = np.ones(5, np.bool_)
    linked = np.array([False, True, False, True, False])
    out = cards.between(keep, has_text, linked, np.array([6, 4, 6, 6, 6]),
                        ["Studio", "6207", "£89.00", "KR233", "£99.00"])
    assert out.tolist() == [False, False, False, True, False]


def shop_grid_page():
    """A shop's category grid: each card a linked product name, a price, and a "Compare"
    toggle and an "Add to cart" label in plain elements (no button tag), the shape of the
    training sites' grids whose truths keep the names and prices but no control."""
    items = "".join(
        f'<div class="card"><h3><a href="/p/{name.lower()}">{name} Desk Lamp</a></h3>'
        f'<p class="price">${40 + i * 3}.00</p>'
        f'<p class="blurb">A {name.lower()} lamp with a weighted brass base and a '
        f'linen shade, dimmable in {3 + i % 4} steps.</p>'
        f'<div class="act"><span class="cmp">Compare</span></div>'
        f'<div class="cart"><span>+ Wishlist</span></div></div>'
        for i, name in enumerate(TOOLS))
    return ("<!DOCTYPE html><html><head><title>Desk Lamps</title></head>"
            "<body><header><nav><a href='/'>Home</a> <a href='/lamps'>Lamps</a></nav>"
            "</header><main><h1>Desk Lamps</h1><p>Every desk lamp we stock, "
            "sorted by how often readers buy them.</p>"
            f'<div class="grid">{items}</div></main>'
            "<footer><a href='/privacy'>Privacy Policy</a></footer></body></html>")


def grid_decision():
    """The grid page's selection, its block texts, and a decision keeping every text
    block past the menu (what the block model kept of a training site's grid)."""
    snap = static.snapshot_from_html(shop_grid_page(), "https://lamps.example.com/desk")
    sel = select(snap, Options.from_overrides({}))
    blocks = segment.compute(sel.snap, sel.feats)
    texts = segment.texts(sel.snap, blocks, np.arange(len(blocks.rows)))
    keep = (blocks.chars > 0) & (blocks.rows > 8)
    return sel, texts, keep


def test_a_listed_cards_controls_are_left_out():
    """The failure this fixes: "Compare" and "+ Wishlist" read between the cards' lines;
    they go, the names, prices and blurbs stay."""
    sel, texts, keep = grid_decision()
    assert sel.page_type[0] in cards.LISTED
    control = np.array([t in ("Compare", "+ Wishlist") for t in texts])
    assert (keep & control).sum() == 2 * len(TOOLS)
    out = cards.controls(sel.snap, sel.feats, sel.element.node, keep, texts)
    assert not out[control].any()
    assert (out[~control] == keep[~control]).all()


def test_an_articles_controls_stay(monkeypatch):
    """On a page the page type model calls an article, the decision stays as it is."""
    sel, texts, keep = grid_decision()
    monkeypatch.setattr(cards.pagetype, "classify", lambda *a, **k: ("article", 0.9))
    out = cards.controls(sel.snap, sel.feats, sel.element.node, keep, texts)
    assert (out == keep).all()


def test_the_grid_page_reads_no_control_with_the_option_on_only():
    """End to end: the grid's answer holds no control label; with blocks_card_controls
    off the block model's answer keeps them (the decision the rule corrects)."""
    def answer(overrides):
        snap = static.snapshot_from_html(shop_grid_page(), "https://lamps.example.com/desk")
        return select(snap, Options.from_overrides(overrides)).output("text")
    on, off = answer({}), answer({"blocks_card_controls": False})
    assert "Quillmate Desk Lamp" in on
    assert "Compare" not in on and "Wishlist" not in on
    assert "Compare" in off or "Wishlist" in off


def test_control_labels_are_whole_labels_only():
    texts = ["Add to Cart", "+ Wishlist", "Compare", "QUICK VIEW", "View details",
             "Compare prices from twelve shops", "Shop now", "Learn more", "Sold out", ""]
    assert cards.control_labels(texts).tolist() == [
        True, True, True, True, True, False, False, False, False, False]
