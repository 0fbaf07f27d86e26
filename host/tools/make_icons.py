"""Draw the extension's toolbar icons (extension/icons/pith-N.png) with zlib alone: `python host/tools/make_icons.py`.

The design: a dark rounded tile with three grey text lines and an orange outline around
the middle one — the page, and Pith's highlight of its main block. Drawn by coverage
sampling (4x4 per pixel) so the small sizes stay smooth without an imaging library.
"""
from __future__ import annotations

import struct
import sys
import zlib
from pathlib import Path

SIZES = (16, 32, 48, 128)
OUT = Path(__file__).resolve().parents[2] / "extension" / "icons"
SAMPLES = 4                                   # per axis, per pixel
TILE = (0x1f, 0x2a, 0x37)                     # slate
LINE = (0xc8, 0xd0, 0xd8)                     # text lines
MARK = (0xf0, 0x8c, 0x00)                     # highlight outline (Pith orange)


def _inside_round_rect(x: float, y: float, x0, y0, x1, y1, r) -> bool:
    if not (x0 <= x <= x1 and y0 <= y <= y1):
        return False
    cx = min(max(x, x0 + r), x1 - r)
    cy = min(max(y, y0 + r), y1 - r)
    return (x - cx) ** 2 + (y - cy) ** 2 <= r * r


def _colour_at(x: float, y: float):
    """Colour of the unit-square drawing at (x, y), or None for transparent."""
    if not _inside_round_rect(x, y, 0.0, 0.0, 1.0, 1.0, 0.18):
        return None
    mark_outer = (0.14, 0.36, 0.86, 0.64)
    mark_inner = (0.20, 0.42, 0.80, 0.58)
    if (mark_outer[0] <= x <= mark_outer[2] and mark_outer[1] <= y <= mark_outer[3]
            and not (mark_inner[0] < x < mark_inner[2] and mark_inner[1] < y < mark_inner[3])):
        return MARK
    for top, right in ((0.18, 0.80), (0.455, 0.74), (0.72, 0.62)):
        if 0.26 <= x <= right and top <= y <= top + 0.09:
            return LINE
    return TILE


def render(size: int) -> bytes:
    rows = []
    for py in range(size):
        row = bytearray([0])                  # filter type 0
        for px in range(size):
            acc = [0, 0, 0]
            hits = 0
            for sy in range(SAMPLES):
                for sx in range(SAMPLES):
                    c = _colour_at((px + (sx + 0.5) / SAMPLES) / size,
                                   (py + (sy + 0.5) / SAMPLES) / size)
                    if c is not None:
                        hits += 1
                        for i in range(3):
                            acc[i] += c[i]
            if hits:
                row += bytes(round(a / hits) for a in acc)
                row.append(round(255 * hits / SAMPLES ** 2))
            else:
                row += b"\0\0\0\0"
        rows.append(bytes(row))
    return png(size, size, b"".join(rows))


def png(width: int, height: int, raw: bytes) -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        return (struct.pack(">I", len(data)) + kind + data
                + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF))
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0)   # 8-bit RGBA
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr)
            + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b""))


def main() -> int:
    OUT.mkdir(parents=True, exist_ok=True)
    for size in SIZES:
        path = OUT / f"pith-{size}.png"
        path.write_bytes(render(size))
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
