"""One frozen Options object: every tunable of the pipeline, its default and its reason.

The host owns the defaults; callers (the extension, the CLI) pass only overrides, as a
dict, through `Options.from_overrides`, the one validation point. Unknown keys, wrong
types and out-of-range values raise `BadOptions` naming the key.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any

from .errors import BadOptions

# Each name is a module of pith/algorithms/ with `run(snap, feats, opts) -> Choice`.
ALGORITHMS = ("cnr", "lqf", "sst", "filters")

# Tags Algorithm 1 of the CNR paper treats as "nonContentNode": weight 1, no characters,
# subtree not counted. The paper names img, nav, a, script, video and svg "for
# instance"; the rest are of the same three kinds it describes (no text, menus, code or
# embedded media), plus `head`, which is never main content.
CNR_NON_CONTENT = frozenset({
    # the paper's own examples
    "img", "nav", "a", "script", "video", "svg",
    # code and metadata
    "style", "noscript", "template", "head", "title", "meta", "link", "base",
    # embedded media and widgets without readable text (a frame is not one of them: the
    # document of a same-origin frame is captured as its child and may be the content)
    "audio", "canvas", "object", "embed", "picture", "map",
    "select", "button", "input", "textarea",
})


def _opt(default, why: str, **meta):
    """A field with its reason; `meta` may carry `lo`/`hi` bounds or `choices`."""
    return field(default=default, metadata={"why": why, **meta})


@dataclass(frozen=True)
class Options:
    """Every tunable of the host pipeline. Read the `why` of a field before changing it."""

    algorithm: str = _opt(
        "cnr", "the scoring method: one seed paper each (README, 'The methods')",
        choices=ALGORITHMS)

    # --- CNR (López, Silva, Insa) ---------------------------------------------------
    cnr_non_content: frozenset = _opt(
        CNR_NON_CONTENT, "Algorithm 1's nonContentNode set: weight 1, 0 chars, subtree ignored")
    cnr_top_fraction: float = _opt(
        0.25,
        "Algorithm 2's 'top-rated nodes': this share of the elements that hold text, taken "
        "in decreasing CNR. The paper's worked example (Example 4.2, Figure 3) marks 4 of "
        "its roughly 15 nodes as top-rated, about a quarter; a share of the page, not a "
        "fixed count, scales from a short note to a long thread.",
        lo=0.0, hi=1.0)
    # --- LQF, link-quota filter (Mantratzis, Orgun, Cassidy) --------------------------

    # --- SST, satisfiable sub-trees (Qi, Sun) -----------------------------------------

    # --- DOM filters and NLP (Agarwal) ------------------------------------------------

    # --- every method ----------------------------------------------------------------
    skip_hidden: bool = _opt(
        True, "hidden elements (display:none, visibility:hidden, aria-hidden, zero size) "
        "count like nonContentNodes: a reader never sees their text")

    # --- reply ----------------------------------------------------------------------
    candidates: int = _opt(
        5, "how many runner-up blocks the reply lists, for the UI and for debugging",
        lo=0, hi=100)

    # --- limits ---------------------------------------------------------------------
    max_nodes: int = _opt(
        1_000_000, "snapshots above this many rows are refused before any work: 5x the "
        "largest real page we have seen (200k elements), so only runaway pages hit it",
        lo=1, hi=50_000_000)

    @classmethod
    def from_overrides(cls, overrides: dict[str, Any] | None = None) -> "Options":
        """Defaults updated by `overrides`, validated; the one way to build Options."""
        if overrides is None:
            return cls()
        if not isinstance(overrides, dict):
            raise BadOptions(f"options must be an object, got {type(overrides).__name__}")
        fields = {f.name: f for f in dataclasses.fields(cls)}
        values: dict[str, Any] = {}
        for key, value in overrides.items():
            f = fields.get(key)
            if f is None:
                raise BadOptions(f"unknown option {key!r}", key=key)
            values[key] = _check(f, value)
        return cls(**values)

    def describe(self) -> list[dict]:
        """Each option with its value and reason (for `pith options` and the docs)."""
        out = []
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            if isinstance(value, frozenset):
                value = sorted(value)
            out.append({"name": f.name, "value": value, "why": f.metadata["why"]})
        return out


def _check(f: dataclasses.Field, value: Any) -> Any:
    """Coerce and validate one override against its field's default type and bounds."""
    default, meta, key = f.default, f.metadata, f.name
    if isinstance(default, bool):
        if not isinstance(value, bool):
            raise BadOptions(f"option {key!r} must be true or false", key=key)
        return value
    if isinstance(default, int):
        if isinstance(value, bool) or not isinstance(value, int):
            raise BadOptions(f"option {key!r} must be an integer", key=key)
    elif isinstance(default, float):
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise BadOptions(f"option {key!r} must be a number", key=key)
        value = float(value)
    elif isinstance(default, str):
        if not isinstance(value, str):
            raise BadOptions(f"option {key!r} must be a string", key=key)
    elif isinstance(default, frozenset):
        if not isinstance(value, (list, tuple, set, frozenset)) or not all(
                isinstance(v, str) for v in value):
            raise BadOptions(f"option {key!r} must be a list of strings", key=key)
        return frozenset(v.lower() for v in value)
    if "choices" in meta and value not in meta["choices"]:
        raise BadOptions(f"option {key!r} must be one of {', '.join(meta['choices'])}",
                         key=key)
    if "lo" in meta and not (meta["lo"] <= value <= meta["hi"]):
        raise BadOptions(f"option {key!r} must be between {meta['lo']} and {meta['hi']}",
                         key=key)
    return value
