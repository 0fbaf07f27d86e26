"""What a page only shows about itself: its headline, a byline or date line near the top of the chosen content, a <time>, the URL's date.

Read from the snapshot around the chosen element: the rows from WINDOW_ROWS before it to
WINDOW_ROWS into it (bylines and datelines sit just above the text or at its top), then,
for the headline and <time>, the whole page. Rows that are code or hidden are not read.
Pure functions of the snapshot, the features' `gone` mask and the chosen row.
"""
from __future__ import annotations

import re
from typing import Any

import numpy as np

from . import dates

# Rows before the chosen element and into it that count as "its top": a header of a
# headline, a byline, a date and share buttons runs to a hundred rows or two.
WINDOW_ROWS = 300
# A byline element holds a name or two: more rows than this is an author box or a list.
MAX_BYLINE_ROWS = 30
# A byline is a name or two; a text this long is a sentence or an author's bio (as the
# extension's collector had it).
MAX_BYLINE_CHARS = 100
# A date line is short: "Published 4 March 2024 · 5 min read".
MAX_DATELINE_CHARS = 120
# Class and id words that name a byline or a date line.
BYLINE_NAMES = re.compile(r"byline|by-line|author|writer|contributor|posted-?by|autor|auteur|"
                          r"reporter|journalist|creator", re.I)
NOT_BYLINE_NAMES = re.compile(r"avatar|image|photo|bio|about|comment|follow|social|share|"
                              r"more-?from|related|box|card|list", re.I)
DATE_NAMES = re.compile(r"date|time|publish|posted|dateline|byline|meta|datum|fecha", re.I)
# What precedes a name on a byline, in the languages of the labelled pages.
BY_PREFIX = re.compile(r"^(?:(?:written|posted|published|reviewed|edited|reported)\s+)?"
                       r"(?:by|from|von|par|por|door|di|da|av|af|autor(?:a)?|author|auteur|"
                       r"written by|text|posted)\s*[:\-–—]?\s+", re.I)
# Separators that end the name part of a byline ("Jane Doe | 4 March 2024").
BYLINE_END = re.compile(r"\s*(?:[|·•—–]|\bon\b|\bupdated\b|\bpublished\b|\d{1,2}[./]\d|"
                        r"\d{4}|\bam\b\s+\d|\bvor\b)", re.I)
# Words of a byline that are never a name.
NOT_A_NAME = re.compile(r"^(?:by|author|authors|admin|staff|share|comments?|posted|written|"
                        r"updated|published|min read|read more|follow)$", re.I)
AUTHOR_SPLIT = re.compile(r"\s*(?:,|&|\band\b|\bund\b|\bet\b|\by\b|\be\b)\s*", re.I)


def text_of(snap, row: int) -> str:
    """The text of `row`'s subtree (text and tails in document order), whitespace
    collapsed."""
    end = int(snap.end[row])
    text, tail, stop = snap.text, snap.tail, snap.end
    parts = [text[row]]
    open_ends: list[int] = []
    for j in range(row + 1, end):
        while open_ends and open_ends[-1][0] <= j:
            parts.append(tail[open_ends.pop()[1]])
        parts.append(text[j])
        open_ends.append((int(stop[j]), j))
    while open_ends:
        parts.append(tail[open_ends.pop()[1]])
    return " ".join("".join(parts).split())


def window(snap, node: int) -> tuple[int, int]:
    """[start, stop) rows of the chosen element's top and what precedes it."""
    return max(0, node - WINDOW_ROWS), min(int(snap.end[node]), node + WINDOW_ROWS)


def headline(snap, gone: np.ndarray, node: int) -> str | None:
    """The first shown h1 from the window on, else the page's first shown h1."""
    h1 = np.flatnonzero((snap.tag == "h1") & ~gone)
    if not len(h1):
        return None
    start, _stop = window(snap, node)
    after = h1[h1 >= start]
    for row in (after.tolist() + h1.tolist())[:4]:
        t = text_of(snap, int(row))
        if t:
            return t
    return None


def _clean_byline(t: str) -> list[str]:
    t = BY_PREFIX.sub("", t.strip(), count=1)
    m = BYLINE_END.search(t)
    if m and m.start() > 0:
        t = t[:m.start()]
    t = t.strip(" ,:;-–—|·•")
    if not t or len(t) >= MAX_BYLINE_CHARS or not any(c.isalpha() for c in t):
        return []
    names = [n.strip(" ,:;.") for n in AUTHOR_SPLIT.split(t)]
    return [n for n in names if n and not NOT_A_NAME.match(n) and len(n.split()) <= 6]


def byline(snap, gone: np.ndarray, node: int, author_links: list[int]) -> list[str]:
    """Names of the first byline in the window: an element whose class or id names a
    byline or author (not an avatar or bio box), or a rel=author link; [] when none."""
    start, stop = window(snap, node)
    cls, ids, end = snap.cls, snap.id, snap.end
    rows = [r for r in author_links if start <= r < stop and not gone[r]]
    for r in range(start, stop):
        if gone[r]:
            continue
        names = f"{cls[r]} {ids[r]}"
        if BYLINE_NAMES.search(names) and not NOT_BYLINE_NAMES.search(names) \
                and end[r] - r <= MAX_BYLINE_ROWS:
            rows.append(r)
    for r in sorted(set(rows), key=lambda r: (abs(r - node) if r < node else r - node, r)):
        t = text_of(snap, r)
        if 0 < len(t) < MAX_BYLINE_CHARS * 2:
            got = _clean_byline(t)
            if got:
                return list(dict.fromkeys(got))
    return []


def dateline(snap, gone: np.ndarray, node: int, times: list[list],
             us_order: bool = False) -> str | None:
    """The date shown nearest the chosen element's top: a <time datetime> in the window,
    else a short date line (class or id naming a date, a byline or meta) there, else the
    page's first <time datetime>."""
    start, stop = window(snap, node)
    near = sorted((r for r, _v in times if start <= r < stop and not gone[r]),
                  key=lambda r: (abs(r - node), r))
    by_row = {r: v for r, v in times}
    for r in near:
        d = dates.parse(by_row[r], us_order)
        if d:
            return d
    cls, ids, end = snap.cls, snap.id, snap.end
    found = []
    for r in range(start, stop):
        if not gone[r] and end[r] - r <= MAX_BYLINE_ROWS and DATE_NAMES.search(f"{cls[r]} {ids[r]}"):
            found.append(r)
    for r in sorted(found, key=lambda r: (abs(r - node), r)):
        t = text_of(snap, r)
        if 0 < len(t) <= MAX_DATELINE_CHARS:
            d = dates.find(t, us_order)
            if d:
                return d
    for r, v in times:
        if not gone[r]:
            d = dates.parse(v, us_order)
            if d:
                return d
    return None


def fields(snap, gone: np.ndarray, node: int) -> dict[str, Any]:
    """Candidate fields of what the page shows: title (h1), authors, published, url_date."""
    declared = snap.meta.get("declared") or {}
    us = (snap.meta.get("lang") or "").lower().startswith("en-us")
    out: dict[str, Any] = {}
    h = headline(snap, gone, node)
    if h:
        out["title"] = h
    links = [r for r, rel, _h in declared.get("links", ()) if "author" in rel.split()]
    names = byline(snap, gone, node, links)
    if names:
        out["authors"] = names
    d = dateline(snap, gone, node, declared.get("times", []), us)
    if d:
        out["published"] = d
    u = dates.from_url(snap.meta.get("url") or "")
    if u:
        out["url_date"] = u
    return out
