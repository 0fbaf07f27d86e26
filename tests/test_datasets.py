"""The shared datasets as bench and training read them: the by-site split, the listing, the snapshot cache."""
import json

from pith.measure import datasets
from test_train import write_dataset


def test_site_is_the_host_without_www_or_the_page_id():
    assert datasets.site_of({"id": "1", "url": "https://www.Example.org/a?b"}) == "example.org"
    assert datasets.site_of({"id": "1", "url": "http://example.org:8080/"}) == "example.org"
    assert datasets.site_of({"id": "7", "dataset": "readability"}) == "readability/7"


def test_split_never_puts_a_site_on_both_sides(tmp_path):
    pages = [{"id": f"{i}", "url": f"https://{'www.' if i % 2 else ''}site{i % 7}.org/{i}",
              "html": "<p>x</p>", "truth": "x"} for i in range(60)]
    split = datasets.make_split([write_dataset(tmp_path, pages)])
    sides: dict[str, set] = {}
    for p in pages:
        sides.setdefault(datasets.site_of(p), set()).add(split["pages"]["tiny"][p["id"]])
    assert all(len(s) == 1 for s in sides.values())
    assert split["counts"]["tiny"]["train"] + split["counts"]["tiny"]["validation"] == 60


def test_the_shipped_split_is_the_rule_applied_to_its_sites():
    split = datasets.load_split()
    assert split["pages"], "models/clg-split.json lists no page"
    for name, ids in split["pages"].items():
        assert set(ids.values()) <= {"train", "validation"}, name


def test_the_shipped_split_holds_every_shared_dataset_by_the_rule():
    """bench --split reads the file: a dataset missing from it has no validation side."""
    import pytest
    shared = datasets.shared_dir() / "datasets"
    if not shared.is_dir():
        pytest.skip("../shared/datasets is absent")
    split = datasets.load_split()
    for d in datasets.all_datasets():
        lines = [json.loads(x) for x in (d / "index.jsonl").read_text().splitlines() if x.strip()]
        name = lines[0].get("dataset", d.name)
        assert name in split["pages"], name
        assert split["pages"][name] == {
            e["id"]: datasets.side_of(datasets.site_of({**e, "dataset": name})) for e in lines}


def test_load_split_names_the_missing_file(tmp_path):
    try:
        datasets.load_split(tmp_path / "none.json")
    except datasets.PithError as exc:
        assert "none.json" in str(exc) and "pith train" in str(exc)
    else:
        raise AssertionError("a missing split file must be an error")


def test_all_datasets_lists_only_folders_with_an_index(tmp_path, monkeypatch):
    write_dataset(tmp_path / "datasets", [{"id": "1", "html": "<p>x</p>", "truth": "x"}], "b")
    write_dataset(tmp_path / "datasets", [{"id": "1", "html": "<p>x</p>", "truth": "x"}], "a")
    (tmp_path / "datasets" / "notes").mkdir()
    monkeypatch.setenv("PITH_SHARED", str(tmp_path))
    assert [p.name for p in datasets.all_datasets()] == ["a", "b"]


def test_cache_root_is_the_option_else_the_environment_else_the_repo(tmp_path, monkeypatch):
    monkeypatch.delenv("PITH_CACHE", raising=False)
    assert datasets.cache_root(None) == datasets.REPO / ".cache" / "snapshots"
    monkeypatch.setenv("PITH_CACHE", str(tmp_path / "env"))
    assert datasets.cache_root(None) == tmp_path / "env"
    assert datasets.cache_root(tmp_path / "given") == tmp_path / "given"


def test_cache_is_keyed_by_the_capture_script(tmp_path, monkeypatch):
    cache = datasets.SnapshotCache(tmp_path, "rendered")
    cache.put("ds", "p1", json.dumps({"v": 1}))
    assert cache.get("ds", "p1") == '{"v": 1}'
    other = tmp_path / "capture.js"
    other.write_text("// another capture script")
    monkeypatch.setattr(datasets, "CAPTURE_JS", other)
    assert datasets.SnapshotCache(tmp_path, "rendered").get("ds", "p1") is None


def test_the_cache_key_reads_the_capture_script_the_browser_injects():
    from pith.pages.browser import CAPTURE_JS
    assert datasets.CAPTURE_JS.resolve() == CAPTURE_JS.resolve()
    assert datasets.CAPTURE_JS.is_file()
