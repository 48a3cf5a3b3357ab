"""A rating is provisional until it has a few games behind it: marked on the profile, listed
apart on the leaderboard, and rounded to whole numbers meanwhile (issue 19: after one game a
rating read "-1.8 ± 24.2")."""

from datetime import timedelta

import pytest
from django.test import Client

from stats.models import Mode, Rating
from tests.factories import UserFactory, started_game
from tests.stats.helpers import time_out

pytestmark = pytest.mark.django_db


def test_one_game_makes_a_provisional_rating_marked_and_listed_apart() -> None:
    game, (alice, bob) = started_game(move_time=timedelta(minutes=5))
    time_out(game)
    ratings = {r.user_id: r for r in Rating.objects.filter(players=0)}
    assert ratings[alice.pk].games == 1 and ratings[alice.pk].provisional
    assert ratings[bob.pk].provisional
    veteran = UserFactory()
    Rating.objects.create(
        user=veteran, mode=Mode.THROW_IN, players=0, mu=30.32, sigma=6.4, ordinal=11.12, games=12
    )

    page = Client().get("/leaderboard/").content.decode()
    established, _, provisional = page.partition('id="provisional-title"')
    assert veteran.name in established and "11.1" in established
    assert alice.name not in established and bob.name not in established
    assert alice.name in provisional and bob.name in provisional
    assert "provisional" in provisional
    # Whole numbers while provisional, and a real minus sign: no "-1.8 ± 24.2".
    loser = min(ratings.values(), key=lambda r: r.ordinal)
    assert f"{loser.ordinal:.1f}" not in provisional
    assert f"\u2212{abs(loser.ordinal):.0f}" in provisional or f"{loser.ordinal:.0f}" in provisional

    profile = Client().get(f"/players/{alice.username}/").content.decode()
    assert "provisional" in profile
    assert Client().get(f"/players/{veteran.username}/").content.decode().count("provisional-tag") == 0


def test_russian_pages_say_predvaritelny() -> None:
    game, (alice, _bob) = started_game(move_time=timedelta(minutes=5))
    time_out(game)
    client = Client(headers={"accept-language": "ru"})
    assert "предварительный" in client.get(f"/players/{alice.username}/").content.decode()
    assert "Предварительные рейтинги" in client.get("/leaderboard/").content.decode()


@pytest.mark.parametrize(
    ("games", "sigma", "provisional"), [(1, 8.07, True), (9, 6.0, True), (10, 6.4, False), (30, 6.6, True)]
)
def test_provisional_until_ten_games_and_a_settled_deviation(
    games: int, sigma: float, provisional: bool
) -> None:
    assert Rating(mu=25, sigma=sigma, ordinal=25 - 3 * sigma, games=games).provisional is provisional
