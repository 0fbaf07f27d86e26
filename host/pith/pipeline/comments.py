"""The comment thread: find the readers' comments under a post, so the body leaves them out and they come back apart.

A comment thread is a container the page names as one — an id or a class with a word of
`THREAD_WORDS` (`#comments`, `ol.commentlist`, `#disqus_thread`, `dsq-comments`, Blogger's
`comments-block`, `ul.ugccmt-comments`) — that holds items: rows that are, or sit one or
two levels under, such a named row (`li.comment`, `li#comment-1148995`, `dt`/`dd` pairs
under `#comments`). Counted on the training side of dragnet_train's 281 pages with a
comment truth, nearly every thread is marked so (WordPress, Blogger, TypePad, Disqus,
Movable Type), while the post around it is not.

Decisions a change must keep (NOTES.md, 'Why comment threads are found by their names'):
- a named row is a thread only when its items hold at least `ITEM_SHARE` of its visible
  text (a page wrapper whose class says `comments-open`, a post whose class says
  `has-comments`, holds the post too, and mostly outside any item), it holds at least
  `MIN_THREAD_CHARS` of visible text, and links hold less than `MAX_LINKED` of it (a
  sidebar's "Recent comments" list is all links);
- the thread is the outermost such row (its heading "23 Responses" and its form go with
  it); a thread inside another is one thread;
- a thread inside page furniture (nav, aside, footer, dialogs) is the furniture's, not
  the post's: auto already leaves furniture out;
- where the thread is the content — a forum or Q&A page whose posts are named comments —
  it stays in the body: the thread is the content when no text the block model judges
  content lies before it outside it (`is_content`): a post with its comments has its post
  first.
"""
from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass

import numpy as np

from . import blocks as blocks_mod
from .algorithms.auto import furniture
from .algorithms.base import Choice
from .features import Features, tag_in
from .options import Options
from .snapshot import Snapshot

# Words of an id or a class that name a comment thread or one of its comments (lower
# case), at the start of the name or of a part of it: `commentlist`, `comment-body`,
# `dsq-comment-57935`, `ugccmt-comments`, `jc_commentsDiv`; not inside a word
# (`feature_chompcommentimages`), and not commenting or commentary (a site's commenting
# guidelines, an article's commentary are its text).
THREAD_WORDS = re.compile(r"(?:^|[\W_\d])(?:comment(?!ing|ary|ator)|disqus|dsq-|ugccmt|livefyre"
                          r"|talkback)")
# Rows that can be one comment of a thread: its items (a comment is a list item, a
# division, an article or a definition list's term and description).
ITEM_TAGS = frozenset({"li", "div", "article", "section", "dt", "dd", "blockquote", "tr",
                       "table", "p"})
# A thread's items hold at least this share of its visible text: the rest is its heading,
# its form's labels and its pagination. A page wrapper or a post named for its comments
# holds the post outside any item.
ITEM_SHARE = 0.5
# A thread holds at least this many visible characters: a one-line "No comments yet" or
# a comment counter is no thread to leave out.
MIN_THREAD_CHARS = 80
# Links hold less than this share of a thread's text: readers' comments are prose with an
# author's link and a "Reply" link each; a "Recent comments" widget is a list of links.
MAX_LINKED = 0.5


@dataclass(frozen=True, eq=False)
class Thread:
    """The comment threads found on a page."""

    roots: np.ndarray      # thread rows, document order, none inside another
    items: np.ndarray      # bool per row: one comment (or a comment's part) of a thread
    inside: np.ndarray     # bool per row: the row is a thread root or inside one


def named(snap: Snapshot) -> np.ndarray:
    """Rows whose id or class names a comment thread or a comment (THREAD_WORDS); each
    distinct name is tested once."""
    return snap.memo(("comment_named",), lambda: _named(snap))


def _named(snap: Snapshot) -> np.ndarray:
    out = np.zeros(snap.n, np.bool_)
    for column in (snap.id, snap.cls):
        has = np.flatnonzero(column != "")
        if not len(has):
            continue
        names, code = np.unique(column[has], return_inverse=True)
        hit = np.fromiter((bool(THREAD_WORDS.search(s.lower())) for s in names.tolist()),
                          np.bool_, len(names))
        out[has] |= hit[code]
    return out


def find(snap: Snapshot, feats: Features) -> Thread | None:
    """The page's comment threads (see the module docstring), None when it has none."""
    return feats.memo(("comment_thread",), lambda: _find(snap, feats))


def _find(snap: Snapshot, feats: Features) -> Thread | None:
    mark = named(snap)
    if not mark.any():
        return None
    parent = snap.parent
    up1 = np.concatenate(([False], mark[parent[1:]]))
    grand = np.where(parent >= 0, parent[np.maximum(parent, 0)], -1)
    up2 = np.where(grand >= 0, mark[np.maximum(grand, 0)], False)
    # a row one or two levels under a named one is an item when it repeats: a sibling of
    # the same tag follows or precedes it (a page wrapper named for comments has one body)
    repeated = _repeated(snap)
    items = (mark | ((up1 | up2) & repeated)) & tag_in(snap, ITEM_TAGS) & (feats.chars > 0)
    items[0] = False
    visible = np.where(feats.gone, 0, feats.own_chars).astype(np.float64)
    # each row's text is its nearest item's (the root's when it is in none); a row's items'
    # text is then what the items strictly below it hold: its own item text is not counted
    # (a named thread is an item of itself, and its heading sits in its own text)
    direct = np.bincount(snap.nearest(items), weights=visible, minlength=snap.n)
    inner = snap.subtree_sum(direct) - direct
    chars = feats.chars.astype(np.float64)
    land = furniture(snap)
    in_land = land | snap.below(land)
    ok = (mark & (chars >= MIN_THREAD_CHARS) & (inner >= ITEM_SHARE * chars)
          & (feats.linked_chars < MAX_LINKED * chars) & ~in_land)
    if not ok.any():
        return None
    roots = np.flatnonzero(ok & ~snap.below(ok))
    inside = snap.subtrees(roots)
    return Thread(roots=roots, items=items & inside, inside=inside)



def _repeated(snap: Snapshot) -> np.ndarray:
    """Rows with a sibling of the same tag."""
    codes, _ = snap.tag_codes()
    key = snap.parent * (int(codes.max()) + 1) + codes
    _, inverse, counts = np.unique(key, return_inverse=True, return_counts=True)
    out = counts[inverse] > 1
    out[0] = False
    return out


def apart(snap: Snapshot, feats: Features, opts: Options) -> Thread | None:
    """The thread to leave out of the body and answer apart (option comments_apart), None
    when there is none or it is the page's content (`is_content`)."""
    if not opts.comments_apart:
        return None
    thread = find(snap, feats)
    if thread is None or is_content(snap, feats, thread):
        return None
    return thread


def is_content(snap: Snapshot, feats: Features, thread: Thread) -> bool:
    """Whether the thread is the page's content: a forum's or a Q&A page's posts named
    comments, with no post of its own before them."""
    return False


def without(snap: Snapshot, choice: Choice, thread: Thread | None) -> Choice:
    """`choice` with the thread's rows inside its element dropped; as it is without a
    thread or when its element lies inside the thread (a reader's pin on a comment)."""
    if thread is None or thread.inside[choice.node]:
        return choice
    node = choice.node
    roots = thread.roots[(thread.roots > node) & (thread.roots < snap.end[node])]
    if not len(roots):
        return choice
    drop = np.zeros(snap.n, np.bool_) if choice.drop is None else choice.drop.copy()
    drop[roots] = True
    return dataclasses.replace(choice, drop=drop)


def left_out(thread: Thread | None, element: int) -> np.ndarray | None:
    """The rows the block stage leaves out in `element` (keep.apply's leave_out): the
    thread's, unless `element` lies inside it."""
    if thread is None or thread.inside[element]:
        return None
    return thread.inside


def judged_without(snap: Snapshot, feats: Features, page, thread: Thread | None):
    """`page` (keep.Judged) with the thread's blocks judged no content (probability 0)."""
    if thread is None:
        return page
    rows = blocks_mod.compute(snap, feats).rows
    return dataclasses.replace(page, p=np.where(thread.inside[rows], 0.0, page.p))
