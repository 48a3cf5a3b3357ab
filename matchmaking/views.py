"""Pages of "Play now": the waiting page, joining, leaving, and the block's refresh.

Thin: ``services`` writes, ``selectors`` reads. Every control is a plain form; with JavaScript
the waiting block asks again when the player's live channel says the queue changed (or polls
while the stream is down, and every 30 seconds anyway, which also keeps the player present), and
goes to the game once one is found (``HX-Redirect``).
"""

from datetime import timedelta

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from accounts.models import User
from games.exceptions import GameError

from . import selectors, services
from .forms import PlayNowForm

#: The waiting page, opened again this soon after its game was found, goes to the game (a page
#: without JavaScript); later it shows the form, for another game.
JUST_FOUND = timedelta(minutes=2)


def _player(request: HttpRequest) -> User:
    assert isinstance(request.user, User)
    return request.user


def _game_url(game_id: int) -> str:
    return reverse("games:detail", kwargs={"game_id": game_id})


@require_http_methods(["GET", "POST"])
def play(request: HttpRequest) -> HttpResponse:
    """``GET``: the waiting page (or the form); a player whose game was found goes to it.
    ``POST`` (signed in): join the queue with the form's choice."""
    if request.method == "POST":
        return _join(request)
    matched = selectors.current_entry(user=request.user)
    just_found = (
        matched is not None
        and matched.matched_at is not None
        and timezone.now() - matched.matched_at < JUST_FOUND
    )
    if matched is not None and matched.game_id is not None and just_found:
        return redirect(_game_url(matched.game_id))
    return render(request, "matchmaking/play.html", {"play_now_form": PlayNowForm()})


@login_required
def _join(request: HttpRequest) -> HttpResponse:
    """Join with the form's choice; a refusal is the form with the reason, answered with its
    status (409 at the limit of games with computer players)."""
    form = PlayNowForm(request.POST)
    status = 400
    if form.is_valid():
        try:
            entry = services.queue_join(
                user=_player(request),
                preset=form.cleaned_data["preset"],
                num_players=form.cleaned_data["num_players"],
                time_control=form.cleaned_data["time_control"],
                fill_after=form.wait(),
                bot_level=form.cleaned_data.get("bot_level") or services.DEFAULT_BOT_LEVEL,
                min_reliability=form.cleaned_data.get("min_reliability"),
                friends_only=bool(form.cleaned_data.get("friends_only")),
                rating_min=form.cleaned_data.get("rating_min"),
                rating_max=form.cleaned_data.get("rating_max"),
                language=form.cleaned_data.get("language") or "",
            )
        except GameError as error:
            form.add_error(None, error.message)
            status = error.status_code
        else:
            if entry.game_id is not None:
                return redirect(_game_url(entry.game_id))
            return redirect("matchmaking:play")
    return render(request, "matchmaking/play.html", {"play_now_form": form}, status=status)


@require_POST
@login_required
def leave(request: HttpRequest) -> HttpResponse:
    """Stop waiting; back to where the form was (the lobby or the waiting page)."""
    try:
        services.queue_leave(user=_player(request))
    except GameError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, _("You stopped waiting for a game."))
    target = request.POST.get("next", "")
    if not url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()}):
        target = reverse("matchmaking:play")
    return redirect(target)


@require_GET
def status(request: HttpRequest) -> HttpResponse:
    """The play-now block alone (what the lobby and the waiting page refresh); once the player's
    game is found, the waiting block (``?waiting=1``) gets ``HX-Redirect`` to it. The lobby's
    news of the queue refreshes from here too, and stays where it is."""
    matched = selectors.current_entry(user=request.user)
    if request.GET.get("waiting") and matched is not None and matched.game_id is not None:
        return HttpResponse(status=200, headers={"HX-Redirect": _game_url(matched.game_id)})
    return render(request, "matchmaking/_play_now.html", {"play_now_form": PlayNowForm()})
