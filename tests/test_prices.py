"""A product's price beside its name: the price line between the kept h1 and a kept line is kept (prices.py)."""
import numpy as np

from pith.pages import static
from pith.pipeline import prices
from pith.pipeline.blocks import keep as blocks_keep, segment
from pith.pipeline.options import Options
from pith.pipeline.select import select

RELATED = (("Speckle Bowl", "38.00"), ("Ash Plate", "44.00"), ("Dune Vase", "72.00"),
           ("Moss Cup", "32.00"))


def product_page():
    """A small shop's product page: menu, the product's name (h1), its price, its
    description and specs, a related-products row of cards with their own prices, a
    footer with a shipping offer."""
    cards = "".join(
        f'<li class="card"><a href="/products/{n.lower().replace(" ", "-")}"><h3>{n}</h3>'
        f'</a><span class="price">${p}</span></li>' for n, p in RELATED)
    return ("<!DOCTYPE html><html><head><title>Speckle Mug – Tidewater Ceramics</title>"
            '<meta property="og:type" content="product"></head>'
            "<body><header><nav><a href='/'>Home</a> <a href='/shop'>Shop</a> "
            "<a href='/about'>About</a> <a href='/cart'>Cart (0)</a></nav></header>"
            "<main><div class='product'><div class='gallery'><img src='mug.jpg' alt=''>"
            "</div><div class='info'><h1 class='product-title'>Speckle Mug</h1>"
            "<div class='product-price'>$60.00</div>"
            "<p>A wheel thrown stoneware mug with a matte speckled glaze, made by hand in "
            "our studio, each one a little different from the next.</p>"
            "<p>Holds about 350 ml. Safe for the dishwasher and the microwave; let it cool "
            "before washing, as sudden changes of temperature can crack the glaze.</p>"
            "<ul><li>Size: about 9.5 x 13 x 7 cm</li><li>Glaze: white speckle</li></ul>"
            "<button>Add to cart</button></div></div>"
            f"<section class='related'><h2>You may also like</h2><ul>{cards}</ul>"
            "</section></main><footer><a href='/privacy'>Privacy Policy</a> "
            "<a href='/terms'>Terms</a><p>Free shipping on orders over $100</p></footer>"
            "</body></html>")


def judged_as_on_the_training_sites():
    """The page's selection, its blocks' rows and texts, the price's block, and the
    block probabilities a training site's product page got: the name and the
    description likely content, the price 0.19 (under the model's bar, as the many
    prices of a page's cards), the related cards and the furniture not content."""
    sel = select(static.snapshot_from_html(
        product_page(), "https://tidewater.example.com/products/speckle-mug"))
    blocks = segment.compute(sel.snap, sel.feats)
    rows = blocks.rows
    texts = segment.texts(sel.snap, blocks, np.arange(len(rows)))
    name = texts.index("Speckle Mug")
    price = texts.index("$60.00")
    p = np.zeros(len(rows))
    p[name] = 0.82
    p[price] = 0.19
    for i, t in enumerate(texts):
        if t.startswith(("A wheel", "Holds about", "Size:", "Glaze:")):
            p[i] = 0.95
    return sel, rows, texts, price, blocks_keep.Judged(p=p, texts=texts)


def kept_texts(sel, texts, rows, page, on):
    opts = Options.from_overrides({"blocks_product_price": on})
    choice = blocks_keep.apply(sel.snap, sel.feats, opts, sel.scope, sel.element, page=page)
    kept = set(choice.kept.tolist())
    return [t for t, r in zip(texts, rows.tolist()) if r in kept and t]


def test_the_block_stage_keeps_the_price_beside_the_name():
    """The failure this fixes: the answer read the product's name and description
    without its price; with blocks_product_price the price is kept between them, and
    the related cards' prices stay out."""
    sel, rows, texts, price, page = judged_as_on_the_training_sites()
    assert sel.page_type[0] == prices.PRODUCT
    before = kept_texts(sel, texts, rows, page, False)
    after = kept_texts(sel, texts, rows, page, True)
    assert "Speckle Mug" in before and "$60.00" not in before
    assert after[:3] == ["Speckle Mug", "$60.00", before[1]]
    assert set(after) - set(before) == {"$60.00"}
    assert not any(f"${p}" in after for _, p in RELATED)


def test_a_page_of_another_type_keeps_its_decision(monkeypatch):
    """On a page the page type model calls anything but a product's (an article's price
    after its headline is a quote in a story), the decision stays the model's."""
    sel, rows, texts, price, page = judged_as_on_the_training_sites()
    monkeypatch.setattr(prices.pagetype, "classify", lambda *a, **k: ("article", 0.9))
    assert "$60.00" not in kept_texts(sel, texts, rows, page, True)


def test_after_name_keeps_only_a_short_price_between_the_kept_name_and_a_kept_line():
    keep = np.array([True, False, True, True, False, True, True, False, False])
    has_text = np.ones(9, np.bool_)
    named = np.array([True, False, False, True, False, False, False, False, False])
    texts = ["Speckle Mug", "$60.00", "A wheel thrown mug", "Ash Plate",
             "Free shipping on every order over $100, returns within 30 days", "Glaze",
             "Size", "$44.00", "In stock"]
    chars = np.array([len(t) for t in texts])
    out = prices.after_name(keep, has_text, named, chars, texts)
    # the price after the kept h1 with a kept line after it; not the long sentence after
    # the second name, not a price whose neighbours are no name
    assert out.tolist() == [False, True, False, False, False, False, False, False, False]


def test_after_name_leaves_a_price_at_the_edge_of_what_is_kept():
    """A price after the kept name followed by lines the model left out (the buy box's
    size picker, "Only 3 left") stays as decided: the truths of such pages leave it out
    as often as they keep it."""
    keep = np.array([True, False, False, True])
    has_text = np.ones(4, np.bool_)
    named = np.array([True, False, False, False])
    texts = ["Speckle Mug", "£114.90", "Select your size", "A wheel thrown mug"]
    out = prices.after_name(keep, has_text, named, np.array([len(t) for t in texts]), texts)
    assert not out.any()


def test_after_name_skips_text_less_blocks_and_needs_a_currency():
    keep = np.array([True, False, False, True, True, False, True])
    has_text = np.array([True, False, True, True, True, True, True])
    named = np.array([True, False, False, False, True, False, False])
    texts = ["Speckle Mug", "", "419,00€", "Your games", "Steam Deck", "Model 2024", "x"]
    out = prices.after_name(keep, has_text, named, np.array([len(t) for t in texts]), texts)
    assert out.tolist() == [False, False, True, False, False, False, False]


def test_price_reads_signs_and_codes_before_or_after_the_number():
    for text in ("$ 335.00", "€49.99 VAT included", "419,00€", "US $18.00", "From: £ 2.98",
                 "CHF 120.–", "1 299 kr", "₹2,499"):
        assert prices.PRICE.search(text), text
    for text in ("Only 3 left", "Model 2024", "Size 9.5", "Add to cart"):
        assert not prices.PRICE.search(text), text
