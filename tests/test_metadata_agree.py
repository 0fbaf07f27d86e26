"""One metadata for every output: the reader's header, `pith extract`'s JSON, the rows and the Markdown front matter agree on the fixture pages, and both captures declare the same."""
from __future__ import annotations

import json
import subprocess

import pytest
import yaml

from conftest import PAGES, ROOT
from pith import cli
from pith.batch import work
from pith.batch.records import Record
from pith.native import protocol
from pith.pages import static
from pith.pages.inputs import Capturer
from pith.pipeline.options import Options

FIXTURES = sorted(p.name for p in PAGES.iterdir() if (p / "snapshot.json").is_file())
READER_HEADER_JS = ROOT / "extension" / "background" / "reader-header.js"


def recorded(name: str) -> dict:
    return json.loads((PAGES / name / "snapshot.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("name", FIXTURES)
def test_static_and_browser_captures_declare_the_same(name):
    browser = recorded(name)
    text, _ = static.decode_html((PAGES / name / "source.html").read_bytes())
    assert static.snapshot_from_html(text, browser["url"])["declared"] == browser["declared"]


def reader_header(metadata: dict) -> dict:
    """extension/background/reader-header.js's readerHeader(metadata), run by Node."""
    script = (f"import {{ readerHeader }} from {json.dumps(READER_HEADER_JS.as_uri())};"
              f"process.stdout.write(JSON.stringify(readerHeader({json.dumps(metadata)})));")
    out = subprocess.run(["node", "--input-type=module", "-e", script], capture_output=True,
                         text=True, check=True, timeout=60)
    return json.loads(out.stdout)


def host_reply_metadata(snapshot: dict) -> tuple[dict, dict]:
    """(select's metadata, clean's metadata for the selected node) through the protocol."""
    session = protocol.Session()
    sel = protocol.handle({"v": 1, "id": 1, "action": "select", "snapshot": snapshot}, session)
    assert sel["ok"], sel
    res = sel["result"]
    clean = protocol.handle({"v": 1, "id": 2, "action": "clean", "doc": res["doc"],
                             "node": res["node"]}, session)
    assert clean["ok"], clean
    return res["metadata"], clean["result"]["metadata"]


@pytest.mark.parametrize("name", FIXTURES)
def test_reader_json_rows_and_front_matter_agree(name):
    source = PAGES / name / "source.html"
    with Capturer(static_mode=True) as capturer:
        _body, record = cli.extract_one(capturer, str(source), Options(), "json")
        markdown, _ = cli.extract_one(capturer, str(source), Options(), "markdown", front_matter=True)
    meta = record["metadata"]
    # the rows
    row = work.extract(Record(0, str(source), source.resolve().as_uri()), work.Job())
    assert {f: row[f] for f in work.METADATA_FIELDS} == \
        {f: meta[work.ROW_METADATA.get(f, f)] for f in work.METADATA_FIELDS}
    # the front matter reads back as the JSON's metadata (unknown fields left out)
    assert markdown.startswith("---\n")
    block = markdown.split("---\n", 2)[1]
    assert yaml.safe_load(block) == {k: v for k, v in meta.items() if v not in (None, [])}
    # the reader: the host's reply on the browser's capture of the same page, then the
    # extension's own mapping of it to the header
    snapshot = recorded(name)
    snapshot["url"] = source.resolve().as_uri()          # the same address as the CLI's
    selected, cleaned = host_reply_metadata(snapshot)
    assert selected == cleaned == meta
    header = reader_header(cleaned)
    assert header == {"title": meta["title"] or "", "byline": ", ".join(meta["authors"]),
                      "site": meta["site"] or "", "published": meta["published"] or ""}


def test_the_metadata_fixtures_give_what_their_pages_declare():
    """The two fixture pages made for metadata: JSON-LD @graph, OpenGraph and a byline."""
    with Capturer(static_mode=True) as capturer:
        got = {name: cli.extract_one(capturer, str(PAGES / name / "source.html"), Options(),
                                     "json")[1]["metadata"]
               for name in ("metadata-jsonld", "metadata-opengraph")}
    j, o = got["metadata-jsonld"], got["metadata-opengraph"]
    assert j["title"] == "Why moss grows on the north side & other myths"
    assert j["authors"] == ["Rowan Birch", "Ivy Lane"]           # not the commenter
    assert (j["published"], j["modified"]) == ("2024-03-01T09:30:00+01:00", "2024-03-04T12:00:00+00:00")
    assert (j["site"], j["language"], j["categories"], j["tags"]) == \
        ("The Woodland Gazette", "en-GB", ["Nature"], ["moss", "folklore", "forests"])
    assert j["url"] == "https://gazette.example/2024/03/01/moss-myths"
    assert j["license"] == "https://creativecommons.org/licenses/by/4.0/"
    assert j["image"] == "https://gazette.example/img/moss.jpg"
    assert (o["title"], o["authors"], o["published"]) == \
        ("The slow rise of a sourdough loaf", ["Marta Oak"], "2023-11-05")
    assert (o["site"], o["language"], o["tags"], o["license"]) == \
        ("Kitchen Notes", "fr-FR", ["bread", "baking"], "CC BY-SA 4.0")


def test_markdown_and_html_begin_with_the_title_once():
    with Capturer(static_mode=True) as capturer:
        md, _ = cli.extract_one(capturer, str(PAGES / "metadata-jsonld" / "source.html"),
                                Options(), "markdown")
        html, _ = cli.extract_one(capturer, str(PAGES / "metadata-jsonld" / "source.html"),
                                  Options(), "html")
        again, _ = cli.extract_one(capturer, str(PAGES / "metadata-opengraph" / "source.html"),
                                   Options(), "markdown")
    # the kept blocks leave the headline out (the page shows none): it is added
    assert md.startswith("# Why moss grows on the north side & other myths\n\n")
    assert "<body>\n<h1>Why moss grows on the north side &amp; other myths</h1>" in html
    # the content already starts with it: not twice
    assert again.startswith("# The slow rise of a sourdough loaf\n") and again.count("The slow rise") == 1
