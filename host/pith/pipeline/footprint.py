"""How many bytes an object holds: its numpy arrays, strings and containers, counted once.

The host keeps recent selections for grow/shrink (native/protocol.py) and bounds that
cache by bytes, not by count: one selection of a 1,000,000-element page holds about
600 MB, one of an ordinary page a few MB. `of` walks an object's fields, dicts, lists
and tuples without recursion and adds up what it finds: a numpy array counts its buffer
once however many views share it, an object array (a snapshot's string column) its
pointers and its strings; a Python object `sys.getsizeof`. It is an estimate within a
few percent of what the process frees when the object goes (allocator slack aside;
NOTES.md, 'Why frames, the cache and static parses are bounded by size').
"""
from __future__ import annotations

import sys
from typing import Any

import numpy as np

# Header of a str object (CPython, 64-bit, ASCII): sys.getsizeof("") is 49 bytes; the
# empty string is one shared object and costs nothing more.
STRING_HEADER = sys.getsizeof("")


def strings_bytes(values: list) -> int:
    """Bytes of the str objects of `values` (a string column), the empty one shared;
    characters counted one byte each (a column of wide characters costs up to 4x)."""
    strings = [v for v in values if type(v) is str] if values else []
    if len(strings) != len(values):     # a column of something else: measure each object
        return sum(sys.getsizeof(v) for v in values)
    return STRING_HEADER * (len(strings) - strings.count("")) + len("".join(strings))


def of(obj: Any) -> int:
    """Bytes held by `obj` and everything it reaches (each object once)."""
    seen: set[int] = set()
    todo = [obj]
    total = 0
    while todo:
        item = todo.pop()
        if id(item) in seen:
            continue
        seen.add(id(item))
        if isinstance(item, np.ndarray):
            base = item
            while isinstance(base.base, np.ndarray):
                base = base.base
            if base is not item:
                if id(base) in seen:
                    continue
                seen.add(id(base))
            total += base.nbytes
            if base.dtype == object:
                total += strings_bytes(base.ravel().tolist())
            continue
        if isinstance(item, (str, bytes, int, float, bool)) or item is None:
            total += sys.getsizeof(item)
            continue
        total += sys.getsizeof(item)
        if isinstance(item, dict):
            todo.extend(item.keys())
            todo.extend(item.values())
        elif isinstance(item, (list, tuple, set, frozenset)):
            todo.extend(item)
        elif hasattr(item, "__dict__"):
            todo.append(vars(item))
        elif hasattr(item, "__slots__"):
            todo.extend(getattr(item, s) for s in item.__slots__ if hasattr(item, s))
    return total
