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
- a word of a name that states whether there are comments (`has-comments`,
  `comments-open`) names nothing, and `html` and `body` are never a thread;
- where the thread is the content — a forum or Q&A page whose posts are named comments —
  it stays in the body (`is_content`): the page's address names a forum or a Q&A site,
  the page declares itself one (`DiscussionForumPosting`, `QAPage`), the page type model
  calls it a forum (option forum_typed; NOTES.md, 'Why a thread on a page typed forum is
  its content'), or the threads interleave with more text than they hold (the comments
  under each answer); a forum engine's posts are such a thread too where no named one is
  (`engine_posts`, option forum_engine_posts); an element
  chosen inside such a thread holding less than HELD_SHARE of it (the first post) grows
  to the whole thread (`whole`, option forum_thread; NOTES.md, 'Why a forum's element
  holds its whole thread'), and so does one beside it holding none of it (the question
  above its answers' thread) unless the two are a small part of their common ancestor
  (AROUND_MAX; NOTES.md, 'Why a forum's replies are kept like its first post');
- a thread that is the content but comes as the remarks under each post (two roots or
  more, a post's prose before each: a Q&A page's comments under its question and
  answers) is left out of the body and answered apart all the same (`under_posts`,
  option forum_post_comments; NOTES.md, 'Why a post's comments are left out of a Q&A
  thread');
- the thread apart is hooked in select.py only: auto's expected-F1 choice judges its
  blocks no content, a method's element inside it moves out of it (`without`; a
  reader's pin stays), and the block stage never keeps its blocks (`left_out`).
"""
from __future__ import annotations

import dataclasses
import re
import urllib.parse
from dataclasses import dataclass
from itertools import repeat
from typing import Any

import numpy as np

from .blocks import segment as blocks_mod
from .blocks.keep import pin
from . import pagetype, render
from .algorithms.auto import furniture, lowest_common_ancestor
from .algorithms.base import Choice
from .codes import distinct, distinct_inverse, first_seen, used
from .features import HIDING_BITS, Features, comment_tags, containing, tag_in
from .metadata.byline import TAXONOMY_CLASSES
from .options import Options
from .snapshot import Snapshot
from .threadnames import THREAD_LITERALS, names_thread

# Trailing digits of a name, left out before it is tested (a thread's ids number its
# comments: testing `comment-1`, `comment-2`, … once is enough).
DIGITS = "0123456789"
# Rows that are the whole page, never a thread (a state name missed above on the body).
PAGE_TAGS = frozenset({"html", "body"})
# Rows that can be one comment of a thread: its items (a comment is a list item, a
# division, an article or a definition list's term and description).
ITEM_TAGS = frozenset({"li", "div", "article", "section", "dt", "dd"})
# A thread's items hold at least this share of its visible text: the rest is its heading,
# its form's labels and its pagination. A page wrapper or a post named for its comments
# holds the post outside any item.
ITEM_SHARE = 0.5
# A thread holds at least this many visible characters: a one-line "No comments yet" or
# a comment counter is no thread to leave out.
MIN_THREAD_CHARS = 80
# Labels of a URL's host and segments of its path that name a forum, a board or a Q&A
# site, whose threads are the content: forum.kerbalspaceprogram.com, /topic/225132-…,
# stackoverflow.com/questions/…, old.reddit.com/r/science/comments/…,
# community.example.org/discussion/…, viewtopic.php, showthread.php.
FORUM_URL_PARTS = frozenset({
    "forum", "forums", "topic", "topics", "thread", "threads", "questions", "question",
    "discussion", "discussions", "discuss", "boards", "community", "comments",
    "viewtopic", "showthread", "answers", "bbs",
})
# schema.org types (lower case) of a page that is a forum thread or a Q&A page, whose
# replies are the content wherever it is served from: every page of the shared datasets
# whose HTML names them is labelled a forum page (22 of magic_html, 74 of wcxb_dev_full),
# none of dragnet_train's blogs and news (a blog's comments may be `Comment`s: not listed).
THREAD_TYPES = frozenset({"discussionforumposting", "qapage"})
# The page type (pagetype.CLASSES) of a forum's thread or a Q&A page ...
FORUM_TYPE = "forum"
# ... that makes a thread the content when the model gives it at least this probability
# (calibrated: a logistic regression). Not a half: the two errors cost unlike amounts. A
# blog read as a forum loses its post's precision whole (a 70-character post under
# 15,000 characters of comments, dragnet_train's), a Q&A page read as a blog loses its
# answers' recall; a wrong "forum" is taken to cost four times a wrong "blog", so the
# model must give four to one (NOTES.md, 'Why a thread on a page typed forum is its
# content').
FORUM_SURE = 0.8
# The URLs whose address says what site a page is on (a file's path names a folder).
WEB_SCHEMES = frozenset({"http", "https"})
# A path segment of at most this many words (split at - and _) names a section of a site
# (/discussion-topics/, /forum_posts/); a longer one is a title's slug.
SECTION_WORDS = 2
# A host name holding this word is a forum's (scienceforums.net, marshallforum.com).
FORUM_HOST_WORD = "forum"
# A label of a host name starting with this word is a bulletin board's, the forums' name
# on the Chinese, Japanese and Korean web (bbs.nanshengbbs.top, patent.bbscloud.com);
# not any label holding it (Hobbs, Gibbs).
BBS_LABEL = "bbs"
# Class names a forum engine gives a thread's post (or the post's body), one at least on
# every page of a thread, none on a blog's or a news site's: Simple:Press
# `spTopicPostSection`, Talkyard `dw-p-bd`, XenForo `message--post`, Discourse
# `topic-body`, bbPress `bbp-reply-content`, wpForo `wpforo-post`, Flarum
# `PostStream-item`, vBulletin `postbitlegacy`, phpBB `postprofile`. Boards served from
# an address that names no forum (speakoutwireless.ca/speak/…, talkyard.io/-5/…) are
# known by them (NOTES.md, 'Why a forum engine's markup makes the page a forum').
FORUM_POST_CLASSES = frozenset({
    "spTopicPostSection", "dw-p-bd", "message--post", "topic-body", "bbp-reply-content",
    "wpforo-post", "PostStream-item", "postbitlegacy", "postprofile",
})
# The heading a board writes its topic's title in, above the posts and outside the engine's
# thread (bbPress's `h1.entry-title`); kept by `board_around` before the thread, with the
# headline, which a <title> written otherwise ("Who Is In Your Top 3…• SITE") may not
# name. One after the thread is not the topic's (Flarum's loading-error copy of the page).
TOPIC_TITLE = "h1"
# A word naming the question a Q&A page asks, as a part of a class or id word split at
# `-`, `_` and a lower-to-upper case turn (`question-title`, `page-question-detail`,
# Zhihu's `QuestionHeader-title`, Stack Exchange's `question-header`); not `questions`
# (a "related questions" list) nor a word holding it (`questionnaire`). A page whose
# title heading (QUESTION_TITLE) sits in a row so named asks a question, and its thread
# is its answers (`asks_question`; NOTES.md, 'Why a page whose title is its question is
# a Q&A page').
QUESTION_WORD = "question"
QUESTION_PARTS = re.compile(r"[-_]|(?<=[a-z])(?=[A-Z])")
QUESTION_TITLE = "h1"
# The reply's `comments` carries at most this many characters of text and block rows
# (`truncated` says so): with the `blocks` lists (select.MAX_BLOCK_ROWS) the reply stays
# under the 1 MiB a browser takes from a host (4 bytes a character at worst).
MAX_TEXT_CHARS = 60_000
MAX_BLOCK_ROWS = 5_000
# The comment form's rows, left out of the comments' text: the form and the wrapper that
# holds it with its "Leave a Reply" heading (WordPress's #respond).
FORM_TAGS = frozenset({"form"})
RESPOND_NAMES = frozenset({"respond", "comment-respond", "reply-form", "comment-form"})
# An element inside a thread that is the content holds at least this share of the thread
# root's text when it is the thread (its post feed, without the root's reply box and
# "recommended" strip); less, it is one post of it, and grows to the thread (`whole`).
HELD_SHARE = 0.5
# A question grown to hold its answers' thread (`whole`) holds at most this many times the
# text of the two: more, the common ancestor is the page's column or body, and the
# element beside the thread is not the thread's question.
AROUND_MAX = 2.0
# Links hold less than this share of a thread's text: readers' comments are prose with an
# author's link and a "Reply" link each; a "Recent comments" widget is a list of links.
MAX_LINKED = 0.5


@dataclass(frozen=True, eq=False)
class Thread:
    """The comment threads found on a page."""

    roots: np.ndarray      # thread rows, document order, none inside another
    items: np.ndarray      # bool per row: one comment (or a comment's part) of a thread
    inside: np.ndarray     # bool per row: the row is a thread root or inside one
    engine: bool = False   # the forum engine's posts (engine_posts), not a named thread


def named(snap: Snapshot) -> np.ndarray:
    """Rows whose id or class names a comment thread or a comment (THREAD_WORDS); each
    distinct name is tested once."""
    return snap.memo(("comment_named",), lambda: _named(snap))


def _named(snap: Snapshot) -> np.ndarray:
    return name_rows(snap, names_thread, prefilter=THREAD_LITERALS) | custom_named(snap)


def custom_named(snap: Snapshot) -> np.ndarray:
    """Rows that are custom elements (a tag holding CUSTOM_TAG_MARK) whose tag names a
    comment (`shreddit-comment-tree`, `shreddit-comment`): a page names its thread by its
    tags as by its classes, and a comment shown from an undefined custom element
    (features.undefined_comments) is known for one (NOTES.md, 'Why comments in undefined
    custom elements are shown'). Each distinct tag is tested once (features.comment_tags)."""
    return comment_tags(snap)[snap.tag_codes()[0]]


def name_rows(snap: Snapshot, test, within: np.ndarray | None = None,
              prefilter: tuple[str, ...] | None = None) -> np.ndarray:
    """Rows (of `within`, a mask; all by default) whose id or class attribute passes
    `test` (a str -> bool); each distinct attribute value (Snapshot.string_codes), without
    its trailing digits (`comment-1148995`, `c12`: one per comment), is tested once, at
    its first value (codes.first_seen), and the rows follow their value's answer.
    `prefilter`: words one of which every value passing `test` holds (lower-cased),
    found in one pass over the values (`containing`); the others are not tested."""
    out = np.zeros(snap.n, np.bool_)
    for column in ("id", "cls"):
        codes, strings = snap.string_codes(column)
        distinct = used(codes if within is None else codes[within], len(strings))
        distinct = distinct[distinct > 0]                # code 0: no attribute, no test
        if not len(distinct):
            continue
        keys = list(map(str.rstrip, [strings[i] for i in distinct.tolist()], repeat(DIGITS)))
        code = first_seen(keys, len(keys))
        firsts = (code == np.arange(len(keys))).nonzero()[0]
        if prefilter is not None:
            firsts = firsts[containing([keys[i] for i in firsts.tolist()], prefilter)]
        hit = np.zeros(len(keys), np.bool_)
        hit[firsts] = [test(keys[i]) for i in firsts.tolist()]
        passed = np.zeros(len(strings), np.bool_)
        passed[distinct] = hit[code]
        out |= passed[codes] if within is None else passed[codes] & within
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
    # a custom element named for a comment is an item whatever its tag (`shreddit-comment`)
    items = ((mark | ((up1 | up2) & repeated)) & (tag_in(snap, ITEM_TAGS) | custom_named(snap))
             & (feats.chars > 0))
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
    ok = (mark & ~tag_in(snap, PAGE_TAGS) & (chars >= MIN_THREAD_CHARS) & (inner >= ITEM_SHARE * chars)
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
    _, inverse = distinct_inverse(key)
    out = np.bincount(inverse)[inverse] > 1
    out[0] = False
    return out


def apart(snap: Snapshot, feats: Features, opts: Options) -> Thread | None:
    """The thread to leave out of the body and answer apart (option comments_apart), None
    when there is none or it is the page's content (`is_content`)."""
    if not opts.comments_apart:
        return None
    thread = find(snap, feats)
    if thread is None or is_content(snap, feats, thread, opts.forum_typed, opts.forum_question,
                                    opts.comments_link_post):
        return None
    return thread


def is_content(snap: Snapshot, feats: Features, thread: Thread, typed: bool = False,
               asks: bool = True, link_post: int = 0) -> bool:
    """Whether the thread is the page's content, not comments under a post: the page's
    address says it is a forum's or a Q&A site's (`forum_url`), the page declares itself
    a forum thread or a Q&A page (`declares_thread`), with `asks` its title names a
    question (`asks_question`), with `typed` the page type model
    calls the page a forum (`typed_forum`), with `link_post` (option comments_link_post)
    the page shows no post to read besides the thread (`is_link_post`), or the threads are
    interleaved with the content (more text outside the threads than inside
    them between the first thread's start and the last one's end: the comments under
    each answer of a Q&A page, each post of a forum's; text outside links counted)."""
    if forum_page(snap, asks) or (typed and typed_forum(snap, feats)):
        return True
    # text outside links: a sidebar between the thread and a "recent comments" widget is
    # mostly links, an answer between two answers' comments is prose
    prose = prose_chars(feats)
    if link_post > 0 and is_link_post(prose, thread, link_post):
        return True
    roots = thread.roots
    if len(roots) < 2:
        return False
    span = np.zeros(snap.n, np.bool_)
    span[roots[0]:int(snap.end[roots].max())] = True
    between = int(prose[span & ~thread.inside].sum())
    return between >= int(prose[thread.inside].sum())


def under_posts(snap: Snapshot, feats: Features, thread: Thread | None) -> bool:
    """Whether the thread that is the page's content (`content`) is the comments written
    under each of its posts: found by its names (not an engine's posts) in two roots or
    more, each following a post of its own (`apart_by_posts`). The posts are what a
    forum or a Q&A page is read for; the remarks under one of them ("Commented Jul 3,
    2009") are comments on it, which select.py leaves out of the body and answers apart
    as a blog's (option forum_post_comments; NOTES.md, 'Why a post's comments are left
    out of a Q&A thread')."""
    return thread is not None and not thread.engine and apart_by_posts(snap, feats, thread)


def apart_by_posts(snap: Snapshot, feats: Features, thread: Thread) -> bool:
    """Whether the thread's roots are two or more and prose (visible text outside links)
    lies before the first and between every two in a row: a post's text, then its
    comments, then the next post's (a Q&A page's question and answers). A thread whose
    comments are the posts (a board, a reddit topic) is one root, or roots with nothing
    written between them."""
    roots = thread.roots
    if len(roots) < 2:
        return False
    prose = prose_chars(feats)
    before = np.concatenate(([0], snap.end[roots[:-1]]))
    ahead = np.cumsum(prose)
    # prose in [start, root): the rows in document order up to each root
    written = ahead[roots - 1] - np.where(before > 0, ahead[before - 1], 0)
    return bool((written > 0).all())


def prose_chars(feats: Features) -> np.ndarray:
    """Per row, its visible own characters outside links (0 inside a link or gone): the
    prose `is_content` and `apart_by_posts` weigh; found once a page."""
    return feats.memo(("comments_prose",),
                      lambda: np.where(feats.gone | feats.in_link, 0, feats.own_chars))


def is_link_post(prose: np.ndarray, thread: Thread, most: int) -> bool:
    """Whether the page's prose (`prose`: visible characters outside links, per row) lies
    in the thread but for at most `most` characters: a link aggregator's story (Lobsters,
    Hacker News) is a linked title and a byline, and its discussion is all the page has
    to read; a post of a sentence or more, or the prose of a site's sidebars and footer,
    keeps the thread apart (NOTES.md, 'Why a link post's thread is its content')."""
    return int(prose[~thread.inside].sum()) <= most


def typed_forum(snap: Snapshot, feats: Features) -> bool:
    """Whether the page type model calls the whole page a forum, at least FORUM_SURE sure
    (pagetype.classify at the page's root; False without an installed model). Asked only
    of a page with a comment thread: a thread the Q&A page's address, type and markup
    leave unnamed (NOTES.md, 'Why a thread on a page typed forum is its content')."""
    kind = pagetype.classify(snap, feats, 0)
    return kind is not None and kind[0] == FORUM_TYPE and kind[1] >= FORUM_SURE


def forum_page(snap: Snapshot, asks: bool = True) -> bool:
    """Whether the page is a forum's thread or a Q&A page by its address (`forum_url`),
    its declared type (`declares_thread`), its forum engine's markup (`engine_thread`)
    or, with `asks` (option forum_question), its title named a question
    (`asks_question`); answered once per snapshot (select, the teasers and the comment
    thread all ask)."""
    return snap.memo(("forum_page",), lambda: forum_url(str(snap.meta.get("url") or ""))
                     or declares_thread(snap) or engine_thread(snap)) or (
        asks and asks_question(snap))


def asks_question(snap: Snapshot) -> bool:
    """Whether a visible title heading of the page (QUESTION_TITLE) is, or sits inside, a
    row whose id or class names a question (QUESTION_WORD): a Q&A page served from an
    address, a type and an engine that name no forum (developers.pub's `/faq/NNN`, its
    `h1.question-title` in `div.page-question-detail`) says so where it writes its title,
    while an article's FAQ box names its questions below the article's own title (NOTES.md,
    'Why a page whose title is its question is a Q&A page'). Answered once per snapshot."""
    def find() -> bool:
        titles = np.flatnonzero(tag_in(snap, frozenset({QUESTION_TITLE}))
                                & ((snap.cols["hidden"] & HIDING_BITS) == 0))
        if not len(titles):
            return False
        # only the names of the titles and the rows holding them are read (a row holds a
        # title when one lies in its span [row, end))
        holding = (np.searchsorted(titles, snap.end, "left")
                   > np.searchsorted(titles, np.arange(snap.n), "left"))
        return bool(name_rows(snap, names_question, within=holding,
                              prefilter=(QUESTION_WORD,)).any())
    return snap.memo(("asks_question",), find)


def names_question(name: str) -> bool:
    """Whether an id or a class value holds a word with a part QUESTION_WORD (split at
    `-`, `_` and a lower-to-upper case turn), a post's taxonomy left out
    (metadata.byline.TAXONOMY_CLASSES: WordPress files a blog post under
    `category-question-characters`)."""
    return any(part.lower() == QUESTION_WORD for word in TAXONOMY_CLASSES.sub("", name).split()
               for part in QUESTION_PARTS.split(word))


def engine_thread(snap: Snapshot) -> bool:
    """Whether a row's class names a forum engine's post (FORUM_POST_CLASSES)."""
    return bool(engine_classes(snap).any())


def engine_classes(snap: Snapshot) -> np.ndarray:
    """Per distinct class attribute of the page (Snapshot.string_codes), whether it names
    a forum engine's post (FORUM_POST_CLASSES). Found once per snapshot (the forum test
    and the engine's posts both ask), the page's class words tested together first: most
    pages name no engine, and one split of them all is half the time of one a name."""
    def find() -> np.ndarray:
        _, strings = snap.string_codes("cls")
        if FORUM_POST_CLASSES.isdisjoint(" ".join(strings).split()):
            return np.zeros(len(strings), np.bool_)
        return np.fromiter((not FORUM_POST_CLASSES.isdisjoint(value.split())
                            for value in strings), np.bool_, len(strings))
    return snap.memo(("engine_classes",), find)


def declares_thread(snap: Snapshot) -> bool:
    """Whether the page declares itself a forum thread or a Q&A page (THREAD_TYPES among
    its JSON-LD and microdata types, pagetype.page_declared_names)."""
    return not THREAD_TYPES.isdisjoint(pagetype.page_declared_names(snap))


def forum_url(url: str) -> bool:
    """Whether a label of the URL's host or a segment of its path (FORUM_URL_PARTS), or
    the host's name (FORUM_HOST_WORD), names a forum, a discussion board or a Q&A site
    (`forum.example.org`, `/topic/123-…`, `/questions/…`, `/r/x/comments/…`); not the
    words of a slug (/the-best-board-games-of-2025/ is an article), nor the query or the
    fragment (`#comments`), nor a saved file's path (file: URLs)."""
    parts = urllib.parse.urlsplit(url)
    if parts.scheme not in WEB_SCHEMES:
        return False
    host = (parts.hostname or "").lower()
    if FORUM_HOST_WORD in host or any(label.startswith(BBS_LABEL) for label in host.split(".")):
        return True
    segments = [seg.split(".")[0] for seg in parts.path.lower().split("/")]
    # a segment of one or two words is a section's name (/discussion-topics/); a longer
    # one is a title's slug
    split = [re.split(r"[-_]", seg) for seg in segments]
    words = host.split(".") + [w for seg in split if len(seg) <= SECTION_WORDS for w in seg]
    return not FORUM_URL_PARTS.isdisjoint(words)


def without(snap: Snapshot, feats: Features, choice: Choice, thread: Thread | None,
            pinned: bool = False) -> Choice:
    """`choice` with the thread's rows inside its element dropped. A method's element
    inside the thread (the thread is longer than the post: issue 33's wrong part) moves
    to its best candidate outside it (Choice.blocks, best first), else to the nearest
    ancestor of the thread with text of its own besides it, the thread dropped from that;
    as it is without a thread, or when `pinned` (a reader's pin on a comment is read
    whole)."""
    if thread is None:
        return choice
    if thread.inside[choice.node]:
        if pinned:
            return choice
        outside = [int(b) for b in choice.blocks if not thread.inside[int(b)]]
        node = outside[0] if outside else _around(snap, feats, thread, choice.node)
        if node < 0:
            return choice
        choice = pin(choice, node)
    node = choice.node
    roots = thread.roots[(thread.roots > node) & (thread.roots < snap.end[node])]
    if not len(roots):
        return choice
    drop = np.zeros(snap.n, np.bool_) if choice.drop is None else choice.drop.copy()
    drop[roots] = True
    return dataclasses.replace(choice, drop=drop)


def _around(snap: Snapshot, feats: Features, thread: Thread, node: int) -> int:
    """The nearest ancestor of the thread root holding `node` that shows more text than
    that root, -1 when none does."""
    root = int(thread.roots[np.searchsorted(thread.roots, node, side="right") - 1])
    up = int(snap.parent[root])
    while up >= 0 and feats.chars[up] <= feats.chars[root]:
        up = int(snap.parent[up])
    return up


def content(snap: Snapshot, feats: Features, opts: Options) -> Thread | None:
    """The thread when it is the page's content (a forum's or a Q&A page's, `is_content`;
    option forum_thread), else the forum engine's posts (`engine_posts`, option
    forum_engine_posts), None otherwise."""
    if not opts.forum_thread:
        return None
    thread = find(snap, feats)
    if thread is not None and is_content(snap, feats, thread, opts.forum_typed, opts.forum_question,
                                         opts.comments_link_post):
        return thread
    return engine_posts(snap, feats) if opts.forum_engine_posts else None


def engine_posts(snap: Snapshot, feats: Features) -> Thread | None:
    """The forum engine's posts as one thread: its root the lowest common ancestor of the
    visible rows whose class names an engine's post (FORUM_POST_CLASSES), None when the
    page has none. A forum's page whose posts carry no comment name (Discourse's
    `topic-body`, Flarum's `PostStream-item`) has its thread known by them (NOTES.md,
    'Why a forum engine's posts are the thread')."""
    hit = engine_classes(snap)
    if not hit.any():
        return None
    codes, _ = snap.string_codes("cls")
    rows = np.flatnonzero(hit[codes] & (feats.chars > 0))
    if not len(rows):
        return None
    root = lowest_common_ancestor(snap, rows)
    if root <= 0:                        # the posts' only common row is the page
        return None
    items = np.zeros(snap.n, np.bool_)
    items[rows] = True                   # the posts (or their bodies) are the items
    return Thread(roots=np.array([root]), items=items, inside=snap.subtrees(np.array([root])),
                  engine=True)


def board_around(snap: Snapshot, blocks, element: int, thread: Thread | None, top: int,
                 p: np.ndarray) -> np.ndarray:
    """`p` (per block) with the blocks of `element` outside the forum engine's thread
    judged no content, but the headline `top` (-1: none), an `h1` before the thread (the
    topic's title above its posts, which the page's <title> may write otherwise) and the
    blocks holding the thread: on a page whose posts an engine marks (`engine_posts`), every post is
    inside the thread's root, and what else the element holds is the board's (its quick
    links and forum lists, the breadcrumb, an archive notice), which the block model,
    never trained on a board's menus written as text, may keep (NOTES.md, 'Why the board
    around a forum engine's thread is left out'). As it is for a named thread (a
    question may sit outside its answers' thread) or none, or when the element lies
    inside the thread."""
    if thread is None or not thread.engine:
        return p
    root = int(thread.roots[0])
    if not (element < root < snap.end[element]):
        return p
    rows = blocks.rows
    out = (rows >= element) & (rows < snap.end[element]) & ~thread.inside[rows]
    out &= ~((rows <= root) & (snap.end[rows] > root))      # a block holding the thread
    out &= (rows != top) & ~((snap.tag[rows] == TOPIC_TITLE) & (rows < root))
    return np.where(out, 0.0, p)


def whole(snap: Snapshot, feats: Features, choice: Choice, thread: Thread | None,
          pinned: bool = False) -> Choice:
    """`choice` grown to hold the whole thread when its element lies inside a thread that
    is the page's content: on a forum page the first post, longer than any reply, wins
    the element choice alone, while a reader of the thread wants every post (NOTES.md,
    'Why a forum's element holds its whole thread'); the lowest common ancestor of the
    element and the thread's roots (the thread root itself when there is one; the posts'
    column on a Q&A page whose comments under each answer are threads). As it is without
    such a thread, when the element holds most of the thread root's text already
    (HELD_SHARE: a post feed inside the named thread, its reply box beside it), or when
    `pinned`."""
    if thread is None or pinned:
        return choice
    el = choice.node
    if not thread.inside[el]:
        return _with_replies(snap, feats, choice, thread)
    root = int(thread.roots[np.searchsorted(thread.roots, el, side="right") - 1])
    if feats.chars[el] >= HELD_SHARE * feats.chars[root]:
        return choice
    node = lowest_common_ancestor(snap, np.append(thread.roots, el))
    if node == el:
        return choice
    return pin(choice, node)


def _with_replies(snap: Snapshot, feats: Features, choice: Choice, thread: Thread) -> Choice:
    """`choice`, whose element lies outside the thread that is the page's content, grown to
    hold the thread when it holds none of it: the question above its answers (a forum's
    first post outside the list of replies) is the element on its own, and the reader of
    the page wants the answers too. As it is when the grown element would hold more than
    AROUND_MAX times the text of the two (the page's column, a sidebar's)."""
    el = choice.node
    roots = thread.roots
    if ((roots > el) & (roots < snap.end[el])).any():
        return choice
    node = lowest_common_ancestor(snap, np.append(roots, el))
    both = float(feats.chars[el]) + float(feats.chars[roots].sum())
    if node <= 0 or feats.chars[node] > AROUND_MAX * both:
        return choice
    return pin(choice, node)


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
    return page.dropping(thread.inside[rows])


def output(snap: Snapshot, feats: Features, thread: Thread, fmt: str = "text",
           limit: int | None = None) -> str:
    """The thread's text (`fmt` text or markdown) without its forms (the "Leave a reply"
    form's labels are no comment); with `limit`, the rows past the first `limit` visible
    characters are not rendered (the text is at least `limit` long when they exist)."""
    drop = (tag_in(snap, FORM_TAGS) | _respond(snap, thread.inside)) & thread.inside
    if limit is not None:
        seen = np.cumsum(np.where(thread.inside & ~feats.gone, feats.own_chars, 0))
        drop = drop | (thread.inside & (seen > limit))
    text = render.to_text(snap, feats, thread.roots, drop)
    # Markdown: the text's paragraphs escaped as text, no links or lists, as the reader's
    # export writes them (NOTES.md, 'Why the exports carry the comments only when their
    # section is open')
    return render.md_paragraphs(text) if fmt == "markdown" else text


def _respond(snap: Snapshot, within: np.ndarray) -> np.ndarray:
    """Rows of `within` whose id or class word is a reply form's wrapper (RESPOND_NAMES)."""
    return name_rows(snap, lambda s: not RESPOND_NAMES.isdisjoint(s.lower().split()), within)


def wire(snap: Snapshot, feats: Features, thread: Thread) -> dict[str, Any]:
    """The reply's `comments` (PROTOCOL.md): the thread's text, cut at MAX_TEXT_CHARS,
    its roots (row and path) and its block rows (at most MAX_BLOCK_ROWS), for the
    overlay to outline on request; `truncated` when either was cut."""
    # the characters past the cut are not rendered at all (a hostile thread of 100,000
    # comments renders its first ones); one more than the cap says it was cut
    text = output(snap, feats, thread, limit=MAX_TEXT_CHARS + 1)
    rows = blocks_mod.compute(snap, feats).rows
    kept = rows[thread.inside[rows]]
    return {
        "text": text[:MAX_TEXT_CHARS],
        "chars": int(feats.chars[thread.roots].sum()),
        "roots": [{"node": r, "path": path} for r, path
                  in zip(thread.roots.tolist(), snap.paths(thread.roots.tolist()))],
        "blocks": kept[:MAX_BLOCK_ROWS].tolist(),
        "truncated": len(text) > MAX_TEXT_CHARS or len(kept) > MAX_BLOCK_ROWS,
    }
