"""pith.batch.pool: rows in input order on N processes; a page over its time or memory limit,
or whose worker dies, costs that page only."""
import os
import signal
import threading
import time
from pathlib import Path

import pytest

from pith.batch import pool, records, work

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "pages"
PAGES = sorted(FIXTURES.glob("*/source.html"))
# A page the static pipeline needs seconds for (900,000 elements, under max_nodes): about
# 4 s on the machine this was written on, 8 s on one three times slower while a test run
# shared it. The time limit that stops it is a quarter of its time on the faster machine
# and 20 times a fixture page's (under 50 ms there), so only that page times out even on a
# busy machine (with 0.5 s the test failed at load 9, beside other benches, and passed
# alone; test_batch_cluster uses 1 s).
SLOW_PAGE = ("<html><body>" + "<div><p>word word</p></div>" * 450_000 + "</body></html>").encode()
SLOW_LIMIT_S = 1.0


def record(i: int, data: bytes | None = None, source: str | None = None) -> records.Record:
    path = PAGES[i % len(PAGES)]
    return records.Record(i, source or str(path), path.as_uri(),
                          data if data is not None else path.read_bytes())


def without_timings(rows):
    return [{k: v for k, v in row.items() if k != "timings"} for row in rows]


def test_rows_come_in_input_order_and_equal_the_work_done_in_process():
    recs = [record(i) for i in range(12)]
    expected = [work.extract(r, work.Job()) for r in recs]
    rows = list(pool.run(recs, work.Job(), jobs=2))
    assert [r["source"] for r in rows] == [r.source for r in recs]
    assert without_timings(rows) == without_timings(expected)
    assert all(r["status"] == "ok" and r["text"] for r in rows)


def test_unordered_rows_are_the_same_rows():
    recs = [record(i) for i in range(10)]
    ordered = without_timings(pool.run(recs, work.Job(), jobs=2))
    unordered = without_timings(pool.run(recs, work.Job(), jobs=2, ordered=False))
    key = lambda r: r["source"] + str(r["path"])      # noqa: E731
    assert sorted(unordered, key=key) == sorted(ordered, key=key)


def test_a_page_over_the_time_limit_costs_its_limit_and_nothing_else():
    recs = [record(0), record(1, SLOW_PAGE, "slow"), record(2), record(3), record(4)]
    t0 = time.monotonic()
    rows = list(pool.run(recs, work.Job(), jobs=1, limits=pool.Limits(time_s=SLOW_LIMIT_S)))
    elapsed = time.monotonic() - t0
    assert [r["status"] for r in rows] == ["ok", "timeout", "ok", "ok", "ok"]
    assert rows[1]["error"]["name"] == "page_time_limit" and "slow" in rows[1]["error"]["message"]
    assert SLOW_LIMIT_S * 1e3 <= rows[1]["timings"]["wall_ms"] < SLOW_LIMIT_S * 1e3 + 1500
    # the slow page would take seconds; the whole run stays near its limit plus the rest
    assert elapsed < SLOW_LIMIT_S + 3.0, elapsed
    # the pages queued behind it on the killed worker were redone, not lost
    assert without_timings(rows[2:]) == without_timings(work.extract(r, work.Job()) for r in recs[2:])


def test_a_page_over_the_memory_limit_fails_alone():
    big = ("<html><body>" + "<p>many words in many paragraphs</p>" * 400_000 + "</body></html>").encode()
    recs = [record(0), record(1, big, "big"), record(2)]
    rows = list(pool.run(recs, work.Job(), jobs=1,
                         limits=pool.Limits(time_s=60, memory_bytes=150 << 20)))
    assert [r["status"] for r in rows] == ["ok", "failed", "ok"]
    assert rows[1]["error"]["name"] == "page_memory_limit"


def test_a_worker_killed_from_outside_costs_its_page_only():
    recs = [record(0), record(1, SLOW_PAGE, "slow"), record(2)]
    with pool.Pool(work.Job(), 1, pool.Limits(time_s=60)) as p:
        rows_iter = p.rows(iter(recs), ordered=True)
        first = next(rows_iter)
        victim = p.workers[0].process.pid
        threading.Timer(0.3, os.kill, (victim, signal.SIGKILL)).start()
        rest = list(rows_iter)
    assert first["status"] == "ok"
    assert [r["status"] for r in rest] == ["failed", "ok"]
    assert rest[0]["error"]["name"] == "worker_crashed"


def test_reading_pauses_while_the_oldest_page_holds_the_output(monkeypatch):
    """Ordered output with a slow first page: the reader stops at MAX_WAITING finished rows
    instead of reading the whole input into memory."""
    monkeypatch.setattr(pool, "MAX_WAITING", 4)
    pulled = []

    def stream():
        yield record(0, SLOW_PAGE, "slow")
        for i in range(1, 60):
            pulled.append(i)
            yield record(i)

    rows = pool.run(stream(), work.Job(), jobs=2, limits=pool.Limits(time_s=SLOW_LIMIT_S))
    first = next(rows)
    assert first["status"] == "timeout"
    # at most the rows held back plus what the workers hold was read before the first row
    assert len(pulled) <= 4 + 2 * pool.DEPTH + 1, len(pulled)
    assert len(list(rows)) == 59


def test_unreadable_records_need_no_worker():
    from pith.errors import RecordDamaged
    bad = records.Record(1, "x.warc@10", "", failure=RecordDamaged("x.warc@10: cut"))
    rows = list(pool.run([record(0), bad, record(2)], work.Job(), jobs=1))
    assert [r["status"] for r in rows] == ["ok", "failed", "ok"]
    assert rows[1]["error"]["code"] == 92


@pytest.mark.parametrize("jobs", [1, 3])
def test_an_empty_input_gives_no_rows(jobs):
    assert list(pool.run([], work.Job(), jobs=jobs)) == []
