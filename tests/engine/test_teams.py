"""Team play: the Black Book's Team Durak and the Full rules' Partners variant.

Teams sit alternately: team 0 is the even seats, team 1 the odd ones, so partners sit opposite.
The Black Book's example seats Yegor, Lena, Marina and Matvey clockwise: Yegor and Marina are one
team (seats 0 and 2), Lena and Matvey the other (seats 1 and 3).
"""

from typing import Any

import pytest

from durak import Game, IllegalAction, Rules, RulesError

YEGOR, LENA, MARINA, MATVEY = 0, 1, 2, 3


def team_game(
    kind: str, hands: list[list[str]], stock: list[str] | None = None, first_attacker: int = 0
) -> Game:
    preset = "black_book" if kind == "black_book" else "classic"
    rules = Rules.preset(preset, teams=kind)
    trump = None if stock else "C"
    return Game.from_deal(rules, hands, stock or [], first_attacker=first_attacker, trump=trump)


def act(game: Game, **action: Any) -> None:
    game.apply(action)


def everyone_done(game: Game) -> None:
    """Everyone the bout waits for to throw in says they are done (passes)."""
    for player in game.waiting_for():
        if game.table and player != game.defender:
            act(game, type="pass", player=player)


# --- seating ---------------------------------------------------------------------------------


def test_black_book_team_durak_is_for_exactly_four_players() -> None:
    rules = Rules.preset("black_book", teams="black_book")
    assert rules.player_counts() == [4]
    for players in (2, 3, 5, 6):
        with pytest.raises(RulesError):
            Game.new(rules, players, seed=1)
    assert Game.new(rules, 4, seed=1).teams == [[0, 2], [1, 3]]


def test_partners_play_two_against_two_or_three_against_three() -> None:
    rules = Rules.preset("classic", teams="partners")
    assert rules.player_counts() == [4, 6]
    with pytest.raises(RulesError):
        Game.new(rules, 5, seed=1)
    assert Game.new(rules, 6, seed=1).teams == [[0, 2, 4], [1, 3, 5]]


def test_partners_sit_opposite_so_both_neighbours_are_opponents() -> None:
    game = Game.new(Rules.preset("black_book", teams="black_book"), 4, seed=3)
    assert game.teams is not None
    for team in game.teams:
        for player in team:
            assert (player + 1) % 4 not in team and (player - 1) % 4 not in team
    view = game.view(None)
    assert view["teams"] == [[0, 2], [1, 3]] and view["losing_team"] is None


# --- attacking and throwing in only to opponents ---------------------------------------------


def test_players_attack_only_opponents_and_turns_go_clockwise() -> None:
    # "If Marina and Yegor are in one team, and Lena and Matvey are in the other, and Marina is
    # the first player, the order of turns is Marina, Lena, Yegor, Matvey." Seated so, clockwise,
    # with every bout beaten off each defender attacks next: always the opponent on their left.
    marina, lena, yegor, matvey = 0, 1, 2, 3
    game = team_game(
        "black_book",
        [["6H", "AH", "10D"], ["7H", "8D", "10C"], ["9D", "JS", "KC"], ["QS", "KH", "JC"]],
    )
    bouts = [("6H", "7H"), ("8D", "9D"), ("JS", "QS"), ("KH", "AH")]
    turns = []
    for attack_card, defence_card in bouts:
        attacker, defender = game.attacker, game.defender
        assert attacker is not None and defender is not None
        turns.append(attacker)
        assert defender == (attacker + 1) % 4 and attacker % 2 != defender % 2
        act(game, type="attack", player=attacker, cards=[attack_card])
        act(game, type="defend", player=defender, target=attack_card, card=defence_card)
        everyone_done(game)
        assert game.table == [] and game.last_bout is not None
        assert game.last_bout["result"] == "beaten"
    assert turns == [marina, lena, yegor, matvey]


def test_a_player_may_not_throw_in_to_their_partner() -> None:
    game = team_game(
        "black_book",
        [["9H", "KD"], ["10H", "QC"], ["9S", "KS"], ["9D", "AS"]],
        ["6D", "7C"],
    )
    act(game, type="attack", player=YEGOR, cards=["9H"])
    # Marina (Yegor's partner) may throw her nine at Lena; Matvey (Lena's partner) may not.
    assert {"type": "throw", "player": MARINA, "card": "9S"} in game.legal_json(MARINA)
    assert game.legal_json(MATVEY) == []
    with pytest.raises(IllegalAction, match="partner"):
        game.apply({"type": "throw", "player": MATVEY, "card": "9D"})


def test_partners_the_defender_defends_alone() -> None:
    game = team_game("partners", [["9H", "KD"], ["10H", "QC"], ["9S", "KS"], ["9D", "AS"]])
    act(game, type="attack", player=0, cards=["9H"])
    assert game.legal_json(3) == []  # the defender's partner neither helps nor throws in
    assert 3 not in game.waiting_for()
    act(game, type="pass", player=0)  # the main attacker has priority
    assert any(a["type"] == "throw" for a in game.legal_json(2))


# --- when players go out: the Black Book's example --------------------------------------------


def example(marina_takes: bool) -> Game:
    """Yegor attacks Lena, who beats it with her last card; the stock is empty, so Lena leaves."""
    game = team_game(
        "black_book",
        [["7H", "AS", "KD"], ["9H"], ["8D", "QD", "QS"], ["10D", "JS", "6C"]],
    )
    act(game, type="attack", player=YEGOR, cards=["7H"])
    act(game, type="defend", player=LENA, target="7H", card="9H")
    assert game.finished == [LENA] and game.table == []
    # "The turn passes to Matvey, and he attacks Marina (2), as Lena should have attacked her."
    assert (game.attacker, game.defender) == (MATVEY, MARINA)
    act(game, type="attack", player=MATVEY, cards=["10D"])
    if marina_takes:
        act(game, type="take", player=MARINA)  # every other ten is in the discard: nothing to add
    else:
        act(game, type="defend", player=MARINA, target="10D", card="QD")
        # Matvey might add a queen; Yegor is Marina's partner and does not throw in to her
        assert game.waiting_for() == [MATVEY]
        act(game, type="pass", player=MATVEY)
    assert game.table == []
    return game


def test_example_marina_does_not_defend_so_matvey_attacks_yegor() -> None:
    # "If Marina does not defend, Matvey must attack Yegor on his turn, as usual (3)."
    game = example(marina_takes=True)
    assert (game.attacker, game.defender) == (MATVEY, YEGOR)


def test_example_marina_defends_so_she_attacks_matvey_first() -> None:
    # The printed "he attacks Matvey" names the attacker himself; read as "she attacks Matvey":
    # a successful defender attacks next, and only then does Matvey take his turn against Yegor.
    game = example(marina_takes=False)
    assert (game.attacker, game.defender) == (MARINA, MATVEY)


def test_example_after_marina_defends_matvey_takes_his_turn_against_yegor() -> None:
    game = example(marina_takes=False)
    act(game, type="attack", player=MARINA, cards=["8D"])
    act(game, type="defend", player=MATVEY, target="8D", card="6C")  # a trump six
    everyone_done(game)
    assert (game.attacker, game.defender) == (MATVEY, YEGOR)


def lone_player_game() -> Game:
    """Lena is out; Matvey plays alone against Yegor and Marina. Nobody can throw in."""
    game = team_game(
        "black_book",
        [["QD", "6S", "AC"], [], ["7H", "KH", "AD"], ["9H", "JD", "8S", "10H", "6D"]],
        first_attacker=MARINA,
    )
    assert game.finished == [LENA]
    return game


def test_both_opponents_attack_the_remaining_player_and_he_answers_after_each() -> None:
    game = lone_player_game()
    turns = []
    for attack_card, defence_card in (("7H", "9H"), ("JD", "QD"), ("6S", "8S"), ("10H", "KH")):
        attacker, defender = game.attacker, game.defender
        assert attacker is not None and defender is not None
        turns.append((attacker, defender))
        act(game, type="attack", player=attacker, cards=[attack_card])
        act(game, type="defend", player=defender, target=attack_card, card=defence_card)
        everyone_done(game)
        assert game.table == []
    # Marina -> Matvey, Matvey -> Yegor (his own turn), Yegor -> Matvey, Matvey -> Marina (the
    # turn Lena would have had): "a turn after each opponent ... in the order the team would have".
    assert turns == [(MARINA, MATVEY), (MATVEY, YEGOR), (YEGOR, MATVEY), (MATVEY, MARINA)]


def test_a_lone_player_who_fails_to_defend_is_attacked_by_the_second_opponent() -> None:
    game = lone_player_game()
    act(game, type="attack", player=MARINA, cards=["7H"])
    act(game, type="take", player=MATVEY)
    everyone_done(game)
    assert game.table == []
    # Matvey loses his turn: the second opponent, Yegor, attacks him.
    assert (game.attacker, game.defender) == (YEGOR, MATVEY)


def test_two_players_left_from_opposing_teams_finish_under_the_normal_rules() -> None:
    game = team_game("black_book", [[], [], ["6H", "7H", "8C"], ["6S", "AH", "KH"]], first_attacker=MARINA)
    assert (game.attacker, game.defender) == (MARINA, MATVEY)
    act(game, type="attack", player=MARINA, cards=["6H"])
    act(game, type="defend", player=MATVEY, target="6H", card="AH")
    everyone_done(game)
    assert (game.attacker, game.defender) == (MATVEY, MARINA)  # the defender attacks next
    act(game, type="attack", player=MATVEY, cards=["6S"])
    act(game, type="take", player=MARINA)
    everyone_done(game)
    assert (game.attacker, game.defender) == (MATVEY, MARINA)  # a taker loses the turn


def test_the_team_whose_two_players_both_go_out_first_wins() -> None:
    game = team_game("black_book", [["9H"], ["10H", "QC"], [], ["9D", "AS"]])
    act(game, type="attack", player=YEGOR, cards=["9H"])
    act(game, type="defend", player=LENA, target="9H", card="10H")
    # Matvey could throw in only to an opponent, and Lena is his partner: the bout is beaten off.
    assert game.over
    assert game.losing_team == 1 and game.loser is None
    assert game.end == {"reason": "cards", "player": None, "team": 1}


def test_partners_as_soon_as_one_side_has_played_all_cards_the_other_side_loses() -> None:
    # Six players, 3 v 3: the even side goes out while three odd players still hold cards.
    hands = [["9H"], ["10H", "QC"], [], ["9D", "AS"], [], ["KD", "KS"]]
    game = team_game("partners", hands)
    act(game, type="attack", player=0, cards=["9H"])
    act(game, type="defend", player=1, target="9H", card="10H")
    assert game.over and game.losing_team == 1


def test_partners_attack_the_next_opponent_still_in_the_game() -> None:
    game = team_game("partners", [["9H", "6C"], [], ["10D"], ["KD", "KS"]])
    # Seat 1 is out; seat 2 is seat 0's partner, so seat 0 attacks seat 3.
    assert (game.attacker, game.defender) == (0, 3)


def test_both_sides_out_in_the_same_bout_is_a_draw() -> None:
    game = team_game("partners", [["9H"], ["10H"], [], []])
    act(game, type="attack", player=0, cards=["9H"])
    act(game, type="defend", player=1, target="9H", card="10H")
    assert game.over and game.losing_team is None and game.loser is None


def test_a_timeout_in_a_team_game_loses_for_the_team() -> None:
    game = Game.new(Rules.preset("classic", teams="partners"), 4, seed=5)
    attacker = game.attacker
    assert attacker is not None
    game.apply({"type": "timeout", "player": attacker})
    assert game.over and game.losing_team == attacker % 2 and game.loser is None
