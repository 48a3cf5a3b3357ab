"""The series page and a finished game's rematch (offer, accept, decline, the live panel): thin
views over series services and selectors."""

from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from accounts.models import User
from games import selectors as game_selectors
from games.exceptions import GameError, GameNotFound
from games.models import Game

from . import selectors, services


@require_GET
def series_detail(request: HttpRequest, series_id: int) -> HttpResponse:
    # A series of private games is theirs too: it lists only the games the viewer may open.
    shared = game_selectors.share_link_game_ids(request.session)
    try:
        table = selectors.series_table(series_id=series_id, viewer=request.user, shared_game_ids=shared)
    except GameNotFound:
        raise Http404(_("No such series.")) from None
    seated = request.user.is_authenticated and any(user.pk == request.user.pk for user in table.players)
    return render(request, "series/series.html", {"table": table, "seated": seated})


def _finished_game(request: HttpRequest, game_id: int) -> Game:
    """The game if the user may see it, else the 404 of a missing game."""
    try:
        return game_selectors.game_get_for_viewer(
            game_id=game_id,
            user=request.user,
            shared_game_ids=game_selectors.share_link_game_ids(request.session),
        )
    except GameNotFound:
        raise Http404(_("No such game.")) from None


def _rematch_panel(request: HttpRequest, game: Game, *, error: str = "", status: int = 200) -> HttpResponse:
    state = selectors.rematch_state(game=game, viewer=request.user)
    return render(
        request,
        "games/_rematch.html",
        {"game": game, "rematch": state, "rematch_error": error},
        status=status,
    )


@require_GET
def rematch_panel(request: HttpRequest, game_id: int) -> HttpResponse:
    """The finished game's offer of a rematch (the page's live element asks when the stream says
    it changed, and polls without a stream): 204 while ``state`` is what the page shows."""
    game = _finished_game(request, game_id)
    if game.status != Game.Status.FINISHED:
        return HttpResponse(status=204)
    state = selectors.rematch_state(game=game, viewer=request.user)
    if request.GET.get("state") == state.token:
        return HttpResponse(status=204)
    return render(request, "games/_rematch.html", {"game": game, "rematch": state})


def _answer(request: HttpRequest, game_id: int, write: Callable[..., Any], **kwargs: Any) -> HttpResponse:
    """Run one rematch write for the user; the panel for HTMX (with the error, 4xx), else back to
    the game's page (with the error as a message)."""
    assert isinstance(request.user, User)
    game = _finished_game(request, game_id)
    try:
        write(user=request.user, game_id=game_id, **kwargs)
    except GameNotFound:
        raise Http404(_("No such game.")) from None
    except GameError as error:
        if getattr(request, "htmx", False):
            return _rematch_panel(request, game, error=error.message, status=error.status_code)
        messages.error(request, error.message)
        return redirect("games:detail", game_id=game_id)
    if getattr(request, "htmx", False):
        return _rematch_panel(request, game)
    return redirect("games:detail", game_id=game_id)


@require_POST
@login_required
def rematch_offer(request: HttpRequest, game_id: int) -> HttpResponse:
    raw = request.POST.get("games_agreed", "").strip()
    if raw and not (raw.isascii() and raw.isdigit() and len(raw) <= 4):
        message = _("The number of games must be a whole number.")
        if getattr(request, "htmx", False):
            return _rematch_panel(request, _finished_game(request, game_id), error=message, status=400)
        messages.error(request, message)
        return redirect("games:detail", game_id=game_id)
    return _answer(request, game_id, services.rematch_offer, games_agreed=int(raw) if raw else None)


@require_POST
@login_required
def rematch_accept(request: HttpRequest, game_id: int) -> HttpResponse:
    return _answer(request, game_id, services.rematch_accept)


@require_POST
@login_required
def rematch_decline(request: HttpRequest, game_id: int) -> HttpResponse:
    return _answer(request, game_id, services.rematch_decline)
