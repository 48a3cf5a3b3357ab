"""The table partial's whole content from one viewer's ``view``: the seats, the pairs on the
table with their defence buttons, the other buttons, and the lines that say what is going on."""

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import ngettext

from .. import words
from . import engine, results, seats, situation
from .actions import ActionButton, action_button, auto_pass_action, group_suit_choices
from .cards import order_hand, suit_name
from .enchanted import CardMarks, Spell, card_marks, spells
from .seats import Player


@dataclass
class Pair:
    attack: str
    defence: str | None
    defend_buttons: list[ActionButton] = field(default_factory=list)


@dataclass
class Table:
    """Everything the table partial renders, from one player's view."""

    view: dict[str, Any]
    me: int | None
    players: list[Player]
    opponents: list[Player]
    pairs: list[Pair]
    play_buttons: list[ActionButton]  # attack, throw, transfer: a card goes to the table
    other_buttons: list[ActionButton]  # take, pass, swap trump, ...
    status_line: str
    role_line: str
    team_line: str = ""
    direction_line: str = ""
    team_results: list[tuple[str, str, bool]] = field(default_factory=list)  # (team, names, lost)
    #: What is happening, in words: "8♦ attacks you: beat it or take."
    situation_line: str = ""
    #: The last move, in words, for the live region: "anna attacks with 6♠."
    last_move_line: str = ""
    #: My team's index in a team game (``durak.Game.team_of``), else None.
    my_team: int | None = None
    #: Whether the last move was mine ("You take the cards.").
    last_move_mine: bool = False
    #: How I hold my hand (``accounts.models.HAND_ORDERS``; ``cards.order_hand``).
    hand_order: str = "suit_trumps_last"
    #: The cards the last move laid on the table, while they lie there (from the public move log).
    last_played: frozenset[str] = frozenset()
    #: Who made the last move (its seat), if anyone did.
    last_position: int | None = None
    #: The computer players' seats (public: a seat's account says so).
    computers: frozenset[int] = frozenset()

    @property
    def hand(self) -> list[str]:
        return order_hand(list(self.view.get("hand") or []), self.view.get("trump"), self.hand_order)

    @property
    def playable(self) -> set[str]:
        """Cards of my hand that some legal action plays."""
        buttons = self.play_buttons + [b for pair in self.pairs for b in pair.defend_buttons]
        return {card for button in buttons for card in button.cards}

    @property
    def my_turn(self) -> bool:
        return self.me is not None and self.me in (self.view.get("waiting_for") or [])

    @property
    def auto_pass(self) -> bool:
        """Whether I asked not to be waited for to throw in."""
        return self.me is not None and self.me in (self.view.get("auto_pass") or [])

    @property
    def can_choose_auto_pass(self) -> bool:
        """The engine takes the choice from a player still in a running game."""
        return (
            self.me is not None
            and not self.view.get("over")
            and self.me not in (self.view.get("finished") or [])
        )

    @property
    def auto_pass_value(self) -> str:
        """What the toggle posts: the other setting."""
        return auto_pass_action(not self.auto_pass)

    @property
    def my_player(self) -> Player | None:
        return next((player for player in self.players if player.is_me), None)

    @property
    def enchanted(self) -> list[str]:
        return list(self.view.get("enchanted") or [])

    @property
    def trump_name(self) -> str:
        return suit_name(self.view.get("trump"))

    @property
    def last_move_clause(self) -> str:
        """The last move as it reads after "Last move:": my own in lower case ("Last move: you
        take the cards.", «Последний ход: вы берёте карты.»), anyone else's as named."""
        return words.mid_sentence(self.last_move_line, mine=self.last_move_mine)

    @property
    def announcement(self) -> str:
        """What the live region reads out after a change: the last move, then whose turn it is."""
        parts = [self.last_move_line, self.status_line if self.my_turn or self.view.get("over") else ""]
        return " ".join(part for part in parts if part)

    @property
    def thinking(self) -> list[Player]:
        """The computer players whose move is due now: the game waits for them."""
        if self.view.get("over"):
            return []
        waiting = set(self.view.get("waiting_for") or [])
        return [p for p in self.players if p.position in waiting and p.position in self.computers]

    @property
    def thinking_line(self) -> str:
        """The line "Computer (beginner) is thinking…", while a computer's move is due."""
        names = [player.name for player in self.thinking]
        if not names:
            return ""
        return ngettext("%(names)s is thinking…", "%(names)s are thinking…", len(names)) % {
            "names": words.join_names(names)
        }

    def marks(self, card: str) -> CardMarks:
        return card_marks(card, self.view)

    @property
    def spells(self) -> list[Spell]:
        """The enchanted cards in sight (my hand, the table, the face-up trump card), each once."""
        if not self.enchanted:
            return []
        cards = [*self.hand, *(c for pair in self.pairs for c in (pair.attack, pair.defence) if c)]
        if self.view.get("trump_card"):
            cards.append(self.view["trump_card"])
        return spells(cards, self.view)


def last_move_line(
    action: dict[str, Any] | None,
    position: int | None,
    me: int | None,
    names: dict[int, str],
    in_sight: frozenset[str] = frozenset(),
    all_beaten: bool = False,
) -> str:
    """A public move, in words, for the live region: "anna attacks with 6♠." / "You take the cards.".

    ``in_sight``: the cards the viewer sees now (table, own hand, discard pile, face-up trump). A
    move's cards are named only while in sight: a card thrown in and then taken lies in a hand.
    ``all_beaten``: a pass made when every card was beaten («Бито»: ``words.passes_on_beaten``)."""
    if not action:
        return ""
    played = [*(action.get("cards") or []), *([action["card"]] if action.get("card") else [])]
    return words.move_sentence(
        action,
        me=me,
        names=names,
        position=position,
        show_cards=set(played) <= in_sight,
        all_beaten=all_beaten,
    )


def _cards_in_sight(view: dict[str, Any]) -> frozenset[str]:
    on_table = [card for pair in view.get("table") or [] for card in pair if card]
    trump = [view["trump_card"]] if view.get("trump_card") else []
    return frozenset([*on_table, *(view.get("hand") or []), *(view.get("discarded") or []), *trump])


def _last_played(action: dict[str, Any] | None, view: dict[str, Any]) -> frozenset[str]:
    """The cards ``action`` (a public move) laid on the table that lie there still."""
    if not action or action.get("type") not in words.CARD_PLAYS:
        return frozenset()
    played = {*(action.get("cards") or []), *([action["card"]] if action.get("card") else [])}
    on_table = {card for pair in view.get("table") or [] for card in pair if card}
    return frozenset(played & on_table)


def _lay_out_buttons(view: dict[str, Any]) -> tuple[list[Pair], list[ActionButton], list[ActionButton]]:
    """The pairs on the table, each with the buttons that beat its attack; the buttons that lay a
    card on the table; the others (take, pass, swap the trump...)."""
    buttons = group_suit_choices([action_button(action, view) for action in view.get("actions") or []])
    pairs = [Pair(attack=attack, defence=defence) for attack, defence in view.get("table") or []]
    by_attack = {pair.attack: pair for pair in pairs}
    play_buttons: list[ActionButton] = []
    other_buttons: list[ActionButton] = []
    for button in buttons:
        target = by_attack.get(button.action.get("target", "")) if button.kind == "defend" else None
        if target is not None:
            target.defend_buttons.append(button)
        elif button.cards:
            play_buttons.append(button)
        else:
            other_buttons.append(button)
    return pairs, play_buttons, other_buttons


def build_table(
    view: dict[str, Any],
    names: dict[int, str],
    me: int | None,
    *,
    last_action: dict[str, Any] | None = None,
    last_position: int | None = None,
    last_all_beaten: bool = False,
    hand_order: str = "suit_trumps_last",
    computers: frozenset[int] = frozenset(),
    reliability: Mapping[int, int | None] | None = None,
    notes: Mapping[int, str] | None = None,
) -> Table:
    """``last_action``/``last_position``: the game's last public move (``Move.action``), told in
    words and its cards marked while they lie on the table; ``last_all_beaten``: it was a pass
    made when every card was beaten; ``hand_order``: the viewer's choice of how to hold their
    hand; ``computers``: the seats of computer players; ``reliability``: the people's, by seat
    (``User.reliability``, from the user rows already loaded); ``notes``: the viewer's own
    private notes about the others, by seat (a seated viewer's only)."""

    def name(position: int | None) -> str:
        return words.seat_word(position, me=me, names=names)

    game = engine.game_of(view)
    seated = seats.players(view, me, names, game, reliability=reliability, notes=notes)
    pairs, play_buttons, other_buttons = _lay_out_buttons(view)
    return Table(
        view=view,
        me=me,
        players=seated,
        opponents=seats.opponents(seated, me),
        pairs=pairs,
        play_buttons=play_buttons,
        other_buttons=other_buttons,
        status_line=results.result_line(game, me, names) or situation.turn_line(view, me, name),
        role_line=situation.role_line(view, me, name),
        team_line=seats.team_line(game, me, names),
        direction_line=situation.direction_line(view),
        team_results=results.team_results(game, names),
        situation_line=situation.situation_line(view, me, name),
        last_move_line=last_move_line(
            last_action, last_position, me, names, _cards_in_sight(view), all_beaten=last_all_beaten
        ),
        my_team=game.team_of(me) if game is not None and me is not None else None,
        last_move_mine=me is not None
        and last_action is not None
        and _player_of(last_action, last_position) == me,
        hand_order=hand_order,
        last_played=_last_played(last_action, view),
        last_position=last_position if last_action else None,
        computers=computers,
    )


def _player_of(action: dict[str, Any], position: int | None) -> int | None:
    """Who made a move: its seat, or the player a server action (a timeout) names."""
    return position if position is not None else action.get("player")
