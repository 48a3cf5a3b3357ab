"""The series page and the "play again" button: thin views over series services and selectors."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from accounts.models import User
from games import selectors as game_selectors
from games.exceptions import GameError, GameNotFound

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


@require_POST
@login_required
def play_again(request: HttpRequest, game_id: int) -> HttpResponse:
    assert isinstance(request.user, User)
    try:
        game_selectors.game_get_for_viewer(
            game_id=game_id,
            user=request.user,
            shared_game_ids=game_selectors.share_link_game_ids(request.session),
        )
    except GameNotFound:
        raise Http404(_("No such game.")) from None
    try:
        agreed = int(request.POST["games_agreed"]) if request.POST.get("games_agreed") else None
        game = services.play_again(user=request.user, game_id=game_id, games_agreed=agreed)
    except ValueError:
        messages.error(request, _("The number of games must be a whole number."))
        return redirect("games:detail", game_id=game_id)
    except GameNotFound:
        raise Http404(_("No such game.")) from None
    except GameError as error:
        messages.error(request, error.message)
        return redirect("games:detail", game_id=game_id)
    return redirect("games:detail", game_id=game.pk)
