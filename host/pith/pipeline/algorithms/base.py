"""What every algorithm returns: `Choice`, the selected element and how to read it."""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np


@dataclass(frozen=True, eq=False)
class Choice:
    """An algorithm's answer on one page.

    `node` is the one element the extension outlines and grow/shrink start from. Most
    methods answer with that element's whole subtree; a method whose answer is a union
    of subtrees (satisfiable sub-trees) lists them in `parts`, and `node` is then their
    lowest common ancestor. A cleaning method marks rows to leave out of the output in
    `drop` (their subtrees go, their tails stay). The block stage (blocks/keep.py) answers below
    the element: the `kept` block rows, rendered through `drop` and `quiet`.
    """

    node: int
    score: np.ndarray                  # per-row score of the method: the reply's `score`, shrink's ranking
    blocks: np.ndarray                 # candidate blocks, best first; blocks[0] == node
    parts: np.ndarray | None = None    # rows whose subtrees make the content, document order
    drop: np.ndarray | None = None     # bool per row: leave the row's subtree out of the output
    quiet: np.ndarray | None = None    # bool per row: leave the row's own text out (its children stay)
    kept: np.ndarray | None = None     # block rows the block stage kept (blocks/segment.py), document order
    appendix: tuple[str, ...] = field(default=())   # lines appended to the output (e.g. retained links)
    preface: tuple[str, ...] = field(default=())    # lines put before the output (e.g. a headline outside the parts)

    @property
    def roots(self) -> np.ndarray:
        """The rows to render, in document order."""
        return self.parts if self.parts is not None else np.array([self.node])
