"""What a page only shows about itself: its headline, a byline or date line near the chosen content, a <time>, the URL's date.

Candidates are looked for in the rows around the chosen element (WINDOW_ROWS before its
top and after it, and the last WINDOW_ROWS of it: an author box at the end of the
text), in one regular-expression pass per column (the rows' strings joined, each match
mapped back to its row: no Python loop over rows), then ranked by their distance to the
element's top. Rows that are code or hidden are not read.
"""
from __future__ import annotations

import itertools
import re
from typing import Any, Callable

import numpy as np

from .. import wordtrie
from ..codes import ascending_distinct, distinct, used
from ..features import lower_in_place, string_lengths, tag_in
from . import dates

# Rows before the chosen element that count as "its top": a header of a headline, a
# byline, a date and share buttons runs to a hundred rows or two.
WINDOW_ROWS = 300
# A byline element holds a name or two: more rows than this is an author box or a list.
MAX_BYLINE_ROWS = 30
# A byline is a name or two; a text this long is a sentence or an author's bio (as the
# extension's collector had it).
MAX_BYLINE_CHARS = 100
# A date line is short: "Published 4 March 2024 · 5 min read".
MAX_DATELINE_CHARS = 120
# Rows after the chosen element read for a date line when none is above it or inside.
AFTER_ROWS = 300
# Candidates read before giving up (each costs a subtree's text).
MAX_TRIES = 12
# Class and id words that name a byline or a date line ("authoring", "authorization",
# "authority" are headings of documentation, not its author: docs.rs's "Authoring
# applications").
# (patterns matched against lower-cased strings are written without re.I: the regular
# expression engine then skips ahead by their first characters, several times faster)
BYLINE_NAMES = re.compile(r"byline|by-line|author(?!ing|i[tsz])|writer|contributor|posted-?by|autor|auteur|"
                          r"reporter|journalist|creator|user-?name|postuser")
# Each word ends the class word it is found in, or a plural or longer form of it follows
# ("bio", "authorbox", "comments", "description"): inside a longer word it is another
# word ("wp-block-jobber-academy-post-hero__author", "controller").
NOT_BYLINE_NAMES = re.compile(r"(?:avatar|image|photo|img|bio|about|comment|follow|social|share|"
                              r"more-?from|related|box|card|list|title|job|role|position|desc)"
                              r"(?:s|es|ed|er|ers|ing|graph\w*|ription|graphy|ical)?(?![a-z])",
                              re.I)
# The reader's own account, a link or not, is never a byline (a shop's header menu
# "js-user-name js-account" holding "Open My Menu").
ACCOUNT_NAMES = re.compile(r"(?:^|[\s_-])(?:account|log-?in|sign-?in|my-?menu)")    # not "bloginfo"
# A class word that names the name itself ("elementor-author-box__name", "author-card-name"):
# the name inside an author box or card, which NOT_BYLINE_NAMES leaves out whole.
NAME_PART = re.compile(r"[-_]name(?![a-z])")
DATE_NAMES = re.compile(r"date|time|publish|posted|dateline|byline|meta|datum|fecha")
# The two class-word patterns as matching_names searches them: tries of their words
# (wordtrie.py: the same matches, a fifth of the byline's and an eighth of the date line's
# class searches' instructions fewer).
BYLINE_NAMES_TRIE, DATE_NAMES_TRIE = map(wordtrie.compiled, (BYLINE_NAMES, DATE_NAMES))
# A link to an author's page; and a forum's link to a member's profile, by the forum
# software's own addresses (XenForo's /members/name.1/, vBulletin's member.php?u=1,
# phpBB's memberlist.php?mode=viewprofile, FluxBB's profile.php?id=1): the poster's name.
_MEMBER_URL = r"/member\.php\?[^\n]*\bu=\d|/memberlist\.php\?mode=viewprofile|/profile\.php\?id=\d"
AUTHOR_URL = re.compile(r"/(?:author|authors|autor|autore|auteur|writers?|contributors?|"
                        r"journalists?|reporters?|people|staff|team|profiles?|members)/[^/?#\s]+/?"
                        r"(?:[?#\n]|$)|" + _MEMBER_URL)
# A forum's link to a member's profile (the software's addresses above, XenForo's
# /members/name.1/) and a user name of one word with dots in it ("b.scherer", "jo.p"): the
# poster as the forum writes them, not a template's key ("page.author": NOT_NAME_PARTS)
# (NOTES.md,
# 'Why a byline reads its co-authors, a forum's dotted user name and a label under the post').
MEMBER_URL = re.compile(r"/members/[^/?#\s]+\.\d+/?(?:[?#]|$)|" + _MEMBER_URL, re.I)
DOTTED_USER_NAME = re.compile(r"^\w[\w-]*(?:\.[\w-]+)+$")
# Social networks' hosts: their /profile/ links are the site's follow and share buttons.
SOCIAL_HOSTS = np.array(["bsky.app", "twitter.com", "x.com", "www.facebook.com", "facebook.com",
                         "www.linkedin.com", "linkedin.com", "www.instagram.com", "instagram.com",
                         "www.threads.net", "threads.net", "www.tiktok.com", "www.youtube.com",
                         "www.pinterest.com", "pinterest.com", "mastodon.social", "www.reddit.com"])
# A Chinese or Japanese byline's label and its mark, no space after it: "作者：张三",
# "文/李四", "记者 王五" (NOTES.md, 'Why a byline is no menu item, and other bylines left out').
CJK_BYLINE_MARK = r"(?:作者|记者|記者|撰文|著者|筆者|文)[ \t]*[:：/／|｜]"
CJK_BYLINE = CJK_BYLINE_MARK + r"[ \t]*"
# A row's own text that starts a byline (a label of several: "Authors", "Author(s)"); the
# alternatives written with their common stems once ("author(?:s|\(s\))?") behind a
# look-ahead at their first letters: over the byline search's strings of 150 training
# pages, 0.032 ms a call against 0.044 for the shorter list before the plural and CJK
# labels, and 0.071 without the look-ahead (best of 7, one process).
BY_TEXT = re.compile(r"\n[ \t]*(?=[wprabvd作记記撰著筆文])(?:(?:(?:written|posted|published|reported|authored)[ \t]+by|"
                     r"by|von|par|por|door|author(?:s|\(s\))?|autor(?:en)?|auteurs?)"
                     r"[ \t]*[:\-–—]?[ \t\n]|" + CJK_BYLINE_MARK + ")")
# A sentence that credits the page's author in the text ("This post was written by <a>Vanessa
# Mendez, MD</a>, gastroenterologist", an author box's "This post was written by Danielle
# Padula, Head of Marketing"): the name runs from its "by" to the first comma (NOTES.md,
# 'Why a byline is no menu item, and other bylines left out').
# Its cue, searched first over the window's texts: a literal start lets the engine skip
# ahead (the whole sentence's pattern, unanchored, or an alternation of cues, cost up to
# 0.3-0.5 ms on some pages: 40 times a single literal's search).
CREDIT_CUE = re.compile(r"written\s+by\b")
CREDIT_SENTENCE = re.compile(r"\b(?:this|the)\s+(?:post|article|story|blog post|blog|piece|guide)"
                             r"\s+(?:was|is|has been)\s+written\s+by\b")
# Who else a page names with "by": its reviewers, editors, photographers.
NOT_AUTHOR_TEXT = re.compile(r"(?:review|edit|fact[- ]?check|photo|photograph|illustrat|translat|"
                             r"image|video|updated)\w*\s+by\b", re.I)
# What precedes a name on a byline, in the languages of the labelled pages ("via": a link
# aggregator's submitter, lobste.rs's "via scvalex").
BY_PREFIX = re.compile(r"^(?:(?:written|posted|published|reviewed|edited|reported|authored|created)\s+by|"
                       r"by|via|from|von|par|por|door|di|da|av|af|autor(?:a|en)?|authors?|"
                       r"author\(s\)|auteurs?|"
                       r"text|posted)(?:\s*[:\-–—]\s*|\s+|$)|^" + CJK_BYLINE, re.I)
# Separators that end the name part of a byline ("Jane Doe | 4 March 2024"; Blogger's and
# TypePad's "Posted by paul at 09:39 PM in <a>Category</a>", the time or the category in an
# element after a last "at" or "in": NOTES.md, 'Why a byline is no menu item, and other
# bylines left out').
BYLINE_END = re.compile(r"\s*(?:[|·•⋅/»]|\s[-–—]\s|\bon\b|\bupdated\b|\bpublished\b|\bposted\b|"
                        r"\blast\s+(?:update[ds]?|modified|edited|reviewed)\b|"
                        r"[-–—]?\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+\d|"
                        r"\d{1,2}[./]\d|\d{4}|\bam\b\s+\d|\bvor\b|\bin\b\s|\bin$|\bat\b(?=\s+\d|$))",
                        re.I)
# A date line's label where a byline's name would start (after a "By" or "Posted by",
# which BY_PREFIX takes): "Last Updated: January 7, 2025" in a class naming the author's
# details names no one.
DATE_LABEL = re.compile(r"(?:last\s+)?(?:updated|published|modified)\b", re.I)
# A date line's date before the name ("Dec. 19, 2025 · Niko Matsakis"): up to the
# separator after a year, or the element boundary (a newline, text_of's) after it when
# one element follows ("<span>Dec 17, 2025</span><span>Julian K. Arni</span>"; more
# lines after a date are a dateline's time and programme: "6:01 PM ET / Heard on …").
LEADING_DATE = re.compile(r"^[^|·•⋅\n]{0,40}?\d{4}[ \t]*(?:(?:[|·•⋅]|\s[-–—]\s)\s*|\n(?=[^\n]+$))")
# What ends the name in a declared author ("Jane Doe - Editorial Team"); user names,
# e-mail addresses and digits stay (forums declare "user3080392", "jo.p").
DECLARED_NAME_END = re.compile(r"\s*(?:[|·•⋅»]|\s[-–—]\s)")
# A template's unfilled placeholder where a name should be (a script's "undefined", a
# theme's "default" user), or a CMS's default account ("admin", "Webmaster": a name a
# site's own user chose, "adminn", stays).
PLACEHOLDER = re.compile(r"\{\{|\}\}|\$\{|<%|^[\w.]*\.author$|^(?:undefined|null|none|default|"
                         r"admin|administrator|webmaster)$", re.I)
# What joins names across a byline's elements ("<a>Jane Doe</a>, <a>John Roe</a>").
_JOINS = r"(?:[,&;]|\b(?:and|und|et|y|e)\b)"
JOINS_NAMES = re.compile("^" + _JOINS, re.I)           # a line that starts with one
JOINS_NAMES_END = re.compile(_JOINS + "$", re.I)       # a line that ends with one
# Words of a byline that are never a name; and the words a sentence's "By" leads to in
# documentation and filters ("By default, …", "By now", "Sort by: Region").
NOT_A_NAME = re.compile(r"^(?:by|author|authors|admin|staff|share|comments?|posted|written|"
                        r"updated|published|min read|read more|follow|more|view|profile|"
                        r"username|anonymous|guest|editor|team|" + r"|".join(
                            "default now then far way value reference design hand chance "
                            "contrast comparison industry region category date name names type "
                            "topic popularity relevance price location country subject".split())
                        + r")$", re.I)
# A name that is a read time, a template key or a word of a sentence; or an account
# link's words ("Member Login", "Sign in": a site's /profile/ link is also its login).
NOT_NAME_PARTS = re.compile(r"\bmins?\b|\bread\b|^\w+(?:\.\w+)+$|\{|\}|@|"
                            r"\blog-?\s?in\b|\bsign[- ]?in\b", re.I)
# "By clicking …", "by keeping an eye on …": a sentence's gerund, no name.
GERUND = re.compile(r"^[a-z]+ing\b")
# Words of a sentence, not of a name: a lower-case article, determiner or pronoun before a
# lower-case word ("By the end of this tutorial"; "the Lavazza Team" is a name), or a lower-case
# verb or pronoun anywhere ("This review is posted in …"). Names hold lower-case
# particles ("de", "van", "bin") and organisations "of the" inside, never these (NOTES.md,
# 'Why a byline is no menu item, and other bylines left out').
SENTENCE_WORDS = re.compile(r"^(?:the|a|an|this|that|these|those|our|your|my|its|their|his|"
                            r"her|all|each|every|some|any|no)\s+[a-z]|\b(?:is|are|was|were|"
                            r"will|can|you|we)\b")
# A link's or button's call to action where a byline's name would be ("See full bio",
# "View Profile", "View all posts by Becky", "Sign up for free trial", "→ Learn More"): its
# first word a verb no given name is (NOTES.md, 'Why a byline is no menu item, and other
# bylines left out').
CALL_TO_ACTION = re.compile(r"^\W*(?:see|view|visit|learn|follow|read|show|sign|subscribe|"
                            r"contact|click|download|join|register|watch|request|discover|"
                            r"explore|find|check|browse|shop|buy|try|get|start|open|more|"
                            r"email|message|send|book|log)\b", re.I)
# A forum post's header labels and a feed's link beside the poster's name, a count after
# them or not ("Joined", "Posts: 7", "Reputation", "RSS"): the poster's details, no name.
POSTER_LABEL = re.compile(r"^(?:joined|posts|messages|replies|reputation|registered|members?|"
                          r"moderator|reactions|points|likes|threads|topics|online|offline|"
                          r"status|rss|atom|feed)\b\W*\d*$", re.I)
# One Latin letter and nothing else: a letter avatar's initial ("R" in a forum post's
# round badge, Discourse's and XenForo's default), never a whole name.
INITIAL = re.compile(r"^[A-Za-z]\.?$")
# A forum's poster shown by full name and user name, the same ("raoul (raoul)": Discourse
# writes both whatever they are): the name once.
NAME_TWICE = re.compile(r"^(.+?)\s*\(\s*\1\s*\)$", re.I)
# A name's post-nominals after a comma ("Doris Munoz-Mantilla, MD, FOMA, DABOM", "Ph.D.",
# "Trevor Brown, HB Retrofit, LLC"): degrees, boards and a company's form, each the name's
# before it, none a name of its own: upper-case words up to six letters, dotted initials
# ("M.D."), the degrees written in mixed case; after it the next comma, a join or the end
# (NOTES.md, 'Why a byline reads its co-authors, a forum's dotted user name and a label under the post').
POST_NOMINALS = re.compile(r",[ \t]*(?:[A-Z]{2,6}|(?:[A-Z][a-z]?\.){2,3}|PhD|MSc|BSc|MEd|MFA|"
                           r"PharmD|DrPH|PsyD|Esq\.?|Jr\.?|Sr\.?|Inc\.?|Ltd\.?|LLC)"
                           r"(?=[ \t]*(?:[,;&]|\band\b|$))")
AUTHOR_SPLIT = re.compile(r"\s*(?:,|&|、|，|\band\b|\bund\b|\bet\b|\by\b|\be\b)\s*", re.I)
_HAS_DIGIT = re.compile(r"\d")


def text_of(snap, row: int, sep: str = "") -> str:
    """The text of `row`'s subtree (text and tails in document order), whitespace
    collapsed; `sep` "\n" puts a newline between the texts of different elements (a
    byline's name and date in two spans, which a static snapshot cannot tell apart from
    one word), collapsing the rest of the whitespace of each line. Found once per
    snapshot, row and `sep` (Snapshot.subtree_texts)."""
    cache = snap.subtree_texts()
    key = (int(row), sep)
    got = cache.get(key)
    if got is None:
        got = cache[key] = _text_of(snap, int(row), sep)
    return got


def _text_of(snap, row: int, sep: str, skip: frozenset[str] = frozenset()) -> str:
    """`text_of` uncached; the subtrees of `skip`'s tags left out (their tails kept)."""
    end = int(snap.end[row])
    text, tail, stop, tag = snap.text, snap.tail, snap.end, snap.tag
    parts = [text[row]]
    open_ends: list[tuple[int, int]] = []
    skipped_to = 0
    for j in range(row + 1, end):
        if j < skipped_to:
            continue
        while open_ends and open_ends[-1][0] <= j:
            parts.append(tail[open_ends.pop()[1]])
        if tag[j] in skip:
            skipped_to = int(stop[j])
        else:
            parts.append(" " if tag[j] == "br" else text[j])     # a line break is a space
        open_ends.append((int(stop[j]), j))
    while open_ends:
        parts.append(tail[open_ends.pop()[1]])
    if sep == "\n":
        return "\n".join(x for x in (" ".join(p.split()) for p in parts) if x)
    return " ".join(sep.join(parts).split())


def matching_rows(snap, column: str, rx: re.Pattern, rows: np.ndarray) -> np.ndarray:
    """Rows of `rows` whose lower-cased `column` string matches `rx`: one search over the
    strings joined, each after a newline (a match is mapped to the row it starts in)."""
    return Rows(snap, column, rows).matching(rx)


class Rows:
    """Rows whose `column` strings several patterns search (`matching`): the strings picked,
    joined and lower-cased once (Searched), the first time a pattern asks (the byline's "By"
    lines and its credit sentences search the same short texts)."""

    def __init__(self, snap, column: str, rows: np.ndarray) -> None:
        self.snap, self.column, self.rows = snap, column, rows
        self.searched: Searched | None = None

    def matching(self, rx: re.Pattern) -> np.ndarray:
        """The rows whose lower-cased string matches `rx` (matching_rows's answer)."""
        if not len(self.rows):
            return np.zeros(0, np.int64)
        if self.searched is None:
            self.searched = Searched(self.snap.cols[self.column][self.rows].tolist())
        return self.rows[self.searched.find(rx)]


def matching_names(snap, column: str, rx: re.Pattern, rows: np.ndarray) -> np.ndarray:
    """`matching_rows` for a pattern that never reads a newline, over a column whose rows
    repeat their strings (class and id names: the window `around` a page's element holds
    a median 353 rows, 54 distinct classes and 20 distinct ids on the shared datasets'
    pages): each distinct string is searched once (its number on the snapshot,
    Snapshot.string_codes), and its rows follow its answer."""
    return Names(snap, column, rows).matching(rx)


class Names:
    """`rows`' distinct `column` names (matching_names's), numbered, joined and lower-cased
    once for every pattern that searches them (`matching`)."""

    def __init__(self, snap, column: str, rows: np.ndarray) -> None:
        codes, self.strings = snap.string_codes(column)
        self.rows = rows
        self.code = codes[rows]
        self.distinct = used(self.code, len(self.strings))
        self.searched = Searched([self.strings[i] for i in self.distinct.tolist()])

    def matching(self, rx: re.Pattern) -> np.ndarray:
        """The rows whose lower-cased name matches `rx` (matching_names's answer)."""
        if not len(self.rows):
            return np.zeros(0, np.int64)
        hit = np.zeros(len(self.strings), np.bool_)
        hit[self.distinct[self.searched.find(rx)]] = True
        return self.rows[hit[self.code]]


def window_names(snap, column: str, node: int) -> Names:
    """The distinct `column` names of the rows `around` `node`, prepared once per snapshot
    and element: the byline's class words and the date line's search the same window."""
    return snap.memo(("window_names", column, int(node)),
                     lambda: Names(snap, column, around(snap, node)))


def matching_strings(strings: list[str], rx: re.Pattern, lower: bool = True) -> np.ndarray:
    """Indices of the `strings` whose lower-cased text (as written, `lower` False) matches
    `rx`: one search over the strings joined, each after a newline (a match is mapped to
    the string it starts in)."""
    return Searched(strings, lower).find(rx)


class Searched:
    """`strings` joined, each after a newline, and lower-cased (as written, `lower` False)
    once, for every pattern `find` is asked with."""

    def __init__(self, strings: list[str], lower: bool = True) -> None:
        big = "\n" + "\n".join(strings)
        if lower and big.isascii():                     # a flag Python keeps: no scan
            big = big.lower()
        elif lower:
            # each string lower-cased alone: one holding a character beyond ASCII takes
            # str.lower's slow path, not the whole text with it; the same text unless a
            # string grows (İ), and then lower_in_place keeps the positions
            low = "\n" + "\n".join(map(str.lower, strings))
            big = low if len(low) == len(big) else lower_in_place(big)
        self.strings, self.big = strings, big
        self.starts: np.ndarray | None = None   # each string's place in `big`, on a first hit

    def find(self, rx: re.Pattern) -> np.ndarray:
        """Indices of the strings `rx` matches (a match is mapped to the string it starts in)."""
        hits = [m.start() for m in rx.finditer(self.big)]
        if not hits:
            return np.zeros(0, np.int64)
        if self.starts is None:
            lengths = np.fromiter(map(len, self.strings), np.int64, len(self.strings)) + 1
            self.starts = lengths.cumsum() - lengths
        return ascending_distinct(self.starts.searchsorted(hits, side="right") - 1)   # hits ascend


def around(snap, node: int) -> np.ndarray:
    """The rows looked at: WINDOW_ROWS before the chosen element's top and after it, and
    its last WINDOW_ROWS."""
    end = int(snap.end[node])
    top = np.arange(max(0, node - WINDOW_ROWS), min(end, node + WINDOW_ROWS))
    bottom = np.arange(max(node + WINDOW_ROWS, end - WINDOW_ROWS), end)
    return np.concatenate([top, bottom])


def short_rows(snap, column: str, rows: np.ndarray, limit: int) -> np.ndarray:
    """The rows of `rows` whose `column` string is 1..limit characters long (the
    snapshot's lengths, counted once: features.string_lengths)."""
    lengths = string_lengths(snap, column)[rows]
    return rows[(lengths > 0) & (lengths <= limit)]


def near(snap, node: int, rows: np.ndarray) -> np.ndarray:
    """`rows` inside the chosen element or up to WINDOW_ROWS before it, nearest its top
    first (before it: by distance up; inside: by distance down)."""
    if not len(rows):
        return rows                # none: the same empty array, without five numpy calls
    lo, hi = node - WINDOW_ROWS, int(snap.end[node])
    rows = rows[(rows >= lo) & (rows < hi)]
    return rows[np.abs(rows - node).argsort(kind="stable")]


# The shown h1s a page's title is looked for among: a logo, a section name and the
# headline, rarely more.
MAX_HEADLINES = 6
# What a heading ends with besides its words: a permalink's pilcrow or hash (Sphinx,
# Django's docs, GitHub's READMEs).
HEADING_MARKS = re.compile(r"[\s¶#🔗§]+$")


H1 = frozenset(("h1",))


def shown_h1(snap, gone: np.ndarray) -> np.ndarray:
    """The page's h1 rows that are not `gone`, in document order (the h1 rows found once
    per snapshot, by tag code: the title's choice and the headline both ask)."""
    h1 = snap.memo(("h1_rows",), lambda: np.flatnonzero(tag_in(snap, H1)))
    return h1[~gone[h1]]


# Controls a heading may hold whose words are no part of it: a "Copy item path" button
# (rustdoc), a "Copy link" one.
HEADING_CONTROLS = frozenset(("button",))


def heading_text(snap, row: int) -> str:
    """A heading's text without its HEADING_CONTROLS' words (the control rows found once
    per snapshot, by tag code)."""
    controls = snap.memo(("heading_controls",), lambda: tag_in(snap, HEADING_CONTROLS))
    if not controls[row + 1:int(snap.end[row])].any():
        return text_of(snap, row)
    return _text_of(snap, row, "", HEADING_CONTROLS)


def headlines(snap, gone: np.ndarray, node: int) -> list[tuple[str, int]]:
    """The page's first MAX_HEADLINES shown h1s as (text without a permalink mark, a
    control's words or a leading label, the distance of its row from the chosen
    element's top), empty ones left out."""
    rows = shown_h1(snap, gone)[:MAX_HEADLINES]
    out = []
    for row in rows.tolist():
        t = without_label(snap, row, HEADING_MARKS.sub("", heading_text(snap, row)))
        if t:
            out.append((t, abs(row - node)))
    return out


# A class that marks a heading's first element as a label set before the title: a
# forum thread's prefix (XenForo's `<span class="label">News</span>`), a badge.
LABEL_NAMES = re.compile(r"(?:^|[\s_-])(?:label|badge|prefix)(?:$|[\s_-])")
# A label is a word or a few ("Tips/Techniques", "[Vocabulary]", "Info").
MAX_LABEL_WORDS = 3


def without_label(snap, row: int, t: str) -> str:
    """A heading's text `t` without its first element's text when that element is a
    label (LABEL_NAMES, MAX_LABEL_WORDS at most) before any text of the heading's own:
    "<h1><span class=label>News</span>Digital cameras</h1>" is "Digital cameras"."""
    first = row + 1
    if first >= snap.end[row] or snap.parent[first] != row or snap.text[row].strip() \
            or not LABEL_NAMES.search(snap.cls[first].lower()):
        return t
    label = text_of(snap, first)
    if not label or len(label.split()) > MAX_LABEL_WORDS or not t.startswith(label):
        return t
    return t[len(label):].strip() or t


def headline(snap, gone: np.ndarray, node: int) -> str | None:
    """The first shown h1 from the window on, else the page's first shown h1."""
    h1 = shown_h1(snap, gone)
    if not len(h1):
        return None
    after = h1[h1 >= node - WINDOW_ROWS]
    for row in (after.tolist() + h1.tolist())[:4]:
        t = HEADING_MARKS.sub("", heading_text(snap, int(row)))
        if t:
            return t
    return None


def is_name(n: str) -> bool:
    """A byline part that can be a person's or an organisation's name: not a stop word,
    not a date, at most six words, a letter, no digit run that makes it a date or id."""
    if not n or NOT_A_NAME.match(n) or NOT_NAME_PARTS.search(n) or GERUND.match(n) \
            or SENTENCE_WORDS.search(n) or CALL_TO_ACTION.match(n) or POSTER_LABEL.match(n) \
            or len(n.split()) > 6 \
            or not any(c.isalpha() for c in n) or INITIAL.match(n):
        return False
    words = n.lower().replace(".", " ").split()
    if any(w in dates.MONTHS for w in words) and any(w.isdigit() for w in words):
        return False                   # a day without its year: "3 January", "Feb. 27"
    return dates.find(n) is None and sum(c.isdigit() for c in n) < 3


def first_line(t: str) -> str:
    """A byline's text up to the first element boundary (a newline, from text_of) after
    a name of two words or more: "Jane Doe\nSenior reporter" is "Jane Doe", while
    "Jane\nDoe" (given and family name in spans of their own) stays whole, and so does a
    parenthesis after the name ("<a>Jo Lee</a> (with Ann Roe)": the byline's own words)."""
    out = ""
    for line in t.split("\n"):
        if len(out.split()) >= 2 and not (JOINS_NAMES.match(line) or JOINS_NAMES_END.search(out)
                                          or line.startswith("(")):
            break
        out = f"{out} {line}".strip()
    return out


def name_in(snap, row: int) -> str:
    """The name a row's subtree writes (a microdata author without a value): its text
    without a leading "By", up to the first element boundary after a name of two words
    ("By <a>Keith Barry</a><br>Senior Autos Reporter" is "Keith Barry"); "" for another
    role's ("Updated by Jon Linkov": NOT_AUTHOR_TEXT)."""
    t = text_of(snap, row, "\n").strip()
    if NOT_AUTHOR_TEXT.match(t):
        return ""
    return first_line(BY_PREFIX.sub("", t, count=1).strip())


def clean_byline(t: str) -> list[str]:
    """The names of a byline text ("By Jane Doe and John Roe | 4 March 2024"), whose
    element boundaries are newlines."""
    lead = LEADING_DATE.match(t.strip())
    if lead and dates.find(lead[0]):
        t = t.strip()[lead.end():]
    t = first_line(BY_PREFIX.sub("", t.strip(), count=1).strip())
    if DATE_LABEL.match(t):
        return []                      # "Last Updated: January 7, 2025": a date line
    m = BYLINE_END.search(t)
    if m and m.start() > 0:
        t = t[:m.start()]
    t = t.strip(" ,:;-–—|·•")
    if not t or len(t) >= MAX_BYLINE_CHARS or GERUND.match(t):
        return []
    t = NAME_TWICE.sub(r"\1", t)
    t = POST_NOMINALS.sub("", t)
    parts = [p.strip(" ,:;.") for p in AUTHOR_SPLIT.split(t)]
    if not is_name(parts[0]):          # "By default, all items …": a sentence, no names
        return []
    return [n for n in parts if is_name(n)]


def clean_declared_author(a: str) -> str | None:
    """A declared author's name without quotes, a "By", or what follows the name on a
    byline (" - Editorial Team", " | 4 March"); None for what is no name (a template's
    placeholder "page.head.author", a number)."""
    a = BY_PREFIX.sub("", a.strip().strip("\"'“”‘’«»").strip(), count=1)
    m = DECLARED_NAME_END.search(a)
    if m and m.start() > 0:
        a = a[:m.start()]
    a = a.strip(" ,:;-–—|·•")
    if not a or not any(c.isalpha() for c in a) or PLACEHOLDER.search(a):
        return None
    return a


def byline(snap, gone: np.ndarray, node: int, author_links: list[int]) -> list[str]:
    """Names of the byline nearest the chosen element's top: a rel=author link or a link
    to an author page, a row whose own text starts "By …", an element whose class or id
    names a byline or author (not an avatar, bio or card); an author link read with the
    other author links of its byline (`_coauthors`); [] when none."""
    rows = around(snap, node)
    short: list[Rows] = []

    def short_texts(rx: re.Pattern) -> np.ndarray:
        """The short texts matching `rx`: the "By" lines and the credit sentences search
        the same ones, picked and prepared once, when the first of the two asks."""
        if not short:
            short.append(Rows(snap, "text", short_rows(snap, "text", rows, MAX_BYLINE_CHARS * 2)))
        return short[0].matching(rx)

    def links_to_authors():
        profiles = matching_rows(snap, "url", AUTHOR_URL, rows[snap.link[rows]])
        if len(profiles):      # a social network's /profile/ is a follow or share link
            profiles = profiles[~np.isin(snap.host[profiles], SOCIAL_HOSTS)]
        if not author_links:
            return profiles    # ascending and distinct already (rows of the window's order)
        return distinct(np.concatenate([np.array(author_links, np.int64), profiles]))

    # the most specific first: links to the author, a line starting "By", a class name, a
    # credit sentence; each group found only when the ones before it hold no byline
    groups = (links_to_authors,
              lambda: short_texts(BY_TEXT),
              lambda: distinct(np.concatenate([window_names(snap, "cls", node).matching(BYLINE_NAMES_TRIE),
                                               window_names(snap, "id", node).matching(BYLINE_NAMES_TRIE)])),
              lambda: short_texts(CREDIT_CUE))
    for g, find_group in enumerate(groups):
        candidates = find_group()
        if not len(candidates):
            continue                       # most groups find nothing: no numpy calls on none
        found = near(snap, node, candidates)
        found = found[~gone[found] & (snap.end[found] - found <= MAX_BYLINE_ROWS)][:MAX_TRIES]
        found = found[~in_menu(snap, found)]
        for r in found.tolist():
            got = _names_at(snap, gone, r, g)
            if got and g == 0:
                got = _coauthors(snap, gone, r, candidates, got)
            if got:
                return list(dict.fromkeys(got))
    return []


def _names_at(snap, gone: np.ndarray, r: int, g: int) -> list[str]:
    """The names byline candidate `r` of search group `g` (0 an author link, 1 a "By"
    line, 2 a class name, 3 a credit sentence) writes; [] when it is no byline."""
    if snap.tag[r] in FORM_TAGS:
        return []                          # a form's control: "write a review", "Sort by"
    names = f"{snap.cls[r]} {snap.id[r]}"
    if g == 2 and ACCOUNT_NAMES.search(names.lower()):
        return []
    if g == 2 and NOT_BYLINE_NAMES.search(names) and not snap.link[r] \
            and not NAME_PART.search(names.lower()):
        return []
    if in_review(snap, r):
        return []                          # a review's or comment's author, not the page's
    parent = snap.parent
    before = snap.text[parent[r]] if parent[r] >= 0 else ""
    if NOT_AUTHOR_TEXT.search(before) or NOT_AUTHOR_TEXT.search(snap.text[r]):
        return []                          # "Reviewed by <a>…</a>"
    t = text_of(snap, r, "\n")
    if g == 0 and DOTTED_USER_NAME.match(t) and MEMBER_URL.search(snap.url[r]):
        return [t]                         # a forum poster's user name: "b.scherer"
    if g == 3:                             # the name after the sentence's "by", to a comma
        m = CREDIT_SENTENCE.search(t.lower())
        if not m:
            return []
        t = t[m.end():].split(",")[0]
    if g == 1 and not BY_PREFIX.sub("", t, count=1).strip():
        t = label_next(snap, gone, r, t)
    if 0 < len(t) < MAX_BYLINE_CHARS * 2:
        return clean_byline(t)
    return []


# Levels up from an author link that hold the other links of the same byline: its parent
# ("By <a>A</a> and <a>B</a>") or a list's ("<ul><li><a>A</a></li><li><a>B</a></li></ul>")
# (NOTES.md,
# 'Why a byline reads its co-authors, a forum's dotted user name and a label under the post').
COAUTHOR_LEVELS = 2


def _coauthors(snap, gone: np.ndarray, r: int, links: np.ndarray, got: list[str]) -> list[str]:
    """The names of every author link in the byline author link `r` belongs to, in the
    page's order (`got`, r's own, among them): the links of `links` inside r's highest
    ancestor up to COAUTHOR_LEVELS up that is still a byline's size (MAX_BYLINE_ROWS)."""
    top, up = r, int(snap.parent[r])
    for _ in range(COAUTHOR_LEVELS):
        if up < 0 or snap.end[up] - up > MAX_BYLINE_ROWS:
            break
        top, up = up, int(snap.parent[up])
    if top == r:
        return got
    inside = links[(links > top) & (links < snap.end[top])]
    if len(inside) < 2:
        return got
    out: list[str] = []
    for o in np.sort(inside).tolist():
        if o == r:
            out.extend(got)
        elif not gone[o] and not in_menu(snap, np.array([o]))[0]:
            out.extend(_names_at(snap, gone, o, 0))
    return out


# A site's menus: a "By" line or a link to a people page inside one is a menu's item ("Shop
# by Brand", "By Sector", "By the Numbers", a "People" entry), never the page's byline
# (NOTES.md, 'Why a byline is no menu item, and other bylines left out').
MENU_TAGS = frozenset(("nav",))
MENU_ROLES = ("navigation", "menu", "menubar")


def in_menu(snap, rows: np.ndarray) -> np.ndarray:
    """Boolean per row of `rows`: inside a MENU_TAGS element or one whose ARIA role is a
    MENU_ROLES (the menus' row intervals found once per snapshot)."""
    def menus():
        codes, roles = snap.string_codes("role")
        by_role = np.fromiter((r.strip().lower() in MENU_ROLES for r in roles), np.bool_, len(roles))
        m = np.flatnonzero(tag_in(snap, MENU_TAGS) | by_role[codes])
        ends = snap.end[m]
        m.flags.writeable = ends.flags.writeable = False
        return m, ends
    starts, ends = snap.memo(("menu_rows",), menus)
    if not len(starts) or not len(rows):
        return np.zeros(len(rows), np.bool_)
    return ((starts[None, :] <= rows[:, None]) & (rows[:, None] < ends[None, :])).any(axis=1)


# A class word naming a review or a comment (a shop's "product-review__byline",
# WooCommerce's "woocommerce-review__author" in its "commentlist", "featured-review"): the
# author of a review under the page, not the page's (NOTES.md, 'Why a byline is no menu
# item, and other bylines left out').
REVIEW_NAMES = re.compile(r"(?:^|[\s_-])(?:reviews?|comments?|commentlist|testimonials?)(?:$|[\s_-])")
# A post's taxonomy written as its classes (WordPress's "category-reviews", "tag-comments"):
# what the post is filed under, not a review; and a post's flags about its comments
# (Squarespace's "has-comments" on every blog post, "comments-open", "no-comments"):
# what the post allows, not a comment.
TAXONOMY_CLASSES = re.compile(r"(?:^|\s)(?:(?:category|tag|cat|topic|section|term)-\S*|"
                              r"(?:has|no|with|show|allow)-(?:comments?|reviews?)|"
                              r"(?:comments?|reviews?)-(?:open|closed|enabled|disabled|on|off)"
                              r"(?=\s|$))")
# Elements up from a byline candidate whose classes are read for REVIEW_NAMES: a review's
# byline sits a few levels inside the review (header, footer, meta line).
REVIEW_DEPTH = 6


def in_review(snap, r: int) -> bool:
    """Whether `r` or one of its REVIEW_DEPTH nearest ancestors has a class naming a review
    or comment (REVIEW_NAMES)."""
    parent, cls = snap.parent, snap.cls
    for _ in range(REVIEW_DEPTH + 1):
        if r < 0:
            return False
        if REVIEW_NAMES.search(TAXONOMY_CLASSES.sub("", cls[r].lower())):
            return True
        r = int(parent[r])
    return False


# A form's choices ("Sort by: Author | Post time") are no byline.
FORM_TAGS = frozenset(("option", "select", "button", "label"))


def label_next(snap, gone: np.ndarray, r: int, label: str) -> str:
    """A byline written as a label in an element of its own and the name in the next
    ("<p>Written by</p><p>Edzel Tabing</p>", "<h3>Author</h3><p>Lisa D. Ellis</p>"): the
    label and the next element's text; the label alone when no element follows it in the
    same parent."""
    nxt = int(snap.end[r])
    if snap.tag[r] in FORM_TAGS or nxt >= snap.n or snap.parent[nxt] != snap.parent[r] or gone[nxt] \
            or snap.end[nxt] - nxt > MAX_BYLINE_ROWS:
        return label
    return f"{label}\n{text_of(snap, nxt, chr(10))}"


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
    short = [short_rows(snap, column, rows, MAX_DATELINE_CHARS) for column in DATED_COLUMNS]
    strings = [s for column, at in zip(DATED_COLUMNS, short) for s in snap.cols[column][at].tolist()]
    if not strings:
        return []
    where = np.concatenate(short)
    column_of = np.repeat(np.arange(len(DATED_COLUMNS)), [len(at) for at in short])
    hits = matching_strings(strings, dates.YEAR, lower=False).tolist()
    return [(int(where[i]), DATED_COLUMNS[column_of[i]], strings[i]) for i in hits]


def short_dates(snap, lines: list[tuple[int, str, str]], us_order: bool = False):
    """(row, day) of every one of `lines` (dated_lines's) holding a date, not a member's
    joining day (JOINED, in a tail's text or its element's text before it: the label)."""
    for r, column, own in lines:
        d = dates.find(own, us_order)
        label = f"{own} {snap.text[r]}" if column == "tail" else own
        if d and not JOINED.search(label.lower()) and not is_clock(snap, r):
            yield r, d


def first_date(snap, lines: list[tuple[int, str, str]], key: Callable[[int], Any],
               us_order: bool = False) -> tuple[int, str] | None:
    """min((key(row), day) for (row, day) in short_dates(lines)) as (row, day), None when
    no line holds one: the lines read in the order of their rows' keys, and no further
    than the first key one of them dates (a window's list of dated posts is not parsed
    line by line for the nearest; tests/test_metadata_shown.py checks it against the min).
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


# A byline's label alone in an element of its own ("Written by", "Article written by:",
# "Author(s)"), the name in the next: an author box or credit under the post, read after
# the chosen element when nothing above it or inside names anyone. A label alone, not a
# "By" line: a "By" with its words after the content is a shop's "By Collection" or a
# footer's (NOTES.md,
# 'Why a byline reads its co-authors, a forum's dotted user name and a label under the post').
# Its first letters looked ahead (as BY_TEXT's): 6 µs a page against 13 without, median, and
# 22 against 72 at the 95th percentile, over the first 300 training pages' short texts.
AFTER_LABEL = re.compile(r"\n[ \t]*(?=[tapgsbw])(?:(?:this|the)[ \t]+)?(?:(?:article|post|story|blog post|"
                         r"guide|piece)[ \t]+)?(?:written[ \t]+by|authors?|author\(s\)|autor(?:en)?|"
                         r"auteurs?)[ \t]*:?[ \t]*(?=\n|\Z)")
# The label's text is short: the longest form above, with spaces around.
MAX_LABEL_CHARS = 40


def label_after(snap, gone: np.ndarray, node: int) -> list[str]:
    """The names after the first byline label alone in its element (AFTER_LABEL) in the
    AFTER_ROWS rows after the chosen element, read from the element after the label
    (label_next); [] when none names anyone."""
    end = int(snap.end[node])
    rows = np.arange(end, min(snap.n, end + AFTER_ROWS))
    rows = short_rows(snap, "text", rows[~gone[rows]], MAX_LABEL_CHARS)
    found = matching_rows(snap, "text", AFTER_LABEL, rows)[:MAX_TRIES]
    found = found[~in_menu(snap, found)]
    for r in found.tolist():
        if snap.tag[r] in FORM_TAGS or in_review(snap, r):
            continue
        t = label_next(snap, gone, r, "")
        if t:
            got = clean_byline(t)
            if got:
                return list(dict.fromkeys(got))
    return []


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


def page_text(snap) -> str:
    """Every text and tail of the page, a newline apart (read once a page, and only when a
    numeric date's order is asked: dates.NumericOrder)."""
    return "\n".join(snap.cols["text"].tolist() + snap.cols["tail"].tolist())


# Where a page names itself besides its title: its banner and its footer ("© Site").
SITE_PLACE_TAGS = frozenset(("header", "footer"))
SITE_PLACE_ROLES = ("banner", "contentinfo")
# Rows of a header or footer read for the site's name (a mega-footer is a sitemap).
MAX_PLACE_ROWS = 2000


def site_places_text(snap, gone: np.ndarray) -> str:
    """The folded text of the page's shown headers and footers (tags and ARIA roles)."""
    rows = np.flatnonzero((tag_in(snap, SITE_PLACE_TAGS) | np.isin(snap.role, SITE_PLACE_ROLES))
                          & ~gone & (snap.end - np.arange(snap.n) <= MAX_PLACE_ROWS))
    return " ".join(text_of(snap, int(r)) for r in rows[:10]).casefold()


class Shown:
    """The fields of what the page shows, each found on first `get` (a page that declares
    its authors and date is never searched for a byline): title (the h1), authors,
    published (a <time> or date line near the choice), url_date."""

    def __init__(self, snap, gone: np.ndarray, node: int, us_order=None) -> None:
        self.snap, self.gone, self.node = snap, gone, node
        # a numeric date's order (dates.NumericOrder, merge's): month first for lang
        # en-US when not given
        self.us_order = us_order
        self.found: dict[str, Any] = {}

    def get(self, name: str) -> Any:
        if name not in self.found:
            self.found[name] = self._find(name)
        return self.found[name]

    def _find(self, name: str) -> Any:
        snap, gone, node = self.snap, self.gone, self.node
        declared = snap.meta.get("declared") or {}
        if name == "title":
            return headline(snap, gone, node)
        if name == "headlines":
            return headlines(snap, gone, node)
        if name == "authors":
            links = [r for r, rel, _h in declared.get("links", ()) if "author" in rel.split()]
            return byline(snap, gone, node, links) or label_after(snap, gone, node) or None
        if name == "published":
            us = self.us_order
            if us is None:
                us = (snap.meta.get("lang") or "").lower().startswith("en-us")
            return dateline(snap, gone, node, declared.get("times", []), us)
        if name == "url_date":
            return dates.from_url(snap.meta.get("url") or "")
        raise KeyError(name)


def fields(snap, gone: np.ndarray, node: int) -> dict[str, Any]:
    """Every field of what the page shows that it shows (Shown, all read)."""
    seen = Shown(snap, gone, node)
    return {k: v for k in ("title", "authors", "published", "url_date") if (v := seen.get(k))}
