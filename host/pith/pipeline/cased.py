"""Patterns written for lower-cased text, rewritten to find the same matches in the text as written (no lower-casing of the text first).

The metadata searches short texts lower-cased (metadata/shown.py `Searched`): the strings
joined, then lower-cased, a pass over every character that costs more than the search on
a window of texts beyond ASCII (each string lowered alone, joined again: 80 µs of a 90 µs
search on 400 short texts). `cased(pattern)` answers a pattern that matches, in the text
as written, exactly where `pattern` matches in its lower case, at the same places: each
ASCII letter outside a class becomes a class of its two cases, a class gains its letters'
upper case, and "k" also the Kelvin sign (the only character beyond ASCII, with dotted I,
whose lower case holds an ASCII letter; `Searched` keeps dotted I as it is, since its
lower case is two characters long). It refuses what it cannot rewrite so: a letter range
in a class, a negated class, an inline flag, an escape of a letter other than the
ones lower case does not move (\\n, \\t, \\s, \\b: whitespace and word characters stay so
in lower case). tests/test_cased.py compares the two searches on random texts.
"""
from __future__ import annotations

# Escapes whose meaning is the same in a text and its lower case.
KEPT_ESCAPES = frozenset("ntsb")
# Characters beyond ASCII whose lower case is one ASCII letter, by that letter.
OTHER_CASES = {"k": "\u212a"}


def cased(pattern: str) -> str:
    """`pattern` (written for lower-cased text) matching the text as written at the same
    places; ValueError for a construct it cannot rewrite so."""
    out: list[str] = []
    i, in_class = 0, False
    while i < len(pattern):
        c = pattern[i]
        if c == "\\":
            escaped = pattern[i + 1:i + 2]
            if escaped.isalpha() and escaped not in KEPT_ESCAPES:
                raise ValueError(f"cased: escape \\{escaped}")
            out.append(pattern[i:i + 2])
            i += 2
            continue
        if in_class:
            if c == "]":
                in_class = False
            elif "a" <= c <= "z":
                if pattern[i + 1:i + 2] == "-" or pattern[i - 1:i] == "-":
                    raise ValueError("cased: a range of letters")
                c = c + c.upper() + OTHER_CASES.get(c, "")
            out.append(c)
        elif c == "[":
            if pattern[i + 1:i + 2] == "^":
                raise ValueError("cased: a negated class")
            in_class = True
            out.append(c)
        elif c == "(" and pattern[i + 1:i + 2] == "?":
            j = i + 2
            if pattern[j] not in ":=!<":
                raise ValueError("cased: an inline flag or a named group")
            if pattern[j] == "<" and pattern[j + 1:j + 2] not in ("=", "!"):
                raise ValueError("cased: a named group")
            out.append(pattern[i:j + 1])
            i = j + 1
            continue
        elif "a" <= c <= "z":
            out.append(f"[{c}{c.upper()}{OTHER_CASES.get(c, '')}]")
        else:
            out.append(c)
        i += 1
    return "".join(out)
