"""A board's tally lines ("4 replies 0 likes 0 votes 188 views", "2 Answers"): a thread's counts, not a post's text.

A forum or a Q&A engine writes its thread's counts beside the posts: wpForo's topic bar
("Feature suggestions 4 replies 0 likes 0 votes 188 views"), Stack Exchange's heading over
the answers ("4 Answers", an `h2`), Discourse's and Talkyard's reply counts, a Chinese
board's "1350 次阅读". The block model reads such a line inside the thread's element as a
short line of the posts and keeps it; the text truths leave it out (NOTES.md, 'Why a
board's tally lines are left out'). Decisions a change must keep (that section):
- a line is a tally by its words: numbers each followed by a count's noun (TALLY) make at
  least TALLY_SHARE of its words, so "Feature suggestions" beside four counts is the
  topic bar, and "I got 2 answers from them" is a reply;
- the number comes first: an author line's "(Questions: 37, Answers: 4091)" names counts
  after their noun and is the author's, kept where the truths keep it;
- at most TALLY_WORDS words: a tally is a line, never a paragraph;
- on a forum's or a Q&A site's page only (posts.forum): a listing's "14 comments" under
  each item is the item's.
"""
from __future__ import annotations

import re

import numpy as np

# A count: a number ("4", "1,350", "2.5k") and a count's noun just after it, English or
# Chinese (the boards of the training pages: replies, answers, views, likes, votes,
# comments, posts, bbPress's "voices"; 回复 replies, 回答 answers, 阅读 and 浏览 reads, 评论
# comments, with their measure words 条, 个, 次). The noun ends at a word's end: "2 posts"
# but not "2 postscripts".
TALLY = re.compile(
    r"\d[\d,.]*\s*[km]?\s*(?:repl(?:y|ies)|answers?|views?|likes?|votes?|comments?|posts?"
    r"|voices?|次?阅读|条?回复|个?回答|次?浏览|条?评论)(?![^\W\d_])", re.IGNORECASE)
# Words as the shared scorer counts them: runs of word characters.
WORD = re.compile(r"\w+")
# A tally line's counts (number and noun, two words each) make at least this share of
# its words: wpForo's bar is 8 of 10, "2 Answers" 2 of 2; a reply saying "I have 2 answers"
# is 2 of 4.
TALLY_SHARE = 0.6
# ... and it is at most this many words: a topic bar of four counts and a forum's name.
TALLY_WORDS = 12
# A block longer than this many characters is never a tally line (read before its words
# are: most blocks are prose).
TALLY_CHARS = 120


def lines(texts: list[str]) -> np.ndarray:
    """Bool per block text: a tally line (at most TALLY_WORDS words, counts at least
    TALLY_SHARE of them)."""
    out = np.zeros(len(texts), bool)
    size = np.fromiter(map(len, texts), np.int64, len(texts))
    for i in np.flatnonzero((size > 0) & (size <= TALLY_CHARS)).tolist():
        text = texts[i]                   # a regular expression or two per short block
        words = len(WORD.findall(text))
        if not 0 < words <= TALLY_WORDS:
            continue
        counted = sum(len(WORD.findall(m.group())) for m in TALLY.finditer(text))
        out[i] = counted > 0 and counted >= TALLY_SHARE * words
    return out


def without(page):
    """`page` (keep.Judged) with every tally line judged no content; `page` as it is
    when it shows none."""
    return page.dropping(lines(page.texts))
