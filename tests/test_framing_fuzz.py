"""Fuzz, short run (fixed seed): the framing layer on random and near-limit byte streams.

The target and its property are tests/fuzz_cases.py's; `make fuzz` runs the long one.
"""
import pytest
from hypothesis import HealthCheck, given, settings

import fuzz_cases

# A few seconds in `make test`; derandomized, so the same cases every run.
SHORT = settings(derandomize=True, database=None, max_examples=400, deadline=1000,
                 suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


@pytest.mark.slow     # hundreds of cases: make test runs it
@SHORT
@given(fuzz_cases.frame_streams())
def test_any_byte_stream_reads_as_frames_or_stable_errors(case):
    fuzz_cases.check_framing(case)
