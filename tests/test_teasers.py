"""Teaser lists: the cards after an article linking to other stories are not the article (issue 33's teaser lists)."""
import numpy as np

from builders import make_snapshot
from conftest import PAGES
from pith.pages import static
from pith.pipeline import links, teasers
from pith.pipeline.blocks import segment
from pith.pipeline.features import compute
from pith.pipeline.options import Options
from pith.pipeline.select import select
from pith.pipeline.snapshot import from_json

TEASER_PAGE = PAGES / "teaser-cards" / "source.html"
LISTICLE_PAGE = PAGES / "listicle-cards" / "source.html"
POST_LINES = ("Ferry timetable changes as the harbour wall is rebuilt",
              "The morning ferry to the islands will leave forty minutes later",
              "The work is due to finish by the end of May")
CARD_LINES = ("Lifeboat crew rescue two walkers", "The volunteers launched shortly after noon",
              "Fish market prices climb", "Forecasters warn of more spring gales",
              "2 hours ago")


def read(path, url, options=None):
    html = path.read_text(encoding="utf-8")
    return select(static.snapshot_from_html(html, url), Options.from_overrides(options or {}))


def test_the_cards_after_a_news_story_are_left_out():
    """The failure this fixes: the six "More from" cards' excerpts read like the story's
    own paragraphs to the block model, so the element grew over them and the reader got
    six other stories after this one (fails with auto_teasers off, below)."""
    url = "https://gazette.example.org/news/ferry-timetable"
    text = read(TEASER_PAGE, url).output("text")
    assert all(line in text for line in POST_LINES)
    assert not any(line in text for line in CARD_LINES)
    before = read(TEASER_PAGE, url, {"auto_teasers": False}).output("text")
    assert all(line in before for line in POST_LINES)
    assert all(line in before for line in CARD_LINES[:4])


def test_the_heading_above_the_left_out_cards_goes_with_them():
    """"More from The Harbour Gazette" named the cards; kept without them it ended the
    story on another list's name."""
    url = "https://gazette.example.org/news/ferry-timetable"
    text = read(TEASER_PAGE, url).output("text")
    assert "More from The Harbour Gazette" not in text
    assert text.rstrip().endswith("returns for the season.")


def test_a_listicle_whose_post_goes_on_after_its_cards_keeps_them():
    """Five linked headings, each with its paragraph, make a group too; but the post's
    closing paragraphs follow them, so they are the post's and stay."""
    text = read(LISTICLE_PAGE, "https://sawdust.example.org/five-projects").output("text")
    for line in ("Peg rail coat hooks", "Reclaimed boards give the frame its colour",
                 "A window box planter", "Whatever you make, sand it well"):
        assert line in text


def cards_page(cards, heading_link=True, closing=False, excerpt=4, story=True):
    """body > [article > h1, p] + section > [h2, `cards` x div.card > (h3 [> a], p)],
    and with `closing` a paragraph of the post after the section; without `story`, a
    `div` instead of the `article` (no element bounds the story)."""
    rows = [("html", -1), ("body", 0), ("article" if story else "div", 1),
            ("h1", 2, {"text": "The post's title"}),
            ("p", 2, {"text": "The post's own paragraph. " * 8}), ("section", 1),
            ("h2", 5, {"text": "More stories"})]
    for k in range(cards):
        card = len(rows)
        rows.append(("div", 5, {"cls": "card"}))
        rows.append(("h3", card, {"text": "" if heading_link else f"Another story {k}"}))
        if heading_link:
            rows.append(("a", card + 1, {"text": f"Another story number {k}",
                                          "link": 1, "url": f"https://example.org/s/{k}"}))
        rows.append(("p", card, {"text": "An excerpt of another story. " * excerpt}))
    if closing:
        rows.append(("p", 1, {"text": "The post's closing paragraph. " * 6}))
    snap = from_json(make_snapshot(rows, url="https://example.org/post"), 10_000)
    return snap, compute(snap)


def test_a_group_is_three_alike_cards_with_linked_titles_holding_its_text():
    snap, feats = cards_page(4)
    assert snap.tag[teasers.groups(snap, feats)].tolist() == ["section"]
    assert teasers.linked_titles(snap, feats).sum() == 4
    # two cards are a pair of links; headings that are not links make no card
    assert len(teasers.groups(*cards_page(2))) == 0
    assert len(teasers.groups(*cards_page(4, heading_link=False))) == 0


def test_cards_longer_than_teasers_are_sections_of_the_post():
    """A buying guide's sections, each under a linked product name with paragraphs of
    review, are cards too, but far longer than a title and an excerpt: no group (on
    the training sites such a guide was answered empty before CARD_MAX_CHARS)."""
    snap, feats = cards_page(4, excerpt=30)
    assert feats.chars[snap.children(5)].mean() > teasers.CARD_MAX_CHARS
    assert len(teasers.groups(snap, feats)) == 0


def test_a_heading_linked_to_a_place_on_the_page_is_no_title():
    """A table of contents' anchors (`#part`, the page's own address with a fragment)
    lead nowhere else: a documentation page's linked section headings are no cards."""
    rows = [("html", -1), ("body", 0)]
    for k, url in enumerate(["#part", "https://example.org/post#part", "#end",
                             "https://example.org/post#top"]):
        rows += [("div", 1, {"cls": "card"}), ("h3", len(rows)),
                 ("a", len(rows) + 1, {"text": f"Section {k}", "link": 1, "url": url})]
    snap = from_json(make_snapshot(rows, url="https://example.org/post"), 10_000)
    feats = compute(snap)
    assert not links.away_links(snap).any()
    assert len(teasers.groups(snap, feats)) == 0


def judged(snap, feats, top):
    """(per block: inside the group, the group's blocks' p after after_post with every
    block judged 0.9, the rest's)."""
    blocks = segment.compute(snap, feats)
    group = int(teasers.groups(snap, feats)[0])
    inside = (blocks.rows >= group) & (blocks.rows < snap.end[group])
    out = teasers.after_post(snap, feats, blocks, top, np.full(len(blocks.rows), 0.9))
    return inside, out[inside], out[~inside]


def test_only_groups_trailing_the_post_are_judged_no_content():
    snap, feats = cards_page(4)
    h1 = int(np.flatnonzero(snap.tag == "h1")[0])
    inside, group, rest = judged(snap, feats, h1)
    assert inside.any() and (group == 0).all() and (rest == 0.9).all()
    # the post goes on after the group (a sure paragraph): the group is the post's
    snap, feats = cards_page(4, closing=True)
    _, group, rest = judged(snap, feats, h1)
    assert (group == 0.9).all() and (rest == 0.9).all()
    # a group before the headline is not after the post
    snap, feats = cards_page(4)
    _, group, _ = judged(snap, feats, snap.n - 1)
    assert (group == 0.9).all()


def test_cards_outweighing_the_post_tenfold_are_the_page_content():
    """An index under its one-line intro (a recipe site's category page the page type
    model called an article) is cards after a "post" too: they hold over POST_RATIO
    times its text, and stay (its page F1 went 0.89 -> 0.10 before the bound), when no
    `article` element around the headline says the story ended before them."""
    snap, feats = cards_page(30, story=False)
    h1 = int(np.flatnonzero(snap.tag == "h1")[0])
    inside, group, rest = judged(snap, feats, h1)
    assert feats.chars[5] > teasers.POST_RATIO * feats.chars[4]     # cards, post
    assert (group == 0.9).all()


def test_a_stream_of_other_stories_after_the_storys_article_goes_however_long():
    """The failure this fixes (issue 33's wrong part, magic_html article-b5b26f9fb331,
    training side): Yahoo's 180-character news brief in its `article`, then the "more
    stories" stream outside it, twenty times its length; the bound kept the stream
    (page F1 0.06). The headline's `article` holds the post and not the cards: the
    page says the story ended (NOTES.md, 'Why a stream of other stories after a short
    story is left out'). Fails with auto_teasers_story off (by_story=False)."""
    snap, feats = cards_page(30)
    h1 = int(np.flatnonzero(snap.tag == "h1")[0])
    assert feats.chars[5] > teasers.POST_RATIO * feats.chars[4]
    inside, group, rest = judged(snap, feats, h1)
    assert (group == 0).all() and (rest[1:] == 0.9).all()      # the stream's title goes too
    assert teasers.story(snap, h1, np.array([4]), np.array([5])) == 2
    blocks = segment.compute(snap, feats)
    before = teasers.after_post(snap, feats, blocks, h1, np.full(len(blocks.rows), 0.9),
                                by_story=False)
    assert (before == 0.9).all()


def test_a_story_element_holding_the_cards_or_missing_the_post_bounds_nothing():
    """The cards inside the headline's `article` (an index under its intro), or a post
    line outside it, or no headline: no story bound (`story` is -1)."""
    snap, feats = cards_page(30)
    h1 = int(np.flatnonzero(snap.tag == "h1")[0])
    assert teasers.story(snap, h1, np.array([4]), np.array([2])) == -1   # holds the group
    assert teasers.story(snap, h1, np.array([4, 5]), np.array([6])) == -1  # post outside
    assert teasers.story(snap, -1, np.array([4]), np.array([5])) == -1
    assert teasers.story(snap, h1, np.array([], np.int64), np.array([5])) == -1
    snap, feats = cards_page(30, story=False)
    assert teasers.story(snap, h1, np.array([4]), np.array([5])) == -1


def link_list(titles, url="https://example.org/post"):
    """body > [article > p, ul > li > a per title]."""
    rows = [("html", -1), ("body", 0), ("article", 1),
            ("p", 2, {"text": "The post's own paragraph. " * 8}), ("ul", 1)]
    for k, title in enumerate(titles):
        rows += [("li", 4), ("a", len(rows), {"text": title, "link": 1,
                                              "url": f"https://example.org/s/{k}"})]
    snap = from_json(make_snapshot(rows, url=url), 10_000)
    return snap, compute(snap)


def test_a_list_whose_items_are_each_one_story_link_is_a_group():
    """Daum's and Yahoo's "related" lists: list items that are one link each, a story's
    title long; a menu's one-word entries are not."""
    snap, feats = link_list(["Ferry timetable changes again", "Lifeboat crew rescue two",
                             "Fish market prices climb"])
    assert snap.tag[teasers.groups(snap, feats)].tolist() == ["ul"]
    assert len(teasers.groups(*link_list(["News", "Sport", "Weather", "Business"]))) == 0


def test_without_a_headline_the_cards_trailing_the_post_still_go():
    """The rule reads the post's end, not its start: a page whose title no heading shows
    (no headline found) loses its trailing cards too."""
    html = TEASER_PAGE.read_text(encoding="utf-8").replace(
        "Ferry timetable changes as the harbour wall is rebuilt | The Harbour Gazette",
        "The Harbour Gazette").replace('<meta property="og:title"', '<meta property="og:x"')
    sel = select(static.snapshot_from_html(html, "https://gazette.example.org/news/ferry"))
    text = sel.output("text")
    assert POST_LINES[1] in text and POST_LINES[2] in text
    assert not any(line in text for line in CARD_LINES)


# Other products' cards after a product (teasers.after_product, option blocks_product_teasers)

RELATED = (("Speckle Bowl", "38.00"), ("Ash Plate", "44.00"), ("Dune Vase", "72.00"),
           ("Moss Cup", "32.00"))
PRODUCT_LINES = ("Speckle Mug", "$60.00", "A wheel thrown stoneware mug",
                 "Holds about 350 ml")


SECOND = (("Linen Napkin", "12.00"), ("Oak Tray", "58.00"), ("Cork Coaster", "9.00"))


def product_page(related_first=False, second=False, unlinked=False, ahead=False,
                 closing=""):
    """A small shop's product page: menu, the product's name (h1), price and description,
    and a "You may also like" row of other products' cards, each a linked name and a
    price, after the description (or, `related_first`, between the price and the
    description). `unlinked`: each card's link holds its picture only, its name a plain
    heading beside it (eBay's and Zalando's carousels). `ahead`: the row comes before the
    product's name, its heading in a wrapper of its own (eBay's "People who viewed this
    item also viewed" above the item). `closing`: a paragraph of the product's own after
    the row (a stock note closing the buy box, thomann.de's)."""
    if unlinked:
        cards = "".join(
            f'<li class="card"><a href="/products/{n.lower().replace(" ", "-")}">'
            f'<img src="/img/{n[:4]}.jpg" alt=""></a><h3>{n}</h3>'
            f'<span class="price">${p}</span></li>' for n, p in RELATED)
    else:
        cards = "".join(
            f'<li class="card"><a href="/products/{n.lower().replace(" ", "-")}"><h3>{n}</h3>'
            f'</a><span class="price">${p}</span></li>' for n, p in RELATED)
    related = f"<section class='related'><h2>You may also like</h2><ul>{cards}</ul></section>"
    description = (
        "<p>A wheel thrown stoneware mug with a matte speckled glaze, made by hand in our "
        "studio, each one a little different from the next.</p>"
        "<p>Holds about 350 ml. Safe for the dishwasher and the microwave; let it cool "
        "before washing, as sudden changes of temperature can crack the glaze.</p>")
    if second:      # a second row, its title in a wrapper of its own (no sibling of it)
        more = "".join(
            f'<li class="tile"><a href="/products/{n.lower().replace(" ", "-")}">'
            f'<h3>{n}</h3></a><span class="price">${p}</span></li>' for n, p in SECOND)
        related += ("<section class='pairs'><div class='pairs-head'><h2>Better together</h2>"
                    f"</div><ul class='tiles'>{more}</ul></section>")
    body = (related + description) if related_first else (description + related)
    if closing:
        body += f"<p class='stock'>{closing}</p>"
    top = ""
    if ahead:
        top = ("<section class='viewed'><div class='viewed-head'><h2>You may also like</h2>"
               f"</div><div class='scroller'><ul>{cards}</ul></div></section>")
        body = description
    return ("<!DOCTYPE html><html><head><title>Speckle Mug – Tidewater Ceramics</title>"
            '<meta property="og:type" content="product"></head>'
            "<body><header><nav><a href='/'>Home</a> <a href='/shop'>Shop</a> "
            "<a href='/cart'>Cart (0)</a></nav></header>"
            f"<main>{top}<div class='product'><h1 class='product-title'>Speckle Mug</h1>"
            f"<div class='product-price'>$60.00</div>{body}"
            "<button>Add to cart</button></div></main>"
            "<footer><a href='/privacy'>Privacy Policy</a></footer></body></html>")


def product_kept(on, related_first=False, second=False, unlinked=False, priced=True,
                 ahead=False, told=0.9, own_lines=True, closing="", tail=1):
    """The texts the block stage keeps on `product_page`, its blocks judged as on the
    training sites' product pages (wcxb_dev_full hyosilver.com, zalando.co.uk): the
    product's name, price and description content, and the related cards' names and
    prices judged content too (0.75: the kept cards there were judged 0.25-0.76; over
    the model's `add` bar, so they are kept whatever the method's element shows)."""
    from pith.pipeline.blocks import keep as blocks_keep
    sel = select(static.snapshot_from_html(
        product_page(related_first, second, unlinked, ahead, closing),
        "https://tidewater.example.com/products/speckle-mug"))
    blocks = segment.compute(sel.snap, sel.feats)
    rows = blocks.rows
    texts = segment.texts(sel.snap, blocks, np.arange(len(rows)))
    p = np.zeros(len(rows))
    for i, t in enumerate(texts):
        if t.startswith(PRODUCT_LINES[2:]):     # the description, judged `told`
            p[i] = told
        elif t.startswith(PRODUCT_LINES) or (closing and t == closing):
            p[i] = 0.9
        elif t.startswith(tuple(n for n, _ in RELATED + SECOND) + ("$", "You may also like")):
            p[i] = 0.75
        elif t == "Better together":            # zalando's such heading: 0.66
            p[i] = 0.66
            p[i] = 0.75
    opts = Options.from_overrides({"blocks_product_teasers": on,
                                   "blocks_product_price_cards": priced,
                                   "blocks_product_own_lines": own_lines,
                                   "blocks_product_tail_lines": tail})
    choice = blocks_keep.apply(sel.snap, sel.feats, opts, sel.scope, sel.element,
                               page=blocks_keep.Judged(p=p, texts=texts))
    kept = set(choice.kept.tolist())
    return sel, [t for t, r in zip(texts, rows.tolist()) if r in kept and t]


def test_other_products_cards_after_the_product_are_left_out():
    """The failure this fixes: the related products' names and prices, judged like the
    product's own short lines, were read after its description (with the option off);
    with blocks_product_teasers they and their heading are left out, the product's
    name, price and description stay."""
    sel, before = product_kept(False)
    assert sel.page_type[0] == teasers.PRODUCT
    assert "Speckle Bowl" in before and "You may also like" in before
    _, after = product_kept(True)
    assert all(any(t.startswith(line) for t in after) for line in PRODUCT_LINES)
    assert not any(t.startswith((*(n for n, _ in RELATED), "You may also like"))
                   for t in after)
    assert not any(f"${p}" in after for _, p in RELATED)


def test_the_headings_between_trailing_card_rows_are_no_line_of_the_product():
    """Two rows of cards after the product, the second's heading judged content (0.66,
    as zalando.co.uk's "Better together" between its carousels) and no sibling of its
    cards: the product's text ends before the first row, so both rows and both headings
    go (with the heading taken for the product's last line, the first row stayed)."""
    _, before = product_kept(False, second=True)
    assert "Better together" in before and "Speckle Bowl" in before
    _, after = product_kept(True, second=True)
    assert all(any(t.startswith(line) for t in after) for line in PRODUCT_LINES)
    assert not any(t.startswith((*(n for n, _ in RELATED + SECOND), "You may also like",
                                 "Better together")) for t in after)


def test_cards_before_the_products_own_last_line_stay():
    """A card row the product's description follows is inside the product's text, not
    trailing it: the rule leaves it as the block model judged it."""
    _, before = product_kept(False, related_first=True)
    _, after = product_kept(True, related_first=True)
    assert after == before


STOCK = "In stock: ships today."
CARE = ("Care: wash by hand or on the dishwasher's top rack, dry upside down, and keep "
        "it away from the open flame of a hob; the glaze is food safe, lead free and fired "
        "twice at 1240 degrees, so it will not craze with daily use.")


def test_a_stock_line_after_the_cards_does_not_hold_them_in_the_product():
    """The failure this fixes: a stock note the model judged sure (0.9) after a row of
    other products' cards made the row lie inside the product's text, so it stayed
    (blocks_product_tail_lines 0; thomann.de's "This product is in stock and can be
    shipped immediately." after eleven priced cards); the note says less than the cards,
    so with the option at 1 the row and its heading go, the note and the product's lines
    stay."""
    _, before = product_kept(True, closing=STOCK, tail=0)
    assert "Speckle Bowl" in before and "You may also like" in before and STOCK in before
    _, after = product_kept(True, closing=STOCK)
    assert all(any(t.startswith(line) for t in after) for line in PRODUCT_LINES)
    assert STOCK in after
    assert not any(t.startswith((*(n for n, _ in RELATED), "You may also like"))
                   for t in after)


def test_a_closing_paragraph_longer_than_the_cards_keeps_them():
    """The product's text going on after the row with more than the cards say (a care
    paragraph) is no buy box's last word: the row lies inside the product, and stays."""
    _, before = product_kept(True, closing=CARE, tail=0)
    _, after = product_kept(True, closing=CARE)
    assert "Speckle Bowl" in after and CARE in after
    assert after == before


def test_priced_cards_whose_names_are_no_links_after_the_product_are_left_out():
    """The failure this fixes: other products' cards whose link holds the picture and
    whose name is a plain heading (eBay's "People who viewed this item also viewed") are
    no teaser group, and stayed with blocks_product_price_cards off; with it on, each
    card showing a price and linking off the page, they go with their heading, and the
    product's own name, price and description stay."""
    _, before = product_kept(True, unlinked=True, priced=False)
    assert "Speckle Bowl" in before and "You may also like" in before
    _, after = product_kept(True, unlinked=True)
    assert all(any(t.startswith(line) for t in after) for line in PRODUCT_LINES)
    assert not any(t.startswith((*(n for n, _ in RELATED), "You may also like"))
                   for t in after)
    assert not any(f"${p}" in after for _, p in RELATED)


def test_cards_before_the_products_name_are_left_out_with_their_heading():
    """The failure this fixes: a row of other products' cards above the product's h1
    (judged content, 0.75) was read before the product, its heading too, with
    blocks_product_price_cards off (nothing trails the product's last line); with it on
    the row and the heading introducing it go, the product's lines stay."""
    for unlinked in (False, True):
        _, before = product_kept(True, unlinked=unlinked, priced=False, ahead=True)
        assert "Speckle Bowl" in before and "You may also like" in before
        _, after = product_kept(True, unlinked=unlinked, ahead=True)
        assert all(any(t.startswith(line) for t in after) for line in PRODUCT_LINES)
        assert not any(t.startswith((*(n for n, _ in RELATED), "You may also like"))
                       for t in after)


def test_the_listing_guard_weighs_the_products_lines_judged_under_sure():
    """The failure this fixes: the description judged 0.4 (kept: the method shows it,
    over the model's threshold; zalando.co.uk's specification rows are judged 0.42-0.69)
    was left out of the product's weight, so two rows of seven cards outweighed its one
    sure line ("$60.00") tenfold and stayed, as if the page were a listing
    (blocks_product_own_lines off); weighing every kept line of its own, they go."""
    _, before = product_kept(True, second=True, told=0.4, own_lines=False)
    assert "Speckle Bowl" in before and "Oak Tray" in before
    assert any(t.startswith("A wheel thrown stoneware mug") for t in before)
    _, after = product_kept(True, second=True, told=0.4)
    assert all(any(t.startswith(line) for t in after) for line in PRODUCT_LINES)
    assert not any(t.startswith((*(n for n, _ in RELATED + SECOND), "You may also like"))
                   for t in after)


def price_groups(html):
    snap = from_json(static.snapshot_from_html(html, "https://shop.example.com/p/mug"), 10_000)
    feats = compute(snap)
    blocks = segment.compute(snap, feats)
    texts = segment.texts(snap, blocks, np.arange(len(blocks.rows)))
    found = teasers.price_cards(snap, feats, blocks.rows, blocks.chars > 0, blocks.chars,
                                texts)
    return [snap.cls[r] for r in found.tolist()]


def test_priced_rows_without_links_off_the_page_are_no_cards():
    """A product's own size or edition rows show a price each but link nowhere else (a
    button adds them to the cart): no group. The same rows, each linking to another
    product's page with its picture, are one; a row with no price is none, nor a
    booking's dates linking off the page without a picture."""
    def rows(link, price=True):
        item = ("<li class='opt'>{0}<span>Size {1} – the mug in its {1} form</span>"
                + ("<span>${2}.00</span>" if price else "") + "</li>")
        sizes = (("small", 20), ("medium", 25), ("large", 30))
        return "<ul class='opts'>" + "".join(
            item.format(f"<a href='/p/{s}'><img src='/{s}.jpg' alt=''></a>" if link else "",
                        s, n) for s, n in sizes) + "</ul>"
    page = "<html><body><main><h1>Mug</h1>{}<button>Add</button></main></body></html>"
    assert price_groups(page.format(rows(link=False))) == []
    assert price_groups(page.format(rows(link=True))) == ["opts"]
    assert price_groups(page.format(rows(link=True, price=False))) == []
    # a tour's dates, each with its price and a booking link to another site, and no
    # picture: the page's own offer (magic_html's atlasobscura.com experience page)
    dates = "<ul class='dates'>" + "".join(
        f"<li class='date'><div>Sat, Jun {d}, 2024</div><div>6:00 a.m.–7:30 a.m.</div>"
        f"<div>$40</div><div><a href='https://www.airbnb.com/experiences/1?d={d}'>Book on "
        "Airbnb</a></div></li>" for d in (1, 8, 15)) + "</ul>"
    assert price_groups(page.format(dates)) == []


def test_an_article_keeps_its_trailing_cards_in_the_block_stage():
    """On a page typed an article the block stage's rule does not apply (an article's
    cards are judged before the element's choice: auto_teasers, off here so the cards
    reach the block stage)."""
    url = "https://gazette.example.org/news/ferry-timetable"
    on = read(TEASER_PAGE, url, {"auto_teasers": False, "blocks_product_teasers": True})
    off = read(TEASER_PAGE, url, {"auto_teasers": False, "blocks_product_teasers": False})
    assert on.page_type[0] != teasers.PRODUCT
    assert all(line in on.output("text") for line in CARD_LINES[:4])
    assert on.output("text") == off.output("text")
