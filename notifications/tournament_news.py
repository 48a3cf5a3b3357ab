"""A tournament's news for the players it concerns: the receivers of ``tournaments.signals``.

Each signal is sent after the commit of the change (``tournaments.services``); each receiver
writes its notifications in one transaction of its own, in bulk (``services.notify_each``):
a handful of statements however many players or games, never a query per player.

- ``registration_opened``: to the creator's friends and, for an official tournament, to the
  players of earlier tournaments (the latest first), at most ``OPENING_AUDIENCE_MAX``: never
  every user of the site. Nobody kept apart from the creator by a block.
- ``registration_closing``: to the registered players (it starts within the hour).
- ``round_opened``: to each person seated in the round's games, "Round 2 of “Autumn cup” has
  started: your game against bob", **in place of** that game's "game started". The games were
  started through the one path every game takes (``games.services.game_seated``), which wrote
  their "game started"s in the round's transaction, before the round's tables existed; this
  receiver, right after that commit, deletes those rows and writes the round's. Their e-mails
  and pushes, queued by that commit, find no row (or, if one runs before this receiver, are
  refused by ``policy.should_send``: a tournament game's start is the round's news), so each
  player hears of the game once.
- ``tournament_finished``: to every registered person: their final place of how many, or that
  it was cancelled.

Where it sits: above the services (the bulk write), beneath only ``apps``, which connects it.
"""

from collections import defaultdict
from typing import Any

from django.db import transaction
from django.db.models import Max, Q

from accounts import relations
from accounts.models import Block, User
from games.models import Seat
from tournaments.models import Player, Tournament

from . import messages
from .kinds import Kind
from .models import Notification
from .services import PUSH_SUBSCRIBED, News, bells_changed, notify_each, with_notification_facts

#: The most players one tournament's opening is told to: its creator's friends first, then the
#: latest players of earlier tournaments (an official one's).
OPENING_AUDIENCE_MAX = 2000


def _facts(tournament: Tournament, **more: Any) -> dict[str, Any]:
    return {"tournament": tournament.pk, "name": tournament.name, **more}


def _readers(user_ids: Any) -> Any:
    """The people among ``user_ids`` who read notifications, with their preferences (one query)."""
    return User.objects.filter(pk__in=user_ids, is_active=True, is_bot=False).select_related(
        "notification_preferences"
    )


def opening_audience(tournament: Tournament) -> list[int]:
    """Who hears that the tournament's registration is open, by id: the creator's friends, then,
    for an official tournament, the players of earlier tournaments, the latest first; never the
    creator, a player already registered, or anyone kept apart from the creator by a block.
    At most ``OPENING_AUDIENCE_MAX``; four queries however many users the site has."""
    creator = User(pk=tournament.creator_id)
    audience = dict.fromkeys(sorted(relations.friend_ids(creator)))
    if tournament.official:
        earlier = (
            Player.objects.exclude(tournament=tournament)
            .filter(user__is_bot=False)
            .values("user_id")
            .annotate(last=Max("registered_at"))
            .order_by("-last", "user_id")
            .values_list("user_id", flat=True)[:OPENING_AUDIENCE_MAX]
        )
        audience.update(dict.fromkeys(earlier))
    apart = Block.objects.filter(Q(blocker_id=tournament.creator_id) | Q(blocked_id=tournament.creator_id))
    excluded = {tournament.creator_id}
    for blocker_id, blocked_id in apart.values_list("blocker_id", "blocked_id"):
        excluded |= {blocker_id, blocked_id}
    excluded |= set(Player.objects.filter(tournament=tournament).values_list("user_id", flat=True))
    return [user_id for user_id in audience if user_id not in excluded][:OPENING_AUDIENCE_MAX]


def registration_opened(*, tournament: Tournament, **_signal: Any) -> int:
    """ "Registration for “Autumn cup” is open: it starts on ..." (``opening_audience``)."""
    facts = _facts(tournament, starts=tournament.starts_at.isoformat())
    with transaction.atomic():
        news = [
            News(user=user, kind=Kind.TOURNAMENT_OPEN, params=facts, tournament_id=tournament.pk)
            for user in _readers(opening_audience(tournament))
        ]
        return len(notify_each(news))


def registration_closing(*, tournament: Tournament, **_signal: Any) -> int:
    """ "“Autumn cup”, which you registered for, starts on ...": to its players still in."""
    facts = _facts(tournament, starts=tournament.starts_at.isoformat())
    registered = Player.objects.filter(tournament=tournament, withdrawn=Player.Withdrawn.NO)
    with transaction.atomic():
        news = [
            News(user=user, kind=Kind.TOURNAMENT_SOON, params=facts, tournament_id=tournament.pk)
            for user in _readers(registered.values("user_id"))
        ]
        return len(notify_each(news))


def round_opened(*, tournament: Tournament, round_number: int, game_ids: list[int], **_signal: Any) -> int:
    """Each person seated in the round's games: "Round 2 of “Autumn cup” has started: your game
    against bob", in place of the game's "game started" (deleted here). Four statements however
    many games: the seats (with their users, preferences and push subscriptions), the DELETE,
    the INSERT; after the commit the bells (two) and the tasks."""
    with transaction.atomic():
        seats = list(
            with_notification_facts(Seat.objects.filter(game_id__in=game_ids)).order_by("game_id", "position")
        )
        Notification.objects.filter(game_id__in=game_ids, kind=Kind.GAME_STARTED).delete()
        at_table: defaultdict[int, list[Seat]] = defaultdict(list)
        for seat in seats:
            at_table[seat.game_id].append(seat)
        news = []
        for seat in seats:
            against = [other.user for other in at_table[seat.game_id] if other.pk != seat.pk]
            facts = _facts(
                tournament, round=round_number, game=seat.game_id, against=messages.opponents_facts(against)
            )
            subscribed = getattr(seat, PUSH_SUBSCRIBED, None)
            news.append(
                News(
                    user=seat.user,
                    kind=Kind.TOURNAMENT_ROUND,
                    params=facts,
                    game_id=seat.game_id,
                    tournament_id=tournament.pk,
                    seat=seat,
                    push_subscribed=None if subscribed is None else bool(subscribed),
                )
            )
        rows = notify_each(news)
        # The deleted "game started"s were unread under some bells: those bells change too.
        bells_changed(seat.user_id for seat in seats if not seat.user.is_bot)
        return len(rows)


def tournament_finished(*, tournament: Tournament, cancelled: bool = False, **_signal: Any) -> int:
    """To every registered person: "“Autumn cup” has ended: you finished 3rd of 12", or that it
    was cancelled."""
    players = list(
        Player.objects.filter(tournament=tournament).select_related("user", "user__notification_preferences")
    )
    with transaction.atomic():
        news = []
        for player in players:
            if not player.user.is_active:
                continue
            facts = (
                _facts(tournament, cancelled=True)
                if cancelled
                else _facts(tournament, rank=player.final_rank, count=len(players))
            )
            news.append(
                News(user=player.user, kind=Kind.TOURNAMENT_ENDED, params=facts, tournament_id=tournament.pk)
            )
        return len(notify_each(news))
