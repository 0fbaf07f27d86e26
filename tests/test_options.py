"""Options: one validation point; unknown keys, wrong types and ranges are refused."""
import dataclasses

import pytest

from pith.errors import BadOptions
from pith.pipeline.options import Options


def test_defaults_and_overrides():
    assert Options.from_overrides(None) == Options()
    opts = Options.from_overrides({"cnr_top_fraction": 1, "candidates": 2,
                                   "cnr_non_content": ["IMG", "nav"]})
    assert opts.cnr_top_fraction == 1.0 and opts.candidates == 2
    assert opts.cnr_non_content == frozenset({"img", "nav"})
    with pytest.raises(dataclasses.FrozenInstanceError):
        opts.candidates = 3


@pytest.mark.parametrize("overrides,message", [
    ({"nope": 1}, "unknown option 'nope'"),
    ({"candidates": "3"}, "'candidates' must be an integer"),
    ({"candidates": True}, "'candidates' must be an integer"),
    ({"cnr_top_fraction": 1.5}, "between 0.0 and 1.0"),
    ({"skip_hidden": 1}, "true or false"),
    ({"algorithm": "magic"}, "must be one of"),
    ({"cnr_non_content": "img"}, "list of strings"),
    ([1], "must be an object"),
])
def test_bad_overrides_name_the_key(overrides, message):
    with pytest.raises(BadOptions, match=message):
        Options.from_overrides(overrides)


def test_every_option_says_why():
    for item in Options().describe():
        assert len(item["why"]) > 20, item["name"]
