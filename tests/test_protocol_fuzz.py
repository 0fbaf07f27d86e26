"""Fuzz, short run (fixed seed): every action with mutated envelope, fields and types.

The target and its property are tests/fuzz_cases.py's; `make fuzz` runs the long one.
"""
import pytest
from hypothesis import HealthCheck, given, settings

import fuzz_cases

SHORT = settings(derandomize=True, database=None, max_examples=150, deadline=1000,
                 suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def setup_module():
    fuzz_cases.seeded_selection()        # load the pipeline and models outside the clock
    for action in ("hello", "grow", "shrink", "clean"):   # and every action's first import
        fuzz_cases.check_protocol({"v": 1, "id": 1, "action": action, "doc": "d1", "node": 6}
                                  if action != "hello" else {"v": 1, "id": 1, "action": action})


@pytest.mark.slow     # hundreds of cases: make test runs it
@SHORT
@given(fuzz_cases.frames())
def test_any_request_gets_a_reply_frame_with_a_stable_code(case):
    fuzz_cases.check_protocol(case)
