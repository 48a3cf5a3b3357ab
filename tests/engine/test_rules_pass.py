"""Pass semantics and when a bout completes: a pass ("done") holds until a new card lands on the
table or the defender takes; everyone the rules allow to throw in is offered it and waited for,
whatever they hold, so that nobody can tell who holds a card that fits; the bout ends once every
attack card is beaten (or taken) and all of them have passed, or nobody may add; every action can
complete a bout, so the engine checks after each one."""

from __future__ import annotations

from ._support import (
    attack,
    cards,
    cards_of,
    deal,
    defend,
    do,
    hand,
    of_type,
    pass_,
    refuse,
    swap,
    take,
    throw,
    transfer,
)


def test_a_pass_holds_until_a_new_card_lands() -> None:
    game = deal(
        "black_book",
        [cards("8D 8C 6S"), cards("JD QS KH AH"), cards("8S 8H 9H")],
        trump="C",
    )
    do(game, attack(0, "8D"), pass_(2))
    # passed: no throw, no second pass, until something changes
    assert of_type(game, 2, "throw") == [] and of_type(game, 2, "pass") == []
    refuse(game, throw(2, "8S"))
    refuse(game, pass_(2))
    do(game, throw(0, "8C"))
    assert cards_of(game, 2, "throw") == {"8S", "8H"}
    do(game, throw(2, "8S"))


def test_a_defence_card_also_lifts_a_pass() -> None:
    # The attacker passed with an 8 in hand; the defence brings jacks to the table and he holds one.
    game = deal("classic", [cards("8D 8S JS 6H"), cards("JD QS KH AH")], trump="C")
    do(game, attack(0, "8D"), pass_(0))
    do(game, defend(1, "8D", "JD"))
    assert game.table != []
    assert cards_of(game, 0, "throw") == {"8S", "JS"}
    do(game, throw(0, "JS"))


def test_a_take_lifts_a_pass() -> None:
    game = deal(
        "black_book",
        [cards("8D 6S"), cards("JD QS KH"), cards("8S 9H")],
        trump="C",
    )
    do(game, attack(0, "8D"), pass_(2), take(1))
    assert cards_of(game, 2, "throw") == {"8S"}
    do(game, throw(2, "8S"))
    assert game.table == []
    assert hand(game, 1) == {"JD", "QS", "KH", "8D", "8S"}


def test_the_bout_ends_when_every_card_is_beaten_and_all_have_passed() -> None:
    game = deal("classic", [cards("8D 8S 6H"), cards("JD QS KH AH"), cards("8H 9H")], trump="C")
    do(game, attack(0, "8D"), defend(1, "8D", "JD"))
    do(game, pass_(0))
    assert game.table != []  # player 2 may still throw his 8
    do(game, pass_(2))
    assert game.table == []
    assert (game.attacker, game.defender) == (1, 2)


def test_a_defence_completes_the_bout_when_nobody_can_add() -> None:
    game = deal("classic", [cards("8D 6H"), cards("JD QS"), cards("9H 10S")], trump="C")
    do(game, attack(0, "8D"), defend(1, "8D", "JD"))
    assert game.table == []
    assert {"8D", "JD"} <= set(game.discard)


def test_after_a_take_the_bout_waits_for_the_others_to_be_done() -> None:
    # The 8C is still in the stock, so either attacker might hold an eight to add.
    game = deal("classic", [cards("8D 6S 7S"), cards("7H 9S 10S"), cards("9H 10H")], cards("8C JC QC AH"))
    do(game, attack(0, "8D"), take(1))
    assert game.waiting_for() == [0, 2]
    do(game, pass_(0))
    assert game.table != []
    do(game, pass_(2))
    assert game.table == [] and "8D" in game.hands[1]


def test_nobody_is_waited_for_when_every_card_that_could_fit_is_in_sight() -> None:
    # The other eights and jacks are in the discard: no hand can hold one, and everyone sees it.
    game = deal("classic", [cards("8D 6H"), cards("JD QS"), cards("9H 10S")], cards("7C 6C AS"))
    do(game, attack(0, "8D"))
    assert game.waiting_for() == [1]
    assert game.legal_json(0) == game.legal_json(2) == []
    do(game, defend(1, "8D", "JD"))
    assert game.table == []


def test_a_pass_completes_the_bout() -> None:
    game = deal("classic", [cards("8D 8S 6H"), cards("JD QS KH")], trump="C")
    do(game, attack(0, "8D"), defend(1, "8D", "JD"), pass_(0))
    assert game.table == []
    assert "8S" in game.hands[0]


def test_a_pass_before_the_defence_does_not_complete_the_bout() -> None:
    game = deal("classic", [cards("8D 8S 6H"), cards("JD QS KH")], trump="C")
    do(game, attack(0, "8D"), pass_(0))
    assert game.table == [["8D", None]]
    assert of_type(game, 1, "defend")


def test_passes_reset_for_everyone_when_a_card_lands() -> None:
    # Player 2 passed; player 3 throws; player 2 may now throw again in the Black Book.
    game = deal(
        "black_book",
        [cards("8D 6S"), cards("JD QS KH AH"), cards("8S 9H"), cards("8H 9S")],
        trump="C",
    )
    do(game, attack(0, "8D"), pass_(2), throw(3, "8H"))
    assert cards_of(game, 2, "throw") == {"8S"}


def test_waiting_for_lists_exactly_the_players_with_actions() -> None:
    game = deal(
        "classic", [cards("8D 8S 6H"), cards("JD QS KH AH"), cards("8H 9H"), cards("7S 7D")], trump="C"
    )
    do(game, attack(0, "8D"))
    assert sorted(game.waiting_for()) == [p for p in range(4) if game.legal_json(p)]
    # player 3 holds no eight, but nobody else can know that: he is waited for like player 2
    assert game.waiting_for() == [0, 1, 2, 3]
    assert game.legal_json(3) == [pass_(3)] and game.legal_json(2) == [pass_(2)]


def test_a_transfer_card_lifts_a_pass() -> None:
    game = deal(
        "black_book",
        [cards("9H 6S 7S"), cards("9D 6C 7C"), cards("10H 10D JS QS"), cards("9S 8D")],
        trump="C",
    )
    do(game, attack(0, "9H"), pass_(3))
    assert cards_of(game, 3, "throw") == set()
    do(game, transfer(1, "9D"))
    assert cards_of(game, 3, "throw") == {"9S"}


def test_a_trump_swap_does_not_lift_a_pass() -> None:
    # No card lands on the table: player 2's pass holds even though the swap brings him a king.
    game = deal(
        "classic",
        [cards("KS 9D 8D"), cards("AS QD 7C"), cards("6H KC 7S")],
        cards("JD KH"),
        first_attacker=0,
    )
    do(game, attack(0, "KS"), pass_(2), swap(2))
    assert "KH" in game.hands[2]
    assert of_type(game, 2, "throw") == []
    do(game, defend(1, "KS", "AS"), pass_(0))
    assert cards_of(game, 2, "throw") == {"KC", "KH"}
