"""The dates a page shows: a <time> or date line near the chosen content's top, a date written as a line of its own, one just after the content, and the days shown near its top.

Candidates are the rows around the chosen element (window.py), nearest its top first.
"""
from __future__ import annotations

import itertools
import re
from typing import Any, Callable

import numpy as np

from .. import wordtrie
from ..codes import distinct
from ..features import column_lengths, tag_in
from . import dates
from .window import (AFTER_ROWS, MAX_BYLINE_ROWS, MAX_TRIES, WINDOW_ROWS, around, matching_strings,
                     near, short_rows, text_of, window_names)

# A date line is short: "Published 4 March 2024 · 5 min read".
MAX_DATELINE_CHARS = 120
# Class and id words that name a date line, or a byline that holds one (patterns matched
# against lower-cased strings, written without re.I: byline.py's BYLINE_NAMES says why).
DATE_NAMES = re.compile(r"date|time|publish|posted|dateline|byline|meta|datum|fecha")
# DATE_NAMES as matching_names searches it: a trie of its words (wordtrie.py: the same
# matches, an eighth of the date line's class searches' instructions fewer).
DATE_NAMES_TRIE = wordtrie.compiled(DATE_NAMES)


TIME = frozenset(("time",))
# A date line named as a comment's or reply's own ("commentmetadata", "comment-date",
# "reply-time": its "meta", "date" or "time" is what made it a candidate) dates the comment
# (NOTES.md, 'Why a declared address dates a page, and a comment's date line does not').
COMMENT_DATE_NAMES = re.compile(r"comment|repl(?:y|ies)")


def dateline(snap, gone: np.ndarray, node: int, times: list[list],
             us_order: bool = False) -> str | None:
    """The date shown nearest the chosen element's top: a <time datetime> there, else a
    short date line (class or id naming a date, a byline or meta), else the page's first
    <time datetime>."""
    by_row = {r: v for r, v in times}
    rows = np.array(sorted(by_row), np.int64)
    for r in near(snap, node, rows).tolist():
        d = dates.parse(by_row[r], us_order) if not gone[r] else None
        if d:
            return d
    look = around(snap, node)
    cands = distinct(np.concatenate([window_names(snap, "cls", node).matching(DATE_NAMES_TRIE),
                                     window_names(snap, "id", node).matching(DATE_NAMES_TRIE),
                                     look[tag_in(snap, TIME)[look]]]))
    cands = near(snap, node, cands)
    if len(cands):
        cands = cands[~gone[cands] & (snap.end[cands] - cands <= MAX_BYLINE_ROWS)]
    update = None
    own = (r for r in cands.tolist()
           if not COMMENT_DATE_NAMES.search(f"{snap.cls[r]} {snap.id[r]}".lower()))
    for r in itertools.islice(own, MAX_TRIES):
        t = text_of(snap, r)
        if 0 < len(t) <= MAX_DATELINE_CHARS and not JOINED.search(t.lower()) \
                and not is_clock(snap, r, inside=True):
            d = dates.find(t, us_order)
            if d and not UPDATE_WORDS.search(f"{t} {snap.cls[r]}".lower()):
                return published_over(snap, gone, node, r, t, d, us_order)
            update = update or d
    if update:
        return update
    d = written_date(snap, gone, node, us_order)
    if d:
        return d
    d = date_after(snap, gone, node, us_order)
    if d:
        return d
    for r in rows.tolist():
        if not gone[r]:
            d = dates.parse(by_row[r], us_order)
            if d:
                return d
    return None


# A class or id that names the day the page is read, not written: a masthead's or
# footer's clock ("todays-date", "the-date-today", "current-date"), shown on every page of
# a site (NOTES.md, 'Why dates are read in the forms many sites write them'). "today"
# alone is not enough: it names shows and sites ("today-show", "usatoday-byline").
CLOCK_NAMES = re.compile(r"todays?[-_]?(?:date|time)|(?:date|time)[-_]?today|"
                         r"current[-_]?(?:date|time|day)")


def is_clock(snap, r: int, inside: bool = False) -> bool:
    """Whether row `r` or its parent is named as the day's clock (CLOCK_NAMES); with
    `inside`, or an element inside `r` (a date line's block holding the clock's paragraph;
    a date read from a row's own text or tail needs only the row and its parent)."""
    p = int(snap.parent[r])
    hi = min(int(snap.end[r]), r + MAX_BYLINE_ROWS) if inside else r + 1
    # the rows' classes and ids as two slices (a pattern without spaces matches inside one
    # name: their order and the spaces between them change no answer)
    names = [*snap.cls[r:hi].tolist(), *snap.id[r:hi].tolist()]
    if p >= 0:
        names += (snap.cls[p], snap.id[p])
    return bool(CLOCK_NAMES.search(" ".join(names).lower()))


# A year's characters (dates.YEAR: four, none of them whitespace).
YEAR_CHARS = 4
# The columns a short date line is read from: a row's own text, and the text after it (a
# date written after a label element: "<b>Posted:</b> May 3, 2024").
DATED_COLUMNS = ("text", "tail")
# A forum poster's profile beside each post: the day the member joined is no post's date
# ("Joined: Dec 11, 2021", vBulletin's "Join Date", "Member since", phpBB's custom
# "Founded:"), in the date's own text or its label's (the element a tail follows).
JOINED = re.compile(r"joined|join date|registered|member since|founded")


def dated_lines(snap, rows: np.ndarray) -> list[tuple[int, str, str]]:
    """(row, column, string) of every text, then every tail, of `rows` (ascending) that
    is a short line of its own (1..MAX_DATELINE_CHARS characters) holding a year
    (dates.YEAR): the only strings a shown date is read from. One search over the short
    ones of both columns joined, as written (a pattern of digits: lower case changes
    nothing it finds; NOTES.md, 'Why the stages read tags by their codes')."""
    # a string of fewer than YEAR_CHARS characters but whitespace holds no year: not read
    # (most short strings are the whitespace between tags; NOTES.md, 'Why blank short texts
    # are not searched')
    short = [at[column_lengths(snap, column)[at] >= YEAR_CHARS]
             for column in DATED_COLUMNS
             for at in (short_rows(snap, column, rows, MAX_DATELINE_CHARS),)]
    strings = [s for column, at in zip(DATED_COLUMNS, short) for s in snap.cols[column][at].tolist()]
    if not strings:
        return []
    where = np.concatenate(short)
    column_of = np.repeat(np.arange(len(DATED_COLUMNS)), [len(at) for at in short])
    hits = matching_strings(strings, dates.YEAR, lower=False).tolist()
    return [(int(where[i]), DATED_COLUMNS[column_of[i]], strings[i]) for i in hits]


def short_dates(snap, lines: list[tuple[int, str, str]], us_order: bool = False):
    """(row, day) of every one of `lines` (dated_lines's) holding a date, not a member's
    joining day (JOINED, in a tail's text or its element's text before it: the label)
    nor another page's (`in_teaser_link`)."""
    for r, column, own in lines:
        d = dates.find(own, us_order)
        label = f"{own} {snap.text[r]}" if column == "tail" else own
        if d and not JOINED.search(label.lower()) and not is_clock(snap, r) \
                and not in_teaser_link(snap, r, column):
            yield r, d


# A date inside a link whose text says more than when (a headline: "« AWS Week in Review -
# October 29, 2012", a related post's "美樹營地 - 探訪老鷹溪 (下) 2011/12/18", a listing's "book
# launch online on 19th June 2022") dates the page the link leads to; a permalink's date
# ("October 23, 2012 at 7:52 am", "POSTED ON November 6th, 2012", "Sun Dec 17, 2023 11:23
# am") writes little else (NOTES.md, 'Why an address's day dates a page before a date it
# only shows'). Letters of a link's text beside the date's words, and the rows up from
# the date's element to a link.
TEASER_LETTERS = 10
LINK_LEVELS = 3
# The words a date line writes beside its date: weekdays, ordinals, the time of day, a
# "Posted on … at", and the CJK date's characters.
WHEN_WORDS = frozenset(
    "mon monday tue tues tuesday wed wednesday thu thur thurs thursday fri friday sat saturday "
    "sun sunday st nd rd th am pm at on posted published updated 年 月 日 午前 午後 上午 下午".split())
_LETTER_RUNS = re.compile(r"[^\W\d_]+")


def in_teaser_link(snap, r: int, column: str) -> bool:
    """Whether the date in row `r`'s `column` (its text: the row's own; its tail: its
    parent's) lies in a link (LINK_LEVELS rows up) whose text holds TEASER_LETTERS letters
    or more beside the date's own words (dates.MONTHS, WHEN_WORDS)."""
    q = r if column == "text" else int(snap.parent[r])
    for _ in range(LINK_LEVELS):
        if q < 0:
            return False
        if snap.link[q]:
            words = _LETTER_RUNS.findall(text_of(snap, q).lower())
            return sum(len(w) for w in words
                       if w not in dates.MONTHS and w not in WHEN_WORDS) >= TEASER_LETTERS
        q = int(snap.parent[q])
    return False


def first_date(snap, lines: list[tuple[int, str, str]], key: Callable[[int], Any],
               us_order: bool = False) -> tuple[int, str] | None:
    """min((key(row), day) for (row, day) in short_dates(lines)) as (row, day), None when
    no line holds one: the lines read in the order of their rows' keys, and no further
    than the first key one of them dates (a window's list of dated posts is not parsed
    line by line for the nearest; tests/test_metadata_dateline.py checks it against the min).
    Rows of one key are all read: the least day of them is the min's."""
    best: tuple[int, str] | None = None
    best_key = None
    for line in sorted(lines, key=lambda line: key(line[0])):     # stable: texts, then tails
        k = key(line[0])
        if best is not None and k != best_key:
            break
        for r, d in short_dates(snap, [line], us_order):
            if best is None or d < best[1]:
                best, best_key = (r, d), k
    return best


def date_after(snap, gone: np.ndarray, node: int, us_order: bool = False) -> str | None:
    """The first short date line just after the chosen element (its next AFTER_ROWS
    rows): "Posted on April 13, 2023" under a post whose element the choice closed early."""
    end = int(snap.end[node])
    rows = np.arange(end, min(snap.n, end + AFTER_ROWS))
    found = first_date(snap, dated_lines(snap, rows[~gone[rows]]), int, us_order)
    return found[1] if found else None


# A date line above the chosen element that does not say what it dates may be the
# masthead's day ("Wednesday, November 7 2012" in a "date-header", shown on every page);
# a line after it that says it is the publication ("Published: November 4th, 2012",
# "posted January 30, 2005") is the page's date
# (NOTES.md, 'Why a page's date is its article's, not its video's or its masthead's').
PUBLISHED_FIRST = True
PUBLISHED_WORDS = re.compile(r"\b(?:published|posted|publié|veröffentlicht|publicado|pubblicato|gepubliceerd)\b")


def published_over(snap, gone: np.ndarray, node: int, r: int, t: str, d: str,
                   us_order: bool = False) -> str:
    """`d`, the date line `t` at row `r` gives, unless `r` is above the chosen element and
    `t` does not say it is the publication while a short date line after it, down to the
    element's top window, does (PUBLISHED_WORDS, not an update): then the first such."""
    if not PUBLISHED_FIRST or r >= node or PUBLISHED_WORDS.search(t.lower()):
        return d
    top = np.arange(r + 1, min(int(snap.end[node]), node + WINDOW_ROWS))
    lines = [(q, c, s) for q, c, s in dated_lines(snap, top[~gone[top]])
             if PUBLISHED_WORDS.search((f"{snap.text[q]} {s}" if c == "tail" else s).lower())
             and not UPDATE_WORDS.search(s.lower())]
    found = first_date(snap, lines, int, us_order)
    return found[1] if found else d


def written_date(snap, gone: np.ndarray, node: int, us_order: bool = False) -> str | None:
    """A date written as a short text of its own (a row's text or tail) near the chosen
    element's top: "February 4, 2025 - 11 minutes" in a plain <p> (published_over)."""
    top = np.arange(max(0, node - WINDOW_ROWS), min(int(snap.end[node]), node + WINDOW_ROWS))
    lines = dated_lines(snap, top[~gone[top]])
    found = first_date(snap, lines, lambda r: (abs(r - node), r), us_order)
    if not found:
        return None
    r, d = found
    return published_over(snap, gone, node, r, snap.text[r], d, us_order)


# Rows before the chosen element's top (and after it, inside it) whose dates are matched
# against the declared ones: a date line sits within a header of a hundred rows or two
# (150 measured one page fewer on the training sites).
DAY_ROWS = WINDOW_ROWS
# Words that say a shown date is when the page changed, not when it came out, in the
# languages the month names are read in (NOTES.md, 'Why dates are read in the forms many
# sites write them'): Italian "aggiornato", Portuguese "atualizado", Dutch "bijgewerkt",
# Polish and Czech "aktualizacja", "aktualizováno", Scandinavian "uppdaterad",
# "opdateret", "oppdatert", Turkish "güncellendi", Russian "обновлено".
UPDATE_WORDS = re.compile(r"updat|modif|revis|review|edit|aktualisiert|mis à jour|mise à jour|"
                          r"actualizad|aggiornat|atualizad|bijgewerkt|aktualiz|uppdaterad|"
                          r"opdateret|oppdatert|güncel|обновл|geändert")


def shown_days(snap, gone: np.ndarray, node: int, years: set[str],
               us_order=False) -> dict[str, bool]:
    """The days of `years` written near the chosen element's top (short texts of their own
    and <time datetime>s, DAY_ROWS before it and after it inside it), each with whether
    any of its places says it is an update ("Updated on", "Last modified:" in the text or
    class, the element before it or its parent's own text). Only rows naming one of
    `years` are parsed (a page's other dates cost nothing), numeric ones in `us_order`,
    as the date line reads them (its days are matched against the date line's)."""
    top = np.arange(max(0, node - DAY_ROWS), min(int(snap.end[node]), node + DAY_ROWS))
    top = top[~gone[top]]
    out: dict[str, bool] = {}
    parent = snap.parent
    wanted = re.compile("|".join(sorted(years)))

    def put(day, r, own):
        if is_clock(snap, r):
            return
        p = parent[r]
        context = (f"{own} {snap.text[r]} {snap.cls[r]} {snap.text[r - 1] if r else ''} "
                   f"{snap.text[p] if p >= 0 else ''}")
        out[day] = out.get(day, False) or bool(UPDATE_WORDS.search(context.lower()))

    # the rows' texts and tails in one string, NUL apart (parsed text holds none: the
    # parsers replace it; a page's script could write one, and the count then stops at
    # the strings' end); a hit's string is the count of NULs before it
    strings = snap.cols["text"][top].tolist() + snap.cols["tail"][top].tolist()
    big = "\0".join(strings)
    at, count, seen = 0, 0, set()
    for m in wanted.finditer(big):
        count += big.count("\0", at, m.start())
        at = m.start()
        if count >= len(strings):
            break
        if count in seen:
            continue
        seen.add(count)
        own = strings[count]
        if len(own) <= MAX_DATELINE_CHARS:
            d = dates.find(own, us_order)
            if d:
                put(d[:10], int(top[count % len(top)]), own)
    lo, hi = node - DAY_ROWS, min(int(snap.end[node]), node + DAY_ROWS)
    for r, v in (snap.meta.get("declared") or {}).get("times", ()):
        if lo <= r < hi and not gone[r]:
            d = dates.parse(v, us_order)
            if d and d[:4] in years:
                put(d[:10], r, snap.text[r])
    return out
