"""Teaser lists: the cards after an article that link to other pages ("More TechCrunch", "Recent posts", "Most read"), which are not the article.

An article page ends its post with lists of teasers: cards, each a linked title (the
heading of another story, inside a link leading off the page) with its excerpt, date or
author. The block model judges an excerpt much as it judges the post's own paragraphs
(long sentences, few links), so the element of highest expected F1 grew over the cards,
and the reader got a dozen other stories after the post (issue 33: teaser lists kept
after the article). The post itself seldom shows a linked heading: its section headings
are plain, or link to a place on the page (a table of contents' anchors).

A teaser group (`groups`) is a row whose element children include at least MIN_CARDS
cards of one kind (same tag and class) — a card is a child holding exactly one linked
title (`linked_titles`) — and those cards hold at least CARD_SHARE of the row's visible
text (a post's body holding a few linked headings among its paragraphs is no group).

Decisions a change must keep (NOTES.md, 'Why teaser lists after the post are left out'):
- only on a page the page type model calls an article (pagetype.classify, the method's
  element; at least ARTICLE_P sure) that is not a forum's (posts.forum: a thread's posts have linked titles too),
  and only with its headline found (headline.py): the teasers are what follows the post;
- a group is left out only when it trails the post: no block outside the groups after
  it is judged at least SURE. A listicle's cards ("10 DIY projects", each a linked
  heading and a paragraph) are followed by the post's closing paragraph, and stay;
- a left-out group's blocks are judged no content for the element's choice and every
  later decision (select.choose_by_blocks, option `auto_teasers`), as a comment thread's are.
"""
from __future__ import annotations

import numpy as np

from . import pagetype, posts
from .codes import first_seen
from .features import Features, tag_in
from .snapshot import Snapshot

HEADINGS = frozenset({"h1", "h2", "h3", "h4", "h5", "h6"})
# A heading is a linked title when at least this share of its visible text lies inside
# links leading off the page (or it lies inside one): a title made a link whole, with
# room for a counter or an icon's label beside it.
LINKED_SHARE = 0.8
# A group has at least this many cards of one kind: "Related" lists show three or more;
# two linked headings side by side are a pair of links, not a list.
MIN_CARDS = 3
# The cards of one kind hold at least this share of the group's visible text: a list's
# heading ("More from the site") and its "see all" link are the rest. A post's body,
# whose paragraphs lie between its few linked headings, holds far less in them.
CARD_SHARE = 0.8
# A block is the post's own text after a group when the block model judges it at least
# this likely content: its probabilities are calibrated, 0.5 is as likely as not (the
# forum posts' bar too, posts.SURE).
SURE = 0.5
# The page type whose pages end their post with teasers (pagetype.CLASSES): a listing's,
# a collection's or a service page's cards are its content.
ARTICLE = "article"
# ... when the model gives it at least this probability: the model's probabilities are
# calibrated (a logistic regression), and under one half the page is more likely some
# other type (a course index whose cards are its content, called an article at 0.49).
ARTICLE_P = 0.5


def applies(snap: Snapshot, feats: Features, node: int) -> bool:
    """Whether the page is an article by the page type model (`node` the method's
    element), at least ARTICLE_P sure, and not a forum's thread (posts.forum)."""
    kind = pagetype.classify(snap, feats, node)
    return (kind is not None and kind[0] == ARTICLE and kind[1] >= ARTICLE_P
            and not posts.forum(snap))


def away_links(snap: Snapshot) -> np.ndarray:
    """Bool per row: a link (`a`/`area` with an href) leading off the page, not to a
    place on it (`#section`, the page's own address with a fragment)."""
    rows = np.flatnonzero(snap.link > 0)
    out = np.zeros(snap.n, np.bool_)
    if not len(rows):
        return out
    page = str(snap.meta.get("url") or "").partition("#")[0]
    urls = snap.url[rows].tolist()
    here = [u.startswith("#") or (("#" in u) and u.partition("#")[0] == page) for u in urls]
    out[rows[~np.array(here, np.bool_)]] = True
    return out


def linked_titles(snap: Snapshot, feats: Features) -> np.ndarray:
    """Bool per row: a visible heading whose text is a link leading off the page (at least
    LINKED_SHARE of its characters inside such links, or the heading inside one)."""
    away = away_links(snap)
    if not away.any():
        return away
    inside = away | snap.below(away)
    linked = snap.subtree_sum(np.where(inside & ~feats.gone, feats.own_chars, 0))
    head = tag_in(snap, HEADINGS) & ~feats.gone & (feats.chars > 0)
    return head & (inside | (linked >= LINKED_SHARE * feats.chars))


def groups(snap: Snapshot, feats: Features) -> np.ndarray:
    """The outermost teaser groups (rows, document order): rows with at least MIN_CARDS
    alike cards (same tag and class, each holding one linked title) holding at least
    CARD_SHARE of the row's visible text."""
    titled = linked_titles(snap, feats)
    if int(titled.sum()) < MIN_CARDS:
        return np.zeros(0, np.int64)
    parent = snap.parent
    card = np.flatnonzero((snap.subtree_sum(titled) == 1) & (parent >= 0) & (feats.chars > 0))
    kind = first_seen(zip(parent[card].tolist(), snap.tag[card].tolist(),
                          snap.cls[card].tolist()), len(card))
    alike = card[np.bincount(kind, minlength=len(card))[kind] >= MIN_CARDS]
    cards = np.bincount(parent[alike], minlength=snap.n)
    held = np.bincount(parent[alike], weights=feats.chars[alike], minlength=snap.n)
    group = (cards >= MIN_CARDS) & (held >= CARD_SHARE * feats.chars) & (feats.chars > 0)
    return np.flatnonzero(group & ~snap.below(group))


def after_post(snap: Snapshot, feats: Features, blocks, top: int, p: np.ndarray,
               sure: float = SURE) -> np.ndarray:
    """`p` (per block of `blocks`) with the teaser groups that trail the post judged no
    content: groups starting after the headline `top` with no block outside the groups
    after them judged at least `sure`."""
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
    return np.where(snap.subtrees(trailing)[at], 0.0, p)
