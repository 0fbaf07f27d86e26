"""Which inputs Pith reads: URL schemes, and local files checked before they are opened.

Only paths, folders, `file://` and http(s) URLs are inputs; another scheme is refused by
name instead of being read as a path. A local input is `stat`ed before it is opened, so
what is no regular file (a FIFO, whose `open` blocks until a writer comes; a device,
which may never end) is refused at once, and a file that may not be read says so in its
own words (NOTES.md, 'Why a WARC record is checked against its frame, and inputs against
their kind (issue 34)').
"""
from __future__ import annotations

import errno
import os
import re
import stat
from pathlib import Path

from . import static
from ..errors import InputNotFound, InputUnreadable, InputUnsupported, PithError

# A URL scheme (RFC 3986) at the start of an input; one letter is a Windows drive (C:).
_SCHEME = re.compile(r"^([A-Za-z][A-Za-z0-9+.-]+):")
READ_SCHEMES = ("http", "https", "file")


def unsupported_scheme(target: str) -> InputUnsupported | None:
    """The error for an input that is a URL of a scheme Pith does not read (`ftp://...`,
    `data:...`, `javascript:...`), None for anything else. A file whose name only looks
    like one (`notes:a.html` in the current folder) is a file."""
    match = _SCHEME.match(target)
    if match is None or match.group(1).lower() in READ_SCHEMES or _exists(target):
        return None
    return InputUnsupported(f"{target}: the URL scheme {match.group(1).lower()!r} is not "
                            "supported (use a file path, file://, http:// or https://)")


def _exists(path: str) -> bool:
    try:
        return os.path.lexists(path)
    except (OSError, ValueError):       # a name too long, a NUL byte
        return False


def check_local(path: Path) -> None:
    """Refuse a local input that cannot be read as a page, before reading it: missing
    (InputNotFound), a folder (InputNotFound, as static.read_page words it), no regular
    file (InputUnsupported: a FIFO would block the read for ever, a device never end),
    not readable (InputUnreadable: permission denied, a loop of symbolic links)."""
    try:
        mode = os.stat(path).st_mode
        if stat.S_ISREG(mode):
            with open(path, "rb"):
                pass
        elif stat.S_ISDIR(mode):
            os.scandir(path).close()    # a folder a walk could not list says so
    except OSError as exc:
        raise _os_error(path, exc) from None
    if stat.S_ISDIR(mode):
        raise InputNotFound(f"{path} is a directory, not an HTML file")
    if not stat.S_ISREG(mode):
        raise InputUnsupported(f"{path} is {_kind(mode)}, not a regular file; Pith reads "
                               "files (a pipe or device may never end)")


def read_local(path: Path) -> bytes:
    """The bytes of a local page: check_local, then static.read_page."""
    check_local(path)
    try:
        return static.read_page(path)
    except InputNotFound as exc:        # removed or made unreadable since the check
        raise exc if not Path(path).exists() else InputUnreadable(exc.message) from None


def _os_error(path: Path, exc: OSError) -> PithError:
    if exc.errno in (errno.ENOENT, errno.ENOTDIR, errno.ENAMETOOLONG):
        return InputNotFound(f"{path}: no such file")
    if exc.errno in (errno.EACCES, errno.EPERM):
        return InputUnreadable(f"{path}: permission denied (this user may not read it)")
    if exc.errno == errno.ELOOP:
        return InputUnreadable(f"{path}: a loop of symbolic links")
    return InputUnreadable(f"{path}: cannot be read ({exc.strerror or exc})")


def _kind(mode: int) -> str:
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe)"
    if stat.S_ISSOCK(mode):
        return "a socket"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    return "not a regular file"
