"""Word families of class and id names: which of FAMILIES a name's words fall in, for many names at once.

`FAMILIES` is the definition: per family, a regular expression of alternatives, and a
name is in a family when, scanning it from the left as `reference_pattern()` does (the
families' alternatives in order, the first that matches at a place wins, matches do not
overlap), a match of that family occurs. The block features read these bits for the class
and id of every row they score (blocks/features.name_families).

Scanning that one alternation is slow: Python's regular expressions try each of its
eighty-odd alternatives at almost every character (a quarter of a crawl page's block
features went there). `families_of` finds exactly the same matches with the
alternatives arranged as a trie of their literal prefixes (wordtrie.py: a place costs
about one comparison per first letter, not one attempt per alternative, and the
reference's order is kept where two alternatives can match at one place;
tests/test_families.py compares the two on random names). All the names of a page are
scanned as one string.

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

from . import wordtrie

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


def reference_pattern() -> re.Pattern:
    """FAMILIES as one alternation, a named group per family: the definition."""
    return re.compile("|".join(f"(?P<{k}>{v})" for k, v in FAMILIES.items()))


def _leaves() -> list[tuple[str, str]]:
    """(literal prefix, rest) of every alternative of FAMILIES in the reference's order,
    the guards rewritten (one leaf per separator for the ad family's), the rest in a group
    named family_alternative_separator."""
    leaves = []
    for family, pattern in FAMILIES.items():
        for i, alt in enumerate(wordtrie.alternatives(pattern)):
            heads, behind = [""], ""
            if alt.startswith(_START_OR_SEPARATOR):
                heads, alt = list(_SEPARATORS), alt[len(_START_OR_SEPARATOR):]
            elif alt.startswith(_WORD_BOUNDARY):
                alt, behind = alt[len(_WORD_BOUNDARY):], "\\W"
            literal, rest = wordtrie.split(alt)
            if behind:
                rest = f"(?<={behind}{re.escape(literal)}){rest}"
            for k, head in enumerate(heads):
                leaves.append((head + literal, f"(?P<{family}_{i}_{k}>{rest})"))
    return leaves


@lru_cache(maxsize=1)
def _trie_pattern() -> tuple[re.Pattern, dict[str, int]]:
    """The trie pattern and each of its groups' family column."""
    pattern = re.compile(wordtrie.trie(_leaves()))
    return pattern, {name: COLUMN[name.rsplit("_", 2)[0]] for name in pattern.groupindex}


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
