"""The page's metadata, one computation for every output: declared fields (JSON-LD, <meta>, microdata, links) and shown ones (headline, byline, date line, URL) merged by precedence, cleaned and capped.

Precedence per field, first found wins: JSON-LD's main entity, then <meta> (OpenGraph,
Dublin Core, ...), then microdata, then what the page shows. Exceptions, each measured on
the training sites (NOTES.md, 'Why the page's metadata is one computation, and its
precedence'): the title is the page's shown headline
(h1) when a declared title agrees with it, and every declared title loses its site
suffix ("Headline | Site", "Site - Headline") when that part names the site; the
language is <html lang> first (what the browser itself reads). Dates are ISO 8601.
Every string is cut to a named limit: the reply echoes them.
"""
from __future__ import annotations

import datetime as dt
import re
import urllib.parse
from dataclasses import asdict, dataclass, field
from functools import lru_cache
from typing import Any, Callable, Collection

import numpy as np

from . import byline, dates, jsonld, shown, tags, window
from .dateline import shown_days

# Limits of the reply's strings (the page writes them; a reply stays far under 1 MB).
MAX_TITLE_CHARS = 500
MAX_NAME_CHARS = 100          # an author, a site name
MAX_AUTHORS = 10
MAX_DESCRIPTION_CHARS = 1000
MAX_URL_CHARS = 2048
MAX_WORDS = 50                # categories, tags
MAX_WORD_CHARS = 100
MAX_LANGUAGE_CHARS = 35       # BCP 47's longest useful tag
# A site's name in a title ("… | The Harbour Gazette") is a few words, not a second title.
MAX_SITE_CHARS, MAX_SITE_WORDS = 60, 6
# A host name's main label held in a title's last part names the site only when it is
# this long: "bbc" or "cnn" is a word of many headlines.
MIN_LABEL_CHARS = 4
# A shown h1 and a declared title that share this share of their words (Jaccard) name
# the same page: the h1 is then the title (what the reader sees; a declared title is often
# written for search results). Below it the h1 is a section's name or a slogan, and the
# declared title is right more often (NOTES.md, 'Why the page's metadata is one
# computation, and its precedence').
TITLE_AGREEMENT = 0.3
# Page types (pagetype.CLASSES) whose declared title is their name where a shown h1 agrees
# with it only in part (TITLE_AGREEMENT or more, but the title neither is the h1 nor leads
# with it): a service page's h1 is its hero's slogan or pitch ("Finance and accounting
# talent that really counts" under "Finance & Accounting Staffing and Recruiting"), and
# the <title> names the service (NOTES.md, 'Why a service page's declared title names it').
DECLARED_NAME_TYPES = frozenset({"service"})
# Separators between a headline and the site's name in a <title> / og:title.
TITLE_SEPARATORS = (" | ", " - ", " – ", " — ", " · ", " :: ", " » ", " « ", " / ", " : ", " ~ ")
# Separators after which a title's first part ends and a tagline, a section or a site
# begins ("Best Movers in NYC 2025 | Top 19 Companies"); not the em dash or the slash,
# which sentences hold ("… System — and It May Replace My Gym", "2026 / 2027").
PART_SEPARATORS = (" | ", " - ", " – ", " • ", " · ")
# The same in a shown heading, without the en dash: a heading the reader sees uses it as a
# sentence's dash ("Transitioning to a plant-based diet – tips and tricks"), where a
# <title> uses it before the site's name (NOTES.md, 'Why a title's parts are cut where
# they are').
HEADING_PART_SEPARATORS = (" | ", " - ", " • ", " · ")
# Of those, the ones that set off a tagline or a search engine's keywords whatever their
# length ("Stripe Payments | Global Payment Processing Platform", "IAM overview | Identity
# and Access Management (IAM)"): the part before the first is the page's name. A dash
# more often joins a name and what it explains ("Git - git-commit Documentation").
TAGLINE_SEPARATORS = (" | ",)
# Separators a title in Chinese, Japanese or Korean sets without spaces between the
# headline, its channel and the site ("标题_新闻频道_中国青年网", "标题-中国科普网",
# "标题|关键词|关键词_网易订阅"): those scripts put no spaces between words, so a separator
# has none either. One counts next to a CJK character only ("world-class" in a tweet quoted
# in a Chinese title is a word), and not the em dash nor "丨", which headlines hold
# ("动能增强——前4个月", a column's name "政能亮丨…") (NOTES.md, 'Why the h1 a declared title
# writes wins a tie, and a CJK title is cut without spaces').
_CJK = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff"
CJK_SCRIPT = re.compile(f"[{_CJK}]")
CJK_SEPARATOR = re.compile(f"(?<=[{_CJK}])\\s*[_|｜\\-－]\\s*|\\s*[_|｜\\-－]\\s*(?=[{_CJK}])")
# Words a shown h1 may hold before the declared title that are no part of it: a label
# of the forum's or blog's software ending in a colon, or a date ("Thread: …", "Blog: …",
# "Dec 18 2025 …"). Other words are the headline's own ("The Best …" under a title "Best
# …": as many labels take the one as the other).
MAX_HEADLINE_PREFIX_WORDS = 3
_FOLD = re.compile(r"[\W_]+", re.U)
# Typographic quotes and their ASCII forms, and the trademark signs dropped: a shown heading
# that differs from the declared titles only by these was curled or marked by the site's
# typography at display (WordPress's wptexturize, a theme's filter, a shop's "Switch™"), and
# every declared title writing it plain gives the text as typed (NOTES.md, 'Why a title's
# parts are cut where they are'; NOTES.md, 'Why an h1 a declared title is whole is no logo,
# and a heading's buttons and section numbers are left out').
DISPLAY_MARKS = str.maketrans({"\u2019": "'", "\u2018": "'", "\u201c": '"', "\u201d": '"',
                               "\u2122": None, "\u00ae": None})
# Characters a browser does not draw that a page's text may hold: the soft hyphen
# ("Assis\u00adtance"), zero-width spaces and joiners, the byte-order mark. A title is
# read without them (they split its words when folded).
INVISIBLE = re.compile("[\u00ad\u200b-\u200d\u2060\ufeff]")
# Folded strings remembered (`fold`): a page's titles, headings and names, a few dozen; the
# last pages' are enough, and the bounds (strings and their length: a headline is read up
# to 400 characters) keep a crawl's memory flat whatever titles its pages hold.
FOLD_CACHE_SIZE = 1024
FOLD_CACHE_CHARS = 500
_LOCALE = re.compile(r"^([a-z]{2,3})[_-]([A-Za-z]{2})$")


@dataclass
class Metadata:
    """What every output carries (host/PROTOCOL.md `metadata`); None / [] when unknown."""

    title: str | None = None
    authors: list[str] = field(default_factory=list)
    published: str | None = None
    modified: str | None = None
    site: str | None = None
    description: str | None = None
    url: str | None = None
    language: str | None = None
    image: str | None = None
    categories: list[str] = field(default_factory=list)
    tags: list[str] = field(default_factory=list)
    license: str | None = None

    def to_wire(self) -> dict[str, Any]:
        return asdict(self)


def fold(s: str) -> str:
    """Case and punctuation folded, for comparing titles and names (remembered up to
    FOLD_CACHE_CHARS: the title's choice folds the same few strings a dozen times a page)."""
    return _folded(s) if len(s) <= FOLD_CACHE_CHARS else _fold(s)


def _fold(s: str) -> str:
    return _FOLD.sub(" ", s.casefold()).strip()


_folded = lru_cache(maxsize=FOLD_CACHE_SIZE)(_fold)


def is_cjk(s: str) -> bool:
    """Whether `s` holds a CJK character (CJK_SCRIPT): an ASCII string answered at once, others
    remembered as `fold` remembers them (the title's choice asks of the same few titles
    a dozen times a page)."""
    if s.isascii():
        return False
    return _holds_cjk(s) if len(s) <= FOLD_CACHE_CHARS else CJK_SCRIPT.search(s) is not None


@lru_cache(maxsize=FOLD_CACHE_SIZE)
def _holds_cjk(s: str) -> bool:
    return CJK_SCRIPT.search(s) is not None


def _cut(s: str | None, limit: int) -> str | None:
    if not s:
        return None
    s = " ".join(s.split())
    return s[:limit] if s else None


def _cut_list(values, limit: int, count: int) -> list[str]:
    out = []
    for v in values or ():
        c = _cut(v, limit)
        if c and c not in out:
            out.append(c)
    return out[:count]


def host_site(url: str) -> str | None:
    host = (urllib.parse.urlsplit(url).hostname or "") if url else ""
    return host[4:] if host.startswith("www.") else (host or None)


def _names_site(part: str, site: str | None, host: str | None, trailing: bool = False,
                leading: bool = False) -> bool:
    """Whether a title part names the site: its folded form is the site's, or one holds
    the other, or it is the host name's main label; a `trailing` part also when it holds
    that label with a word or two ("Doom9's Forum" on forum.doom9.org). A `leading` part
    ("Site - Headline") that holds the site's name starts with it ("Astronomy Forum"):
    "New to Astronomy – Best First Telescope?" on a site named Astronomy is a headline."""
    p = fold(part)
    if not p:
        return False
    if site:
        s = fold(site)
        holds = s in p and (not leading or (p + " ").startswith(s + " "))
        if s and (p == s or (len(p) >= 3 and (p in s or holds))):
            return True
    if host:
        label = fold(host.rsplit(".", 2)[-2] if host.count(".") >= 1 else host)
        joined = p.replace(" ", "")
        label = label.replace(" ", "")
        if label and (joined == label or joined == fold(host).replace(" ", "")):
            return True
        if (trailing and len(label) >= MIN_LABEL_CHARS and label in joined
                and len(p.split()) <= MAX_SITE_WORDS):
            return True
    return False


def strip_site(title: str, site: str | None, host: str | None) -> str:
    """`title` without a leading or trailing part that names the site; a title that ends
    with the site's name after parts of the same separator is a breadcrumb ("Topic /
    Board / Site Forums"), and its first part is the title when it is the longest."""
    return _strip_site(title, site, host)[0]


def _strip_site(title: str, site: str | None, host: str | None) -> tuple[str, bool]:
    """(strip_site's answer, whether the part cut off led the title: "Site - Words")."""
    for sep in TITLE_SEPARATORS:
        at = title.rfind(sep)
        if at > 0 and _names_site(title[at + len(sep):], site, host, trailing=True):
            rest = title[:at].strip()
            return _first_if_longest(rest, (sep,)), False
        at = title.find(sep)
        if at > 0 and _names_site(title[:at], site, host, leading=True):
            return title[at + len(sep):].strip(), True
    return title, False


def site_from_title(title: str, headline: str | None, places: "Callable[[], str]") -> str | None:
    """The last part of a "Headline | Site" title when the page confirms it names the
    site: the part before it is the page's shown h1, or the part is written in the
    page's header or footer (`places()`, their folded text); a part over MAX_SITE_CHARS
    or MAX_SITE_WORDS is a second title, not a site."""
    at, sep = max(((title.rfind(sep), sep) for sep in TITLE_SEPARATORS), key=lambda x: x[0])
    if at <= 0:
        return None
    tail = title[at + len(sep):].strip()
    if not tail or len(tail) > MAX_SITE_CHARS or len(tail.split()) > MAX_SITE_WORDS:
        return None
    if headline and fold(title[:at]) == fold(headline):
        return tail
    return tail if " ".join(tail.split()).casefold() in places() else None


def _language(lang: str | None) -> str | None:
    if not lang:
        return None
    lang = lang.strip().split(",")[0].strip()
    m = _LOCALE.match(lang)
    if m:
        return f"{m[1].lower()}-{m[2].upper()}"
    return lang[:MAX_LANGUAGE_CHARS] or None


def _leads(title: str, headline: str) -> bool:
    """Whether `title` is `headline`, or starts or ends with it next to a separator
    ("Headline | Section | Site"; in a CJK title also at CJK_SEPARATOR: "标题_要闻_电影网")."""
    h = fold(headline)
    if fold(title) == h:
        return True
    for sep in TITLE_SEPARATORS:
        if sep in title:
            parts = title.split(sep)
            if fold(parts[0]) == h or fold(parts[-1]) == h:
                return True
    if is_cjk(title):
        parts = CJK_SEPARATOR.split(title)
        return len(parts) > 1 and (fold(parts[0]) == h or fold(parts[-1]) == h)
    return False


def _words(s: str) -> set[str]:
    return set(fold(s).split())


def agreement(shown: str, declared: str) -> float:
    """How far a shown h1 and a declared title agree: 1 when the title is the h1 or leads
    with it next to a separator, else the Jaccard index of their folded words."""
    if _leads(declared, shown):
        return 1.0
    a, b = _words(shown), _words(declared)
    return len(a & b) / len(a | b) if a and b else 0.0


def _names_the_site(h1: str, site: str | None, host: str | None, titles: list[str]) -> bool:
    """Whether a shown h1 is the site's name (a logo set in an h1): it names the site, or
    it is the last part of a declared title whose first part is something else. An h1
    that a declared title is whole, other than the site's name, is the page's own
    ("The 2024 SELF Healthy Beauty Awards: …" on SELF; a forum thread's JSON-LD headline
    beside its og:title "Prefix - Headline"): a site declares its logo as no page's title
    (NOTES.md, 'Why an h1 a declared title is whole is no logo, and a heading's buttons and
    section numbers are left out')."""
    h = fold(h1)
    if (not site or h != fold(site)) and any(fold(t) == h for t in titles):
        return False
    if _names_site(h1, site, host):
        return True
    for t in titles:
        for sep in TITLE_SEPARATORS:
            if sep not in t:
                continue
            parts = t.split(sep)
            if fold(parts[-1]) == h != fold(parts[0]):
                return True
    return False


def title_parts(title: str, separators: tuple[str, ...]) -> list[str]:
    """`title` split at every one of `separators`, in order, each part stripped, empty
    parts left out."""
    parts = [title]
    for sep in separators:
        parts = [q for p in parts for q in p.split(sep)]
    return [p.strip() for p in parts if p.strip()]


def first_part(title: str) -> str:
    """A title's first part when the title has parts (PART_SEPARATORS) and that part is
    the longest: the rest is a tagline, a section or a site's name ("Headline | Opinion").
    A shorter first part is a name the rest explains ("Git - git-commit Documentation"),
    and the title stays whole, unless a TAGLINE_SEPARATORS one ends it ("Stripe Payments |
    Global Payment Processing Platform" is "Stripe Payments"). A CJK title is cut at
    CJK_SEPARATOR afterwards, where its first part is strictly the longest
    ("标题_新闻频道_中国青年网" is "标题")."""
    for sep in TAGLINE_SEPARATORS:
        first = title.split(sep, 1)[0].strip()
        if first and first != title.strip():
            return first
    title = _first_if_longest(title, PART_SEPARATORS)
    if is_cjk(title):
        parts = [p.strip() for p in CJK_SEPARATOR.split(title) if p.strip()]
        # strictly the longest: "科普中国-辟谣文章" (the site, its section) names no headline
        if len(parts) > 1 and len(parts[0]) > max(map(len, parts[1:])):
            return parts[0]
    return title


def _first_if_longest(title: str, separators: tuple[str, ...]) -> str:
    """`title`'s first part at `separators` when it has parts and that one is the
    longest, else `title`."""
    parts = title_parts(title, separators)
    if len(parts) > 1 and len(parts[0]) >= max(map(len, parts[1:])):
        return parts[0]
    return title


def choose_title(declared: list[str | None], entity: str | None,
                 headlines: list[tuple[str, int]], site: str | None,
                 host: str | None, root: bool = True,
                 page_type: str | None = None) -> str | None:
    """The title: the shown h1 that agrees best with a declared title (<meta>'s, the
    document's, JSON-LD's entity's), when it agrees by TITLE_AGREEMENT or more (on a page
    of DECLARED_NAME_TYPES, `page_type`, fully: the title is the h1 or leads with it); among equals
    the one a declared title writes character for character, then the nearest the chosen
    element; else the first declared title; JSON-LD's entity
    headline only when no other is declared (a listing's first item is an entity too);
    else the shown h1 nearest the chosen element. Each without a part naming the site,
    and cut to its first part when that is the longest (`first_part`; a heading at
    HEADING_PART_SEPARATORS); an h1 that is the site's name is never the title. On a
    page below the site's root (`root` False) a declared title that leads with the
    site's name ("Site - Slogan") yields to the shown h1 nearest the chosen element, and
    one that is the site's name alone to the other declared titles."""
    declared = [_filled(c, site, host) for c in declared]
    if not root and site and any(c and fold(c) != fold(site) for c in declared):
        # a template's og:title or microdata headline that is the site's name alone
        # ("Bombas" beside the <title> "All Men's Socks") names no page below the root
        declared = [None if c and fold(c) == fold(site) else c for c in declared]
    # each title once: sources often declare the same one (og:title and <title>, JSON-LD's
    # headline), and every reading below asks whether any title does something or the best
    # of them, which a title's second copy never changes
    offered = list(dict.fromkeys(c for c in (*declared, entity) if c))
    shown = [(without_section_number(t, offered), d) for t, d in headlines
             if not _names_the_site(t, site, host, offered)]

    def heading(t: str) -> str:
        return _first_if_longest(t, HEADING_PART_SEPARATORS)

    if shown and offered:
        # among h1s that agree alike (a page's mobile and desktop headers), the one a
        # declared title writes as shown, then the nearest (NOTES.md, 'Why the h1 a declared
        # title writes wins a tie, and a CJK title is cut without spaces')
        written = [" ".join(c.split()) for c in offered]
        score, _, _, best = max((max(agreement(t, c) for c in offered),
                                 any(" ".join(t.split()) in c for c in written), -d, t)
                                for t, d in shown)
        # a service page's h1 agreeing in part is its pitch (NOTES.md, 'Why a service
        # page's declared title names it')
        if score >= (1.0 if page_type in DECLARED_NAME_TYPES else TITLE_AGREEMENT):
            return as_typed(heading(without_prefix(strip_site(best, site, host), offered, site,
                                                   host)), offered, site, host)
    for c in declared:
        if c:
            title, site_first = _strip_site(c, site, host)
            # "Site - Slogan" below the site's root is the template's title, the same on
            # every page of a site that writes its titles in script ("Reddit - The heart of
            # the internet" on a thread): the h1 near the content names the page. On the
            # root it is the home page's own title.
            if site_first and shown and not root:
                return heading(strip_site(min(shown, key=lambda x: x[1])[0], site, host))
            return first_part(title)
    if entity:
        return first_part(strip_site(entity, site, host))
    return heading(strip_site(min(shown, key=lambda x: x[1])[0], site, host)) if shown else None


def title_candidates(declared: list[str | None], entity: str | None,
                     headlines: list[tuple[str, int]], site: str | None,
                     host: str | None) -> list[str]:
    """Every answer a choice of the title could take from `choose_title`'s inputs: each
    declared title, JSON-LD's entity headline and shown h1, whole, without a part naming
    the site, each of its parts (TITLE_SEPARATORS, PART_SEPARATORS, a CJK title's
    CJK_SEPARATOR) and its leading and trailing runs of parts at one separator ("A | B"
    of "A | B | Site"), and the site's name; in that order, once each. `pith bench --metadata`
    counts how often one is the label (`title_reach`: the ceiling of any choice among
    them), and `pith.measure.title_choice` learns a choice among them (NOTES.md, 'Why the
    title's choice stays a rule, not a learned one')."""
    out: dict[str, None] = {}
    texts = [_filled(c, site, host) for c in declared] + [entity] + [t for t, _ in headlines]
    for t in texts:
        if not t:
            continue
        runs = []
        for sep in dict.fromkeys(TITLE_SEPARATORS + PART_SEPARATORS):
            parts = t.split(sep)
            runs += [sep.join(parts[:i]) for i in range(2, len(parts))]
            runs += [sep.join(parts[i:]) for i in range(1, len(parts) - 1)]
        for form in (t, strip_site(t, site, host),
                     *title_parts(t, TITLE_SEPARATORS + PART_SEPARATORS), *runs,
                     *(CJK_SEPARATOR.split(t) if is_cjk(t) else ())):
            form = " ".join(form.split())
            if form:
                out.setdefault(form)
    if site:
        out.setdefault(" ".join(site.split()))
    return list(out)


def as_typed(h1: str, declared: list[str], site: str | None, host: str | None) -> str:
    """`h1` as the declared titles write it when it differs from them only by DISPLAY_MARKS
    and every declared title that holds it (whole, without its site, or its first part)
    writes it with straight quotes and no trademark sign: "Why Hasn’t Tutoring …" shown,
    "Why Hasn't Tutoring …" declared, is "Why Hasn't Tutoring …"."""
    if h1 == h1.translate(DISPLAY_MARKS):
        return h1
    plain = " ".join(h1.split()).translate(DISPLAY_MARKS)
    forms = []
    for c in declared:
        stripped = strip_site(c, site, host)
        for form in (c, stripped, first_part(stripped)):
            form = " ".join(form.split())
            if form.translate(DISPLAY_MARKS) == plain:
                forms.append(form)
                break
    return forms[0] if forms and all(f == plain for f in forms) else h1


# What a template leaves before the site's name when the page's own title is missing
# ("<title> | Nuts & Volts Magazine</title>").
EMPTY_LEAD = re.compile(r"^\s*[|\-–—·•:/»~]+\s+")          # "-5 degrees" keeps its sign


def _filled(title: str | None, site: str | None, host: str | None) -> str | None:
    """A declared title without the separator its template left in front of it; None
    when what is left only names the site (the page's own part was empty)."""
    if not title:
        return title
    m = EMPTY_LEAD.match(title)
    if not m:
        return title
    rest = title[m.end():]
    return None if not rest or _names_site(rest, site, host, trailing=True) else rest


def without_prefix(h1: str, declared: list[str], site: str | None, host: str | None) -> str:
    """`h1` without up to MAX_HEADLINE_PREFIX_WORDS leading words that end with a colon or
    are a date, when the rest is a declared title (without its site, or its first part):
    "Thread: How to X" under the title "How to X | Forum" is "How to X", in the h1's own
    characters."""
    words = h1.split()
    targets: set[str] | None = None
    for i in range(1, min(MAX_HEADLINE_PREFIX_WORDS, len(words) - 1) + 1):
        lead = " ".join(words[:i])
        if not (lead.endswith(":") or dates.find(lead)):
            continue
        if targets is None:           # the declared titles' forms, once a lead is found
            stripped = [strip_site(c, site, host) for c in declared]
            targets = {fold(t) for c in stripped for t in (c, first_part(c))}
            if fold(h1) in targets:
                return h1
        rest = " ".join(words[i:])
        if fold(rest) in targets:
            return rest
    return h1


# A book's or a manual's section number before a heading's words ("3.1 Git Branching -
# Branches in a Nutshell"): two numbers or more joined by dots, then a space (NOTES.md, 'Why
# an h1 a declared title is whole is no logo, and a heading's buttons and section numbers
# are left out').
SECTION_NUMBER = re.compile(r"^(\d+(?:\.\d+)+)\.?\s+(?=\S)")


def without_section_number(h1: str, declared: list[str]) -> str:
    """`h1` without a leading SECTION_NUMBER that no declared title holds: the page's
    title names the section, the number is the table of contents' ("5.1 Data Structures"
    declared so keeps it; "2024.4.4 -> 2024.5.0 issue" on a forum is declared whole)."""
    m = SECTION_NUMBER.match(h1)
    if not m or any(m[1] in c for c in declared):
        return h1
    return h1[m.end():]


def _title_text(title: str | None) -> str | None:
    """A declared title as a candidate: without INVISIBLE characters, None when empty."""
    if not title:
        return None
    return INVISIBLE.sub("", title) or None


def _instant(value: str) -> dt.datetime | None:
    """The moment a declared date with a time zone names, or None (a day, a local time)."""
    try:
        t = dt.datetime.fromisoformat(value)
    except ValueError:
        return None
    return t if t.tzinfo is not None else None


def shown_instead(published: str, declared: list[tuple[str | None, str | None]],
                  days: dict[str, bool], meta_published: bool = False,
                  dateline: Callable[[], str | None] | None = None) -> str:
    """The declared date the page shows, when it does not show its declared publish day:
    the first declared date (`declared`: each source's (published, modified)) whose day is
    shown, not as an update (`days`: shown_days's). A publish time shown on the day before
    or after is the same instant in the site's own zone ("2025-12-02T23:00Z" shown as "03
    Dec 2025" in Sydney): then a modified time shown on that day does not replace it; a
    second source's publish date still does. When none is shown but as an update
    ("Updated Dec 19, 2025"), a publish date so shown (not a day off the first: the same
    instant) still does, and so does a modified date so shown when only JSON-LD or
    microdata declares the publish date, and then the page's date line (`dateline()`,
    asked last) when that is a shown update no source declares ("Updated August 14,
    2025"): one a <meta> declares (`meta_published`: og's article:published_time and its
    kin) stands (NOTES.md, 'Why an unshown JSON-LD publish date yields to a shown update')."""
    if published[:10] in days:
        return published
    moment = _instant(published)
    near = set()
    if moment is not None:
        near = {(moment.date() + dt.timedelta(days=k)).isoformat() for k in (-1, 1)}
    for pub, mod in declared:
        if pub and days.get(pub[:10]) is False:
            return pub
        if mod and days.get(mod[:10]) is False and not (mod[:10] in near and _instant(mod) != moment):
            return mod
    for pub, mod in declared:
        if pub and days.get(pub[:10]) and pub[:10] not in near:
            return pub
        if not meta_published and mod and days.get(mod[:10]) \
                and not (mod[:10] in near and _instant(mod) != moment):
            return mod
    if not meta_published and dateline is not None:
        shown_day = dateline()
        if shown_day and days.get(shown_day[:10]) and shown_day[:10] not in near:
            return shown_day
    return published


def shown_alone(published: str, line: str, days: dict[str, bool]) -> str:
    """`line` (the page's date line) instead of the one day a page declares, when it is
    the one day shown near the top of those years (`days`: shown_days's), not as an
    update, and more than a day before the declared one (a day off is the same instant, or
    the same day written in another zone): a declared day after what the page shows is
    its import or build; a shown day after the declared one is something that happened
    since (a thread's closing notice, a reply), the publication stands (NOTES.md, 'Why a
    declared address dates a page, and a comment's date line does not')."""
    before = (dt.date.fromisoformat(published[:10]) - dt.date.fromisoformat(line[:10])).days
    return line if before > 1 and days == {line[:10]: False} else published


def local_day(published: str | None, url_day: str | None,
              declared: Collection[str] = ()) -> str | None:
    """The publish date, on the URL's day when the URL names the day before or after it: a
    time declared in UTC ("2025-12-19T02:41Z") of a post the site dates 18 December in its
    own time zone, as its URL and its readers do; a day only shown (a date line, which may
    be a comment's) likewise. A day the page declares without a time (`declared`: its
    parsed declared dates) is the site's own word for it and stays: a newspaper's URL may
    name the print edition's day after it (NOTES.md, 'Why a declared address dates a page,
    and a comment's date line does not')."""
    if not (published and url_day) or published[:10] == url_day \
            or (_instant(published) is None and published in declared):
        return published
    try:
        apart = abs((dt.date.fromisoformat(published[:10]) - dt.date.fromisoformat(url_day)).days)
    except ValueError:
        return published
    return url_day if apart == 1 else published


def address_day(line: str | None, url_day: str | None) -> str | None:
    """The day the page's address names (`url_day`: a permalink's /2012/07/19/) before the
    date it only shows (`line`, the date line), unless the line names that day (its time
    kept): an undeclared page's shown date may be a masthead's clock, a photo's or a
    quoted day, a related post's; the address is the post's own (NOTES.md, 'Why an
    address's day dates a page before a date it only shows')."""
    if url_day and not (line and line[:10] == url_day):
        return url_day
    return line


def declared_url_day(links: dict, meta: dict, ld: dict) -> str | None:
    """The day the address a page declares as its own names (its canonical link, og:url
    or twitter:url, JSON-LD's url, first found: the Metadata's `url` order): a permalink's
    /2012/10/29/ on a page saved, pasted or crawled without its address, or read at one
    that names no day (a short link, an AMP or print copy)."""
    for url in (links.get("url"), meta.get("url"), ld.get("url")):
        if isinstance(url, str) and url:
            return dates.from_url(url)
    return None


def unshown(snap, names: list[str]) -> bool:
    """Whether the page's text (every text and tail, window.page_text) writes none of
    `names`, nor the last word of any (a family name: "Jane  Doe" across a line break, "Dr.
    Jane Doe"). Plain searches, case kept (a case-folding regular expression over a page's
    text costs ten times one): a name the page writes in other letters ("JANE DOE") seems
    unshown, and its "By" line, which names it, keeps it (`by_line_instead`)."""
    text = window.page_text(snap)
    return not any(n in text or (n.split() and n.split()[-1] in text) for n in names)


# A name written whole: two to five words, the first and the last capitalised, no digit
# ("Aoife O'Riordan", "Ludwig van Beethoven", "Model Remodel"); a "By" line's one word is as
# often the declared person's user name ("P3RO" for "Pero Farmak") as someone else.
WHOLE_NAME = re.compile(r"^[^\W\d_a-z][^\s\d]*(?:\s+[^\s\d]+){0,3}\s+[^\W\d_a-z][^\s\d]*$")


def by_line_instead(declared: list[str], by_line: list[str] | None) -> list[str]:
    """The names of the page's "By" line (`by_line`: Shown's) instead of `declared`, the
    declared authors a page never shows, when the line's first name is written whole
    (WHOLE_NAME) and the line names someone else (no name of one holds a name of the
    other): a CMS's account that uploaded the post ("KatieS", an editor) declared where
    the byline shows its writer (NOTES.md, 'Why a declared author the page never shows
    yields to its "By" line')."""
    if not by_line or not WHOLE_NAME.match(by_line[0]):
        return declared
    folded = [fold(a) for a in declared]
    if any(fold(b) in a or a in fold(b) for b in by_line for a in folded):
        return declared
    return by_line


def compute(snap, gone: np.ndarray, node: int, title_inputs: list | None = None,
            page_type: str | None = None) -> Metadata:
    """The metadata of a validated snapshot, read around the chosen row `node` (`gone`:
    the features' code-or-hidden mask), on a page of type `page_type` (pagetype.classify's,
    None when unknown: the title's choice reads it). A `title_inputs` list is given what the
    title was chosen from, `choose_title`'s arguments (declared, entity, headlines, site,
    host, root, page type): the bench's reach and the learned choice's records read them;
    the host passes none."""
    declared = snap.meta.get("declared") or {}
    ld = jsonld.fields([*declared.get("ld", ()), *tags.ld_in_meta(declared.get("meta", ()))],
                       snap.meta.get("url") or "")
    meta = tags.meta_fields(declared.get("meta", ()))
    items = tags.item_fields(declared.get("items", ()), declared.get("scopes", ()),
                             lambda r: window.text_of(snap, r), snap.end,
                             lambda r: byline.name_in(snap, r))
    links = tags.link_fields(declared.get("links", ()))
    # a numeric date both of whose readings are days is read in the order the page's
    # other numeric dates show, else month first for lang en-US
    # (or, when the page's text does not say, the order that makes one of them a day the
    # page declares in a form read one way only)
    raw_dates = [v for src in (ld, meta, items) for k in ("published", "modified")
                 if isinstance(v := src.get(k), str)]
    us = dates.NumericOrder((snap.meta.get("lang") or "").lower().startswith("en-us"),
                            lambda: window.page_text(snap),
                            lambda: dates.unambiguous_days(raw_dates))
    seen = shown.Shown(snap, gone, node, us)     # read only for the fields nothing declares
    page_url = snap.meta.get("url") or ""
    host = host_site(page_url)
    sources = (ld, meta, items, links)

    def first(name):
        for src in sources:
            if src.get(name):
                return src[name]
        return None

    doc_title = snap.meta.get("title") or ""
    site = first("site")
    if not site:
        site = site_from_title(doc_title, seen.get("title"),
                               lambda: window.site_places_text(snap, gone))
    inputs = ([_title_text(meta.get("title")), _title_text(items.get("title")),
               _title_text(doc_title)], _title_text(ld.get("title")),
              [(v, d) for t, d in seen.get("headlines") if (v := INVISIBLE.sub("", t))],
              site, host, urllib.parse.urlsplit(page_url).path.strip("/") == "", page_type)
    title = choose_title(*inputs)
    if title_inputs is not None:
        title_inputs.append(inputs)
    # each source's declared (published, modified), parsed once: a date several sources
    # declare alike (JSON-LD's datePublished and OpenGraph's published_time) is parsed once
    parsed: dict[str, str | None] = {}

    def parse(value: Any) -> str | None:
        if not isinstance(value, str):
            return dates.parse(value, us)
        if value not in parsed:
            parsed[value] = dates.parse(value, us)
        return parsed[value]

    declared_dates = [(parse(src.get("published")), parse(src.get("modified"))) for src in sources]
    published = next((p for p, _ in declared_dates if p), None)
    modified = next((m for _, m in declared_dates if m), None)
    # the URL's day: the address the page was read at, else the one it declares as its own
    # (NOTES.md, 'Why a declared address dates a page, and a comment's date line does not')
    url_day = seen.get("url_date") or declared_url_day(links, meta, ld)
    # a page that declares no publish date is dated by its address's day before a date it
    # only shows (NOTES.md, 'Why an address's day dates a page before a date it only
    # shows'); one that declares only when it was modified, and shows no date, was first
    # published then as far as anyone can tell (WCXB labels it so)
    published = published or address_day(seen.get("published"), url_day) or modified
    # the page never shows its declared publish date but shows another date it declares
    # (its modified date, a second source's publish date), not as an update: readers, and
    # WCXB's labels, take the shown one (NOTES.md, 'Why the page's metadata is one computation, and its precedence')
    declared_days = [d for pair in declared_dates for d in pair if d]
    if published and any(d[:10] != published[:10] for d in declared_days):
        days = shown_days(snap, gone, node, {d[:4] for d in (published, *declared_days)},
                                 us)
        published = shown_instead(published, declared_dates, days,
                                  meta_published=bool(parse(meta.get("published"))),
                                  dateline=lambda: seen.get("published"))
    elif published and declared_days:
        # one declared day the page never shows, and the one date it shows near the top,
        # not as an update nor a day off the declared time (the same instant): a page
        # imported or rebuilt that day, dated by what it shows (NOTES.md, 'Why an unshown
        # JSON-LD publish date yields to a shown update')
        line = seen.get("published")
        if line and line[:10] != published[:10]:
            days = shown_days(snap, gone, node, {published[:4], line[:4]}, us)
            published = shown_alone(published, line, days)
    published = local_day(published, url_day if published else None, declared_days)
    # an author named like the site is the publisher: a shown byline may name the person,
    # else the site is the author (a shop's or a one-person blog's posts)
    declared_authors = [c for a in first("authors") or [] if (c := byline.clean_declared_author(a))]
    named = [a for a in declared_authors if a and not (site and fold(a) == fold(site))]
    if named and unshown(snap, named):
        # a declared author the page never shows yields to a "By" line naming another
        named = by_line_instead(named, seen.get("by_line"))
    authors = named or seen.get("authors") or [a for a in declared_authors if a] \
        or ld.get("org_authors") or []
    language = _language(snap.meta.get("lang")) or _language(first("language"))
    return Metadata(
        title=_cut(title, MAX_TITLE_CHARS),
        authors=_cut_list(authors, MAX_NAME_CHARS, MAX_AUTHORS),
        published=published,
        modified=modified,
        site=_cut(site or host, MAX_NAME_CHARS),
        description=_cut(first("description"), MAX_DESCRIPTION_CHARS),
        url=_cut(links.get("url") or meta.get("url") or ld.get("url") or page_url or None,
                 MAX_URL_CHARS),
        language=language,
        image=_cut(first("image"), MAX_URL_CHARS),
        categories=_cut_list(first("categories"), MAX_WORD_CHARS, MAX_WORDS),
        tags=_cut_list(first("tags"), MAX_WORD_CHARS, MAX_WORDS),
        license=_cut(first("license"), MAX_URL_CHARS),
    )


def of_selection(sel, node: int | None = None, title_inputs: list | None = None) -> Metadata:
    """The metadata of a pipeline Selection, read around `node` (default: its choice), of
    the selection's page type; `title_inputs` as `compute`'s."""
    return compute(sel.snap, sel.feats.gone, sel.node if node is None else node, title_inputs,
                   sel.page_type[0] if sel.page_type else None)
