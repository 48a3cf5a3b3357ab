"""The rules pages and the tutorial: thin views; the words are in presentation.py and the templates."""

from __future__ import annotations

import re

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.utils.html import strip_tags
from django.utils.translation import get_language, gettext
from django.views.decorators.http import require_GET

import durak
from durak_site import engine_text
from games.presentation import build_table

from . import presentation, tutorial_words
from .tutorial import YOU, Tutorial

#: A section of a rules text and its heading, for the page's table of contents.
SECTION = re.compile(r'<section id="([\w-]+)"[^>]*>\s*<h2[^>]*>(.*?)</h2>', re.DOTALL)

#: Languages that have their own prose templates; any other falls back to English.
PROSE_LANGUAGES = ("en", "ru")


def _prose_language() -> str:
    language = (get_language() or "en").split("-")[0]
    return language if language in PROSE_LANGUAGES else "en"


def _common_context() -> dict[str, object]:
    return {
        "enchanted": presentation.enchanted_ranks(),
        "stages": presentation.enchanted_stages(),
        "team_counts": presentation.team_counts(),
    }


@require_GET
def index(request: HttpRequest) -> HttpResponse:
    """Every preset in one card each, then team play and the enchanted cards (``#teams``,
    ``#enchanted``: the lobby and the game page link there)."""
    context = {"presets": presentation.preset_cards(), **_common_context()}
    return render(request, "guide/index.html", context)


@require_GET
def preset(request: HttpRequest, preset: str) -> HttpResponse:
    """One preset's rules written for players, ending with its table of options."""
    if preset not in durak.PRESETS:
        raise Http404("no such rules")
    card = next(card for card in presentation.preset_cards() if card.name == preset)
    common = _common_context()
    prose = render_to_string(f"guide/rules/{_prose_language()}/{preset}.html", common, request)
    context = {
        "preset": card,
        "prose": prose,
        "contents": [(anchor, strip_tags(title)) for anchor, title in SECTION.findall(prose)],
        "options": presentation.option_rows(preset),
        "baseline": presentation.PRESET_TITLES[presentation.BASELINE],
        "is_baseline": preset == presentation.BASELINE,
        "others": [other for other in presentation.preset_cards() if other.name != preset],
        **common,
    }
    return render(request, "guide/preset.html", context)


@require_GET
def tutorial(request: HttpRequest) -> HttpResponse:
    """A first game against scripted moves. The moves so far are in ``?moves=``; each button is a
    GET form that adds one of the engine's legal actions. A move the engine refuses is a 400 that
    shows the game as it was, with the engine's reason."""
    state = Tutorial.replay(request.GET.get("moves", ""))
    view = state.game.view(YOU)
    error = None
    if state.refused is not None:
        error = (
            engine_text.engine_message(state.reason)
            if state.reason
            else gettext("That move is not possible now.")
        )
    step, steps = tutorial_words.progress(state)
    last = state.steps[-1] if state.steps else None
    # The real table's words and cards (``games.presentation``), from your view of the game.
    table = build_table(
        view,
        tutorial_words.names(),
        YOU,
        last_action=last.action if last else None,
        last_position=last.player if last else None,
    )
    buttons = tutorial_words.buttons(state)
    context = {
        "table": table,
        # As on the real table: each defence on the attack it beats, the other card plays in the
        # play zone, the rest under the hand; with JavaScript a picked card arms its targets.
        "pairs": [
            (
                pair,
                [
                    b
                    for b in buttons
                    if b.button.kind == "defend" and b.button.action["target"] == pair.attack
                ],
            )
            for pair in table.pairs
        ],
        "play_buttons": [b for b in buttons if b.button.cards and b.button.kind != "defend"],
        "other_buttons": [b for b in buttons if not b.button.cards],
        # The cards of the suggested move, marked in the hand: pick one to find the suggestion.
        "suggested_cards": next((b.button.cards for b in buttons if b.suggested), ()),
        "tip": tutorial_words.tip(state),
        "latest": tutorial_words.latest(state),
        "history": tutorial_words.history(state),
        "moves": ",".join(state.moves),
        "error": error,
        "over": state.game.over,
        "step": step,
        "steps": steps,
        "on_main_line": state.on_main_line,
    }
    return render(request, "guide/tutorial.html", context, status=400 if error else 200)


@require_GET
def reliability(request: HttpRequest) -> HttpResponse:
    """What a player's reliability counts, in plain words (``games.reliability``)."""
    return render(request, "guide/reliability.html")
