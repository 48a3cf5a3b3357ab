"""The chat of a game page: a log that polls (204 while nothing changed) and a post form.

Both work without JavaScript too: ``/games/<id>/chat/`` is then a page of its own.
"""

from collections.abc import Container
from typing import Any

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from games import selectors as game_selectors
from games.exceptions import GameNotFound
from games.models import Game

from . import restrictions, selectors, services
from .exceptions import ChatError
from .models import MAX_LENGTH, ChatMessage


def _shared(request: HttpRequest) -> Container[int]:
    return game_selectors.share_link_game_ids(request.session)


def _game(request: HttpRequest, game_id: int) -> Game:
    """The game if the visitor may see it (``game_visible_to``); else the 404 of a missing game."""
    try:
        return game_selectors.game_get_for_viewer(
            game_id=game_id, user=request.user, shared_game_ids=_shared(request)
        )
    except GameNotFound:
        raise Http404(_("No such game.")) from None


def _render_log(
    request: HttpRequest, game: Game, *, error: str = "", text: str = "", status: int = 200
) -> HttpResponse:
    channel = (
        services.channel_for(game=game, user=request.user)
        if request.user.is_authenticated
        else ChatMessage.Channel.SPECTATORS
    )
    context: dict[str, Any] = {
        "game": game,
        "channel": channel,
        "marker": selectors.chat_marker(game_id=game.pk, channel=channel),
        "chat_messages": selectors.chat_messages(game_id=game.pk, channel=channel, reader=request.user),
        "refusal": restrictions.why_not(user_id=request.user.pk) if request.user.is_authenticated else None,
        "chat_error": error,
        "chat_text": text,
        "poll_seconds": settings.GAME_POLL_SECONDS,
        "max_length": MAX_LENGTH,
        "seated": channel == ChatMessage.Channel.PLAYERS,
    }
    template = "chat/page.html#log" if getattr(request, "htmx", False) else "chat/page.html"
    return render(request, template, context, status=status)


@require_GET
def chat_log(request: HttpRequest, game_id: int) -> HttpResponse:
    """While the ``marker`` of the ``channel`` the page shows has not moved: 204, for a public
    game's spectators' chat from one query (no session, no user). Otherwise the log of the viewer's own channel.
    A game the visitor may not see is a 404 whatever the marker."""
    channel, marker = request.GET.get("channel"), request.GET.get("marker")
    if channel in ChatMessage.Channel.values and marker is not None:
        polled = selectors.chat_poll_game(game_id=game_id, channel=channel)
        if (
            polled is not None
            and polled.marker == marker  # type: ignore[attr-defined]
            and game_selectors.game_visible_to(
                game=polled, user=request.user, shared_game_ids=_shared(request)
            )
            # Only the viewer's own channel's marker answers, so that a spectator cannot time the
            # players' chat; a public game's spectators' chat is everyone's, so that poll needs
            # no user.
            and (
                (channel == ChatMessage.Channel.SPECTATORS and not polled.private)
                or services.channel_for(game=polled, user=request.user) == channel  # type: ignore[arg-type]
            )
        ):
            return HttpResponse(status=204)
    return _render_log(request, _game(request, game_id))


def _refused(request: HttpRequest, game: Game, *, error: ChatError, text: str) -> HttpResponse:
    """A refused post, as a 4xx: with htmx the form alone, the refusal above the unsent text, swapped
    in place of the form (the post targets the log, which a refusal must not touch: the page around
    stays as it is); without, the chat page with that form."""
    if not getattr(request, "htmx", False):
        return _render_log(request, game, error=error.message, text=text, status=error.status_code)
    context = {"game": game, "chat_error": error.message, "chat_text": text, "max_length": MAX_LENGTH}
    response = render(request, "chat/_form.html", context, status=error.status_code)
    response["HX-Retarget"] = "#chat-form"
    response["HX-Reswap"] = "outerHTML"
    return response


@require_POST
@login_required
def chat_post(request: HttpRequest, game_id: int) -> HttpResponse:
    game = _game(request, game_id)
    text = request.POST.get("text", "")
    try:
        services.chat_post(user=request.user, game=game, text=text)  # type: ignore[arg-type]
    except ChatError as error:
        return _refused(request, game, error=error, text=text)
    return (
        _render_log(request, game)
        if getattr(request, "htmx", False)
        else redirect("chat:log", game_id=game_id)
    )
