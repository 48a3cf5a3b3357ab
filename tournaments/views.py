"""The tournaments' pages: the list, the create form, and each tournament's page with its buttons.

Thin: ``services`` decides and words its refusals, ``selectors`` reads. Every button is a plain
form (the page works without JavaScript: a POST answers with a redirect back and a message);
with htmx it swaps the page's live part (``tournaments/tournament.html#live``), which also
refreshes itself when the tournament's live channel says it changed, and while the stream is
down, by polling: answered ``204`` while it shows what the reader has (``shown``).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django_htmx.middleware import HtmxDetails

from accounts.models import BOT_LEVELS, User
from durak_site import dates
from games.exceptions import GameError, InvalidRules
from games.selectors import share_link_game_ids

from . import selectors, services, words
from .forms import ComputerForm, TournamentCreateForm
from .models import Tournament


class HtmxHttpRequest(HttpRequest):
    htmx: HtmxDetails


def _user(request: HttpRequest) -> User:
    assert isinstance(request.user, User)
    return request.user


@require_GET
def tournament_list(request: HttpRequest) -> HttpResponse:
    return render(request, "tournaments/list.html", {"lists": selectors.tournament_list()})


@require_http_methods(["GET", "POST"])
@login_required
def tournament_create(request: HttpRequest) -> HttpResponse:
    """The form; a refusal (of the form or of ``services.tournament_create``) is the form again
    with the reason, answered 400, and nothing is written."""
    if request.method != "POST":
        return _create_page(request, TournamentCreateForm())
    form = TournamentCreateForm(request.POST)
    if form.is_valid():
        try:
            tournament = services.tournament_create(creator=_user(request), **form.create_options())
        except GameError as error:
            form.add_error(None, error.message)
        else:
            messages.success(request, _("The tournament is announced."))
            return redirect("tournaments:detail", tournament_id=tournament.pk)
    return _create_page(request, form, status=400)


def _create_page(request: HttpRequest, form: TournamentCreateForm, status: int = 200) -> HttpResponse:
    zone = dates.zone_name(timezone.get_current_timezone())
    return render(request, "tournaments/create.html", {"form": form, "zone": zone}, status=status)


def _tournament(tournament_id: int) -> Tournament:
    tournament = selectors.tournament_get(tournament_id)
    if tournament is None:
        raise Http404(_("No such tournament."))
    return tournament


def _mark(request: HttpRequest, page: selectors.TournamentPage) -> str:
    """A digest of what the live part shows: its refreshes send it back (``shown``), answered
    204 while it is the same."""
    t = page.tournament
    shown = [
        request.user.pk,
        get_language(),
        t.version,
        t.status,
        [(player.user_id, player.withdrawn) for player in page.players],
        [
            (
                line.number,
                [
                    (table.board, table.game.status if table.game else "", table.game_link)
                    for table in line.tables
                ],
            )
            for line in page.rounds
        ],
        [
            (table.board, [(place.result, place.place) for place in table.places])
            for line in page.rounds
            for table in line.tables
        ],
    ]
    return hashlib.sha256(repr(shown).encode()).hexdigest()[:16]


def _render(
    request: HtmxHttpRequest,
    tournament: Tournament,
    *,
    error: str = "",
    status: int = 200,
    fragment: bool = False,
) -> HttpResponse:
    page = selectors.tournament_page(
        tournament=tournament, viewer=request.user, shared_game_ids=share_link_game_ids(request.session)
    )
    user = request.user
    refusal = None
    if user.is_authenticated and page.me is None and tournament.status == Tournament.Status.REGISTRATION:
        refusal = services.registration_refusal(tournament, _user(request))
    mark = _mark(request, page)
    if fragment and not error and request.GET.get("shown") == mark:
        return HttpResponse(status=204)
    context: dict[str, Any] = {
        "tournament": tournament,
        "page": page,
        "settings": words.settings_lines(tournament),
        "error": error,
        "mark": mark,
        "refusal": refusal,
        "may_register": user.is_authenticated and page.me is None and refusal is None,
        "may_unregister": services.may_unregister(tournament, page.me),
        "may_withdraw": services.may_withdraw(tournament, page.me),
        "may_cancel": services.may_cancel(tournament, user),
        "may_add_computer": services.may_add_computer(tournament, user),
        "bot_levels": BOT_LEVELS,
        "opens_later": tournament.registration_opens_at > timezone.now(),
    }
    template = "tournaments/tournament.html#live" if fragment else "tournaments/tournament.html"
    return render(request, template, context, status=status)


@require_GET
def tournament_detail(request: HtmxHttpRequest, tournament_id: int) -> HttpResponse:
    """The page; asked by htmx (its live part refreshing), the live part alone."""
    return _render(request, _tournament(tournament_id), fragment=bool(request.htmx))


def _act(request: HtmxHttpRequest, tournament_id: int, action: Callable[[User], str]) -> HttpResponse:
    """Do ``action`` for the user; say what it did, or why not (the page with the reason and the
    refusal's status: 403 not allowed, 409 not now, 400 bad input)."""
    tournament = _tournament(tournament_id)
    try:
        done = action(_user(request))
    except GameError as error:
        tournament.refresh_from_db()
        return _render(
            request, tournament, error=error.message, status=error.status_code, fragment=bool(request.htmx)
        )
    if request.htmx:
        tournament.refresh_from_db()
        return _render(request, tournament, fragment=True)
    messages.success(request, done)
    return redirect("tournaments:detail", tournament_id=tournament_id)


@require_POST
@login_required
def register(request: HtmxHttpRequest, tournament_id: int) -> HttpResponse:
    def do(user: User) -> str:
        services.tournament_register(user=user, tournament_id=tournament_id)
        return _("You are registered.")

    return _act(request, tournament_id, do)


@require_POST
@login_required
def unregister(request: HtmxHttpRequest, tournament_id: int) -> HttpResponse:
    def do(user: User) -> str:
        services.tournament_unregister(user=user, tournament_id=tournament_id)
        return _("Your registration is cancelled.")

    return _act(request, tournament_id, do)


@require_POST
@login_required
def withdraw(request: HtmxHttpRequest, tournament_id: int) -> HttpResponse:
    def do(user: User) -> str:
        services.tournament_withdraw(user=user, tournament_id=tournament_id)
        return _("You have withdrawn from the tournament.")

    return _act(request, tournament_id, do)


@require_POST
@login_required
def add_computer(request: HtmxHttpRequest, tournament_id: int) -> HttpResponse:
    form = ComputerForm(request.POST)

    def do(user: User) -> str:
        if not form.is_valid():
            raise InvalidRules(_("Choose how strong the computer player is."))
        services.tournament_add_computer(
            user=user, tournament_id=tournament_id, level=form.cleaned_data["level"]
        )
        return _("A computer player is registered.")

    return _act(request, tournament_id, do)


@require_POST
@login_required
def cancel(request: HtmxHttpRequest, tournament_id: int) -> HttpResponse:
    def do(user: User) -> str:
        services.tournament_cancel(user=user, tournament_id=tournament_id)
        return _("The tournament is cancelled.")

    return _act(request, tournament_id, do)
