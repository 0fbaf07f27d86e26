"""pith.batch's Python API: extract() streams rows and fills a Summary, as the README shows."""
from pathlib import Path

import pytest

import pith.batch
from pith.errors import BadOptions
from pith.measure import warcfile

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "pages"


def crawl(tmp_path) -> Path:
    path = tmp_path / "c.warc.gz"
    pages = [warcfile.Page(f"https://{n}.test/", (FIXTURES / n / "source.html").read_bytes())
             for n in ("article", "blocks", "unicode")]
    pages.append(warcfile.Page("https://x.test/feed", b"{}", content_type="application/json"))
    warcfile.write(path, pages)
    return path


def test_extract_streams_rows_and_fills_the_summary(tmp_path):
    summary = pith.batch.Summary()
    rows = pith.batch.extract([str(crawl(tmp_path))], jobs=2, summary=summary,
                              extra=["markdown"], options={"blocks": False})
    first = next(rows)                       # a generator: rows come before the end
    assert first["url"] == "https://article.test/" and first["markdown"].strip()
    rest = list(rows)
    assert [r["status"] for r in [first, *rest]] == ["ok"] * 3
    assert first["blocks"] is None           # the option reached the workers
    counts = summary.as_dict()
    assert counts["extracted"] == 3 and counts["skipped"] == {"not_response": 4, "not_html": 1}
    assert counts["records"] == counts["html"] + 5 and summary.seconds > 0


def test_bad_arguments_fail_before_any_work(tmp_path):
    with pytest.raises(BadOptions):
        next(pith.batch.extract([str(crawl(tmp_path))], extra=["pdf"]))
    with pytest.raises(BadOptions):
        next(pith.batch.extract([str(crawl(tmp_path))], options={"no_such_option": 1}))
