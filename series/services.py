"""Play again: the next game of a series, with the same players in the same seats and the same
rules; the fool of the last game deals and the engine's rule for later games picks who
attacks first (``durak.Game.new(..., first_game=False)``)."""

from django.db import transaction
from django.utils.translation import gettext as _

import durak
from accounts.models import User
from games import services as games
from games.exceptions import GameNotFound, InvalidRules, NotAllowed, WrongStatus
from games.models import Game

from .models import DEFAULT_GAMES, MAX_GAMES, Series, SeriesGame


def next_dealer(game: Game) -> int:
    """Who deals after ``game``: its fool. In a team game, the first player of the losing team
    still holding cards; after a draw the same dealer deals again (the rule texts are silent)."""
    assert game.state is not None
    engine = durak.Game.from_dict(game.state)
    if engine.loser is not None:
        return engine.loser
    if engine.losing_team is not None:
        team = [p for p in range(engine.players) if p % 2 == engine.losing_team]
        holding = [p for p in team if p not in engine.finished]
        return (holding or team)[0]
    return game.dealer


@transaction.atomic
def play_again(*, user: User, game_id: int, games_agreed: int | None = None) -> Game:
    """The game after ``game_id`` in its series, dealt and running; a player of the finished
    game asks. The first "play again" after a single game makes it game 1 of a new series of
    ``games_agreed`` games; once a series has its agreed number, the next game opens a new
    series of the same length.

    Locks the finished game's row, so two players asking at once get the same next game.
    """
    try:
        game = Game.objects.select_for_update(of=("self",), no_key=True).get(pk=game_id)
    except Game.DoesNotExist:
        raise GameNotFound(_("There is no game %(game)s.") % {"game": game_id}) from None
    if game.status != Game.Status.FINISHED:
        raise WrongStatus(_("Only a finished game can be played again."))
    seats = list(game.seats.select_related("user").order_by("position"))
    if not any(seat.user_id == user.pk for seat in seats):
        raise NotAllowed(_("Only a player of this game can ask to play again."))
    entry = SeriesGame.objects.select_related("series").filter(game=game).first()
    if entry is None:
        agreed = DEFAULT_GAMES if games_agreed is None else games_agreed
        if not 1 <= agreed <= MAX_GAMES:
            raise InvalidRules(_("A series has from 1 to %(max)s games.") % {"max": MAX_GAMES})
        series = Series.objects.create(created_by=user, games_agreed=agreed)
        entry = SeriesGame.objects.create(series=series, game=game, number=1)
    already = (
        SeriesGame.objects.select_related("game").filter(series=entry.series, number=entry.number + 1).first()
    )
    if already is not None:
        return already.game
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
