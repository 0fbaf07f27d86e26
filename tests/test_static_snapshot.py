"""static.snapshot_of_html (columns straight to a Snapshot) against the checked route,
snapshot.from_json of static.snapshot_from_html: the same Snapshot, column by column."""
from pathlib import Path

import numpy as np
import pytest

from pith.errors import SnapshotTooLarge
from pith.pages.static import decode_html, snapshot_from_html, snapshot_of_html
from pith.pipeline.options import Options
from pith.pipeline.select import select
from pith.pipeline.snapshot import from_json

PAGES = Path(__file__).parent / "fixtures" / "pages"
URL = "http://pith.invalid/source.html"
MAX_NODES = Options().max_nodes


def assert_same(checked, direct) -> None:
    assert checked.n == direct.n
    assert np.array_equal(checked.end, direct.end) and np.array_equal(checked.depth, direct.depth)
    assert checked.cols.keys() == direct.cols.keys()
    for name, col in checked.cols.items():
        other = direct.cols[name]
        assert other.dtype == col.dtype, name
        assert other.tolist() == col.tolist(), name
        assert not other.flags.writeable, name
    drop = lambda meta: {k: v for k, v in meta.items() if k != "capture_ms"}  # noqa: E731
    assert drop(checked.meta) == drop(direct.meta)


def both(html: str, url: str = URL):
    return from_json(snapshot_from_html(html, url), MAX_NODES), snapshot_of_html(html, url, MAX_NODES)


@pytest.mark.parametrize("name", sorted(p.name for p in PAGES.iterdir()
                                        if (p / "source.html").is_file()))
def test_fixtures_give_the_same_snapshot_both_ways(name):
    html, _ = decode_html((PAGES / name / "source.html").read_bytes(), errors="replace")
    assert_same(*both(html))


@pytest.mark.parametrize("html", [
    "",
    "<p>hi",
    "<html lang=fr><title> Un  titre </title><h1>a<b>b</b></h1><p style='visibility:hidden'>x"
    "<i hidden>y</i></p><iframe src=/f></iframe><img src=a.png title=t>",
    "<table><td>cell<td>cell</table><a href='/x?q=1'>link</a><div aria-modal=true>d</div>",
    "<base href='https://example.org/dir/'><a href='../up'>u</a><a href='//cdn.example/x'>c</a>",
])
def test_edge_cases_give_the_same_snapshot_both_ways(html):
    assert_same(*both(html))


def test_a_lone_surrogate_in_the_callers_url_is_replaced_as_validation_does():
    checked, direct = both("<a href='/x'>x</a><img src='y.png'>", "http://ex\udcffample.org/a")
    assert_same(checked, direct)
    assert "\ufffd" in "".join(direct.url.tolist())


def test_the_element_limit_is_the_same_error():
    html = "<p>" + "<span>x</span>" * 50
    with pytest.raises(SnapshotTooLarge) as checked:
        select(snapshot_from_html(html, URL), Options(max_nodes=20))
    with pytest.raises(SnapshotTooLarge) as direct:
        snapshot_of_html(html, URL, 20)
    assert str(checked.value) == str(direct.value)


def test_a_deep_page_is_read_whole_the_same_way():
    html = "<div>" * 3000 + "x"
    a, b = both(html, URL)
    assert a.n == b.n == 3 + 3000 and b.text[-1] == "x"


def test_select_answers_the_same_on_both():
    html = (PAGES / "article" / "source.html").read_text(encoding="utf-8")
    a = select(snapshot_from_html(html, URL), consume=True).to_wire()
    b = select(snapshot_of_html(html, URL, MAX_NODES)).to_wire()
    a.pop("timings"), b.pop("timings")
    assert a == b
