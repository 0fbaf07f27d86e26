"""The page's metadata as YAML front matter ("---" lines around `key: value`), as note-taking clippers write it.

Written here rather than by a YAML library (none is a dependency): every string is a
YAML double-quoted scalar — JSON's string syntax, which YAML 1.2 reads the same, with the
characters YAML does not allow raw or reads as line breaks (DEL, the C1 controls with
NEL, U+2028, U+2029, U+FEFF, U+FFFE, U+FFFF) escaped as \\uXXXX too — so no page text can end the block, start a comment, or be read
as another type ("no", "1.0", "2024-03-01" stay strings). Lists are flow sequences of
such strings. Keys are the metadata's own (host/PROTOCOL.md `metadata`); unknown (null,
empty) fields are left out.
"""
from __future__ import annotations

import json
import re
from typing import Any

# Characters json.dumps writes raw that YAML's c-printable set excludes or folds as line
# breaks (NEL, LS, PS: a line break inside a quoted scalar reads as a space).
_NOT_YAML_PRINTABLE = re.compile("[\x7f-\x9f\u2028\u2029\ufeff\ufffe\uffff]")


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
