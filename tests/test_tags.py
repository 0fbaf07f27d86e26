"""Tests of pipeline/tags.py: the shared tag vocabularies say what their comments say, and agree."""
from __future__ import annotations

from pith.pipeline import tags

VOCABULARIES = {name: value for name, value in vars(tags).items()
                if isinstance(value, frozenset)}


def test_every_vocabulary_is_lower_case_tag_names():
    for name, vocabulary in VOCABULARIES.items():
        assert vocabulary and all(tag.isalnum() and tag == tag.lower() for tag in vocabulary), name


def test_the_block_stage_rows_are_the_block_tags_with_rows_cells_and_preformatted_text():
    preformatted = tags.PRE_TAGS - tags.WIDGET_TAGS          # a textarea is a widget
    assert tags.BLOCK_LEVEL == (tags.BLOCK_TAGS | {"tr"} | tags.CELL_TAGS | preformatted)


def test_headings_start_blocks_and_no_widget_does():
    assert tags.HEADINGS <= tags.BLOCK_TAGS
    assert not tags.WIDGET_TAGS & tags.BLOCK_LEVEL
    assert not tags.LINE_TAGS & tags.BLOCK_TAGS and not tags.CELL_TAGS & tags.BLOCK_TAGS


def test_a_data_table_is_made_of_table_parts_the_block_stage_knows():
    assert tags.TABLE_PARTS - {"colgroup"} <= tags.BLOCK_LEVEL
    assert tags.LINE_TAGS - {"br"} <= tags.TABLE_PARTS and tags.CELL_TAGS <= tags.TABLE_PARTS
