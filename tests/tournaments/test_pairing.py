"""tournaments.pairing against published tables, hand-computed standings and
brute-force oracles. No database: plain functions."""

import itertools
import random
from collections import Counter
from collections.abc import Callable, Sequence
from fractions import Fraction

import pytest

from tournaments.pairing import (
    Entrant,
    GameResult,
    Pairing,
    TableResult,
    ranked,
    round_robin,
    standings,
    swiss_round,
    table_round,
    table_sizes,
)

# ---------------------------------------------------------------------------------------
# Round robin: FIDE's published Berger tables (FIDE Handbook C.05, Annex 1).

BERGER_4 = [
    "1-4 2-3",
    "4-3 1-2",
    "2-4 3-1",
]
BERGER_6 = [
    "1-6 2-5 3-4",
    "6-4 5-3 1-2",
    "2-6 3-1 4-5",
    "6-5 1-4 2-3",
    "3-6 4-2 5-1",
]
BERGER_8 = [
    "1-8 2-7 3-6 4-5",
    "8-5 6-4 7-3 1-2",
    "2-8 3-1 4-7 5-6",
    "8-6 7-5 1-4 2-3",
    "3-8 4-2 5-1 6-7",
    "8-7 1-6 2-5 3-4",
    "4-8 5-3 6-2 7-1",
]


def _table(players: int) -> list[str]:
    return [" ".join(str(p) for p in round_) for round_ in round_robin(list(range(1, players + 1)))]


@pytest.mark.parametrize(("players", "published"), [(4, BERGER_4), (6, BERGER_6), (8, BERGER_8)])
def test_round_robin_is_the_published_berger_table(players: int, published: list[str]) -> None:
    assert _table(players) == published


def test_odd_round_robin_is_the_next_even_table_with_the_last_number_a_bye() -> None:
    five = [" ".join(str(p) for p in round_) for round_ in round_robin([1, 2, 3, 4, 5])]
    expected = [
        " ".join(
            f"{b}-bye" if a == "6" else f"{a}-bye" if b == "6" else game
            for game in line.split()
            for a, b in [game.split("-")]
        )
        for line in BERGER_6
    ]
    assert five == expected
    assert five[1] == "4-bye 5-3 1-2"


@pytest.mark.parametrize("players", range(2, 11))
def test_round_robin_meets_each_pair_once_and_alternates_colours(players: int) -> None:
    rounds = round_robin(list(range(players)))
    games = [game for round_ in rounds for game in round_ if game.second is not None]
    assert Counter(frozenset(game) for game in games) == Counter(
        frozenset(pair) for pair in itertools.combinations(range(players), 2)
    )
    for round_ in rounds:
        seated = [p for game in round_ for p in game if p is not None]
        assert sorted(seated) == list(range(players))
    firsts = Counter(game.first for game in games)
    seconds = Counter(game.second for game in games)
    assert all(abs(firsts[p] - seconds[p]) <= 1 for p in range(players))


def test_round_robin_refuses_more_than_ten_and_duplicates() -> None:
    with pytest.raises(ValueError):
        round_robin(list(range(11)))
    with pytest.raises(ValueError):
        round_robin([1, 1, 2])


# ---------------------------------------------------------------------------------------
# Swiss: simulated tournaments checked against brute force.


def _perfect_matching_exists(players: Sequence[int], allowed: Callable[[int, int], bool]) -> bool:
    if not players:
        return True
    head, rest = players[0], players[1:]
    return any(
        allowed(head, partner) and _perfect_matching_exists([p for p in rest if p != partner], allowed)
        for partner in rest
    )


class _Simulation:
    """A Swiss tournament with random results, checking every round as it goes."""

    def __init__(self, players: int, seed: int) -> None:
        self.random = random.Random(seed)
        self.players = list(range(players))
        self.ratings = {p: self.random.randrange(1000, 2000) for p in self.players}
        self.points: Counter[int] = Counter()
        self.history: list[Pairing[int]] = []
        self.rounds = 0

    def entrants(self) -> list[Entrant[int]]:
        return [Entrant(p, Fraction(self.points[p], 2), self.ratings[p]) for p in self.players]

    def met(self, a: int, b: int) -> bool:
        return any({a, b} == {g.first, g.second} for g in self.history)

    def byes(self) -> Counter[int]:
        return Counter(g.first for g in self.history if g.second is None)

    def colour(self) -> Counter[int]:
        balance: Counter[int] = Counter()
        for game in self.history:
            if game.second is not None:
                balance[game.first] += 1
                balance[game.second] -= 1
        return balance

    def play_round(self, oracle: bool) -> None:
        entrants = self.entrants()
        order = ranked(entrants)
        byes, colour = self.byes(), self.colour()
        result = swiss_round(entrants, self.history)

        seated = [p for game in result.games for p in game if p is not None]
        assert sorted(seated) == self.players
        repeated = [g for g in result.games if g.second is not None and self.met(g.first, g.second)]
        assert result.repeats == len(repeated)

        def unmet(a: int, b: int) -> bool:
            return not self.met(a, b)

        def fits(a: int, b: int) -> bool:
            return unmet(a, b) and colour[a] * colour[b] <= 0

        fewest = min(byes[p] for p in self.players)
        candidates = [p for p in reversed(order) if byes[p] == fewest] if len(order) % 2 else [None]
        if len(order) % 2:
            assert result.bye is not None
            assert byes[result.bye] == fewest, "a second bye while another player had fewer"
        else:
            assert result.bye is None

        if oracle:
            # The strictest rule some bye choice allows, then the lowest-ranked such choice.
            expected_bye, expected_rule = candidates[0], None
            for rule in (fits, unmet):
                feasible = [
                    c for c in candidates if _perfect_matching_exists([p for p in order if p != c], rule)
                ]
                if feasible:
                    expected_bye, expected_rule = feasible[0], rule
                    break
            assert result.bye == expected_bye
            if repeated:
                assert expected_rule is None, f"repeats {repeated} though a repeat-free pairing existed"
            colour_ok = expected_rule is fits
        else:
            assert not repeated
            assert result.bye == candidates[0]
            colour_ok = True

        for game in result.games:
            if game.second is None:
                self.points[game.first] += 2
                continue
            outcome = self.random.choice([2, 2, 1, 0, 0])
            self.points[game.first] += outcome
            self.points[game.second] += 2 - outcome
        self.history.extend(result.games)
        self.rounds += 1

        if colour_ok:
            after = self.colour()
            for player in self.players:
                if not self.byes()[player]:  # played every round
                    assert abs(after[player]) <= 1, (player, after[player], self.rounds)


@pytest.mark.parametrize("seed", range(12))
@pytest.mark.parametrize(("players", "rounds"), [(7, 6), (8, 6)])
def test_small_swiss_against_brute_force(players: int, rounds: int, seed: int) -> None:
    simulation = _Simulation(players, seed)
    for _ in range(rounds):
        simulation.play_round(oracle=True)


@pytest.mark.parametrize("seed", range(4))
def test_thirty_three_player_swiss(seed: int) -> None:
    simulation = _Simulation(33, seed)
    for _ in range(8):
        simulation.play_round(oracle=False)
    assert max(simulation.byes().values()) == 1


def test_swiss_pairs_within_score_groups_top_half_against_bottom_half() -> None:
    entrants = [Entrant(p, Fraction(1 if p < 4 else 0)) for p in range(8)]
    result = swiss_round(entrants)
    assert {frozenset(g) for g in result.games} == {
        frozenset(pair) for pair in [(0, 2), (1, 3), (4, 6), (5, 7)]
    }


def test_swiss_floats_the_odd_one_down() -> None:
    entrants = [Entrant(p, Fraction(2 if p < 3 else 0)) for p in range(6)]
    result = swiss_round(entrants)
    pairs = {frozenset(g) for g in result.games}
    assert frozenset((2, 3)) in pairs  # the lowest of the top group meets the top of the next


def test_swiss_first_round_alternates_colours_by_board() -> None:
    result = swiss_round([Entrant(p) for p in range(4)])
    assert [tuple(g) for g in result.games] == [(0, 2), (3, 1)]


def test_swiss_with_every_pairing_used_repeats_as_few_as_can() -> None:
    history = [g for round_ in round_robin([0, 1, 2, 3]) for g in round_]
    result = swiss_round([Entrant(p) for p in range(4)], history)
    assert result.repeats == 2
    assert sorted(p for g in result.games for p in g if p is not None) == [0, 1, 2, 3]


# ---------------------------------------------------------------------------------------
# Table rounds


@pytest.mark.parametrize(
    ("players", "size", "expected"),
    [
        (10, 4, [4, 3, 3]),
        (12, 4, [4, 4, 4]),
        (13, 4, [4, 3, 3, 3]),
        (6, 6, [6]),
        (7, 6, [4, 3]),
        (9, 5, [5, 4]),
    ],
)
def test_table_sizes_are_even_and_within_three_to_six(players: int, size: int, expected: list[int]) -> None:
    assert table_sizes(players, size) == expected


@pytest.mark.parametrize("players", range(3, 60))
@pytest.mark.parametrize("size", range(3, 7))
def test_every_table_size_is_legal(players: int, size: int) -> None:
    sizes = table_sizes(players, size)
    assert sum(sizes) == players
    assert all(3 <= s <= 6 for s in sizes)
    assert max(sizes) - min(sizes) <= 1


def test_table_sizes_refuse_too_few_players() -> None:
    with pytest.raises(ValueError):
        table_sizes(2, 3)


def test_first_table_round_seats_by_rank() -> None:
    entrants = [Entrant(p, Fraction(10 - p)) for p in range(10)]
    assert table_round(entrants, table_size=4) == [[0, 1, 2, 3], [4, 5, 6], [7, 8, 9]]


def _repeat_free_seating_exists(players: list[int], sizes: list[int], met: set[frozenset[int]]) -> bool:
    if not players:
        return True
    head = players[0]
    for size in set(sizes):
        rest_sizes = list(sizes)
        rest_sizes.remove(size)
        for mates in itertools.combinations(players[1:], size - 1):
            table = (head, *mates)
            if any(frozenset(pair) in met for pair in itertools.combinations(table, 2)):
                continue
            if _repeat_free_seating_exists([p for p in players if p not in table], rest_sizes, met):
                return True
    return False


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize(("players", "size", "rounds"), [(9, 3, 5), (10, 4, 4), (8, 4, 4), (12, 6, 3)])
def test_table_rounds_repeat_table_mates_only_when_unavoidable(
    players: int, size: int, rounds: int, seed: int
) -> None:
    rng = random.Random(seed)
    points: Counter[int] = Counter()
    history: list[list[int]] = []
    for _ in range(rounds):
        entrants = [Entrant(p, Fraction(points[p])) for p in range(players)]
        tables = table_round(entrants, history, table_size=size)
        assert sorted(p for t in tables for p in t) == list(range(players))
        assert [len(t) for t in tables] == table_sizes(players, size)
        met = {frozenset(pair) for t in history for pair in itertools.combinations(t, 2)}
        repeated = [pair for t in tables for pair in itertools.combinations(t, 2) if frozenset(pair) in met]
        if repeated:
            assert not _repeat_free_seating_exists(list(range(players)), table_sizes(players, size), met)
        led = Counter(t[0] for t in history)
        for table in tables:
            assert led[table[0]] == min(led[p] for p in table), "the seat of honour goes to who led least"
        for table in tables:
            order = list(table)
            rng.shuffle(order)
            for place, player in enumerate(order[:-1]):
                points[player] += 1 + (place == 0)
        history.extend(tables)


def test_nine_players_in_threes_meet_everyone_once_in_four_rounds() -> None:
    # Nine players in threes can meet every other exactly once in four rounds (the affine
    # plane of order 3): the exhaustive search must find such a schedule.
    history: list[list[int]] = []
    for _ in range(4):
        history.extend(table_round([Entrant(p) for p in range(9)], history, table_size=3))
    pairs = Counter(frozenset(pair) for t in history for pair in itertools.combinations(t, 2))
    assert len(pairs) == 36
    assert set(pairs.values()) == {1}


def test_four_players_at_one_table_each_lead_once_in_four_rounds() -> None:
    history: list[list[int]] = []
    for _ in range(4):
        history.extend(table_round([Entrant(p) for p in range(4)], history, table_size=4))
    assert sorted(Counter(t[0] for t in history).values()) == [1, 1, 1, 1]


# ---------------------------------------------------------------------------------------
# Standings and tie-breaks, computed by hand.


def test_two_player_standings_by_hand() -> None:
    # Four players, three rounds (a round robin):
    #   R1: A beats D, B draws C.   R2: C beats D, B beats A.   R3: B draws D, A beats C.
    # Points: A 1+0+1 = 2, B 1/2+1+1/2 = 2, C 1/2+1+0 = 3/2, D 0+0+1/2 = 1/2.
    # Buchholz (opponents' final points; everyone met the other three):
    #   A: B+C+D = 2+3/2+1/2 = 4     B: A+C+D = 2+3/2+1/2 = 4
    #   C: A+B+D = 2+2+1/2 = 9/2     D: A+B+C = 2+2+3/2 = 11/2
    # Sonneborn-Berger (beaten opponents' points + half of drawn opponents'):
    #   A: beat D (1/2), beat C (3/2)          = 2
    #   B: drew C (3/4), beat A (2), drew D (1/4) = 3
    #   C: drew B (1), beat D (1/2)            = 3/2
    #   D: drew B (1)                          = 1
    # A and B tie on points and Buchholz; B's Sonneborn-Berger puts B first.
    results = [
        GameResult.win("A", "D"),
        GameResult.draw("B", "C"),
        GameResult.win("C", "D"),
        GameResult.win("B", "A"),
        GameResult.draw("B", "D"),
        GameResult("C", "A", Fraction(0)),
    ]
    rows = standings(results)
    assert [(r.rank, r.player, r.points, r.buchholz, r.sonneborn_berger, r.games) for r in rows] == [
        (1, "B", Fraction(2), Fraction(4), Fraction(3), 3),
        (2, "A", Fraction(2), Fraction(4), Fraction(2), 3),
        (3, "C", Fraction(3, 2), Fraction(9, 2), Fraction(3, 2), 3),
        (4, "D", Fraction(1, 2), Fraction(11, 2), Fraction(1), 3),
    ]


def test_a_bye_counts_as_a_win_against_the_players_own_score() -> None:
    # A beats B; then each has a bye. A: 2 points; Buchholz B's 1 + A's own 2 = 3;
    # Sonneborn-Berger: beat B (1) + the bye, a win against A's own 2 = 3.
    rows = standings([GameResult.win("A", "B"), GameResult.bye("A"), GameResult.bye("B")])
    a, b = rows
    assert (a.player, a.points, a.buchholz, a.sonneborn_berger) == ("A", 2, 3, 3)
    # B: 1 point (the bye); Buchholz A (2) + own 1 = 3; Sonneborn-Berger: the bye, 1.
    assert (b.player, b.points, b.buchholz, b.sonneborn_berger) == ("B", 1, 3, 1)


def test_table_standings_by_hand() -> None:
    # Two rounds of one table of four, places from the first out to the fool:
    #   R1: a, b, c out, d the fool: a, b, c 1 each, d 0.
    #   R2: b, d, a out, c the fool: b, d, a 1 each, c 0.
    # Points: a 2, b 2, c 1, d 1.
    # Buchholz (table-mates' points, per table shared): a: 2*(b+c+d) = 8, b: 8,
    #   c: 2*(a+b+d) = 10, d: 10.
    # Sonneborn-Berger (table-mates who scored less there count whole, level count half):
    #   a: R1 beat d (1), level b (1), c (1/2) = 5/2; R2 beat c (1), level b (1), d (1/2) = 5/2: 5.
    #   b: the same: 5.   c: R1 beat d (1), level a (1), b (1) = 3; R2 the fool: 3.
    #   d: R1 the fool; R2 beat c (1), level a (1), b (1) = 3.
    rows = standings([TableResult(("a", "b", "c", "d")), TableResult(("b", "d", "a", "c"))])
    assert [(r.rank, r.player, r.points, r.buchholz, r.sonneborn_berger) for r in rows] == [
        (1, "a", 2, 8, 5),
        (1, "b", 2, 8, 5),
        (3, "c", 1, 10, 3),
        (3, "d", 1, 10, 3),
    ]


def test_organiser_points_table_by_place() -> None:
    rows = standings(
        [TableResult(("a", "b", "c")), TableResult(("x", "y", "z", "w"))],
        place_points={3: [Fraction(2), Fraction(1), Fraction(0)]},
    )
    got = {r.player: r.points for r in rows}
    assert got == {"a": 2, "b": 1, "c": 0, "x": 1, "y": 1, "z": 1, "w": 0}
    assert all(isinstance(r.points, Fraction) for r in rows)


def test_players_without_games_are_listed_too() -> None:
    # b lost to a (Buchholz 1), c has not played (Buchholz 0): both on 0 points, b ahead.
    rows = standings([GameResult.win("a", "b")], players=["c", "a", "b"])
    assert [(r.rank, r.player, r.games) for r in rows] == [(1, "a", 1), (2, "b", 1), (3, "c", 0)]
