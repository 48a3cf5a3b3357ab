"""Pages: thin views over services (writes) and selectors (reads).

Every control is a plain form, so the site works without JavaScript; with it,
HTMX posts the same forms and swaps only the table partial.
"""

import hashlib
from typing import Any
from urllib.parse import urlencode

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.cache import cache
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import get_language, ngettext
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST
from django_htmx.middleware import HtmxDetails

import durak
from accounts import relations
from accounts.models import User
from accounts.relations import blocks_between
from durak import ENCHANTED_STAGES
from durak_site import offline
from durak_site.jsonlimits import loads_limited

from . import leaving, limits, selectors, services, timeouts, versions, words
from .exceptions import GameError, GameNotFound, InvalidRules
from .forms import GameCreateForm, LobbyFilterForm, VacationForm
from .models import Game, Seat
from .presentation import build_table, engine


class HtmxHttpRequest(HttpRequest):
    htmx: HtmxDetails


def _player(request: HttpRequest) -> User:
    """The logged-in user of a ``login_required`` view."""
    assert isinstance(request.user, User)
    return request.user


#: The lobby's filters in its query string (``LobbyFilterForm``).
LOBBY_FILTERS = ("rules", "players", "clock")


def _lobby_filters(request: HttpRequest) -> LobbyFilterForm:
    """The filters asked for, or an unbound form when the query string names none."""
    return LobbyFilterForm(
        request.GET if any(key in request.GET for key in LOBBY_FILTERS) else None, auto_id="filter_%s"
    )


def _open_games_context(request: HttpRequest, filters: LobbyFilterForm) -> dict[str, Any]:
    """The open games the filters leave (all of them while a filter is refused): three queries
    whatever their number (the games, their seats with users, none more per game)."""
    selection = filters.selection()
    open_games = list(selectors.lobby_open_games(**selection, viewer=request.user))
    query = urlencode({key: value for key, value in filters.data.items() if key in LOBBY_FILTERS and value})
    context = {
        "open_games": open_games,
        # Games where the user already sits get a link, not a Join button that can only fail.
        "seated_in": {
            game.pk
            for game in open_games
            if any(seat.user_id == request.user.pk for seat in game.seats.all())
        },
        "filters": filters,
        "filtered": any(selection.values()),
        "filter_query": f"?{query}" if query and filters.is_valid() else "",
    }
    context["open_games_mark"] = _open_games_mark(request, context)
    return context


def _open_games_mark(request: HttpRequest, context: dict[str, Any]) -> str:
    """A short digest of what the list of open games shows: the list sends it back with its
    refreshes (``shown``), answered 204 while it is the same, so that a poll or a stream event
    does not replace the list (and the Join button under the reader's pointer) with its twin."""
    shown = [
        request.user.pk,
        get_language(),
        context["filter_query"],
        context["filtered"],
        context["filters"].error_lines() if context["filters"].is_bound else [],
        sorted(context["seated_in"]),
        [
            (
                game.pk,
                game.version,
                game.creator.username,
                [(seat.user_id, seat.user.username, seat.user.is_bot) for seat in game.seats.all()],
            )
            for game in context["open_games"]
        ],
    ]
    return hashlib.sha256(repr(shown).encode()).hexdigest()[:16]


def _lobby(request: HtmxHttpRequest, form: GameCreateForm, status: int = 200) -> HttpResponse:
    filters = _lobby_filters(request)
    if filters.is_bound and not filters.is_valid():
        status = 400
    context = {
        **_open_games_context(request, filters),
        "my_games": (selectors.user_games(user=request.user) if request.user.is_authenticated else []),
        "form": form,
        "enchanted_stages": {stage: list(ranks) for stage, ranks in ENCHANTED_STAGES.items()},
        "preset_summaries": form.preset_summaries(),
    }
    return render(request, "games/lobby.html", context, status=status)


@require_GET
def lobby(request: HtmxHttpRequest) -> HttpResponse:
    """The lobby; ``?invite=<username>`` fills the create form's invitation (the friends page's
    "invite to a game")."""
    invite = request.GET.get("invite", "")[:150]
    return _lobby(request, GameCreateForm(initial={"invite": invite} if invite else None))


@require_GET
def lobby_open_games(request: HtmxHttpRequest) -> HttpResponse:
    """``GET /games/open/?rules=…&players=…&clock=…``: the lobby's list of open games alone, as
    its filters and its live updates (and the polls while the stream is down) fetch it. The
    address bar keeps the lobby's own address with the filters (a link to share, a reload)."""
    filters = _lobby_filters(request)
    context = _open_games_context(request, filters)
    status = 400 if filters.is_bound and not filters.is_valid() else 200
    if status == 200 and request.GET.get("shown") == context["open_games_mark"]:
        return HttpResponse(status=204)  # the reader's list is this one: nothing to swap
    response = render(request, "games/lobby.html#open-games", context, status=status)
    if request.htmx and status == 200:
        response["HX-Replace-Url"] = reverse("games:lobby") + context["filter_query"]
    return response


@require_POST
@login_required
def game_create(request: HtmxHttpRequest) -> HttpResponse:
    """Open a game, or play against the computer; a refusal is the lobby with the form and the
    reason, answered with its status (409 at the limit of games with computer players)."""
    form = GameCreateForm(request.POST)
    status = 400
    if form.is_valid():
        overrides = form.overrides()
        if form.is_valid():
            options: dict[str, Any] = {
                "preset": form.cleaned_data["preset"],
                "num_players": form.cleaned_data["num_players"],
                "overrides": overrides,
                "move_time": form.move_time(),
                "pause_weekends": form.cleaned_data.get("pause_weekends") or False,
                "private": form.cleaned_data.get("private") or False,
            }
            level = form.cleaned_data.get("bot_level") or ""
            invite = (form.cleaned_data.get("invite") or "").strip()
            try:
                if request.POST.get("against") == "computer":
                    if not level:
                        raise InvalidRules(_("Choose how strong the computer players are."))
                    game = services.game_against_computer(creator=_player(request), level=level, **options)
                else:
                    game = services.game_create(
                        creator=_player(request), bot_level=level, **options, **form.join_limits()
                    )
            except GameError as error:
                form.add_error(None, error.message)
                status = error.status_code
            else:
                if invite and game.status == Game.Status.OPEN:
                    # The game is open whatever the invitation's fate: its refusal is said there.
                    try:
                        services.game_invite(user=_player(request), game_id=game.pk, username=invite)
                    except GameError as error:
                        messages.error(request, error.message)
                    else:
                        messages.success(request, _("%(name)s is invited.") % {"name": invite})
                return redirect("games:detail", game_id=game.pk)
    return _lobby(request, form, status=status)


def confirms_moves(user: User | Any, game: Game) -> bool:
    """Whether the page asks before a move is sent: the user's choice, "correspondence" (the
    default) meaning in games with a correspondence time control."""
    choice = getattr(user, "confirm_moves", "correspondence")
    if choice == "always":
        return True
    if choice == "never":
        return False
    return game.time_control == "correspondence"


def _get_game(request: HttpRequest, game_id: int) -> Game:
    """The game if the visitor may see it; else the same 404 as for a game that does not exist."""
    try:
        return selectors.game_get_for_viewer(
            game_id=game_id, user=request.user, shared_game_ids=selectors.share_link_game_ids(request.session)
        )
    except GameNotFound:
        raise Http404(_("No such game.")) from None


def _seat_name(seat: Seat) -> str:
    return words.seat_name(seat.user)


def _render_game(
    request: HtmxHttpRequest,
    game_id: int,
    *,
    error: str = "",
    status: int = 200,
    visit: bool = False,
    watching: bool = False,
    held: Game | None = None,
) -> HttpResponse:
    # What the player had seen on screen before (``Seat.seen_moves``): the history marks the
    # others' moves since as new. A swap into a page that is visible shows its moves live: seen,
    # none of them new (the marks made when the page opened, or while it was hidden, stay:
    # history.js keeps them).
    live_on_screen = bool(request.htmx) and _page_visible(request)
    # The game, its seats and the latest page of its log at one moment (a move committed
    # meanwhile is the next page's).
    try:
        page = selectors.game_page(
            game_id=game_id,
            user=request.user,
            shared_game_ids=selectors.share_link_game_ids(request.session),
            live=live_on_screen,
            held=held,
        )
    except GameNotFound:
        raise Http404(_("No such game.")) from None
    game = page.game
    seen = selectors.game_view(game=game, user=request.user)
    marks_after = page.seen
    if visit and game.status == Game.Status.ACTIVE:
        services.seat_seen(game=game, seat=seen.seat, moves=game.moves_made)
        _seen_just_now(request, game.pk)
    elif (watching or live_on_screen) and seen.seat is not None:  # the open page is shown a new version
        services.seat_watching(
            game_id=game.pk,
            user_id=seen.seat.user_id,
            changed=True,
            seat=seen.seat,
            shown_moves=game.moves_made if live_on_screen else None,
        )
        _seen_just_now(request, game.pk)
    seats = list(game.seats.all())
    table = None
    history = words.History([])
    if seen.view is not None:
        names = {seat.position: _seat_name(seat) for seat in seats}
        # The latest page of the log, from the start of its first bout, in one read: the history
        # and the last-move line (``games.words``), the same words as from the whole log.
        moves = page.moves
        last = next((move for move in reversed(moves) if durak.is_move(move.action["type"])), None)
        over = engine.game_of(seen.view) if seen.view.get("over") else None
        history = words.history(
            moves,
            me=seen.position,
            names=names,
            seen=marks_after,
            outcome=over.outcome() if over is not None else None,
            since=page.history.first,
            new_earlier=page.history.new_earlier,
        )
        table = build_table(
            seen.view,
            names,
            seen.position,
            last_action=last.action if last is not None else None,
            last_position=last.position if last is not None else None,
            last_all_beaten=last is not None and last.seq in words.passes_on_beaten(moves),
            hand_order=getattr(request.user, "hand_order", "suit_trumps_last"),
            computers=frozenset(seat.position for seat in seats if seat.user.is_bot),
            reliability={seat.position: seat.user.reliability for seat in seats if not seat.user.is_bot},
            # A seated player's own notes about the others (one query); never a spectator's view.
            notes=_notes_at_table(request.user, seats) if seen.seat is not None else None,
        )
    join_refusal = None
    if (
        isinstance(request.user, User)
        and seen.seat is None
        and game.status == Game.Status.OPEN
        and len(seats) < game.num_players
    ):
        # Why this player may not take a seat (a direct link to a game the lobby hides from them).
        join_refusal = limits.join_refusal(
            game, request.user, blocked=blocks_between(request.user, [seat.user_id for seat in seats])
        )
    context: dict[str, Any] = {
        "game": game,
        "seats": seats,
        "seat": seen.seat,
        "table": table,
        "history": history,
        "history_seen": marks_after,
        "error": error,
        "poll_seconds": settings.GAME_POLL_SECONDS,
        "presence_heartbeat": int(services.PRESENCE_HEARTBEAT.total_seconds()),
        "can_join": join_refusal is None
        and (
            request.user.is_authenticated
            and seen.seat is None
            and game.status == Game.Status.OPEN
            and len(seats) < game.num_players
        ),
        "join_refusal": join_refusal,
        "join_limits": limits.limits_words(game) if game.status == Game.Status.OPEN else [],
        "can_fill_with_bots": (
            request.user.is_authenticated
            and game.status == Game.Status.OPEN
            and request.user.pk == game.creator_id
            and bool(game.bot_level)
            and len(seats) < game.num_players
        ),
        "can_start": (
            request.user.is_authenticated
            and game.status == Game.Status.OPEN
            and request.user.pk == game.creator_id
            and len(seats) >= 2
        ),
        "clocks": selectors.game_clocks(game=game, seats=seats, viewer=request.user),
        "share_link": (
            request.build_absolute_uri(reverse("games:join_link", args=[game.pk, game.invite_token]))
            if seen.seat is not None and game.status == Game.Status.OPEN
            else ""
        ),
        "invite_token": request.GET.get("invite", ""),
        "four_colour": bool(getattr(request.user, "four_colour_deck", False)),
        "confirm_moves": seen.seat is not None and confirms_moves(request.user, game),
        # Resign and claim (games/_leave.html): the seats' waits date the claim.
        "leaving": leaving.leaving_for(game=game, seat=seen.seat, seats=seats, viewer=request.user),
    }
    template = "games/game.html#table" if request.htmx else "games/game.html"
    response = render(request, template, context, status=status)
    if seen.seat is not None and not request.htmx:
        offline.keep_offline(response)  # the player's own table: the service worker may keep it
    return response


def _notes_at_table(viewer: Any, seats: list[Seat]) -> dict[int, str]:
    """``viewer``'s private notes about the others at the table, by seat: one query."""
    by_user = relations.notes_by(viewer, [seat.user_id for seat in seats if seat.user_id != viewer.pk])
    return {seat.position: by_user[seat.user_id] for seat in seats if seat.user_id in by_user}


@require_GET
def game_detail(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    return _render_game(request, game_id, visit=not request.htmx)


@require_GET
def game_poll(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    """Answers 204 from the version number alone while nothing changed (for a public game from
    the cache when one is shared, else one query); otherwise the table partial."""
    asked = request.GET.get("version", "")
    # Digits only, and few: int() refuses "²" and 5000 digits with a ValueError.
    known = int(asked) if asked.isascii() and asked.isdigit() and len(asked) <= 10 else None
    cached = versions.cached(game_id)
    if known is not None and cached is not None and cached != known:
        # The shared cache knows the game has moved on: the table at once (it checks who may
        # see the game itself, with the same 404), without asking for the version first.
        return _render_game(request, game_id, watching=True)
    try:
        version = selectors.game_version_for_viewer(
            game_id=game_id,
            user=request.user,
            shared_game_ids=selectors.share_link_game_ids(request.session),
            known=known,
        )
    except GameNotFound:
        raise Http404(_("No such game.")) from None
    if asked == str(version):
        _still_watching(request, game_id)
        return HttpResponse(status=204)
    return _render_game(request, game_id, watching=True)


#: The greatest move number a request may name (``Move.seq`` is a 32-bit integer).
_MOST_MOVES = 2**31 - 1


def _move_number(asked: str) -> int | None:
    """A move number from a query string, or None for anything but one from 0 to
    ``_MOST_MOVES`` in ASCII digits (int() would take "²", " 7" and 5000 digits)."""
    if not (asked.isascii() and asked.isdigit() and len(asked) <= 10):
        return None
    number = int(asked)
    return number if number <= _MOST_MOVES else None


@require_GET
def game_history(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    """``GET /games/<id>/history/?before=N``: the ``HISTORY_PAGE`` moves of the history before
    move ``N`` ("Earlier moves"), with its own "Earlier moves" while more remain: the list's
    items, which HTMX puts in place of the button; without JavaScript a page of them. To whoever
    may see the game, else the 404 of a missing game; ``seen`` (the ``Seat.seen_moves`` the
    page was drawn with) marks the others' moves after it as new, as on the page. Three
    queries, and no engine state read before the game is over, however long the log."""
    before = _move_number(request.GET.get("before", ""))
    if before is None or before < 1:
        return HttpResponse(
            _("Name the move to show the moves before as a number from 1."),
            status=400,
            content_type="text/plain",
        )
    asked_seen = request.GET.get("seen", "")
    seen = _move_number(asked_seen) if asked_seen else None
    if asked_seen and seen is None:
        return HttpResponse(
            _("Give the moves seen as a number from 0."), status=400, content_type="text/plain"
        )
    game = _get_game(request, game_id)
    seat = selectors.seat_of(game=game, user=request.user)
    me = None if seat is None else seat.position
    window = selectors.history_window(game_id=game.pk, before=before) if game.state is not None else None
    history = words.History([])
    if window is not None:
        outcome = None
        if game.status == Game.Status.FINISHED and window.moves and window.moves[-1].seq == game.moves_made:
            outcome = selectors.game_view(game=game, user=request.user).outcome  # its end is on the page
        history = words.history(
            window.moves,
            me=me,
            names={s.position: _seat_name(s) for s in game.seats.all()},
            seen=seen if me is not None else None,
            outcome=outcome,
            since=window.first,
        )
    context = {"game": game, "history": history, "history_seen": seen if me is not None else None}
    template = "games/_history_items.html" if request.htmx else "games/history.html"
    return render(request, template, context)


def _page_visible(request: HttpRequest) -> bool:
    """Whether the page that asked is shown on the screen now (``X-Page-Visible``, which
    ``static/js/live.js`` adds to the page's requests from ``document.visibilityState``)."""
    return request.headers.get("X-Page-Visible") == "1"


@require_POST
@login_required
def game_presence(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    """``POST /games/<id>/presence/``: the player's page of the game is open and visible
    (``visible=1``) or not (``visible=0``), showing the table at ``version``
    (``services.seat_presence``; ``static/js/live.js`` posts it). 204 for a player of the game;
    for anyone else 404, what a missing game gives: a spectator's or a stranger's word changes
    nothing and learns nothing."""
    asked = request.POST.get("version", "")
    version = int(asked) if asked.isascii() and asked.isdigit() and len(asked) <= 10 else None
    seated = services.seat_presence(
        game_id=game_id,
        user_id=_player(request).pk,
        visible=request.POST.get("visible") == "1",
        version=version,
    )
    return HttpResponse(status=204 if seated else 404)


def _watched_key(request: HttpRequest, game_id: int) -> str | None:
    """The cache key that says this browser's page of the game marked its seat seen lately
    (by the session cookie, hashed), or None without a session."""
    cookie = request.COOKIES.get(settings.SESSION_COOKIE_NAME)
    if not cookie:
        return None
    return f"game-watched:{game_id}:{hashlib.sha256(cookie.encode()).hexdigest()[:32]}"


def _seen_just_now(request: HttpRequest, game_id: int) -> None:
    if key := _watched_key(request, game_id):
        cache.set(key, True, timeout=services.SEEN_REFRESH.total_seconds())


def _still_watching(request: HttpRequest, game_id: int) -> None:
    """A poll that found nothing new: the page is still open. Refresh the player's seat as seen
    (``services.seat_watching``) at most every ``services.SEEN_REFRESH`` per browser, counted
    in the cache, so the other polls cost no query."""
    key = _watched_key(request, game_id)
    if key is None or not cache.add(key, True, timeout=services.SEEN_REFRESH.total_seconds()):
        return
    if request.user.is_authenticated:
        services.seat_watching(game_id=game_id, user_id=request.user.pk, changed=False)


@require_POST
@login_required
def game_move(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    try:
        expected_version = int(request.POST.get("expected_version", ""))
        action = loads_limited(request.POST.get("action", ""))
    except ValueError:
        return _render_game(request, game_id, error=_("That move was not understood."), status=400)
    try:
        played = services.make_move(
            user=_player(request),
            game_id=game_id,
            action=action,
            expected_version=expected_version,
            shared_game_ids=selectors.share_link_game_ids(request.session),
        )
    except GameNotFound:
        raise Http404(_("No such game.")) from None
    except GameError as error:
        return _render_game(request, game_id, error=error.message, status=error.status_code)
    if request.htmx:
        return _render_game(request, game_id, held=played)  # the table as the move wrote it
    return redirect("games:detail", game_id=game_id)


def _seat_action(
    request: HtmxHttpRequest, game_id: int, service: Any, done: str, then: str = "games:detail"
) -> HttpResponse:
    """Run a join/leave/start service; report the outcome as a message on the next page.
    A game the user may not see is a 404 before anything is tried."""
    _get_game(request, game_id)
    try:
        service(user=_player(request), game_id=game_id)
    except GameNotFound:
        raise Http404(_("No such game.")) from None
    except GameError as error:
        messages.error(request, error.message)
        return redirect("games:detail", game_id=game_id)
    messages.success(request, done)
    return redirect(then, game_id=game_id) if then == "games:detail" else redirect(then)


@require_POST
@login_required
def game_join(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    token = request.POST.get("token") or None

    def join(*, user: User, game_id: int) -> Game:
        return services.game_join(user=user, game_id=game_id, token=token)

    return _seat_action(request, game_id, join, _("You took a seat."))


@require_GET
def game_join_link(request: HtmxHttpRequest, game_id: int, token: str) -> HttpResponse:
    """A share link: the game page with a "take a seat" button that carries the token. The
    session remembers a private game's link opened with the right token: its holder may watch
    the game (``selectors.game_visible_to``); a wrong token for one is a 404, as for no game."""
    try:
        game = selectors.game_get(game_id=game_id)
    except GameNotFound:
        raise Http404(_("No such game.")) from None
    if game.private and selectors.share_link_matches(game=game, token=token):
        selectors.share_link_remember(session=request.session, game=game)
    shared = selectors.share_link_game_ids(request.session)
    if not selectors.game_visible_to(game=game, user=request.user, shared_game_ids=shared):
        raise Http404(_("No such game."))
    return redirect(reverse("games:detail", args=[game_id]) + f"?invite={token}")


@require_POST
@login_required
def game_invite(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    username = request.POST.get("username", "")

    def invite(*, user: User, game_id: int) -> object:
        return services.game_invite(user=user, game_id=game_id, username=username)

    return _seat_action(request, game_id, invite, _("%(name)s is invited.") % {"name": username.strip()})


@require_GET
@login_required
def turns_waiting(request: HtmxHttpRequest) -> HttpResponse:
    """``GET /games/turns/``: the header's counter of games waiting for the user's move, as the
    fragment ``static/js/turns.js`` swaps in (from the user's own seats: one query); with
    ``?current=<game id>`` also the game page's "next game waiting for you" button (that game
    excluded), with an empty ``?current=`` the lobby's."""
    asked = request.GET.get("current", "")
    if asked and not (asked.isascii() and asked.isdigit() and len(asked) <= 18):
        return HttpResponse(_("Name the game as a number."), status=400, content_type="text/plain")
    context = {"with_next_game": "current" in request.GET, "current": int(asked) if asked else None}
    return render(request, "games/_turns.html", context)


@require_POST
@login_required
def vacation_take(request: HtmxHttpRequest) -> HttpResponse:
    form = VacationForm(request.POST, today=timeouts.local_today(_player(request)))
    if not form.is_valid():
        messages.error(request, form.first_error() or _("Give a start date and a number of days."))
        return redirect("notifications:settings")
    starts_on, days = form.cleaned_data["starts_on"], form.cleaned_data["days"]
    try:
        services.vacation_take(user=_player(request), starts_on=starts_on, days=days)
    except GameError as error:
        messages.error(request, error.message)
    else:
        messages.success(
            request,
            ngettext(
                "Vacation booked: %(days)d day from %(start)s.",
                "Vacation booked: %(days)d days from %(start)s.",
                days,
            )
            % {"days": days, "start": starts_on},
        )
    return redirect("notifications:settings")


@require_POST
@login_required
def game_leave(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    return _seat_action(request, game_id, services.game_leave, _("You left the game."), then="games:lobby")


@require_POST
@login_required
def game_start(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    return _seat_action(request, game_id, services.game_start, _("The cards are dealt."))


@require_POST
@login_required
def game_fill_with_bots(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    return _seat_action(
        request, game_id, services.game_fill_with_bots, _("Computer players took the empty seats.")
    )


# Leaving a running game (games/_leave.html): resign, or claim a game that waited too long.


def _leave(request: HtmxHttpRequest, game_id: int, service: Any) -> HttpResponse:
    """Post a resignation or a claim against the version the page showed; a refusal is the game
    page (or its table) with the reason, answered with its status (400 for the engine's no)."""
    _get_game(request, game_id)
    asked = request.POST.get("expected_version", "")
    if not (asked.isascii() and asked.isdigit() and len(asked) <= 10):
        return _render_game(request, game_id, error=_("That request was not understood."), status=400)
    try:
        service(user=_player(request), game_id=game_id, expected_version=int(asked))
    except GameNotFound:
        raise Http404(_("No such game.")) from None
    except GameError as error:
        return _render_game(request, game_id, error=error.message, status=error.status_code)
    if request.htmx:
        return _render_game(request, game_id)
    return redirect("games:detail", game_id=game_id)


@require_POST
@login_required
def game_resign(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    return _leave(request, game_id, services.player_resign)


@require_POST
@login_required
def game_claim(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    return _leave(request, game_id, services.game_claim)
