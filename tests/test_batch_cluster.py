"""pith.batch.cluster on a real Dask LocalCluster: the rows and counts of the single-process run.

The WARC files are built here from raw bytes (a gzip member per record, one member cut
short, requests, a non-HTML response, a 404), from the page fixtures and, when
../shared is there, a few CleanEval pages. The cluster is started by the tests
(2 worker processes, 1 thread each) and closed at the end.
"""
from __future__ import annotations

import gzip
import io
import os
import uuid
from pathlib import Path

import pytest

pytest.importorskip("distributed")

import dask  # noqa: E402
import dask.bag  # noqa: E402
from distributed import Client, LocalCluster  # noqa: E402

import pith.batch  # noqa: E402
from pith.batch import cluster, pool, records, work  # noqa: E402
from pith.errors import ClusterWorkersDaemonic  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
FIXTURE_PAGES = sorted((ROOT / "tests" / "fixtures" / "pages").glob("*/source.html"))
CLEANEVAL = ROOT.parent / "shared" / "datasets" / "cleaneval" / "html"
# CleanEval pages added when the shared datasets are there (a few: the test stays fast).
CLEANEVAL_PAGES = 12
# A page the pipeline needs seconds for (about 1 s per 100,000 of these blocks on this
# machine after the session's speed work; 450,000 stay under max_nodes' million elements)
# and the time limit that stops it: a quarter of what that page needs, and 20 times what
# a fixture page needs (under 50 ms), so only that page times out, even on a busy machine.
SLOW_BLOCKS = 450_000
SLOW_LIMIT_S = 1.0


# ------------------------------------------------------------------------ WARC building
def warc_record(kind: str, uri: str, block: bytes, content_type: str) -> bytes:
    head = (f"WARC/1.0\r\nWARC-Type: {kind}\r\nWARC-Record-ID: <urn:uuid:{uuid.uuid4()}>\r\n"
            f"WARC-Date: 2026-11-25T06:00:00Z\r\nWARC-Target-URI: {uri}\r\n"
            f"Content-Type: {content_type}\r\nContent-Length: {len(block)}\r\n\r\n")
    return head.encode() + block + b"\r\n\r\n"


def response(uri: str, body: bytes, media: str = "text/html",
             status: str = "200 OK") -> bytes:
    http = (f"HTTP/1.1 {status}\r\nContent-Type: {media}\r\n"
            f"Content-Length: {len(body)}\r\n\r\n").encode() + body
    return warc_record("response", uri, http, "application/http; msgtype=response")


def request(uri: str) -> bytes:
    http = f"GET / HTTP/1.1\r\nHost: {uri.split('/')[2]}\r\n\r\n".encode()
    return warc_record("request", uri, http, "application/http; msgtype=request")


def write_warc(path: Path, members: list[bytes], cut: int | None = None) -> Path:
    """`members` as a WARC file, one gzip member each when the name ends in .gz; the
    member at index `cut` is cut to half its length (a truncated download)."""
    with open(path, "wb") as f:
        for i, member in enumerate(members):
            data = gzip.compress(member) if path.name.endswith(".gz") else member
            f.write(data[:len(data) // 2] if i == cut else data)
    return path


def pages() -> list[tuple[str, bytes]]:
    found = [(f"https://fixtures.example/{p.parent.name}/", p.read_bytes()) for p in FIXTURE_PAGES]
    if CLEANEVAL.is_dir():
        found += [(f"https://cleaneval.example/{p.stem}", p.read_bytes())
                  for p in sorted(CLEANEVAL.glob("*.html"))[:CLEANEVAL_PAGES]]
    return found


def crawl_members(pages: list[tuple[str, bytes]]) -> list[bytes]:
    """A request and a response per page, with a warcinfo record, a PNG and a 404."""
    members = [warc_record("warcinfo", "", b"software: pith tests\r\n", "application/warc-fields")]
    for i, (uri, body) in enumerate(pages):
        members += [request(uri), response(uri, body)]
        if i == 2:
            members.append(response(uri + "logo.png", b"\x89PNG\r\n\x1a\n" + bytes(64), "image/png"))
            members.append(response(uri + "gone", b"<html>gone</html>", status="404 Not Found"))
    return members


@pytest.fixture(scope="module")
def inputs(tmp_path_factory) -> list[str]:
    """Two WARC files (gzip members with one cut short; plain) and a folder with an HTML
    file, a text file and a WARC file in a subfolder."""
    root = tmp_path_factory.mktemp("crawl")
    found = pages()
    half = len(found) // 2
    members = crawl_members(found[:half])
    first = write_warc(root / "a.warc.gz", members, cut=len(members) // 2)
    second = write_warc(root / "b.warc", crawl_members(found[half:]))
    folder = root / "folder"
    (folder / "sub").mkdir(parents=True)
    (folder / "page.html").write_bytes(found[0][1])
    (folder / "notes.txt").write_text("not a page")
    write_warc(folder / "sub" / "c.warc.gz", crawl_members(found[:3]))
    return [str(first), str(second), str(folder)]


@pytest.fixture(scope="module")
def address():
    """A LocalCluster of 2 worker processes, started the way run()'s docs ask of a cluster
    started elsewhere (non-daemonic workers)."""
    with dask.config.set({cluster.DAEMON_KEY: False}), \
            LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                         dashboard_address=cluster.DASHBOARD_ADDRESS) as local:
        yield local.scheduler_address


def without_timings(rows: list[dict]) -> list[dict]:
    return [{k: v for k, v in row.items() if k != "timings"} for row in rows]


def counts(summary: pith.batch.Summary) -> dict:
    return {k: v for k, v in summary.as_dict().items() if k != "seconds"}


# ------------------------------------------------------------------------------- tests
@pytest.mark.parametrize("slice_bytes", [cluster.WARC_SLICE_BYTES, 16 << 10],
                         ids=["whole-files", "16kB-slices"])
def test_rows_and_counts_on_the_cluster_equal_the_single_process_run(inputs, address,
                                                                     slice_bytes, monkeypatch):
    """Also with the gzipped files cut into byte slices (the one with a member cut short
    among them): rows, order and counts are the same."""
    monkeypatch.setattr(cluster, "WARC_SLICE_BYTES", slice_bytes)
    sliced = sum(len(part) == 1 and isinstance(part[0], records.Slice)
                 for part in cluster.partitions(inputs, records.Tally()))
    assert (sliced > 4) == (slice_bytes < cluster.WARC_SLICE_BYTES)
    alone, spread = pith.batch.Summary(), pith.batch.Summary()
    expected = list(pith.batch.extract(inputs, jobs=1, summary=alone))
    got = []
    for row in cluster.run(inputs, scheduler=address, tally=spread.tally):
        spread.add(row)
        got.append(row)
    assert without_timings(got) == without_timings(expected)
    assert counts(spread) == counts(alone)
    d = counts(spread)
    # what the files hold, so that equal counts mean something
    assert d["skipped"]["not_response"] > 0 and d["skipped"]["not_html"] >= 2
    assert d["skipped"]["http_status"] >= 2 and d["damaged"] >= 1 and d["extracted"] > 10


def test_a_bag_of_rows_from_paths_or_from_a_bag_of_paths(inputs, address):
    expected = without_timings(list(pith.batch.extract(inputs, jobs=1)))
    with Client(address):
        bag = cluster.extract_bag(inputs)
        assert bag.npartitions == 4          # a.warc.gz, b.warc, page.html, c.warc.gz
        assert without_timings(bag.compute()) == expected
        given = dask.bag.from_sequence(inputs, npartitions=2)
        assert without_timings(cluster.extract_bag(given).compute()) == expected


def test_a_page_over_its_time_limit_is_a_timeout_row_on_the_cluster(tmp_path, address):
    slow = ("<html><head><title>slow</title></head><body>"
            + "<div><p>word word</p></div>" * SLOW_BLOCKS + "</body></html>").encode()
    found = pages()[:3]
    members = [response(u, b) for u, b in found[:2]]
    members.append(response("https://slow.example/", slow))
    members.append(response(*found[2]))
    path = str(write_warc(tmp_path / "slow.warc.gz", members))
    limits = pool.Limits(time_s=SLOW_LIMIT_S)
    got = list(cluster.run([path], limits=limits, scheduler=address))
    assert [row["status"] for row in got] == ["ok", "ok", "timeout", "ok"]
    assert got[2]["error"]["name"] == "page_time_limit"
    expected = list(pith.batch.extract([path], jobs=1, time_s=SLOW_LIMIT_S))
    assert without_timings(got) == without_timings(expected)


def test_run_starts_and_closes_a_local_cluster_of_its_own(tmp_path):
    found = pages()[:4]
    path = str(write_warc(tmp_path / "own.warc", [response(u, b) for u, b in found]))
    got = list(cluster.run([path], n_workers=1))
    assert without_timings(got) == without_timings(list(pith.batch.extract([path], jobs=1)))


def test_the_local_cluster_started_here_runs_its_workers_without_the_profiler():
    """The cluster run() starts: non-daemonic workers, each without Dask's statistical
    profiler (the config reaches the worker processes, not only this one)."""
    before = dask.config.get(cluster.PROFILE_KEY)
    with cluster._client(None, 1) as client:
        settings = client.run(lambda: (dask.config.get(cluster.PROFILE_KEY),
                                       dask.config.get(cluster.DAEMON_KEY)))
    assert list(settings.values()) == [(False, False)]
    assert dask.config.get(cluster.PROFILE_KEY) == before   # this process's config is as it was


def test_daemonic_workers_are_refused_with_the_fix(tmp_path):
    """Dask's default: nanny-started workers are daemonic and cannot start the guarded
    worker process; run says so before any task, naming the setting that fixes it."""
    path = str(write_warc(tmp_path / "one.warc", [response(*pages()[0])]))
    with dask.config.set({cluster.DAEMON_KEY: True}), \
            LocalCluster(n_workers=1, threads_per_worker=1, processes=True,
                         dashboard_address=cluster.DASHBOARD_ADDRESS) as local:
        with pytest.raises(ClusterWorkersDaemonic, match="DASK_DISTRIBUTED__WORKER__DAEMON=False"):
            list(cluster.run([path], scheduler=local.scheduler_address))


def test_partitions_keep_input_order_and_count_what_folders_skip(tmp_path):
    folder = tmp_path / "site"
    (folder / "b").mkdir(parents=True)
    for i in range(cluster.FILES_PER_PARTITION + 5):
        (folder / f"p{i:04d}.html").write_text("<p>x</p>")
    (folder / "b" / "x.warc.gz").write_bytes(b"")
    (folder / "b" / "y.htm").write_text("<p>y</p>")
    (folder / "style.css").write_text("p {}")
    tally = records.Tally()
    stdin = io.StringIO("# a list\n\nhttps://example.com/\n")
    parts = list(cluster.partitions([str(folder), "-"], tally, stdin))
    names = [[Path(t).name for t in part] for part in parts]
    assert [len(part) for part in parts] == [cluster.FILES_PER_PARTITION, 5, 1, 2]
    assert names[2] == ["x.warc.gz"] and names[3] == ["y.htm", "example.com"]
    assert tally.skipped == {"not_html": 1}
    # the same files, in the same order, as the single-process reader finds them (the
    # empty WARC file gives it no record)
    flat = [t for part in parts for t in part if not t.endswith(".warc.gz")]
    stdin = io.StringIO("# a list\n\nhttps://example.com/\n")
    sources = [r.source for r in records.records([str(folder), "-"], records.Tally(), stdin)]
    assert flat == sources


def test_job_options_reach_the_workers(inputs, address):
    job = work.Job(extra=("markdown",))
    got = list(cluster.run(inputs[1:2], job=job, scheduler=address))
    assert all(row["markdown"] is not None for row in got if row["status"] == "ok")
    expected = list(pith.batch.extract(inputs[1:2], jobs=1, extra=["markdown"]))
    assert without_timings(got) == without_timings(expected)


def test_only_a_few_partitions_are_in_flight(tmp_path, address):
    """Ten WARC files are ten partitions; while the first one's rows are being given out,
    the scheduler holds at most AHEAD_PER_SLOT per worker thread (2 threads here)."""
    page = pages()[0]
    paths = [str(write_warc(tmp_path / f"{i}.warc", [response(*page)])) for i in range(10)]
    rows = cluster.run(paths, scheduler=address)
    next(rows)
    with Client(address) as client:
        held = client.run_on_scheduler(lambda dask_scheduler: len(dask_scheduler.tasks))
    assert 1 <= held <= cluster.AHEAD_PER_SLOT * 2
    assert len(list(rows)) == 9


def test_page_processes_do_not_inherit_the_nannys_malloc_trimming(tmp_path, address):
    """Dask's nanny sets MALLOC_TRIM_THRESHOLD_ for its worker; a worker that has run a
    partition has it out of the environment its page processes start with."""
    assert "MALLOC_TRIM_THRESHOLD_" in dask.config.get("distributed.nanny.pre-spawn-environ")
    page = str(FIXTURE_PAGES[0])
    with Client(address) as client:
        worker = next(iter(client.nthreads()))
        rows = client.submit(cluster._partition, [page], work.Job(), pool.Limits(),
                             workers=[worker], pure=False).result()[0]
        assert rows[0]["status"] == "ok"
        setting = client.run(lambda: os.environ.get("MALLOC_TRIM_THRESHOLD_"), workers=[worker])
        assert setting[worker] is None
