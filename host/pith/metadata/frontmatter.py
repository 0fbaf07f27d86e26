"""The page's metadata as YAML front matter ("---" lines around `key: value`), as note-taking clippers write it.

Written here rather than by a YAML library (none is a dependency): every string is a
YAML double-quoted scalar — JSON's string syntax, which YAML 1.2 reads the same, with the
characters YAML does not allow raw (DEL, C1 controls but NEL, U+FEFF, U+FFFE, U+FFFF)
escaped as \\uXXXX too — so no page text can end the block, start a comment, or be read
as another type ("no", "1.0", "2024-03-01" stay strings). Lists are flow sequences of
such strings. Keys are the metadata's own (host/PROTOCOL.md `metadata`); unknown (null,
empty) fields are left out.
"""
from __future__ import annotations

import json
import re
from typing import Any

# Characters json.dumps writes raw that YAML's c-printable set excludes.
_NOT_YAML_PRINTABLE = re.compile("[\x7f-\x84\x86-\x9f\ufeff\ufffe\uffff]")


def quote(s: str) -> str:
    """`s` as a YAML double-quoted scalar."""
    return _NOT_YAML_PRINTABLE.sub(lambda m: f"\\u{ord(m.group()):04x}",
                                   json.dumps(s, ensure_ascii=False))


def front_matter(metadata: dict[str, Any]) -> str:
    """The YAML front matter block of a metadata dict (the wire form), ending in a newline."""
    lines = ["---"]
    for key, value in metadata.items():
        if value is None or value == [] or value == "":
            continue
        if isinstance(value, list):
            lines.append(f"{key}: [{', '.join(quote(str(v)) for v in value)}]")
        else:
            lines.append(f"{key}: {quote(str(value))}")
    lines.append("---")
    return "\n".join(lines) + "\n"
