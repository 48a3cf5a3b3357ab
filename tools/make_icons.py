"""Draw the web app's icons into ``static/icons/``: two fanned cards, a spade and a heart, on
the table's green felt. Standard library only (the shapes are tested point by point, 16
samples a pixel, and written as PNG with ``zlib``); the PNGs are committed, so run this only
after changing the drawing::

    python3 tools/make_icons.py

- ``icon-192.png``, ``icon-512.png``: the manifest's "any" icons, rounded corners, transparent
  outside them;
- ``icon-maskable-512.png``: the manifest's "maskable" icon, full-bleed felt with the cards
  inside the safe circle (80% of the width) that every platform's mask keeps;
- ``apple-touch-icon.png`` (180 x 180): full-bleed, as iOS rounds the corners itself;
- ``badge-96.png``: the small monochrome badge Android shows in the status bar (white on
  transparent: only its alpha counts).
"""

from __future__ import annotations

import math
import struct
import sys
import zlib
from collections.abc import Callable
from pathlib import Path

OUT = Path(__file__).resolve().parent.parent / "static" / "icons"

Colour = tuple[int, int, int]
FELT: Colour = (0x1F, 0x6F, 0x43)
PAPER: Colour = (0xFD, 0xFD, 0xF8)
EDGE: Colour = (0x17, 0x57, 0x3A)
INK: Colour = (0x1D, 0x1D, 0x1F)
RED: Colour = (0xC8, 0x10, 0x2E)
WHITE: Colour = (0xFF, 0xFF, 0xFF)

#: A shape: whether the point (x, y), in units of the icon's width with (0, 0) at its centre
#: and y pointing down, is inside.
Shape = Callable[[float, float], bool]


def rounded_rect(half_w: float, half_h: float, radius: float) -> Shape:
    def inside(x: float, y: float) -> bool:
        dx, dy = abs(x) - (half_w - radius), abs(y) - (half_h - radius)
        if dx <= 0 or dy <= 0:
            return abs(x) <= half_w and abs(y) <= half_h
        return dx * dx + dy * dy <= radius * radius

    return inside


def heart(size: float) -> Shape:
    """The classic curve (x² + y² - 1)³ = x² y³, point down, ``size`` wide."""

    def inside(x: float, y: float) -> bool:
        u, v = x / size * 2.3, -(y / size * 2.3) + 0.15
        return (u * u + v * v - 1) ** 3 - u * u * v**3 <= 0

    return inside


def spade(size: float) -> Shape:
    """A heart upside down, with a stem."""
    body = heart(size)

    def inside(x: float, y: float) -> bool:
        if body(x, -y + size * 0.1):
            return True
        top, bottom = size * 0.15, size * 0.62
        if top <= y <= bottom:
            return abs(x) <= size * 0.05 + (y - top) / (bottom - top) * size * 0.2
        return False

    return inside


def moved(shape: Shape, dx: float, dy: float, degrees: float = 0.0) -> Shape:
    """``shape`` turned by ``degrees`` (clockwise on screen) about its centre, then moved."""
    c, s = math.cos(math.radians(degrees)), math.sin(math.radians(degrees))

    def inside(x: float, y: float) -> bool:
        x, y = x - dx, y - dy
        return shape(x * c + y * s, -x * s + y * c)

    return inside


def scaled(shape: Shape, factor: float) -> Shape:
    return lambda x, y: shape(x / factor, y / factor)


#: The two cards, each as (its outline with a thin border, its face, its suit), in the icon's
#: units for a drawing that fills the whole icon (the maskable one shrinks it to the safe zone).
def cards() -> list[tuple[Shape, Shape, Shape, Colour]]:
    half_w, half_h = 0.2, 0.29
    layers = []
    # The back card's spade sits left of its middle, where the front card does not hide it.
    for degrees, dx, dy, suit, at, colour in (
        (-14, -0.1, 0.02, spade, -0.085, INK),
        (12, 0.1, -0.01, heart, 0.0, RED),
    ):
        outline = moved(rounded_rect(half_w + 0.012, half_h + 0.012, 0.05), dx, dy, degrees)
        face = moved(rounded_rect(half_w, half_h, 0.04), dx, dy, degrees)
        mark = moved(moved(suit(0.2 if at else 0.22), at, 0.0), dx, dy, degrees)
        layers.append((outline, face, mark, colour))
    return layers


def paint(x: float, y: float, *, background: Shape | None, zoom: float) -> tuple[int, int, int, int] | None:
    """The colour at one point of the icon, or None where it is transparent."""
    colour: tuple[int, int, int, int] | None = None
    if background is None or background(x, y):
        colour = (*FELT, 255)
    for outline, face, mark, suit_colour in cards():
        if scaled(outline, zoom)(x, y):
            colour = (*EDGE, 255)
        if scaled(face, zoom)(x, y):
            colour = (*(suit_colour if scaled(mark, zoom)(x, y) else PAPER), 255)
    return colour


def badge(x: float, y: float) -> tuple[int, int, int, int] | None:
    return (*WHITE, 255) if scaled(spade(0.7), 1.0)(x, y + 0.05) else None


def render(
    size: int, sample: Callable[[float, float], tuple[int, int, int, int] | None], samples: int = 4
) -> bytes:
    """RGBA rows, each point the average of ``samples``² samples (transparent ones count as such)."""
    rows = bytearray()
    step = 1.0 / samples
    for py in range(size):
        rows.append(0)  # PNG filter type: none
        for px in range(size):
            r = g = b = a = 0
            for sy in range(samples):
                for sx in range(samples):
                    x = (px + (sx + 0.5) * step) / size - 0.5
                    y = (py + (sy + 0.5) * step) / size - 0.5
                    colour = sample(x, y)
                    if colour is not None:
                        r, g, b, a = r + colour[0], g + colour[1], b + colour[2], a + colour[3]
            if a:
                # Colour averaged over the covered samples only (every one is opaque), so edges
                # fade out instead of darkening; alpha is the share of samples covered.
                count = a // 255
                rows += bytes((r // count, g // count, b // count, a // (samples * samples)))
            else:
                rows += bytes((0, 0, 0, 0))
    return bytes(rows)


def png(size: int, rgba_rows: bytes) -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        return (
            struct.pack(">I", len(data))
            + kind
            + data
            + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
        )

    header = struct.pack(">IIBBBBB", size, size, 8, 6, 0, 0, 0)  # 8-bit RGBA
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(rgba_rows, 9))
        + chunk(b"IEND", b"")
    )


def main() -> int:
    OUT.mkdir(parents=True, exist_ok=True)
    rounded = rounded_rect(0.5, 0.5, 0.11)
    icons: dict[str, tuple[int, Callable[[float, float], tuple[int, int, int, int] | None]]] = {
        "icon-192.png": (192, lambda x, y: paint(x, y, background=rounded, zoom=1.0)),
        "icon-512.png": (512, lambda x, y: paint(x, y, background=rounded, zoom=1.0)),
        "icon-maskable-512.png": (512, lambda x, y: paint(x, y, background=None, zoom=0.78)),
        "apple-touch-icon.png": (180, lambda x, y: paint(x, y, background=None, zoom=0.92)),
        "badge-96.png": (96, badge),
    }
    for name, (size, sample) in icons.items():
        (OUT / name).write_bytes(png(size, render(size, sample)))
        print(f"wrote {OUT / name}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
