"""Text on the felt is at least 4.5:1 against what is painted under it (issue 29, WCAG 1.4.3),
measured on the screen's pixels, not on the style sheet: axe-core cannot read a gradient and
skips such text, and the felt is one.

For each run of text on the table, two screenshots: the page as it is, and the page with every
text of the table made transparent (the background alone). The background is the pixels of
the second under the run's strokes (the pixels where the two differ, inside the run's boxes);
the text's colour is the stroke of the first that stands out most (a solid stroke of a glyph:
the pages are taken at a device scale of 2). The ratio is that colour against the worst
background pixel under the strokes.

Named by the issue: the player's own clock, a highlighted (waited for) opponent's name and "The
table is empty."; then every other text of the table in the same states. A disabled control
(a card of the hand that cannot be played now) is exempt, as WCAG exempts inactive components.
"""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest
from PIL import Image
from playwright.sync_api import Browser, Page

from tests.browser.table_states import BUILD, log_in

pytestmark = pytest.mark.django_db(transaction=True)

SCALE = 2
MINIMUM = 4.5

# The runs of text of the table: for each visible text node with words, its boxes (page
# coordinates), the element it belongs to and whether the issue names it.
RUNS_JS = """
() => {
  const named = (el) => el.closest(".clock.mine") ? "own clock"
    : el.closest(".opponent.waited .name") && !el.closest(".role") ? "waited opponent's name"
    : el.closest(".empty-table") ? "the table is empty" : "";
  const runs = [];
  const walker = document.createTreeWalker(document.getElementById("table"), NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const el = node.parentElement;
    if (!node.textContent.trim() || !el.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true })) continue;
    if (el.closest("[disabled], .visually-hidden, [aria-hidden=true]")) continue;
    const range = document.createRange();
    range.selectNodeContents(node);
    const boxes = [...range.getClientRects()].filter((r) => r.width >= 2 && r.height >= 2)
      .map((r) => [r.left + scrollX, r.top + scrollY, r.width, r.height]);
    if (!boxes.length) continue;
    const classes = el.className && typeof el.className === "string" ? "." + el.className.trim().split(/\\s+/).join(".") : "";
    runs.push({ text: node.textContent.trim().slice(0, 40), where: el.tagName.toLowerCase() + classes, named: named(el), boxes });
  }
  return runs;
}
"""

HIDE_TEXT = "#table, #table * { color: transparent !important; text-shadow: none !important; }"


def luminance(pixel: tuple[int, ...]) -> float:
    """The relative luminance of an sRGB pixel (WCAG 2)."""

    def channel(value: int) -> float:
        c = value / 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(v) for v in pixel[:3])
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def ratio(a: float, b: float) -> float:
    lighter, darker = max(a, b), min(a, b)
    return (lighter + 0.05) / (darker + 0.05)


def pixels(image: Image.Image, box: tuple[int, int, int, int]) -> list[tuple[int, int, int]]:
    """The RGB pixels of ``box`` of ``image``, row by row."""
    raw = image.crop(box).tobytes()
    return list(zip(raw[0::3], raw[1::3], raw[2::3], strict=True))


def run_contrast(shown: Image.Image, bare: Image.Image, boxes: list[list[float]]) -> float | None:
    """The contrast of a run of text: its painted colour against the worst background pixel under
    its strokes. None when nothing of it is painted (no pixel differs from the background)."""
    text: list[float] = []  # the painted pixels that differ from the background
    under: list[float] = []  # the background at those pixels
    for x, y, width, height in boxes:
        box = (round(x * SCALE), round(y * SCALE), round((x + width) * SCALE), round((y + height) * SCALE))
        for on, off in zip(pixels(shown, box), pixels(bare, box), strict=True):
            if max(abs(p - q) for p, q in zip(on, off, strict=True)) > 24:
                text.append(luminance(on))
                under.append(luminance(off))
    if not text:
        return None
    # Light text on a dark ground: its lightest strokes against the lightest background under
    # them; and the other way round. (The 1st and 99th percentiles: one stray pixel does not
    # decide; the text's colour is its solid strokes, not the blended edges of its glyphs.)
    light = sum(text) / len(text) > sum(under) / len(under)
    strokes, ground = sorted(text), sorted(under)
    last = len(text) - 1
    if light:
        return ratio(strokes[int(last * 0.99)], ground[int(last * 0.99)])
    return ratio(strokes[int(last * 0.01)], ground[int(last * 0.01)])


def measure(page: Page) -> list[tuple[dict[str, Any], float]]:
    """Each run of text of the table with its contrast, the page laid out at its full height (so
    that the docked hand lies where it belongs, over nothing)."""
    width = page.viewport_size["width"] if page.viewport_size else 1280
    height = int(page.evaluate("document.documentElement.scrollHeight"))
    page.set_viewport_size({"width": width, "height": height})
    page.evaluate("window.scrollTo(0, 0)")
    runs = page.evaluate(RUNS_JS)
    shown = Image.open(io.BytesIO(page.screenshot(animations="disabled", caret="hide"))).convert("RGB")
    style = page.add_style_tag(content=HIDE_TEXT)
    bare = Image.open(io.BytesIO(page.screenshot(animations="disabled", caret="hide"))).convert("RGB")
    style.evaluate("(el) => el.remove()")
    measured = []
    for run in runs:
        contrast = run_contrast(shown, bare, run["boxes"])
        if contrast is not None:
            measured.append((run, contrast))
    return measured


@pytest.mark.parametrize("width", [360, 1280])
def test_text_on_the_felt_is_at_least_4_5_to_1(
    browser: Browser, live_server: Any, width: int, artifacts: Path
) -> None:
    context = browser.new_context(
        viewport={"width": width, "height": 800}, device_scale_factor=SCALE, bypass_csp=True
    )  # the style that hides the text is inline
    page = context.new_page()
    states = [BUILD["attacker"](6), BUILD["defender"](6), BUILD["thrower"](6), BUILD["spectator"](6)]
    found_named: set[str] = set()
    measured_named: list[str] = []
    problems: list[str] = []
    for language in ("en", "ru"):
        for state in states:
            log_in(page, live_server, state.viewer, language)
            page.set_viewport_size({"width": width, "height": 800})
            page.goto(f"{live_server.url}/games/{state.game.pk}/")
            page.wait_for_selector("html.js #table .situation")
            page.evaluate("document.fonts.ready")
            measured = measure(page)
            low = [(run, contrast) for run, contrast in measured if contrast < MINIMUM]
            found_named |= {run["named"] for run, _ in measured if run["named"]}
            measured_named += [
                f"{language} {state.role}: {run['named']} {run['text']!r} {contrast:.2f}:1"
                for run, contrast in measured
                if run["named"]
            ]
            if low:
                page.screenshot(path=str(artifacts / f"contrast-{language}-{width}-{state.role}.png"))
            problems += [
                f"{language} {width}px {state}: {run['named'] or run['where']} {run['text']!r}: {contrast:.2f}:1"
                for run, contrast in low
            ]
    context.close()
    (artifacts / f"contrast-{width}.txt").write_text("\n".join(measured_named) + "\n")
    assert found_named == {"own clock", "waited opponent's name", "the table is empty"}, found_named
    assert not problems, f"{len(problems)} runs of text under {MINIMUM}:1\n" + "\n".join(problems)
