"""The one allow-list every renderer shares (host/pith/pipeline/allowlist.json): the extension's generated copy, and the same rule in the reader and the CLI.

Issue 34 (finding 9): the CLI's HTML and Markdown kept `data:image/svg+xml` images that the
reader's allow-list drops. Both now read allowlist.json: the reader through
extension/ui/allowlist.js, generated from it (`python -m pith.pipeline.allowlist`), the CLI
directly; the collector, a classic script that cannot import, repeats the raster types and
is held to the list here.
"""
from __future__ import annotations

import json
import re
import subprocess
import sys

from conftest import ROOT
from pith.pipeline import allowlist

UI = ROOT / "extension" / "ui"
PNG = ("data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8"
       "BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==")
SVG = "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' onload='alert(1)'%3E%3C/svg%3E"
PAGE = f"""<!DOCTYPE html><html><head><title>t</title></head><body><article>
<h1>Images of both kinds</h1>
<p>A long enough paragraph of ordinary words so that the article is chosen as the content of
this small page, and its two images are judged by the renderers' one allow-list.</p>
<figure><img src="{PNG}" alt="a raster dot"><figcaption>A raster image stays.</figcaption></figure>
<figure><img src="{SVG}" alt="an svg document"><figcaption>An SVG document goes.</figcaption></figure>
<p>Another paragraph of ordinary words closes the article, long enough to be content too.</p>
</article></body></html>"""


def test_the_extension_module_is_generated_from_the_json():
    assert (UI / "allowlist.js").read_text(encoding="utf-8") == allowlist.js_module(allowlist.load()), \
        "extension/ui/allowlist.js is stale: run `python -m pith.pipeline.allowlist`"


def test_the_reader_modules_take_their_lists_from_it():
    for name in ("content-dom.js", "math.js", "svg-figure.js"):
        text = (UI / name).read_text(encoding="utf-8")
        assert "from './allowlist.js'" in text, name
        assert not re.search(r"png\|gif\|jpeg", text), f"{name} spells out its own image types"


def test_the_collector_keeps_the_same_raster_types():
    collect = (ROOT / "extension" / "inject" / "collect.js").read_text(encoding="utf-8")
    types = re.search(r"var DATA_IMAGE = /\^data:image\\/\(\?:([a-z|]+)\)", collect).group(1).split("|")
    assert types == allowlist.load()["dataImageTypes"]


def test_the_cli_drops_data_svg_images_as_the_reader_does(tmp_path):
    page = tmp_path / "page.html"
    page.write_text(PAGE, encoding="utf-8")
    for fmt in ("html", "markdown"):
        done = subprocess.run([sys.executable, "-m", "pith", "extract", "--static", "-f", fmt, str(page)],
                              capture_output=True, text=True, timeout=60)
        assert done.returncode == 0, done.stderr
        assert "data:image/png;base64," in done.stdout, fmt
        assert "image/svg" not in done.stdout and "onload" not in done.stdout, fmt
        assert "An SVG document goes." in done.stdout, fmt           # its caption stays
    reader = subprocess.run(
        ["node", "--input-type=module", "-e",
         "const m = await import(process.argv[1]);"
         "console.log(JSON.stringify([m.safeImageSrc(process.argv[2]), m.safeImageSrc(process.argv[3])]));",
         str(UI / "content-dom.js"), PNG, SVG], capture_output=True, text=True, timeout=60)
    assert reader.returncode == 0, reader.stderr
    assert json.loads(reader.stdout) == [PNG, None]


def test_the_json_is_package_data():
    import tomllib
    data = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert "pipeline/allowlist.json" in data["tool"]["setuptools"]["package-data"]["pith"]
