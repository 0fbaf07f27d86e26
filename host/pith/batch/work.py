"""One record → one row: decode, static snapshot, select, render. What every worker runs.

A row is a flat dict with the same keys for every record (ROW_FIELDS), so JSON Lines and
Parquet carry the same thing and a failed record is a row like any other:

  source, url, record_id   where the page came from (a path, a URL, or WARC-FILE@OFFSET,
                           and the WARC-Record-ID)
  status                   ok (text extracted), empty (the page has no main text),
                           failed, timeout
  title, language          the page's title (its metadata's: pith.pipeline.metadata, the site's
                           suffix cut); its language (<html lang>, declared, else the
                           HTTP Content-Language)
  authors, published, modified, site, description, canonical, image, categories, tags,
  license                  the rest of the page's metadata (host/PROTOCOL.md `metadata`;
                           `canonical` is its `url`), null or [] when not found
  page_type, page_type_p   what kind of page it is (article, forum, product, listing,
                           collection, documentation, service) and the model's
                           probability of it (pipeline/pagetype.py)
  text, markdown, html     the main content (markdown and html only when asked for)
  comments                 the comment thread under the post, apart from `text`
                           (null when the page shows none)
  path                     the chosen element's path: element-child indices from the root
                           (host/SNAPSHOT.md's portable node form)
  blocks                   how many blocks the block stage kept (null with it off)
  error                    {code, name, message} of a failure, else null
  timings                  {read_ms, snapshot_ms, select_ms, render_ms}; for a page
                           stopped or lost with its worker {wall_ms}, how long it ran
                           (time differs from run to run; everything else of a row does not)

Pages are always captured statically (an HTML5 parser, no layout boxes): a crawl's record has no
sub-resources to render with, and --static is what the speed targets are about.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from .records import Record
from ..errors import InputDecode, InternalError, NoContent, PithError
from ..pages import static
from ..pages.inputs import fetch, local_path
from ..pages.local import read_local
from ..pipeline.options import Options
from ..pipeline.select import select

ROW_FIELDS = ("source", "url", "record_id", "status", "title", "language", "authors",
              "published", "modified", "site", "description", "canonical", "image",
              "categories", "tags", "license", "page_type", "page_type_p", "text", "markdown",
              "html", "comments", "path", "blocks", "error", "timings")
# row field -> metadata field (the rest of the metadata keeps its name)
ROW_METADATA = {"canonical": "url"}
METADATA_FIELDS = ("title", "language", "authors", "published", "modified", "site",
                   "description", "canonical", "image", "categories", "tags", "license")
CONTENT_FORMATS = ("markdown", "html")


@dataclass(frozen=True)
class Job:
    """How every record of a batch is extracted (picklable: it goes to each worker once)."""

    options: Options = field(default_factory=Options)
    extra: tuple[str, ...] = ()        # CONTENT_FORMATS wanted besides the text
    encoding: str | None = None        # --encoding: overrides every declared charset
    encoding_errors: str = "replace"   # a crawl is not clean: bad bytes become U+FFFD
    timeout_s: float = 30.0            # fetching an http(s) input


def blank_row(record: Record) -> dict[str, Any]:
    row = dict.fromkeys(ROW_FIELDS)
    row.update(source=record.source, url=record.url, record_id=record.record_id,
               language=record.language)
    return row


def failed_row(record: Record, exc: PithError, status: str = "failed") -> dict[str, Any]:
    row = blank_row(record)
    row["status"] = status
    row["error"] = {"code": exc.code, "name": exc.name, "message": exc.message}
    return row


def extract(record: Record, job: Job) -> dict[str, Any]:
    """The row of one record; never raises (a failure is the row's `error`)."""
    if record.failure is not None:
        return failed_row(record, record.failure)
    try:
        return _extract(record, job)
    except NoContent:
        row = blank_row(record)
        row.update(status="empty", text="")
        return row
    except PithError as exc:
        return failed_row(record, exc)
    except MemoryError:
        raise                              # the pool reports it as page_memory_limit
    except RecursionError as exc:
        return failed_row(record, InternalError(f"{record.source}: too deep ({exc})"))
    except Exception as exc:               # a bug on one page must not end a crawl
        return failed_row(record, InternalError(
            f"{record.source}: {type(exc).__name__}: {exc}"))


def _extract(record: Record, job: Job) -> dict[str, Any]:
    t0 = time.perf_counter()
    data, charset, url = record.data, record.charset, record.url
    if data is None:
        path = local_path(record.source)
        if path is not None:
            data = read_local(path)
        else:
            data, charset, url = fetch(record.source, job.timeout_s)
    try:
        text, _, utf8 = static.decode_page(data, job.encoding, job.encoding_errors,
                                           header=charset)
    except InputDecode:
        if job.encoding or not charset:
            raise
        # a charset label in the HTTP header that no browser knows is ignored, as
        # browsers do: the page's own declaration and sniffing decide
        text, _, utf8 = static.decode_page(data, None, job.encoding_errors)
    static.check_html(text, record.source)
    t1 = time.perf_counter()
    snap = static.snapshot_of_html(text, url, job.options.max_nodes, utf8)
    t2 = time.perf_counter()
    sel = select(snap, job.options)
    t3 = time.perf_counter()
    row = blank_row(record)
    row["text"] = sel.output("text")
    row["comments"] = sel.comments_text()     # the thread under the post, apart (or None)
    for fmt in job.extra:
        row[fmt] = sel.output(fmt)
    t4 = time.perf_counter()
    meta = sel.metadata.to_wire()
    row.update({f: meta[ROW_METADATA.get(f, f)] for f in METADATA_FIELDS})
    row.update(
        status="ok" if row["text"].strip() else "empty",
        language=meta["language"] or record.language,
        page_type=sel.page_type_wire()[0], page_type_p=sel.page_type_wire()[1],
        path=sel.snap.path(sel.node),
        blocks=None if sel.result.kept is None else int(len(sel.result.kept)),
        timings={"read_ms": _ms(t1 - t0), "snapshot_ms": _ms(t2 - t1),
                 "select_ms": _ms(t3 - t2), "render_ms": _ms(t4 - t3)})
    return row


def _ms(seconds: float) -> float:
    return round(seconds * 1e3, 3)
