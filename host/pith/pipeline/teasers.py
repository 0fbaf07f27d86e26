"""Teaser lists: the cards after an article that link to other pages ("More TechCrunch", "Recent posts", "Most read"), which are not the article.

An article page ends its post with lists of teasers: cards, each a linked title (the
heading of another story, inside a link leading off the page) with its excerpt, date or
author. The block model judges an excerpt much as it judges the post's own paragraphs
(long sentences, few links), so the element of highest expected F1 grew over the cards,
and the reader got a dozen other stories after the post (issue 33: teaser lists kept
after the article). The post itself seldom shows a linked heading: its section headings
are plain, or link to a place on the page (a table of contents' anchors).

A teaser group (`groups`) is a row whose element children include at least MIN_CARDS
cards of one kind (same tag and class) holding at least CARD_SHARE of the row's visible
text; a card holds exactly one linked title (`linked_titles`), or is itself one link of
a title's length (a "Related" list's item). A post's body holding a few linked headings
or links among its paragraphs is no group: its paragraphs hold most of its text.

Decisions a change must keep (NOTES.md, 'Why teaser lists after the post are left out'):
- only on a page the page type model calls an article (pagetype.classify, the method's
  element; at least ARTICLE_P sure) that is not a forum's (posts.forum, which the caller
  passes in: a thread's posts carry linked titles too);
- a group is left out only when it trails the post: it starts after the headline (when
  headline.py finds one) and no block outside the groups after it is judged at least
  SURE. A listicle's cards ("10 DIY projects", each a linked heading and a paragraph)
  are followed by the post's closing paragraph, and stay;
- cards longer than a teaser (CARD_MAX_CHARS on average: a guide's sections) make no
  group, and cards outweighing the post POST_RATIO times are the page's content (an
  index under its intro line), unless the headline sits in an `article` element that
  holds the post and none of the trailing groups (`story`, option `auto_teasers_story`):
  the page itself says where its story ends, and a stream of other stories after a
  short story is not the page's content however long it runs (NOTES.md, 'Why a stream
  of other stories after a short story is left out');
- a left-out group's blocks, and its title (the heading just before it, `titles`), are
  judged no content for the element's choice and every later decision (select.choose_by_blocks, option `auto_teasers`), as a comment
  thread's are;
- on a page the page type model calls a product's, the same groups trailing the
  product's own kept lines (other products' cards: "You may also like", "Complete the
  look") are left out in the block stage, after the element's choice (`after_product`,
  option `blocks_product_teasers`, called by blocks.keep): judged no content before the
  choice, they moved a shop's element off its product (NOTES.md, 'Why the cards of other
  products after a product are left out');
- there, with `blocks_product_price_cards`, rows of cards that each show a price and link
  off the page count as groups too (`price_cards`: a carousel naming its items in plain
  headings beside a linked picture), and groups ending before the product's name (its
  kept h1) go too, with the heading introducing them (`before_name`, `introducing`);
  a product's own size or edition rows link nowhere else and make no such group
  (NOTES.md, 'Why other products' priced cards are left out').
"""
from __future__ import annotations

from typing import Callable

import numpy as np

from . import pagetype
from . import prices
from .links import away_links, linked
from .codes import first_seen
from .features import Features, tag_in
from .snapshot import Snapshot

HEADINGS = frozenset({"h1", "h2", "h3", "h4", "h5", "h6"})
# A card that is one link shows at least this many visible characters: another story's
# title, not a menu's one-word entry ("News", "Sport") or a "Read more" link.
MIN_TITLE_CHARS = 10
# A group has at least this many cards of one kind: "Related" lists show three or more;
# two linked headings side by side are a pair of links, not a list.
MIN_CARDS = 3
# The cards of one kind hold at least this share of the group's visible text: a list's
# heading ("More from the site") and its "see all" link are the rest. A post's body,
# whose paragraphs lie between its few linked headings, holds far less in them.
CARD_SHARE = 0.8
# Its cards hold at most this many visible characters on average: a teaser is a title
# and an excerpt of a sentence or two (techcrunch's cards 230, Yahoo's 150); a guide's
# sections, each under a linked product name, or a listing's recipe cards with their
# summaries run longer (850, 350 on the training sites).
CARD_MAX_CHARS = 300
# A block is the post's own text after a group when the block model judges it at least
# this likely content: its probabilities are calibrated, 0.5 is as likely as not (the
# forum posts' bar too, posts.SURE).
SURE = 0.5
# The left-out cards' expected text (probability times characters) is at most this many
# times the post's (its blocks judged at least SURE, outside the groups, after the
# headline): a story trails up to a few times its own length in cards (techcrunch 3x);
# cards outweighing their "post" tenfold are the page's content under a one-line intro
# (a recipe index the page type model calls an article, 27x on the training sites).
POST_RATIO = 10.0
# Tags that bound one story: the headline's nearest such ancestor holding the post and no
# trailing group says the cards after it are not the story's (a short news brief over
# Yahoo's "more stories" stream, 20 times its length: `story`).
STORY_TAGS = frozenset({"article"})
# The page type whose pages end their post with teasers (pagetype.CLASSES): a listing's,
# a collection's or a service page's cards are its content.
ARTICLE = "article"
# ... when the model gives it at least this probability: the model's probabilities are
# calibrated (a logistic regression), and under one half the page is more likely some
# other type (a course index whose cards are its content, called an article at 0.49).
ARTICLE_P = 0.5
# The page type whose item is followed by other items' cards ("You may also like",
# "Complete the look", "Check out these matching designs"): a shop's related products, each
# a linked name and a price, which the block model judges as it judges the product's own
# short lines (option blocks_product_teasers, `after_product`).
PRODUCT = "product"
# A product's name is its page's h1 (`before_name`): other items' cards above it are no
# part of it.
H1 = frozenset({"h1"})
# A product card (`price_cards`) shows its item's price on at most this many lines (a
# price, a struck earlier price, a unit price): the product's own comparison grid or
# a spec table shows one per row too, but no link leading off the page in each row.
CARD_MAX_PRICES = 3
# A product card shows its item's picture (`price_cards`); a booking's or a plan's rows
# (a date, a price, "Book on Airbnb") show a price and a link off the page but none.
PICTURE_TAGS = frozenset({"img", "picture"})
# Joins the short blocks' texts for one price search (`price_cards`): no price pattern
# (prices.PRICE: signs, codes, digits, spaces) matches across it.
SEPARATOR = "\x00"


def left_out(snap: Snapshot, feats: Features, blocks, top: int, p: np.ndarray,
             node: int, forum: Callable[[Snapshot], bool], by_story: bool = True
             ) -> np.ndarray:
    """`after_post` on a page the rule `applies` to (`node` the method's element, `forum`
    posts.forum), `p` as it is on any other; the page type is asked for only when a
    group trails the post (it costs a millisecond on a page whose headline did not ask
    for it already)."""
    out = after_post(snap, feats, blocks, top, p, by_story=by_story)
    return out if out is not p and applies(snap, feats, node, forum) else p


def applies(snap: Snapshot, feats: Features, node: int,
            forum: Callable[[Snapshot], bool]) -> bool:
    """Whether the page is an article by the page type model (`node` the method's
    element), at least ARTICLE_P sure, and not a forum's thread (`forum`: posts.forum,
    passed in by the caller: posts reads the comment threads, which read the block
    stage, which reads this module's `after_product`)."""
    kind = pagetype.classify(snap, feats, node)
    return (kind is not None and kind[0] == ARTICLE and kind[1] >= ARTICLE_P
            and not forum(snap))


def linked_titles(snap: Snapshot, feats: Features) -> np.ndarray:
    """Bool per row: a visible heading whose text is a link leading off the page
    (`linked`)."""
    return tag_in(snap, HEADINGS) & ~feats.gone & linked(snap, feats)


def groups(snap: Snapshot, feats: Features) -> np.ndarray:
    """The outermost teaser groups (rows, document order): rows with at least MIN_CARDS
    alike cards (same tag and class) holding at least CARD_SHARE of the row's visible
    text. A card holds one linked title (`linked_titles`), or is one link itself, at
    least MIN_TITLE_CHARS long, with no linked title in it (a list item that is another
    story's title). Found once a page (after_post and after_product both ask)."""
    return feats.memo(("teaser_groups",), lambda: _groups(snap, feats))


def _groups(snap: Snapshot, feats: Features) -> np.ndarray:
    titled = linked_titles(snap, feats)
    count = snap.subtree_sum(titled)
    parent = snap.parent
    link = linked(snap, feats) & (feats.chars >= MIN_TITLE_CHARS) & (count == 0)
    card = np.flatnonzero(((count == 1) | link) & (parent >= 0) & (feats.chars > 0))
    if len(card) < MIN_CARDS:
        return np.zeros(0, np.int64)
    # alike: the same parent, tag and class (the page's tag and class codes), counted
    # by one sort, no tuple a card (NOTES.md, 'Why the line rules search a page's texts
    # at once')
    keys = (snap.string_codes("cls")[0][card], snap.tag_codes()[0][card], parent[card])
    order = np.lexsort(keys)
    step = np.zeros(len(card), np.bool_)      # a new kind starts here, in sorted order
    step[0] = True
    for key in keys:
        ordered = key[order]
        step[1:] |= ordered[1:] != ordered[:-1]
    run = np.cumsum(step) - 1
    alike = np.zeros(len(card), np.bool_)
    alike[order] = np.bincount(run)[run] >= MIN_CARDS
    alike = card[alike]
    cards = np.bincount(parent[alike], minlength=snap.n)
    held = np.bincount(parent[alike], weights=feats.chars[alike], minlength=snap.n)
    group = ((cards >= MIN_CARDS) & (held >= CARD_SHARE * feats.chars) & (feats.chars > 0)
             & (held <= CARD_MAX_CHARS * cards))
    return np.flatnonzero(group & ~snap.below(group))


def price_cards(snap: Snapshot, feats: Features, rows: np.ndarray, has_text: np.ndarray,
                chars: np.ndarray, texts: list[str]) -> np.ndarray:
    """The outermost groups of other products' cards (rows, document order) among the
    blocks `rows` (`texts` their texts, `chars` their visible characters): rows with at
    least MIN_CARDS alike cards (same tag) holding at least CARD_SHARE of the row's
    visible text, a card holding 1 to CARD_MAX_PRICES price lines (a text block of at
    most prices.PRICE_MAX_CHARS characters matching prices.PRICE), a link leading off
    the page (its item's page) and a picture (PICTURE_TAGS). A shop's carousels name
    their items in headings that are no link ("People who viewed this item also viewed"
    on eBay, the name beside a linked picture), so `groups` misses them; the price says
    they are items for sale (NOTES.md, 'Why other products' priced cards are left out')."""
    short = np.flatnonzero(has_text & (chars <= prices.PRICE_MAX_CHARS))
    if not len(short):
        return np.zeros(0, np.int64)
    # one regex pass over the short blocks' texts joined by a character no price
    # spans (neither a digit, a sign nor a space), each match's start mapped back
    joined = SEPARATOR.join(texts[i] for i in short.tolist())
    starts = [m.start() for m in prices.PRICE.finditer(joined)]
    if not starts:
        return np.zeros(0, np.int64)
    lengths = np.array([len(texts[i]) + 1 for i in short.tolist()])
    ends = np.cumsum(lengths)
    line = np.zeros(snap.n, np.bool_)
    line[rows[short[np.searchsorted(ends, starts, side="right")]]] = True
    count = snap.subtree_sum(line)
    away = snap.subtree_sum(feats.memo(("away_links",), lambda: away_links(snap)))
    pictured = snap.subtree_sum(tag_in(snap, PICTURE_TAGS))
    parent = snap.parent
    card = np.flatnonzero((count >= 1) & (count <= CARD_MAX_PRICES) & (away >= 1)
                          & (pictured >= 1) & (parent >= 0) & (feats.chars > 0))
    if len(card) < MIN_CARDS:
        return np.zeros(0, np.int64)
    # alike by tag alone: a carousel marks its first (or shown) slide with a class of
    # its own, and the price and the link already say what a card is
    kind = first_seen(zip(parent[card].tolist(), snap.tag[card].tolist()), len(card))
    alike = card[np.bincount(kind, minlength=len(card))[kind] >= MIN_CARDS]
    cards = np.bincount(parent[alike], minlength=snap.n)
    held = np.bincount(parent[alike], weights=feats.chars[alike], minlength=snap.n)
    group = (cards >= MIN_CARDS) & (held >= CARD_SHARE * feats.chars) & (feats.chars > 0)
    return np.flatnonzero(group & ~snap.below(group))


def after_post(snap: Snapshot, feats: Features, blocks, top: int, p: np.ndarray,
               sure: float = SURE, by_story: bool = True) -> np.ndarray:
    """`p` (per block of `blocks`) with the teaser groups that trail the post judged no
    content: groups starting after the headline `top` (-1: none found) with no block
    outside the groups after them judged at least `sure`; `p` as it is when their
    expected text is over POST_RATIO times the post's, unless `by_story` (option
    auto_teasers_story) and they lie outside the headline's story (`story`)."""
    rows = groups(snap, feats)
    rows = rows[rows > top]
    if not len(rows):
        return p
    at = blocks.rows
    grouped = snap.subtrees(rows)[at]
    post = np.flatnonzero(~grouped & (p >= sure) & (at > top) & (blocks.chars > 0))
    last = int(at[post[-1]]) if len(post) else top
    trailing = rows[snap.end[rows] > last]
    if not len(trailing):
        return p
    out = snap.subtrees(trailing)[at]
    # cards outweighing the post by an order of magnitude are what the page is about
    weight = p * blocks.chars
    if (weight[out].sum() > POST_RATIO * weight[post].sum()
            and not (by_story and story(snap, top, at[post], trailing) >= 0)):
        return p
    out |= snap.subtrees(titles(snap, feats, trailing))[at]
    return np.where(out, 0.0, p)


def story(snap: Snapshot, top: int, post: np.ndarray, groups: np.ndarray) -> int:
    """The headline `top`'s nearest ancestor of STORY_TAGS (an `article` element) when it
    holds every row of `post` (the post's blocks, at least one) and none of the rows
    `groups`; -1 otherwise, or without a headline (NOTES.md, 'Why a stream of other
    stories after a short story is left out')."""
    if top < 0 or not len(post):
        return -1
    around = np.flatnonzero(tag_in(snap, STORY_TAGS) & (np.arange(snap.n) <= top)
                            & (snap.end > top))
    if not len(around):
        return -1
    row = int(around[-1])                  # the nearest: ancestors come in document order
    end = snap.end[row]
    inside = (post >= row) & (post < end)
    outside = (groups < row) | (groups >= end)
    return row if inside.all() and outside.all() else -1


def titles(snap: Snapshot, feats: Features, rows: np.ndarray) -> np.ndarray:
    """The list titles of the groups `rows`: each group's nearest earlier element sibling
    with visible text, when it is a heading ("More from the Gazette" above its cards). A
    group's title goes with it; left behind, it would end the article on another list's
    name."""
    out = []
    for row in rows.tolist():              # a page's trailing groups: a handful
        parent = int(snap.parent[row])
        if parent < 0:
            continue
        before = snap.children(parent)
        before = before[(before < row) & (feats.chars[before] > 0)]
        if len(before) and snap.tag[before[-1]] in HEADINGS and not feats.gone[before[-1]]:
            out.append(int(before[-1]))
    return np.array(out, np.int64)


def after_product(snap: Snapshot, feats: Features, node: int, rows: np.ndarray,
                  keep: np.ndarray, has_text: np.ndarray, chars: np.ndarray,
                  p: np.ndarray, texts: list[str] | None = None,
                  all_lines: bool = False, tail: int = 0) -> np.ndarray:
    """`keep` (per block of the block stage's scope, `rows` their rows in document order,
    `chars` their visible characters, `p` their probabilities, `texts` their texts) without
    the teaser groups (`groups`; with `texts`, the priced cards of `price_cards` too) that
    start after the product's last kept line of its own (a kept text block outside every
    group judged at least SURE), nor their titles, and (with `texts`) without the groups
    that end before the product's name (`before_name`) nor the headings introducing them,
    on a page the page type model calls a product's (`node` the method's element); `keep`
    as it is on any other page, when the product keeps no such line, or when the kept
    cards outweigh it POST_RATIO times (a listing the page type model took for a
    product; with `all_lines`, every kept text block of its own outside groups and
    headings weighed, not only those judged at least SURE). With `tail`, the product's
    last `tail` lines of its own do not hold back the groups before them when they hold
    less text than those groups' kept cards (`closing`). The page type is asked for
    only when a kept group is found so (NOTES.md, 'Why the cards of other products after
    a product are left out'; NOTES.md, 'Why other products' priced cards are left
    out'; NOTES.md, 'Why a buy box's last line does not hold other products' cards')."""
    found = groups(snap, feats)
    if texts is not None:
        found = outermost(snap, np.concatenate(
            (found, price_cards(snap, feats, rows, has_text, chars, texts))))
    if not len(found):
        return keep
    grouped = snap.subtrees(found)[rows]
    heads = tag_in(snap, HEADINGS)
    heading = (heads | snap.below(heads))[rows]
    own = np.flatnonzero(keep & has_text & ~grouped & ~heading & (p >= SURE))
    if not len(own):
        return keep
    # the listing guard: the cards against the product's sure lines, or (`all_lines`)
    # every kept line of its own
    most = POST_RATIO * (chars[keep & has_text & ~grouped & ~heading].sum() if all_lines
                         else chars[own].sum())
    last = closing(snap, found, rows, keep & has_text, chars, own, tail)
    trailing = found[found > last]
    out = (snap.subtrees(trailing)[rows] & keep if len(trailing)
           else np.zeros(len(rows), np.bool_))
    if chars[out & has_text].sum() > most:
        out[:] = False
    lead = np.zeros(len(rows), np.bool_)
    if texts is not None:
        lead = before_name(snap, found, rows, keep)
        if chars[lead & has_text].sum() > most:
            lead[:] = False
    if not (out | lead).any():
        return keep
    kind = pagetype.classify(snap, feats, node)
    if kind is None or kind[0] != PRODUCT:
        return keep
    # the headings between the product's last line and the last trailing group: the
    # lists' titles ("Complete the look", "Better together")
    if out.any():
        out |= heading & (rows > last) & (rows < snap.end[trailing].max())
    if lead.any():
        out |= lead | introducing(keep & has_text, heading, lead)
    return keep & ~out


def closing(snap: Snapshot, found: np.ndarray, rows: np.ndarray, kept: np.ndarray,
            chars: np.ndarray, own: np.ndarray, tail: int) -> int:
    """The row of the product's last line of its own that other products' cards may not
    follow: `rows[own[-1]]`, or, for the most lines k up to `tail`, the line k lines
    before it when groups of `found` lie between that line and the next of its own, and
    the last k lines (`own`: the product's own sure lines, indices into `rows`) hold
    fewer characters than the kept blocks (`kept`, `chars`) of the groups after that
    line: a stock note or a delivery line closing the buy box after a row of other
    products says less than the cards, and is no description going on past them
    (NOTES.md, 'Why a buy box's last line does not hold other products' cards')."""
    last = int(rows[own[-1]])
    for k in range(min(tail, len(own) - 1), 0, -1):
        cut, first = int(rows[own[-1 - k]]), int(rows[own[-k]])
        if not ((found > cut) & (snap.end[found] <= first)).any():
            continue
        cards = snap.subtrees(found[(found > cut) & (snap.end[found] <= last)])[rows] & kept
        if chars[own[-k:]].sum() < chars[cards].sum():
            return cut
    return last


def outermost(snap: Snapshot, found: np.ndarray) -> np.ndarray:
    """The rows `found` that lie inside no other of them, in document order."""
    mask = np.zeros(snap.n, np.bool_)
    mask[found] = True
    return np.flatnonzero(mask & ~snap.below(mask))


def before_name(snap: Snapshot, found: np.ndarray, rows: np.ndarray,
                keep: np.ndarray) -> np.ndarray:
    """Per block (`rows`, `keep` as decided): kept blocks inside the groups `found` that
    end before the first kept block of an h1 (the product's name: what the page sells
    starts there; a row of other items above it is "recently viewed" or "people who
    viewed this item also viewed", eBay's first carousel). None without a kept h1."""
    h1 = tag_in(snap, H1)
    named = np.flatnonzero(keep & (h1 | snap.below(h1))[rows])
    if not len(named):
        return np.zeros(len(rows), np.bool_)
    ahead = found[snap.end[found] <= rows[named[0]]]
    if not len(ahead):
        return np.zeros(len(rows), np.bool_)
    return snap.subtrees(ahead)[rows] & keep


def introducing(text: np.ndarray, heading: np.ndarray, out: np.ndarray) -> np.ndarray:
    """Per block: a heading block among `text` (kept text blocks) whose next kept text
    block that is no heading is `out`: the heading introduces what goes ("People who
    viewed this item also viewed" above its carousel, in a wrapper of its own)."""
    body = np.flatnonzero(text & ~heading)
    heads = np.flatnonzero(text & heading)
    after = np.searchsorted(body, heads)
    ok = after < len(body)
    res = np.zeros(len(text), np.bool_)
    res[heads[ok][out[body[after[ok]]]]] = True
    return res
