"""Where rows go: JSON Lines (a stream, stdout or a file) or Parquet (a file, in row groups).

One row per record, never a file per record. Both writers take rows one at a time and hold
at most one row group (ROW_GROUP rows) in memory. Parquet needs pyarrow (the `batch`
extra); its schema is fixed (SCHEMA), so files of different runs concatenate.

JSON Lines are encoded by orjson: the parent process of a batch encodes every row, and
it does so in 0.011 ms for the crawl's average row (11,400 characters of text) where the
standard library's json takes 0.053 ms: on a crawl the parent is the one process every
page passes through, so its cost per page bounds how well the workers scale (README,
"Dependencies and why"). The lines are compact JSON in UTF-8, one per row.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import IO, Any

import orjson

from .work import ROW_FIELDS

# Rows per Parquet row group: a few MB of text, a good unit for readers that skip groups.
ROW_GROUP = 1000


def json_line(row: dict[str, Any]) -> bytes:
    """`row` as one line of compact UTF-8 JSON, newline included."""
    try:
        return orjson.dumps(row, option=orjson.OPT_APPEND_NEWLINE)
    except TypeError:
        # orjson refuses a str holding a lone surrogate (not valid UTF-8); the standard
        # encoder writes it as a \uXXXX escape, which any JSON reader accepts
        return (json.dumps(row, separators=(",", ":")) + "\n").encode("ascii")


class JsonLines:
    """One JSON object per line into a binary stream. `flush_each`: flush after every
    row, for a stream a pipeline reads as we go (stdout); a file is written in blocks."""

    def __init__(self, out: IO[bytes], flush_each: bool = True) -> None:
        self.out, self.flush_each = out, flush_each

    def write(self, row: dict[str, Any]) -> None:
        self.out.write(json_line(row))
        if self.flush_each:
            self.out.flush()

    def close(self) -> None:
        self.out.flush()


def schema():
    """The Parquet schema of a row (timings and error as structs)."""
    import pyarrow as pa
    text = pa.string()
    return pa.schema([
        ("source", text), ("url", text), ("record_id", text), ("status", text),
        ("title", text), ("language", text), ("authors", pa.list_(text)),
        ("published", text), ("modified", text), ("site", text), ("description", text),
        ("canonical", text), ("image", text), ("categories", pa.list_(text)),
        ("tags", pa.list_(text)), ("license", text), ("page_type", text),
        ("page_type_p", pa.float64()), ("text", text), ("markdown", text),
        ("html", text), ("comments", text), ("path", pa.list_(pa.int32())), ("blocks", pa.int32()),
        ("error", pa.struct([("code", pa.int32()), ("name", text), ("message", text)])),
        ("timings", pa.struct([(k, pa.float64()) for k in
                               ("read_ms", "snapshot_ms", "select_ms", "render_ms",
                                "wall_ms")])),
    ])


class Parquet:
    """Rows into one Parquet file, ROW_GROUP rows at a time."""

    def __init__(self, path: Path) -> None:
        try:
            import pyarrow.parquet as pq
        except ImportError:
            from ..errors import PithError
            raise PithError("Parquet output needs pyarrow: pip install 'pith[batch]'") from None
        self.schema = schema()
        assert tuple(self.schema.names) == ROW_FIELDS
        self.writer = pq.ParquetWriter(str(path), self.schema, compression="zstd")
        self.pending: list[dict] = []

    def write(self, row: dict[str, Any]) -> None:
        self.pending.append(row)
        if len(self.pending) >= ROW_GROUP:
            self._flush()

    def _flush(self) -> None:
        import pyarrow as pa
        if self.pending:
            self.writer.write_table(pa.Table.from_pylist(self.pending, schema=self.schema))
            self.pending = []

    def close(self) -> None:
        self._flush()
        self.writer.close()
