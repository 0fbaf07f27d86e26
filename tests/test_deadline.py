"""The request time limit: a timer signal cuts off work that runs past it (deadline.py)."""
import signal
import threading
import time

import pytest

from pith.native import deadline
from pith.errors import RequestTooSlow


def busy(seconds: float) -> None:
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        pass


def test_work_past_the_limit_is_cut_off_near_the_limit():
    started = time.perf_counter()
    with pytest.raises(RequestTooSlow) as caught:
        with deadline.within(100, "select"):
            busy(5)
    elapsed = time.perf_counter() - started
    assert 0.09 < elapsed < 1.0
    assert caught.value.code == 70 and caught.value.detail == {"limit_ms": 100, "action": "select"}


def test_work_within_the_limit_is_untouched_and_the_timer_is_disarmed():
    before = signal.getsignal(signal.SIGALRM)
    with deadline.within(300, "grow"):
        busy(0.01)
    assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)
    assert signal.getsignal(signal.SIGALRM) is before
    busy(0.4)                       # no late alarm once the body has finished


def test_the_handler_is_restored_after_a_cut():
    before = signal.getsignal(signal.SIGALRM)
    with pytest.raises(RequestTooSlow):
        with deadline.within(100, "shrink"):
            busy(2)
    assert signal.getsignal(signal.SIGALRM) is before
    assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)


def test_no_limit_means_no_timer():
    with deadline.within(None, "select"):
        assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)


def test_off_the_main_thread_there_is_no_limit_and_no_error():
    seen = []

    def work():
        seen.append(deadline.available())
        with deadline.within(100, "select"):
            busy(0.3)
        seen.append("done")

    t = threading.Thread(target=work)
    t.start()
    t.join()
    assert seen == [False, "done"]


def test_the_error_names_the_option_that_sets_the_limit():
    with pytest.raises(RequestTooSlow, match="option max_grow_ms"):
        with deadline.within(100, "grow", "max_grow_ms"):
            busy(2)
