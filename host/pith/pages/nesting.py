"""Cap how deep an HTML page nests before it is parsed, as Chromium's parser caps its tree.

lexbor's tree construction costs time per start tag in proportion to the elements still
open (its scope checks walk the stack of open elements), so a page nested d deep parses in
O(n·d): 40,000 nested `<div>`s took 5.4 s, 50,000 unclosed ones 10.6 s, 100,000 nested
36 s. Browsers bound the depth of the tree their parser builds (Chromium: 512 levels,
`kMaximumHTMLParserDOMTreeDepth`; what lies deeper is attached at that depth). `capped`
does the same on the page's text before lexbor sees it: it follows the elements a parser
keeps open (start and end tags matched by name, void elements, tags with optional end
tags, raw-text elements and comments skipped), and an element that would open beyond
MAX_DEPTH is put beside the one open there (which is closed first: `</div>` is written
before its start tag, and its own end tag is dropped). As in Chromium, the elements
deeper than the cap become siblings at the cap, the text stays in the innermost open
one, in order, and block boundaries stay. A page that stays under the cap is returned unchanged (the same
str). `depth_bound` decides cheaply (C-speed scans, numpy) whether a page can be that
deep at all, so the exact pass runs only on such pages.

The tracking is an approximation of tree construction (implied end tags, formatting
elements and foster parenting are not replayed): it can only under-count depth by a small
factor (a `li` inside a `div` inside a `li` opens one element more than it counts), so
lexbor's stack stays within a few times MAX_DEPTH and the parse is linear (NOTES.md,
'Why frames, the cache and static parses are bounded by size').
"""
from __future__ import annotations

import re
from functools import lru_cache

import numpy as np

from ..pipeline import wordtrie

# Deepest element the parser is let build: Chromium's cap (browsers build no deeper tree).
MAX_DEPTH = 512

# Elements that never hold content (no end tag), and elements whose end tag is optional
# and which a sibling closes (li, p, td...): neither nests by being repeated, so neither
# is counted as open.
_NOT_OPENED = frozenset({
    "area", "base", "basefont", "bgsound", "br", "col", "embed", "frame", "hr", "img",
    "input", "keygen", "link", "meta", "param", "source", "track", "wbr", "image",
    "p", "li", "dt", "dd", "option", "optgroup", "tr", "td", "th", "tbody", "thead",
    "tfoot", "rb", "rt", "rtc", "rp", "colgroup", "caption", "html", "head", "body"})

# Inside these (foreign content) `<x/>` closes itself; in HTML it opens `x` like `<x>`.
_FOREIGN = ("svg", "math")

# The quick bound's tags: "/" of an end tag and the name, nothing else (a C-speed scan).
_TAG = re.compile(r"<(/?[a-zA-Z][^\s/>]*)")
# Where text that holds no tags starts, and the end of each kind: a comment, or one of
# RAW_TEXT (its names as a trie, wordtrie.py: at each "<" of a page one comparison per
# first letter, not one attempt per name; tests/test_nesting.py compares the two).
RAW_TEXT = ("script", "style", "textarea", "title", "xmp", "iframe", "noembed", "noframes")
_SKIPPED = re.compile(r"<(?:!--|(" + wordtrie.trie([(n, "") for n in RAW_TEXT]) + r")\b)",
                      re.I)


# A tag as the exact pass reads it: "/" of an end tag, the name, and up to its ">" (or
# the end of the page, as the tokenizer reads a tag cut by the end of input).
_TAG_SPAN = re.compile(r"<(/?)([a-zA-Z][^\s/>]*)[^>]*")


@lru_cache(maxsize=64)
def _closer(name: str) -> re.Pattern:
    """The end tag of the raw-text element `name` as the page spells it: kept compiled, a
    page asks for it at each of its scripts (re.compile's own cache costs a Python call
    and a key of three parts each time)."""
    return re.compile(r"</" + name + r"\s*>", re.I)


def _tag_spans(html: str) -> list[tuple[int, int]]:
    """The (start, end) spans of `html` that may hold tags: the page without its
    comments and its raw-text elements' contents (script, style...), whose "<" are text.
    One search per comment or element: linear in the page."""
    spans, at = [], 0
    while True:
        m = _SKIPPED.search(html, at)
        if m is None:
            spans.append((at, len(html)))
            return spans
        spans.append((at, m.start()))
        if m.group(1) is None:
            end = html.find("-->", m.end())
            at = len(html) if end < 0 else end + 3
        else:
            close = _closer(m.group(1)).search(html, m.end())
            at = len(html) if close is None else close.end()


def _tag_text(html: str) -> str:
    """`html` without its comments and raw-text elements' contents."""
    return "".join(html[a:b] for a, b in _tag_spans(html))


def depth_bound(html: str) -> int:
    """An upper bound of the depth `capped` tracks, in C-speed scans and numpy: each tag
    name on its own is a counter (up at a start tag, down at an end tag while above
    zero), and their sum bounds the elements open (each name's counter is never below
    the elements of that name open, whatever closes them). Self-closing tags and tags of
    foreign content count as opening: only an over-estimate, never an under-one. A page
    whose opening start tags are at most MAX_DEPTH in all is answered by their count."""
    tags = _TAG.findall(_tag_text(html))        # "div", "/div", "DIV", ...
    if len(tags) <= MAX_DEPTH:
        return len(tags)
    spellings = list(set(tags))                    # a few dozen on a real page
    code = {t: k for k, t in enumerate(spellings)}
    names: dict[str, int] = {}
    spelling_name = np.array([names.setdefault(t.lstrip("/").lower(), len(names))
                              for t in spellings], np.int64)
    spelling_step = np.array([-1 if t[0] == "/" else
                              0 if t.lower() in _NOT_OPENED else 1 for t in spellings], np.int64)
    which = np.fromiter(map(code.__getitem__, tags), np.int64, len(tags))
    name_id, step = spelling_name[which], spelling_step[which]
    opening = int(np.count_nonzero(step > 0))           # every counter's sum is at most
    if opening <= MAX_DEPTH:                            # the start tags that open: half a
        return opening                                  # crawl's pages need no order
    order = np.argsort(name_id, kind="stable")          # each name's tags, in page order
    sid, sstep = name_id[order], step[order]
    first = np.ones(len(sid), np.bool_)
    first[1:] = sid[1:] != sid[:-1]
    segment = np.cumsum(first) - 1
    total = np.cumsum(sstep)
    # each name's running sum: the total less the total before its first tag (a running
    # maximum of those starts was wrong when a name's tags sum below zero: the names
    # after it each lost up to one, and `</y-1><x-1></y-2><x-2>…` bounded 3,000 levels by 0)
    own = total - (total - sstep)[first][segment]
    span = 2 * len(tags) + 2                             # so each segment's minima restart
    low = np.minimum.accumulate(own - segment * span) + segment * span
    count = own - np.minimum(low, 0)                     # the clamped counter, after each tag
    before = np.where(first, 0, np.concatenate(([0], count[:-1])))
    change = np.empty(len(tags), np.int64)
    change[order] = count - before
    return int(np.cumsum(change).max())


def _whole(html: str, m: re.Match) -> tuple[int, int]:
    """The span of a tag match with its closing ">" when it has one."""
    end = m.end()
    return m.start(), end + 1 if html.startswith(">", end) else end


def _tags(html: str):
    """The tag matches of `html` (_TAG_SPAN) outside comments and raw text, in order."""
    for start, end in _tag_spans(html):
        yield from _TAG_SPAN.finditer(html, start, end)


def capped(html: str, max_depth: int = MAX_DEPTH) -> str:
    """`html` with no element opened deeper than `max_depth` + 1, as Chromium builds it:
    an element that would open beyond the cap is put beside the one before it there (that
    one is closed first), so the elements beyond the cap are siblings and the text stays
    in the innermost open one; their end tags close them, or are dropped when the element
    was already closed. `html` itself when nothing is that deep."""
    # a page of at most max_depth characters cannot open more elements (depth_bound's
    # own first answer on a short page: its tag count); no pass counts its "<" first
    if len(html) <= max_depth or depth_bound(html) <= max_depth:
        return html
    stack: list[str] = []                     # the elements open up to the cap
    open_count: dict[str, int] = {}
    deep: list[str] = []                      # elements opened beyond it, outermost first
    deep_count: dict[str, int] = {}
    deep_open = False                         # whether deep[-1] is open in the output
    edits: list[tuple[int, int, str]] = []    # (start, end, what replaces the span)
    for m in _tags(html):
        name = m.group(2).lower()
        if m.group(1):                        # an end tag
            if deep_count.get(name):          # closes a deep element, and those inside it
                open_name = deep[-1] if deep_open else None
                popped = 0
                while True:
                    top = deep.pop()
                    deep_count[top] -= 1
                    popped += 1
                    if top == name:
                        break
                if open_name is None:         # already closed in the output: dropped
                    edits.append((*_whole(html, m), ""))
                elif popped > 1:              # it closes the element open in the output
                    edits.append((*_whole(html, m), f"</{open_name}>"))
                deep_open = False             # (popped == 1: it is that element's own)
            elif open_count.get(name):        # close it and everything opened inside it
                while True:
                    top = stack.pop()
                    open_count[top] -= 1
                    if top == name:
                        break
                deep.clear()
                deep_count.clear()
                deep_open = False
            continue
        if name in _NOT_OPENED or (html[m.end() - 1] == "/"
                                   and any(open_count.get(f) for f in _FOREIGN)):
            continue
        if len(stack) >= max_depth:           # beyond the cap: beside the one before
            if deep_open:
                edits.append((m.start(), m.start(), f"</{deep[-1]}>"))
            deep.append(name)
            deep_count[name] = deep_count.get(name, 0) + 1
            deep_open = True
            continue
        stack.append(name)
        open_count[name] = open_count.get(name, 0) + 1
    if not edits:
        return html
    pieces, at = [], 0
    for start, end, text in edits:
        pieces.append(html[at:start])
        pieces.append(text)
        at = end
    pieces.append(html[at:])
    return "".join(pieces)
