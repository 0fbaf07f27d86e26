"""Fuzz, short run (fixed seed): `pith extract --static` on mutated HTML, in process.

The target and its property are tests/fuzz_cases.py's; `make fuzz` runs the long one.
"""
import pytest
from hypothesis import HealthCheck, given, settings

import fuzz_cases

SHORT = settings(derandomize=True, database=None, max_examples=80, deadline=1000,
                 suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                        HealthCheck.function_scoped_fixture])


@pytest.fixture(scope="module")
def extract(tmp_path_factory):
    fuzz_cases.seeded_selection()        # load the pipeline and models outside the clock
    extractor = fuzz_cases.StaticExtractor(tmp_path_factory.mktemp("static-fuzz"))
    for fmt in ("text", "markdown", "html", "json"):   # and every renderer's first import
        extractor((fuzz_cases.seed_html("reader"), fmt))
    return extractor


@pytest.mark.slow     # hundreds of cases: make test runs it
@SHORT
@given(case=fuzz_cases.html_mutations())
def test_any_mutated_page_extracts_or_fails_with_a_stable_code(extract, case):
    extract(case)
