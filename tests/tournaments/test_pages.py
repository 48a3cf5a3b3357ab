"""The tournaments' pages (``tournaments.views``): the list, the create form, a tournament's page
with its buttons, standings and rounds, in both languages; refusals change nothing; the pages'
queries do not grow with the number of players, rounds or tournaments."""

from datetime import timedelta
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from games.models import Game, Seat
from tests.factories import UserFactory
from tournaments import services
from tournaments.models import Player, Tournament

from .helpers import finish_round, later, round_games, seated, started, tournament, with_players

pytestmark = pytest.mark.django_db

HTMX = {"HX-Request": "true"}


def client_for(user: User | None, language: str = "en") -> Client:
    client = Client(headers={"accept-language": language})
    client.cookies["django_language"] = language
    if user is not None:
        User.objects.filter(pk=user.pk).update(language=language)  # what the site speaks to them
        client.force_login(user)
    return client


def page_of(client: Client, t: Tournament, **headers: str) -> str:
    response = client.get(reverse("tournaments:detail", args=[t.pk]), headers=headers)
    assert response.status_code == 200, response.content.decode()[:500]
    return str(response.content.decode())


def played_swiss(players: int, rounds: int, **fields: Any) -> tuple[Tournament, list[User]]:
    """A Swiss with ``rounds`` rounds played (the last one still under way if ``fields`` say
    ``finish=False``)."""
    finish_last = fields.pop("finish", True)
    t = tournament(rounds=rounds, **fields)
    users = with_players(t, players)
    t = started(t)
    for number in range(1, rounds + 1):
        if number == rounds and not finish_last:
            break
        finish_round(t)
        services.advance(tournament_id=t.pk, now=later(t))
        t.refresh_from_db()
    return t, users


# --- The list ---------------------------------------------------------------------------------


def test_the_list_shows_upcoming_running_and_finished_tournaments_in_both_languages() -> None:
    upcoming = tournament(name="Winter cup", rounds=4)
    with_players(upcoming, 2)
    Tournament.objects.filter(pk=upcoming.pk).update(official=True)
    played_swiss(4, 3, name="Spring open", finish=False)
    finished, _users = played_swiss(2, 1, name="Autumn cup")
    assert finished.status == Tournament.Status.FINISHED
    page = client_for(None).get(reverse("tournaments:list")).content.decode()
    assert "Winter cup" in page and "Spring open" in page and "Autumn cup" in page
    assert page.index("Winter cup") < page.index("Spring open") < page.index("Autumn cup")
    assert "Swiss, 4 rounds" in page and "correspondence: 1 day a move" in page
    assert "2 / 1024" in page and "official" in page
    assert "Create a tournament" not in page  # a visitor
    page = client_for(UserFactory(), "ru").get(reverse("tournaments:list")).content.decode()
    assert "Турниры" in page and "Создать турнир" in page
    assert "швейцарская система, 4 тура" in page and "по переписке: 1 день на ход" in page


def test_the_list_costs_the_same_queries_for_one_tournament_and_for_twelve() -> None:
    client = client_for(UserFactory())
    with_players(tournament(), 3)

    def count() -> int:
        with CaptureQueriesContext(connection) as queries:
            assert client.get(reverse("tournaments:list")).status_code == 200
        return len(queries)

    few = count()
    for number in range(11):
        with_players(tournament(name=f"Cup {number}"), 2)
    played_swiss(3, 1, name="Done")
    assert count() == few


# --- Creating ---------------------------------------------------------------------------------


def create_data(**fields: Any) -> dict[str, Any]:
    starts = timezone.localtime(timezone.now() + timedelta(days=2))
    data = {
        "name": "Autumn cup",
        "description": "Friendly.",
        "format": "swiss",
        "preset": "classic",
        "table_size": "4",
        "scoring": "not_fool",
        "time_control": "1d",
        "round_minutes": "",
        "rounds": "5",
        "max_players": "",
        "registration_opens_at": "",
        "starts_at": starts.strftime("%Y-%m-%dT%H:%M"),
        "rating_min": "",
        "rating_max": "",
        "min_reliability": "",
        "rated": "on",
    }
    data.update(fields)
    return data


def test_the_create_form_announces_a_tournament() -> None:
    me = UserFactory()
    client = client_for(me)
    page = client.get(reverse("tournaments:create")).content.decode()
    assert 'name="starts_at"' in page and 'name="round_minutes"' in page
    response = client.post(reverse("tournaments:create"), create_data())
    t = Tournament.objects.get()
    assert response.status_code == 302 and response["Location"] == reverse("tournaments:detail", args=[t.pk])
    assert (t.name, t.format, t.preset, t.rounds, t.creator_id, t.rated) == (
        "Autumn cup",
        "swiss",
        "classic",
        5,
        me.pk,
        True,
    )
    assert t.move_time == timedelta(days=1) and t.round_time is None


def test_a_live_table_round_tournament_takes_its_round_length_and_table_size() -> None:
    client = client_for(UserFactory())
    data = create_data(
        format="tables", table_size="3", scoring="places", time_control="30s", round_minutes="15"
    )
    assert client.post(reverse("tournaments:create"), data).status_code == 302
    t = Tournament.objects.get()
    assert (t.table_size, t.scoring, t.round_time, t.live) == (3, "places", timedelta(minutes=15), True)


@pytest.mark.parametrize(
    ("fields", "said"),
    [
        ({"time_control": "30s"}, "A live tournament needs a round time of at least 60 seconds."),
        ({"starts_at": "2001-01-01T10:00"}, "A tournament must start in the future."),
        ({"rating_min": "500", "rating_max": "100"}, "The highest rating must not be below the lowest."),
        ({"format": "knockout"}, "Select a valid choice."),
        ({"rounds": "99"}, "Rounds"),
        ({"rounds": "abc"}, "Enter a whole number."),
        ({"starts_at": "tomorrow"}, "Starts"),
        ({"name": ""}, "Name"),
        ({"max_players": "1"}, "Most players"),
    ],
)
def test_a_refused_tournament_is_the_form_again_with_why_and_nothing_written(
    fields: dict[str, str], said: str
) -> None:
    client = client_for(UserFactory())
    response = client.post(reverse("tournaments:create"), create_data(**fields))
    assert response.status_code == 400
    page = response.content.decode()
    assert "The tournament was not created:" in page
    assert said in page
    assert not Tournament.objects.exists()


def test_a_refusal_is_said_in_russian_too() -> None:
    client = client_for(UserFactory(), "ru")
    response = client.post(reverse("tournaments:create"), create_data(time_control="30s"))
    assert response.status_code == 400
    assert "Турнир не создан" in response.content.decode()
    assert not Tournament.objects.exists()


def test_a_visitor_is_sent_to_log_in_to_create() -> None:
    response = client_for(None).get(reverse("tournaments:create"))
    assert response.status_code == 302 and "login" in response["Location"]
    response = client_for(None).post(reverse("tournaments:create"), create_data())
    assert response.status_code == 302 and not Tournament.objects.exists()


# --- A tournament's page and its buttons --------------------------------------------------------


def test_a_visitor_reads_the_settings_and_is_asked_to_log_in() -> None:
    t = tournament(name="Autumn cup", description="Bring tea.")
    with_players(t, 2)
    page = page_of(client_for(None), t)
    assert "Autumn cup" in page and "Bring tea." in page
    assert "Swiss, 3 rounds" in page and "correspondence: 1 day a move" in page
    assert "Log in</a> to register" in page
    assert f'data-live-channel="tournament-{t.pk}"' in page
    assert "2 players" in page and ">Register<" not in page


def test_a_player_registers_unregisters_and_reads_it_in_russian() -> None:
    t = tournament()
    me = UserFactory()
    client = client_for(me, "ru")
    page = page_of(client, t)
    assert "Зарегистрироваться" in page and "Начало" in page
    response = client.post(reverse("tournaments:register", args=[t.pk]))
    assert response.status_code == 302
    assert Player.objects.filter(tournament=t, user=me).exists()
    page = page_of(client, t)
    assert "Вы зарегистрированы." in page and "Отменить регистрацию" in page
    # With htmx: the live part alone, with what changed.
    response = client.post(reverse("tournaments:unregister", args=[t.pk]), headers=HTMX)
    assert response.status_code == 200
    fragment = response.content.decode()
    assert fragment.lstrip().startswith('<div id="tournament-live"') and "<html" not in fragment
    assert "Зарегистрироваться" in fragment
    assert not Player.objects.filter(tournament=t, user=me).exists()


def test_the_refusal_sentence_is_shown_instead_of_register() -> None:
    t = tournament(min_reliability=90)
    page = page_of(client_for(UserFactory()), t)
    assert "Only players with a reliability of at least 90% can register." in page
    assert ">Register<" not in page


def test_a_refused_registration_is_answered_with_its_status_and_writes_nothing() -> None:
    t = tournament(min_reliability=90)
    client = client_for(UserFactory())
    response = client.post(reverse("tournaments:register", args=[t.pk]))
    assert response.status_code == 403
    assert "Only players with a reliability of at least 90% can register." in response.content.decode()
    assert not Player.objects.exists()
    # A tournament that does not exist, or a GET: no page, nothing written.
    assert client.post(reverse("tournaments:register", args=[t.pk + 99])).status_code == 404
    assert client.get(reverse("tournaments:register", args=[t.pk])).status_code == 405
    assert not Player.objects.exists()


def test_a_visitor_cannot_press_a_button() -> None:
    t = tournament()
    response = client_for(None).post(reverse("tournaments:register", args=[t.pk]))
    assert response.status_code == 302 and "login" in response["Location"]
    assert not Player.objects.exists()


def test_the_creator_adds_a_computer_player_and_cancels() -> None:
    creator = UserFactory()
    t = tournament(creator=creator, rated=False)
    client = client_for(creator)
    page = page_of(client, t)
    assert "Add a computer player" in page and "Cancel the tournament" in page
    assert page_of(client_for(UserFactory()), t).count("Add a computer player") == 0
    response = client.post(reverse("tournaments:add_computer", args=[t.pk]), {"level": "rules"}, headers=HTMX)
    assert response.status_code == 200
    assert Player.objects.filter(tournament=t, user__is_bot=True).count() == 1
    # A level that is not one: 400, nothing written.
    response = client.post(reverse("tournaments:add_computer", args=[t.pk]), {"level": "genius"})
    assert response.status_code == 400
    assert "Choose how strong the computer player is." in response.content.decode()
    assert Player.objects.filter(tournament=t).count() == 1
    # Someone else may not.
    other = client_for(UserFactory())
    assert other.post(reverse("tournaments:add_computer", args=[t.pk]), {"level": "rules"}).status_code == 403
    assert other.post(reverse("tournaments:cancel", args=[t.pk])).status_code == 403
    assert Player.objects.filter(tournament=t).count() == 1
    response = client.post(reverse("tournaments:cancel", args=[t.pk]))
    assert response.status_code == 302
    t.refresh_from_db()
    assert t.status == Tournament.Status.CANCELLED
    page = page_of(client, t)
    assert "This tournament was cancelled." in page and "Cancel the tournament" not in page


def test_a_rated_tournament_offers_no_computer_players() -> None:
    creator = UserFactory()
    t = tournament(creator=creator, rated=True)
    assert "Add a computer player" not in page_of(client_for(creator), t)
    response = client_for(creator).post(reverse("tournaments:add_computer", args=[t.pk]), {"level": "rules"})
    assert response.status_code == 403 and not Player.objects.exists()


def test_standings_and_rounds_with_links_a_bye_and_a_withdrawal() -> None:
    t, users = played_swiss(5, 2, finish=False)
    player = users[0]
    client = client_for(player)
    page = page_of(client, t)
    assert "Standings" in page and "Buchholz" in page and "Round 1" in page and "Round 2" in page
    assert "a bye (scores as a win)" in page
    mine = next(game for game in round_games(t) if player in seated(game))
    assert reverse("games:detail", args=[mine.pk]) in page
    assert "Withdraw" in page
    response = client.post(reverse("tournaments:withdraw", args=[t.pk]))
    assert response.status_code == 302
    mine.refresh_from_db()
    assert mine.status == Game.Status.FINISHED  # resigned
    page = page_of(client, t)
    assert "You are out of this tournament: withdrew." in page
    assert "(withdrew)" in page and ">Withdraw<" not in page
    page = page_of(client_for(player, "ru"), t)
    assert "Турнирная таблица" in page and "(отказ от участия)" in page
    assert "Тур 2" in page  # noqa: RUF001


def test_points_are_decimals_in_both_languages() -> None:
    t, _users = played_swiss(3, 1, format=Tournament.Format.TABLES, table_size=3)
    # One table of three: two score 1 point, the fool none. A table's shared draw would score ⅔.
    page = page_of(client_for(None), t)
    assert 'class="num points" data-label="Points">1<' in page
    assert 'class="num points" data-label="Points">0<' in page


def test_a_private_games_hidden_information_is_never_on_the_page() -> None:
    t, _users = played_swiss(4, 2, finish=False)
    games = round_games(t)
    page = page_of(client_for(UserFactory()), t)
    # An outsider sees who plays whom and the results, but no link to a game they may not open.
    for game in games:
        assert reverse("games:detail", args=[game.pk]) not in page
    for game in Game.objects.filter(pk__in=[game.pk for game in games]):
        assert game.state is not None
        assert str(game.seed) not in page
        for hand in game.state.get("hands", []):
            for card in hand:
                assert f'data-card="{card}"' not in page
    seated_page = page_of(client_for(seated(games[0])[0]), t)
    assert reverse("games:detail", args=[games[0].pk]) in seated_page
    assert reverse("games:detail", args=[games[1].pk]) not in seated_page


def test_the_live_part_answers_204_while_unchanged_and_the_new_results_once_a_game_ends() -> None:
    t, users = played_swiss(4, 1, finish=False)
    client = client_for(users[0])
    response = client.get(reverse("tournaments:detail", args=[t.pk]), headers=HTMX)
    assert response.status_code == 200
    fragment = response.content.decode()
    assert "<html" not in fragment and "Standings" in fragment
    mark = fragment.split('"shown": "')[1].split('"')[0]
    url = reverse("tournaments:detail", args=[t.pk]) + f"?shown={mark}"
    assert client.get(url, headers=HTMX).status_code == 204
    assert (
        'badge optional">playing<' in client.get(reverse("tournaments:detail", args=[t.pk])).content.decode()
    )
    finish_round(t)  # the games end; the tournament's row does not change yet
    response = client.get(url, headers=HTMX)
    assert response.status_code == 200
    assert 'badge optional">playing<' not in response.content.decode()


def test_an_unknown_tournament_is_a_404() -> None:
    assert client_for(None).get(reverse("tournaments:detail", args=[12345])).status_code == 404


# --- Queries ------------------------------------------------------------------------------------


def page_queries(client: Client, t: Tournament, **headers: str) -> int:
    with CaptureQueriesContext(connection) as queries:
        page_of(client, t, **headers)
    return len(queries)


@pytest.mark.parametrize("htmx", [False, True])
def test_the_page_costs_the_same_queries_for_a_small_and_a_bigger_tournament(
    htmx: bool, django_assert_num_queries: Any
) -> None:
    headers = HTMX if htmx else {}
    small, small_users = played_swiss(3, 1, finish=False)
    big, big_users = played_swiss(12, 4, finish=False)
    viewer = UserFactory()
    client = client_for(viewer)
    page_of(client, small, **headers)  # the session and the like, read once
    few = page_queries(client, small, **headers)
    assert page_queries(client, big, **headers) == few
    with django_assert_num_queries(few):
        page_of(client, big, **headers)
    # A player's own view (their registration, a link to their game): as many.
    small_player, big_player = client_for(small_users[0]), client_for(big_users[0])
    page_of(small_player, small, **headers)
    page_of(big_player, big, **headers)
    with django_assert_num_queries(page_queries(small_player, small, **headers)):
        page_of(big_player, big, **headers)
    assert Seat.objects.filter(game__tournament_table__round__tournament=big).count() == 2 * 6 * 4


def test_the_page_of_a_tournament_taking_registrations_costs_a_fixed_number_of_queries(
    django_assert_num_queries: Any,
) -> None:
    few = tournament()
    with_players(few, 2)
    many = tournament()
    with_players(many, 30)
    client = client_for(UserFactory())
    page_of(client, few)
    count = page_queries(client, few)
    with django_assert_num_queries(count):
        page_of(client, many)
