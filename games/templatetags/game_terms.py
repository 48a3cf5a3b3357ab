"""A game's terms for joiners (``games.terms``): ``{{ game|time_control }}``, ``{{ game|rules_summary }}``;
a seated player's name and result as every page says them: ``{{ seat.user|seat_name }}``,
``{{ seat|seat_result }}`` (``games.words``)."""

from typing import Any

from django import template

from games import terms, words

register = template.Library()


@register.filter
def time_control(game: Any) -> str:
    """The time a move in words: "30 s a move", "1 day a move", "no clock"."""
    return terms.time_control_words(game)


@register.filter
def rules_summary(game: Any) -> str:
    """The preset's one-line summary and the options changed."""
    return terms.rules_summary(game)


@register.filter
def seat_name(user: Any) -> str:
    """A person's name; a computer player's name and level ("Masha (rule of thumb)"), never its
    account's user name."""
    return words.seat_name(user)


@register.filter
def seat_result(seat: Any) -> str:
    """A seat's result as every list of seats says it ("won (2nd place)", "the fool", "team
    lost": ``words.SeatResult``), from its copy of the engine's outcome; "" while it plays, "went
    out" when it went out of a game still running."""
    game = seat.game
    if game.status != "finished":
        return str(seat.get_result_display()) if seat.result else ""
    return words.SeatResult.stored(
        result=seat.result, place=seat.place, teams=game.has_teams, players=game.num_players
    ).label


@register.filter
def other_seats(seat: Any) -> list[Any]:
    """The other seats of the seat's game, in seat order (``game.seats`` as prefetched)."""
    return [other for other in seat.game.seats.all() if other.pk != seat.pk]
