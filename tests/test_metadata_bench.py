"""pith.measure.metadata_bench (`pith bench --metadata`): the fields scored against the labels, and the page type's accuracy with its confusion matrix."""
from __future__ import annotations

import json

from pith.measure import metadata_bench
from pith.pages import static
from pith.pipeline.options import Options
from pith.pipeline.select import select

ARTICLE = """<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">
<title>Why moss grows north | The Slow Garden</title>
<meta name="author" content="Ada Moss">
<meta property="article:published_time" content="2024-03-01T10:00:00Z"></head>
<body><article><h1>Why moss grows north</h1><p>{words}</p><p>{words}</p></article></body></html>"""
WORDS = "Moss keeps to the shaded side of a stone because water stays there longest. " * 8


def dataset(tmp_path, pages: list[tuple[str, dict]]):
    """A dataset folder: html/<id>.html and an index row per page with its labels."""
    (tmp_path / "html").mkdir()
    rows = []
    for k, (html, labels) in enumerate(pages):
        (tmp_path / "html" / f"p{k}.html").write_text(html, encoding="utf-8")
        rows.append({"id": f"p{k}", "dataset": "tiny", "html": f"html/p{k}.html",
                     "url": f"https://garden.example/p{k}", **labels})
    (tmp_path / "index.jsonl").write_text("\n".join(json.dumps(r) for r in rows) + "\n",
                                          encoding="utf-8")
    return tmp_path


def ours_type(html: str, url: str) -> str:
    snap = static.snapshot_of_html(html, url, Options().max_nodes)
    return select(snap, Options()).page_type_wire()[0]


def test_fields_hit_their_labels_and_the_page_type_is_counted_with_its_confusion(tmp_path):
    html = ARTICLE.format(words=WORDS)
    ours = ours_type(html, "https://garden.example/p0")
    other = next(t for t in ("forum", "product") if t != ours)
    folder = dataset(tmp_path, [
        (html, {"title": "Why moss grows north", "author": "Ada Moss",
                "publish_date": "2024-03-01", "page_type": ours}),
        (html, {"title": "Another title", "author": "Nobody", "publish_date": "1999-01-01",
                "page_type": other}),
        (html, {"title": "Why  MOSS grows north"}),            # no type label: not counted
    ])
    rows = {r["method"]: r for r in metadata_bench.run(folder, None, None, True)}
    pith = rows["pith"]
    assert (pith["title"], pith["title_n"]) == (round(2 / 3, 4), 3)
    assert (pith["author"], pith["author_n"]) == (0.5, 2)
    assert (pith["date"], pith["date_n"]) == (0.5, 2)
    assert (pith["page_type"], pith["page_type_n"]) == (0.5, 2)
    assert pith["confusion"] == {ours: {ours: 1}, other: {ours: 1}}
    assert "page_type" not in rows["trafilatura"]
    table = metadata_bench.format_rows(list(rows.values()))
    assert "page type, tiny: 1 of 2 pages right, 50.00 %" in table
    [header] = [line for line in table.splitlines() if line.startswith("label / ours")]
    assert header.split()[-1] == ours


def test_a_dataset_without_type_labels_prints_no_matrix(tmp_path):
    folder = dataset(tmp_path, [(ARTICLE.format(words=WORDS), {"title": "Why moss grows north"})])
    rows = metadata_bench.run(folder, None, None, True)
    assert rows[0]["page_type"] is None and rows[0]["page_type_n"] == 0
    assert "page type" not in metadata_bench.format_rows(rows)


def test_title_quotes_folds_typography_only_beside_the_exact_title(tmp_path):
    html = ARTICLE.format(words=WORDS).replace("Why moss grows north", "Why moss’s side is north")
    folder = dataset(tmp_path, [(html, {"title": "Why moss's side is north"}),
                                (html, {"title": "Why moss's side is south"})])
    rows = {r["method"]: r for r in metadata_bench.run(folder, None, None, True)}
    assert rows["pith"]["title"] == 0.0                    # the measure: exact
    assert rows["pith"]["title_quotes"] == 0.5             # ’ and ' alike, nothing else
    assert "title_quotes" in metadata_bench.format_rows(list(rows.values())).splitlines()[0]


def test_title_reach_counts_a_label_any_candidate_holds(tmp_path):
    # the label is the <title> whole, site and all: our title is its first part (a miss),
    # but one of the candidates holds it (reached); a label no candidate holds is neither
    html = ARTICLE.format(words=WORDS)
    folder = dataset(tmp_path, [
        (html, {"title": "Why moss grows north | The Slow Garden"}),
        (html, {"title": "Why moss grows north"}),
        (html, {"title": "Moss, briefly"}),
    ])
    rows = {r["method"]: r for r in metadata_bench.run(folder, None, None, True)}
    assert (rows["pith"]["title"], rows["pith"]["title_reach"]) == (round(1 / 3, 4), round(2 / 3, 4))
    assert rows["pith"]["title_reach_n"] == 3
    assert (rows["trafilatura"]["title_reach"], rows["trafilatura"]["title_reach_n"]) == (None, 0)
    assert "title_reach" in metadata_bench.format_rows(list(rows.values())).splitlines()[0]
