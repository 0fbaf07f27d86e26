"""The headline: the heading row that shows the page's own title, the anchor of where the post starts.

A page states its title twice: in the head (`<title>`, `og:title`, `twitter:title`) and,
on an article, a blog post or a forum thread, in a heading over the post ("Yesterday's
over" under "Seth's Blog: Yesterday's over"). A sidebar's list or a comment thread beside
the post does not show the page's own title in a heading. The candidates (`matches`) are
the visible h1–h6 whose folded text is a declared title, or its first or last part at a
title separator (SEPARATORS), of at least MIN_CHARS folded characters; the headline
(`find`) is the one showing the longest title, when the block model would keep it (an h1
showing the whole title or its longest part needs no such word) and no other h1 above it
shows a text no title holds.

With a headline (select.py, option `auto_headline`; not on product pages, NOT_POSTS),
auto's element is chosen with the blocks before it judged no content (`from_top`), and
it is the best element by expected F1 of the whole page when that lies inside the best
element holding the headline, else that best holder (`anchored`): on a short post beside
a longer sidebar list or comment thread, the best element of the whole page was the
longer neighbour or the column holding both (issue 33's wrong part). Once the element is
chosen, the headline is certain content for the block stage (`as_content`). Decisions and
figures: NOTES.md, 'Why the element holds the headline'. An answer showing the headline
alone (`alone`) is the headline's post instead (`post`; select.whole_post, NOTES.md, 'Why
a post is more than its headline').
"""
from __future__ import annotations

import numpy as np

from . import pagetype
from .blocks import expected, segment
from .features import Features, tag_in
from .metadata import dates, shown
from .metadata.merge import TITLE_SEPARATORS, fold, title_parts
from .snapshot import Snapshot

HEADINGS = frozenset({"h1", "h2", "h3", "h4", "h5", "h6"})
H1 = frozenset({"h1"})
# The <meta> names that declare the page's title besides <title> (tags.py reads more for
# the metadata; these are the ones written for a page's own headline).
TITLE_META = frozenset({"og:title", "twitter:title"})
# Where a title splits into its headline and the site's name: metadata.merge's separators
# and a colon without a space before it ("Seth's Blog: Yesterday's over"), which the
# metadata does not cut (a title's own colon, "Covid: what we know", is as often its own).
SEPARATORS = TITLE_SEPARATORS + (": ",)
# A headline has at least this many folded characters: a two-word title ("Home", "Blog",
# "News") names a section and is a heading of many pages' furniture.
MIN_CHARS = 12
# A heading longer than this is a paragraph set as a heading, not a title: not read.
MAX_CHARS = 400
# Page types (pagetype.CLASSES) whose content does not start at the headline: a product
# page's gallery and price sit before or beside its name's heading (WCXB's product pages
# label the gallery's captions and the offers content).
NOT_POSTS = frozenset({"product"})
# A post shown as its headline alone (`post`) holds at most this share of the page's
# visible text: more, the headline's nearest container with other text is the page's
# column or body, and keeping it whole would read its sidebars and teasers too.
POST_MAX_SHARE = 0.5
# Headings read at most (each costs its subtree's text): a page of thousands of headings
# is a listing, whose first ones are read.
MAX_HEADINGS = 400
# The block stage's scope moves up to the row holding the headline and the scope when that
# row holds at most this many times their text: the headline's row adds a date line or a
# share row (a Typepad entry: 191 characters over 151), not a column of other posts
# (NOTES.md, 'Why the headline beside the post's body is read with it').
SCOPE_SHARE = 1.5
# Words of a date line an answer may keep beside the headline and still show it `alone`
# ("| November 12th 2012", "Posted by Ines on 14 October 2012"): posts.META_WORDS, the
# words of a board's author and date line.
DATE_LINE_WORDS = 8


def _declared(snap: Snapshot) -> list[str]:
    """The page's declared titles: <title> and TITLE_META."""
    declared = snap.meta.get("declared") or {}
    raw = [str(snap.meta.get("title") or "")]
    return raw + [str(c) for _row, key, c in declared.get("meta") or () if key in TITLE_META and c]


def posts(snap: Snapshot, feats: Features, node: int) -> bool:
    """Whether the page is one whose content starts at its headline: it shows one
    (`matches`) and its type (pagetype.classify, `node` the method's element) is not one
    of NOT_POSTS; without a page type model, every page showing a headline."""
    if not len(matches(snap, feats)):
        return False
    kind = pagetype.classify(snap, feats, node)
    return kind is None or kind[0] not in NOT_POSTS


def titles(snap: Snapshot) -> set[str]:
    """The folded titles the page declares and their first and last parts at a title
    separator, each of at least MIN_CHARS characters."""
    out: set[str] = set()
    for title in _declared(snap):
        out.add(fold(title))
        for sep in SEPARATORS:
            if sep in title:
                parts = title.split(sep)
                out.update((fold(parts[0]), fold(parts[-1])))
    return {t for t in out if len(t) >= MIN_CHARS}


def matches(snap: Snapshot, feats: Features) -> np.ndarray:
    """The visible headings (h1–h6, at most MAX_HEADINGS) whose folded text is one of the
    page's `titles`, document order."""
    return feats.memo(("headline_rows",), lambda: _matches(snap, feats))


def _matches(snap: Snapshot, feats: Features) -> np.ndarray:
    wanted = titles(snap)
    if not wanted:
        return np.zeros(0, np.int64)
    rows = np.flatnonzero(tag_in(snap, HEADINGS) & ~feats.gone & (feats.chars >= MIN_CHARS)
                          & (feats.chars <= MAX_CHARS))[:MAX_HEADINGS]
    return np.array([r for r in rows.tolist() if fold(shown.text_of(snap, r)) in wanted],
                    np.int64)


def find(snap: Snapshot, feats: Features, blocks, p: np.ndarray, floor: float) -> int:
    """The headline: of the headings that show the page's title (`matches`), the one
    showing the longest title, then the highest level, then the first, when the block
    model (`p`, per block of `blocks`) judges it at least `floor` (its own keep
    threshold) or it is an h1 showing the whole title or its longest part (`_own_titles`);
    -1 otherwise. The site's name in a banner ("Seth's Blog" of "Seth's Blog:
    Yesterday's over") and the post's title in a "Most popular" list beside another post
    show a title too, and the model judges them boilerplate (NOTES.md, 'Why the element
    holds the headline')."""
    rows = matches(snap, feats)
    if not len(rows):
        return -1
    at = blocks.index(snap.n)[rows]         # a heading is a block of its own (segment.ATOMIC)
    if not (at >= 0).any():
        return -1
    rows, score = rows[at >= 0], p[at[at >= 0]]
    # the longest title shown wins (a site's name is a part of the title, its headline the
    # rest or the whole), then the higher heading (h1 over a list's h5), then the first
    texts = [fold(shown.text_of(snap, r)) for r in rows.tolist()]
    size = np.array([len(t) for t in texts])
    level = np.array([int(snap.tag[r][1]) for r in rows.tolist()])
    best = np.lexsort((rows, level, -size))[0]
    sure = level[best] == 1 and texts[best] in _own_titles(snap)
    if (score[best] < floor and not sure) or _titled_before(snap, feats, int(rows[best])):
        return -1
    return int(rows[best])


def _own_titles(snap: Snapshot) -> set[str]:
    """The folded declared titles, whole, and each one's longest part at a title
    separator: what the page's own headline shows (a banner shows the site's part,
    usually the shorter: "Yahoo! Sports" of "Article title - Yahoo! Sports")."""
    out: set[str] = set()
    for title in _declared(snap):
        out.add(fold(title))
        out.add(max(map(fold, title_parts(title, SEPARATORS)), key=len, default=""))
    return {t for t in out if len(t) >= MIN_CHARS}


def _titled_before(snap: Snapshot, feats: Features, row: int) -> bool:
    """Whether a visible h1 before `row` shows a text that no declared title holds: the
    page's own headline is that h1 (a site's name in its banner is a part of the title),
    and a heading showing the title further down is a section of the post ("How does
    mapping work" under "How do vacuum robots navigate?"), not where it starts."""
    whole = [fold(t) for t in _declared(snap)]
    firsts = np.flatnonzero(tag_in(snap, H1) & ~feats.gone & (feats.chars > 0))
    for r in firsts[firsts < row][:MAX_HEADINGS].tolist():
        text = fold(shown.text_of(snap, r))
        if text and not any(text in t for t in whole):
            return True
    return False


def holders(snap: Snapshot, row: int) -> np.ndarray:
    """Bool per row: `row` and its ancestors."""
    return (np.arange(snap.n) <= row) & (snap.end > row)


def from_top(snap: Snapshot, blocks, row: int, p: np.ndarray) -> np.ndarray:
    """`p` (per block) with the blocks that end before the headline `row` in document
    order judged no content: what precedes the post's headline is not the post (a block
    holding the headline, a post's own text beside its heading, is not before it)."""
    return np.where(snap.end[blocks.rows] <= row, 0.0, p)


def as_content(snap: Snapshot, blocks, row: int, p: np.ndarray) -> np.ndarray:
    """`p` (per block) with the headline `row`'s block certain content: once the element is
    chosen, the block stage keeps the post's title wherever the element holds it (the
    model, which knows nothing of the page's title, may judge a Typepad `h3` under its
    threshold). Not before the choice: as certain content there it pulled the element up
    to the headline's container, lower on the training sites (NOTES.md, 'Why the block
    model is retrained on dragnet_train and magic_html')."""
    at = blocks.index(snap.n)[row]
    if at < 0:
        return p
    out = p.copy()
    out[at] = 1.0
    return out


def anchored(snap: Snapshot, blocks, p: np.ndarray, top: int) -> int | None:
    """auto's element given the headline `top` (`p`: per block, those before the headline
    already 0, `from_top`): the best element of the whole page by expected F1
    (expected.choose) when it lies inside the best of those holding the headline (the
    post's body, its headline in a header just above it: the block stage's widening
    takes the headline in where the page's truth has it); else, the best element lying
    elsewhere (a sidebar's list, a comment thread beside a short post) or holding far
    more than the post (the page's column), that best holder."""
    within = expected.choose(snap, blocks, p, holders(snap, top))
    best = expected.choose(snap, blocks, p)
    if within is None or best is None or within <= best < snap.end[within]:
        return best
    return within


def alone(snap: Snapshot, blocks, kept: np.ndarray | None, row: int) -> bool:
    """Whether the block rows `kept` (an answer's) show no text but the headline `row`'s
    block and date lines (blocks of at most DATE_LINE_WORDS words holding a date)."""
    if kept is None or not len(kept):
        return False
    at = blocks.index(snap.n)
    own = at[row]
    pos = at[kept]
    text = pos[(pos >= 0) & (blocks.chars[np.maximum(pos, 0)] > 0)]
    if own < 0 or not (text == own).any():
        return False
    others = np.unique(text[text != own])
    if not len(others):
        return True
    # a post is more than its title and its date line (NOTES.md, 'Why a post is more than
    # its headline and its date line')
    return all(len(line.split()) <= DATE_LINE_WORDS and dates.find(line) is not None
               for line in segment.texts(snap, blocks, others))


def post(snap: Snapshot, feats: Features, row: int, outside: np.ndarray | None = None) -> int:
    """The headline `row`'s post: its nearest ancestor showing visible text besides the
    headline's (rows of `outside`, a comment thread, not counted); -1 when there is none
    or it holds more than POST_MAX_SHARE of the page's visible text."""
    text = feats.chars if outside is None else \
        snap.subtree_sum(np.where(feats.gone | outside, 0, feats.own_chars))
    up = np.flatnonzero(holders(snap, row) & (text > text[row]))
    if not len(up):
        return -1
    node = int(up[-1])                 # preorder: the deepest holder is the last
    return node if text[node] <= POST_MAX_SHARE * text[0] else -1


def scope_over(snap: Snapshot, feats: Features, scope: int, row: int) -> int:
    """The block stage's scope given the headline `row`: `scope` when it holds the
    headline or does not follow it; else the nearest row holding both when its visible
    text is at most SCOPE_SHARE times theirs (an entry's title beside its body), else
    `scope` (NOTES.md, 'Why the headline beside the post's body is read with it')."""
    if row < 0 or row >= scope or snap.end[row] > scope:
        return scope
    both = np.flatnonzero(holders(snap, row) & holders(snap, scope))
    if not len(both):
        return scope
    common = int(both[-1])             # preorder: the deepest holder is the last
    near = feats.chars[common] <= SCOPE_SHARE * (feats.chars[scope] + feats.chars[row])
    return common if near else scope
