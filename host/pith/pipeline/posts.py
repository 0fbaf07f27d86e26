"""A forum's posts: the replies are written like the first post, so the element holds them and the block stage keeps them alike.

On a forum thread or a Q&A page the first post is the longest and the block model,
which learned "reply" and "comment" names as boilerplate from blogs, gives the replies'
text a probability under its threshold: the element is the first post and the reader
gets the question without its answers. But a forum writes every post's text in the same
markup (Discuz's `td.t_f`, a phpBB `div.content`, reddit's `div.md`): the text blocks the
model keeps in the element name the posts' text, and every other block of the page under
the same name (`signatures`) is another post's.

`alike` (select.py, option `forum_posts`): on a page that is a forum's (`forum`), the
element grows to the lowest common ancestor of itself and those peers, and the peers are
judged at least the model's threshold, so the block stage keeps them as it keeps the
first post's text. Decisions a change must keep (NOTES.md, 'Why a forum's replies are
kept like its first post'):
- a signature is the block's own tag and the tag and class (trailing digits left out:
  posts number their ids and classes) of the nearest row at or above it with a class; it
  names the posts' text when that row is the element or inside it (Stack Exchange's
  `s-prose` element holds the question's paragraphs; a class above the element names the
  page's column) and the model judges the block at least `SURE` in the element;
- a block of bare text in its own classed row (Invision's one-line reply in
  `div.ipsType_richText`) is written like the kept blocks inside a row of its tag and
  class, when it is inside the element and copies no text the element shows
  (`_bare`, option `forum_posts_bare`; Talkyard's "Recent comments" box copies the posts);
- peers are outside the element, visible and not in furniture (nav, aside, footer);
- the grown element holds at most `GROWN_MAX` times the text
  of the element and its peers (a class shared by the post and a sidebar's widget would
  pull in the page), and never is the page's `html` or `body`;
- what else the growth brings in keeps the bar of a block outside the element (`add`),
  but for what lies in a post's body, the classed row holding a post's text: a reply's
  quote, list or code keeps the element's bar (`in_bodies`, option `forum_posts_body`).

`meta_lines` (select.py, option `forum_meta`): the author-and-date line a board writes
in every post ("Topic starter 08/05/2024 9:58 pm", "asked Jul 28, 2016") is judged no
content when short, dated, doubted by the model and repeated under one signature, and so
are an author card's lines ("Posts: 1,077", "Offline") when every line under their
signature is one (NOTES.md, 'Why a post's meta lines are left out'); a date line written
bare ("May 9th, 2024 05:18 AM") so repeated goes however sure the model is of it (option
`forum_meta_dates`; NOTES.md, 'Why a post's bare date line is left out').

`without_named` (select.py, options `forum_sign_offs` and `forum_notices`): what a board
writes under a post from its author's profile — the sign-off a member sets once ("Former Chocolate
Editor", a motto, a gear list) and Stack Exchange's "asked … / user card" box — sits in
a row whose class or id names it a `signature` (phpBB, vBulletin, XenForo, Kunena, SMF,
Invision, Stack Exchange's `post-signature`), and a board's notices ("This topic has 3
replies", "Not the answer you're looking for?", an announcement) in a row named a
`notice`, a `banner`, an `alert`; on a forum's page they are judged no content (NOTES.md,
'Why a post's sign-off is left out').

`repeated_lines` (select.py, option `forum_repeats`): a line the element shows in three
blocks or more outside code and quotes ("Comment hidden because of low score.", phpBB's
"Re: <topic>") is kept once (NOTES.md, 'Why a board's repeated lines are left out').
"""
from __future__ import annotations

import dataclasses
import re

import numpy as np

from . import comments
from .algorithms.auto import furniture, lowest_common_ancestor
from .algorithms.base import Choice
from .blocks import segment
from .blocks.features import TEXT_STATS_DATE, TEXT_STATS_STOP_END, text_stats
from .blocks.keep import Judged, pin
from .codes import first_seen
from .metadata import dates
from .features import Features, tag_in
from .headline import HEADINGS, post as headline_post
from .snapshot import Snapshot

# The grown element holds at most this many times the visible text of the element and
# its peers' blocks together: the posts' wrapper holds their authors' boxes, dates and
# buttons too (Discuz: about twice the posts' text), a page's column far more.
GROWN_MAX = 4.0
# Where every post is in the element already (no peer outside it), a block under a
# posts' signature is lifted only when links hold at most this share of its characters:
# a post's text is prose, while a board's "reply" link and author line may sit under the
# same row and tag (agreper's `div.comment`; NOTES.md, 'Why the replies inside the
# element are kept like its first post').
INSIDE_LINKED = 0.5
# The blocks that name the posts' text are those the model judges at least this likely
# content in the element: its probabilities are calibrated, and at 0.5 a block is as
# likely content as not; under it, the buttons and author lines a first post shows
# ("Quote", "Reply") would carry every reply's.
SURE = 0.5
# Rows that are the whole page: the element never grows to them.
PAGE_TAGS = frozenset({"html", "body"})
# A post's meta line ("Topic starter 08/05/2024 9:58 pm", "asked Jul 28, 2016 at 13:01")
# is at most this many words: a date beside an author's name and a word or two; a reply
# of a sentence with a date in it is longer (NOTES.md, 'Why a post's meta lines are left
# out').
META_WORDS = 8
# ... and written so in at least this many posts (under one signature): a line of its own
# the element shows once is a post's, a line every post repeats is the board's.
META_REPEAT = 2
# A post's date line written bare ("May 9th, 2024 05:18 AM", FluxBB's "#2 2024-08-03
# 14:22:38"): every word of it a number (a day, a year, a time, the post's number, an
# ordinal's suffix), a month's name (metadata.dates.MONTHS) or one of these; such a line
# repeated under one signature is the board's even where the model is sure of it (NOTES.md,
# 'Why a post's bare date line is left out').
BARE_DATE_WORDS = frozenset({"am", "pm", "at"})
BARE_NUMBER = re.compile(r"\d{1,4}(?:st|nd|rd|th)?")
# An author card's line ("Posts: 1,077", "Member since: August 29, 2011", "Offline") is at
# most META_WORDS words and at most this many characters: a word of Chinese or Japanese
# text holds a sentence, which a card's line never is (NOTES.md, 'Why a post's meta lines
# are left out').
CARD_CHARS = 40
# A word of an id or a class naming its row a post's sign-off (the author's signature
# under the post, Stack Exchange's `post-signature` user box): the forum engines' own
# names, a word ending in `sig` or `signature` (Kunena's `ksig`, Invision's
# `ipsSignature`; not `design`) or the word `sign` (Discuz's `div.sign`; a forum's "Sign
# Up" button is no post's text either). No text under such a row on the forum pages of
# magic_html's and WCXB's training sites is in their truths but one line of 120 (NOTES.md,
# 'Why a post's sign-off is left out'). Not on other pages: Sphinx names a function's
# signature `sig`, a shop its "Digital Signature" feature.
SIGN_OFF_NAME = re.compile(r"(?:sig|signatures?)(?![a-z])|(?<![a-z])sign(?![a-z])")
# ... which every such name holds (lower case): the names holding none are not tested.
SIGN_OFF_LITERALS = ("sig",)
# Words of an id or a class naming its row a board's notice, anywhere in the name: Stack
# Exchange's `bottom-notice` ("Not the answer you're looking for? Browse other questions
# tagged …"), bbPress's `bbp-template-notice` ("This topic has 3 replies, 3 voices …",
# "You must be logged in to reply"), Kunena's and Invision's announcements, XenForo's
# "Install the app" banner and its authors' `userBanner` ranks ("Member", "Moderator"),
# NodeBB's `alert`s, Bootstrap's `alert` boxes. Rows so named hold text that two lines of
# about 250 on the training forum pages of magic_html and WCXB are in their truths (a
# FreeBSD developer's rank, a post whose WordPress class lists its category `…-alerts`:
# held off by NAMED_SHARE) (NOTES.md, 'Why a post's sign-off is left out').
NOTICE_NAME = re.compile(r"notice|announce|banner|alert")
NOTICE_LITERALS = ("notice", "announce", "banner", "alert")
# A line a board writes in every post ("Comment hidden because of low score. Click to
# expand.", "Please Log in or Create an account to join the conversation.", phpBB's "Re:
# <topic>" heading, "Join Date: Aug 2008") is the same text in at least this many blocks of
# the element; a post's text is its own, and a reply quoting it holds the copy in a quote
# (left to QUOTE_TAGS) (NOTES.md, 'Why a board's repeated lines are left out').
REPEAT_MIN = 3
# ... of at least this many words: "Thanks!" and "+1" are replies many members write.
REPEAT_WORDS = 3
# Rows whose repeated text is a post's own: code a question and its answers share, and
# the quotes of an earlier post.
QUOTE_TAGS = frozenset({"pre", "code", "blockquote"})
# The tags a question's text is written in, lifted by `question`: its paragraphs, code and
# quotes. A board's lines beside it in the headline's post are `div`s, `span`s and list
# items the model rightly doubts (imgur's "348,888 Views • 7d • via Android" and "Select
# ...", careercup's "0 of 0 votes" and "Loading...", XenForo's "Thread starter piizog"
# and "Start date Jan 2, 2024" `li`s under the topic's title).
QUESTION_TAGS = frozenset({"p", "pre", "blockquote"})
# Rows so named that hold together at least this share of the element's visible text are
# not sign-offs nor notices but the posts themselves, whose class happens to hold the word
# (a WordPress post's class lists its categories: `cma_category-alerts-and-notifications`).
NAMED_SHARE = 0.5


def forum(snap: Snapshot, asks: bool = True) -> bool:
    """Whether the page is a forum's thread or a Q&A page by its address, its declared
    type, its forum engine's markup or (`asks`, option forum_question) its title named a
    question (comments.forum_page). Not by the learned page type: Quora answers it calls
    forums lost their precision to the rule (0.94 -> 0.80)."""
    return comments.forum_page(snap, asks)


def signatures(snap: Snapshot, blocks) -> tuple[np.ndarray, np.ndarray]:
    """(per block, a code of its signature — its tag, and the tag and class of its nearest
    classed row at or above it, trailing digits left out — or -1 when no row above it has
    a class; per block, that row)."""
    classed = snap.cls != ""
    holder = snap.nearest(classed)[blocks.rows]
    out = np.full(len(blocks.rows), -1, np.int64)
    at = np.flatnonzero(classed[holder])
    if not len(at):
        return out, holder
    # a class without its trailing digits: posts number their classes (`post-1148995`,
    # `reply_2`) as they number their ids (comments.DIGITS)
    classes = [c.rstrip(comments.DIGITS) for c in snap.cls[holder[at]].tolist()]
    out[at] = first_seen(zip(snap.tag[blocks.rows[at]].tolist(), snap.tag[holder[at]].tolist(),
                             classes), len(at))
    return out, holder


def bare_date(text: str) -> bool:
    """Whether `text` is a date written bare: it holds a date (metadata.dates.find) and
    every word of it is a number of at most four digits (an ordinal's suffix allowed), a
    month's name or one of BARE_DATE_WORDS."""
    words = re.findall(r"\w+", text.lower())
    return bool(words) and all(w in BARE_DATE_WORDS or w in dates.MONTHS
                               or BARE_NUMBER.fullmatch(w) for w in words) \
        and dates.find(text) is not None


def meta_lines(snap: Snapshot, choice: Choice, page: Judged, blocks,
               bare: bool = True) -> Judged:
    """`page` with every post's meta lines judged no content. In the element, a block of
    at most META_WORDS words whose signature (`signatures`) at least META_REPEAT such
    blocks share is one when either
    - it holds a date and the model doubts it (under `SURE`), or, with `bare` (option
      forum_meta_dates), it is a date written bare (`bare_date`) however sure the model
      is: the author's and date line a board writes above or below each post; or
    - every block of the element under its signature is a card's line (at most
      CARD_CHARS characters, no stop at its end, not a heading) and the model doubts
      them on the whole (their mean under `SURE`): an author card's fields ("Posts:
      1,077", "Offline"), which no post's text shares.
    `page` as it is when none is."""
    rows = blocks.rows
    node = choice.node
    inside = (rows >= node) & (rows < snap.end[node]) & (blocks.chars > 0)
    sig, _ = signatures(snap, blocks)
    inside &= sig >= 0
    at = np.flatnonzero(inside)
    if not len(at):
        return page
    words = np.array([len(page.texts[i].split()) for i in at.tolist()])
    at = at[words <= META_WORDS]
    if not len(at):
        return page
    stats = text_stats([page.texts[i] for i in at.tolist()])
    doubted = page.p[at] < SURE
    dated = (stats[:, TEXT_STATS_DATE] > 0) & doubted
    if bare:
        # a post's date line alone is the board's, sure or not (NOTES.md, 'Why a post's
        # bare date line is left out'); its date is read by metadata.dates, which knows
        # "May 9th, 2024" where the block features' pattern does not
        dated |= np.fromiter((bare_date(page.texts[i]) for i in at.tolist()), bool, len(at))
    # a card's line: a few characters, not a sentence (no stop at its end: a short reply
    # is one, "Posts: 1,077" is not) and not a heading (a review's "Best for Basics")
    short = ((blocks.chars[at] <= CARD_CHARS) & (stats[:, TEXT_STATS_STOP_END] == 0)
             & ~tag_in(snap, HEADINGS)[rows[at]])
    size = int(sig.max()) + 1
    dated_n = np.bincount(sig[at[dated]], minlength=size)
    # a card's signature: every block of the element under it is a card's line, and the
    # model doubts them on the whole (it is sure of one post's "Posts: 98" now and then)
    n = np.bincount(sig[at[short]], minlength=size)
    mean = np.bincount(sig[at[short]], weights=page.p[at[short]], minlength=size) / np.maximum(n, 1)
    cards = (n == np.bincount(sig[inside], minlength=size)) & (n >= META_REPEAT) & (mean < SURE)
    left = at[(dated & (dated_n[sig[at]] >= META_REPEAT)) | (short & cards[sig[at]])]
    if not len(left):
        return page
    p = page.p.copy()
    p[left] = 0.0
    return dataclasses.replace(page, p=p)


def alike(snap: Snapshot, feats: Features, choice: Choice, page: Judged, blocks,
          floor: float, add: float | None, within: bool = True,
          best: bool = True, bare: bool = True, body: bool = True) -> tuple[Choice, Judged]:
    """(`choice` grown to hold the posts written like the text it keeps, `page` with
    those posts judged at least `floor`, the other blocks the growth brings in judged no
    content under `add`, as blocks outside the element are); both as they are when the
    grown element would hold far more than the posts (GROWN_MAX). With no such peer
    outside it, the element stays and, with `within` (option forum_posts_within), its
    own blocks under those signatures, mostly prose (INSIDE_LINKED), are judged at least
    `floor`: the short replies of a thread the element holds whole ("nice!",
    "元旦快乐！") that the model doubts. With `best` (option forum_posts_best), where the
    model is SURE of no block of the element, its block judged most likely, when kept
    (at least `floor`), names the posts' text. With `bare` (option forum_posts_bare), a
    block of bare text in its own classed row is written like the kept blocks inside a
    row of its tag and class (`_bare`). With `body` (option forum_posts_body), a block
    the growth brings in inside a post's body — the classed row holding a block written
    like the kept ones — keeps the bar of a block inside the element (`floor`), not
    `add`: a reply's quote of an earlier post, its list or code, is the reply's text
    (NOTES.md, 'Why a reply's quote is kept with the reply'). On a forum's page no
    comment thread is left apart (comments.is_content), so none is in the way."""
    node = choice.node
    rows = blocks.rows
    sig, holder = signatures(snap, blocks)
    inside = (rows >= node) & (rows < snap.end[node])
    # the element's own class names a post's text (Stack Exchange's `s-prose` holds the
    # question's paragraphs); a class above it, the page's column
    own = (sig >= 0) & (holder >= node) & (holder < snap.end[node])
    kept = inside & own & (page.p >= SURE) & (blocks.chars > 0)
    if not kept.any() and best:
        # sure of none (a rendered Discuz post at 0.41): the block the model keeps and
        # judges most likely names the posts' text alone
        kept = _best(inside & own & (blocks.chars > 0) & (page.p >= floor), page.p)
    if not kept.any():
        return choice, page
    wanted = np.zeros(int(sig.max()) + 2, np.bool_)
    wanted[sig[kept]] = True
    named = (sig >= 0) & wanted[np.maximum(sig, 0)]
    likened = named | _bare(snap, blocks, sig, holder, kept, inside) if bare else named
    land = furniture(snap)
    away = snap.subtrees(np.flatnonzero(land)) if land.any() else np.zeros(snap.n, np.bool_)
    peer = (~inside & named & (blocks.chars > 0)
            & ~away[rows] & ~feats.gone[rows])
    if not peer.any():
        if not within:
            return choice, page
        return choice, _lifted(page, inside & likened & ~away[rows]
                               & (blocks.linked <= INSIDE_LINKED * blocks.chars), floor)
    grown = lowest_common_ancestor(snap, np.append(rows[peer], node))
    posts = float(feats.chars[node]) + float(blocks.chars[peer].sum())
    if grown <= 0 or snap.tag[grown] in PAGE_TAGS or feats.chars[grown] > GROWN_MAX * posts:
        return choice, page
    held = (rows >= grown) & (rows < snap.end[grown])
    alike_rows = likened & held & ~away[rows]
    p = np.where(alike_rows, np.maximum(page.p, floor), page.p)
    # the rest the grown element brings in (authors' boxes, dates, moderators' notes) keeps
    # the bar of a block outside the element: the model's `add`; but for what a post's
    # body holds besides the text its peers share (a quote, a list, a code block): the
    # post's own, judged as the element's blocks are
    if add is not None:
        bar = held & ~inside & ~alike_rows & (p < add)
        if body:
            bar &= ~(in_bodies(snap, blocks, sig, holder, alike_rows) & (p >= floor))
        p = np.where(bar, 0.0, p)
    return pin(choice, grown), dataclasses.replace(page, p=p)


def in_bodies(snap: Snapshot, blocks, sig: np.ndarray, holder: np.ndarray,
              alike_rows: np.ndarray) -> np.ndarray:
    """A mask over the blocks inside a post's body: the subtree of a classed row
    (`signatures`' holder) that holds a block of `alike_rows` (a NodeBB reply's
    `div.content`, SMF's `div.inner`, Invision's `div.ipsType_richText`): the quote, the
    list, the code the reply writes there are its text, as its paragraphs are."""
    named = alike_rows & (sig >= 0)
    if not named.any():
        return np.zeros(len(blocks.rows), np.bool_)
    return snap.subtrees(np.unique(holder[named]))[blocks.rows]

def question(snap: Snapshot, feats: Features, choice: Choice, page: Judged, blocks,
             thread: comments.Thread | None, top: int, floor: float) -> tuple[Choice, Judged]:
    """(`choice` grown to hold the question, `page` with the question's lines judged at
    least `floor`) on a page whose `thread` is its content (comments.content) when the
    block stage would show the question by its title alone: the headline `top` lies before
    the thread and outside it (a named thread: a forum engine's holds its first post), and
    of the headline's post (headline.post, the thread not counted) the model keeps no
    block with text between the headline and the thread — paragraphs (QUESTION_TAGS),
    mostly prose (INSIDE_LINKED), none a forum rule judged no content — while it keeps
    some of the thread's. A question's short lines read like a reply's, which the model
    doubts (a rendered mlog.club topic: its title at 1.00, its two lines at 0.17 and 0.11,
    its answers kept), and the reader of a Q&A page wants the question the answers answer
    (NOTES.md, 'Why a question is kept with its answers'). As they are when the grown
    element would hold more than comments.AROUND_MAX times the text of the element and
    the post (the page's column)."""
    # an engine's thread holds its first post, the question, already (comments.engine_posts)
    if (thread is None or thread.engine or top < 0 or thread.inside[top]
            or top > int(thread.roots[0])):
        return choice, page
    post = headline_post(snap, feats, top, thread.inside)
    if post < 0:
        return choice, page
    rows = blocks.rows
    text = blocks.chars > 0
    # the question's lines lie between its title and its answers (after the thread, a
    # reply form's hint); a line a forum rule judged no content (0: a meta line, a
    # sign-off) stays out
    first = int(thread.roots[0])
    lines = ((rows > top) & (rows < min(int(snap.end[post]), first)) & text
             & (blocks.linked <= INSIDE_LINKED * blocks.chars) & (page.p > 0)
             & tag_in(snap, QUESTION_TAGS)[rows])
    answers = thread.inside[rows] & text & (page.p >= floor)
    if not lines.any() or (lines & (page.p >= floor)).any() or not answers.any():
        return choice, page
    node = choice.node
    grown = lowest_common_ancestor(snap, np.array([node, post]))
    both = float(feats.chars[node]) + float(feats.chars[post])
    if grown <= 0 or snap.tag[grown] in PAGE_TAGS or feats.chars[grown] > comments.AROUND_MAX * both:
        return choice, page
    return pin(choice, grown), _lifted(page, lines, floor)


def _bare(snap: Snapshot, blocks, sig: np.ndarray, holder: np.ndarray,
          kept: np.ndarray, inside: np.ndarray) -> np.ndarray:
    """A mask over the blocks `inside` the element of bare text in a row that is its own
    classed holder (`signatures`) of the tag and class (trailing digits left out) of a
    `kept` block's holder, but for copies (`_copies`). Invision writes a post's text in `p`s inside `div.ipsType_richText` and a
    one-line reply bare in the same div, which is then the reply's block and its own
    holder: its signature (`div` under that div) never matched the first post's (`p`
    under it), and the reply was dropped (NOTES.md, 'Why a forum's replies are kept like
    its first post'). Only this way round: a kept bare post names no block inside a row
    of its kind."""
    own = inside & (sig >= 0) & (holder == blocks.rows) & (blocks.chars > 0)
    if not own.any():
        return own
    classed = np.flatnonzero(sig >= 0)
    # the holders' kinds (tag and class), digits left out as in `signatures`
    kinds = np.full(len(sig), -1, np.int64)
    kinds[classed] = first_seen(zip(snap.tag[holder[classed]].tolist(),
                                    [c.rstrip(comments.DIGITS)
                                     for c in snap.cls[holder[classed]].tolist()]),
                                len(classed))
    liked = np.zeros(int(kinds.max()) + 1, np.bool_)
    liked[kinds[kept & (sig >= 0)]] = True
    out = own & liked[np.maximum(kinds, 0)]
    if out.any():
        out &= ~_copies(snap, blocks, out, inside & (blocks.chars > 0) & ~out)
    return out


def _copies(snap: Snapshot, blocks, which: np.ndarray, others: np.ndarray) -> np.ndarray:
    """A mask over blocks: those of `which` whose text, its trailing dots and ellipsis
    left out, the blocks of `others` hold (read one after the other). Talkyard's "Recent comments in this topic"
    box beside the thread, inside the element, writes each post's text or its excerpt
    ("Just a precision: begin small and …. ") bare in the posts' own row, which the
    thread writes in `p`s: lifted, the box doubled the thread (magic_html's Talkyard
    topic 0.989 -> 0.918); a reply is a text of its own."""
    at = np.flatnonzero(which)
    # joined as a reader reads them: an excerpt runs over a post's paragraphs
    said = " ".join(segment.texts(snap, blocks, np.flatnonzero(others)))
    out = np.zeros(len(which), np.bool_)
    for i, text in zip(at.tolist(), segment.texts(snap, blocks, at)):
        line = text.rstrip(" .\u2026")
        out[i] = bool(line) and line in said
    return out


def _best(candidates: np.ndarray, p: np.ndarray) -> np.ndarray:
    """A mask over blocks holding the one of `candidates` (a mask) with the highest `p`,
    none when there is no candidate."""
    out = np.zeros(len(candidates), np.bool_)
    at = np.flatnonzero(candidates)
    if len(at):
        out[at[np.argmax(p[at])]] = True
    return out


def _lifted(page: Judged, rows: np.ndarray, floor: float) -> Judged:
    """`page` with the blocks `rows` (a mask over blocks) judged at least `floor`."""
    if not rows.any():
        return page
    return dataclasses.replace(page, p=np.where(rows, np.maximum(page.p, floor), page.p))


def sign_offs(snap: Snapshot) -> np.ndarray:
    """Rows whose id or class names a post's sign-off (SIGN_OFF_NAME, any case:
    `signature`, `post-signature`, `ksig`, `ipsSignature`, `sign`)."""
    return named_rows(snap, SIGN_OFF_NAME, SIGN_OFF_LITERALS)


def notices(snap: Snapshot) -> np.ndarray:
    """Rows whose id or class names a board's notice (NOTICE_NAME, any case:
    `bottom-notice`, `bbp-template-notice`, `announcement`, `userBanner`, `alert`)."""
    return named_rows(snap, NOTICE_NAME, NOTICE_LITERALS)


def named_rows(snap: Snapshot, name: re.Pattern, literals: tuple[str, ...]) -> np.ndarray:
    """Rows whose id or class, lower-cased, holds a match of `name`; each distinct
    attribute tested once, only those holding one of `literals` (comments.name_rows)."""
    return comments.name_rows(snap, lambda value: name.search(value.lower()) is not None,
                              prefilter=literals)


def without_named(snap: Snapshot, feats: Features, node: int, page: Judged, blocks,
                  named: np.ndarray) -> Judged:
    """`page` with every block inside a `named` row (`sign_offs`, `notices`) judged no
    content, unless the outermost such rows inside the element (`node`) hold together at
    least NAMED_SHARE of its visible text (the name is the posts' own); `page` as it is
    when no such row holds a block."""
    if not named.any():
        return page
    top = named & ~snap.below(named)
    held = top & (np.arange(snap.n) >= node) & (np.arange(snap.n) < snap.end[node])
    if float(feats.chars[held].sum()) >= NAMED_SHARE * float(feats.chars[node]):
        return page
    return page.dropping(snap.subtrees(np.flatnonzero(top))[blocks.rows])


def repeated_lines(snap: Snapshot, node: int, page: Judged, blocks) -> Judged:
    """`page` with every copy but the first of a line the element (`node`) shows in at
    least REPEAT_MIN blocks (the same text, whitespace aside, of at least REPEAT_WORDS
    words, outside code and quotes: QUOTE_TAGS) judged no content; the first copy keeps
    the model's judgement (a thread's own "Re: <topic>" once, as some truths keep it).
    `page` as it is when there is none."""
    rows = blocks.rows
    inside = (rows >= node) & (rows < snap.end[node]) & (blocks.chars > 0)
    quoted = tag_in(snap, QUOTE_TAGS)
    if quoted.any():
        inside &= ~snap.subtrees(np.flatnonzero(quoted))[rows]
    at = np.flatnonzero(inside)
    if len(at) < REPEAT_MIN:
        return page
    lines = [" ".join(page.texts[i].split()) for i in at.tolist()]
    code = first_seen(lines, len(lines))
    copies = np.bincount(code, minlength=len(lines))[code]
    words = np.fromiter((line.count(" ") + 1 for line in lines), np.int64, len(lines))
    later = (code != np.arange(len(lines))) & (copies >= REPEAT_MIN) & (words >= REPEAT_WORDS)
    if not later.any():
        return page
    p = page.p.copy()
    p[at[later]] = 0.0
    return dataclasses.replace(page, p=p)
