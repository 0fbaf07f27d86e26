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


# Where a tag starts as the tokenizer reads one: "<" or "</" and a letter.
_TAG_START = re.compile(r"</?[a-zA-Z]")


def _inside_tag(html: str, start: int, at: int) -> bool:
    """Whether `at` lies inside a tag opened after `start`: a tag start with no ">" after
    it before `at`. The tokenizer reads a tag to its ">", so a "<!--" or "<script" there
    is part of the tag's name or attributes (`<div<!---->x>` is one tag, `div<!----`)."""
    closed = html.rfind(">", start, at)
    return _TAG_START.search(html, start if closed < 0 else closed + 1, at) is not None


def _tag_spans(html: str) -> list[tuple[int, int]]:
    """The (start, end) spans of `html` that may hold tags: the page without its
    comments and its raw-text elements' contents (script, style...), whose "<" are text;
    a comment or raw-text start tag written inside a tag is none. One search per comment,
    element or such tag: linear in the page."""
    spans, at, look = [], 0, 0
    while True:
        m = _SKIPPED.search(html, look)
        if m is None:
            spans.append((at, len(html)))
            return spans
        if _inside_tag(html, at, m.start()):           # read on to the tag's ">"
            end = html.find(">", m.start())
            if end < 0:
                spans.append((at, len(html)))
                return spans
            look = end + 1
            continue
        spans.append((at, m.start()))
        if m.group(1) is None:
            end = html.find("-->", m.end())
            at = len(html) if end < 0 else end + 3
        else:
            close = _closer(m.group(1)).search(html, m.end())
            at = len(html) if close is None else close.end()
        look = at


# A tag as the bound reads it: the same matches as _TAG_SPAN (one span at a time: a tag
# ends at its span's end as the exact pass reads it), "/" of an end tag and the name in
# one group; with its rest as a second group for the self-closing ones (`_FLAGGED`).
_TAG = re.compile(r"<(/?[a-zA-Z][^\s/>]*)[^>]*")
_FLAGGED = re.compile(r"<(/?[a-zA-Z][^\s/>]*)([^>]*)")


def _tag_names(html: str, pattern: re.Pattern = _TAG) -> list:
    """What `pattern` finds in each span of `_tag_spans(html)`, in order: the tags the exact
    pass reads, none made of two spans' pieces and none inside another tag's attributes."""
    names: list = []
    for start, end in _tag_spans(html):
        names += pattern.findall(html, start, end)
    return names


def _counter_bound(name_id: np.ndarray, step: np.ndarray) -> int:
    """The largest sum over names of each name's clamped counter (up at a step of +1, down
    at -1 while above zero), tags in page order: never below the elements open."""
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
    span = 2 * len(sid) + 2                              # so each segment's minima restart
    low = np.minimum.accumulate(own - segment * span) + segment * span
    count = own - np.minimum(low, 0)                     # the clamped counter, after each tag
    before = np.where(first, 0, np.concatenate(([0], count[:-1])))
    change = np.empty(len(sid), np.int64)
    change[order] = count - before
    return int(np.cumsum(change).max())


def _spelled(tags: list) -> tuple[np.ndarray, np.ndarray, list[str]]:
    """(name code, step, names) of each tag spelling in `tags` ("div", "/DIV"): the step
    +1 for a start tag that opens, 0 for one that never does, -1 for an end tag."""
    spellings = list(set(tags))                    # a few dozen on a real page
    code = {t: k for k, t in enumerate(spellings)}
    names: dict[str, int] = {}
    spelling_name = np.array([names.setdefault(t.lstrip("/").lower(), len(names))
                              for t in spellings], np.int64)
    spelling_step = np.array([-1 if t[0] == "/" else
                              0 if t.lower() in _NOT_OPENED else 1 for t in spellings], np.int64)
    which = np.fromiter(map(code.__getitem__, tags), np.int64, len(tags))
    return spelling_name[which], spelling_step[which], list(names)


def depth_bound(html: str) -> int:
    """An upper bound of the depth `capped` tracks, in C-speed scans and numpy: each tag
    name on its own is a counter (up at a start tag, down at an end tag while above
    zero), and their sum bounds the elements open (each name's counter is never below
    the elements of that name open, whatever closes them). A page whose opening start
    tags are at most MAX_DEPTH in all is answered by their count. Self-closing tags
    count as opening (a `<path/>` outside svg and math does open) unless that bound is
    over MAX_DEPTH: then those where an svg or math element is surely open
    (`_in_foreign`) count as nothing, as the exact pass skips them there (NOTES.md,
    'Why the depth bound reads the exact pass's tags and skips a drawing's self-closing
    ones')."""
    tags = _tag_names(html)                            # "div", "/div", "DIV", ...
    if len(tags) <= MAX_DEPTH:
        return len(tags)
    name_id, step, names = _spelled(tags)
    opening = int(np.count_nonzero(step > 0))           # every counter's sum is at most
    if opening <= MAX_DEPTH:                            # the start tags that open: half a
        return opening                                  # crawl's pages need no order
    bound = _counter_bound(name_id, step)
    if bound <= MAX_DEPTH or not any(name in _FOREIGN for name in names):
        return bound
    rests = _tag_names(html, _FLAGGED)                  # the same tags, with their rests
    closing = np.fromiter((rest[-1:] == "/" for _, rest in rests), np.bool_, len(rests))
    closing &= step > 0                                 # self-closing, opening outside
    if not closing.any():
        return bound
    step = np.where(closing & _in_foreign(name_id, step, closing, names), 0, step)
    return _counter_bound(name_id, step)


def _in_foreign(name_id: np.ndarray, step: np.ndarray, closing: np.ndarray,
                names: list[str]) -> np.ndarray:
    """Whether each tag lies where an svg or math element is surely open in the exact
    pass, in numpy: after its start tag, up to the first tag that may close it. Read
    without the self-closing tags (which open nothing there) and without end tags of
    names that never open (nothing to the exact pass), the tags after it are taken while
    they nest as brackets whose pairs share their name: then each end tag closes only
    its own pair, on top of the exact pass's stack, and the svg stays open. The region
    ends at the first end tag that pairs with the svg itself or a tag before it (the svg
    may close there), or with a start tag of another name (the exact pass may close more
    than its pair). An svg whose content is less regular covers less: never more."""
    n = len(name_id)
    never = np.array([name in _NOT_OPENED for name in names], np.bool_)[name_id]
    kept = np.flatnonzero((step != 0) & ~closing & ~((step < 0) & never))
    m = len(kept)
    if m == 0:                                           # no svg or math start tag opens
        return np.zeros(n, np.bool_)
    sid, kind = name_id[kept], step[kept]
    after = np.cumsum(kind)                              # the level after each tag
    before = after - kind
    low = int(min(after.min(), before.min()))
    width = m + 1                                        # a key: level, then place

    def keyed(where: np.ndarray, level: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        key = (level - low) * width + where
        order = np.argsort(key)
        return key[order], where[order]

    starts, ends = np.flatnonzero(kind > 0), np.flatnonzero(kind < 0)
    # each end tag's pair: the last start tag before it that rose to the level it leaves
    start_key, by_start = keyed(starts, after[starts])
    at = np.searchsorted(start_key, (before[ends] - low) * width + ends) - 1
    pair = by_start[np.maximum(at, 0)]
    paired = (at >= 0) & (after[pair] == before[ends])
    wrong = np.sort(ends[~paired | (sid[pair] != sid[ends])])
    wrong = np.append(wrong, m)                          # a sentinel past the last tag
    # each svg or math start tag, and the first end tag after it leaving its level
    foreign = [k for k, name in enumerate(names) if name in _FOREIGN]
    opens = starts[np.isin(sid[starts], foreign)]
    end_key, by_end = keyed(ends, before[ends])
    at = np.searchsorted(end_key, (after[opens] - low) * width + opens, "right")
    close = np.append(by_end, m)[at]
    close = np.where((close < m) & (before[np.minimum(close, m - 1)] == after[opens]),
                     close, m)
    stop = np.minimum(close, wrong[np.searchsorted(wrong, opens, "right")])
    edge = np.zeros(n + 1, np.int64)                     # +1 after each start, -1 at its stop
    np.add.at(edge, kept[opens] + 1, 1)
    np.add.at(edge, np.append(kept, n)[stop], -1)
    return np.cumsum(edge[:n]) > 0


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
