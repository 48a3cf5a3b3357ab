"""Tournaments over the API (``api/tournaments.py``): create, register, unregister, withdraw,
standings and rounds through ``tournaments.services``, refusals with the services' sentences,
nothing hidden, authentication and throttling as the rest of the API, and queries flat in the
number of tournaments, players and rounds."""

import json
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from rest_framework.test import APIClient

from accounts import relations
from accounts.models import User
from api.tournaments import points_text
from games.models import Game, Seat
from tests.api.conftest import token_client
from tests.factories import UserFactory
from tests.leaks import shows_number
from tests.tournaments.helpers import (
    finish,
    finish_round,
    later,
    round_games,
    seated,
    started,
    tables_of,
    tournament,
    with_players,
)
from tournaments import services
from tournaments.models import Player, Tournament

pytestmark = pytest.mark.django_db

SECRET_KEYS = ('"stock"', '"hands"', '"seed"', '"deal"', '"state"', '"discard"', '"view"')


def soon(hours: float = 2) -> str:
    return (timezone.now() + timedelta(hours=hours)).isoformat()


def swiss_body(**fields: Any) -> dict[str, Any]:
    body: dict[str, Any] = {
        "name": "Autumn cup",
        "format": "swiss",
        "preset": "classic",
        "time_control": {"kind": "correspondence", "seconds": 86400},
        "rounds": 3,
        "starts_at": soon(),
    }
    body.update(fields)
    return body


def advance_round(t: Tournament) -> Tournament:
    """Every game of the round under way played out, then the step beat would run."""
    finish_round(t)
    assert services.advance(tournament_id=t.pk, now=later(t))
    t.refresh_from_db()
    return t


# --- creating --------------------------------------------------------------------------------------


def test_a_tournament_is_created_and_read_back(api_client: APIClient, api_user: User) -> None:
    body = swiss_body(options={"transfer": True}, max_players=16, rating_min=-50, min_reliability=50)
    created = api_client.post("/api/tournaments/", body, format="json")
    assert created.status_code == 201, created.content
    data = created.json()
    t = Tournament.objects.get()
    assert data["id"] == t.pk and t.creator == api_user and not t.players.exists()
    assert (data["name"], data["format"], data["status"], data["preset"]) == (
        "Autumn cup",
        "swiss",
        "registration",
        "classic",
    )
    assert data["time_control"] == {"kind": "correspondence", "seconds": 86400}
    assert t.move_time == timedelta(days=1) and t.round_time is None and data["round_seconds"] is None
    assert data["rules"]["transfer"] is True and t.rule_overrides == {"transfer": True}
    assert (data["rounds"], data["round_number"], data["players"], data["max_players"]) == (3, 0, 0, 16)
    assert (data["rating_min"], data["rating_max"], data["min_reliability"]) == (-50, None, 50)
    assert data["rated"] is True and data["official"] is False and data["creator"] == api_user.username
    # Its creator is not registered, and the reason they may not (no reliability yet) is the service's.
    assert data["you"] == {
        "registered": False,
        "registered_at": None,
        "withdrawn": None,
        "final_rank": None,
        "refusal": services.registration_refusal(t, api_user),
    }
    assert data["you"]["refusal"] is not None
    assert api_client.get(f"/api/tournaments/{t.pk}/").json() == data


def test_a_live_table_round_tournament_takes_its_round_time(api_client: APIClient) -> None:
    body = swiss_body(
        format="tables",
        table_size=4,
        scoring="places",
        time_control={"kind": "live", "seconds": 30},
        round_seconds=1200,
        rounds=4,
    )
    created = api_client.post("/api/tournaments/", body, format="json")
    assert created.status_code == 201, created.content
    t = Tournament.objects.get()
    assert (t.format, t.table_size, t.scoring, t.live) == ("tables", 4, "places", True)
    assert t.move_time == timedelta(seconds=30) and t.round_time == timedelta(minutes=20)
    assert created.json()["round_seconds"] == 1200
    assert created.json()["time_control"] == {"kind": "live", "seconds": 30}


def test_a_round_robin_needs_no_rounds(api_client: APIClient) -> None:
    created = api_client.post(
        "/api/tournaments/", swiss_body(format="round_robin", rounds=None), format="json"
    )
    assert created.status_code == 201, created.content
    assert created.json()["max_players"] == services.ROUND_ROBIN_MAX_PLAYERS


#: Bodies the API itself refuses (``invalid``, per field): their JSON's shape is wrong.
MALFORMED: dict[str, Callable[[], dict[str, Any]]] = {
    "a blank name": lambda: swiss_body(name="   "),
    "no name": lambda: {k: v for k, v in swiss_body().items() if k != "name"},
    "a name too long": lambda: swiss_body(name="x" * 81),
    "an unknown format": lambda: swiss_body(format="knockout"),
    "an unknown preset": lambda: swiss_body(preset="chess"),
    "an unknown rule option": lambda: swiss_body(options={"castling": True}),
    "no time control": lambda: {k: v for k, v in swiss_body().items() if k != "time_control"},
    "a live kind with a correspondence clock": lambda: swiss_body(
        time_control={"kind": "live", "seconds": 7200}
    ),
    "a clock of no time": lambda: swiss_body(time_control={"kind": "live", "seconds": 0}),
    "rounds as text": lambda: swiss_body(rounds="three"),
    "a start that is no date": lambda: swiss_body(starts_at="next Friday"),
    "a start in year 10000": lambda: swiss_body(starts_at="10000-01-01T00:00:00Z"),
    "a negative round time": lambda: swiss_body(round_seconds=-5),
    "not an object": lambda: ["swiss"],  # type: ignore[dict-item, return-value]
}


@pytest.mark.parametrize("case", list(MALFORMED))
def test_a_malformed_body_is_a_400_per_field_and_writes_nothing(api_client: APIClient, case: str) -> None:
    answer = api_client.post("/api/tournaments/", MALFORMED[case](), format="json")
    assert answer.status_code == 400, answer.content
    assert answer.json()["code"] == "invalid" and answer.json()["errors"]
    assert not Tournament.objects.exists()


def test_an_opening_in_the_distant_past_opens_now_and_every_reader_can_read_it() -> None:
    """Year 1 is in range for a reader in UTC but not for one west of it: stored as given, it
    would break the list for them. The service opens a past registration now."""
    creator = UserFactory(time_zone="UTC")
    created = token_client(creator).post(
        "/api/tournaments/", swiss_body(registration_opens_at="0001-01-01T00:30:00Z"), format="json"
    )
    assert created.status_code == 201, created.content
    opened = Tournament.objects.get().registration_opens_at
    assert abs(opened - timezone.now()) < timedelta(minutes=1)
    west = token_client(UserFactory(time_zone="America/New_York"))
    assert west.get("/api/tournaments/").status_code == 200


def test_a_control_character_is_refused_before_the_view(api_client: APIClient) -> None:
    answer = api_client.post("/api/tournaments/", swiss_body(name="a\x00b"), format="json")
    assert answer.status_code == 400 and answer.json()["code"] == "control_character"
    assert not Tournament.objects.exists()


#: Bodies of the right shape that ``tournament_create`` refuses, with the sentence it says.
REFUSED: dict[str, tuple[dict[str, Any], str]] = {
    "no rounds": (swiss_body(rounds=None), "A tournament has 1 to 20 rounds."),
    "zero rounds": (swiss_body(rounds=0), "A tournament has 1 to 20 rounds."),
    "too many rounds": (swiss_body(rounds=21), "A tournament has 1 to 20 rounds."),
    "a live one without a round time": (
        swiss_body(time_control={"kind": "live", "seconds": 30}),
        "A live tournament needs a round time of at least 60 seconds.",
    ),
    "a live round of two days": (
        swiss_body(time_control={"kind": "live", "seconds": 30}, round_seconds=2 * 86400),
        "A live tournament's rounds last a day at most.",
    ),
    "a table of seven": (
        swiss_body(format="tables", table_size=7),
        "A table round seats 3 to 6 players a game.",
    ),
    "a round robin of eleven": (
        swiss_body(format="round_robin", max_players=11),
        "This format takes 3 to 10 players.",
    ),
    "a start past": (swiss_body(starts_at="2020-01-01T00:00:00Z"), "A tournament must start in the future."),
    "a start too far": (swiss_body(starts_at="9999-12-31T00:00:00Z"), "A tournament starts within 90 days."),
    "registration after the start": (
        swiss_body(registration_opens_at=soon(3)),
        "Registration must open before the tournament starts.",
    ),
    "a rating range upside down": (
        swiss_body(rating_min=20, rating_max=-20),
        "The highest rating must not be below the lowest.",
    ),
    "a reliability over 100": (
        swiss_body(min_reliability=101),
        "The minimum reliability must be between 0 and 100.",
    ),
    "a huge rating": (swiss_body(rating_min=10**30), "A rating limit must be between -1000 and 1000."),
    "a huge number of players": (swiss_body(max_players=10**30), "This format takes 2 to 1024 players."),
}


@pytest.mark.parametrize("case", list(REFUSED))
def test_a_refused_tournament_is_a_400_with_the_services_sentence_and_writes_nothing(
    api_client: APIClient, case: str
) -> None:
    body, sentence = REFUSED[case]
    answer = api_client.post("/api/tournaments/", body, format="json")
    assert answer.status_code == 400, answer.content
    assert answer.json() == {"detail": sentence, "code": "invalid_rules"}
    assert not Tournament.objects.exists()


def test_the_refusals_above_are_the_services_own(api_user: User) -> None:
    """The sentences expected above are what the service says for the same arguments."""
    with pytest.raises(Exception, match="A tournament has 1 to 20 rounds"):
        tournament(api_user, rounds=21)
    assert not Tournament.objects.exists()


# --- registering -----------------------------------------------------------------------------------


def test_register_unregister_and_register_again(api_client: APIClient, api_user: User) -> None:
    t = tournament()
    registered = api_client.post(f"/api/tournaments/{t.pk}/register/")
    assert registered.status_code == 200, registered.content
    you = registered.json()["you"]
    assert you["registered"] is True and you["refusal"] is None and you["withdrawn"] is None
    assert registered.json()["players"] == 1
    assert api_client.post(f"/api/tournaments/{t.pk}/register/").json()["players"] == 1  # no second row
    assert list(Player.objects.values_list("user_id", flat=True)) == [api_user.pk]
    left = api_client.post(f"/api/tournaments/{t.pk}/unregister/")
    assert left.status_code == 200 and left.json()["you"]["registered"] is False
    assert not Player.objects.exists()
    assert api_client.post(f"/api/tournaments/{t.pk}/unregister/").status_code == 200  # nothing to undo
    assert api_client.post(f"/api/tournaments/{t.pk}/register/").json()["you"]["registered"] is True


def test_registration_refusals_are_the_services_sentences(client_for: Any) -> None:
    creator = UserFactory()
    me = UserFactory()
    client = client_for(me)

    def refused(t: Tournament, status: int, sentence: str) -> None:
        detail = client.get(f"/api/tournaments/{t.pk}/").json()
        assert detail["you"]["refusal"] == services.registration_refusal(t, me)
        answer = client.post(f"/api/tournaments/{t.pk}/register/")
        assert answer.status_code == status, answer.content
        assert answer.json()["detail"] == sentence
        assert not Player.objects.filter(user=me).exists()

    later_opening = tournament(creator, registration_opens_at=timezone.now() + timedelta(minutes=30))
    refused(later_opening, 403, "Registration for this tournament has not opened yet.")
    reliable_only = tournament(creator, min_reliability=80)
    refused(reliable_only, 403, "Only players with a reliability of at least 80% can register.")
    rated_only = tournament(creator, rating_min=-100)
    refused(rated_only, 403, "Only rated players can register: play a rated game of this kind first.")
    relations.block(blocker=creator, blocked=me)
    refused(tournament(creator), 403, "You cannot register for this tournament.")
    relations.unblock(blocker=creator, blocked=me)

    full = tournament(creator, max_players=2)
    with_players(full, 2)
    answer = client.post(f"/api/tournaments/{full.pk}/register/")
    assert answer.status_code == 409 and answer.json() == {
        "detail": "This tournament is full.",
        "code": "wrong_status",
    }
    assert full.players.count() == 2

    running = tournament(creator)
    with_players(running, 3)
    started(running)
    refused(running, 403, "Registration for this tournament has closed.")
    unregister = client.post(f"/api/tournaments/{running.pk}/unregister/")
    assert unregister.status_code == 409 and unregister.json()["code"] == "wrong_status"
    assert unregister.json()["detail"] == "The tournament has started: withdraw instead."
    withdraw = client.post(f"/api/tournaments/{running.pk}/withdraw/")
    assert withdraw.status_code == 403
    assert withdraw.json() == {"detail": "You are not playing in this tournament.", "code": "not_allowed"}


def test_withdrawing_mid_round_resigns_the_game_and_keeps_the_player_out(client_for: Any) -> None:
    t = tournament(rounds=2)
    users = with_players(t, 4)
    t = started(t)
    game = round_games(t)[0]
    quitter = seated(game)[0]
    answer = client_for(quitter).post(f"/api/tournaments/{t.pk}/withdraw/")
    assert answer.status_code == 200, answer.content
    assert answer.json()["you"]["withdrawn"] == "player" and answer.json()["you"]["registered"] is True
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert Seat.objects.get(game=game, user=quitter).result == Seat.Result.FOOL
    again = client_for(quitter).post(f"/api/tournaments/{t.pk}/withdraw/")
    assert again.status_code == 200 and again.json()["you"]["withdrawn"] == "player"
    t = advance_round(t)
    assert quitter.pk not in {user for table in tables_of(t, 2) for user in table}
    standing = {
        row["username"]: row
        for row in client_for(users[0]).get(f"/api/tournaments/{t.pk}/standings/").json()["results"]
    }
    assert standing[quitter.username]["withdrawn"] == "player" and standing[quitter.username]["games"] == 1
    # Once it is over, nobody can withdraw from it.
    t = advance_round(t)
    assert t.status == Tournament.Status.FINISHED
    stayed = next(user for user in users if user != quitter)
    over = client_for(stayed).post(f"/api/tournaments/{t.pk}/withdraw/")
    assert over.status_code == 409 and over.json() == {
        "detail": "This tournament is over.",
        "code": "wrong_status",
    }
    assert client_for(stayed).get(f"/api/tournaments/{t.pk}/").json()["you"]["final_rank"] is not None


def test_a_tournament_that_does_not_exist_is_a_404_for_every_endpoint(api_client: APIClient) -> None:
    for method, suffix in [
        ("get", ""),
        ("get", "standings/"),
        ("get", "rounds/"),
        ("post", "register/"),
        ("post", "unregister/"),
        ("post", "withdraw/"),
    ]:
        for number in (999_999, 2**31, 2**63 + 5):
            answer = getattr(api_client, method)(f"/api/tournaments/{number}/{suffix}")
            assert answer.status_code == 404, (method, suffix, number, answer.content)
            assert answer.json()["code"] == "not_found"
    assert not Player.objects.exists()


# --- standings and rounds --------------------------------------------------------------------------


def assert_nothing_hidden(text: str) -> None:
    for key in SECRET_KEYS:
        assert key not in text, f"{key} in {text[:300]}"
    for game in Game.objects.filter(tournament_table__isnull=False):
        assert not shows_number(text, game.seed), "a game's seed leaks"


def test_standings_and_rounds_after_a_played_round(api_client: APIClient) -> None:
    t = tournament(rounds=3)
    users = with_players(t, 5)
    names = {user.pk: user.username for user in users}
    t = started(t)
    first_games = round_games(t)
    losers = {game.pk: seated(game)[1] for game in first_games}
    finish_round(t, losers)
    assert services.advance(tournament_id=t.pk, now=later(t))
    t.refresh_from_db()
    assert t.round_number == 2

    standings = api_client.get(f"/api/tournaments/{t.pk}/standings/")
    assert standings.status_code == 200
    assert_nothing_hidden(standings.content.decode())
    rows = standings.json()["results"]
    expected = services.standings_rows(t)
    assert standings.json()["count"] == 5
    assert [(row["rank"], row["username"]) for row in rows] == [(r.rank, names[r.player]) for r in expected]
    for row, want in zip(rows, expected, strict=True):
        assert row["points"] == points_text(want.points)
        assert row["buchholz"] == points_text(want.buchholz)
        assert row["sonneborn_berger"] == points_text(want.sonneborn_berger)
        assert row["games"] == want.games and row["withdrawn"] is None and row["bot"] is False
    # Two wins and the byes of rounds 1 and 2 (a bye scores as soon as its round opens).
    assert sorted(row["points"] for row in rows) == ["0", "1", "1", "1", "1"]

    answer = api_client.get(f"/api/tournaments/{t.pk}/rounds/")
    assert answer.status_code == 200
    assert_nothing_hidden(answer.content.decode())
    rounds = answer.json()["results"]
    assert [r["number"] for r in rounds] == [1, 2]
    one = rounds[0]["tables"]
    assert [table["board"] for table in one] == [1, 2, 3]
    assert [table["game"] for table in one[:2]] == [game.pk for game in first_games]
    for table, game in zip(one[:2], first_games, strict=True):
        assert table["bye"] is False
        seats = seated(game)
        assert [p["username"] for p in table["players"]] == [user.username for user in seats]
        assert [p["position"] for p in table["players"]] == [0, 1]
        assert [(p["result"], p["points"]) for p in table["players"]] == [
            ("won", "1"),
            ("fool", "0"),
        ]  # by resignation
    bye = one[2]
    assert bye["bye"] is True and bye["game"] is None
    assert bye["players"] == [
        {
            "username": names[tables_of(t, 1)[2][0]],
            "bot": False,
            "position": None,
            "result": None,
            "points": "1",
        }
    ]
    # Round 2 is under way: its games have no result yet.
    two = rounds[1]["tables"]
    assert [table["game"] for table in two if not table["bye"]] == [game.pk for game in round_games(t, 2)]
    assert all(
        p["result"] is None and p["points"] is None
        for table in two
        if not table["bye"]
        for p in table["players"]
    )
    # The summary in the list and the detail say where it stands.
    detail = api_client.get(f"/api/tournaments/{t.pk}/").json()
    assert (detail["status"], detail["round_number"], detail["players"]) == ("running", 2, 5)
    assert detail["started_at"] is not None and detail["you"]["registered"] is False


def test_table_rounds_score_by_place(api_client: APIClient) -> None:
    t = tournament(format="tables", table_size=3, scoring="places", rounds=2)
    with_players(t, 3)
    t = started(t)
    (game,) = round_games(t)
    order = seated(game)  # they resign in seat order: the first to resign is the fool
    finish(game, order[0])
    services.advance(tournament_id=t.pk, now=later(t))
    table = api_client.get(f"/api/tournaments/{t.pk}/rounds/").json()["results"][0]["tables"][0]
    points = {p["username"]: p["points"] for p in table["players"]}
    results = {p["username"]: p["result"] for p in table["players"]}
    assert points[order[0].username] == "0" and results[order[0].username] == "fool"
    assert sorted(points.values()) == ["0", "1", "2"]
    rows = api_client.get(f"/api/tournaments/{t.pk}/standings/").json()["results"]
    assert {row["username"]: row["points"] for row in rows} == points


def test_points_are_exact() -> None:
    from fractions import Fraction

    assert [points_text(Fraction(n, d)) for n, d in [(5, 2), (7, 4), (2, 3), (10, 3), (0, 1), (12, 1)]] == [
        "2.5",
        "1.75",
        "2/3",
        "10/3",
        "0",
        "12",
    ]


# --- lists and queries -----------------------------------------------------------------------------


def test_the_list_filters_by_status_and_mine(api_client: APIClient, api_user: User) -> None:
    upcoming = tournament(name="Upcoming")
    running = tournament(name="Running")
    with_players(running, 2)
    services.tournament_register(user=api_user, tournament_id=running.pk)
    started(running)
    everything = api_client.get("/api/tournaments/").json()
    assert everything["count"] == 2
    assert {t["name"]: t["players"] for t in everything["results"]} == {"Upcoming": 0, "Running": 3}
    by_status = api_client.get("/api/tournaments/?status=registration").json()["results"]
    assert [t["id"] for t in by_status] == [upcoming.pk]
    assert [t["id"] for t in api_client.get("/api/tournaments/?mine=true").json()["results"]] == [running.pk]
    bad = api_client.get("/api/tournaments/?status=someday")
    assert bad.status_code == 400 and bad.json()["code"] == "invalid" and "status" in bad.json()["errors"]
    assert api_client.get("/api/tournaments/?page_size=1").json()["next"] is not None


def queries_of(client: APIClient, url: str) -> int:
    client.get(url)  # anything cached per client warmed
    with CaptureQueriesContext(connection) as queries:
        assert client.get(url).status_code == 200
    return len(queries)


def test_the_list_costs_the_same_queries_for_two_tournaments_as_for_eight(api_client: APIClient) -> None:
    for _ in range(2):
        with_players(tournament(), 2)
    few = queries_of(api_client, "/api/tournaments/")
    for _ in range(6):
        with_players(tournament(), 3)
    assert queries_of(api_client, "/api/tournaments/") == few


def test_standings_and_rounds_cost_the_same_queries_however_many_players_and_rounds(
    api_client: APIClient,
) -> None:
    def played(players: int, rounds_played: int) -> tuple[int, int]:
        t = tournament(rounds=3)
        with_players(t, players)
        t = started(t)
        for _ in range(rounds_played - 1):
            t = advance_round(t)
        finish_round(t)
        return (
            queries_of(api_client, f"/api/tournaments/{t.pk}/standings/"),
            queries_of(api_client, f"/api/tournaments/{t.pk}/rounds/"),
        )

    small = played(3, 1)
    assert played(9, 3) == small
    # The caller, the tournament, its results (tables, seats), its players, their names: a handful.
    assert small[0] <= 8, small


# --- who may call it -------------------------------------------------------------------------------


def test_anonymous_callers_get_401_like_the_rest_of_the_api() -> None:
    t = tournament()
    anonymous = APIClient()
    for method, url in [
        ("get", "/api/tournaments/"),
        ("post", "/api/tournaments/"),
        ("get", f"/api/tournaments/{t.pk}/"),
        ("get", f"/api/tournaments/{t.pk}/standings/"),
        ("get", f"/api/tournaments/{t.pk}/rounds/"),
        ("post", f"/api/tournaments/{t.pk}/register/"),
        ("post", f"/api/tournaments/{t.pk}/unregister/"),
        ("post", f"/api/tournaments/{t.pk}/withdraw/"),
    ]:
        answer = getattr(anonymous, method)(url)
        assert answer.status_code == 401, (method, url)
        assert answer.json()["code"] == "not_authenticated"
    assert Tournament.objects.count() == 1 and not Player.objects.exists()


def test_writes_are_throttled_like_the_rest(api_user: User, settings: Any) -> None:
    t = tournament()
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {"user": "3/min", "ip": "100/min", "auth": "100/min"},
    }
    cache.clear()
    client = token_client(api_user)
    answers = [client.post(f"/api/tournaments/{t.pk}/register/").status_code for _ in range(3)]
    assert answers == [200, 200, 200]
    refused = client.post("/api/tournaments/", swiss_body(), format="json")
    assert refused.status_code == 429 and refused.json()["code"] == "throttled"
    assert not Tournament.objects.exclude(pk=t.pk).exists()


def test_errors_are_in_the_callers_language(api_user: User) -> None:
    # A fresh client each time: the first answer sets the language cookie from the user's own.
    def russian(method: str, url: str, body: Any = None) -> Any:
        return getattr(token_client(api_user), method)(url, body, format="json", HTTP_ACCEPT_LANGUAGE="ru")

    invalid = russian("post", "/api/tournaments/", swiss_body(rounds="three"))
    assert invalid.status_code == 400 and invalid.json()["detail"] == "Запрос неверен."
    assert invalid.json()["code"] == "invalid"
    missing = russian("get", "/api/tournaments/999999/")
    assert missing.status_code == 404
    assert missing.json() == {"detail": "Турнира 999999 нет.", "code": "not_found"}
    clock = russian("post", "/api/tournaments/", swiss_body(time_control={"kind": "live", "seconds": 7200}))
    assert clock.json()["errors"]["time_control"]["seconds"] == [
        "В живой игре на ход меньше часа; используйте kind correspondence."  # noqa: RUF001
    ]
    assert not Tournament.objects.exists()


def test_the_schema_lists_the_tournaments() -> None:
    schema = APIClient().get("/api/schema/?format=json").json()
    paths = schema["paths"]
    for path, methods in {
        "/api/tournaments/": {"get", "post"},
        "/api/tournaments/{tournament_id}/": {"get"},
        "/api/tournaments/{tournament_id}/register/": {"post"},
        "/api/tournaments/{tournament_id}/unregister/": {"post"},
        "/api/tournaments/{tournament_id}/withdraw/": {"post"},
        "/api/tournaments/{tournament_id}/standings/": {"get"},
        "/api/tournaments/{tournament_id}/rounds/": {"get"},
    }.items():
        assert set(paths[path]) == methods, path
        for method in methods:
            assert paths[path][method]["tags"] == ["tournaments"] and paths[path][method]["description"]
    components = schema["components"]["schemas"]
    assert components["Standing"]["properties"]["points"]["pattern"]
    assert set(components["TournamentTimeControlRequest"]["properties"]) == {"kind", "seconds"}
    assert components["TournamentStatusEnum"]["enum"] == list(Tournament.Status.values)
    created = paths["/api/tournaments/"]["post"]
    assert created["requestBody"]["content"]["application/json"]["examples"]
    assert json.dumps(components["TablePlayer"]).count("seed") == 0
