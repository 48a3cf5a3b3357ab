"""Stats, pair records and ratings after scripted games, against numbers worked out by hand;
the rebuild gives the same numbers."""

import math
from datetime import timedelta
from typing import Any

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from games import services
from games.models import Game, Seat
from series.services import start_next_game
from stats import selectors
from stats import services as stats_services
from stats.models import CountedGame, PairStats, PlayerStats, Rating, RatingChange
from tests.factories import GameFactory, UserFactory, started_game

from .helpers import (
    DRAW_DEAL,
    DRAW_MOVES,
    MU,
    SIGMA,
    SIX_DEAL,
    SIX_MOVES,
    plackett_luce,
    play_script,
    time_out,
)

pytestmark = pytest.mark.django_db


def overall(user: Any) -> PlayerStats:
    return PlayerStats.objects.get(user=user, scope="all", key="")


def rating(user: Any, mode: str = "throw_in", players: int = 0) -> Rating:
    return Rating.objects.get(user=user, mode=mode, players=players)


def numbers(row: PlayerStats) -> dict[str, Any]:
    return {
        "games": row.games,
        "fools": row.fools,
        "draws": row.draws,
        "went_out": row.went_out,
        "place_total": row.place_total,
        "current_streak": row.current_streak,
        "best_streak": row.best_streak,
    }


def test_the_first_two_player_game_moves_the_ratings_as_worked_out_by_hand() -> None:
    # sigma is first widened by tau: s = sqrt((25/3)^2 + (25/300)^2) = 8.33375; then
    # c = sqrt(2 (s^2 + beta^2)) = 13.1772; the winner gains s^2 / c * 1/2 = 2.635389, the fool
    # loses as much; both sigmas become s * sqrt(1 - (s/c)(s^2/c^2)/4) = 8.065901.
    game, users = started_game(
        deal={"hands": [["6S", "7H"], ["8S"]], "stock": [], "trump": "C", "first_attacker": 0}
    )
    play_script(
        game,
        users,
        [
            {"type": "attack", "player": 0, "cards": ["6S"]},
            {"type": "defend", "player": 1, "target": "6S", "card": "8S"},
        ],
    )
    fool, winner = rating(users[0]), rating(users[1])
    assert winner.mu == pytest.approx(27.635389, abs=1e-6)
    assert fool.mu == pytest.approx(22.364611, abs=1e-6)
    assert winner.sigma == pytest.approx(8.065901, abs=1e-6) and fool.sigma == pytest.approx(
        8.065901, abs=1e-6
    )
    assert winner.ordinal == pytest.approx(27.635389 - 3 * 8.065901, abs=1e-5)
    assert (winner.games, fool.games) == (1, 1)
    assert numbers(overall(users[0])) == {
        "games": 1,
        "fools": 1,
        "draws": 0,
        "went_out": 0,
        "place_total": 0,
        "current_streak": 0,
        "best_streak": 0,
    }
    assert numbers(overall(users[1])) == {
        "games": 1,
        "fools": 0,
        "draws": 0,
        "went_out": 1,
        "place_total": 1,
        "current_streak": 1,
        "best_streak": 1,
    }


def test_a_draw_counts_for_both_changes_no_mu_and_shrinks_both_sigmas() -> None:
    game, users = started_game(deal=DRAW_DEAL)
    game = play_script(game, users, DRAW_MOVES)
    assert game.status == Game.Status.FINISHED
    assert set(game.seats.values_list("result", flat=True)) == {Seat.Result.DRAW}
    # Player 0 went out first with the attack, player 1 second with the defence.
    assert numbers(overall(users[0])) == {
        "games": 1,
        "fools": 0,
        "draws": 1,
        "went_out": 1,
        "place_total": 1,
        "current_streak": 1,
        "best_streak": 1,
    }
    assert numbers(overall(users[1])) == {
        "games": 1,
        "fools": 0,
        "draws": 1,
        "went_out": 1,
        "place_total": 2,
        "current_streak": 1,
        "best_streak": 1,
    }
    for user in users:
        assert rating(user).mu == pytest.approx(MU, abs=1e-9)
        assert rating(user).sigma == pytest.approx(8.065901, abs=1e-6)
    pair = PairStats.objects.get()
    assert (pair.games, pair.draws, pair.low_fools, pair.high_fools, pair.low_ahead, pair.high_ahead) == (
        1,
        1,
        0,
        0,
        0,
        0,
    )
    assert overall(users[0]).fool_rate == 0 and overall(users[1]).average_place == 2


def test_a_six_player_game_ranks_everyone_by_the_order_they_went_out() -> None:
    game, users = started_game(players=6, deal=SIX_DEAL)
    game = play_script(game, users, SIX_MOVES)
    assert game.status == Game.Status.FINISHED
    places = {1: users[0], 2: users[1], 3: users[3], 4: users[5], 5: users[2]}
    for place, user in places.items():
        assert numbers(overall(user)) == {
            "games": 1,
            "fools": 0,
            "draws": 0,
            "went_out": 1,
            "place_total": place,
            "current_streak": 1,
            "best_streak": 1,
        }
    assert numbers(overall(users[4])) == {
        "games": 1,
        "fools": 1,
        "draws": 0,
        "went_out": 0,
        "place_total": 0,
        "current_streak": 0,
        "best_streak": 0,
    }
    six = PlayerStats.objects.get(user=users[4], scope="players", key="6")
    classic = PlayerStats.objects.get(user=users[4], scope="preset", key="classic")
    assert (six.games, six.fools, classic.games, classic.fools) == (1, 1, 1, 1)

    # Ranks: the order out, the fool last. Mu only moves between players (the sum stays 6 x 25),
    # and the order of the new mus is the finishing order.
    ranks = [1, 2, 5, 3, 7, 4]
    expected = plackett_luce([MU] * 6, [SIGMA] * 6, ranks)
    for user, (mu, sigma) in zip(users, expected, strict=True):
        assert rating(user).mu == pytest.approx(mu, abs=1e-9)
        assert rating(user).sigma == pytest.approx(sigma, abs=1e-9)
        assert rating(user, players=6).mu == pytest.approx(mu, abs=1e-9)
    mus = [rating(user).mu for user in users]
    assert sum(mus) == pytest.approx(6 * MU)
    assert sorted(range(6), key=lambda p: -mus[p]) == [0, 1, 3, 5, 2, 4]

    # Fifteen pairs; the fool is behind everyone, the first out ahead of everyone.
    assert PairStats.objects.count() == 15
    fool_vs_first = selectors.head_to_head(me=users[4], other=users[0])
    assert (fool_vs_first.games, fool_vs_first.my_fools, fool_vs_first.their_fools) == (1, 1, 0)
    assert (fool_vs_first.me_ahead, fool_vs_first.them_ahead) == (0, 1)


def test_a_two_player_series_where_the_first_attacker_always_runs_out_of_time() -> None:
    # Classic: in later games the player left of the dealer (the last fool) attacks first, so
    # with two players the fool alternates: X, Y, X. X is the fool twice, Y once: Y wins.
    game, users = started_game(move_time=timedelta(minutes=5), seed=77)
    x_position = game.state["attacker"]
    x, y = users[x_position], users[1 - x_position]
    game = time_out(game)
    games = [game]
    for _ in range(2):
        following = start_next_game(user=users[0], game_id=games[-1].pk, games_agreed=3)
        previous_fool = games[-1].seats.get(result=Seat.Result.FOOL).position
        assert following.dealer == previous_fool and not following.first_game
        assert following.state["attacker"] == 1 - previous_fool
        games.append(time_out(following))
    fools = [g.seats.get(result=Seat.Result.FOOL).user for g in games]
    assert fools == [x, y, x]
    assert numbers(overall(x)) == {
        "games": 3,
        "fools": 2,
        "draws": 0,
        "went_out": 0,
        "place_total": 0,
        "current_streak": 0,
        "best_streak": 1,
    }
    assert numbers(overall(y)) == {
        "games": 3,
        "fools": 1,
        "draws": 0,
        "went_out": 0,
        "place_total": 0,
        "current_streak": 1,
        "best_streak": 1,
    }
    assert overall(x).fool_rate == pytest.approx(2 / 3)
    # Three updates in a row, recomputed from the formulas.
    state = {x.pk: (MU, SIGMA), y.pk: (MU, SIGMA)}
    for fool in fools:
        winner = y if fool == x else x
        (w, f) = plackett_luce(
            [state[winner.pk][0], state[fool.pk][0]], [state[winner.pk][1], state[fool.pk][1]], [1, 2]
        )
        state[winner.pk], state[fool.pk] = w, f
    for user in (x, y):
        assert rating(user).mu == pytest.approx(state[user.pk][0], abs=1e-9)
        assert rating(user).sigma == pytest.approx(state[user.pk][1], abs=1e-9)
        assert RatingChange.objects.filter(user=user).count() == 3


def test_a_team_loss_counts_for_both_partners() -> None:
    game, users = started_game(players=4, overrides={"teams": "partners"}, move_time=timedelta(minutes=5))
    loser = game.state["attacker"]
    time_out(game)
    for position, user in enumerate(users):
        lost = position % 2 == loser % 2
        seat = Seat.objects.get(game=game, user=user)
        assert seat.result == (Seat.Result.FOOL if lost else Seat.Result.WON)
        assert overall(user).fools == int(lost)
    # Rated as two teams: partners move together.
    losers = [rating(u).mu for p, u in enumerate(users) if p % 2 == loser % 2]
    winners = [rating(u).mu for p, u in enumerate(users) if p % 2 != loser % 2]
    assert losers[0] == losers[1] < MU < winners[0] == winners[1]


def test_aborted_and_running_games_never_count() -> None:
    open_game = GameFactory()
    services.game_leave(user=open_game.creator, game_id=open_game.pk)
    assert Game.objects.get(pk=open_game.pk).status == Game.Status.ABORTED
    started_game()
    call_command("rebuild_stats")
    assert not PlayerStats.objects.exists() and not Rating.objects.exists()
    assert not CountedGame.objects.exists()


def test_rebuilding_from_the_games_gives_the_same_numbers() -> None:
    game, users = started_game(deal=DRAW_DEAL)
    play_script(game, users, DRAW_MOVES)
    game, six = started_game(players=6, deal=SIX_DEAL)
    play_script(game, six, SIX_MOVES)
    game, pair = started_game(move_time=timedelta(minutes=5), overrides={"transfer": True})
    game = time_out(game)
    for _ in range(2):
        game = time_out(start_next_game(user=pair[1], game_id=game.pk, games_agreed=3))
    live = stats_services.snapshot_rows()
    assert len(live["history"]) == 2 + 6 + 3 * 2
    call_command("rebuild_stats", "--check")
    call_command("rebuild_stats")
    assert stats_services.snapshot_rows() == live
    assert rating(pair[0], mode="transfer").games == 3

    PlayerStats.objects.filter(user=six[4], scope="all").update(fools=0)
    with pytest.raises(CommandError, match="player_stats"):
        call_command("rebuild_stats", "--check")
    call_command("rebuild_stats")
    assert stats_services.snapshot_rows() == live


# Four players in partners, clubs trump, no stock: 2, dealt nothing, is out at once; 0 leads 6S
# and 1 beats it with 7S: both are out, and 3 still holds the 8H: the team of 1 and 3 loses,
# though 1 went out third.
TEAM_DEAL: dict[str, Any] = {
    "hands": [["6S"], ["7S"], [], ["8H"]],
    "stock": [],
    "trump": "C",
    "first_attacker": 0,
}


def test_a_team_game_counts_places_and_losses_and_rebuilds_to_the_live_numbers() -> None:
    game, users = started_game(players=4, deal=TEAM_DEAL, overrides={"teams": "partners"})
    game = play_script(game, users, DRAW_MOVES)
    assert [seat.place for seat in game.seats.order_by("position")] == [2, 3, 1, None]
    places = [(overall(u).fools, overall(u).went_out, overall(u).place_total) for u in users]
    assert places == [(0, 1, 2), (1, 1, 3), (0, 1, 1), (1, 0, 0)]
    mus = [rating(u).mu for u in users]
    assert mus[0] == mus[2] > MU > mus[1] == mus[3]
    resigned, others = started_game(players=4, overrides={"teams": "partners"})
    services.player_resign(user=others[2], game_id=resigned.pk)
    assert [overall(u).fools for u in others] == [1, 0, 1, 0]
    live = stats_services.snapshot_rows()
    call_command("rebuild_stats", "--check")
    call_command("rebuild_stats")
    assert stats_services.snapshot_rows() == live


def test_a_finished_game_is_counted_once() -> None:
    game, users = started_game(deal=DRAW_DEAL)
    game = play_script(game, users, DRAW_MOVES)

    seats = list(game.seats.all())
    stats_services.game_finished(game=game, seats=seats, engine=game.engine())
    assert overall(users[0]).games == 1


def test_pairs_that_farm_rating_are_flagged_and_others_are_not() -> None:
    farmer, feeder, honest, friend = UserFactory.create_batch(4)
    for _ in range(12):  # the feeder holds seat 0 of the short deal and is always the fool
        _short_game(feeder, farmer)
    for _ in range(3):
        _short_game(honest, friend)
        _short_game(friend, honest)
    _short_game(farmer, honest)
    suspects = selectors.farming_suspects()
    assert [(s.loser, s.winner, s.pair.games) for s in suspects] == [(feeder, farmer, 12)]
    assert suspects[0].fool_share == 1.0 and suspects[0].next_most == 1


def _short_game(fool: Any, winner: Any) -> tuple[Game, list[Any]]:
    game = GameFactory(
        creator=fool, deal={"hands": [["6S", "7H"], ["8S"]], "stock": [], "trump": "C", "first_attacker": 0}
    )
    services.game_join(user=winner, game_id=game.pk)
    return play_script(
        game,
        [fool, winner],
        [
            {"type": "attack", "player": 0, "cards": ["6S"]},
            {"type": "defend", "player": 1, "target": "6S", "card": "8S"},
        ],
    ), [fool, winner]


def test_reference_formula_agrees_with_the_hand_numbers() -> None:
    (w, f) = plackett_luce([MU, MU], [SIGMA, SIGMA], [1, 2])
    s = math.sqrt(SIGMA**2 + (25 / 300) ** 2)
    c = math.sqrt(2 * (s**2 + (25 / 6) ** 2))
    assert w[0] == pytest.approx(MU + s**2 / c / 2) and f[0] == pytest.approx(MU - s**2 / c / 2)
    assert w[0] == pytest.approx(27.635389, abs=1e-6)
