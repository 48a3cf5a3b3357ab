"""Tournaments over the API: list, create, register, unregister, withdraw, standings, rounds.

Thin views over ``tournaments.services``: every write is one of its functions, every refusal
its error with its sentence (``InvalidRules`` 400, ``NotAllowed`` 403, ``WrongStatus`` 409, in
the usual error body of ``api.exceptions``); the standings are ``services.standings_rows`` and
a table's points ``tournaments.pairing``'s, never counted here. A tournament that does not
exist is a 404 (``not_found``) before any service is asked.

A round's game is shown as its id, its players and, once it is over, each player's result:
nothing of its cards, state or seed (the game's own endpoints show what the caller may see).
Points are exact: a string such as ``"1.5"``, or ``"2/3"`` when no decimal is exact (a drawn
table of three).

Every list is flat in queries: the tournaments' player counts are one annotation, the
standings one read of the results (``services.played``), a page of rounds three queries.
"""

from collections import defaultdict
from datetime import timedelta
from fractions import Fraction
from typing import Any

from django.db.models import Count, QuerySet
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiExample, OpenApiResponse, extend_schema, extend_schema_field
from rest_framework import generics, serializers, status
from rest_framework.exceptions import NotFound
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

import durak
from accounts.models import User
from games.models import Seat
from tournaments import pairing, services
from tournaments.models import Player, Round, Table, Tournament

from .engine_json import RuleOverridesSerializer, RulesSerializer
from .schema import SEAT_RESULTS
from .serializers import ErrorSerializer, TimeControlSerializer
from .views import caller, errors

#: A point count, exact: a whole or decimal number, or a fraction when no decimal is exact.
POINTS_PATTERN = r"^\d+(?:\.\d+)?(?:/\d+)?$"
#: The largest number a tournament's integer columns hold; anything bigger is bad input.
INT_MAX = 2**31 - 1


def points_text(value: Fraction) -> str:
    """An exact point count: ``"2"``, ``"1.5"``, ``"0.25"``; ``"2/3"`` when no decimal is exact.

    >>> [points_text(Fraction(n, d)) for n, d in ((2, 1), (3, 2), (1, 4), (2, 3), (0, 1))]
    ['2', '1.5', '0.25', '2/3', '0']
    """
    denominator = value.denominator
    for prime in (2, 5):
        while denominator % prime == 0:
            denominator //= prime
    if denominator != 1:
        return f"{value.numerator}/{value.denominator}"
    whole, rest = divmod(value.numerator, value.denominator)
    if not rest:
        return str(whole)
    digits = 0
    while (rest * 10**digits) % value.denominator:
        digits += 1
    return f"{whole}.{rest * 10**digits // value.denominator:0{digits}d}"


def points_field(**kwargs: Any) -> serializers.RegexField:
    kwargs.setdefault("help_text", 'Exact: "1", "1.5", or a fraction such as "2/3".')
    return serializers.RegexField(POINTS_PATTERN, **kwargs)


def tournament_or_404(tournament_id: int) -> Tournament:
    """The tournament with its creator and number of players; else a 404 in the API's body."""
    found = _tournaments().filter(pk=tournament_id).first()
    if found is None:
        raise NotFound(_("There is no tournament %(number)s.") % {"number": tournament_id})
    return found


def _tournaments() -> QuerySet[Tournament]:
    return Tournament.objects.select_related("creator").annotate(players_count=Count("players"))


# --- bodies --------------------------------------------------------------------------------------


class TournamentTimeControlSerializer(TimeControlSerializer):
    """Each player's time for each move in every game of the tournament, as a game's
    ``time_control`` (without weekend pauses). ``live`` (under an hour a move) needs
    ``round_seconds``; ``correspondence`` opens a round when the last game of the one before
    has ended."""

    pause_weekends = None  # type: ignore[assignment]


def time_control_of(tournament: Tournament) -> dict[str, Any]:
    return {
        "kind": "live" if tournament.live else "correspondence",
        "seconds": int(tournament.move_time.total_seconds()),
    }


class TournamentListFilters(serializers.Serializer[Any]):
    status = serializers.ChoiceField(choices=Tournament.Status.choices, required=False)
    mine = serializers.BooleanField(
        required=False, default=False, help_text="Tournaments you are registered for (or played in)."
    )


class RegistrationSerializer(serializers.Serializer[Any]):
    """The caller's own place in a tournament."""

    registered = serializers.BooleanField(help_text="You are registered (or played in it).")
    registered_at = serializers.DateTimeField(allow_null=True)
    withdrawn = serializers.ChoiceField(
        choices=["player", "timeouts"],
        allow_null=True,
        help_text="null while you play; player: you withdrew; timeouts: you ran out of time in "
        "two games of it in a row.",
    )
    final_rank = serializers.IntegerField(allow_null=True, help_text="Your rank once it is finished.")
    refusal = serializers.CharField(
        allow_null=True,
        help_text="Why you may not register now (the reason a register would be refused with); "
        "null when you may, or are registered.",
    )


class TournamentSummarySerializer(serializers.Serializer[Any]):
    """A tournament in a list."""

    id = serializers.IntegerField()
    name = serializers.CharField()
    format = serializers.ChoiceField(choices=Tournament.Format.choices)
    status = serializers.ChoiceField(choices=Tournament.Status.choices)
    official = serializers.BooleanField(help_text="Marked by a moderator.")
    creator = serializers.CharField(source="creator.username")
    preset = serializers.CharField()
    table_size = serializers.IntegerField(help_text="Players a game.")
    time_control = serializers.SerializerMethodField()
    rated = serializers.BooleanField()
    rounds = serializers.IntegerField(
        help_text="Rounds to play (round robin: set from the number of players at the start)."
    )
    round_number = serializers.IntegerField(help_text="The round under way; 0 before the first.")
    players = serializers.IntegerField(source="players_count", help_text="Players registered.")
    max_players = serializers.IntegerField()
    registration_opens_at = serializers.DateTimeField()
    starts_at = serializers.DateTimeField(help_text="Registration closes and round 1 opens.")

    @extend_schema_field(TournamentTimeControlSerializer())
    def get_time_control(self, tournament: Tournament) -> dict[str, Any]:
        return time_control_of(tournament)


class TournamentDetailSerializer(TournamentSummarySerializer):
    """A tournament's settings and where it stands, with the caller's registration (``you``)."""

    # The caller is the context's "viewer".

    description = serializers.CharField(allow_blank=True)
    rules = RulesSerializer(help_text="Every rule option its games are played with.")
    scoring = serializers.ChoiceField(
        choices=Tournament.Scoring.choices,
        help_text="Table rounds: not_fool, 1 point to each player who is not the fool; places, "
        "points by place (n-1 to the first out at a table of n, 0 to the fool). Two-player "
        "games score 1 a win, 0.5 a draw, 1 a bye.",
    )
    round_seconds = serializers.SerializerMethodField()
    rating_min = serializers.IntegerField(allow_null=True)
    rating_max = serializers.IntegerField(allow_null=True)
    min_reliability = serializers.IntegerField(allow_null=True)
    next_round_at = serializers.DateTimeField(
        allow_null=True, help_text="Live: when the round under way is scheduled to end."
    )
    created_at = serializers.DateTimeField()
    started_at = serializers.DateTimeField(allow_null=True)
    finished_at = serializers.DateTimeField(allow_null=True)
    version = serializers.IntegerField(help_text="Moves on with every change of the tournament.")
    you = serializers.SerializerMethodField()

    @extend_schema_field(
        serializers.IntegerField(allow_null=True, help_text="Live: each round's length; null otherwise.")
    )
    def get_round_seconds(self, tournament: Tournament) -> int | None:
        return None if tournament.round_time is None else int(tournament.round_time.total_seconds())

    @extend_schema_field(RegistrationSerializer())
    def get_you(self, tournament: Tournament) -> dict[str, Any]:
        return dict(RegistrationSerializer(registration_of(tournament, self.context["viewer"])).data)


class TournamentCreateSerializer(serializers.Serializer[Any]):
    """What ``tournaments.services.tournament_create`` takes; it decides what is allowed
    (``invalid_rules`` with its sentence), this only checks the JSON's shape."""

    name = serializers.CharField(max_length=80)
    description = serializers.CharField(max_length=1000, required=False, default="", allow_blank=True)
    format = serializers.ChoiceField(
        choices=Tournament.Format.choices,
        help_text="swiss and round_robin (at most 10 players) play two-player games; tables "
        "seats table_size players a game.",
    )
    preset = serializers.ChoiceField(choices=list(durak.PRESETS), help_text="A rule set: see durak.PRESETS.")
    options = RuleOverridesSerializer(required=False, help_text="Rule options that differ from the preset.")
    table_size = serializers.IntegerField(
        required=False, default=2, help_text="Table rounds: 3 to 6 players a game (others play two)."
    )
    scoring = serializers.ChoiceField(
        choices=Tournament.Scoring.choices,
        required=False,
        default=Tournament.Scoring.NOT_FOOL,
        help_text="Table rounds' points (see the tournament's scoring).",
    )
    time_control = TournamentTimeControlSerializer()
    round_seconds = serializers.IntegerField(
        required=False,
        allow_null=True,
        default=None,
        min_value=0,
        max_value=INT_MAX,
        help_text="Live only, and needed there: each round's scheduled length, a minute to a day.",
    )
    rounds = serializers.IntegerField(
        required=False, allow_null=True, default=None, help_text="1 to 20; round robin: left out."
    )
    max_players = serializers.IntegerField(required=False, allow_null=True, default=None)
    registration_opens_at = serializers.DateTimeField(
        required=False, allow_null=True, default=None, help_text="Now when left out."
    )
    starts_at = serializers.DateTimeField(help_text="Within 90 days; registration closes then.")
    rating_min = serializers.IntegerField(required=False, allow_null=True, default=None)
    rating_max = serializers.IntegerField(required=False, allow_null=True, default=None)
    min_reliability = serializers.IntegerField(required=False, allow_null=True, default=None)
    rated = serializers.BooleanField(
        required=False,
        default=True,
        help_text="Its games change ratings (computers play only in unrated ones).",
    )


class StandingSerializer(serializers.Serializer[Any]):
    """One line of the standings: points, then Buchholz, then Sonneborn-Berger."""

    rank = serializers.IntegerField(help_text="Players level on points and both tie-breaks share a rank.")
    username = serializers.CharField()
    bot = serializers.BooleanField(help_text="A computer player.")
    points = points_field()
    buchholz = points_field(help_text="The sum of the points of every opponent met (exact).")
    sonneborn_berger = points_field(
        help_text="Each beaten opponent's points, half a drawn one's (exact); a bye counts as a "
        "game won against an opponent with your own points."
    )
    games = serializers.IntegerField(help_text="Games played and byes.")
    withdrawn = serializers.ChoiceField(
        choices=["player", "timeouts"], allow_null=True, help_text="null while still playing."
    )


class TablePlayerSerializer(serializers.Serializer[Any]):
    username = serializers.CharField()
    bot = serializers.BooleanField()
    position = serializers.IntegerField(allow_null=True, help_text="The seat in the game; null for a bye.")
    result = serializers.ChoiceField(
        choices=SEAT_RESULTS, allow_null=True, help_text="The seat's result once the game is over; else null."
    )
    points = points_field(
        allow_null=True, help_text="The points this table gave the player; null while the game runs."
    )


class TableSerializer(serializers.Serializer[Any]):
    board = serializers.IntegerField(help_text="1 for the top table.")
    game = serializers.IntegerField(allow_null=True, help_text="The game's id; null for a bye.")
    bye = serializers.BooleanField(help_text="A player without a game, scored as a win.")
    players = TablePlayerSerializer(many=True, help_text="In seat order.")


class RoundSerializer(serializers.Serializer[Any]):
    number = serializers.IntegerField()
    opened_at = serializers.DateTimeField()
    ends_at = serializers.DateTimeField(allow_null=True, help_text="Live: the scheduled end.")
    tables = TableSerializer(many=True)


# --- reads ---------------------------------------------------------------------------------------


def _withdrawn(player: Player | None) -> str | None:
    return (player.withdrawn or None) if player is not None else None


def registration_of(tournament: Tournament, user: User) -> dict[str, Any]:
    player = Player.objects.filter(tournament=tournament, user=user).first()
    return {
        "registered": player is not None,
        "registered_at": player.registered_at if player is not None else None,
        "withdrawn": _withdrawn(player),
        "final_rank": player.final_rank if player is not None else None,
        "refusal": services.registration_refusal(tournament, user) if player is None else None,
    }


def detail_data(tournament_id: int, user: User) -> dict[str, Any]:
    tournament = tournament_or_404(tournament_id)
    return dict(TournamentDetailSerializer(tournament, context={"viewer": user}).data)


def table_points(tournament: Tournament, result: Any) -> dict[int, Fraction]:
    """What one table gave each of its players: the standings of that table alone, so the
    tournament's scoring is ``tournaments.pairing``'s, not counted again here."""
    rows = pairing.standings([result], place_points=services.place_points(tournament))
    return {row.player: row.points for row in rows}


def rounds_data(tournament: Tournament, rounds: list[Round]) -> list[dict[str, Any]]:
    """The rounds with their tables, in three queries however many rounds and tables."""
    tables = list(
        Table.objects.filter(round__in=rounds)
        .select_related("bye", "game")
        .only("round_id", "board", "game_id", "game__status", "bye__username", "bye__is_bot")
        .order_by("round_id", "board")
    )
    seats_of: defaultdict[int, list[Seat]] = defaultdict(list)
    game_ids = [table.game_id for table in tables if table.game_id is not None]
    seats = Seat.objects.filter(game_id__in=game_ids).select_related("user")
    for seat in seats.only("game_id", "position", "result", "user__username", "user__is_bot"):
        seats_of[seat.game_id].append(seat)
    tables_of: defaultdict[int, list[dict[str, Any]]] = defaultdict(list)
    for table in tables:
        tables_of[table.round_id].append(_table_data(tournament, table, seats_of[table.game_id or 0]))
    return [
        {"number": r.number, "opened_at": r.opened_at, "ends_at": r.ends_at, "tables": tables_of[r.pk]}
        for r in rounds
    ]


def _table_data(tournament: Tournament, table: Table, seats: list[Seat]) -> dict[str, Any]:
    if table.game is None:
        assert table.bye is not None
        won = points_text(table_points(tournament, pairing.GameResult.bye(table.bye_id))[table.bye.pk])
        bye = {"username": table.bye.username, "bot": table.bye.is_bot, "position": None}
        return {
            "board": table.board,
            "game": None,
            "bye": True,
            "players": [{**bye, "result": None, "points": won}],
        }
    seats = sorted(seats, key=lambda seat: seat.position)
    result = services.result_of(table.game.status, seats)
    points = {} if result is None else table_points(tournament, result)
    players = [
        {
            "username": seat.user.username,
            "bot": seat.user.is_bot,
            "position": seat.position,
            "result": (seat.result or None) if result is not None else None,
            "points": points_text(points[seat.user_id]) if seat.user_id in points else None,
        }
        for seat in seats
    ]
    return {"board": table.board, "game": table.game_id, "bye": False, "players": players}


def standings_data(tournament: Tournament) -> list[dict[str, Any]]:
    rows = services.standings_rows(tournament)
    players = {
        player.user_id: player
        for player in Player.objects.filter(tournament=tournament)
        .select_related("user")
        .only("user_id", "withdrawn", "user__username", "user__is_bot")
    }
    return [
        {
            "rank": row.rank,
            "username": players[row.player].user.username,
            "bot": players[row.player].user.is_bot,
            "points": points_text(row.points),
            "buchholz": points_text(row.buchholz),
            "sonneborn_berger": points_text(row.sonneborn_berger),
            "games": row.games,
            "withdrawn": _withdrawn(players[row.player]),
        }
        for row in rows
        if row.player in players
    ]


# --- views ---------------------------------------------------------------------------------------

_NO_SUCH_TOURNAMENT = OpenApiResponse(ErrorSerializer, description="There is no such tournament.")

_CREATE_EXAMPLE = OpenApiExample(
    "A correspondence Swiss",
    value={
        "name": "Autumn cup",
        "format": "swiss",
        "preset": "classic",
        "options": {"transfer": True},
        "time_control": {"kind": "correspondence", "seconds": 86400},
        "rounds": 5,
        "starts_at": "2026-12-01T18:00:00Z",
        "rated": True,
    },
    request_only=True,
)
_LIVE_EXAMPLE = OpenApiExample(
    "A live table-round tournament",
    value={
        "name": "Friday night tables",
        "format": "tables",
        "preset": "classic",
        "table_size": 4,
        "scoring": "places",
        "time_control": {"kind": "live", "seconds": 30},
        "round_seconds": 1200,
        "rounds": 4,
        "max_players": 32,
        "starts_at": "2026-12-04T19:00:00Z",
    },
    request_only=True,
)
_STANDINGS_EXAMPLE = OpenApiExample(
    "The leader after two rounds",
    value={
        "rank": 1,
        "username": "anna",
        "bot": False,
        "points": "1.5",
        "buchholz": "2",
        "sonneborn_berger": "1.25",
        "games": 2,
        "withdrawn": None,
    },
    response_only=True,
)


class TournamentListView(generics.GenericAPIView[Tournament]):
    serializer_class = TournamentSummarySerializer

    @extend_schema(
        parameters=[TournamentListFilters],
        responses={200: TournamentSummarySerializer(many=True), **errors(400, 404)},
        tags=["tournaments"],
    )
    def get(self, request: Request) -> Response:
        """Tournaments, the latest to start first; filter by ``status``, or ``mine``."""
        filters = TournamentListFilters(data=request.query_params)
        filters.is_valid(raise_exception=True)
        tournaments = _tournaments()
        if "status" in filters.validated_data:
            tournaments = tournaments.filter(status=filters.validated_data["status"])
        if filters.validated_data["mine"]:
            tournaments = tournaments.filter(
                pk__in=Player.objects.filter(user=caller(request)).values("tournament_id")
            )
        page = self.paginate_queryset(tournaments.order_by("-starts_at", "-pk"))
        return self.get_paginated_response(TournamentSummarySerializer(page, many=True).data)

    @extend_schema(
        request=TournamentCreateSerializer,
        responses={
            201: TournamentDetailSerializer,
            400: OpenApiResponse(
                ErrorSerializer,
                description="Not valid (invalid, per field), or refused by the tournament's rules "
                "(invalid_rules, with the reason): too many rounds, a live one without a round time, "
                "a start in the past or more than 90 days ahead...",
            ),
            **errors(),
        },
        examples=[_CREATE_EXAMPLE, _LIVE_EXAMPLE],
        tags=["tournaments"],
    )
    def post(self, request: Request) -> Response:
        """Announce a tournament (anyone may): registration opens at ``registration_opens_at``
        and round 1 at ``starts_at``. You are not registered by creating it."""
        body = TournamentCreateSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        data = body.validated_data
        round_seconds = data["round_seconds"]
        tournament = services.tournament_create(
            creator=caller(request),
            name=data["name"],
            description=data["description"],
            format=data["format"],
            preset=data["preset"],
            overrides=data.get("options") or {},
            table_size=data["table_size"],
            scoring=data["scoring"],
            move_time=timedelta(seconds=data["time_control"]["seconds"]),
            round_time=None if round_seconds is None else timedelta(seconds=round_seconds),
            rounds=data["rounds"],
            max_players=data["max_players"],
            registration_opens_at=data["registration_opens_at"],
            starts_at=data["starts_at"],
            rating_min=data["rating_min"],
            rating_max=data["rating_max"],
            min_reliability=data["min_reliability"],
            rated=data["rated"],
        )
        return Response(detail_data(tournament.pk, caller(request)), status=status.HTTP_201_CREATED)


class TournamentDetailView(APIView):
    @extend_schema(
        responses={200: TournamentDetailSerializer, 404: _NO_SUCH_TOURNAMENT, **errors()},
        tags=["tournaments"],
    )
    def get(self, request: Request, tournament_id: int) -> Response:
        """A tournament's settings, where it stands, and your registration (``you``)."""
        return Response(detail_data(tournament_id, caller(request)))


class _RegistrationView(APIView):
    """POST: a service of ``(user, tournament_id)``, answered with the tournament."""

    service: Any = None

    def post(self, request: Request, tournament_id: int) -> Response:
        tournament_or_404(tournament_id)
        type(self).service(user=caller(request), tournament_id=tournament_id)
        return Response(detail_data(tournament_id, caller(request)))


def _registration_schema(conflict: str, forbidden: str | None = None) -> Any:
    refusals = {409: OpenApiResponse(ErrorSerializer, description=conflict)}
    if forbidden is not None:
        refusals[403] = OpenApiResponse(ErrorSerializer, description=forbidden)
    return extend_schema(
        request=None,
        responses={200: TournamentDetailSerializer, 404: _NO_SUCH_TOURNAMENT, **refusals, **errors()},
        tags=["tournaments"],
    )


@_registration_schema(
    "The tournament is full (wrong_status).",
    forbidden="Refused (not_allowed), with the reason: registration not open yet or closed, a "
    "rating range or reliability minimum you do not meet, or the creator's block. The "
    "tournament's ``you.refusal`` says it beforehand.",
)
class TournamentRegisterView(_RegistrationView):
    """Register for a tournament before it starts. Registering again changes nothing."""

    service = services.tournament_register


@_registration_schema("It has started: withdraw instead (wrong_status).")
class TournamentUnregisterView(_RegistrationView):
    """Take back your registration before the start (nothing happens if you had none)."""

    service = services.tournament_unregister


@_registration_schema("It is over (wrong_status).", forbidden="You do not play in it (not_allowed).")
class TournamentWithdrawView(_RegistrationView):
    """Withdraw: you are not paired again, and your game of the round under way is resigned
    (its rules' resign rule); your results so far stay in the standings. Before the start it
    takes back your registration."""

    service = services.tournament_withdraw


class TournamentStandingsView(generics.GenericAPIView[Tournament]):
    serializer_class = StandingSerializer

    @extend_schema(
        responses={
            200: OpenApiResponse(StandingSerializer(many=True), examples=[_STANDINGS_EXAMPLE]),
            404: _NO_SUCH_TOURNAMENT,
            **errors(),
        },
        tags=["tournaments"],
    )
    def get(self, request: Request, tournament_id: int) -> Response:
        """Every registered player in rank order, with the games counted so far (a game still
        under way counts once it is over), withdrawn players included."""
        tournament = tournament_or_404(tournament_id)
        page = self.paginate_queryset(standings_data(tournament))
        return self.get_paginated_response(StandingSerializer(page, many=True).data)


class TournamentRoundsView(generics.GenericAPIView[Round]):
    serializer_class = RoundSerializer

    @extend_schema(
        responses={200: RoundSerializer(many=True), 404: _NO_SUCH_TOURNAMENT, **errors()},
        tags=["tournaments"],
    )
    def get(self, request: Request, tournament_id: int) -> Response:
        """Every round so far, the first first, with its tables: the board, the game's id (open
        it at ``/api/games/{id}/``) or a bye, and each player's result and points once over."""
        tournament = tournament_or_404(tournament_id)
        page = self.paginate_queryset(Round.objects.filter(tournament=tournament).order_by("number"))
        return self.get_paginated_response(
            RoundSerializer(rounds_data(tournament, list(page or [])), many=True).data
        )
