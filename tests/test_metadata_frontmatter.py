"""pith.pipeline.metadata.frontmatter: the metadata as YAML front matter."""
from __future__ import annotations

import yaml

from pith.pipeline.metadata import frontmatter


def test_front_matter_is_yaml_that_reads_back_as_the_metadata():
    m = {"title": 'He said "no": # not a comment\n---', "authors": ["A: B", "yes"],
         "published": "2024-03-01", "site": "\x7fodd\u0085\u2028\ufeff", "description": None,
         "tags": [], "language": "no"}
    text = frontmatter.front_matter(m)
    assert text.startswith("---\n") and text.endswith("---\n") and text.count("\n---") == 1
    assert yaml.safe_load(text.strip().strip("-")) == {k: v for k, v in m.items() if v not in (None, [])}
