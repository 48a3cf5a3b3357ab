"""Render the web app's PNG icons into ``static/icons/`` from one SVG master,
``static/icons/icon.svg`` (two fanned cards, a spade and a heart, on the table's green felt). The
PNGs are committed, so run this only after changing the master::

    .venv/bin/python tools/make_icons.py    # a Python with the test extra (Playwright)

The master is drawn by Chromium, as the browsers that show the icons draw it (Playwright and
Debian's ``/usr/bin/chromium``, which the browser tests use already). Each PNG is the master with a
change made by id:

- ``icon-192.png``, ``icon-512.png``: the manifest's "any" icons, the master as it is (rounded
  corners, transparent outside them);
- ``icon-maskable-512.png``: the manifest's "maskable" icon, full-bleed felt with the cards shrunk
  into the safe circle (80% of the width) that every platform's mask keeps;
- ``apple-touch-icon.png`` (180 x 180): full-bleed, as iOS rounds the corners itself;
- ``badge-96.png``: the small monochrome badge Android shows in the status bar: the spade alone,
  white on transparent (only its alpha counts).
"""

from __future__ import annotations

import sys
import xml.etree.ElementTree as ET
from pathlib import Path

from playwright.sync_api import sync_playwright

OUT = Path(__file__).resolve().parent.parent / "static" / "icons"
MASTER = OUT / "icon.svg"
SVG = "http://www.w3.org/2000/svg"
ET.register_namespace("", SVG)


def variant(size: int, *, full_bleed: bool = False, zoom: float = 1.0, badge: bool = False) -> str:
    """The master's text, ``size`` pixels square, with one variant's changes."""
    root = ET.fromstring(MASTER.read_text(encoding="utf-8"))
    root.set("width", str(size))
    root.set("height", str(size))
    by_id = {element.get("id"): element for element in root.iter() if element.get("id")}
    felt, cards, spade = by_id["felt"], by_id["cards"], by_id["spade"]
    if full_bleed:
        felt.set("rx", "0")
    if zoom != 1.0:
        cards.set("transform", f"scale({zoom})")
    if badge:
        for child in list(root):
            root.remove(child)
        mark = ET.SubElement(root, f"{{{SVG}}}path", {"d": spade.get("d", ""), "fill": "#fff"})
        mark.set("transform", "translate(0 -5) scale(3.5)")
    return ET.tostring(root, encoding="unicode")


def icons() -> dict[str, tuple[int, str]]:
    return {
        "icon-192.png": (192, variant(192)),
        "icon-512.png": (512, variant(512)),
        "icon-maskable-512.png": (512, variant(512, full_bleed=True, zoom=0.78)),
        "apple-touch-icon.png": (180, variant(180, full_bleed=True, zoom=0.92)),
        "badge-96.png": (96, variant(96, badge=True)),
    }


def main() -> int:
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path="/usr/bin/chromium")
        try:
            for name, (size, svg) in icons().items():
                page = browser.new_page(viewport={"width": size, "height": size})
                page.set_content(f'<html><body style="margin:0;background:transparent">{svg}</body></html>')
                page.locator("svg").screenshot(path=str(OUT / name), omit_background=True)
                page.close()
                print(f"wrote {OUT / name}", flush=True)
        finally:
            browser.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
