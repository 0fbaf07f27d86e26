"""Test helper: build snapshot dicts (host/SNAPSHOT.md) from compact row lists."""
from __future__ import annotations

from typing import Any

DEFAULTS: dict[str, Any] = {
    "text": "", "tail": "", "link": 0, "id": "", "cls": "", "role": "", "host": "", "url": "",
    "alt": "", "x": 0, "y": 0, "w": 0, "h": 0, "hidden": 0, "fs": 16, "fw": 400, "color": "",
    "frame": 0,
}


def make_snapshot(rows: list[tuple], **meta: Any) -> dict:
    """rows: (tag, parent) or (tag, parent, {column: value}); preorder is the caller's job."""
    cols: dict[str, list] = {"tag": [], "parent": [], **{k: [] for k in DEFAULTS}}
    for row in rows:
        tag, parent = row[0], row[1]
        extra = row[2] if len(row) > 2 else {}
        unknown = set(extra) - set(DEFAULTS)
        assert not unknown, unknown
        cols["tag"].append(tag)
        cols["parent"].append(parent)
        for key, default in DEFAULTS.items():
            cols[key].append(extra.get(key, default))
    return {"v": 1, "url": meta.get("url", ""), "title": meta.get("title", ""), "lang": "",
            "layout": meta.get("layout", False), "viewport": [0, 0], "page": [0, 0],
            "n": len(rows), "nodes": cols, "warnings": []}


def preorder(parents: list[int]) -> tuple[list[int], dict[int, int]]:
    """A tree given by each node's parent (node 0 the root, -1 its parent) in preorder, as
    a snapshot's rows must be: (the nodes in row order, each node's row), by a depth-first
    walk keeping the children in their numbering's order."""
    kids: dict[int, list[int]] = {}
    for i, p in enumerate(parents[1:], 1):
        kids.setdefault(p, []).append(i)
    order, stack = [], [0]
    while stack:
        node = stack.pop()
        order.append(node)
        stack.extend(reversed(kids.get(node, [])))
    return order, {node: row for row, node in enumerate(order)}


def chain(depth: int) -> dict:
    """html > div > div > … `depth` rows deep, text at the bottom."""
    rows = [("html", -1)] + [("div", i) for i in range(depth - 1)]
    rows[-1] = ("p", depth - 2, {"text": "deep text"})
    return make_snapshot(rows)
