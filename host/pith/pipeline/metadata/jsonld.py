"""schema.org JSON-LD of a page → candidate metadata fields, the main entity's first.

Every script's JSON is read (a few common breakages tolerated: control characters in
strings), its objects flattened (@graph, lists and nested values, at most MAX_NODES),
`@id` references resolved, and each object with a known @type ranked: the page's own
entity (Article and its kin, a forum post, a Q&A page's question, a product, a recipe,
...) before the WebPage that describes it, before the WebSite and the organisation that
publish it. Fields are read from the best-ranked object that has them.
"""
from __future__ import annotations

import html
import json
import re
import unicodedata
import urllib.parse
from typing import Any, Iterable

# Objects looked at per page: a catalogue page lists thousands of products; its own
# entity comes first.
MAX_NODES = 5000
# Keys whose objects are other things the page lists or quotes (a listing's items, the
# reviews and comments under a product or post, its answers): their authors and dates are
# not the page's.
SKIPPED_KEYS = frozenset(("itemListElement", "review", "reviews", "comment", "comments",
                          "hasPart", "suggestedAnswer", "acceptedAnswer", "relatedLink",
                          "mentions", "citation", "isRelatedTo", "isSimilarTo"))
# Ranks of @type (lower is better): the entity the page is about ...
ENTITY_TYPES = frozenset(t.lower() for t in (
    "Article", "NewsArticle", "BlogPosting", "Blog", "Report", "ScholarlyArticle",
    "TechArticle", "LiveBlogPosting", "AnalysisNewsArticle", "OpinionNewsArticle",
    "ReviewNewsArticle", "BackgroundNewsArticle", "ReportageNewsArticle", "SatiricalArticle",
    "AdvertiserContentArticle", "MedicalScholarlyArticle", "SocialMediaPosting",
    "DiscussionForumPosting", "Review", "Recipe", "HowTo", "Product",
    "ProductGroup", "Event", "Course", "JobPosting", "VideoObject", "Book", "Movie",
    "CreativeWork", "Guide", "Thesis", "PodcastEpisode", "Dataset", "SoftwareApplication",
    "Claim", "ClaimReview", "LearningResource", "Episode", "MusicRecording"))
# ... the page that shows it ...
PAGE_TYPES = frozenset(t.lower() for t in (
    "WebPage", "ItemPage", "AboutPage", "FAQPage", "QAPage", "ProfilePage", "ContactPage",
    "CollectionPage", "SearchResultsPage", "CheckoutPage", "MedicalWebPage", "RealEstateListing"))
# ... and who publishes it.
SITE_TYPES = frozenset(("website",))
PUBLISHER_TYPES = frozenset(t.lower() for t in (
    "Organization", "NewsMediaOrganization", "Corporation", "LocalBusiness",
    "EducationalOrganization", "OnlineBusiness", "Store"))
RANK_ENTITY, RANK_PAGE, RANK_OTHER = 0, 1, 2
# Entities an article embeds (a news story's video, declared before or after it): among
# the page's entities they come after the others, so a page declaring an Article and a
# VideoObject is the article's, its date the article's
# (NOTES.md, 'Why a page's date is its article's, not its video's or its masthead's').
EMBEDDED_TYPES = frozenset(("videoobject",))
NAME_TYPES = frozenset(("person", "organization", "newsmediaorganization", "corporation"))


# What pages wrap their JSON in, for old parsers: an HTML comment, a CDATA section, either
# behind a JavaScript comment ("//<![CDATA[ … //]]>").
WRAPPER_START = re.compile(r"^(?:/[/*]\s*)?(?:<!--|<!\[CDATA\[)\s*(?:\*/)?")
WRAPPER_END = re.compile(r"(?:/[/*]\s*)?(?:-->|\]\]>)\s*(?:\*/)?\s*$")
# What a text that WRAPPER_END matches ends with, whitespace aside: the pattern opens with
# no fixed character, so the engine tries it at every place of a script (tens of
# kilobytes on some pages); a script ending otherwise is not searched.
WRAPPER_END_TAILS = (">", "*/")


# The one decoder of every script (json.loads with a keyword builds a decoder a call).
_DECODER = json.JSONDecoder(strict=False)


def parse(texts: Iterable[str]) -> list[Any]:
    """The JSON values of the scripts that parse (strict=False: raw newlines and tabs
    inside strings, which pages write and browsers' JSON.parse refuses)."""
    out = []
    for text in texts:
        text = text.strip()
        wrapped = WRAPPER_START.match(text)     # anchored: a search would try every place
        if wrapped:
            text = text[wrapped.end():]
        if text.rstrip().endswith(WRAPPER_END_TAILS):
            text = WRAPPER_END.sub("", text, count=1)
        try:
            out.append(_DECODER.decode(text))
        except ValueError:
            continue
    return out


def types_of(obj: dict) -> set[str]:
    """Lower-case @type names of an object (a prefix like "schema:" dropped)."""
    t = obj.get("@type")
    names = t if isinstance(t, list) else [t]
    return {n.rsplit("/", 1)[-1].rsplit(":", 1)[-1].lower() for n in names if isinstance(n, str)}


def objects(values: list[Any]) -> list[dict]:
    """Every object inside `values`, in document order (breadth first per script), at
    most MAX_NODES."""
    out: list[dict] = []
    todo = list(reversed(values))
    while todo and len(out) < MAX_NODES:
        v = todo.pop()
        if isinstance(v, list):
            todo.extend(reversed(v))
        elif isinstance(v, dict):
            out.append(v)
            todo.extend(reversed([x for k, x in v.items()
                                  if isinstance(x, (list, dict)) and k not in SKIPPED_KEYS]))
    return out


def rank(obj: dict, ts: set[str] | None = None) -> int:
    """RANK_ENTITY, RANK_PAGE or RANK_OTHER by the object's @types (`ts`: types_of(obj)
    when already read)."""
    ts = types_of(obj) if ts is None else ts
    if ts & ENTITY_TYPES:
        return RANK_ENTITY
    if ts & PAGE_TYPES:
        return RANK_PAGE
    return RANK_OTHER


def _text(v: Any) -> str | None:
    if isinstance(v, str) and v.strip():
        return " ".join((html.unescape(v) if "&" in v else v).split())
    if isinstance(v, (int, float)) and not isinstance(v, bool):
        return str(v)
    return None


def _deref(v: Any, ids: dict[str, dict]) -> Any:
    if isinstance(v, dict) and "@id" in v and len(v) <= 2 and isinstance(v["@id"], str):
        return ids.get(v["@id"], v)
    return v


def _names(v: Any, ids: dict[str, dict], orgs: bool | None = None) -> list[str]:
    """Names of a person/organisation value: a string, an object's `name` (or given +
    family name), a list of either; `orgs` True: only organisations' names, False: all
    but organisations', None: all."""
    out = []
    for item in v if isinstance(v, list) else [v]:
        item = _deref(item, ids)
        if orgs is not None and (isinstance(item, dict) and bool(types_of(item) & PUBLISHER_TYPES)) != orgs:
            continue
        if isinstance(item, dict):
            name = _text(item.get("name"))
            if name is None:
                parts = [_text(item.get(k)) for k in ("givenName", "familyName")]
                name = " ".join(p for p in parts if p) or None
            if name:
                out.append(name)
        else:
            name = _text(item)
            if name:
                out.append(name)
    return out


def _url(v: Any, ids: dict[str, dict]) -> str | None:
    for item in v if isinstance(v, list) else [v]:
        item = _deref(item, ids)
        if isinstance(item, dict):
            item = item.get("url") or item.get("contentUrl") or item.get("@id")
        u = _text(item)
        if u:
            return u
    return None


def _words(v: Any) -> list[str]:
    """Keywords and sections: a list of strings, or one comma-separated string."""
    out = []
    for item in v if isinstance(v, list) else [v]:
        t = _text(item)
        if t:
            out.extend(p.strip() for p in t.split(",") if p.strip())
    return out


# Entities whose own url is compared with the page's (`elsewhere`), in document order: the
# page's entity is among a page's first few; a catalogue's thousands cost nothing more.
MAX_URL_CHECKS = 20


def _site_path(url: str) -> tuple[str, str]:
    """The host without "www." and the path without its trailing slash, its percent escapes
    decoded and its letters composed (Unicode NFC): a page's address and its JSON-LD's may
    write one path two ways ("/news/1/درآمد" and "/news/1/%D8%AF%D8%B1%D8%A7%D9%93…", the
    alef and its madda apart; NOTES.md, 'Why the page's metadata is one computation, and
    its precedence')."""
    parts = urllib.parse.urlsplit(url)
    path = unicodedata.normalize("NFC", urllib.parse.unquote(parts.path))
    return (parts.hostname or "").removeprefix("www."), path.rstrip("/")


def elsewhere(obj: dict, page_url: str) -> bool:
    """Whether an object's own `url` names another page of the site than `page_url` (a
    path apart, trailing slash, query and "www." aside): a video embedded in a thread's
    ninth post ("…/105724/9" on "…/105724")."""
    u = obj.get("url")
    if not (isinstance(u, str) and u.strip() and page_url):
        return False
    host, path = _site_path(page_url)
    there_host, there_path = _site_path(urllib.parse.urljoin(page_url, u.strip()))
    return there_host == host and there_path != path


def fields(texts: Iterable[str], page_url: str = "") -> dict[str, Any]:
    """Candidate fields of the page's JSON-LD: title, authors, published, modified, site,
    description, image, url, language, categories, tags, license, types (the ranked
    entity's @types, for the page type). Absent keys: not declared. An entity whose own
    url names another page of the site (`elsewhere`) ranks with the other objects."""
    objs = objects(parse(texts))
    ids = {o["@id"]: o for o in objs if isinstance(o.get("@id"), str) and len(o) > 2}
    kinds = {id(o): ts for o in objs if "@type" in o and (ts := types_of(o))}   # read once
    typed = [o for o in objs if id(o) in kinds]
    # a QAPage's question, an ItemPage's product: the page's mainEntity is its entity
    ranks = {id(o): rank(o, kinds[id(o)]) for o in typed}
    if page_url:
        for o in [o for o in typed if ranks[id(o)] == RANK_ENTITY and "url" in o][:MAX_URL_CHECKS]:
            if elsewhere(o, page_url):
                ranks[id(o)] = RANK_OTHER
    # stable: document order per rank, an embedded entity after the others
    ranked = sorted(typed, key=lambda o: (ranks[id(o)], bool(kinds[id(o)] & EMBEDDED_TYPES)))
    out: dict[str, Any] = {}

    def first(keys, read, pool=ranked):
        for o in pool:
            for k in keys:
                if k in o:
                    v = read(o[k])
                    if v:
                        return v
        return None

    # a QAPage's question is its entity (an FAQPage's questions are not)
    questions = [o["mainEntity"] for o in typed if "qapage" in kinds[id(o)]
                 and isinstance(o.get("mainEntity"), dict)]
    ranked = questions + ranked
    asked = {id(q) for q in questions}
    main = [o for o in ranked if id(o) in asked or ranks.get(id(o), RANK_OTHER) <= RANK_PAGE]
    entity = [o for o in ranked if id(o) in asked or ranks.get(id(o), RANK_OTHER) == RANK_ENTITY]
    put = out.__setitem__
    v = first(("headline", "name"), _text, entity) or first(("headline", "name"), _text, main)
    if v:
        put("title", v)
    v = first(("author", "creator"), lambda x: _names(x, ids, False), main)
    if v:
        put("authors", v)
    v = first(("author", "creator"), lambda x: _names(x, ids, True), main)
    if v:
        put("org_authors", v)
    v = first(("datePublished", "dateCreated", "uploadDate", "startDate"), _text, main)
    if v:
        put("published", v)
    v = first(("dateModified",), _text, main)
    if v:
        put("modified", v)
    sites = [o for o in typed if kinds[id(o)] & SITE_TYPES]
    v = first(("name",), _text, sites) or first(("publisher",), lambda x: (_names(x, ids) or [None])[0], main)
    if v:
        put("site", v)
    v = first(("description",), _text, main)
    if v:
        put("description", v)
    v = first(("image", "thumbnailUrl"), lambda x: _url(x, ids), main)
    if v:
        put("image", v)
    v = first(("mainEntityOfPage", "url"), lambda x: _url(x, ids), entity)
    if v:
        put("url", v)
    v = first(("inLanguage",), lambda x: _text(x) or (_text(x.get("name")) if isinstance(x, dict) else None), main)
    if v:
        put("language", v)
    v = first(("articleSection",), _words, main)
    if v:
        put("categories", v)
    v = first(("keywords",), _words, main)
    if v:
        put("tags", v)
    v = first(("license",), lambda x: _url(x, ids), main)
    if v:
        put("license", v)
    if ranked:
        put("types", sorted(kinds.get(id(ranked[0])) or types_of(ranked[0])))
    return out
