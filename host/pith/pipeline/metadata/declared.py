"""The snapshot's `declared` object (host/SNAPSHOT.md): what a page declares about itself, as rows and strings.

Both captures build the same object: capture.js in the browser, `from_static` here for
the static snapshot. `checked` takes one that came from outside (extension, protocol)
and keeps its well-formed entries within the limits below, as the snapshot's other page
fields are taken (a malformed field is replaced by its default, never refused: a page's
metadata is a nicety, its content is the point).

  meta    [row, key, content]   <meta> with `content` and a `property`, `name` or
                                `http-equiv` (one entry per attribute present; key
                                lower-cased, trimmed)
  items   [row, prop, value]    every element with `itemprop` (microdata): value is its
                                `content`, else `datetime`, else the resolved `href`/`src`
                                of a, link, area, img, audio, video, source, else null
                                (the host reads the row's text)
  scopes  [row, itemtype]       every element with `itemscope`
  links   [row, rel, href]      link, a, area with an `href` and a `rel` naming one of
                                REL_KEPT (rel lower-cased, whitespace collapsed; href
                                resolved)
  times   [row, datetime]       every <time> with a `datetime`, and every time element of
                                a web component (is_time_element: `<relative-time
                                datetime>`, `<faceplate-timeago ts>`)
  ld      [text, ...]           the text of every <script type="application/ld+json">

Only the top document's elements count (a frame's metadata is another page's).
"""
from __future__ import annotations

import re
from typing import Any, Callable

# Attributes the static capture reads for this object (static._READ_ATTRIBUTES adds them).
ATTRIBUTES = ("name", "property", "content", "http-equiv", "itemprop", "itemscope",
              "itemtype", "datetime", "ts", "rel", "type")
# Entries kept per list: a page with more <meta> or microdata than this is a catalogue of
# products or a tag cloud, and the first ones (the head's) are the page's own.
MAX_ENTRIES = 1000
# Characters kept of a value: a description or a keywords list longer than this is
# pasted text, not metadata; the reply's strings are capped again, lower (merge.py).
MAX_VALUE_CHARS = 2000
# JSON-LD scripts read, and the longest one read (longer ones are left out whole: a cut
# JSON text does not parse). Product catalogues embed a few hundred kB.
MAX_LD_SCRIPTS = 32
MAX_LD_CHARS = 500_000
MAX_URL_CHARS = 2048            # as the url column: data: URIs run to megabytes
LD_TYPE = "application/ld+json"
ITEM_URL_TAGS = frozenset({"a", "link", "area", "img", "audio", "video", "source", "embed",
                           "iframe"})
LINK_TAGS = frozenset({"link", "a", "area"})
# The link relations metadata reads (stylesheets, preloads and feeds say nothing of it).
REL_KEPT = frozenset({"canonical", "author", "license", "tag", "category", "image_src"})
META_KEYS = ("property", "name", "http-equiv")
# A web component's time element: a custom element (its name holds a hyphen) whose name
# ends by naming a time or a date (not a "date-picker", an input), which shows a moment ("3 hr. ago", "Nov 9") and carries it as `<time>`
# does: GitHub's and Microsoft Learn's `<relative-time datetime>`, `<local-time datetime>`,
# Reddit's `<faceplate-timeago ts>` (NOTES.md, 'Why a web component's time element dates a
# page as a <time> does').
TIME_ELEMENT = re.compile(r"(?:^|-)(?:time|timeago|time-ago|date)$")
# Its attributes that hold the moment, first found wins.
TIME_ATTRIBUTES = ("datetime", "ts")
LISTS = ("meta", "items", "scopes", "links", "times")


def empty() -> dict[str, list]:
    return {"meta": [], "items": [], "scopes": [], "links": [], "times": [], "ld": []}


# JavaScript strings may hold lone UTF-16 surrogates, which no UTF-8 output can carry
# (snapshot.LONE_SURROGATE: the columns get the same treatment).
LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def _cut(s: str) -> str:
    return LONE_SURROGATE.sub("\ufffd", s[:MAX_VALUE_CHARS])


def from_static(tag: list[str], text: list[str], found: dict[str, dict[int, str]],
                base: str, resolve: Callable[[str, str], tuple[str, str]]) -> dict[str, list]:
    """The `declared` object of a static capture: `tag` and `text` are its columns
    (script text still in), `found` its attributes {name: {row: value}}, `base` the
    document's base URL, `resolve(base, raw)` → (url, host) as the url column resolves."""
    out = empty()
    content = found["content"]
    for row in sorted(content):
        if tag[row] != "meta":
            continue
        for key in META_KEYS:
            name = found[key].get(row)
            if name is not None and name.strip():
                out["meta"].append([row, name.strip().lower(), _cut(content[row])])
    for row in sorted(found["itemprop"]):
        prop = found["itemprop"][row].strip()
        if not prop:
            continue
        value = content.get(row)
        if value is None:
            value = found["datetime"].get(row)
        if value is None and tag[row] in ITEM_URL_TAGS:
            raw = found["href"].get(row) if tag[row] in LINK_TAGS else found["src"].get(row)
            value = resolve(base, raw)[0] if raw is not None else None
        out["items"].append([row, prop, None if value is None else _cut(value)])
    for row in sorted(found["itemscope"]):
        out["scopes"].append([row, _cut(found["itemtype"].get(row, "").strip())])
    for row in sorted(found["rel"]):
        href = found["href"].get(row)
        if tag[row] in LINK_TAGS and href is not None:
            words = found["rel"][row].lower().split()
            if REL_KEPT.isdisjoint(words):
                continue
            rel = " ".join(words)
            out["links"].append([row, rel, resolve(base, href)[0][:MAX_URL_CHARS]])
    moments = {row: value for name in reversed(TIME_ATTRIBUTES) for row, value in found[name].items()}
    for row in sorted(moments):
        if is_time_element(tag[row], row in found["datetime"]):
            out["times"].append([row, _cut(moments[row])])
    for row in sorted(found["type"]):
        if tag[row] == "script" and found["type"][row].strip().lower() == LD_TYPE:
            if len(text[row]) <= MAX_LD_CHARS and len(out["ld"]) < MAX_LD_SCRIPTS:
                out["ld"].append(text[row])
    for name in LISTS:
        del out[name][MAX_ENTRIES:]
    return out


def is_time_element(tag: str, has_datetime: bool = True) -> bool:
    """Whether an element named `tag` holding a moment in one of TIME_ATTRIBUTES is one the
    date line reads: a `<time>` with a `datetime` (`has_datetime`), or a TIME_ELEMENT."""
    return (tag == "time" and has_datetime) or ("-" in tag and TIME_ELEMENT.search(tag) is not None)


def _row_ok(row: Any, n: int) -> bool:
    return isinstance(row, int) and not isinstance(row, bool) and 0 <= row < n


def checked(obj: Any, n: int) -> dict[str, list]:
    """`declared` of a capture from outside: its well-formed entries (rows of this
    snapshot, strings where strings belong; a value may be null only in `items`), the
    first MAX_ENTRIES of each list, strings cut to MAX_VALUE_CHARS, JSON-LD texts over
    MAX_LD_CHARS left out. Anything else (absent, not an object) is the empty object."""
    out = empty()
    if not isinstance(obj, dict):
        return out
    for name in LISTS:
        entries = obj.get(name)
        if not isinstance(entries, list):
            continue
        width = 2 if name in ("scopes", "times") else 3
        kept = out[name]
        for e in entries:
            if len(kept) >= MAX_ENTRIES:
                break
            if not (isinstance(e, list) and len(e) == width and _row_ok(e[0], n)):
                continue
            strings = e[1:]
            if name == "items" and strings[1] is None:
                strings = strings[:1]
            if not all(isinstance(s, str) for s in strings):
                continue
            kept.append([e[0], *(_cut(s) for s in e[1:width - 1]),
                         None if e[-1] is None else _cut(e[-1])])
    ld = obj.get("ld")
    if isinstance(ld, list):
        out["ld"] = [LONE_SURROGATE.sub("\ufffd", s) for s in ld
                     if isinstance(s, str) and len(s) <= MAX_LD_CHARS][:MAX_LD_SCRIPTS]
    return out
