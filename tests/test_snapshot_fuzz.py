"""Fuzz, short run (fixed seed): snapshot validation and the pipeline on hostile captures.

The target and its property are tests/fuzz_cases.py's; `make fuzz` runs the long one.
"""
import pytest
from hypothesis import HealthCheck, given, settings

import fuzz_cases

SHORT = settings(derandomize=True, database=None, max_examples=150, deadline=1000,
                 suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def setup_module():
    fuzz_cases.seeded_selection()        # load the pipeline and models outside the clock


@pytest.mark.slow     # hundreds of cases: make test runs it
@SHORT
@given(fuzz_cases.snapshot_mutations())
def test_any_mutated_capture_validates_or_is_refused_with_a_stable_code(snapshot):
    fuzz_cases.check_snapshot(snapshot)
