"""<meta> names, microdata and <link rel> of a page → candidate metadata fields.

OpenGraph (og:, article:), Twitter cards, Dublin Core (dc., dcterms.), Highwire/Google
Scholar (citation_), Parse.ly, Sailthru and the plain HTML names (author, description,
keywords); microdata `itemprop`s (headline, author, datePublished, ...); link relations
(canonical, author, license, tag). Each field lists its keys best first; the first key
the page gives wins, and a list field (authors, tags) takes every value of that key.
"""
from __future__ import annotations

import html
import re
from typing import Any, Callable

import numpy as np

# field -> <meta> keys (property/name/http-equiv, lower-case), best first
META_KEYS: dict[str, tuple[str, ...]] = {
    "title": ("og:title", "twitter:title", "citation_title", "dc.title", "dcterms.title",
              "parsely-title", "sailthru.title", "title"),
    "authors": ("author", "article:author", "citation_author", "dc.creator", "dcterms.creator",
                "parsely-author", "sailthru.author", "byl", "book:author", "dc.creator.personalname",
                "article:author_name", "author_name", "twitter:data(author)"),
    "published": ("article:published_time", "og:article:published_time", "published_time",
                  "citation_publication_date", "citation_date", "citation_online_date",
                  "dc.date.issued", "dcterms.issued", "dc.date", "dcterms.date", "dcterms.created",
                  "dc.date.created", "parsely-pub-date", "sailthru.date", "pubdate", "publishdate",
                  "publish-date", "publish_date", "date", "article.published", "og:published_time",
                  "datepublished", "article:published", "release_date", "published-date",
                  "published", "ms.date",
                  # names more than one site's CMS writes, after the common ones (NOTES.md,
                  # 'Why dates are read in the forms many sites write them')
                  "og:publish_date", "article:published_date", "published_at", "article_date",
                  "article_date_original", "originalpublicationdate", "cxenseparse:publishtime",
                  "vr:published_time", "http://ogp.me/ns/article#published_time", "dc.created",
                  "datecreated", "creation_date", "pdate"),
    "modified": ("article:modified_time", "og:updated_time", "dcterms.modified",
                 "dc.date.modified", "last-modified", "article:modified", "datemodified",
                 "updated", "http://ogp.me/ns/article#modified_time", "dc.modified",
                 "article_date_updated", "last-updated", "dateupdate", "utime"),
    "site": ("og:site_name", "application-name", "apple-mobile-web-app-title",
             "dc.publisher", "dcterms.publisher", "publisher", "citation_publisher",
             "citation_journal_title"),
    "description": ("og:description", "description", "twitter:description", "dc.description",
                    "dcterms.description", "dcterms.abstract"),
    "image": ("og:image", "og:image:url", "og:image:secure_url", "twitter:image",
              "twitter:image:src", "parsely-image-url"),
    "url": ("og:url", "twitter:url", "parsely-link"),
    "language": ("content-language", "dc.language", "dcterms.language", "language", "og:locale"),
    "categories": ("article:section", "parsely-section", "category", "dc.subject", "section"),
    "tags": ("article:tag", "news_keywords", "keywords", "parsely-tags", "sailthru.tags",
             "dcterms.subject", "citation_keywords"),
    "license": ("dcterms.license", "dc.rights", "dcterms.rights", "license"),
    "type": ("og:type",),
}
# twitter:labelN / twitter:dataN pairs (Slack's link unfurls; Yoast writes "Written by" and
# the author's name): the pairs read, the label that names an author, and the key its
# data is filed under in META_KEYS.
TWITTER_PAIRS = 4
AUTHOR_LABEL = re.compile(r"^\s*(?:written\s+by|author|by)\b", re.I)
TWITTER_AUTHOR = "twitter:data(author)"
LIST_FIELDS = frozenset(("authors", "categories", "tags"))
# Author keys whose values are written "Last, First" (Highwire/Google Scholar, Dublin Core).
INVERTED_NAME_KEYS = frozenset(("citation_author", "dc.creator", "dcterms.creator"))
# List fields whose single values are comma-separated lists ("a, b, c").
COMMA_KEYS = frozenset(("keywords", "news_keywords", "parsely-tags", "sailthru.tags",
                        "article:tag", "dc.subject", "dcterms.subject", "citation_keywords"))
# microdata itemprop -> field (the first found in document order wins)
ITEM_PROPS: dict[str, str] = {
    "headline": "title", "author": "authors", "creator": "authors",
    "datePublished": "published", "dateCreated": "published", "uploadDate": "published",
    "dateModified": "modified", "description": "description", "image": "image",
    "keywords": "tags", "articleSection": "categories", "inLanguage": "language",
    "license": "license",
}
# <meta> keys whose content is a JSON-LD text: Remix's meta descriptor "script:ld+json",
# which some of its renderers write as a <meta> instead of a <script> (the page's only
# Article then sits in an attribute).
LD_META_KEYS = frozenset(("script:ld+json",))
# An item whose text (no content attribute) is longer than this is a section, not a value.
MAX_ITEM_TEXT_ROWS = 60
# An author scope without a `name` item is read as its name when it is this small (the
# name in the scope's own text, or a span or two): a larger one is a card of photo, bio
# and links, whose text is no name.
MAX_SCOPE_NAME_ROWS = 2
# Microdata types whose items are a reply or a rating under the page's entity (Stack
# Exchange's every Answer, a shop's Review, a Comment): their authors are not the page's.
UNDER_ENTITY_TYPES = re.compile(r"(?:^|[/#\s])(?:Answer|Comment|Review|UserComments)$")
AUTHOR_PROPS = frozenset(p for p, f in ITEM_PROPS.items() if f == "authors")
# link relation -> field
REL_FIELDS = {"canonical": "url", "license": "license", "image_src": "image"}
_HANDLE = re.compile(r"^@\w+$")


def meta_fields(meta: list[list]) -> dict[str, Any]:
    """Candidate fields of the <meta> entries [row, key, content]."""
    by_key: dict[str, list[str]] = {}
    for _row, key, content in meta:
        content = " ".join((html.unescape(content) if "&" in content else content).split())
        if content:
            by_key.setdefault(key, []).append(content)
    for i in range(1, TWITTER_PAIRS + 1):           # Slack's unfurl pairs: "Written by" | name
        label = by_key.get(f"twitter:label{i}")
        if label and AUTHOR_LABEL.match(label[0]) and by_key.get(f"twitter:data{i}"):
            by_key.setdefault(TWITTER_AUTHOR, []).extend(by_key[f"twitter:data{i}"])
    out: dict[str, Any] = {}
    for name, keys in META_KEYS.items():
        for key in keys:
            values = by_key.get(key)
            if not values:
                continue
            if name in LIST_FIELDS:
                items = []
                for v in values:
                    items.extend(p.strip() for p in v.split(",")) if key in COMMA_KEYS \
                        else items.append(v)
                if key in INVERTED_NAME_KEYS:
                    items = [_uninvert(v) for v in items]
                items = [v for v in items if v and not (name == "authors" and _bad_author(v))]
                if items:
                    out[name] = list(dict.fromkeys(items))
                    break
            else:
                out[name] = values[0]
                break
    return out


def ld_in_meta(meta: list[list]) -> list[str]:
    """The JSON-LD texts the <meta> entries [row, key, content] carry (LD_META_KEYS)."""
    return [content for _row, key, content in meta if key in LD_META_KEYS]


def _uninvert(v: str) -> str:
    """"Roy, Aniruddha" → "Aniruddha Roy" (library catalogues' order)."""
    last, sep, first = v.partition(",")
    if sep and first.strip() and "," not in first and len(last.split()) <= 3:
        return f"{first.strip()} {last.strip()}"
    return v


def _bad_author(v: str) -> bool:
    """An author value that names no one: a profile URL (article:author often is), a
    Twitter handle."""
    return v.startswith(("http://", "https://", "//")) or bool(_HANDLE.match(v))


def item_fields(items: list[list], scopes: list[list], text_of: Callable[[int], str],
                end: np.ndarray, name_of: Callable[[int], str] | None = None) -> dict[str, Any]:
    """Candidate fields of microdata items [row, prop, value]: a value-less item reads its
    row's text (`text_of`; an author's with `name_of` when given: the name up to its
    element's boundary, "By <a>Jo Lee</a><br>Senior reporter" is "Jo Lee"); an author
    item that is itself a scope (a Person) reads its `name` item inside."""
    name_of = name_of or text_of
    scope_rows = {row for row, _t in scopes}
    out: dict[str, Any] = {}
    names_inside = [(row, v) for row, prop, v in items if "name" in prop.split()]
    # the authors of the answers, comments and reviews under the page's entity are not its
    # own (as the JSON-LD's are not: jsonld.py) when another author item names the
    # entity's; a thread whose every post is a Comment (XenForo's, its first included)
    # keeps them all (NOTES.md, 'Why a byline is no menu item, and other bylines left out')
    under = np.array([row for row, t in scopes if UNDER_ENTITY_TYPES.search(t or "")], np.int64)
    replies: list = []
    if len(under):
        under_end = end[under]
        is_reply = [bool(((under < row) & (row < under_end)).any())
                    if AUTHOR_PROPS.intersection(prop.split()) else False for row, prop, _v in items]
        replies = [it for it, r in zip(items, is_reply) if r]
        items = [it for it, r in zip(items, is_reply) if not r]
    _read(items, out, scope_rows, names_inside, text_of, name_of, end)
    if replies and not out.get("authors"):
        _read(replies, out, scope_rows, names_inside, text_of, name_of, end)
    return out


def _read(items, out: dict[str, Any], scope_rows: set, names_inside: list, text_of, name_of,
          end: np.ndarray) -> None:
    """`item_fields`'s reading of `items` into `out`."""
    for row, prop, value in items:
        for p in prop.split():
            name = ITEM_PROPS.get(p)
            if name is None or (name in out and name not in LIST_FIELDS):
                continue
            if name == "authors" and row in scope_rows:
                inner = [(r, v) for r, v in names_inside if row < r < end[row]]
                if inner:
                    r, v = inner[0]
                    value = v if v is not None else _short_text(r, name_of, end)
                else:              # a Person written as its name alone ("The Diggs Team")
                    value = _short_text(row, name_of, end, MAX_SCOPE_NAME_ROWS)
            elif value is None:
                value = _short_text(row, name_of if name == "authors" else text_of, end)
            if not value:
                continue
            value = " ".join(value.split())
            if name in LIST_FIELDS:
                if name == "authors" and _bad_author(value):
                    continue
                vals = [v.strip() for v in value.split(",")] if name == "tags" else [value]
                got = out.setdefault(name, [])
                got.extend(v for v in vals if v and v not in got)
            else:
                out[name] = value


def _short_text(row: int, text_of: Callable[[int], str], end: np.ndarray,
                limit: int = MAX_ITEM_TEXT_ROWS) -> str | None:
    if end[row] - row > limit:
        return None
    return text_of(row)


def link_fields(links: list[list]) -> dict[str, Any]:
    """Candidate fields of the link entries [row, rel, href]: canonical, license,
    image_src; rel=author links are the shown byline's business (shown.py), rel=tag
    links' text too."""
    out: dict[str, Any] = {}
    for _row, rel, href in links:
        for word in rel.split():
            name = REL_FIELDS.get(word)
            if name is not None and name not in out and href:
                out[name] = href
    return out
