"""Reads the host's model files (CLG's, the block model's, the page type's): a model, or ModelUnreadable saying which file and the command that rebuilds it.

A model file the host cannot use is an installation fault, not a bug and not the page's:
missing, not JSON, short of a key, or asking for features this host does not compute (a
model trained by another version). Every loader reports it the same way, with the stable
code of `ModelUnreadable` (PROTOCOL.md), so the extension and a crawl see one error for
one cause whichever model it is.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Callable, Iterable, TypeVar

from ..errors import ModelUnreadable

T = TypeVar("T")


def load(path: str | Path, what: str, rebuild: str, build: Callable[[dict], T]) -> T:
    """`build` of the JSON object in `path`; ModelUnreadable when the file cannot be read,
    is not a JSON object, or `build` finds a key missing or a value of the wrong type
    (a lookup or type error inside `build`: the file's shape, not a bug).
    `what` names the model in the message, `rebuild` the command that writes it again."""
    try:
        obj = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise ModelUnreadable(f"the {what} {path} cannot be read ({exc}); reinstall Pith or "
                              f"rebuild it with `{rebuild}`", path=str(path)) from None
    if not isinstance(obj, dict):
        raise ModelUnreadable(f"the {what} {path} is not a JSON object; reinstall Pith or "
                              f"rebuild it with `{rebuild}`", path=str(path))
    try:
        return build(obj)
    except (KeyError, TypeError, ValueError, IndexError, AttributeError) as exc:
        raise ModelUnreadable(f"the {what} {path} is not a model this host reads "
                              f"({type(exc).__name__}: {exc}); reinstall Pith or rebuild it "
                              f"with `{rebuild}`", path=str(path)) from None


def check_features(wanted: Iterable[str], known: Iterable[str], what: str, rebuild: str) -> None:
    """ModelUnreadable when the model reads a feature this host does not compute."""
    known = set(known)
    missing = [n for n in wanted if n not in known]
    if missing:
        raise ModelUnreadable(f"the {what} reads features this host does not compute: "
                              f"{', '.join(missing)}; rebuild it with `{rebuild}`",
                              missing=missing)
