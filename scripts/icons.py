"""Draw the app icons as PNG files (an installable web app needs raster icons).

Pure standard library: each pixel is decided by a few geometric tests (a
rounded square and a question mark), so the build needs no image tools.

    python scripts/icons.py OUT_DIR
"""

from __future__ import annotations

import math
import struct
import sys
import zlib
from pathlib import Path

BACKGROUND = (0x3B, 0x2F, 0x63)
MARK = (0xFF, 0xD1, 0x66)


def _mark(x: float, y: float) -> bool:
    """Whether (x, y), in 0..1 units, is on the question mark."""
    r = math.hypot(x - 0.5, y - 0.38)
    on_ring = 0.11 <= r <= 0.19 and (y <= 0.40 or x >= 0.5)
    on_stem = 0.455 <= x <= 0.545 and 0.50 <= y <= 0.62
    on_dot = math.hypot(x - 0.5, y - 0.73) <= 0.055
    return on_ring or on_stem or on_dot


def _inside(x: float, y: float, radius: float) -> bool:
    """Whether (x, y) is inside the rounded square (radius 0 is a plain square)."""
    cx = min(max(x, radius), 1 - radius)
    cy = min(max(y, radius), 1 - radius)
    return math.hypot(x - cx, y - cy) <= radius


def png(size: int, radius: float) -> bytes:
    """An RGBA PNG of the icon, ``size`` pixels square."""
    rows = []
    for j in range(size):
        row = bytearray([0])  # filter: none
        for i in range(size):
            x, y = (i + 0.5) / size, (j + 0.5) / size
            if not _inside(x, y, radius):
                row += bytes((0, 0, 0, 0))
            else:
                row += bytes((*(MARK if _mark(x, y) else BACKGROUND), 255))
        rows.append(bytes(row))

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    header = struct.pack(">IIBBBBB", size, size, 8, 6, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(b"".join(rows), 9))
        + chunk(b"IEND", b"")
    )


def write_icons(folder: Path) -> None:
    """The icons the manifest names: rounded ones, and a full-bleed maskable one."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "icon-192.png").write_bytes(png(192, 0.2))
    (folder / "icon-512.png").write_bytes(png(512, 0.2))
    (folder / "maskable-512.png").write_bytes(png(512, 0.0))


if __name__ == "__main__":
    write_icons(Path(sys.argv[1]))
