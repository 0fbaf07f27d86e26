"""`pith bench --metadata`: how often the page's metadata (pith.pipeline.metadata) matches the labelled title, author and date, beside trafilatura's and htmldate's on the same pages.

Static snapshots (no rendering): every page is decoded, captured statically and selected
as `pith extract --static` does, then its metadata computed. Scores, per dataset:
  title    exact match after whitespace and case folding (every page with a title label)
  author   any labelled author matched by any found one, same folding (pages with an
           author label: wcxb's `author`, readability's `byline`; a label of several
           names, "A, B and C", is split)
  date     the same day as the labelled publish date (wcxb's `publish_date`,
           readability's `publishedTime`)
  title_quotes  the title again with typographic quotes and dashes folded to ASCII on both
           sides (’ ‘ “ ” – — as ' " -): a second figure that says how many misses are
           typography only (labels often type straight quotes where the page sets curly
           ones); the issue's measure is `title`, and the answer is never rewritten
  title_reach  how often one of the title's candidates (merge.title_candidates: each
           declared title and shown h1, whole, without its site and each of its parts, and
           the site's name) is the label, same folding as `title`: the ceiling of any
           choice among them, ours only
  site     readability's `siteName`, exact after folding
  type     the page type (pith.pipeline.pagetype) equal to the index's `page_type`
           (wcxb's seven, magic_html's article and forum), ours only; the confusion
           matrix is printed under the table (rows: the label, columns: ours)
ms: the median time of computing the metadata once the page is selected (what the host's
reply gains), and of the select itself, on this (noisy, shared) machine.
"""
from __future__ import annotations

import json
import re
import statistics
import sys
import time
from argparse import Namespace
from collections import Counter
from pathlib import Path

from ..errors import NoContent, PithError
from ..pipeline.metadata import merge
from ..pages import static
from ..pipeline import features
from ..pipeline.options import Options
from ..pipeline.select import select
from .datasets import all_datasets, load_split

# label keys per field, first present wins
LABELS = {"title": ("title",), "author": ("author", "byline"),
          "date": ("publish_date", "publishedTime"), "site": ("siteName",),
          "title_quotes": ("title",), "title_reach": ("title",)}
FIELDS = ("title", "title_quotes", "title_reach", "author", "date", "site")
# Fields only Pith's answer carries (trafilatura has no candidates to reach).
PITH_ONLY = ("title_reach",)
# Typographic quotes and dashes, and their ASCII forms (the `title_quotes` figure).
QUOTES = str.maketrans({"’": "'", "‘": "'", "“": '"', "”": '"', "–": "-", "—": "-"})
_SPLIT_NAMES = re.compile(r"\s*(?:,|;|&|\band\b|\bund\b)\s*", re.I)
_BY = re.compile(r"^by\s+", re.I)


def fold(s: str | None) -> str:
    return " ".join((s or "").split()).casefold()


def names(s: str | None) -> set[str]:
    """The folded names of an author label or answer ("A, B and C" → {a, b, c}; the
    whole string too)."""
    if not s:
        return set()
    s = _BY.sub("", " ".join(s.split()))
    out = {fold(p) for p in _SPLIT_NAMES.split(s) if p.strip()}
    out.add(fold(s))
    return {n for n in out if n}


def label(entry: dict, name: str) -> str | None:
    for key in LABELS[name]:
        v = entry.get(key)
        if isinstance(v, str) and v.strip():
            return v.strip()
    return None


def hit(name: str, want: str, got: dict) -> bool:
    if name == "title":
        return fold(got.get("title")) == fold(want)
    if name == "title_reach":
        return fold(want) in {fold(c) for c in got.get("title_candidates") or ()}
    if name == "title_quotes":
        return fold(got.get("title")).translate(QUOTES) == fold(want).translate(QUOTES)
    if name == "author":
        return bool(names(want) & set().union(*(names(a) for a in got.get("authors") or [""])))
    if name == "date":
        return (got.get("date") or "")[:10] == want[:10]
    return fold(got.get("site")) == fold(want)


def ours(html: str, url: str) -> tuple[dict, float, float]:
    t0 = time.perf_counter()
    snap = static.snapshot_of_html(html, url, Options().max_nodes)
    page_type = None
    inputs: list = []
    try:
        sel = select(snap, Options())
    except NoContent:            # no text to choose, yet the page declares its metadata
        t1 = time.perf_counter()
        m = merge.compute(snap, features.compute(snap).gone, 0, inputs)
    else:
        t1 = time.perf_counter()
        m = merge.of_selection(sel, title_inputs=inputs)
        page_type = sel.page_type_wire()[0]
    t2 = time.perf_counter()
    return ({"title": m.title, "authors": m.authors, "date": m.published, "site": m.site,
             "page_type": page_type,
             "title_candidates": merge.title_candidates(*inputs[0][:5]) if inputs else [],
             "title_inputs": inputs[0] if inputs else None},
            (t2 - t1) * 1e3, (t1 - t0) * 1e3)


def trafilatura_meta(html: str, url: str) -> dict:
    import trafilatura
    doc = trafilatura.extract_metadata(html, default_url=url or None)
    if doc is None:
        return {}
    return {"title": doc.title, "authors": [a for a in re.split(r";\s*", doc.author or "") if a],
            "date": doc.date, "site": doc.sitename}


def htmldate_meta(html: str, url: str) -> dict:
    import htmldate
    try:
        return {"date": htmldate.find_date(html, url=url or None, original_date=True)}
    except Exception:          # htmldate raises on some malformed pages
        return {}


def run(dataset: Path, split: str | None, limit: int | None, quiet: bool) -> list[dict]:
    entries = [json.loads(l) for l in (dataset / "index.jsonl").read_text(encoding="utf-8").splitlines()
               if l.strip()]
    name = entries[0].get("dataset", dataset.name) if entries else dataset.name
    if split:
        sides = load_split().get("pages", {}).get(name, {})
        entries = [e for e in entries if sides.get(e["id"]) == split]
    entries = entries[: limit or None]
    methods = {"pith": {}, "trafilatura": {}, "htmldate": {}}
    counts = {m: {f: [0, 0] for f in FIELDS} for m in methods}
    meta_ms, select_ms, failed = [], [], 0
    types: Counter = Counter()          # (label, ours) of each page with a page_type label
    for entry in entries:
        try:
            data = static.read_page(dataset / entry["html"])
            html, _ = static.decode_html(data, None, "replace")
        except PithError:
            failed += 1
            continue
        url = entry.get("url") or ""
        try:
            got, ms, sel_ms = ours(html, url)
            meta_ms.append(ms)
            select_ms.append(sel_ms)
        except PithError:
            got = {}
        if isinstance(entry.get("page_type"), str):
            types[(entry["page_type"], got.get("page_type") or "none")] += 1
        answers = {"pith": got, "trafilatura": trafilatura_meta(html, url),
                   "htmldate": htmldate_meta(html, url)}
        for f in FIELDS:
            want = label(entry, f)
            if want is None:
                continue
            for m, ans in answers.items():
                if (m == "htmldate" and f != "date") or (m != "pith" and f in PITH_ONLY):
                    continue
                counts[m][f][1] += 1
                counts[m][f][0] += hit(f, want, ans)
    rows = []
    for m in methods:
        row = {"dataset": name, "method": m, "pages": len(entries)}
        for f in FIELDS:
            n_hit, n = counts[m][f]
            row[f] = round(n_hit / n, 4) if n else None
            row[f + "_n"] = n
        if m == "pith":
            n = sum(types.values())
            row["page_type"] = round(sum(c for (want, got), c in types.items() if want == got)
                                     / n, 4) if n else None
            row["page_type_n"] = n
            row["confusion"] = {want: {got: c for (w, got), c in sorted(types.items()) if w == want}
                                for want in sorted({w for w, _ in types})}
            row["metadata_ms_median"] = round(statistics.median(meta_ms), 3) if meta_ms else None
            row["select_ms_median"] = round(statistics.median(select_ms), 3) if select_ms else None
        rows.append(row)
    return rows


def format_rows(rows: list[dict]) -> str:
    head = f"{'dataset':<16} {'method':<12} {'pages':>5}  " + "  ".join(
        f"{f:>12}" for f in FIELDS) + "  meta ms  select ms"
    lines = [head, "-" * len(head)]
    for r in rows:
        cells = []
        for f in FIELDS:
            v = r[f]
            cells.append(f"{'—' if v is None else f'{100 * v:.1f} %':>7} n={r[f + '_n']:<3}"
                         if v is not None else f"{'—':>12}")
        ms = r.get("metadata_ms_median")
        sm = r.get("select_ms_median")
        lines.append(f"{r['dataset']:<16} {r['method']:<12} {r['pages']:>5}  " + "  ".join(cells)
                     + (f"  {ms:>7.3f}  {sm:>9.3f}" if ms is not None else ""))
    lines.append("title: exact after whitespace/case folding; title_quotes: the same with "
                 "typographic quotes and dashes as ASCII; title_reach: one of the title's "
                 "candidates is the label (the ceiling of any choice); author: any labelled name found; "
                 "date: same day; site: exact after folding. Static snapshots; ms: medians "
                 "on this machine (noisy).")
    for r in rows:
        if r.get("page_type") is not None:
            lines += ["", confusion_table(r)]
    return "\n".join(lines)


def confusion_table(row: dict) -> str:
    """The page type's accuracy on `row`'s dataset and its confusion matrix (a row per
    label, a column per answer)."""
    matrix = row["confusion"]
    answers = sorted({got for counts in matrix.values() for got in counts})
    corner = "label / ours"
    width = max(len(a) for a in [*answers, *matrix, corner]) + 1
    hits = sum(counts.get(want, 0) for want, counts in matrix.items())
    lines = [f"page type, {row['dataset']}: {hits} of {row['page_type_n']} pages right, "
             f"{100 * row['page_type']:.2f} %",
             f"{corner:<{width}}" + "".join(f"{a:>{width}}" for a in answers)]
    for want, counts in matrix.items():
        lines.append(f"{want:<{width}}" + "".join(f"{counts.get(a, 0):>{width}}" for a in answers))
    return "\n".join(lines)


def main(args: Namespace) -> int:
    datasets = args.datasets or [d for d in all_datasets() if d.name in ("wcxb_dev_full", "readability")]
    rows: list[dict] = []
    for d in datasets:
        if not (d / "index.jsonl").is_file():
            raise PithError(f"{d} is not a dataset folder (no index.jsonl)")
        rows.extend(run(d, args.split, args.limit, args.quiet))
    print(json.dumps(rows, indent=1) if args.json else format_rows(rows))
    return 0
