"""pith.batch.records: files, folders, stdin lists and WARC files as one numbered stream."""
import io
from pathlib import Path

from pith.batch import records
from pith.measure import warcfile

HTML = b"<html><body><p>Some words of a page.</p></body></html>"


def listing(inputs, stdin=None):
    tally = records.Tally()
    found = list(records.records(inputs, tally, stdin=stdin))
    assert [r.seq for r in found] == list(range(len(found)))
    return found, tally


def test_a_folder_is_read_recursively_in_sorted_order(tmp_path):
    for name in ("b/2.html", "b/1.htm", "a.html.gz", "c/notes.txt", "c/deep/x.xhtml", "img.png"):
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(HTML)
    warcfile.write(tmp_path / "c" / "crawl.warc.gz",
                   [warcfile.Page("https://x.test/1", HTML), warcfile.Page("https://x.test/2", HTML)])
    found, tally = listing([str(tmp_path)])
    names = [Path(r.source.split("@")[0]).relative_to(tmp_path).as_posix() for r in found]
    assert names == ["a.html.gz", "b/1.htm", "b/2.html", "c/crawl.warc.gz", "c/crawl.warc.gz",
                     "c/deep/x.xhtml"]
    assert tally.skipped["not_html"] == 2               # notes.txt, img.png
    assert tally.skipped["not_response"] == 2           # the WARC's request records
    warc_rows = [r for r in found if "@" in r.source]
    assert [r.url for r in warc_rows] == ["https://x.test/1", "https://x.test/2"]
    assert all(r.data == HTML for r in warc_rows)
    assert all(r.data is None and r.url.startswith("file://") for r in found if "@" not in r.source)


def test_dash_reads_a_list_from_stdin(tmp_path):
    (tmp_path / "one.html").write_bytes(HTML)
    (tmp_path / "d").mkdir()
    (tmp_path / "d" / "two.html").write_bytes(HTML)
    stdin = io.StringIO(f"# a comment\n{tmp_path / 'one.html'}\n\n{tmp_path / 'd'}\n"
                        "https://example.invalid/page\n")
    found, _ = listing(["-"], stdin=stdin)
    assert [Path(r.source).name for r in found] == ["one.html", "two.html", "page"]
    assert found[2].url == "https://example.invalid/page" and found[2].data is None


def test_a_missing_path_is_a_failed_record_not_an_exception(tmp_path):
    (tmp_path / "ok.html").write_bytes(HTML)
    found, _ = listing([str(tmp_path / "missing.html"), str(tmp_path / "ok.html")])
    assert found[0].failure is not None and found[0].failure.name == "input_not_found"
    assert found[1].failure is None


def test_damage_becomes_a_failed_record_with_its_offset(tmp_path):
    pages = [warcfile.Page(f"https://x.test/{i}", HTML) for i in range(3)]
    pages[1].damage = "truncated"
    path = tmp_path / "d.warc.gz"
    warcfile.write(path, pages)
    found, _ = listing([str(path)])
    assert [r.failure.name if r.failure else r.url for r in found] == [
        "https://x.test/0", "record_damaged", "https://x.test/2"]
    assert found[1].source.startswith(f"{path}@") and found[1].source in found[1].failure.message


def test_records_are_read_lazily(tmp_path):
    """A crawl streams: the first record comes before the rest of the input is looked at."""
    (tmp_path / "a.html").write_bytes(HTML)
    stream = records.records([str(tmp_path / "a.html"), str(tmp_path / "not-yet.html")],
                             records.Tally())
    first = next(stream)
    assert first.source.endswith("a.html")
    (tmp_path / "not-yet.html").write_bytes(HTML)      # created after the first was read
    assert next(stream).failure is None
