"""Tests of pages/local.py: which inputs are read, and a local input refused by its kind before it is opened."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

from pith.errors import InputNotFound, InputUnreadable, InputUnsupported
from pith.pages.local import check_local, read_local, unsupported_scheme


@pytest.mark.parametrize("target", ["ftp://example.org/a.html", "data:text/html,<p>x</p>",
                                    "javascript:alert(1)", "FTP://EXAMPLE.ORG/"])
def test_a_scheme_pith_does_not_read_is_refused_by_name(target):
    err = unsupported_scheme(target)
    assert isinstance(err, InputUnsupported)
    assert repr(target.split(":")[0].lower()) in err.message and "https://" in err.message


@pytest.mark.parametrize("target", ["https://example.org/", "HTTP://example.org/", "file:///tmp/a.html",
                                    "page.html", "C:\\pages\\a.html", "c:/a.html", "./x:y.html"])
def test_paths_drives_and_the_schemes_pith_reads_are_no_error(target):
    assert unsupported_scheme(target) is None


def test_a_file_named_like_a_url_is_a_file(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "notes:a.html").write_text("<p>x</p>")
    assert unsupported_scheme("notes:a.html") is None
    assert isinstance(unsupported_scheme("notes:b.html"), InputUnsupported)


def test_a_page_is_read_as_bytes(tmp_path):
    page = tmp_path / "a.html"
    page.write_bytes("<p>héllo</p>".encode())
    assert read_local(page) == "<p>héllo</p>".encode()


def symlink_loop(path: Path) -> None:
    """`path` a link to a link back to `path`."""
    (path.parent / "loop").symlink_to(path)
    path.symlink_to(path.parent / "loop")


@pytest.mark.parametrize("make,error,words", [
    (lambda p: None, InputNotFound, "no such file"),
    (lambda p: p.mkdir(), InputNotFound, "is a directory"),
    (lambda p: os.mkfifo(p), InputUnsupported, "a FIFO (named pipe)"),
    (symlink_loop, InputUnreadable, "a loop of symbolic links"),
])
def test_what_is_no_readable_file_is_refused_at_once_in_its_own_words(tmp_path, make, error, words):
    target = tmp_path / "in.html"
    make(target)
    with pytest.raises(error) as caught:
        check_local(target)          # a FIFO returns at once: nothing is opened for reading
    assert words in caught.value.message


def test_a_device_is_refused_before_it_is_read():
    # check_local, not read_local: were the check broken, reading /dev/zero would not end
    with pytest.raises(InputUnsupported, match="a device"):
        check_local(Path("/dev/zero"))

