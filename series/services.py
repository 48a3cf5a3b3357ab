"""A rematch by consent, and the next game of a series it starts.

A player of a finished game offers a rematch (``rematch_offer``), proposing the series length;
every other player accepts or declines (``rematch_accept``, ``rematch_decline``). When the last
one accepts, the next game starts (``start_next_game``): the same players in the same seats and
the same rules; the fool of the last game deals and the engine's rule for later games picks who
attacks first (``durak.Game.new(..., first_game=False)``). Nobody is seated in a game they did
not agree to.

Every write here locks the finished game's row first (then the offer, then what
``games.services`` locks for the new game: docs/locking.md), so two offers or two last
accepts at once make one offer and one game; a partial unique constraint
(``rematch_one_live_offer_per_game``) backs the first up. With computer players at the table,
the next game is one more game with computer players of its creator (the first seat's player,
``BOT_GAMES_PER_USER`` at most: ``games.services.check_bot_games``), whose row is locked before
the finished game's (a user row before any game).
"""

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from accounts.models import User
from accounts.relations import blocked_pairs
from durak_site import live
from games import services as games
from games.exceptions import GameNotFound, InvalidRules, NotAllowed, WrongStatus
from games.models import Game, Seat
from notifications import services as notifications

from .models import (
    DEFAULT_GAMES,
    MAX_GAMES,
    REMATCH_OFFER_LIFETIME,
    RematchAcceptance,
    RematchOffer,
    Series,
    SeriesGame,
)


def next_dealer(game: Game) -> int:
    """Who deals after ``game``: its fool. In a team game, the first player of the losing team
    still holding cards; after a draw the same dealer deals again (the rule texts are silent)."""
    assert game.state is not None
    outcome = game.engine().outcome()
    if outcome is None or outcome.draw:
        return game.dealer
    if outcome.loser is not None:
        return outcome.loser
    holding = [p for p in outcome.losers if outcome.place(p) is None]
    return min(holding or outcome.losers)


def start_next_game(*, user: User, game_id: int, games_agreed: int | None = None) -> Game:
    """The game after ``game_id`` in its series, dealt and running, every player of the finished
    game seated. The first next game after a single game makes it game 1 of a new series of
    ``games_agreed`` games; once a series has its agreed number, the next game opens a new
    series of the same length. ``user`` is recorded as the new series' creator.

    Seats people without asking them: only ``rematch_accept`` calls it, once everyone has
    agreed (tests build series with it). Locks the finished game's row, so two calls at once
    get the same next game.
    """
    with transaction.atomic():
        game = _lock_finished(game_id)
        seats = list(game.seats.select_related("user").order_by("position"))
        return _start_next_game(game=game, seats=seats, user=user, games_agreed=games_agreed)


def _lock_finished(game_id: int) -> Game:
    """The finished game's row, locked; first, if computer players sat at it, the row of the
    next game's creator (``_start_next_game``), so that it is taken before any game's."""
    seats = list(
        Seat.objects.filter(game_id=game_id).order_by("position").values_list("user_id", "user__is_bot")
    )
    if any(is_bot for _user_id, is_bot in seats):
        games.lock_player(user_id=seats[0][0])
    try:
        game = Game.objects.select_for_update(of=("self",), no_key=True).get(pk=game_id)
    except Game.DoesNotExist:
        raise GameNotFound(_("There is no game %(game)s.") % {"game": game_id}) from None
    if game.status != Game.Status.FINISHED:
        raise WrongStatus(_("Only a finished game can be played again."))
    return game


def _series_length(games_agreed: int | None) -> int:
    agreed = DEFAULT_GAMES if games_agreed is None else games_agreed
    if not 1 <= agreed <= MAX_GAMES:
        raise InvalidRules(
            ngettext(
                "A series has from 1 to %(max)s game.", "A series has from 1 to %(max)s games.", MAX_GAMES
            )
            % {"max": MAX_GAMES}
        )
    return agreed


def _following(game: Game) -> Game | None:
    """The next game of ``game``'s series, if it was started already."""
    entry = SeriesGame.objects.filter(game=game).first()
    if entry is None:
        return None
    already = SeriesGame.objects.select_related("game").filter(
        series_id=entry.series_id, number=entry.number + 1
    )
    return next((row.game for row in already), None)


def _start_next_game(
    *, game: Game, seats: list[Seat], user: User, games_agreed: int | None, asked_by: User | None = None
) -> Game:
    """``start_next_game`` with the finished game locked by the caller; ``asked_by``: the player
    whose request starts it, when not ``user`` (for ``TooManyBotGames``' words)."""
    entry = SeriesGame.objects.select_related("series").filter(game=game).first()
    if entry is None:
        series = Series.objects.create(created_by=user, games_agreed=_series_length(games_agreed))
        entry = SeriesGame.objects.create(series=series, game=game, number=1)
    already = (
        SeriesGame.objects.select_related("game").filter(series=entry.series, number=entry.number + 1).first()
    )
    if already is not None:
        return already.game
    _refuse_kept_apart(seats)
    if any(seat.user.is_bot for seat in seats):  # its creator's row is locked (``_lock_finished``)
        games.check_bot_games(user=seats[0].user, asked_by=asked_by or user)
    series, number = entry.series, entry.number + 1
    if entry.number >= series.games_agreed:
        series = Series.objects.create(created_by=user, games_agreed=series.games_agreed)
        number = 1
    following = games.game_create(
        creator=seats[0].user,
        preset=game.preset,
        num_players=len(seats),
        overrides=game.rule_overrides,
        move_time=game.move_time,
        pause_weekends=game.pause_weekends,
        private=game.private,
        dealer=next_dealer(game),
        first_game=False,
    )
    for seat in seats[1:]:
        games.game_join(user=seat.user, game_id=following.pk, token=following.invite_token)
    SeriesGame.objects.create(series=series, game=following, number=number)
    following.refresh_from_db()
    return following


# --- A rematch by consent ---------------------------------------------------------------------


def _refuse_kept_apart(seats: list[Seat]) -> None:
    """No next game where a block keeps two of the players apart (``accounts.relations``: from
    the next game on; the finished one was not affected). The words name no block."""
    if blocked_pairs([seat.user_id for seat in seats]):
        raise NotAllowed(_("A rematch is not possible with these players."))


def _players(game: Game) -> list[Seat]:
    return list(game.seats.select_related("user").order_by("position"))


def _seat_of(seats: list[Seat], user: User) -> Seat:
    seat = next((seat for seat in seats if seat.user_id == user.pk), None)
    if seat is None:
        raise NotAllowed(_("Only a player of this game can answer or offer a rematch."))
    return seat


def _live_offer(game: Game) -> RematchOffer | None:
    """The game's open or accepted offer, its row locked (the game's row is locked already).
    An open one past its time is marked expired here, which makes room for a new one."""
    offer = (
        RematchOffer.objects.select_for_update(of=("self",), no_key=True)
        .filter(game=game, status__in=[RematchOffer.Status.OPEN, RematchOffer.Status.ACCEPTED])
        .first()
    )
    if offer is not None and offer.status == RematchOffer.Status.OPEN and offer.expires_at <= timezone.now():
        offer.status = RematchOffer.Status.EXPIRED
        offer.decided_at = offer.expires_at
        offer.save(update_fields=["status", "decided_at"])
        return None
    return offer


def _changed_on_commit(game: Game) -> None:
    """Tell the finished game's open pages that its offer changed (no card, no name: they ask)."""
    live.send_on_commit(live.rematch_channel(game.pk), "rematch", {"game": game.pk})


@transaction.atomic
def rematch_offer(*, user: User, game_id: int, games_agreed: int | None = None) -> RematchOffer:
    """Offer the players of the finished game ``game_id`` the next game, in a new series of
    ``games_agreed`` games (1 to ``MAX_GAMES``; the finished game is its first) unless the game's
    series goes on. The offerer and the computer players have accepted; the others are notified.
    When nobody else has to answer (a game against the computer), the next game starts at once.

    Locks the finished game's row, then its offer's: of two offers at once, the second is refused
    (``WrongStatus``) and the first stands.
    """
    game = _lock_finished(game_id)
    seats = _players(game)
    _seat_of(seats, user)
    if _following(game) is not None:
        raise WrongStatus(_("The next game has started already."))
    _refuse_kept_apart(seats)
    existing = _live_offer(game)
    if existing is not None:
        if existing.status == RematchOffer.Status.ACCEPTED:
            raise WrongStatus(_("The next game has started already."))
        raise WrongStatus(_("A rematch is offered already: accept or decline it."))
    series_goes_on = _series_goes_on(game)
    agreed = DEFAULT_GAMES if series_goes_on else _series_length(games_agreed)
    now = timezone.now()
    offer = RematchOffer.objects.create(
        game=game,
        offered_by=user,
        games_agreed=agreed,
        created_at=now,
        expires_at=now + REMATCH_OFFER_LIFETIME,
    )
    RematchAcceptance.objects.bulk_create(
        RematchAcceptance(offer=offer, user=seat.user)
        for seat in seats
        if seat.user_id == user.pk or seat.user.is_bot
    )
    _changed_on_commit(game)
    if all(seat.user_id == user.pk or seat.user.is_bot for seat in seats):
        _accepted_by_all(offer=offer, game=game, seats=seats, user=user)
        return offer
    params = {"game": game.pk, "by": user.username, "preset": game.preset, "rematch": agreed}
    if series_goes_on:
        params["rematch"] = 0
    for seat in seats:
        if seat.user_id != user.pk and not seat.user.is_bot:
            notifications.rematch_offered(game=game, user=seat.user, params=params)
    return offer


def _series_goes_on(game: Game) -> bool:
    """Whether the next game belongs to ``game``'s series (its agreed length not yet reached)."""
    entry = SeriesGame.objects.select_related("series").filter(game=game).first()
    return entry is not None and entry.number < entry.series.games_agreed


def _accepted_by_all(*, offer: RematchOffer, game: Game, seats: list[Seat], user: User) -> None:
    following = _start_next_game(
        game=game, seats=seats, user=offer.offered_by, games_agreed=offer.games_agreed, asked_by=user
    )
    offer.status = RematchOffer.Status.ACCEPTED
    offer.next_game = following
    offer.decided_by = user
    offer.decided_at = timezone.now()
    offer.save(update_fields=["status", "next_game", "decided_by", "decided_at"])


def _open_offer(game: Game) -> RematchOffer:
    offer = _live_offer(game)
    if offer is None:
        last = RematchOffer.objects.filter(game=game).first()
        if last is not None and last.status == RematchOffer.Status.EXPIRED:
            raise WrongStatus(_("The offer of a rematch expired."))
        if last is not None and last.status == RematchOffer.Status.DECLINED:
            raise WrongStatus(_("The offer of a rematch was declined."))
        raise WrongStatus(_("No rematch is offered."))
    if offer.status == RematchOffer.Status.ACCEPTED:
        raise WrongStatus(_("The next game has started already."))
    return offer


@transaction.atomic
def rematch_accept(*, user: User, game_id: int) -> RematchOffer:
    """``user`` accepts the open offer of the finished game ``game_id``; when they are the last
    player to, the next game starts (``offer.next_game``). Accepting twice changes nothing.

    Locks the finished game's row, then the offer's: of two last accepts at once, the first
    starts the game and the second finds the offer accepted and that game (one game, never two).
    """
    game = _lock_finished(game_id)
    seats = _players(game)
    _seat_of(seats, user)
    offer = _live_offer(game)
    if offer is not None and offer.status == RematchOffer.Status.ACCEPTED:
        return offer  # the same answer to the same yes
    offer = _open_offer(game)
    _refuse_kept_apart(seats)
    RematchAcceptance.objects.get_or_create(offer=offer, user=user)
    accepted = set(offer.acceptances.values_list("user_id", flat=True))
    _changed_on_commit(game)
    if all(seat.user_id in accepted for seat in seats):
        _accepted_by_all(offer=offer, game=game, seats=seats, user=user)
    return offer


@transaction.atomic
def rematch_decline(*, user: User, game_id: int) -> RematchOffer:
    """``user`` declines the open offer of the finished game ``game_id``: it ends for everyone
    (another may be offered later). The offerer declining withdraws it.

    Locks the finished game's row, then the offer's: a decline and the last accept at once are
    one after the other, and the second is refused.
    """
    game = _lock_finished(game_id)
    seats = _players(game)
    _seat_of(seats, user)
    offer = _open_offer(game)
    offer.status = RematchOffer.Status.DECLINED
    offer.decided_by = user
    offer.decided_at = timezone.now()
    offer.save(update_fields=["status", "decided_by", "decided_at"])
    _changed_on_commit(game)
    return offer
