"""`pith extract` with rows (pith.batch.command): WARC files with hostile records, folders,
stdin lists, JSON Lines and Parquet, --jobs, the summary and the exit status."""
import gzip
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from pith.measure import warcfile
from terminal import pith_on_a_terminal

REPO = Path(__file__).resolve().parents[1]
FIXTURES = REPO / "tests" / "fixtures" / "pages"
SHARED = Path(os.environ.get("PITH_SHARED", REPO.parent / "shared")) / "datasets"
CLI_TIMEOUT_S = 300
# Fixture pages with one clear main text (frames and shadow need a browser to mean much).
FIXTURE_PAGES = ("article", "blocks", "boilerplate", "hidden", "legacy-charset", "reader",
                 "unicode")
# Records taken from the shared datasets for the crawl-sized test.
SHARED_RECORDS = 300


def pith(*args, stdin: str | None = None):
    env = {**os.environ, "PYTHONPATH": str(REPO / "host")}
    return subprocess.run([sys.executable, "-m", "pith", *map(str, args)], capture_output=True,
                          text=True, timeout=CLI_TIMEOUT_S, env=env, input=stdin)


def rows_of(stdout: str) -> list[dict]:
    return [json.loads(line) for line in stdout.splitlines()]


def fixture_page(name: str, **kw) -> warcfile.Page:
    return warcfile.Page(f"https://{name}.test/page", (FIXTURES / name / "source.html").read_bytes(),
                         **kw)


def hostile_crawl(path: Path) -> list[warcfile.Page]:
    """Fixture pages between the hostile records a crawl brings."""
    pages = [fixture_page(name) for name in FIXTURE_PAGES]
    pages.insert(1, warcfile.Page("https://bin.test/x", bytes(range(256)) * 40))  # binary "html"
    pages.insert(3, fixture_page("article", damage="truncated"))
    pages.insert(5, fixture_page("blocks", damage="long_length"))
    pages.insert(7, warcfile.Page("https://img.test/a.png", b"\x89PNG....", content_type="image/png"))
    pages.insert(8, fixture_page("unicode", damage="garbage"))
    warcfile.write(path, pages, seed=7)
    return pages


def test_a_warc_gives_one_json_row_per_html_record_and_counts_the_rest(tmp_path):
    crawl = tmp_path / "crawl.warc.gz"
    pages = hostile_crawl(crawl)
    result = pith("extract", crawl, "--jobs", "2")
    rows = rows_of(result.stdout)
    # the cut record and the one whose length runs past its end are damaged, not pages
    readable = [p for p in pages if p.damage in (None, "garbage")
                and p.content_type.startswith("text/html")]
    ok = [r for r in rows if r["status"] == "ok"]
    assert [r["url"] for r in ok] == [p.url for p in readable if not p.url.startswith("https://bin")]
    by_url = {r["url"]: r for r in rows if r["status"] != "failed" or r["url"] == "https://bin.test/x"}
    assert by_url["https://bin.test/x"]["error"]["name"] == "input_not_html"
    damaged = [r for r in rows if r["error"] and r["error"]["name"] == "record_damaged"]
    assert len(damaged) == 3                           # the cut record, the long one, the garbage
    assert "https://blocks.test/page" in [r["url"] for r in damaged]
    assert result.returncode == 1                      # a record failed: the summary says so
    summary = result.stderr.splitlines()[0]
    assert "1 not html" in summary and "3 damaged" in summary and "timed out" in summary
    assert f"{len(ok):,} extracted" in summary
    assert summary.startswith(f"pith: {len(rows) + len(pages) + 1:,} records read")   # + requests
    # the charset the page declares, the language it says, the text the article has
    legacy = by_url["https://legacy-charset.test/page"]
    assert "Un café crème coûte 4,50 €" in legacy["text"] and legacy["language"] == "fr"
    assert "Lichens are partnerships between a fungus and an alga" in by_url["https://article.test/page"]["text"]


@pytest.mark.slow     # every fixture page through a crawl and through extract
def test_rows_equal_the_static_extraction_of_each_page(tmp_path):
    crawl = tmp_path / "c.warc"
    warcfile.write(crawl, [fixture_page(n) for n in FIXTURE_PAGES])
    rows = rows_of(pith("extract", crawl, "-j", "1").stdout)
    for name, row in zip(FIXTURE_PAGES, rows):
        single = pith("extract", FIXTURES / name / "source.html", "--static")
        assert row["text"].strip() == single.stdout.strip(), name


def test_the_http_charset_decodes_a_page_that_declares_none(tmp_path):
    body = "<html><body><p>Съешь же ещё этих мягких французских булок</p></body></html>"
    crawl = tmp_path / "ru.warc"
    warcfile.write(crawl, [warcfile.Page("https://ru.test/", body.encode("cp1251"),
                                         content_type="text/html; charset=windows-1251"),
                           warcfile.Page("https://ru.test/bad-label", body.encode("utf-8"),
                                         content_type="text/html; charset=x-no-such")])
    rows = rows_of(pith("extract", crawl).stdout)
    assert [r["text"] for r in rows] == ["Съешь же ещё этих мягких французских булок"] * 2


def test_jobs_and_order_do_not_change_the_rows(tmp_path):
    crawl = tmp_path / "crawl.warc.gz"
    hostile_crawl(crawl)
    strip = lambda rows: [{k: v for k, v in r.items() if k != "timings"} for r in rows]  # noqa: E731
    one = strip(rows_of(pith("extract", crawl, "-j", "1").stdout))
    two = strip(rows_of(pith("extract", crawl, "-j", "2").stdout))
    loose = strip(rows_of(pith("extract", crawl, "-j", "2", "--unordered").stdout))
    assert one == two
    key = lambda r: r["source"]                       # noqa: E731
    assert sorted(loose, key=key) == sorted(one, key=key)


def test_parquet_holds_the_same_rows(tmp_path):
    pq = pytest.importorskip("pyarrow.parquet")
    crawl = tmp_path / "crawl.warc.gz"
    hostile_crawl(crawl)
    jsonl = rows_of(pith("extract", crawl, "--also", "markdown").stdout)
    out = tmp_path / "rows.parquet"
    result = pith("extract", crawl, "--format", "parquet", "--out", out, "--also", "markdown")
    assert result.stdout == "" and result.returncode == 1
    table = pq.read_table(out).to_pylist()
    strip = lambda rows: [{k: v for k, v in r.items() if k != "timings"} for r in rows]  # noqa: E731
    assert strip(table) == strip(jsonl)
    assert all(r["markdown"] for r in table if r["status"] == "ok")
    assert pith("extract", crawl, "--format", "parquet").returncode == 2     # no --out FILE


def test_folders_and_stdin_lists_mix_pages_and_warcs(tmp_path):
    site = tmp_path / "site"
    (site / "deep").mkdir(parents=True)
    (site / "a.html").write_bytes((FIXTURES / "article" / "source.html").read_bytes())
    (site / "deep" / "b.html.gz").write_bytes(
        gzip.compress((FIXTURES / "unicode" / "source.html").read_bytes()))
    (site / "deep" / "notes.txt").write_text("not a page")
    warcfile.write(site / "deep" / "c.warc.gz", [fixture_page("blocks")])
    listing = f"{site / 'a.html'}\n{site / 'deep'}\n"
    result = pith("extract", "-", "--format", "jsonl", "--summary", tmp_path / "s.json",
                  stdin=listing)
    assert result.returncode == 0, result.stderr
    rows = rows_of(result.stdout)
    assert [Path(r["source"].split("@")[0]).name for r in rows] == ["a.html", "b.html.gz", "c.warc.gz"]
    counts = json.loads((tmp_path / "s.json").read_text())
    assert counts["extracted"] == 3 and counts["skipped"] == {"not_html": 1, "not_response": 1}
    # the per-page formats take folders too, and refuse a WARC, named or in a folder
    refused = pith("extract", site / "deep" / "c.warc.gz", "--format", "text")
    assert refused.returncode == 2 and "c.warc.gz is a WARC file" in refused.stderr
    assert pith("extract", site, "--static", "--format", "json").returncode == 2
    (site / "deep" / "c.warc.gz").unlink()
    text = pith("extract", site, "--static", "--format", "json")
    assert [json.loads(line)["input"].rsplit("/", 1)[1] for line in text.stdout.splitlines()] == [
        "a.html", "b.html.gz"]


def test_a_pathological_record_costs_its_time_limit_and_is_named(tmp_path):
    slow = ("<html><body>" + "<div><p>word</p></div>" * 450_000 + "</body></html>").encode()
    crawl = tmp_path / "slow.warc.gz"
    warcfile.write(crawl, [fixture_page("article"), warcfile.Page("https://slow.test/", slow),
                           fixture_page("blocks")])
    # the limit: test_pool's SLOW_LIMIT_S and its reasons (a quarter of the slow page's time)
    result = pith("extract", crawl, "--page-timeout", "1", "-j", "1")
    rows = rows_of(result.stdout)
    assert [r["status"] for r in rows] == ["ok", "timeout", "ok"]
    assert result.returncode == 1
    assert "1 timed out" in result.stderr and "https://slow.test/" not in result.stderr
    assert f"{crawl}@" in result.stderr and "page_time_limit (90)" in result.stderr


@pytest.mark.slow
def test_a_50_mb_page_is_answered_or_refused_within_its_limits(tmp_path):
    paragraph = ("<p>" + "lorem ipsum dolor " * 300 + "</p>").encode()
    huge = b"<html><body><article>" + paragraph * 10_000 + b"</article></body></html>"
    assert len(huge) > 50_000_000
    crawl = tmp_path / "huge.warc.gz"
    warcfile.write(crawl, [fixture_page("article"), warcfile.Page("https://huge.test/", huge),
                           fixture_page("blocks")])
    result = pith("extract", crawl, "--page-timeout", "20", "-j", "2")
    rows = rows_of(result.stdout)
    assert [r["status"] for r in rows][::2] == ["ok", "ok"]
    assert rows[1]["status"] in ("ok", "timeout", "failed")
    if rows[1]["status"] == "failed":
        assert rows[1]["error"]["name"] in ("page_memory_limit", "page_too_large")


@pytest.mark.skipif(not (SHARED / "cleaneval" / "index.jsonl").is_file(),
                    reason="../shared/datasets absent")
@pytest.mark.slow
def test_a_crawl_of_shared_pages_with_hostile_records_loses_no_good_record(tmp_path):
    entries = []
    for name in ("cleaneval", "readability", "wcxb_dev"):
        index = (SHARED / name / "index.jsonl").read_text(encoding="utf-8").splitlines()
        entries += [(name, json.loads(line)) for line in index[:SHARED_RECORDS // 3]]
    pages = []
    for name, entry in entries:
        data = (SHARED / name / entry["html"]).read_bytes()
        data = gzip.decompress(data) if entry["html"].endswith(".gz") else data
        pages.append(warcfile.Page(entry.get("url") or f"https://{name}.test/{entry['id']}", data,
                                   content_type="text/html"))
    for k, damage in enumerate(warcfile.DAMAGE * 3):
        pages[17 + 23 * k].damage = damage
    crawl = tmp_path / "shared.warc.gz"
    warcfile.write(crawl, pages, seed=11)
    rows = rows_of(pith("extract", crawl).stdout)
    good = [p.url for p in pages if p.damage in (None, "garbage")]
    got = [r["url"] for r in rows if r["status"] in ("ok", "empty")]
    assert got == good                     # every readable page, in order, none twice
    damaged = [r for r in rows if r["error"] and r["error"]["name"] == "record_damaged"]
    assert len(damaged) == sum(p.damage is not None for p in pages)   # one row each


def test_a_progress_bar_with_pages_per_second_on_a_terminal_only(tmp_path):
    crawl = tmp_path / "c.warc.gz"
    warcfile.write(crawl, [fixture_page(n) for n in FIXTURE_PAGES])
    status, drawn = pith_on_a_terminal(["extract", str(crawl)], CLI_TIMEOUT_S)
    assert status == 0
    assert b"\r" in drawn and b"page/s" in drawn and f"{len(FIXTURE_PAGES)}page".encode() in drawn.replace(b" ", b"")
    assert b"7 extracted" in drawn                       # the summary follows the bar
    piped = pith("extract", crawl)
    assert "\r" not in piped.stderr and piped.stderr.startswith("pith: 14 records read")


def test_row_options_without_rows_are_a_usage_error():
    page = FIXTURES / "article" / "source.html"
    for flags in (["--jobs", "2"], ["--unordered"], ["--also", "markdown"], ["--engine", "dask"]):
        result = pith("extract", page, "--static", *flags)
        assert result.returncode == 2 and f"{flags[0]} is for rows" in result.stderr, flags
    assert pith("extract", page, "--jobs", "2", "--format", "jsonl").returncode == 0


def test_an_interrupted_run_keeps_its_rows_and_says_how_far_it_got(tmp_path):
    import signal
    slow = ("<html><body>" + "<div><p>word</p></div>" * 450_000 + "</body></html>").encode()
    crawl = tmp_path / "c.warc.gz"
    warcfile.write(crawl, [fixture_page("article"), warcfile.Page("https://slow.test/", slow),
                           fixture_page("blocks")])
    proc = subprocess.Popen(
        [sys.executable, "-m", "pith", "extract", str(crawl), "-j", "1"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env={**os.environ, "PYTHONPATH": str(REPO / "host")},
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    first = json.loads(proc.stdout.readline())      # the slow page is running now
    proc.send_signal(signal.SIGINT)
    rest, err = proc.communicate(timeout=30)
    assert proc.returncode == 130
    assert first["url"] == "https://article.test/page" and rest == ""
    assert "pith: interrupted: " in err and "1 extracted" in err


@pytest.mark.parametrize("layout", ("plain", "member", "stream"))
def test_every_damage_is_one_row_good_rows_hold_only_their_text_and_counts_add_up(tmp_path, layout):
    """Issue 34, finding 1, end to end: a file with every frame error of the matrix, each
    followed by a good record. Every good record is an `ok` row with exactly the text its
    page gives in a clean file; every bad one exactly one `record_damaged` row; the
    summary's counts add up to the records read."""
    from warcmatrix import MATRIX, matrix_file
    damages = list(enumerate(how for how in MATRIX if how != "cut_at_end"))
    damages = [(2 * k + 1, how) for k, how in damages]
    n = 2 * len(damages) + 2
    damages.append((n - 1, "cut_at_end"))
    path, good = matrix_file(tmp_path, layout, damages, n=n)
    (tmp_path / "clean").mkdir()
    clean, _ = matrix_file(tmp_path / "clean", layout, [], n=n)
    summary = tmp_path / "s.json"
    result = pith("extract", path, "-j", "2", "--summary", summary)
    rows = rows_of(result.stdout)
    baseline = {r["url"]: r["text"] for r in rows_of(pith("extract", clean, "-j", "2").stdout)}
    ok = [r for r in rows if r["status"] == "ok"]
    assert [r["url"] for r in ok] == good
    assert all(r["text"] == baseline[r["url"]] for r in ok)
    bad = [r for r in rows if r["status"] != "ok"]
    assert [r["error"]["name"] for r in bad] == ["record_damaged"] * len(damages)
    named = [r["url"] for r in bad if r["url"]]
    assert len(named) == len(set(named))            # no record is damaged twice
    counts = json.loads(summary.read_text())
    assert counts["records"] == (counts["extracted"] + counts["empty"] + counts["failed"]
                                 + counts["timed_out"] + counts["damaged"]
                                 + sum(counts["skipped"].values()))
    assert counts["damaged"] == len(damages) and counts["extracted"] == len(good)
    assert result.returncode == 1
    line = result.stderr.splitlines()[0]
    assert line.startswith(f"pith: {counts['records']:,} records read: {len(good):,} extracted")
    assert f"{len(damages)} damaged" in line

def test_rows_carry_the_comment_thread_apart(tmp_path):
    """A blog post's thread is the row's `comments`, not its text; a page without one has
    null."""
    crawl = tmp_path / "c.warc"
    warcfile.write(crawl, [fixture_page("bread-post"), fixture_page("article")])
    rows = rows_of(pith("extract", crawl, "-j", "1").stdout)
    blog, article = rows
    assert "A cheap probe thermometer changed my baking" in blog["comments"]
    assert "A cheap probe thermometer" not in blog["text"]
    assert "measure the dough's temperature" in blog["text"]
    assert article["comments"] is None
