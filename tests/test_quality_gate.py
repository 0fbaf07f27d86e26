"""Quality gate: no method may fall below its pinned F1 floor on the fixed dataset slice."""
import json

import pytest

import quality_gate as gate

# Every method over the shared datasets: minutes of CPU (make test runs it).
pytestmark = pytest.mark.slow

RECORD = json.loads(gate.FLOORS.read_text())
HAVE_SHARED = all((d / "index.jsonl").is_file() for d in gate.dataset_dirs())
needs_shared = pytest.mark.skipif(not HAVE_SHARED, reason="../shared/datasets is absent")


def test_every_lowering_of_a_floor_has_a_reason():
    for change in RECORD["history"]:
        assert change["reason"].strip(), change
    assert RECORD["pages_per_dataset"] == gate.PAGES_PER_DATASET


def test_every_method_and_dataset_has_a_floor():
    assert set(RECORD["floors"]) == set(gate.DATASETS)
    for dataset, floors in RECORD["floors"].items():
        assert set(floors) == set(gate.ALGORITHMS), dataset


@pytest.fixture(scope="module")
def slice_unchanged():
    if gate.digest(gate.dataset_dirs()) != RECORD["digest"]:
        pytest.fail("the dataset slice changed (corpus digest differs): re-pin the floors with "
                    "`python tests/quality_gate.py --update --reason ...` after checking why")


@needs_shared
@pytest.mark.parametrize("dataset", gate.DATASETS)
def test_no_method_falls_below_its_floor(slice_unchanged, dataset):
    """Each dataset measured by its own test: the three can run on different workers
    without one of them measuring all three again (a module fixture would, on each worker
    that gets one of them)."""
    figures = gate.measure([d for d in gate.dataset_dirs() if d.name == dataset])[dataset]
    floors = RECORD["floors"][dataset]
    below = {m: (f, floors[m]) for m, f in figures.items() if f < floors[m]}
    assert not below, f"{dataset}: F1 below the pinned floor (measured, floor): {below}"
