"""A product's price beside its name: on a product page, the price line between the kept h1 naming the product and a kept line is kept too.

A shop's product page names the product in its h1 and shows the price on the next line;
a reader keeps the two together, name then price (as 22 of WCXB's 78 training product
truths do; the others leave every price out). The block model, fitted over every page
type, judges a bare "$60.00" as it judges the many prices of a page's cards, carousels
and cart drawers (0.19 and 0.55 likely content on the training pages this rule mends),
and left the price out between a kept name and a kept description: the reader got the
product's name and text without what it costs.

Decisions a change must keep (NOTES.md, 'Why a product's price stays beside its name'):
- only on a page the page type model calls a product's (pagetype.classify, the method's
  element; its most likely class): a listing's prices are its cards', which the listing
  rules judge (cards.py);
- only the text block right after a kept block inside an h1 (the next text block in
  reading order): the name's own price, not a related item's card further down, whose
  name is no h1;
- only when the next text block is kept too: the price then lies inside what the reader
  gets (name, price, description); a price followed by the buy box's widgets the model
  left out (a size picker, "Only 3 left") sits at the edge of it, and WCXB's truths
  leave that one out as often as they keep it (measured on the training sites: with the
  next block not asked, 2 sites up and 4 down);
- only a line that is a price: at most PRICE_MAX_CHARS visible characters holding a
  currency sign or code beside a number ("$ 335.00", "€49.99 VAT included", "419,00€");
  a sentence about prices ("Free shipping on orders over $50, and ...") is longer.
"""
from __future__ import annotations

import re

import numpy as np

from . import pagetype
from .features import Features, tag_in
from .snapshot import Snapshot

# The page type (pagetype.CLASSES) whose h1 names the one thing the page sells.
PRODUCT = "product"
# The product's name is the page's h1 (a related item's card names it in an h2-h4 or a link).
H1 = frozenset({"h1"})
# A price line is a price and a word or two ("VAT included", "Excl. tax", "Sale price");
# a longer line is a sentence (a shipping offer, a payment plan's terms).
PRICE_MAX_CHARS = 40
# A currency sign, or a currency's code, before or after a number.
_CURRENCY = (r"(?:[$€£¥₹₩₽₺₪฿₫₴₦]|\b(?:USD|EUR|GBP|CHF|CAD|AUD|NZD|JPY|CNY|SEK|NOK|DKK|PLN|"
             r"CZK|HUF|INR|BRL|MXN|kr|zł|Kč|Rs)\b)")
PRICE = re.compile(rf"{_CURRENCY}\s?\d|\d[\d.,\s]*\s?{_CURRENCY}")


def after_name(keep: np.ndarray, has_text: np.ndarray, named: np.ndarray,
               chars: np.ndarray, texts: list[str]) -> np.ndarray:
    """Per block (in reading order, `texts` their texts): a text block right after a kept
    text block that is `named` (inside an h1) and right before a kept text block, of at
    most PRICE_MAX_CHARS `chars`, whose text is a price (PRICE)."""
    text = np.flatnonzero(has_text)
    out = np.zeros(len(keep), np.bool_)
    if len(text) < 3:
        return out
    prev, mid, nxt = text[:-2], text[1:-1], text[2:]
    out[mid] = (keep[prev] & named[prev] & keep[nxt]
                & (chars[mid] <= PRICE_MAX_CHARS))
    at = np.flatnonzero(out)        # at most a few per page: the regex reads those only
    out[at] = [PRICE.search(texts[i]) is not None for i in at.tolist()]
    return out


def beside_name(snap: Snapshot, feats: Features, node: int, rows: np.ndarray,
                keep: np.ndarray, has_text: np.ndarray, chars: np.ndarray,
                texts: list[str]) -> np.ndarray:
    """`keep` (per block, `rows` their rows in reading order) with the price `after_name`
    kept too, on a page the page type model calls a product's (`node` the method's
    element); `keep` as it is on any other page."""
    h1 = tag_in(snap, H1)
    if not h1.any():
        return keep
    named = (h1 | snap.below(h1))[rows]
    add = after_name(keep, has_text, named, chars, texts) & ~keep
    if not add.any():
        return keep
    kind = pagetype.classify(snap, feats, node)
    if kind is None or kind[0] != PRODUCT:
        return keep
    return keep | add
