"""The Screen unit's PNG codec: indexed (palette) PNG files as arrays of colour indices.

Card sheets and the stored reference images are palette PNGs whose pixels are EGA
colour indices, so a picture viewer shows them in colour while the game and the
tests read back exact indices (pyxel's own loader maps RGB to the nearest palette
entry, which is ambiguous on the monochrome profiles where several indices share
one shade). Only 8-bit palette images are written; the reader also takes the
other PNG filters so a file re-saved by an image editor still loads.
"""
from __future__ import annotations

import struct
import zlib
from dataclasses import dataclass
from pathlib import Path

_SIGNATURE = b"\x89PNG\r\n\x1a\n"


@dataclass(frozen=True)
class Indexed:
    """A picture as rows of colour indices (one byte per pixel) and its palette."""

    width: int
    height: int
    pixels: bytes                 # width * height indices, row by row
    palette: tuple[int, ...]      # 0xRRGGBB per index

    def row(self, y: int) -> bytes:
        return self.pixels[y * self.width:(y + 1) * self.width]

    def at(self, x: int, y: int) -> int:
        return self.pixels[y * self.width + x]


def _chunk(kind: bytes, data: bytes) -> bytes:
    crc = zlib.crc32(kind + data) & 0xFFFFFFFF
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", crc)


def encode(pic: Indexed) -> bytes:
    """The bytes of an 8-bit palette PNG of ``pic``."""
    if len(pic.pixels) != pic.width * pic.height:
        raise ValueError("pixel count does not match width * height")
    raw = b"".join(b"\x00" + pic.row(y) for y in range(pic.height))
    plte = b"".join(struct.pack(">I", c)[1:] for c in pic.palette)
    return (_SIGNATURE
            + _chunk(b"IHDR", struct.pack(">IIBBBBB", pic.width, pic.height, 8, 3, 0, 0, 0))
            + _chunk(b"PLTE", plte)
            + _chunk(b"IDAT", zlib.compress(raw, 9))
            + _chunk(b"IEND", b""))


def write(path: str | Path, pic: Indexed) -> None:
    Path(path).write_bytes(encode(pic))


def _paeth(a: int, b: int, c: int) -> int:
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    if pa <= pb and pa <= pc:
        return a
    return b if pb <= pc else c


def _unfilter(kind: int, line: bytearray, prev: bytes) -> None:
    # One byte per pixel, so the "left" neighbour is one byte back.
    if kind == 0:
        return
    for i in range(len(line)):
        left = line[i - 1] if i else 0
        up = prev[i]
        if kind == 1:
            line[i] = (line[i] + left) & 0xFF
        elif kind == 2:
            line[i] = (line[i] + up) & 0xFF
        elif kind == 3:
            line[i] = (line[i] + (left + up) // 2) & 0xFF
        elif kind == 4:
            line[i] = (line[i] + _paeth(left, up, prev[i - 1] if i else 0)) & 0xFF
        else:
            raise ValueError(f"unknown PNG filter {kind}")


def decode(data: bytes) -> Indexed:
    """An 8-bit palette PNG back into indices."""
    if not data.startswith(_SIGNATURE):
        raise ValueError("not a PNG file")
    pos, idat, palette, head = 8, b"", (), None
    while pos < len(data):
        (length,) = struct.unpack(">I", data[pos:pos + 4])
        kind, body = data[pos + 4:pos + 8], data[pos + 8:pos + 8 + length]
        pos += 12 + length
        if kind == b"IHDR":
            head = struct.unpack(">IIBBBBB", body)
        elif kind == b"PLTE":
            palette = tuple(int.from_bytes(body[i:i + 3], "big") for i in range(0, len(body), 3))
        elif kind == b"IDAT":
            idat += body
    if head is None or head[2:5] != (8, 3, 0) or head[6] != 0:
        raise ValueError("only 8-bit, non-interlaced palette PNGs are read")
    width, height = head[0], head[1]
    raw = zlib.decompress(idat)
    out, prev = bytearray(), bytes(width)
    for y in range(height):
        start = y * (width + 1)
        line = bytearray(raw[start + 1:start + 1 + width])
        _unfilter(raw[start], line, prev)
        out += line
        prev = bytes(line)
    return Indexed(width, height, bytes(out), palette)


def read(path: str | Path) -> Indexed:
    return decode(Path(path).read_bytes())
