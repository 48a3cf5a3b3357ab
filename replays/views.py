"""Replay page and JSON export of finished games (404 for any other game)."""

from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from games import selectors as game_selectors
from games import words
from games.exceptions import GameNotFound
from games.models import Game

from . import selectors


def _finished(request: HttpRequest, game_id: int) -> Game:
    """A finished game the visitor may see (``game_visible_to``); every other id, a missing one
    included, gets the same 404."""
    try:
        game = selectors.finished_game(game_id=game_id)
    except GameNotFound:
        raise Http404(_("Only a finished game can be replayed.")) from None
    shared = game_selectors.share_link_game_ids(request.session)
    if not game_selectors.game_visible_to(game=game, user=request.user, shared_game_ids=shared):
        raise Http404(_("Only a finished game can be replayed."))
    return game


@require_GET
def replay(request: HttpRequest, game_id: int) -> HttpResponse:
    game = _finished(request, game_id)
    moves = selectors.game_moves(game=game)
    try:
        step = int(request.GET.get("step", len(moves)))
    except ValueError:
        step = len(moves)
    frame = selectors.replay_frame(game=game, moves=moves, step=step)
    names = selectors.seat_names(game)
    on_beaten = words.passes_on_beaten(moves)
    context = {
        "game": game,
        "frame": frame,
        "total": len(moves),
        "moves": [
            (move.seq, selectors.describe(move, names, all_beaten=move.seq in on_beaten)) for move in moves
        ],
        "fairness": selectors.check_fairness(game=game, moves=moves),
        "current": moves[frame.step - 1].seq if frame.step else 0,
    }
    return render(request, "replays/replay.html", context)


@require_GET
def export(request: HttpRequest, game_id: int) -> HttpResponse:
    game = _finished(request, game_id)
    data = selectors.export(game=game, moves=selectors.game_moves(game=game))
    response = JsonResponse(data, json_dumps_params={"indent": 1})
    response["Content-Disposition"] = f'attachment; filename="durak-game-{game.pk}.json"'
    return response
