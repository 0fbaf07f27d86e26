"""The names a page shows as its authors: a byline near the chosen content (an author link, a "By" line, a class naming the author, a credit sentence), or a label under it, or a forum post's poster panel.

Candidates are the rows around the chosen element (window.py), nearest its top first.
"""
from __future__ import annotations

import re

import numpy as np

from .. import wordtrie
from ..codes import distinct
from ..features import tag_in
from . import dates
from .window import (AFTER_ROWS, MAX_BYLINE_ROWS, MAX_TRIES, Rows, around, matching_rows, near,
                     short_rows, text_of, window_names)

# A byline is a name or two; a text this long is a sentence or an author's bio (as the
# extension's collector had it).
MAX_BYLINE_CHARS = 100
# Class and id words that name a byline ("authoring", "authorization", "authority" are
# headings of documentation, not its author: docs.rs's "Authoring applications").
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
# BYLINE_NAMES as matching_names searches it: a trie of its words (wordtrie.py: the same
# matches, a fifth of the byline's class searches' instructions fewer).
BYLINE_NAMES_TRIE = wordtrie.compiled(BYLINE_NAMES)
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
BY_TEXT = re.compile(r"\n[ \t]*(?=[wprabvds作记記撰著筆文])(?:(?:(?:written|posted|published|reported|authored|started)[ \t]+by|"
                     r"by|von|par|por|door|author(?:s|\(s\))?|autor(?:en)?|auteurs?)"
                     r"[ \t]*[:\-–—]?[ \t\n]|" + CJK_BYLINE_MARK + ")")
# A label that names the page's authors by that word ("Authors of this article:"), not by "by".
AUTHOR_LABEL = re.compile(r"\s*(?:authors?|author\(s\)|autor(?:en)?|auteurs?)\b", re.I)
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
# A date line that leads with its author's name, a bar or dot after it: "Aaron Ricadela |
# Senior Writer | July 2, 2025", "Jane Doe · March 3, 2024 · 5 min read" (a plain text, no
# "By", link or class to mark it). Searched last: the short texts holding a separator, each
# found by its literal (three literal searches cost 22 µs a page over the first 150 training
# pages' short texts; one pattern for the name and its separator cost 346, the separators
# as one character class 40); `_dateline_name` reads the line: a name of two to four
# capitalised words, the separator, a date after it. A " - " is no such separator: a title
# leads that ("Fractured Soul - Three new videos - November 1, 2012") (NOTES.md, 'Why a
# byline is read from a label's next element, an author's photo, and never from code').
DATELINE_SEPARATORS = (re.compile(r"\|"), re.compile("·"), re.compile("•"))
_NAME_DATELINE = re.compile(r"\s*([^\W\d_][\w'’.-]*(?:[ \t]+[^\W\d_][\w'’.-]*){1,3})[ \t]*[|·•](.*)", re.S)


def _dateline_name(t: str) -> list[str]:
    """The name leading a date line (NAME_DATELINE's): each word capitalised, a date after
    it on the line; [] otherwise."""
    m = _NAME_DATELINE.match(t)
    if not m or not all(w[0].isupper() for w in m[1].split()) or dates.find(m[2]) is None:
        return []
    return clean_byline(m[1])


# Who else a page names with "by": its reviewers, editors, photographers.
NOT_AUTHOR_TEXT = re.compile(r"(?:review|edit|fact[- ]?check|photo|photograph|illustrat|translat|"
                             r"image|video|updated)\w*\s+by\b", re.I)
# What precedes a name on a byline, in the languages of the labelled pages ("via": a link
# aggregator's submitter, lobste.rs's "via scvalex").
BY_PREFIX = re.compile(r"^(?:(?:written|posted|published|reviewed|edited|reported|authored|created|started)\s+by|"
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
# A page's credits declared as its author: two roles or more, each a label and its colon
# ("content: MarketingSherpa, design: Scott McDaniel, code: Steve Beger"), the people who
# made the site's template, never the post's writer (NOTES.md,
# 'Why a credits list and an "Articles by" link name no one, and a poster panel names its poster').
CREDITS = re.compile(r"^[^\W\d][^:,;]{0,30}:[^:]+[,;][ \t]*[^\W\d][^:,;]{0,30}:")
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
                            r"\blog-?\s?in\b|\bsign[- ]?in\b|"
                            r"\bfact[- ]?check|\bverified\b|\bexpert\b", re.I)
# "By clicking …", "by keeping an eye on …": a sentence's gerund, no name.
GERUND = re.compile(r"^[a-z]+ing\b")
# Three words or more, none capitalised: a sentence's words after a label ("Author pays
# all costs (editing, design)" in a price table), never a name (a forum's user name is one
# word; a name's lower-case particles sit between capitalised words) (NOTES.md, 'Why a
# declared author the page never shows yields to its "By" line').
LOWER_WORDS = re.compile(r"^[a-z][a-z'’-]*(?:\s+\(?[a-z][a-z'’-]*){2,}\b")
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
# bylines left out'); or an author page's link named for its list ("Articles by Juliette":
# NOTES.md,
# 'Why a credits list and an "Articles by" link name no one, and a poster panel names its poster').
CALL_TO_ACTION = re.compile(r"^\W*(?:see|view|visit|learn|follow|read|show|sign|subscribe|"
                            r"contact|click|download|join|register|watch|request|discover|"
                            r"explore|find|check|browse|shop|buy|try|get|start|open|more|"
                            r"email|message|send|book|log|"
                            r"(?:articles|posts|stories)\s+(?:by|from))\b", re.I)
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
POST_NOMINALS = re.compile(r",[ \t]*(?:[A-Z]{2,6}[®™]?|(?:[A-Z][a-z]?\.){2,3}|PhD|MSc|BSc|MEd|MFA|"
                           r"PharmD|DrPH|PsyD|Esq\.?|Jr\.?|Sr\.?|Inc\.?|Ltd\.?|LLC)"
                           r"(?=[ \t]*(?:[,;&]|\band\b|$))")
AUTHOR_SPLIT = re.compile(r"\s*(?:,|&|、|，|\band\b|\bund\b|\bet\b|\by\b|\be\b)\s*", re.I)


def is_name(n: str) -> bool:
    """A byline part that can be a person's or an organisation's name: not a stop word,
    not a date, at most six words, a letter, no digit run that makes it a date or id."""
    if not n or NOT_A_NAME.match(n) or NOT_NAME_PARTS.search(n) or GERUND.match(n) \
            or LOWER_WORDS.match(n) \
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
    placeholder "page.head.author", a number, a credits list: CREDITS)."""
    a = BY_PREFIX.sub("", a.strip().strip("\"'“”‘’«»").strip(), count=1)
    m = DECLARED_NAME_END.search(a)
    if m and m.start() > 0:
        a = a[:m.start()]
    a = a.strip(" ,:;-–—|·•")
    if not a or not any(c.isalpha() for c in a) or PLACEHOLDER.search(a) or CREDITS.match(a):
        return None
    return a


def byline(snap, gone: np.ndarray, node: int, author_links: list[int],
           only: int | None = None) -> list[str]:
    """Names of the byline nearest the chosen element's top: a rel=author link or a link
    to an author page, a row whose own text starts "By …", an element whose class or id
    names a byline or author (not an avatar, bio or card); an author link read with the
    other author links of its byline (`_coauthors`); [] when none. With `only`, the search
    group of that number alone (1: the "By" lines, `_names_at`'s numbers)."""
    rows = around(snap, node)
    short: list[Rows] = []

    def short_texts(rx: re.Pattern) -> np.ndarray:
        """The short texts matching `rx`: the "By" lines and the credit sentences search
        the same ones, picked and prepared once, when the first of the two asks."""
        if not short:
            short.append(Rows(snap, "text", short_rows(snap, "text", rows, MAX_BYLINE_CHARS * 2),
                              blank_empty=True))
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
              lambda: short_texts(CREDIT_CUE),
              lambda: distinct(np.concatenate([short_texts(rx) for rx in DATELINE_SEPARATORS])))
    for g, find_group in enumerate(groups):
        if only is not None and g != only:
            continue
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
    line, 2 a class name, 3 a credit sentence, 4 a date line led by a name) writes; []
    when it is no byline."""
    if snap.tag[r] in FORM_TAGS:
        return []                          # a form's control: "write a review", "Sort by"
    names = f"{snap.cls[r]} {snap.id[r]}"
    if g == 2 and ACCOUNT_NAMES.search(names.lower()):
        return []
    if g == 2 and snap.tag[r] == "img":
        return _photo_name(snap.alt[r])    # the author's photo: its alt text names them
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
    if g == 4:                             # "Jane Doe | Senior Writer | July 2, 2025"
        return _dateline_name(snap.text[r])
    if g == 3:                             # the name after the sentence's "by", to a comma
        m = CREDIT_SENTENCE.search(t.lower())
        if not m:
            return []
        t = t[m.end():].split(",")[0]
    if g == 1:
        rest = BY_PREFIX.sub("", t, count=1).strip()
        if not rest:
            t = label_next(snap, gone, r, t)
        elif rest.endswith(":") and len(t) <= MAX_LABEL_CHARS and "\n" not in rest \
                and AUTHOR_LABEL.match(t):
            # an author label of the element after it ("Authors of this article:"), or of
            # its own tail ("Author services: editing, …"): never a name itself ("By road:"
            # stays a "By" line: a direction's label is no author's)
            t = label_next(snap, gone, r, "")
    if 0 < len(t) < MAX_BYLINE_CHARS * 2:
        return clean_byline(t)
    return []


# An author's photo described as one ("Jane Doe headshot", "Photo of Jane Doe", "Author
# avatar"): the words around the name, or no name at all (NOTES.md, 'Why a byline is read
# from a label's next element, an author's photo, and never from code').
PHOTO_WORDS = re.compile(r"^(?:(?:photo|picture|image|portrait|headshot)\s+of\s+)|"
                         r"\s+(?:photo|picture|image|portrait|headshot|avatar|profile)\S*$", re.I)
NOT_PHOTO_NAME = re.compile(r"\b(?:author|avatar|photo|image|picture|logo|icon|headshot|"
                            r"profile|placeholder|default|user)\b", re.I)


def _photo_name(alt: str) -> list[str]:
    """The name an author's photo's alt text gives ("Lauren Vetter", "Jane Doe headshot"):
    a name of two to four words, nothing else; [] for a generic alt ("Author avatar")."""
    alt = PHOTO_WORDS.sub("", " ".join(alt.split()))
    if not 2 <= len(alt.split()) <= 4 or NOT_PHOTO_NAME.search(alt):
        return []
    return clean_byline(alt)


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
# A code block or sample: its "BY" is a query's ("PARTITION BY status_code", "ORDER BY
# name"), its "author" a variable's, never the page's byline (NOTES.md, 'Why a byline is
# read from a label's next element, an author's photo, and never from code').
CODE_TAGS = frozenset(("pre", "code"))


def in_menu(snap, rows: np.ndarray) -> np.ndarray:
    """Boolean per row of `rows`: inside a MENU_TAGS element or one whose ARIA role is a
    MENU_ROLES, or inside a code block (CODE_TAGS; the intervals found once per snapshot)."""
    def menus():
        codes, roles = snap.string_codes("role")
        by_role = np.fromiter((r.strip().lower() in MENU_ROLES for r in roles), np.bool_, len(roles))
        m = np.flatnonzero(tag_in(snap, MENU_TAGS | CODE_TAGS) | by_role[codes])
        ends = snap.end[m]
        m.flags.writeable = ends.flags.writeable = False
        return m, ends
    starts, ends = snap.memo(("menu_or_code_rows",), menus)
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
    # the name up to its element's boundary: the element may hold the author's tooltip
    # or bio after it ("By" / "<div><a>Mary Leverette</a><div>…her bio…</div></div>")
    return f"{label}\n{first_line(text_of(snap, nxt, chr(10)).strip())}"


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


# A forum post's poster panel written as a definition list: the poster's name its term,
# their details the descriptions after it ("<dt><strong>chunix64</strong></dt><dd>Member</dd>
# <dd>Registered: 2025-11-01</dd><dd>Posts: 1</dd>": FluxBB's and PunBB's, phpBB's
# "postprofile"), where a guest is shown no link to the member's profile (NOTES.md,
# 'Why a credits list and an "Articles by" link name no one, and a poster panel names its poster').
POSTER_DETAIL = re.compile(r"^\W*(?:registered|joined|join date|member since|posts|messages)\b", re.I)
# The descriptions read after the term: a rank or title, then the details.
MAX_DETAILS = 4


def poster_term(snap, gone: np.ndarray, node: int) -> list[str]:
    """The name of the first poster panel (a <dt> followed, within MAX_DETAILS siblings, by
    a <dd> that starts with a POSTER_DETAIL) nearest the chosen element's top, as the
    forum writes it; [] when none."""
    codes, tags = snap.tag_codes()
    if "dt" not in tags:
        return []                  # most pages hold no definition list: no numpy call
    look = around(snap, node)
    terms = near(snap, node, look[codes[look] == tags.index("dt")])
    if not len(terms):
        return []
    parent = snap.parent
    for r in terms[~gone[terms]][:MAX_TRIES].tolist():
        nxt = int(snap.end[r])
        for _ in range(MAX_DETAILS):
            if nxt >= snap.n or parent[nxt] != parent[r] or snap.tag[nxt] != "dd":
                break
            if POSTER_DETAIL.match(text_of(snap, nxt)):
                name = text_of(snap, r).strip()
                # a user name as the forum writes it: digits too ("archuser38013")
                ok = 0 < len(name) < MAX_BYLINE_CHARS and any(c.isalpha() for c in name)
                return [name] if ok else []
            nxt = int(snap.end[nxt])
    return []
