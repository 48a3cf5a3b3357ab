"""Request and response bodies. Every response is built field by field from a declared
serializer, so only what is declared here can reach a client: the engine's view for the
caller's seat (never ``Game.state``, ``seed`` or ``deal``), seats, and the public move log.
"""

from typing import Any

from django.utils.translation import gettext as _
from drf_spectacular.utils import PolymorphicProxySerializer, extend_schema_field
from rest_framework import serializers

import durak
from durak.rules import ADDED_LATER, MAX_CLAIM_DAYS
from games.forms import OPTION_INT_MAX
from games.leaving import claim_of
from games.models import CORRESPONDENCE_FROM, Game, Move, Seat
from games.selectors import GameView
from games.services import MAX_MOVE_TIME, MIN_MOVE_TIME
from series.selectors import rematch_state

from .schema import BOUT_RESULTS, END_REASONS, SEAT_RESULTS

CARD_PATTERN = r"^(?:[2-9]|10|[JQKA])[SHDC]$"
#: The largest version a game can have (``Game.version`` is a PostgreSQL ``integer``).
MAX_VERSION = 2**31 - 1


def card_field(**kwargs: Any) -> serializers.RegexField:
    kwargs.setdefault("help_text", "Rank then suit, like 10H or QS.")
    return serializers.RegexField(CARD_PATTERN, max_length=3, **kwargs)


# --- rules ---------------------------------------------------------------------------------------


def _option_field(option: dict[str, Any], *, required: bool) -> serializers.Field[Any, Any, Any, Any]:
    common: dict[str, Any] = {"required": required, "help_text": option.get("help") or ""}
    if required and option["name"] in ADDED_LATER:
        # Rules stored before the option existed lack it: they play its default.
        common = {"default": ADDED_LATER[option["name"]], "help_text": common["help_text"]}
    kind = option["type"]
    if kind == "bool":
        return serializers.BooleanField(**common)
    if kind == "int":
        # Days before a claim may go up to a year; every other count stays within the largest deck.
        most = MAX_CLAIM_DAYS if option["name"] == "claim_after_days" else OPTION_INT_MAX
        return serializers.IntegerField(min_value=0, max_value=most, **common)
    if kind == "optional_int":
        return serializers.IntegerField(allow_null=True, min_value=0, max_value=OPTION_INT_MAX, **common)
    if kind == "choice":
        return serializers.ChoiceField(choices=list(option["choices"]), **common)
    if kind == "ranks":
        return serializers.ListField(child=serializers.ChoiceField(choices=list(option["choices"])), **common)
    # An option kind this API does not know yet: still offered, as free JSON the engine checks.
    return serializers.JSONField(**common)


def _rules_serializer(name: str, *, required: bool, doc: str) -> type[serializers.Serializer[Any]]:
    fields = {
        option["name"]: _option_field(option, required=required) for option in durak.Rules.describe_options()
    }
    return type(name, (serializers.Serializer[Any],), {**fields, "__doc__": doc})


RulesSerializer = _rules_serializer(
    "RulesSerializer",
    required=True,
    doc="Every rule option the game is played with (``durak.Rules.to_dict()``).",
)
_RuleOverridesBase = _rules_serializer(
    "_RuleOverridesBase",
    required=False,
    doc="Options that differ from the preset; the engine checks the combination.",
)


class RuleOverridesSerializer(_RuleOverridesBase):  # type: ignore[misc,valid-type]
    def to_internal_value(self, data: Any) -> dict[str, Any]:
        unknown = set(data) - set(self.fields) if isinstance(data, dict) else set()
        if unknown:
            raise serializers.ValidationError(
                _("Unknown rule option(s): %(options)s.") % {"options": ", ".join(sorted(unknown))}
            )
        return dict(super().to_internal_value(data))


# --- actions: one member of a union per engine action type ---------------------------------------


class _Action(serializers.Serializer[Any]):
    kind: str = ""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        kind = serializers.ChoiceField(choices=[cls.kind], help_text="The action type.")
        cls._declared_fields = {"type": kind, **cls._declared_fields}


def as_suit_field() -> serializers.ChoiceField:
    return serializers.ChoiceField(
        choices=list(durak.SUITS), required=False, help_text="The suit an enchanted eight is played as."
    )


class AttackActionSerializer(_Action):
    """Open a bout with one card, or several of one rank where the rules allow."""

    kind = "attack"
    cards = serializers.ListField(child=card_field(), min_length=1)
    as_suit = as_suit_field()


class ThrowActionSerializer(_Action):
    """Add a card of a rank already on the table."""

    kind = "throw"
    card = card_field()
    as_suit = as_suit_field()


class DefendActionSerializer(_Action):
    """Beat the attack card ``target`` with ``card``."""

    kind = "defend"
    target = card_field()
    card = card_field()
    as_suit = as_suit_field()


class TransferActionSerializer(_Action):
    """Pass the attack on to the next player with a card of the same rank (perevodnoy)."""

    kind = "transfer"
    card = card_field()
    as_suit = as_suit_field()


class TakeActionSerializer(_Action):
    """The defender picks up the table."""

    kind = "take"


class PassActionSerializer(_Action):
    """Throw in nothing more this time."""

    kind = "pass"


class AutoPassActionSerializer(_Action):
    """Don't wait for me to throw in (``on``: true), or wait again (false): a standing choice,
    never in ``legal_actions``, accepted at any time while you are in the game."""

    kind = "auto_pass"
    on = serializers.BooleanField()


class SwapTrumpActionSerializer(_Action):
    """Swap the lowest trump from your hand for the face-up trump card."""

    kind = "swap_trump"


class ReverseActionSerializer(_Action):
    """Turn the direction of play around (after an enchanted king, where the rules allow)."""

    kind = "reverse"


class TimeoutActionSerializer(_Action):
    """Applied by the server when a player's time ran out (never sent by a client)."""

    kind = "timeout"


class ResignActionSerializer(_Action):
    """A player resigned (``POST /api/games/{id}/resign/``), or was suspended; never sent as a
    move."""

    kind = "resign"


class ClaimActionSerializer(_Action):
    """A player claimed a game without a clock that had waited ``waited`` seconds on the others
    (``POST /api/games/{id}/claim/``); never sent as a move."""

    kind = "claim"
    waited = serializers.IntegerField(
        help_text="Seconds the game had waited on the same players, with no move made."
    )


PLAYER_ACTIONS: dict[str, type[_Action]] = {
    serializer.kind: serializer
    for serializer in (
        AttackActionSerializer,
        ThrowActionSerializer,
        DefendActionSerializer,
        TransferActionSerializer,
        TakeActionSerializer,
        PassActionSerializer,
        SwapTrumpActionSerializer,
        ReverseActionSerializer,
        AutoPassActionSerializer,
    )
}
LOGGED_ACTIONS: dict[str, type[_Action]] = {
    **PLAYER_ACTIONS,
    "timeout": TimeoutActionSerializer,
    "resign": ResignActionSerializer,
    "claim": ClaimActionSerializer,
}


class _ActionUnionField(serializers.Field[dict[str, Any], Any, dict[str, Any], Any]):
    """An engine action without its ``"player"`` (the caller's seat, or ``player`` beside it).

    Output keeps only the declared fields of the action's type.
    """

    members: dict[str, type[_Action]] = {}

    def to_internal_value(self, data: Any) -> dict[str, Any]:
        if not isinstance(data, dict):
            raise serializers.ValidationError(_('An action is an object with a "type".'))
        kind = data.get("type")
        if not isinstance(kind, str):
            raise serializers.ValidationError(_('An action needs a "type": a string such as "attack".'))
        if kind in durak.game.SYSTEM_ACTION_TYPES and kind not in self.members:
            raise serializers.ValidationError(
                _("%(type)r is applied by the server, never sent by a player.") % {"type": kind}
            )
        if kind not in self.members:
            raise serializers.ValidationError(
                _("Unknown action type %(type)r: use one of %(types)s.")
                % {"type": kind, "types": ", ".join(self.members)}
            )
        member = self.members[kind](data=data)
        member.is_valid(raise_exception=True)
        extra = set(data) - set(member.fields)
        if extra:
            raise serializers.ValidationError(
                _("Unexpected field(s) in a %(type)s action: %(fields)s.")
                % {"type": kind, "fields": ", ".join(sorted(extra))}
            )
        return dict(member.validated_data)

    def to_representation(self, value: dict[str, Any]) -> dict[str, Any]:
        return dict(self.members[value["type"]](value).data)


@extend_schema_field(
    PolymorphicProxySerializer(
        component_name="Action",
        serializers={kind: serializer for kind, serializer in PLAYER_ACTIONS.items()},
        resource_type_field_name="type",
    )
)
class ActionField(_ActionUnionField):
    members = PLAYER_ACTIONS


@extend_schema_field(
    PolymorphicProxySerializer(
        component_name="LoggedAction",
        serializers={kind: serializer for kind, serializer in LOGGED_ACTIONS.items()},
        resource_type_field_name="type",
    )
)
class LoggedActionField(_ActionUnionField):
    members = LOGGED_ACTIONS


def without_player(action: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in action.items() if key != "player"}


# --- the engine's view ---------------------------------------------------------------------------


class LastBoutSerializer(serializers.Serializer[Any]):
    attacker = serializers.IntegerField()
    defender = serializers.IntegerField()
    result = serializers.ChoiceField(choices=BOUT_RESULTS)


class EndSerializer(serializers.Serializer[Any]):
    reason = serializers.ChoiceField(choices=END_REASONS)
    player = serializers.IntegerField(allow_null=True, help_text="The fool; null for a draw or a team game.")
    team = serializers.IntegerField(
        allow_null=True, required=False, help_text="The losing team, in team games."
    )


class EngineViewSerializer(serializers.Serializer[Any]):
    """``durak.Game.view(seat)``: the caller's own hand and what lies face up, nothing else.

    Its list of actions is ``legal_actions`` beside it.
    """

    player = serializers.IntegerField(allow_null=True, help_text="Your seat; null for a spectator.")
    players = serializers.IntegerField()
    dealer = serializers.IntegerField()
    hand = serializers.ListField(child=card_field(), help_text="Your cards, sorted; empty for a spectator.")
    hand_sizes = serializers.ListField(child=serializers.IntegerField(), help_text="Cards held, by seat.")
    table = serializers.ListField(
        child=serializers.ListField(child=card_field(allow_null=True), min_length=2, max_length=2),
        help_text="[attack card, defence card or null] pairs.",
    )
    named_suits = serializers.DictField(
        child=serializers.ChoiceField(choices=list(durak.SUITS)),
        required=False,
        help_text="Card on the table -> the suit it was played as (enchanted eights).",
    )
    trump = serializers.ChoiceField(choices=list(durak.SUITS), allow_null=True)
    trump_card = card_field(
        allow_null=True, help_text="The face-up card under the stock; null when no stock."
    )
    stock_size = serializers.IntegerField()
    discard_size = serializers.IntegerField()
    attacker = serializers.IntegerField(allow_null=True)
    defender = serializers.IntegerField(allow_null=True)
    direction = serializers.ChoiceField(
        choices=[1, -1], required=False, help_text="1 clockwise, -1 after play was reversed."
    )
    taking = serializers.BooleanField()
    passed = serializers.ListField(child=serializers.IntegerField())
    limit = serializers.IntegerField(allow_null=True, help_text="Most attack cards this bout.")
    finished = serializers.ListField(child=serializers.IntegerField(), help_text="Seats out, in order.")
    over = serializers.BooleanField()
    loser = serializers.IntegerField(allow_null=True)
    teams = serializers.ListField(
        child=serializers.ListField(child=serializers.IntegerField()),
        allow_null=True,
        required=False,
        help_text="The seats of each team; null without teams.",
    )
    losing_team = serializers.IntegerField(allow_null=True, required=False)
    waiting_for = serializers.ListField(child=serializers.IntegerField())
    last_bout = LastBoutSerializer(allow_null=True)
    end = EndSerializer(allow_null=True)
    enchanted = serializers.ListField(
        child=serializers.CharField(), required=False, help_text="Enchanted ranks."
    )
    rules = RulesSerializer()
    discarded = serializers.ListField(
        child=card_field(), help_text="The beaten-off cards, face down now but seen by everyone."
    )
    # The rest of the public state, with which a program can rebuild the game from this view and
    # a guess of the hidden cards (durak.Game.from_view).
    bouts = serializers.IntegerField(help_text="Bouts finished so far.")
    defended = serializers.BooleanField(help_text="Someone has beaten off a bout in this game.")
    slot = serializers.IntegerField(
        allow_null=True, help_text="Black Book team durak: the seat whose turn it is; else null."
    )
    transfer_blocked = serializers.BooleanField(help_text="An enchanted nine forbids a transfer.")
    closed = serializers.BooleanField(help_text="An enchanted queen closed the bout to throw-ins.")
    king_defended = serializers.BooleanField(help_text="The defender has beaten a card with a king.")
    may_reverse = serializers.IntegerField(
        allow_null=True, help_text="The seat that may reverse the direction of play now."
    )
    timeouts = serializers.ListField(
        child=serializers.IntegerField(), help_text="Timeouts in a row, by seat."
    )
    auto_pass = serializers.ListField(
        child=serializers.IntegerField(), help_text="Seats that asked not to be waited for to throw in."
    )
    format = serializers.IntegerField(
        help_text="The engine's state format: 2 waits for everyone allowed to throw in; 1, a game "
        "stored before, only for those holding a card that fits."
    )


# --- games ---------------------------------------------------------------------------------------


class TimeControlSerializer(serializers.Serializer[Any]):
    """Each player's time for each move. ``live``: under an hour a move (the site offers 30 and
    120 seconds); ``correspondence``: an hour or more (3600, 43200, 86400, 259200 and 604800 on
    the site), where vacations and ``pause_weekends`` stop the clock. Any whole number of
    seconds from 1 to 30 days is taken, as long as it matches its ``kind``."""

    kind = serializers.ChoiceField(
        choices=["live", "correspondence"],
        help_text="live: under an hour a move; correspondence: an hour or more.",
    )
    seconds = serializers.IntegerField(
        min_value=int(MIN_MOVE_TIME.total_seconds()),
        max_value=int(MAX_MOVE_TIME.total_seconds()),
        help_text="Time for each move, in seconds.",
    )
    pause_weekends = serializers.BooleanField(
        required=False,
        default=False,
        help_text="Correspondence only: each player's clock stands still on their Saturday and Sunday.",
    )

    def validate(self, data: dict[str, Any]) -> dict[str, Any]:
        correspondence = data["seconds"] >= CORRESPONDENCE_FROM.total_seconds()
        if data["kind"] == "live" and correspondence:
            raise serializers.ValidationError(
                {"seconds": _("A live game has under an hour a move; use kind correspondence.")}
            )
        if data["kind"] == "correspondence" and not correspondence:
            raise serializers.ValidationError(
                {"seconds": _("A correspondence game has an hour a move or more.")}
            )
        if data.get("pause_weekends") and data["kind"] != "correspondence":
            raise serializers.ValidationError(
                {"pause_weekends": _("Only correspondence clocks pause at weekends.")}
            )
        return data


def time_control_of(game: Game) -> dict[str, Any] | None:
    if game.move_time is None:
        return None
    return {
        "kind": game.time_control,
        "seconds": int(game.move_time.total_seconds()),
        "pause_weekends": game.pause_weekends,
    }


class SeatSerializer(serializers.Serializer[Any]):
    position = serializers.IntegerField(help_text="The engine's player number.")
    username = serializers.CharField(source="user.username")
    bot = serializers.BooleanField(source="user.is_bot", help_text="A computer player (issue 11).")
    awaiting_move = serializers.BooleanField()
    deadline = serializers.DateTimeField(
        allow_null=True, help_text="When this player runs out of time for the move awaited; null otherwise."
    )
    result = serializers.SerializerMethodField()
    place = serializers.IntegerField(allow_null=True, help_text="1 for the first player out, and so on.")

    @extend_schema_field(
        serializers.ChoiceField(
            choices=SEAT_RESULTS,
            allow_null=True,
            help_text="null while playing; once the game is over: out (went out, see place), fool "
            "(in a team game, each player of the losing side), draw, or won (not the fool, still "
            "holding cards when a timeout or resignation ended the game).",
        )
    )
    def get_result(self, seat: Seat) -> str | None:
        return seat.result or None


class GameSummarySerializer(serializers.Serializer[Any]):
    """A game in a list: who sits where, never any card."""

    id = serializers.IntegerField()
    status = serializers.ChoiceField(choices=Game.Status.choices)
    version = serializers.IntegerField()
    preset = serializers.CharField()
    num_players = serializers.IntegerField()
    creator = serializers.CharField(source="creator.username")
    seats = SeatSerializer(source="seats.all", many=True)
    time_control = serializers.SerializerMethodField()
    created_at = serializers.DateTimeField()
    started_at = serializers.DateTimeField(allow_null=True)
    finished_at = serializers.DateTimeField(allow_null=True)

    @extend_schema_field(TimeControlSerializer(allow_null=True, help_text="null: no time limit."))
    def get_time_control(self, game: Game) -> dict[str, Any] | None:
        return time_control_of(game)


class ResultSerializer(serializers.Serializer[Any]):
    reason = serializers.ChoiceField(choices=END_REASONS)
    loser = serializers.IntegerField(
        allow_null=True, help_text="The fool's seat; null for a draw or a team game."
    )
    loser_username = serializers.CharField(allow_null=True)
    losing_team = serializers.IntegerField(allow_null=True, help_text="In team games: the team that lost.")


class RematchAnswerSerializer(serializers.Serializer[Any]):
    username = serializers.CharField(source="user.username")
    accepted = serializers.BooleanField()


class RematchSerializer(serializers.Serializer[Any]):
    """A finished game's offer of a rematch (``series.selectors.RematchState``)."""

    status = serializers.ChoiceField(
        choices=["none", "open", "accepted", "declined", "expired"],
        help_text="none: nothing offered; open: waiting for answers; accepted: the next game started.",
    )
    offered_by = serializers.CharField(source="offer.offered_by.username", allow_null=True, default=None)
    games_agreed = serializers.SerializerMethodField()
    series_game = serializers.IntegerField(
        source="next_number",
        allow_null=True,
        help_text="The next game's number when the game's series goes on.",
    )
    expires_at = serializers.DateTimeField(source="offer.expires_at", allow_null=True, default=None)
    declined_by = serializers.SerializerMethodField()
    answers = RematchAnswerSerializer(many=True, help_text="Every player, in seat order.")
    next_game = serializers.IntegerField(
        source="next_game_id", allow_null=True, help_text="Its id once started."
    )
    can_offer = serializers.BooleanField()
    can_answer = serializers.BooleanField(help_text="You may accept or decline (you have not accepted yet).")

    @extend_schema_field(serializers.IntegerField(allow_null=True, help_text="The series length proposed."))
    def get_games_agreed(self, state: Any) -> int | None:
        if state.offer is None:
            return None
        return int(state.series_games or state.offer.games_agreed)

    @extend_schema_field(serializers.CharField(allow_null=True, help_text="Who declined or withdrew it."))
    def get_declined_by(self, state: Any) -> str | None:
        if state.status != "declined" or state.offer.decided_by is None:
            return None
        return str(state.offer.decided_by.username)


class RematchOfferSerializer(serializers.Serializer[Any]):
    games_agreed = serializers.IntegerField(
        required=False,
        min_value=1,
        max_value=500,
        help_text="The new series' length, the finished game its first (unused when its series goes on).",
    )


class ClaimSerializer(serializers.Serializer[Any]):
    """A claim you may make now or later, if nobody moves before (the engine's answer)."""

    possible = serializers.BooleanField(help_text="You may claim the game now.")
    possible_from = serializers.DateTimeField(help_text="When a claim becomes possible if nobody moves.")
    waited_since = serializers.DateTimeField(
        help_text="Since when the game has waited on the same players (its last move)."
    )
    against = serializers.ListField(
        child=serializers.IntegerField(), help_text="The seats the claim is against, the fool first."
    )


class GameDetailSerializer(serializers.Serializer[Any]):
    """A game as one user sees it. Built from ``games.selectors.GameView``."""

    id = serializers.IntegerField(source="game.pk")
    status = serializers.ChoiceField(choices=Game.Status.choices, source="game.status")
    version = serializers.IntegerField(source="game.version", help_text="Send it back as expected_version.")
    preset = serializers.CharField(source="game.preset")
    rules = RulesSerializer(source="game.rules")
    num_players = serializers.IntegerField(source="game.num_players")
    creator = serializers.CharField(source="game.creator.username")
    created_at = serializers.DateTimeField(source="game.created_at")
    started_at = serializers.DateTimeField(source="game.started_at", allow_null=True)
    finished_at = serializers.DateTimeField(source="game.finished_at", allow_null=True)
    seats = SeatSerializer(source="game.seats.all", many=True)
    time_control = serializers.SerializerMethodField()
    position = serializers.IntegerField(allow_null=True, help_text="Your seat; null if you have none.")
    view = serializers.SerializerMethodField()
    legal_actions = serializers.SerializerMethodField()
    deadline = serializers.DateTimeField(
        source="game.deadline",
        allow_null=True,
        help_text="The earliest deadline of the players the game waits for (each seat has its own); "
        "null without a time control or when nobody is on the clock.",
    )
    result = serializers.SerializerMethodField()
    rematch = serializers.SerializerMethodField()
    claim = serializers.SerializerMethodField()

    @extend_schema_field(
        ClaimSerializer(
            allow_null=True,
            help_text="Your claim of a running game without a clock (POST .../claim/), shown once it "
            "has waited a day on the others; null otherwise.",
        )
    )
    def get_claim(self, seen: GameView) -> dict[str, Any] | None:
        found = claim_of(game=seen.game, seat=seen.seat)
        if found is None:
            return None
        return dict(
            ClaimSerializer(
                {
                    "possible": found.possible,
                    "possible_from": found.possible_from,
                    "waited_since": found.since,
                    "against": found.against_seats,
                }
            ).data
        )

    @extend_schema_field(TimeControlSerializer(allow_null=True, help_text="null: no time limit."))
    def get_time_control(self, seen: GameView) -> dict[str, Any] | None:
        return time_control_of(seen.game)

    @extend_schema_field(RematchSerializer(allow_null=True, help_text="null until the game is finished."))
    def get_rematch(self, seen: GameView) -> dict[str, Any] | None:
        if seen.game.status != Game.Status.FINISHED:
            return None
        viewer = seen.seat.user if seen.seat is not None else None  # a spectator may only read it
        return dict(RematchSerializer(rematch_state(game=seen.game, viewer=viewer)).data)

    @extend_schema_field(EngineViewSerializer(allow_null=True, help_text="null until the cards are dealt."))
    def get_view(self, seen: GameView) -> dict[str, Any] | None:
        return None if seen.view is None else dict(EngineViewSerializer(seen.view).data)

    @extend_schema_field(serializers.ListField(child=ActionField(), help_text="What you may do now."))
    def get_legal_actions(self, seen: GameView) -> list[dict[str, Any]]:
        if seen.view is None or seen.position is None:
            return []
        return [ActionField().to_representation(without_player(action)) for action in seen.view["actions"]]

    @extend_schema_field(ResultSerializer(allow_null=True, help_text="null until the game is finished."))
    def get_result(self, seen: GameView) -> dict[str, Any] | None:
        end = seen.view.get("end") if seen.view else None
        if seen.game.status != Game.Status.FINISHED or not end:
            return None
        names = {seat.position: seat.user.username for seat in seen.game.seats.all()}
        loser = end.get("player")
        return {
            "reason": end["reason"],
            "loser": loser,
            "loser_username": names.get(loser),
            "losing_team": end.get("team"),
        }


class GameCreateSerializer(serializers.Serializer[Any]):
    preset = serializers.ChoiceField(choices=list(durak.PRESETS), help_text="A rule set: see durak.PRESETS.")
    options = RuleOverridesSerializer(required=False, help_text="Rule options that differ from the preset.")
    players = serializers.IntegerField(
        # No table seats more players than the largest deck has cards; the rules' own limit is
        # the engine's (invalid_rules).
        min_value=2,
        max_value=OPTION_INT_MAX,
        help_text="Seats at the table, the creator's included.",
    )
    time_control = TimeControlSerializer(
        required=False, allow_null=True, default=None, help_text="null or left out: no time limit."
    )
    private = serializers.BooleanField(
        required=False, default=False, help_text="Not listed: players join by invitation or share link."
    )


class LeavePostSerializer(serializers.Serializer[Any]):
    expected_version = serializers.IntegerField(
        required=False,
        min_value=0,
        max_value=MAX_VERSION,
        help_text="The game's version you saw: refused (stale_version) if it has moved on since.",
    )


class ActionPostSerializer(serializers.Serializer[Any]):
    action = ActionField(help_text='One of your legal_actions, without "player".')
    expected_version = serializers.IntegerField(
        min_value=0, max_value=MAX_VERSION, help_text="The game's version you saw."
    )


# --- events: what an action led to (``durak.Game.events``), one member per event type ------------


class _Event(serializers.Serializer[Any]):
    kind: str = ""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        kind = serializers.ChoiceField(choices=[cls.kind], help_text="The event type.")
        cls._declared_fields = {"type": kind, **cls._declared_fields}


class BoutEndEventSerializer(_Event):
    """The bout ended: its cards went to the discard (beaten) or to the defender (taken)."""

    kind = "bout_end"
    attacker = serializers.IntegerField()
    defender = serializers.IntegerField()
    result = serializers.ChoiceField(choices=BOUT_RESULTS)
    cards = serializers.ListField(
        child=card_field(), help_text="Every card of the table, all played face up."
    )


class DrewEventSerializer(_Event):
    """A player drew from the stock (how many, never which)."""

    kind = "drew"
    player = serializers.IntegerField()
    count = serializers.IntegerField()
    face_up = card_field(
        required=False,
        help_text="The face-up trump card, when this draw emptied the stock (it is drawn last).",
    )


class OutEventSerializer(_Event):
    """A player has no cards left and the stock is gone: they are out."""

    kind = "out"
    player = serializers.IntegerField()


class SwapEventSerializer(_Event):
    """A player swapped their lowest trump for the face-up trump card."""

    kind = "swap"
    player = serializers.IntegerField()
    took = card_field(help_text="The face-up card taken into the hand.")
    gave = card_field(help_text="The card laid face up in its place.")


class AutomaticEventSerializer(_Event):
    """A timeout under the gentle rule: the safe move played for the player."""

    kind = "automatic"
    action = ActionField()


class GameOverEventSerializer(_Event):
    kind = "game_over"
    reason = serializers.ChoiceField(choices=END_REASONS)
    player = serializers.IntegerField(allow_null=True, help_text="The fool; null for a draw or a team game.")
    team = serializers.IntegerField(
        allow_null=True, required=False, help_text="The losing team, in team games."
    )


EVENTS: dict[str, type[_Event]] = {
    serializer.kind: serializer
    for serializer in (
        BoutEndEventSerializer,
        DrewEventSerializer,
        OutEventSerializer,
        SwapEventSerializer,
        AutomaticEventSerializer,
        GameOverEventSerializer,
    )
}


@extend_schema_field(
    PolymorphicProxySerializer(
        component_name="Event",
        serializers={kind: serializer for kind, serializer in EVENTS.items()},
        resource_type_field_name="type",
    )
)
class EventField(serializers.Field[dict[str, Any], Any, dict[str, Any], Any]):
    """Output only: an engine event with exactly the declared fields of its type."""

    def to_representation(self, value: dict[str, Any]) -> dict[str, Any]:
        return dict(EVENTS[value["type"]](value).data)


def public_events(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The declared fields of the event types this API knows; a type it does not know yet (a newer
    engine) is left out rather than passed on unchecked."""
    return [EventField().to_representation(event) for event in events if event.get("type") in EVENTS]


class MoveSerializer(serializers.Serializer[Any]):
    """One entry of the public log: every card in it was played face up."""

    seq = serializers.IntegerField()
    player = serializers.SerializerMethodField()
    by_server = serializers.SerializerMethodField()
    action = serializers.SerializerMethodField()
    events = serializers.SerializerMethodField()
    created_at = serializers.DateTimeField()

    @extend_schema_field(
        serializers.ListField(
            child=EventField(),
            help_text="What the action led to, in order: public facts only (no card that was not face up).",
        )
    )
    def get_events(self, move: Move) -> list[dict[str, Any]]:
        return public_events(move.events)

    @extend_schema_field(serializers.IntegerField(help_text="The seat the action was for."))
    def get_player(self, move: Move) -> int:
        return int(move.action["player"])

    @extend_schema_field(
        serializers.BooleanField(help_text="Applied by the server (a timeout), not the player.")
    )
    def get_by_server(self, move: Move) -> bool:
        return move.position is None

    @extend_schema_field(LoggedActionField())
    def get_action(self, move: Move) -> dict[str, Any]:
        return LoggedActionField().to_representation(without_player(move.action))


class UserSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    username = serializers.CharField()
    email = serializers.CharField()
    games_waiting = serializers.IntegerField(help_text="Running games waiting for your move.")


class ErrorSerializer(serializers.Serializer[Any]):
    """Every error: a message for people, a code for programs."""

    detail = serializers.CharField()
    code = serializers.CharField(help_text="illegal_move, stale_version, not_allowed, wrong_status, ...")
    # A declared field is taken out of the class body by DRF's metaclass, so it does not hide
    # Serializer.errors at run time; mypy only sees the class attribute.
    errors = serializers.DictField(  # type: ignore[assignment]
        required=False, help_text="Field -> messages, when the input did not validate."
    )
