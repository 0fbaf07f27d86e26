"""The one allow-list every renderer shares (allowlist.json): loaded here, written out as the extension's ES module.

`allowlist.json` (beside this file, package data) is canonical. The extension cannot read a
package file of the host, and a classic JSON import is not something every linter and
browser of the extension's range accepts, so `extension/ui/allowlist.js` is generated from
it: `python -m pith.pipeline.allowlist` rewrites it, and tests/test_allowlist.py fails
when the two differ. The CLI renderers (render.py) and the reader (extension/ui/
content-dom.js, math.js, svg-figure.js) both take their image types, MathML and SVG
elements and attributes from it (NOTES.md, 'Why formulas travel as MathML with their TeX,
figures as images, and the allow-list is one file').
"""
from __future__ import annotations

import json
import re
import sys
from functools import lru_cache
from pathlib import Path

HERE = Path(__file__).resolve().parent
JSON_PATH = HERE / "allowlist.json"
# Where the generated module lives in a source checkout (host/pith/pipeline → repo root).
JS_PATH = HERE.parents[2] / "extension" / "ui" / "allowlist.js"


@lru_cache(maxsize=1)
def load() -> dict:
    """The allow-list (parsed once)."""
    return json.loads(JSON_PATH.read_text(encoding="utf-8"))


def data_image_re() -> re.Pattern[str]:
    """data: image URLs the renderers keep: the raster types of the allow-list only
    (an SVG document is a program's worth of markup; it reaches a reader only as a figure
    the svg-figure rules rebuilt)."""
    types = "|".join(map(re.escape, load()["dataImageTypes"]))
    return re.compile(rf"^data:image/(?:{types})[;,]", re.I)


def js_module(data: dict) -> str:
    """The text of extension/ui/allowlist.js for `data`."""
    body = json.dumps(data, indent=2, ensure_ascii=False, sort_keys=True)
    return ("/* Pith's one allow-list of every renderer, GENERATED from host/pith/pipeline/"
            "allowlist.json by `python -m pith.pipeline.allowlist`: do not edit. */\n"
            f"const ALLOW = {body};\n\nexport default ALLOW;\n")


def main(argv: list[str] | None = None) -> int:
    """Write extension/ui/allowlist.js from allowlist.json."""
    JS_PATH.write_text(js_module(load()), encoding="utf-8")
    print(f"wrote {JS_PATH}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
