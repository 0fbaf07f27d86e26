"""Batch extraction on a Dask cluster: a bag of rows, and rows in input order from a scheduler.

Dask distributes, Pith guards: a Dask task is a partition of the input, a WARC file or a
run of HTML files, and it runs that partition's records through the same guarded worker
process as `pith.batch.extract` (pool.py: each page under its time and memory limit; one
such process per Dask worker thread, kept from task to task), so a page that runs away
costs its limit on the cluster too, and every row is the row the single-process run
gives (the `timings` aside).

  - `extract_bag(paths)` is a dask.bag.Bag of rows, one partition per WARC_SLICE_BYTES of
    a WARC file (or per run of FILES_PER_PARTITION HTML files), for pipelines that go on in Dask
    (`.to_dataframe()`, `.map(...)`). Given a Bag of paths instead, its partitions are
    kept as they are. A bag has rows only: what was skipped without a row (non-HTML WARC
    records, other files in folders) is counted by `run`.
  - `run(paths, ...)` connects to a scheduler (or starts a LocalCluster), yields the rows
    in input order and counts what was skipped in a records.Tally (the caller adds the
    rows to its Summary, as with pool.run). At most AHEAD_PER_SLOT partitions per
    worker thread are submitted at a time: finished partitions wait on their workers, the
    client holds the rows of one partition, so a crawl of any size runs in bounded
    memory.

Inputs are expanded on the client the way records.py does (folders walked in sorted
order, `-` read from stdin) so that a folder of WARC files spreads over the cluster.
The workers open each path as it is given, and rows name it so: on a cluster of other
machines, give absolute paths on a filesystem they share.

Worker processes: a Dask worker started by a nanny is a daemonic process by default, and
a daemonic process may not start the process that runs the pages. The LocalCluster
started here sets `distributed.worker.daemon` to False. Workers of a cluster started
elsewhere must be started the same way (`DASK_DISTRIBUTED__WORKER__DAEMON=False dask
worker ADDRESS`, or `dask worker --no-nanny ADDRESS`); otherwise `run` stops before the
first task with an error naming this fix. Pages are never run unguarded instead: one
stuck page would hold its Dask worker for ever. The LocalCluster also turns off each
worker's statistical profiler (PROFILE_KEY), which costs CPU and sees only a thread
waiting on its page process.

Dask is the optional extra `cluster` (`pip install pith[cluster]`); it is imported when
a function here is called.
"""
from __future__ import annotations

import contextlib
import multiprocessing
import os
import sys
import threading
from collections import deque
from typing import IO, Any, Iterable, Iterator

from . import pool, records, warc, work
from ..errors import ClusterWorkersDaemonic
from ..pages.inputs import is_url, local_path

# HTML files (or URLs) in one partition: a partition should be a second or two of work
# (pages take 5-20 ms each), so the cost of a task (round trips to the scheduler, its rows
# pickled) stays small and the client holds few rows.
FILES_PER_PARTITION = 128
# Bytes of a gzipped WARC file in one partition (warc.slices): about 150 HTML records of
# a crawl (25-35 kB a record with its request), the same second or two of work. Whole
# files were partitions before: one 1 GB Common Crawl file kept one worker busy and held
# its 40,000 rows at once, and the benchmark crawl's 8 files (17 to 68 MB) left one of 2
# workers idle for the last eighth of the run. Files that cannot be split stay whole.
WARC_SLICE_BYTES = 4 << 20
# Partitions submitted ahead of the one being given out, per worker thread: one running
# and one waiting, so no thread idles between tasks, while the rows of finished
# partitions wait on the workers, not in the client.
AHEAD_PER_SLOT = 2
# The LocalCluster's HTTP port (its scheduler serves one even without a dashboard): any
# free one, since several runs may share a machine and a fixed port would clash.
DASHBOARD_ADDRESS = ":0"
# Seconds to wait for a scheduler given by address, and for its first worker, before
# giving up: a cluster that is starting up needs a few seconds, one that is down never comes.
CONNECT_TIMEOUT_S = 30
# Dask config key that makes nanny-started workers non-daemonic (see the module).
DAEMON_KEY = "distributed.worker.daemon"
# Dask config key of each worker's statistical profiler (a thread that reads every thread's
# stack every 10 ms, for the dashboard). A Pith task spends its time waiting on the page
# process, so the profile says nothing, and off it cost the run less: 10,000 WARC records
# on a 2-worker LocalCluster took 67.6, 68.7 and 70.3 s with it off, 70.6 to 78.1 s (five
# runs) with it on. The LocalCluster started here turns it off.
PROFILE_KEY = "distributed.worker.profile.enabled"
# Environment a Dask nanny gives its worker (distributed.nanny.pre-spawn-environ) that the
# page processes must not inherit: with MALLOC_TRIM_THRESHOLD_=65536 glibc hands memory
# back to the system after nearly every page, and the pages took 18 % more CPU (34.4 s
# against 28.7 s for 2,000 WARC records). The Dask worker read it when it started; taking
# it out of the environment changes only the processes started after.
NOT_INHERITED = ("MALLOC_TRIM_THRESHOLD_",)
DAEMONIC_WORKERS = (
    "the Dask workers are daemonic processes, which may not start the process that runs "
    "each page under its time and memory limit; start them with "
    "DASK_DISTRIBUTED__WORKER__DAEMON=False (or `dask worker --no-nanny`)")


# ------------------------------------------------------------------------------ the API
def extract_bag(paths: "Iterable[str] | Any", job: work.Job = work.Job(),
                limits: pool.Limits = pool.Limits()) -> "Any":
    """A dask.bag.Bag of rows (work.ROW_FIELDS) for `paths` (files, folders, WARC files,
    URLs; or a Bag of them, whose partitions are kept)."""
    import dask
    import dask.bag

    if isinstance(paths, dask.bag.Bag):
        return paths.map_partitions(_rows, job, limits)
    parts = list(partitions(paths, records.Tally()))
    return dask.bag.from_delayed([dask.delayed(_rows)(targets, job, limits)
                                  for targets in parts])


def run(paths: Iterable[str], job: work.Job = work.Job(),
        limits: pool.Limits = pool.Limits(), scheduler: str | None = None,
        n_workers: int | None = None, tally: records.Tally | None = None,
        stdin: IO[str] | None = None) -> Iterator[dict[str, Any]]:
    """The rows of `paths` in input order, computed on the Dask cluster at `scheduler`
    (an address, tcp://host:8786) or on a LocalCluster of `n_workers` processes (default:
    every core) started here and closed at the end. What was skipped without a row is
    counted in `tally`, as records.records counts it (pool.run's rows with
    records.records' tally, on a cluster)."""
    tally = tally if tally is not None else records.Tally()
    with _client(scheduler, n_workers) as client:
        slots = _check_workers(client)
        stream = partitions(paths, tally, stdin)
        ahead: deque = deque()

        def submit() -> None:
            targets = next(stream, None)
            if targets is not None:
                ahead.append(client.submit(_partition, targets, job, limits, pure=False))

        for _ in range(AHEAD_PER_SLOT * slots):
            submit()
        while ahead:
            future = ahead.popleft()
            rows, skipped = future.result()
            future.release()
            submit()
            tally.skipped.update(skipped.skipped)
            yield from rows


def partitions(inputs: Iterable[str], tally: records.Tally,
               stdin: IO[str] | None = None) -> Iterator[list[str]]:
    """The inputs as partitions, in input order: each WARC file alone, or each of its
    slices of WARC_SLICE_BYTES (records.Slice); other targets (HTML files, URLs, missing
    paths) in runs of at most FILES_PER_PARTITION. Folders are walked as records.py walks
    them, and the files they skip are counted in `tally`. The client reads a WARC file's
    size and first bytes to slice it; a file it cannot open is one partition, for the
    worker to read or report."""
    files: list[str | records.Slice] = []
    for target in records.targets(inputs, tally, stdin):
        if warc.is_warc(target) and not is_url(target):
            if files:
                yield files
                files = []
            yield from ([part] for part in _slices(target))
        else:
            files.append(target)
            if len(files) >= FILES_PER_PARTITION:
                yield files
                files = []
    if files:
        yield files


def _slices(target: str) -> list[str | records.Slice]:
    """[target], or its slices when it is a WARC file this client can read and split."""
    path = local_path(target)
    try:
        ranges = warc.slices(path, WARC_SLICE_BYTES) if path is not None else [(0, None)]
    except OSError:
        return [target]
    if len(ranges) == 1:
        return [target]
    return [records.Slice(str(path), start, end) for start, end in ranges]


# ------------------------------------------------------------------- on the Dask worker
def _partition(targets: list[str | records.Slice], job: work.Job,
               limits: pool.Limits) -> tuple[list[dict[str, Any]], records.Tally]:
    """One task: the rows of `targets`' records, each page guarded, and what was skipped."""
    tally = records.Tally()
    return _rows(targets, job, limits, tally), tally


def _rows(targets: Iterable[str | records.Slice], job: work.Job, limits: pool.Limits,
          tally: records.Tally | None = None) -> list[dict[str, Any]]:
    if _is_daemon():
        raise ClusterWorkersDaemonic(DAEMONIC_WORKERS)
    stream = records.records(list(targets), tally if tally is not None else records.Tally())
    guarded = _pool_of_this_thread(job, limits)
    try:
        return list(guarded.rows(stream, ordered=True))
    except BaseException:
        _held.pool = None
        guarded.__exit__(*sys.exc_info())
        raise


# The guarded pool of each Dask worker thread, kept from task to task: starting one costs
# a Dask task 60 ms, and 250 ms when the client's main script imports Dask (the pool's
# process imports that script again), against ~2 s for a partition of HTML files. One
# process per thread: a worker of N threads runs N pages at a time, as Dask asks of it.
# Its process ends with the Dask worker (its pipes close).
_held = threading.local()


def _pool_of_this_thread(job: work.Job, limits: pool.Limits) -> "pool.Pool":
    held = getattr(_held, "pool", None)
    if held is not None and (held.job, held.limits) != (job, limits):
        held.__exit__(None, None, None)
        held = None
    if held is None:
        for name in NOT_INHERITED:
            os.environ.pop(name, None)
        held = _held.pool = pool.Pool(job, 1, limits).__enter__()
    return held


def _is_daemon() -> bool:
    return multiprocessing.current_process().daemon


# -------------------------------------------------------------------------- the client
@contextlib.contextmanager
def _client(scheduler: str | None, n_workers: int | None) -> "Iterator[Any]":
    """A distributed.Client of the scheduler at `scheduler`, or of a LocalCluster started
    here; leaving closes the client and the cluster it started."""
    import dask
    from distributed import Client, LocalCluster

    if scheduler is not None:
        with Client(scheduler, timeout=CONNECT_TIMEOUT_S) as client:
            yield client
        return
    # The nanny reads the keys whenever it (re)starts a worker and hands its worker the
    # config: they stay set while the cluster lives.
    with dask.config.set({DAEMON_KEY: False, PROFILE_KEY: False}), \
            LocalCluster(n_workers=n_workers or pool.default_jobs(), threads_per_worker=1,
                         processes=True, dashboard_address=DASHBOARD_ADDRESS) as cluster, \
            Client(cluster) as client:
        yield client


def _check_workers(client) -> int:
    """How many tasks `client`'s cluster runs at a time (its workers' threads); an error
    naming the fix when its workers are daemonic (checked before any task: a task would
    fail on each of them)."""
    client.wait_for_workers(1, timeout=CONNECT_TIMEOUT_S)
    if any(client.run(_is_daemon).values()):
        raise ClusterWorkersDaemonic(DAEMONIC_WORKERS)
    return sum(client.nthreads().values())
