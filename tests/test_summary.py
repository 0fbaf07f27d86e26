"""Tests of batch/summary.py: a batch's counts add up to the records read, and its report names failures."""
from __future__ import annotations

from pith.batch.summary import MAX_NAMED, Summary


def row(source: str, status: str, name: str | None = None, code: int = 0) -> dict:
    out = {"source": source, "status": status}
    if name:
        out["error"] = {"name": name, "code": code, "message": f"{name} at {source}"}
    return out


def filled() -> Summary:
    summary = Summary(seconds=2.0)
    for i in range(5):
        summary.add(row(f"ok{i}.html", "ok"))
    summary.add(row("blank.html", "empty"))
    summary.add(row("bad.html", "failed", "input_decode", 53))
    summary.add(row("slow.html", "timeout", "page_time_limit", 90))
    summary.add(row("crawl.warc#3", "failed", "record_damaged", 92))
    summary.tally.skipped.update({"not_html": 4, "revisit": 2})
    return summary


def test_the_counts_add_up_to_the_records_read():
    d = filled().as_dict()
    assert d["records"] == 9 + 6
    assert d["records"] == (d["extracted"] + d["empty"] + d["failed"] + d["timed_out"]
                            + d["damaged"] + sum(d["skipped"].values()))
    assert d["html"] == d["extracted"] + d["empty"] + d["failed"] + d["timed_out"] == 8
    assert (d["failed"], d["damaged"], d["timed_out"]) == (1, 1, 1)
    assert d["errors"] == {"input_decode": 1, "page_time_limit": 1, "record_damaged": 1}


def test_the_report_says_the_counts_the_rate_and_each_failure():
    lines = filled().lines()
    assert lines[0] == ("pith: 15 records read: 5 extracted, 1 empty, 1 failed, 1 timed out, "
                        "1 damaged, 6 skipped (4 not html, 2 revisit) in 2.0 s, 4.0 pages/s")
    assert lines[1].startswith("pith: errors: 1 input_decode")
    # a message that already names its record does not name it twice
    assert "pith:   input_decode (53): input_decode at bad.html" in lines
    assert not any("bad.html: input_decode" in line for line in lines)


def test_a_clean_batch_reports_one_line_without_a_rate_when_no_time_passed():
    summary = Summary()
    summary.add(row("a.html", "ok"))
    assert summary.lines() == ["pith: 1 records read: 1 extracted, 0 empty, 0 failed, "
                               "0 timed out, 0 damaged, 0 skipped in 0.0 s"]


def test_failures_past_the_named_ones_are_counted_not_lost():
    summary = Summary()
    for i in range(MAX_NAMED + 7):
        summary.add({"source": f"p{i}.html", "status": "failed",
                     "error": {"name": "input_decode", "code": 53, "message": "cannot decode"}})
    lines = summary.lines()
    assert len(summary.failures) == MAX_NAMED
    assert sum(line.startswith("pith:   p") for line in lines) == MAX_NAMED
    assert lines[-1] == "pith:   ... 7 more (each row's `error` names its own)"
    assert summary.as_dict()["failed"] == MAX_NAMED + 7
