"""Who deals the next game of a series: the last game's fool, read from the engine's outcome."""

from typing import Any

import durak
from games.models import Game
from series.services import next_dealer


def finished(
    rules: durak.Rules, hands: list[list[str]], actions: list[dict[str, Any]], dealer: int = 0
) -> Game:
    """A finished game as the site stores it (unsaved), after ``actions`` from a stacked deal
    without stock (clubs trump, player 0 attacks first)."""
    engine = durak.Game.from_deal(rules, hands, [], trump="C", first_attacker=0, dealer=dealer)
    for action in actions:
        engine.apply(action)
    assert engine.over
    return Game(state=engine.to_dict(), dealer=dealer, num_players=engine.players)


ATTACK_6S = {"type": "attack", "player": 0, "cards": ["6S"]}
DEFEND_7S = {"type": "defend", "player": 1, "target": "6S", "card": "7S"}


def test_the_fool_deals() -> None:
    game = finished(durak.Rules.preset("classic"), [["6S"], ["7S"], ["8H"]], [ATTACK_6S, DEFEND_7S], dealer=1)
    assert next_dealer(game) == 2


def test_after_a_draw_the_same_dealer_deals_again() -> None:
    game = finished(durak.Rules.preset("classic"), [["6S"], ["7S"]], [ATTACK_6S, DEFEND_7S], dealer=1)
    assert next_dealer(game) == 1


def test_in_a_team_game_the_losing_partner_still_holding_cards_deals() -> None:
    # 0 and 1 go out in the bout, 2 held nothing: the team of seats 0 and 2 is out; of the
    # losing team (1 and 3) only 3 still holds a card.
    game = finished(
        durak.Rules.preset("classic", teams="partners"), [["6S"], ["7S"], [], ["8H"]], [ATTACK_6S, DEFEND_7S]
    )
    assert next_dealer(game) == 3


def test_in_a_team_game_lost_by_resigning_the_first_of_the_losing_team_deals() -> None:
    game = finished(
        durak.Rules.preset("classic", teams="partners"),
        [["6S", "9H"], ["7S", "10H"], ["8S", "JH"], ["9S", "QH"]],
        [{"type": "resign", "player": 3}],
        dealer=2,
    )
    assert next_dealer(game) == 1
