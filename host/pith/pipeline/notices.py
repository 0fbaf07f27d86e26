"""Platform notices: the lines a site prints around every post for itself — a platform's hosting statement, a newsletter's sign-up prompt — which are not the post.

A self-media platform ends every post it hosts with its legal statement ("特别声明：以上内容
…为自媒体平台“网易号”用户上传并发布，本平台仅提供信息存储服务。", NetEase; "平台声明：…搜狐仅
提供信息存储空间服务。", Sohu), and a news or magazine site breaks or ends its story with a
newsletter box ("Sign up for Mashable's weekly Light Speed newsletter.", "By signing up you
agree to our Terms of Use and Privacy Policy.", "Thanks for signing up!"). Inside the chosen
element, the block model judges such a line as it judges the story's sentences and keeps
it (issue 33: the lines around the body; on a three-line Sohu story the statement is a
quarter of the answer). The truths leave both out: counted on the training sites before
the rules, in auto's answers, every line of these forms was one its truth lacks (NOTES.md,
'Why a platform's notices are left out').

Decisions a change must keep (that section):
- a line is a notice by its words: the hosting statement's own phrase (HOSTING, Chinese and
  its English twin), or a sign-up prompt's consent, confirmation or call (SIGNUP) — a
  call only when it names a newsletter, a mailing list or e-mail: "Sign up for Coursera
  Plus", "Sign up to take action in your state" are the text's;
- only a short block (NOTICE_CHARS): a paragraph that mentions a newsletter in passing, or
  an article about subscriptions, is text;
- a prompt's box goes with it, but only a box of short lines (BOX_CHARS, BOX_LINE_CHARS):
  a container that holds a paragraph is the story's;
- on every page type, after the element is chosen, as the rights lines are.
"""
from __future__ import annotations

import re

import numpy as np

from .blocks import features as bf

# A platform's hosting statement (lower-cased, whitespace collapsed): it "only provides an
# information storage (space) service" for what its users upload — the phrase the Chinese
# platforms' statements share (网易号, 搜狐号, 百家号 …) and NetEase's English twin.
HOSTING = re.compile(r"仅提供信息存储|only provides? information storage")
# A newsletter's sign-up prompt: the consent under its form ("By signing up you agree …",
# "By entering your email address you agree …"), its confirmation ("Thanks for signing
# up!", "Awesome, you're subscribed!"), or its call, at a sentence's start, naming what is
# sent ("Sign up for our newsletter …", "Join our mailing list!", "… Sign up for our email,
# delivered twice a week."), or offering the newsletter ("Get our free weekly newsletter";
# "get" with e-mail alone is a contact line's, "Get in touch by email").
SIGNUP = re.compile(
    r"^by (?:signing up|subscribing|entering your e-?mail(?: address)?)\b.*\b(?:agree|consent)"
    r"|(?:^|[.!?]\s+)(?:thanks|thank you) for (?:signing up|subscribing)\b"
    r"|\byou(?:'|’| a)re (?:now )?subscribed[.!]*$"
    r"|(?:^|[.!?]\s+)(?:sign up|subscribe|join)\b[^.!?]{0,60}?"
    r"\b(?:newsletters?|mailing list|e-?mails?|inbox)\b"
    r"|(?:^|[.!?]\s+)get (?:our|the)\b[^.!?]{0,40}?\bnewsletters?\b")
# A prompt's box: the largest container round a sign-up prompt of at most BOX_CHARS
# visible (non-space) characters whose other text blocks are each a line of at most
# BOX_LINE_CHARS — the box's name and its question ("Mashable Light Speed", "Want more
# out-of-this world tech, space and science stories?", 56). A container holding a
# paragraph of the story is no box, however short the story.
BOX_CHARS = 400
BOX_LINE_CHARS = 80
# A notice is a short block: NetEase's English statement, the longest the training pages
# wrote, is 206 characters; Time Out's consent line 190. Longer, a block is prose that
# mentions a newsletter.
NOTICE_CHARS = 300
# A word one of which every match of HOSTING holds (lower-cased) ...
HOSTING_WORDS = ("仅提供信息存储", "information storage")
# ... and of SIGNUP: "signing up"/"sign up", "subscribing"/"subscribe"/"subscribed", "join",
# "entering your e-mail", "newsletter". A text without any is not read (NOTES.md, 'Why
# the line rules search a page's texts at once').
SIGNUP_WORDS = ("sign", "subscrib", "join", "entering your e", "newsletter")


def _found(texts: list[str], pattern: re.Pattern, words: tuple[str, ...],
           join: bf.Joined | None) -> np.ndarray:
    """Bool per block text of at most NOTICE_CHARS characters that `pattern` finds in;
    only the texts holding one of `words` (in `join`, bf.joined of the texts; made when
    None) are read."""
    out = np.zeros(len(texts), bool)
    join = bf.joined(texts) if join is None else join
    short = (join.n > 0) & (join.n <= NOTICE_CHARS)
    for i in (short & join.holding(words)).nonzero()[0].tolist():   # a prompt or two
        text = texts[i]
        if len(text) <= NOTICE_CHARS:
            out[i] = pattern.search(text.lower()) is not None
    return out


def hosting(texts: list[str], join: bf.Joined | None = None) -> np.ndarray:
    """Bool per block text (whitespace collapsed, as segment.texts gives them): a
    platform's hosting statement (HOSTING)."""
    return _found(texts, HOSTING, HOSTING_WORDS, join)


def signups(texts: list[str], join: bf.Joined | None = None) -> np.ndarray:
    """Bool per block text (whitespace collapsed, as segment.texts gives them): a
    newsletter's sign-up prompt (SIGNUP)."""
    return _found(texts, SIGNUP, SIGNUP_WORDS, join)


def boxes(snap, feats, blocks, found: np.ndarray) -> np.ndarray:
    """Bool per block (`blocks`, segment.Blocks): `found` (the prompts, per block) and every
    block inside a prompt's box (BOX_CHARS, BOX_LINE_CHARS)."""
    out = found.copy()
    rows = blocks.rows
    line = (blocks.chars <= BOX_LINE_CHARS) | found
    for row in rows[found].tolist():       # a page shows a prompt or two
        box, node = -1, row
        while node >= 0 and feats.chars[node] <= BOX_CHARS:
            inside = (rows >= node) & (rows < snap.end[node])
            if not line[inside].all():
                break
            box, node = node, int(snap.parent[node])
        if box >= 0:
            out |= (rows >= box) & (rows < snap.end[box])
    return out

