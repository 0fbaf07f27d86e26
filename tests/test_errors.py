"""Tests of errors.py: every error's code and name are its own, stable, and written in PROTOCOL.md."""
from __future__ import annotations

import re
from pathlib import Path

from pith import errors
from pith.errors import BadNode, InternalError, PithError, all_errors

PROTOCOL_MD = Path(__file__).resolve().parents[1] / "host" / "PROTOCOL.md"


def documented_codes() -> list[tuple[int, str]]:
    """The code table of PROTOCOL.md, row by row (duplicates kept)."""
    rows = re.findall(r"^\|\s*(\d+)\s*\|\s*`([a-z0-9_]+)`\s*\|", PROTOCOL_MD.read_text(),
                      flags=re.MULTILINE)
    return [(int(code), name) for code, name in rows]


def test_every_error_code_is_documented_and_nothing_else():
    assert sorted(documented_codes()) == [(cls.code, cls.name) for cls in all_errors()]


def test_no_two_errors_share_a_code_or_a_name():
    codes = [cls.code for cls in all_errors()]
    names = [cls.name for cls in all_errors()]
    assert len(set(codes)) == len(codes) and len(set(names)) == len(names)


def test_every_error_sets_its_own_code_and_name_not_its_parents():
    for cls in all_errors():
        assert "code" in vars(cls) and "name" in vars(cls), cls.__name__
        assert re.fullmatch(r"[a-z][a-z0-9_]*", cls.name), cls.name


def test_all_errors_finds_every_class_the_module_defines():
    defined = {obj for obj in vars(errors).values()
               if isinstance(obj, type) and issubclass(obj, PithError) and obj is not PithError}
    assert set(all_errors()) == defined and InternalError in defined


def test_the_wire_form_carries_detail_only_when_there_is_some():
    assert BadNode("node 7 does not exist").to_wire() == {
        "code": 41, "name": "bad_node", "message": "node 7 does not exist"}
    assert BadNode("gone", node=7).to_wire()["detail"] == {"node": 7}


def test_the_one_line_form_names_the_error_and_its_code():
    assert str(BadNode("node 7 does not exist")) == "bad_node (41): node 7 does not exist"
