"""Seating: who plays against whom, and how the turn goes round, for each way to play teams.

One strategy per value of the rules' ``teams``, found in :data:`SEATINGS`: :class:`NoTeams`
(everyone for themselves), :class:`Partners` (the Full rules' partners, sitting alternately) and
:class:`BlackBookTeams` (the Black Book's team durak, whose turn order follows a seat, the
``slot``, through its player or, once they are out, their partner). The game asks its seating;
it never compares ``rules.teams`` itself.

>>> SEATINGS["partners"].teams(4), SEATINGS["none"].teams(4)
([[0, 2], [1, 3]], None)
>>> SEATINGS["partners"].opponents(0, 2), SEATINGS["none"].opponents(0, 2)
(False, True)
"""

from __future__ import annotations

from typing import Final

from durak.errors import NoPlayerLeft


class Seats:
    """What a seating reads and sets of a game: the seats, the direction of play, who attacks
    whom, and how it ended. :class:`durak.state.Position` is one; a base class rather than a
    protocol, so that the compiled build reads these fields directly."""

    __slots__ = ("attacker", "defender", "direction", "loser", "losing_team", "players", "slot")

    players: int
    direction: int
    slot: int | None
    attacker: int | None
    defender: int | None
    loser: int | None
    losing_team: int | None

    def in_game(self, player: int) -> bool:
        raise NotImplementedError

    def next_in_game(self, player: int, include_self: bool = False) -> int:
        raise NotImplementedError


class NoTeams:
    """Every player for themselves: the next player still in the game is attacked, the last one
    holding cards is the fool."""

    has_teams = False
    #: The fewest players this seating takes.
    least_players = 2

    def most_players(self, deck_size: int, hand_size: int) -> int:
        """The most players this seating takes with a deck of ``deck_size`` and hands of
        ``hand_size``: as many full hands as the deck deals, and at most six."""
        return min(6, deck_size // hand_size)

    def seats(self, players: int) -> bool:
        """Whether ``players`` (between the least and the most) can sit at this seating."""
        return True

    def teams(self, players: int) -> list[list[int]] | None:
        return None

    def team_of(self, player: int) -> int | None:
        return None

    def opponents(self, a: int, b: int) -> bool:
        return True

    def next_opponent(self, game: Seats, player: int) -> int | None:
        """Whom ``player`` attacks or passes an attack to: the next player still in the game in
        the direction of play who is an opponent; None when there is none, as in a team game once
        only the defender's side holds cards."""
        for step in range(1, game.players):
            candidate = (player + step * game.direction) % game.players
            if game.in_game(candidate) and self.opponents(player, candidate):
                return candidate
        return None

    def opponent_to_attack(self, game: Seats, player: int) -> int:
        """The defender against ``player``; only asked while the game is on, so one exists."""
        defender = self.next_opponent(game, player)
        if defender is None:
            raise NoPlayerLeft(f"player {player} has no opponent left in the game")
        return defender

    def seat_attacker(self, game: Seats, attacker: int) -> None:
        """Make ``attacker`` attack, and whoever they attack defend."""
        game.attacker = attacker
        game.defender = self.opponent_to_attack(game, attacker)

    def after_bout(self, game: Seats, defender: int, beaten: bool) -> None:
        """The next bout's attacker: the defender who beat it off, else the player after them."""
        self.seat_attacker(game, game.next_in_game(defender, include_self=beaten))

    def transfer_recipient(self, game: Seats) -> int | None:
        """Who would defend if the defender passed the attack on (before checking they hold
        cards): the next opponent in turn order."""
        assert game.defender is not None
        return self.next_opponent(game, game.defender)

    def after_transfer(self, game: Seats) -> None:
        """Turn-order bookkeeping once the attack has been passed on."""

    def after_reverse(self, game: Seats, player: int) -> None:
        """``player`` attacks again, now in the reversed direction."""
        game.defender = self.opponent_to_attack(game, player)

    def lose(self, game: Seats, player: int) -> None:
        """``player`` ended the game as the fool (out of time, resigned, claimed against)."""
        game.loser = player

    def decided(self, game: Seats, holding: list[int]) -> bool:
        """Whether the game is over with ``holding`` the players still in it, and if so who lost
        (nobody, a draw, when the last cards went out on every side at once)."""
        if len(holding) > 1:
            return False
        game.loser = holding[0] if holding else None
        return True


class Partners(NoTeams):
    """Two teams sitting alternately (team 0 the even seats): partners never attack each other,
    and the side still holding cards when the other has played all of theirs loses."""

    has_teams = True
    least_players = 4  # two on each side

    def seats(self, players: int) -> bool:
        return players % 2 == 0  # the teams sit alternately: the same number on each side

    def teams(self, players: int) -> list[list[int]] | None:
        return [list(range(0, players, 2)), list(range(1, players, 2))]

    def team_of(self, player: int) -> int | None:
        return player % 2

    def opponents(self, a: int, b: int) -> bool:
        return a % 2 != b % 2

    def lose(self, game: Seats, player: int) -> None:
        game.losing_team = player % 2

    def decided(self, game: Seats, holding: list[int]) -> bool:
        # "As soon as one side has played all their cards, the side still holding cards loses."
        teams_holding = {player % 2 for player in holding}
        if len(teams_holding) == 2:
            return False
        game.losing_team = teams_holding.pop() if teams_holding else None
        return True


class BlackBookTeams(Partners):
    """The Black Book's team durak, two against two: the turn passes from seat to seat (the
    game's ``slot``), and a seat whose player is out is played by their partner ("both players
    of the other team attack the remaining player", who "takes a turn after each opponent ... in
    the order the team would have")."""

    def most_players(self, deck_size: int, hand_size: int) -> int:
        return 4  # "two against two"

    def seat_player(self, game: Seats, seat: int) -> int:
        """Who plays the turns of ``seat``: its player, or once they are out, their partner."""
        seat %= game.players
        return seat if game.in_game(seat) else (seat + 2) % game.players

    def set_slot(self, game: Seats, seat: int) -> None:
        game.slot = seat % game.players
        game.attacker = self.seat_player(game, seat)
        game.defender = self.seat_player(game, seat + game.direction)

    def seat_attacker(self, game: Seats, attacker: int) -> None:
        self.set_slot(game, attacker)

    def after_bout(self, game: Seats, defender: int, beaten: bool) -> None:
        # The turn moves one seat on after a bout beaten off, two (past the defender) after a take.
        assert game.slot is not None
        self.set_slot(game, game.slot + game.direction * (1 if beaten else 2))

    def transfer_recipient(self, game: Seats) -> int | None:
        assert game.slot is not None
        return self.seat_player(game, game.slot + 2 * game.direction)

    def after_transfer(self, game: Seats) -> None:
        assert game.slot is not None
        game.slot = (game.slot + game.direction) % game.players

    def after_reverse(self, game: Seats, player: int) -> None:
        assert game.slot is not None
        self.set_slot(game, game.slot)


#: The seating of each value of ``Rules.teams``.
SEATINGS: Final[dict[str, NoTeams]] = {
    "none": NoTeams(),
    "partners": Partners(),
    "black_book": BlackBookTeams(),
}
