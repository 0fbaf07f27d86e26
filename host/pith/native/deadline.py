"""The time limit of one host request: a timer signal cuts off work that runs past it.

Mechanism, and why: the host runs each request in its one main thread, and a slow
algorithm on a crafted snapshot is a long numpy or Python computation with no place of
its own to stop. A worker thread cannot be stopped in Python; a worker process would have
to send back the selection that `grow` and `shrink` reuse (a whole page's arrays) and
would double the memory of a large page. So `within` arms a real-time interval timer
(`signal.setitimer`); when it fires, its handler raises RequestTooSlow in the main thread
at the next bytecode, which unwinds the request like any other error: nothing of it is
kept (a select that did not finish is never cached) and the host reads the next frame.
A numpy call is not interrupted inside C, so the cut comes at the end of the call that
was running (tens of milliseconds on a 1,000,000-element page). The timer fires again
every REPEAT_S until disarmed, so a broad `except Exception` that swallowed the first
signal cannot keep the request running.

Where the timer signal is not available (Windows) or the caller is not the main thread
(signal handlers can only be set there), requests run without a limit; the extension's
own time limit (extension/background/native-host.js) still stops a host that hangs.
"""
from __future__ import annotations

import contextlib
import signal
import threading
from typing import Iterator

from ..errors import PithError, RequestTooSlow

# After the deadline, the timer fires again this often until the request has unwound.
REPEAT_S = 0.1


def available() -> bool:
    """Whether a limit can be enforced here: a POSIX timer signal, on the main thread."""
    return (hasattr(signal, "setitimer")
            and threading.current_thread() is threading.main_thread())


@contextlib.contextmanager
def within(limit_ms: int | None, what: str, option: str = "max_request_ms",
           error: type[PithError] = RequestTooSlow) -> Iterator[None]:
    """Run the body under a limit of `limit_ms` ms (None: no limit); `error` (naming
    `what` and the `option` that sets the limit) if it is still running then. The CLI's
    single-page mode uses it too, with PageTimeLimit."""
    if limit_ms is None or not available():
        yield
        return
    whose = "the host's limit" if error is RequestTooSlow else "the limit"

    def on_timer(signum, frame):
        raise error(f"{what} took longer than {whose} of {limit_ms} ms "
                    f"(option {option}); it was stopped", limit_ms=limit_ms, action=what)

    previous = signal.signal(signal.SIGALRM, on_timer)
    try:
        signal.setitimer(signal.ITIMER_REAL, limit_ms / 1000, REPEAT_S)
        yield
    finally:
        try:
            signal.setitimer(signal.ITIMER_REAL, 0)
        finally:  # even if the timer fired between the body's end and the line above
            signal.signal(signal.SIGALRM, previous)
