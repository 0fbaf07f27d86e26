"""Word families of class and id names: which of FAMILIES a name's words fall in, for many names at once.

`FAMILIES` is the definition: per family, a regular expression of alternatives, and a
name is in a family when, scanning it from the left as `reference_pattern()` does (the
families' alternatives in order, the first that matches at a place wins, matches do not
overlap), a match of that family occurs. The block features read these bits for the class
and id of every row they score (block_features.name_families).

Scanning that one alternation is slow: Python's regular expressions try each of its
eighty-odd alternatives at almost every character (a quarter of a crawl page's block
features went there). `families_of` finds exactly the same matches with the
alternatives arranged as a trie of their literal prefixes (`_trie_pattern`): each branch
starts with one literal character, which the engine checks before entering it, so a place
costs about one comparison per first letter, not one attempt per alternative. The
arrangement keeps the reference's order wherever two alternatives can match at one place
(checked when the pattern is built; tests/test_families.py compares the two on random
names). All the names of a page are scanned as one string.

Two rewrites make every alternative start with a literal: the names are scanned with
their whitespace runs as single spaces and a space before each ("(^|[-_\\s])ad" then
starts with a space, a dash or an underscore), and a word boundary before a literal
becomes a look-behind at its end ("\\bbio": "bio" preceded by a non-word character).
Matches never span whitespace but for the ad family's separators, so neither changes a
name's families.
"""
from __future__ import annotations

import re
from functools import lru_cache

import numpy as np

# Word families of class and id names (lower-cased; matched anywhere in the name).
FAMILIES = {
    "comment": r"comment|disqus|respond|replies|reply|discuss",
    "share": r"share|social|sharing|facebook|twitter|whatsapp|pinterest|linkedin|print",
    "related": r"related|recommend|more-?stor|read-?next|readnext|popular|trending|most-?read|"
               r"outbrain|taboola|teaser|also",
    "author": r"author|byline|avatar|writer|contributor|profile|\bbio",
    "subscribe": r"newsletter|subscri|signup|sign-up|promo|cta|paywall|regist|login",
    "ad": r"(^|[-_\s])ads?([-_\s]|$)|advert|sponsor|banner|dfp|gpt-|doubleclick",
    "nav": r"nav|menu|breadcrumb|paginat|pager|skip",
    "footer": r"footer|copyright|legal|colophon",
    "sidebar": r"sidebar|widget|aside|rail",
    "meta": r"meta|date|time|tags?\b|categor|posted|dateline",
    "caption": r"caption|credit|figure",
    "content": r"content|article|post|entry|body|text|story|main|prose",
}
COLUMN = {family: c for c, family in enumerate(FAMILIES)}

# The guards an alternative may start with, and the first characters each stands for in
# a name scanned with a space before it and single spaces (see the module's docstring).
_START_OR_SEPARATOR = r"(^|[-_\s])"
_WORD_BOUNDARY = "\\b"
_SEPARATORS = " -_"
_LITERAL = re.compile(r"[a-z-]*")


def reference_pattern() -> re.Pattern:
    """FAMILIES as one alternation, a named group per family: the definition."""
    return re.compile("|".join(f"(?P<{k}>{v})" for k, v in FAMILIES.items()))


def _alternatives(pattern: str) -> list[str]:
    """The top-level alternatives of `pattern` (its '|' outside parentheses)."""
    out, depth, start = [], 0, 0
    for i, c in enumerate(pattern):
        depth += (c == "(") - (c == ")")
        if c == "|" and depth == 0:
            out.append(pattern[start:i])
            start = i + 1
    return out + [pattern[start:]]


def _leaves() -> list[tuple[str, str, str, int]]:
    """(literal prefix, rest, group name, order) of every alternative of FAMILIES, the
    guards rewritten (one leaf per separator for the ad family's), order its place in the
    reference alternation."""
    leaves = []
    order = 0
    for family, pattern in FAMILIES.items():
        for i, alt in enumerate(_alternatives(pattern)):
            heads, behind = [""], ""
            if alt.startswith(_START_OR_SEPARATOR):
                heads, alt = list(_SEPARATORS), alt[len(_START_OR_SEPARATOR):]
            elif alt.startswith(_WORD_BOUNDARY):
                alt, behind = alt[len(_WORD_BOUNDARY):], "\\W"
            literal = _LITERAL.match(alt).group()
            if alt[len(literal):len(literal) + 1] in ("?", "*", "+", "{"):
                literal = literal[:-1]            # the quantifier reads the last letter
            rest = alt[len(literal):].replace("(?:", "(").replace("(", "(?:")
            if behind:
                rest = f"(?<={behind}{re.escape(literal)}){rest}"
            for k, head in enumerate(heads):
                leaves.append((head + literal, rest, f"{family}_{i}_{k}", order))
            order += 1
    return leaves


def _trie(leaves: list, depth: int) -> str:
    """The pattern of `leaves` (sharing their first `depth` literal characters): the
    alternatives ending here, then one branch per next character, in the order of each
    entry's first alternative. Raises if that order could let a later alternative win over
    an earlier one: an alternative ending here against a branch whose alternatives are not
    all before or all after it."""
    entries = [(leaf[3], [leaf[3]], f"(?P<{leaf[2]}>{leaf[1]})")
               for leaf in leaves if len(leaf[0]) == depth]
    ending = [e[0] for e in entries]
    by_char: dict[str, list] = {}
    for leaf in leaves:
        if len(leaf[0]) > depth:
            by_char.setdefault(leaf[0][depth], []).append(leaf)
    for char, sub in by_char.items():
        orders = [leaf[3] for leaf in sub]
        for end in ending:
            if min(orders) < end < max(orders):
                raise ValueError(f"families: alternatives after {char!r} straddle one "
                                 f"ending before it; reorder FAMILIES")
        entries.append((min(orders), orders, re.escape(char) + _trie(sub, depth + 1)))
    entries.sort(key=lambda e: e[0])
    if len(entries) == 1:
        return entries[0][2]
    return "(?:" + "|".join(e[2] for e in entries) + ")"


@lru_cache(maxsize=1)
def _trie_pattern() -> tuple[re.Pattern, dict[str, int]]:
    """The trie pattern and each of its groups' family column."""
    leaves = _leaves()
    column = {leaf[2]: COLUMN[leaf[2].rsplit("_", 2)[0]] for leaf in leaves}
    return re.compile(_trie(leaves, 0)), column


def families_of(names: list[str]) -> np.ndarray:
    """(len(names), len(FAMILIES)) bool: the families of each name (lower-cased already),
    as the reference pattern finds them; one scan over all of them. Each name is read as
    a space, its words joined by single spaces, and a space: a match found from a name's
    first space on is that name's (none can start at its last space)."""
    pattern, column = _trie_pattern()
    texts = [" " + " ".join(name.split()) + " " for name in names]
    out = np.zeros((len(names), len(FAMILIES)), np.bool_)
    if not texts:
        return out
    starts = np.cumsum([0] + [len(t) for t in texts[:-1]])
    found = [(m.start(), column[m.lastgroup]) for m in pattern.finditer("".join(texts))]
    if found:
        at, col = np.array(found, np.int64).T
        out[np.searchsorted(starts, at, side="right") - 1, col] = True
    return out
