""" "Don't wait for me to throw in": a player's standing choice, so that a correspondence game keeps
moving without their "done" after every bout.

``{"type": "auto_pass", "player": p, "on": true}`` is a preference, not a move: never listed in
``legal_actions``, never waited for, accepted from any player still in the game at any time, and
public. While it is on the bout never waits for that player as a thrower and counts them as
passed, whatever they hold; they may still throw in while the bout is open and they have priority.
"""

from __future__ import annotations

import json

import pytest

from durak import Game, IllegalAction, Rules

from ._support import attack, cards, cards_of, deal, defend, do, of_type, pass_, refuse, take, throw


def auto_pass(player: int, on: bool = True) -> dict[str, object]:
    return {"type": "auto_pass", "player": player, "on": on}


def three_players(preset: str = "classic") -> Game:
    # Clubs are trumps. Player 0 attacks player 1; player 2 holds an eight, player 0 another.
    return deal(
        preset,
        [cards("8D 8S 6H"), cards("JD QS KH AH"), cards("8H 9H 10S")],
        cards("7S 7D 7C 9S 9C"),
    )


def test_the_choice_is_never_an_offered_action_but_is_public() -> None:
    game = three_players()
    game.apply(auto_pass(2))
    assert all(a["type"] != "auto_pass" for p in range(3) for a in game.legal_json(p))
    assert game.auto_pass == {2}
    assert all(game.view(viewer)["auto_pass"] == [2] for viewer in (None, 0, 1, 2))
    state = game.to_dict()
    assert state["auto_pass"] == [2]
    assert Game.from_dict(json.loads(json.dumps(state))).auto_pass == {2}
    assert game.copy().auto_pass == {2}
    assert Game.from_view(game.view(1), game.hands, game.stock).auto_pass == {2}


def test_the_bout_does_not_wait_for_a_player_who_asked_not_to_be_waited_for() -> None:
    game = three_players()
    do(game, attack(0, "8D"))
    assert game.waiting_for() == [0, 1, 2]
    game.apply(auto_pass(2))
    assert game.waiting_for() == [0, 1]
    do(game, defend(1, "8D", "JD"), pass_(0))
    # player 2 holds the 8H, but counts as passed: the bout is beaten off
    assert game.table == [] and game.last_bout is not None
    assert game.last_bout["result"] == "beaten"


def test_a_player_with_the_choice_may_still_throw_in_while_the_bout_is_open() -> None:
    game = three_players()
    game.apply(auto_pass(2))
    do(game, attack(0, "8D"), defend(1, "8D", "JD"))
    assert of_type(game, 2, "throw") == []  # the main attacker has priority
    assert of_type(game, 2, "pass") == []  # and there is nothing to say "done" to
    refuse(game, pass_(2))
    do(game, throw(0, "8S"), pass_(0))
    assert cards_of(game, 2, "throw") == {"8H"}
    do(game, throw(2, "8H"))
    assert [pair[0] for pair in game.table] == ["8D", "8S", "8H"]


def test_a_main_attacker_with_the_choice_leaves_the_others_free_to_throw() -> None:
    game = three_players()
    game.apply(auto_pass(0))
    do(game, attack(0, "8D"))
    assert cards_of(game, 2, "throw") == {"8H"}
    assert 0 not in game.waiting_for()


def test_switching_it_on_can_end_the_bout() -> None:
    game = three_players()
    do(game, attack(0, "8D"), defend(1, "8D", "JD"), pass_(2))
    assert game.waiting_for() == [0]
    game.apply(auto_pass(0))
    assert game.table == []
    assert game.events[0]["type"] == "bout_end"
    # between bouts the attacker is waited for as always
    assert game.waiting_for() == [1] and of_type(game, 1, "attack")


def test_switching_it_off_makes_the_bout_wait_again() -> None:
    game = three_players()
    game.apply(auto_pass(2))
    do(game, attack(0, "8D"))
    assert game.waiting_for() == [0, 1]
    game.apply(auto_pass(2, on=False))
    assert game.auto_pass == set()
    assert game.waiting_for() == [0, 1, 2] and of_type(game, 2, "pass") == [pass_(2)]


def test_the_defender_and_the_opening_attacker_are_waited_for_as_always() -> None:
    game = three_players()
    game.apply(auto_pass(0))
    game.apply(auto_pass(1))
    assert game.waiting_for() == [0]
    do(game, attack(0, "8D"))
    assert 1 in game.waiting_for()
    do(game, take(1))
    assert game.waiting_for() == [2]


def test_the_choice_is_no_move_for_the_clock() -> None:
    game = Game.from_deal(
        Rules.preset("classic", on_timeout="auto", trump_swap="never"),
        hands=[["7S", "6D", "6H"], ["10H", "8D", "AC"], ["9D", "KC", "QH"]],
        stock=["JD", "9S"],
    )
    game.apply({"type": "timeout", "player": 0})
    assert game.timeouts == [1, 0, 0]
    game.apply(auto_pass(0))
    assert game.timeouts == [1, 0, 0]


def test_bad_choices_are_refused_and_change_nothing() -> None:
    game = deal("classic", [cards("8D"), cards("JD QS"), cards("8H 9H")], trump="C")
    game.apply(auto_pass(1))
    for action, message in [
        (auto_pass(1), "already does not wait"),
        (auto_pass(2, on=False), "already waits"),
        ({"type": "auto_pass", "player": 2, "on": "yes"}, "true"),
        ({"type": "auto_pass", "player": 2}, "needs on"),
        ({"type": "auto_pass", "player": 2, "on": True, "card": "8H"}, "unexpected field"),
    ]:
        before = game.to_dict()
        with pytest.raises(IllegalAction, match=message):
            game.apply(action)
        assert game.to_dict() == before
    do(game, attack(0, "8D"))  # player 0 plays his last card: he is out
    assert game.finished == [0]
    with pytest.raises(IllegalAction, match="out of the game"):
        game.apply(auto_pass(0))


def test_a_game_over_takes_no_choice() -> None:
    game = Game.new(Rules.preset("classic"), 2, seed=1)
    game.apply({"type": "resign", "player": 0})
    with pytest.raises(IllegalAction, match="over"):
        game.apply(auto_pass(1))


def test_a_stored_game_of_the_old_format_honours_it_too() -> None:
    game = deal(
        "classic", [cards("8D 8S 6H"), cards("JD QS KH AH"), cards("8H 9H")], trump="C", state_format=1
    )
    assert "auto_pass" not in game.to_dict()
    do(game, attack(0, "8D"))
    game.apply(auto_pass(2))
    assert game.to_dict()["auto_pass"] == [2] and "format" not in game.to_dict()
    do(game, defend(1, "8D", "JD"), pass_(0))
    assert game.table == []
