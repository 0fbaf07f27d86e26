"""Records → rows on N worker processes, each page under a time and a memory limit.

Why a pool of our own and not multiprocessing.Pool or concurrent.futures: both stop being
usable when one worker has to be killed, and killing is the only sure way to stop a page
stuck inside native code (the HTML parser, numpy). Here each worker is a process with a pipe:

  - the parent streams records in and sends each worker at most DEPTH of them, so at most
    jobs × DEPTH records are in flight and memory does not grow with the input;
  - a worker's first outstanding record is its current page; when it has run longer than
    `time_s`, the worker is killed, the page becomes a `page_time_limit` row (status
    timeout), a new worker starts and gets the worker's other records again. A page that
    runs away costs at most its limit (plus a new worker: about 60 ms here with the
    forkserver, models loaded on its first page);
  - each worker caps its own address space at its size after start-up plus `memory_bytes`
    (RLIMIT_AS, where the system has it): an allocation past it fails inside the page,
    which becomes a `page_memory_limit` row, and the worker is replaced;
  - a worker that dies (killed by the system, a crash in native code) costs its current
    page a `worker_crashed` row and is replaced the same way;
  - rows come out in input order (`ordered`: a reorder buffer of at most MAX_WAITING rows;
    when it is full no new record is read until the oldest page is done) or as they finish.

Workers start from a forkserver that has already imported the pipeline (spawn where the
system has no forkserver), and each numeric library is held to one thread: a worker is one
core's worth of work, so N workers use N cores without oversubscribing them.
"""
from __future__ import annotations

import heapq
import multiprocessing
import os
import threading
import time
from collections import deque
from queue import SimpleQueue
from dataclasses import dataclass
from multiprocessing.connection import wait
from multiprocessing.reduction import ForkingPickler
from typing import Any, Iterable, Iterator

from . import work
from .records import Record
from ..errors import InternalError, PageMemoryLimit, PageTimeLimit, WorkerCrashed

# Records sent ahead to one worker: the next page is already there when one finishes (no
# round trip between pages), and a killed worker has little to hand back.
DEPTH = 2
# Finished rows held back waiting for an older page (ordered output); past this many the
# reader pauses, so one slow page cannot make the buffer grow without bound.
MAX_WAITING = 512
# Per-page limits (options of the CLI: --page-timeout, --page-memory). Reasons: a page of
# a crawl takes milliseconds and the 1,000,000-element hostile page 3 s in the host, so
# 10 s passes every real page and stops a runaway one; 2 GiB is three times what that
# page needed (705 MB) and lets several workers share an ordinary machine.
PAGE_TIME_S = 10.0
PAGE_MEMORY_BYTES = 2 << 30
# How close to its memory cap a worker's peak must come for a failed page to count as
# out of memory: an allocation that fails asks for more than is left, so the peak stops
# short of the cap by up to that request; 64 MB covers a parser's buffer growth.
MEMORY_CAP_MARGIN = 64 << 20
# Workers that die before finishing a page, one after another, before the pool gives up:
# past this, something is wrong with every worker (it cannot start), not with a page.
MAX_CRASHES_IN_A_ROW = 8
# Bytes asked for each pipe that carries records to a worker (Linux F_SETPIPE_SZ; 1 MiB is
# the most an unprivileged process may ask for by default). A record that fits in its
# share of it (DEPTH + 1 shares: at most DEPTH unread records sit in the pipe) is written
# by the parent itself, without waking the sender thread: such a write cannot block.
PIPE_BYTES = 1 << 20
# Environment each worker's numeric libraries read at import: one thread each.
ONE_THREAD = {name: "1" for name in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS",
                                     "MKL_NUM_THREADS", "NUMEXPR_NUM_THREADS")}


@dataclass(frozen=True)
class Limits:
    time_s: float = PAGE_TIME_S
    memory_bytes: int | None = PAGE_MEMORY_BYTES   # None: no memory limit


def default_jobs() -> int:
    """The cores this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:        # not Linux
        return os.cpu_count() or 1


def run(records: Iterable[Record], job: work.Job, jobs: int | None = None,
        ordered: bool = True, limits: Limits = Limits()) -> Iterator[dict[str, Any]]:
    """The rows of `records` (work.extract on `jobs` worker processes, see the module)."""
    with Pool(job, jobs or default_jobs(), limits) as pool:
        yield from pool.rows(iter(records), ordered)


# ------------------------------------------------------------------------- the worker side
def _serve(inbox, outbox, job: work.Job, memory_bytes: int | None) -> None:
    """A worker's loop: (seq, record) in, (seq, row, retire) out, until None or the pipe
    closes. `retire`: the page reached the memory cap; this worker sends its row and ends
    (its peak size stays at the cap, and a heap that held a huge page is best dropped),
    and the parent starts a new one."""
    cap = _cap_memory(memory_bytes)
    while True:
        try:
            item = inbox.recv()
        except (EOFError, OSError):
            return
        if item is None:
            return
        seq, record = item
        try:
            row = work.extract(record, job)
        except MemoryError:
            row = None
        # Native code (the HTML parser) may report a failed allocation its own way ("unknown error"):
        # a failed page that took the process to its cap failed for want of memory.
        retire = cap is not None and _peak_size() >= cap - MEMORY_CAP_MARGIN
        if row is None or (retire and row["status"] == "failed"):
            cause = "" if row is None else f" ({row['error']['name']}: {row['error']['message']})"
            allowed = (f"the {memory_bytes / 2**20:,.0f} MB a page may use"
                       if memory_bytes is not None else "the memory this machine has")
            row = work.failed_row(record, PageMemoryLimit(
                f"{record.source}: needed more than {allowed}{cause}"))
        outbox.send((seq, row, retire))
        if retire:
            return


def _cap_memory(memory_bytes: int | None) -> int | None:
    """Cap this process's address space at its size now plus `memory_bytes`; the cap, or
    None where the system has no RLIMIT_AS or /proc (the time limit still holds there)."""
    if memory_bytes is None:
        return None
    try:
        import resource
        with open("/proc/self/statm") as f:
            size = int(f.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
    except (ImportError, OSError, ValueError):
        return None
    cap = size + memory_bytes
    resource.setrlimit(resource.RLIMIT_AS, (cap, resource.getrlimit(resource.RLIMIT_AS)[1]))
    return cap


def _peak_size() -> int:
    """The most address space this process has held (VmPeak), in bytes."""
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmPeak:"):
                return int(line.split()[1]) * 1024
    return 0


# ------------------------------------------------------------------------- the parent side
class _Worker:
    """One worker process, its two pipes and the records it holds, oldest (current) first.

    Records go out through a thread: a send blocks until the worker reads, and the worker
    reads its next record only when its current page is done, so the parent itself must
    never wait on it (it would stop watching the other workers' time). A record that fits
    in the pipe's free room is written by the parent directly (the common case: no thread
    hand-off per page), when nothing is waiting in the thread before it."""

    def __init__(self, ctx, job: work.Job, limits: Limits) -> None:
        self.conn, child_out = ctx.Pipe(duplex=False)       # rows: worker -> parent
        child_in, self._to_child = ctx.Pipe(duplex=False)   # records: parent -> worker
        self._direct_max = _pipe_bytes(self._to_child) // (DEPTH + 1)
        self.process = ctx.Process(target=_serve, args=(child_in, child_out, job,
                                                        limits.memory_bytes),
                                   daemon=True, name="pith-batch-worker")
        self.process.start()
        child_in.close()
        child_out.close()
        self.queue: deque[Record] = deque()
        self.started = 0.0                 # when the current page began
        self._outbox: SimpleQueue = SimpleQueue()
        self._handed = 0                   # messages given to the thread (parent's count)
        self._sent = 0                     # ... and written by it (the thread's count)
        self._pump = threading.Thread(target=self._send_all, daemon=True,
                                      name="pith-batch-send")
        self._pump.start()

    def _send_all(self) -> None:
        while True:
            message = self._outbox.get()
            if message is _CLOSE:
                return
            try:
                self._to_child.send_bytes(message)
            except (OSError, ValueError):   # the worker is gone (its pipe closed): the
                return                      # parent sees it die
            self._sent += 1

    def _post(self, message: bytes) -> None:
        """Write `message` to the worker: directly when it fits and the thread holds
        nothing before it (order is kept), else through the thread."""
        if self._handed == self._sent and len(message) <= self._direct_max:
            try:
                self._to_child.send_bytes(message)
            except (OSError, ValueError):   # the worker is gone: the parent sees it die
                pass
            return
        self._handed += 1
        self._outbox.put(message)

    def send(self, record: Record) -> None:
        if not self.queue:
            self.started = time.monotonic()
        self.queue.append(record)
        self._post(ForkingPickler.dumps((record.seq, record)))

    def stop(self, kill: bool = False) -> None:
        if kill:
            self.process.kill()
        else:
            self._post(ForkingPickler.dumps(None))   # the worker's "no more records"
        self._outbox.put(_CLOSE)
        self.process.join(timeout=5)
        if self.process.is_alive():
            self.process.kill()
            self.process.join()
        self._to_child.close()             # unblocks a send to a dead worker
        self._pump.join(timeout=5)
        self.conn.close()


def _pipe_bytes(conn) -> int:
    """The buffer size of `conn`'s pipe after asking for PIPE_BYTES; 0 where the system
    cannot tell (then every record goes through the sender thread)."""
    try:
        import fcntl
        fcntl.fcntl(conn.fileno(), fcntl.F_SETPIPE_SZ, PIPE_BYTES)
        return fcntl.fcntl(conn.fileno(), fcntl.F_GETPIPE_SZ)
    except (ImportError, AttributeError, OSError):   # not Linux, or over the system's limit
        return 0


# The sender thread's end mark (None is the worker's).
_CLOSE = object()


class Pool:
    """`jobs` guarded worker processes; rows() may run several streams one after another
    (cluster.py keeps one per Dask worker thread)."""
    def __init__(self, job: work.Job, jobs: int, limits: Limits) -> None:
        self.job, self.jobs, self.limits = job, max(1, jobs), limits
        self.workers: list[_Worker] = []
        self.crashes_in_a_row = 0

    def __enter__(self) -> "Pool":
        methods = multiprocessing.get_all_start_methods()
        for key, value in ONE_THREAD.items():
            os.environ.setdefault(key, value)
        if "forkserver" in methods:
            self.ctx = multiprocessing.get_context("forkserver")
            self.ctx.set_forkserver_preload(["pith.batch.work"])
        else:
            self.ctx = multiprocessing.get_context("spawn")
        self.workers = [_Worker(self.ctx, self.job, self.limits) for _ in range(self.jobs)]
        return self

    def __exit__(self, *exc) -> None:
        failed = exc[0] is not None
        for worker in self.workers:
            worker.stop(kill=failed)
        self.workers = []

    def rows(self, records: Iterator[Record], ordered: bool) -> Iterator[dict[str, Any]]:
        done: list[tuple[int, dict]] = []      # heap of (seq, row) not yet given out
        next_seq = 0
        exhausted = False
        while True:
            # 1. read records while a worker has room and the buffer is not full
            while not exhausted and len(done) < MAX_WAITING:
                worker = min(self.workers, key=lambda w: len(w.queue))
                if len(worker.queue) >= DEPTH:
                    break
                record = next(records, None)
                if record is None:
                    exhausted = True
                elif record.failure is not None:   # unreadable: its row needs no worker
                    heapq.heappush(done, (record.seq, work.extract(record, self.job)))
                else:
                    worker.send(record)
            busy = [w for w in self.workers if w.queue]
            if exhausted and not busy and not done:
                return
            # 2. collect finished pages; stop pages over their time
            if busy:
                now = time.monotonic()
                timeout = max(0.0, min(w.started + self.limits.time_s for w in busy) - now)
                ready = wait([w.conn for w in busy], timeout)
                for worker in busy:
                    if worker.conn in ready:
                        self._collect(worker, done)
                    elif time.monotonic() - worker.started >= self.limits.time_s:
                        self._replace(worker, done, PageTimeLimit(
                            f"{worker.queue[0].source}: still running after the "
                            f"{self.limits.time_s:g} s a page may take"), "timeout")
            # 3. give out what is ready
            # (with nothing in flight, every older record is done: give out in order)
            idle = not any(w.queue for w in self.workers)
            while done and (not ordered or done[0][0] == next_seq or idle):
                seq, row = heapq.heappop(done)
                next_seq = seq + 1
                yield row

    def _collect(self, worker: _Worker, done: list) -> None:
        try:
            seq, row, retire = worker.conn.recv()
        except (EOFError, OSError):
            worker.process.join(timeout=1)       # for its exit code
            self.crashes_in_a_row += 1
            if self.crashes_in_a_row > MAX_CRASHES_IN_A_ROW:
                raise InternalError(
                    f"batch workers die before finishing any page ({self.crashes_in_a_row} "
                    f"in a row, last exit code {worker.process.exitcode}); see the errors "
                    "above") from None
            self._replace(worker, done, WorkerCrashed(
                f"{worker.queue[0].source}: the worker process died on it (exit code "
                f"{worker.process.exitcode})" if worker.queue else "a worker died"), "failed")
            return
        worker.queue.popleft()
        worker.started = time.monotonic()
        self.crashes_in_a_row = 0
        heapq.heappush(done, (seq, row))
        if retire:
            self._respawn(worker)

    def _replace(self, worker: _Worker, done: list, error, status: str) -> None:
        """Kill `worker`, give its current page the row `error`, and hand its other
        records to a new worker in its place."""
        current = worker.queue.popleft()
        row = work.failed_row(current, error, status)
        row["timings"] = {"wall_ms": round((time.monotonic() - worker.started) * 1e3, 3)}
        heapq.heappush(done, (current.seq, row))
        self._respawn(worker)

    def _respawn(self, worker: _Worker) -> None:
        """A new worker in `worker`'s place, given the records `worker` still held."""
        worker.stop(kill=True)
        fresh = _Worker(self.ctx, self.job, self.limits)
        self.workers[self.workers.index(worker)] = fresh
        for record in worker.queue:
            fresh.send(record)
