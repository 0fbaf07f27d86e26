"""pith.batch.sinks: rows as JSON Lines (orjson, with the standard encoder's fallback) and Parquet."""
from __future__ import annotations

import io
import json

import pytest

from pith.batch import sinks
from pith.batch.work import ROW_FIELDS


def _row(**kw):
    row = dict.fromkeys(ROW_FIELDS)
    row.update(source="a.warc.gz@0", status="ok", text="Grüße — 東京\n", path=[0, 1, 2],
               timings={"read_ms": 0.012, "snapshot_ms": 1.5e-05})
    row.update(kw)
    return row


def test_a_line_is_compact_utf8_json_that_reads_back_as_the_row():
    row = _row()
    line = sinks.json_line(row)
    assert line.endswith(b"\n") and line.count(b"\n") == 1
    assert "東京".encode() in line                    # UTF-8, not \u escapes
    assert json.loads(line) == row


def test_a_lone_surrogate_is_escaped_not_lost():
    row = _row(text="before \ud800 after")
    line = sinks.json_line(row)
    assert line.count(b"\n") == 1
    assert json.loads(line)["text"] == "before \ud800 after"


class _Counting(io.BytesIO):
    def __init__(self):
        super().__init__()
        self.flushes = 0

    def flush(self):
        self.flushes += 1
        super().flush()


def test_a_stream_is_flushed_per_row_and_a_file_only_at_close():
    stream, file = _Counting(), _Counting()
    to_stream, to_file = sinks.JsonLines(stream), sinks.JsonLines(file, flush_each=False)
    for k in range(3):
        to_stream.write(_row(source=f"s{k}"))
        to_file.write(_row(source=f"s{k}"))
    assert stream.flushes == 3 and file.flushes == 0
    to_file.close()
    assert file.flushes == 1
    assert stream.getvalue() == file.getvalue()
    assert [json.loads(x)["source"] for x in file.getvalue().splitlines()] == ["s0", "s1", "s2"]


def test_parquet_rows_read_back(tmp_path):
    pq = pytest.importorskip("pyarrow.parquet")
    out = tmp_path / "rows.parquet"
    sink = sinks.Parquet(out)
    rows = [_row(source=f"s{k}", page_type="forum", page_type_p=0.912) for k in range(3)]
    for row in rows:
        sink.write(row)
    sink.close()
    table = pq.read_table(out).to_pylist()
    assert [r["source"] for r in table] == ["s0", "s1", "s2"]
    assert table[0]["page_type"] == "forum" and table[0]["page_type_p"] == 0.912
    assert table[0]["text"] == rows[0]["text"] and table[0]["path"] == [0, 1, 2]
