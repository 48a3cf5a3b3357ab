"""Replays, the fairness check and the export of finished games.

Only a finished game is ever replayed or exported: its seed and every hand are public once
it is over, never while it runs (``finished_game`` refuses the others).
"""

import secrets
from dataclasses import dataclass
from typing import Any

from django.db.models import Prefetch
from django.utils.translation import gettext as _

import durak
from games import words
from games.exceptions import GameNotFound
from games.fairness import deal_canonical, deal_hash
from games.models import Game, Move, Seat
from games.services import initial_engine

EXPORT_FORMAT = "durak-game-export/1"


def finished_game(*, game_id: int) -> Game:
    """A finished game with its seats and users, or ``GameNotFound`` (also for a game that is
    running, open or aborted: those are never replayed)."""
    game = (
        Game.objects.filter(pk=game_id, status=Game.Status.FINISHED)
        .prefetch_related(Prefetch("seats", queryset=Seat.objects.select_related("user")))
        .first()
    )
    if game is None or game.state is None:
        raise GameNotFound(_("There is no finished game %(game)s.") % {"game": game_id})
    return game


def game_moves(*, game: Game) -> list[Move]:
    return list(Move.objects.filter(game=game).order_by("seq"))


def _deal_fields(game: Game) -> dict[str, Any]:
    return {
        "rules": game.rules,
        "players": game.num_players,
        "seed": game.seed,
        "dealer": game.dealer,
        "first_game": game.first_game,
        "deal": game.deal,
    }


@dataclass(frozen=True)
class Fairness:
    published_hash: str  # what players were shown when the cards were dealt
    recomputed_hash: str  # sha256 of the canonical string of the stored seed and setup
    canonical: str
    hash_matches: bool
    replay_matches: bool  # every logged move is legal and leads to the stored final state
    problem: str  # why not, for people; "" when both match

    @property
    def ok(self) -> bool:
        return self.hash_matches and self.replay_matches


def check_fairness(*, game: Game, moves: list[Move]) -> Fairness:
    """Recompute the deal from the revealed seed and replay the log: a changed seed (or dealer,
    rules, ...) breaks the published hash; a changed, missing or extra move breaks the replay."""
    fields = _deal_fields(game)
    recomputed = deal_hash(**fields)
    hash_matches = bool(game.seed_hash) and secrets.compare_digest(recomputed, game.seed_hash)
    problems = []
    if not game.seed_hash:
        problems.append(_("No hash was published for this game's deal."))
    elif not hash_matches:
        problems.append(_("The revealed seed does not give the hash published when the cards were dealt."))
    replay_problem = _replay_problem(game, moves)
    if replay_problem:
        problems.append(replay_problem)
    return Fairness(
        published_hash=game.seed_hash,
        recomputed_hash=recomputed,
        canonical=deal_canonical(**fields),
        hash_matches=hash_matches,
        replay_matches=not replay_problem,
        problem=" ".join(problems),
    )


def _replay_problem(game: Game, moves: list[Move]) -> str:
    try:
        engine = initial_engine(game)
    except (ValueError, TypeError, KeyError):
        return _("The deal cannot be set up from the stored seed.")
    for expected, move in enumerate(moves, start=1):
        if move.seq != expected:
            return _("The move log has a gap at move %(move)s.") % {"move": expected}
        try:
            engine.apply(move.action)
        except durak.IllegalAction:
            return _("Move %(move)s of the log is not legal when the game is replayed.") % {"move": move.seq}
    if engine.to_dict() != game.state:
        return _("Replaying the move log does not end where the stored game ended.")
    return ""


@dataclass(frozen=True)
class Frame:
    """The whole table after ``step`` moves (0: the deal)."""

    step: int
    hands: list[tuple[str, list[str], str]]  # (name, cards, role)
    table: list[list[str | None]]
    trump: str | None
    trump_card: str | None
    stock_size: int
    discard_size: int
    finished: list[str]
    over: bool


def replay_frame(*, game: Game, moves: list[Move], step: int) -> Frame:
    """Replay the first ``step`` moves (clamped to the log) and show every hand."""
    step = max(0, min(step, len(moves)))
    engine = initial_engine(game)
    for applied, move in enumerate(moves[:step]):
        try:
            engine.apply(move.action)
        except durak.IllegalAction:  # a tampered log: show the table where it stops making sense
            step = applied
            break
    names = seat_names(game)
    outcome = engine.outcome()

    def role(player: int) -> str:
        if outcome is not None:
            result = words.SeatResult.of(
                outcome, player, teams=engine.teams is not None, players=engine.players
            )
            return result.word if result.lost else ""  # every player of a losing team
        if player == engine.attacker:
            return _("attacks")
        return _("defends") if player == engine.defender else ""

    return Frame(
        step=step,
        hands=[
            (
                names.get(p, _("seat %(seat)s") % {"seat": p}),
                durak.sort_hand(list(engine.hands[p]), engine.trump),
                role(p),
            )
            for p in range(engine.players)
        ],
        table=[list(pair) for pair in engine.table],
        trump=engine.trump,
        # The card face up under the stock now (a trump swap changes it; ``engine.trump_card`` is
        # the one turned up at the deal), as ``Game.view`` shows it.
        trump_card=engine.stock[-1] if engine.stock else None,
        stock_size=len(engine.stock),
        discard_size=len(engine.discard),
        # who is out so far: the running game's state, and the outcome's order once it is over
        finished=[names.get(p, "") for p in (outcome.order_out if outcome is not None else engine.finished)],
        over=outcome is not None,
    )


def seat_names(game: Game) -> dict[int, str]:
    """Each seat's name as the sentences give it (``games.words.seat_name``: a computer player
    by its own name and level)."""
    return {seat.position: words.seat_name(seat.user) for seat in game.seats.all()}


def describe(move: Move, names: dict[int, str], *, all_beaten: bool = False) -> str:
    """One line for the move list: the move and what it led to, in the words of the table
    (``games.words``); a finished game hides nothing, but the words are the public ones.
    ``all_beaten``: a pass made when every card was beaten (``words.passes_on_beaten``)."""
    lines = [
        words.move_sentence(move.action, me=None, names=names, position=move.position, all_beaten=all_beaten),
        *words.event_sentences(move.events or [], me=None, names=names),
    ]
    return " ".join(line for line in lines if line)


def export(*, game: Game, moves: list[Move]) -> dict[str, Any]:
    """Everything needed to replay the game with the engine alone (``examples/replay_export.py``)."""
    start = initial_engine(game)
    assert game.state is not None
    end = game.engine()
    outcome = end.outcome()
    assert outcome is not None, "only a finished game is exported"
    names = {seat.position: seat.user.name for seat in game.seats.all()}
    return {
        "format": EXPORT_FORMAT,
        "game": game.pk,
        "preset": game.preset,
        "rules": game.rules,
        "players": game.num_players,
        "names": [names.get(p, "") for p in range(game.num_players)],
        "seed": game.seed,
        "dealer": game.dealer,
        "first_game": game.first_game,
        "stacked_deal": game.deal,
        "seed_hash": game.seed_hash,
        "deal": {
            "hands": [list(hand) for hand in start.hands],
            "stock": list(start.stock),
            "trump_card": start.trump_card,
            "attacker": start.attacker,
        },
        "moves": [move.action for move in moves],
        "result": {
            "finished": list(outcome.order_out),
            "loser": outcome.loser,
            "losing_team": outcome.losing_team,
            "end": end.view(None)["end"],  # as the table showed it: reason, player (and team)
        },
        "started_at": game.started_at.isoformat() if game.started_at else None,
        "finished_at": game.finished_at.isoformat() if game.finished_at else None,
    }
