"""Tournaments across the site: the live channel, the header's link, the podium on profiles, a
tournament game's line back to its tournament, and the moderators' admin."""

from typing import Any

import pytest
from django.contrib.auth.models import AnonymousUser
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from durak_site import live
from durak_site.channels import readable_channels
from moderation import services as moderation_services
from tests.factories import UserFactory
from tournaments import services
from tournaments.models import Player, Tournament

from .helpers import finish_round, later, round_games, seated, started, tournament, with_players
from .test_pages import client_for, played_swiss

pytestmark = pytest.mark.django_db


def test_a_tournaments_channel_is_everyones_and_an_unknown_ones_nobodys() -> None:
    t = tournament()
    channels = [
        live.tournament_channel(t.pk),
        live.tournament_channel(t.pk + 50),
        "tournament-0",
        "tournament-x",
    ]
    for reader in (UserFactory(), AnonymousUser()):
        assert readable_channels(channels=channels, user=reader, shared_game_ids=()) == {channels[0]}


def test_the_stream_view_refuses_an_unknown_tournament_and_takes_a_known_one() -> None:
    t = tournament()
    client = Client()
    assert client.get(reverse("live"), {"channel": live.tournament_channel(t.pk)}).status_code == 204  # WSGI
    assert client.get(reverse("live"), {"channel": live.tournament_channel(t.pk + 9)}).status_code == 404


def test_the_header_links_to_the_tournaments_in_both_languages() -> None:
    page = client_for(None).get(reverse("games:lobby")).content.decode()
    assert f'href="{reverse("tournaments:list")}"' in page and ">tournaments<" in page
    page = client_for(UserFactory(), "ru").get(reverse("games:lobby")).content.decode()
    assert ">турниры<" in page


def test_the_podium_is_on_the_winners_profiles() -> None:
    t = tournament(name="Autumn cup", rounds=3)
    users = with_players(t, 6)
    t = started(t)
    for _ in range(3):
        # The one registered first wins each game: distinct places.
        losers = {game.pk: max(seated(game), key=users.index) for game in round_games(t)}
        finish_round(t, losers)
        services.advance(tournament_id=t.pk, now=later(t))
        t.refresh_from_db()
    assert t.status == Tournament.Status.FINISHED
    ranks = dict(Player.objects.filter(tournament=t).values_list("user_id", "final_rank"))
    winner = next(user for user in users if ranks[user.pk] == 1)
    last = next(user for user in users if ranks[user.pk] == max(ranks.values()))
    page = client_for(None).get(reverse("stats:profile", args=[winner.username])).content.decode()
    assert (
        'class="medal medal-1"' in page
        and "Autumn cup" in page
        and reverse("tournaments:detail", args=[t.pk]) in page
    )
    assert t.finished_at is not None and t.finished_at.strftime("%Y-%m-%d") in page
    assert max(ranks.values()) > 3
    page = client_for(None).get(reverse("stats:profile", args=[last.username])).content.decode()
    assert "Autumn cup" not in page
    page = client_for(None, "ru").get(reverse("stats:profile", args=[winner.username])).content.decode()
    assert "1-е место:" in page  # noqa: RUF001


def test_the_podium_costs_one_query_however_many_tournaments() -> None:
    first, _users = played_swiss(2, 1, name="Cup 1")
    winner = next(player.user for player in Player.objects.filter(tournament=first, final_rank=1))
    client = client_for(None)
    url = reverse("stats:profile", args=[winner.username])
    client.get(url)

    def count() -> int:
        with CaptureQueriesContext(connection) as queries:
            assert client.get(url).status_code == 200
        return len(queries)

    one = count()
    for number in range(2, 5):
        t = tournament(name=f"Cup {number}", rounds=1)
        services.tournament_register(user=winner, tournament_id=t.pk)
        with_players(t, 1)
        t = started(t)
        finish_round(t)
        services.advance(tournament_id=t.pk, now=later(t))
    assert Player.objects.filter(user=winner, final_rank__lte=3).count() == 4
    assert count() == one


def test_a_tournament_game_names_its_round_and_tournament(django_assert_max_num_queries: Any) -> None:
    t, _users = played_swiss(4, 2, name="Autumn cup", finish=False)
    game = round_games(t)[0]
    player = seated(game)[0]
    client = client_for(player)
    url = reverse("games:detail", args=[game.pk])
    page = client.get(url).content.decode()
    assert f'Round 2 of <a href="{reverse("tournaments:detail", args=[t.pk])}">Autumn cup</a>' in page
    # The game page's budget (tests/games/test_views.py): the tournament comes with the game's row.
    with django_assert_max_num_queries(12):
        assert client.get(url).status_code == 200
    page = client_for(player, "ru").get(url).content.decode()
    assert "Тур 2 турнира" in page  # noqa: RUF001


def test_moderators_list_tournaments_and_mark_one_official() -> None:
    t = tournament(name="Autumn cup")
    with_players(t, 3)
    moderator = UserFactory()
    moderation_services.moderator_grant(user=moderator, actor=None, reason="test moderator")
    client = client_for(moderator)
    url = reverse("admin:tournaments_tournament_changelist")
    page = client.get(url).content.decode()
    assert "Autumn cup" in page and ">3<" in page
    assert client.get(reverse("admin:tournaments_tournament_change", args=[t.pk])).status_code == 200
    response = client.post(url, {"action": "mark_official", "_selected_action": [t.pk]})
    assert response.status_code == 302
    t.refresh_from_db()
    assert t.official
    # Someone who is not a moderator: no admin, no mark.
    Tournament.objects.filter(pk=t.pk).update(official=False)
    stranger = client_for(UserFactory(is_staff=True))
    stranger.post(url, {"action": "mark_official", "_selected_action": [t.pk]})
    t.refresh_from_db()
    assert not t.official


def test_the_admin_list_costs_the_same_queries_for_one_tournament_and_for_ten() -> None:
    moderator = UserFactory()
    moderation_services.moderator_grant(user=moderator, actor=None, reason="test moderator")
    client = client_for(moderator)
    url = reverse("admin:tournaments_tournament_changelist")
    with_players(tournament(), 2)
    client.get(url)

    def count() -> int:
        with CaptureQueriesContext(connection) as queries:
            assert client.get(url).status_code == 200
        return len(queries)

    few = count()
    for number in range(9):
        with_players(tournament(name=f"Cup {number}"), 3)
    assert count() == few
