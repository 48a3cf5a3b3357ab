"""The rules pages and the tutorial: thin views; the words are in presentation.py and the templates."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import get_language
from django.views.decorators.http import require_GET

import durak

from . import presentation

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
    context = {
        "preset": card,
        "prose_template": f"guide/rules/{_prose_language()}/{preset}.html",
        "options": presentation.option_rows(preset),
        "baseline": presentation.PRESET_TITLES[presentation.BASELINE],
        "is_baseline": preset == presentation.BASELINE,
        "others": [other for other in presentation.preset_cards() if other.name != preset],
        **_common_context(),
    }
    return render(request, "guide/preset.html", context)


@require_GET
def tutorial(request: HttpRequest) -> HttpResponse:
    raise Http404("the tutorial is not written yet")
