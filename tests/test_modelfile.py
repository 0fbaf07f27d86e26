"""Tests of pipeline/modelfile.py: every model loader reports a file it cannot use as model_unreadable (42), naming the file and the command that rebuilds it."""
from __future__ import annotations

import pytest

from pith.errors import ModelUnreadable
from pith.pipeline import modelfile, pagetype
from pith.pipeline.algorithms import clg
from pith.pipeline.blocks import keep


def write(tmp_path, text: str):
    path = tmp_path / "model.json"
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize("text, says", [
    (None, "No such file"), ("{not json", "cannot be read"), ("[1, 2]", "not a JSON object"),
    ('{"other": 1}', "KeyError"), ('{"models": 3}', "AttributeError"),
    ('{"models": {"a": 3}}', "TypeError")])
def test_a_file_no_loader_can_use_is_one_error_with_its_path_and_remedy(tmp_path, text, says):
    path = tmp_path / "model.json" if text is None else write(tmp_path, text)
    build = lambda obj: {k: dict(v) for k, v in obj["models"].items()}   # noqa: E731
    with pytest.raises(ModelUnreadable) as caught:
        modelfile.load(path, "test model", "pith train-test", build)
    exc = caught.value
    assert exc.code == 42 and exc.name == "model_unreadable"
    assert str(path) in exc.message and "`pith train-test`" in exc.message and says in exc.message
    assert exc.detail == {"path": str(path)}


def test_a_good_file_is_what_build_makes_of_it(tmp_path):
    path = write(tmp_path, '{"models": {"a": {"w": [1, 2]}}}')
    assert modelfile.load(path, "m", "x", lambda obj: obj["models"]["a"]["w"]) == [1, 2]
    assert modelfile.check_features(["a", "b"], ["b", "a", "c"], "m", "x") is None


def test_features_the_host_does_not_compute_are_named():
    with pytest.raises(ModelUnreadable, match="reads features this host does not compute: z, y"):
        modelfile.check_features(["a", "z", "y"], ["a", "b"], "m", "pith train-m")


@pytest.mark.parametrize("loader, remedy", [
    (lambda p: clg.load_models.__wrapped__(str(p)), "pith train"),
    (lambda p: keep.load_models.__wrapped__(str(p)), "pith train-blocks"),
    (lambda p: pagetype.load.__wrapped__(p), "pith train-pagetype")])
@pytest.mark.parametrize("text", ["{not json", "{}", '{"models": {}, "rendered": {}, "static": {}, "features": []}'])
def test_each_models_loader_reports_a_broken_file_as_model_unreadable(tmp_path, loader, remedy, text):
    path = write(tmp_path, text)
    try:
        result = loader(path)
    except ModelUnreadable as exc:
        assert f"`{remedy}`" in exc.message
    else:                                   # CLG's empty table of models is a model of nothing
        assert text.startswith('{"models"') and result == {}


def test_the_shipped_models_load():
    assert set(clg.load_models()) == {"rendered", "static"}
    assert set(keep.load_models()) == {"rendered", "static"}
    assert pagetype.load() is not None
