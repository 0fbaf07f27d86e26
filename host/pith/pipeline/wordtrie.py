"""Alternations of words as tries of their literal prefixes: the same matches, found faster by Python's engine.

Python's regular expressions try the alternatives of `a|b|c` one after the other at each
place of the text; an alternative that opens with a literal character is skipped with one
comparison, one that opens with anything else (a group, a class) is entered. A pattern
of many words therefore costs about one attempt per word at every place. Arranged as a
trie of their literal prefixes — `c(?:o(?:mment|ntent)|aption)` for comment, content and
caption — a place costs about one comparison per distinct first letter, and a word is
entered only when its first letters are there.

The trie keeps the alternation's answer: where two words can match at one place, the one
listed first is tried first (`trie` refuses a list where no arrangement can keep that).
Callers keep the plain alternation as their definition and test the two against each
other (tests/test_families.py). A pattern that opens with a word boundary gains little:
the boundary already skips the places inside words (blocks/features.py's furniture words
scanned as fast either way).
"""
from __future__ import annotations

import re

# The literal prefix of an alternative: lower-case letters, '-' and ' '.
_LITERAL = re.compile(r"[a-z -]*")
_QUANTIFIERS = ("?", "*", "+", "{")
# A capturing group's opening (not "(?:", nor a look-around "(?!", "(?=", "(?<"): made
# non-capturing in a leaf's rest.
_GROUP = re.compile(r"\((?!\?)")


def alternatives(pattern: str) -> list[str]:
    """The top-level alternatives of `pattern` (its '|' outside parentheses)."""
    out, depth, start = [], 0, 0
    for i, c in enumerate(pattern):
        depth += (c == "(") - (c == ")")
        if c == "|" and depth == 0:
            out.append(pattern[start:i])
            start = i + 1
    return out + [pattern[start:]]


def split(alternative: str) -> tuple[str, str]:
    """(literal prefix, the rest as a pattern with its groups made non-capturing; a
    look-around stays one)."""
    literal = _LITERAL.match(alternative).group()
    if alternative[len(literal):len(literal) + 1] in _QUANTIFIERS:
        literal = literal[:-1]                    # the quantifier reads the last character
    rest = _GROUP.sub("(?:", alternative[len(literal):])
    return literal, rest


def trie(leaves: list[tuple[str, str]]) -> str:
    """One pattern matching what `|`.join(literal + rest) matches, the leaves (literal,
    rest) taken in their order where two can match at one place."""
    return _node([(literal, rest, order) for order, (literal, rest) in enumerate(leaves)], 0)


def _node(leaves: list[tuple[str, str, int]], depth: int) -> str:
    """The pattern of `leaves`, which share their first `depth` literal characters: the
    leaves ending here, then one branch per next character, each entry in the order of its
    first leaf. Raises when a leaf ending here lies, in order, between leaves of one branch:
    trying that branch first or second lets a later leaf win over an earlier one."""
    entries = [(order, rest) for literal, rest, order in leaves if len(literal) == depth]
    ending = [order for order, _ in entries]
    by_char: dict[str, list] = {}
    for leaf in leaves:
        if len(leaf[0]) > depth:
            by_char.setdefault(leaf[0][depth], []).append(leaf)
    for char, sub in by_char.items():
        orders = [leaf[2] for leaf in sub]
        if any(min(orders) < end < max(orders) for end in ending):
            raise ValueError(f"wordtrie: words after {sub[0][0][:depth + 1]!r} straddle one "
                             "ending before it; no order of the branches keeps the list's")
        entries.append((min(orders), re.escape(char) + _node(sub, depth + 1)))
    entries.sort(key=lambda e: e[0])
    if len(entries) == 1:
        return entries[0][1]
    return "(?:" + "|".join(rest for _, rest in entries) + ")"


def compiled(rx: re.Pattern) -> re.Pattern:
    """The alternation of words `rx` compiled as the trie of its alternatives, its flags
    kept: the same matches at the same places, found faster."""
    return re.compile(trie([split(a) for a in alternatives(rx.pattern)]), rx.flags)
