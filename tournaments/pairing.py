"""Pairings and standings for tournaments: round robin, Swiss, table rounds.

Pure Python, standard library only, generic over the player id (anything hashable:
a user id, a name). Nothing here knows about Django: the tournament services give it
the standings and the history they read from the database and store what it returns.

Why not a library: we evaluated what the package index offers for Swiss pairing.
``swissdutch`` (0.1.0, last release 2014) is unmaintained, untyped and chess-only;
``pyswiss`` (0.0.1) is a "collection of python tools", not a pairing engine, with no
licence; ``chess-tournament`` (0.2.x) is a console application with its pairing logic in
its views, pulling in jinja2 and flake8 at run time; ``gambit-pairing`` is a GPL-3.0
desktop application (PyQt6); ``cardarena-tournament-core`` (MPL 2.0, typed) pairs greedily
and allows a repeat as soon as its first greedy choice fails, so it repeats pairings that a
search would avoid; ``caissify-pairings`` (Apache-2.0, typed, a serious FIDE Dutch engine)
is the closest fit but is a months-old 0.x by one author, needs networkx, takes
TRF-style integer pairing numbers and chess float histories, and has nothing for tables
of three to six. None also seats tables, so we would write half of this module anyway;
the Swiss part below is about two hundred lines and tested against an exhaustive oracle.

Points are :class:`fractions.Fraction` (a draw is ½), never floats.

>>> [[str(pairing) for pairing in round_] for round_ in round_robin("ABC")]
[['A-bye', 'B-C'], ['C-bye', 'A-B'], ['B-bye', 'C-A']]
"""

from __future__ import annotations

import itertools
from collections import Counter, defaultdict, deque
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Generic, NamedTuple, TypeVar

P = TypeVar("P", bound=Hashable)

ONE = Fraction(1)
HALF = Fraction(1, 2)
ZERO = Fraction(0)

#: How many candidate partners the Swiss and table searches try before they stop
#: searching in preference order and fall back to a maximum matching (Swiss) or a
#: greedy seating with fewest repeats (tables). Enough for any small tournament to be
#: searched exhaustively; bounds the time of a large one.
SEARCH_BUDGET = 20_000

MIN_TABLE, MAX_TABLE = 3, 6


class Pairing(NamedTuple, Generic[P]):
    """One two-player game of a round: ``first`` moves first. ``second`` None is a bye.

    >>> str(Pairing("ann", "bob")), str(Pairing("ann", None))
    ('ann-bob', 'ann-bye')
    """

    first: P
    second: P | None

    def __str__(self) -> str:
        return f"{self.first}-{'bye' if self.second is None else self.second}"


# ---------------------------------------------------------------------------------------
# Round robin


def round_robin(players: Sequence[P]) -> list[list[Pairing[P]]]:
    """Every round of a single round robin, by FIDE's Berger tables.

    Players are numbered by their order in ``players``. With an odd count a dummy takes
    the last number and whoever meets it has a bye (``second`` is None). Colours alternate
    as in the published tables: the last number plays second in odd rounds, first in even.

    >>> [[str(p) for p in round_] for round_ in round_robin([1, 2, 3, 4])]
    [['1-4', '2-3'], ['4-3', '1-2'], ['2-4', '3-1']]
    """
    if len(set(players)) != len(players):
        raise ValueError("a player is listed twice")
    if not 2 <= len(players) <= 10:
        raise ValueError("a round robin takes 2 to 10 players")
    seats: list[P | None] = [*players, *([None] if len(players) % 2 else [])]
    n = len(seats)
    half = n // 2
    last = seats[-1]
    rotating = seats[:-1]
    rounds: list[list[Pairing[P]]] = []
    for number in range(1, n):
        start = ((number - 1) * half) % (n - 1)
        order = rotating[start:] + rotating[:start]
        boards: list[tuple[P | None, P | None]] = [(last, order[0]) if number % 2 == 0 else (order[0], last)]
        boards += [(order[i], order[n - 1 - i]) for i in range(1, half)]
        rounds.append([_as_pairing(first, second) for first, second in boards])
    return rounds


def _as_pairing(first: P | None, second: P | None) -> Pairing[P]:
    if first is None:
        assert second is not None
        return Pairing(second, None)
    return Pairing(first, second)


# ---------------------------------------------------------------------------------------
# Swiss


@dataclass(frozen=True)
class Entrant(Generic[P]):
    """A player still in the tournament, as pairing sees them before a round.

    Ranking for pairing: points, then rating, then the order of the entrants given
    (the seed).
    """

    player: P
    points: Fraction = ZERO
    rating: int = 0


@dataclass(frozen=True)
class Pairings(Generic[P]):
    """A Swiss round: the games, the bye (already listed among the games as
    ``Pairing(bye, None)``), and how many games repeat an earlier pairing (0 unless
    every pairing of these players had to repeat one)."""

    games: tuple[Pairing[P], ...]
    bye: P | None = None
    repeats: int = 0


@dataclass
class _Past(Generic[P]):
    """What the history says of each player: opponents, byes, colours."""

    met: defaultdict[P, set[P]] = field(default_factory=lambda: defaultdict(set))
    byes: Counter[P] = field(default_factory=Counter)
    colour: Counter[P] = field(default_factory=Counter)  # firsts minus seconds
    last: dict[P, int] = field(default_factory=dict)  # +1 moved first last time, -1 second

    @classmethod
    def of(cls, history: Iterable[Pairing[P]]) -> _Past[P]:
        past: _Past[P] = cls()
        for first, second in history:
            if second is None:
                past.byes[first] += 1
                continue
            past.met[first].add(second)
            past.met[second].add(first)
            past.colour[first] += 1
            past.colour[second] -= 1
            past.last[first], past.last[second] = 1, -1
        return past

    def colours_fit(self, a: P, b: P) -> bool:
        """Whether both can keep |firsts - seconds| <= 1: not both owed the same side."""
        return not (self.colour[a] * self.colour[b] > 0)


def ranked(entrants: Sequence[Entrant[P]]) -> list[P]:
    """Players in pairing order: points, then rating, then seed.

    >>> ranked([Entrant("a", Fraction(1)), Entrant("b", Fraction(2)), Entrant("c", Fraction(1), 1500)])
    ['b', 'c', 'a']
    """
    order = sorted(range(len(entrants)), key=lambda i: (-entrants[i].points, -entrants[i].rating, i))
    return [entrants[i].player for i in order]


def swiss_round(entrants: Sequence[Entrant[P]], history: Iterable[Pairing[P]] = ()) -> Pairings[P]:
    """Pair one Swiss round.

    In order of importance: nobody has a second bye while another could take it; no
    pairing repeats while a repeat-free pairing of everyone exists (if none exists, as
    few repeat as can); both players of a game can keep their firsts and seconds within
    one of each other where that is possible too; the bye goes to the lowest-ranked
    player who has not had one; players meet others on their score (a score group is
    paired top half against bottom half, as the Dutch system does, an odd one out
    floating down to the next group). The side is given to whoever had it less, then to
    whoever did not have it last time, then by board (first board: the higher-ranked
    player moves first).

    ``history`` is every earlier game in the order played, byes as ``Pairing(p, None)``.

    >>> entrants = [Entrant(name, Fraction(points)) for name, points in zip("abcde", [2, 1, 1, 1, 0])]
    >>> history = [Pairing("a", "c"), Pairing("b", "d"), Pairing("e", None),
    ...            Pairing("a", "b"), Pairing("c", "e"), Pairing("d", None)]
    >>> result = swiss_round(entrants, history)
    >>> [str(game) for game in result.games], result.bye, result.repeats
    (['d-a', 'e-b', 'c-bye'], 'c', 0)

    d and e have had byes, so the bye goes to c, the lowest-ranked of the others.
    """
    players = ranked(entrants)
    if len(set(players)) != len(players):
        raise ValueError("a player is listed twice")
    past = _Past.of(history)
    rank = {player: index for index, player in enumerate(players)}

    def unmet(a: P, b: P) -> bool:
        return b not in past.met[a]

    def unmet_and_fits(a: P, b: P) -> bool:
        return unmet(a, b) and past.colours_fit(a, b)

    bye: P | None = None
    if len(players) % 2:
        bye = _choose_bye(players, past, (unmet_and_fits, unmet))
        players = [player for player in players if player != bye]

    points = {entrant.player: entrant.points for entrant in entrants}
    pairs = _pair(players, points.__getitem__, unmet_and_fits, unmet)
    repeats = sum(1 for a, b in pairs if not unmet(a, b))
    games = [_sides(a, b, board, past, rank) for board, (a, b) in enumerate(pairs)]
    if bye is not None:
        games.append(Pairing(bye, None))
    return Pairings(games=tuple(games), bye=bye, repeats=repeats)


def _choose_bye(players: list[P], past: _Past[P], rules: Sequence[Callable[[P, P], bool]]) -> P:
    """The lowest-ranked player with the fewest byes whose absence lets the rest be
    paired under the strictest rule that any choice allows."""
    fewest = min(past.byes[player] for player in players)
    candidates = [p for p in reversed(players) if past.byes[p] == fewest]
    for allowed in rules:
        for candidate in candidates:
            rest = [player for player in players if player != candidate]
            if _has_perfect_matching(rest, allowed):
                return candidate
    return candidates[0]


def _pair(
    players: list[P], points: Callable[[P], Fraction], *rules: Callable[[P, P], bool]
) -> list[tuple[P, P]]:
    """Pair ``players`` (ranked, even count) under the strictest rule that allows
    everyone a partner; under the last rule, as many pairs as can obey it."""
    for allowed in rules:
        found = _search(players, points, allowed)
        if found is not None:
            return found
        if _has_perfect_matching(players, allowed):
            return _matching_pairs(players, allowed)
    return _matching_pairs(players, rules[-1])


def _preferences(remaining: list[P], points: Callable[[P], Fraction]) -> list[P]:
    """Partners for ``remaining[0]`` in order of preference: its score group paired top
    half against bottom half, then lower groups in rank order."""
    head = remaining[0]
    group = [p for p in remaining if points(p) == points(head)]
    if len(group) < 2:
        return remaining[1:]
    middle = len(group) // 2
    in_group = group[middle:] + group[middle - 1 : 0 : -1]
    rest = [p for p in remaining if points(p) != points(head)]
    return in_group + rest


def _search(
    players: list[P], points: Callable[[P], Fraction], allowed: Callable[[P, P], bool]
) -> list[tuple[P, P]] | None:
    """Depth-first search in preference order; None when it finds nothing within budget."""
    budget = SEARCH_BUDGET
    pairs: list[tuple[P, P]] = []

    def step(remaining: list[P]) -> bool:
        nonlocal budget
        if not remaining:
            return True
        head = remaining[0]
        for partner in _preferences(remaining, points):
            budget -= 1
            if budget < 0:
                return False
            if not allowed(head, partner):
                continue
            pairs.append((head, partner))
            if step([p for p in remaining[1:] if p != partner]):
                return True
            pairs.pop()
        return False

    return pairs if step(players) else None


def _has_perfect_matching(players: list[P], allowed: Callable[[P, P], bool]) -> bool:
    return all(allowed(a, b) for a, b in _matching_pairs(players, allowed))


def _matching_pairs(players: list[P], allowed: Callable[[P, P], bool]) -> list[tuple[P, P]]:
    """A maximum matching over allowed pairs, started from the greedy one in rank order
    so that most pairs stay between neighbours; the unmatched are then paired with each
    other in rank order (those pairs break the rule: a maximum matching makes them few)."""
    n = len(players)
    adjacency = [[j for j in range(n) if j != i and allowed(players[i], players[j])] for i in range(n)]
    match = [-1] * n
    for i in range(n):
        if match[i] == -1:
            for j in adjacency[i]:
                if match[j] == -1:
                    match[i], match[j] = j, i
                    break
    for root in range(n):
        if match[root] == -1:
            _augment(root, adjacency, match)
    pairs = [(players[i], players[match[i]]) for i in range(n) if match[i] > i]
    left = [players[i] for i in range(n) if match[i] == -1]
    pairs += [(left[i], left[i + 1]) for i in range(0, len(left) - 1, 2)]
    order = {player: index for index, player in enumerate(players)}
    return sorted(pairs, key=lambda pair: min(order[pair[0]], order[pair[1]]))


def _augment(root: int, adjacency: list[list[int]], match: list[int]) -> None:
    """One augmenting path from ``root`` by Edmonds' blossom algorithm, applied to ``match``."""
    n = len(adjacency)
    parent = [-1] * n
    base = list(range(n))
    used = [False] * n
    used[root] = True
    queue = deque([root])

    def common_base(a: int, b: int) -> int:
        seen = [False] * n
        while True:
            a = base[a]
            seen[a] = True
            if match[a] == -1:
                break
            a = parent[match[a]]
        while True:
            b = base[b]
            if seen[b]:
                return b
            b = parent[match[b]]

    def mark(v: int, lca: int, child: int, blossom: list[bool]) -> None:
        while base[v] != lca:
            blossom[base[v]] = blossom[base[match[v]]] = True
            parent[v] = child
            child = match[v]
            v = parent[match[v]]

    end = -1
    while queue and end == -1:
        v = queue.popleft()
        for to in adjacency[v]:
            if base[v] == base[to] or match[v] == to:
                continue
            if to == root or (match[to] != -1 and parent[match[to]] != -1):
                lca = common_base(v, to)
                blossom = [False] * n
                mark(v, lca, to, blossom)
                mark(to, lca, v, blossom)
                for i in range(n):
                    if blossom[base[i]]:
                        base[i] = lca
                        if not used[i]:
                            used[i] = True
                            queue.append(i)
            elif parent[to] == -1:
                parent[to] = v
                if match[to] == -1:
                    end = to
                    break
                used[match[to]] = True
                queue.append(match[to])
    while end != -1:
        previous = parent[end]
        following = match[previous]
        match[end], match[previous] = previous, end
        end = following


def _sides(a: P, b: P, board: int, past: _Past[P], rank: Mapping[P, int]) -> Pairing[P]:
    """Who moves first: whoever had it less, else whoever had it not last time, else by
    board, the higher-ranked player first on odd boards (counting from 1)."""
    if past.colour[a] != past.colour[b]:
        return Pairing(a, b) if past.colour[a] < past.colour[b] else Pairing(b, a)
    last_a, last_b = past.last.get(a, 0), past.last.get(b, 0)
    if last_a != last_b:
        return Pairing(a, b) if last_a < last_b else Pairing(b, a)
    higher, lower = (a, b) if rank[a] < rank[b] else (b, a)
    return Pairing(higher, lower) if board % 2 == 0 else Pairing(lower, higher)


# ---------------------------------------------------------------------------------------
# Table rounds


def table_sizes(players: int, table_size: int) -> list[int]:
    """Table sizes for a round, as even as possible, larger tables first, each 3 to 6.

    >>> table_sizes(10, 4), table_sizes(12, 4), table_sizes(7, 3), table_sizes(5, 4)
    ([4, 3, 3], [4, 4, 4], [4, 3], [5])
    """
    if not MIN_TABLE <= table_size <= MAX_TABLE:
        raise ValueError(f"a table seats {MIN_TABLE} to {MAX_TABLE}")
    if players < MIN_TABLE:
        raise ValueError(f"a table round needs at least {MIN_TABLE} players")
    tables = -(-players // table_size)
    while players // tables < MIN_TABLE:
        tables -= 1
    size, extra = divmod(players, tables)
    return [size + 1] * extra + [size] * (tables - extra)


def table_round(
    entrants: Sequence[Entrant[P]], history: Iterable[Sequence[P]] = (), table_size: int = 4
) -> list[list[P]]:
    """Seat one round of tables: top scores together, as few repeated table-mates as can
    be (none where a seating without exists), each table in seat order with the player
    who has led (sat first) least in the first seat.

    ``history`` is every earlier table in the order played, each in seat order.

    >>> entrants = [Entrant(p) for p in "abcdef"]
    >>> table_round(entrants, [["a", "b", "c"], ["d", "e", "f"]], table_size=3)
    [['b', 'a', 'd'], ['c', 'e', 'f']]
    """
    players = ranked(entrants)
    if len(set(players)) != len(players):
        raise ValueError("a player is listed twice")
    sizes = table_sizes(len(players), table_size)
    met: defaultdict[P, set[P]] = defaultdict(set)
    led: Counter[P] = Counter()
    for table in history:
        led[table[0]] += 1
        for a, b in itertools.permutations(table, 2):
            met[a].add(b)
    tables = _seat_without_repeats(players, sizes, met) or _seat_fewest_repeats(players, sizes, met)
    rank = {player: index for index, player in enumerate(players)}
    return [sorted(table, key=lambda p: (led[p], rank[p])) for table in tables]


def _seat_without_repeats(
    players: list[P], sizes: list[int], met: Mapping[P, set[P]]
) -> list[list[P]] | None:
    """Fill tables in turn, each headed by the highest-ranked unseated player, members
    tried in rank order; every size of table is tried for each head, so the search is
    exhaustive (None: no repeat-free seating) unless it runs out of budget (also None)."""
    budget = SEARCH_BUDGET
    tables: list[list[P]] = []

    def fill(remaining: list[P], sizes_left: Counter[int]) -> bool:
        nonlocal budget
        if not remaining:
            return True
        head, rest = remaining[0], remaining[1:]
        for size in sorted(sizes_left, reverse=True):
            if not sizes_left[size]:
                continue
            sizes_left[size] -= 1
            table = [head]
            if grow(table, rest, 0, size, remaining, sizes_left):
                return True
            sizes_left[size] += 1
            if budget < 0:
                return False
        return False

    def grow(
        table: list[P], rest: list[P], start: int, size: int, remaining: list[P], sizes_left: Counter[int]
    ) -> bool:
        nonlocal budget
        if len(table) == size:
            tables.append(list(table))
            seated = set(table)
            if fill([p for p in remaining if p not in seated], sizes_left):
                return True
            tables.pop()
            return False
        for index in range(start, len(rest)):
            budget -= 1
            if budget < 0:
                return False
            candidate = rest[index]
            if any(candidate in met[member] for member in table):
                continue
            table.append(candidate)
            if grow(table, rest, index + 1, size, remaining, sizes_left):
                return True
            table.pop()
        return False

    return tables if fill(players, Counter(sizes)) else None


def _seat_fewest_repeats(players: list[P], sizes: list[int], met: Mapping[P, set[P]]) -> list[list[P]]:
    """Greedy: each table headed by the highest-ranked unseated player, then whoever has
    met fewest of those already seated there, rank breaking ties."""
    remaining = list(players)
    tables = []
    for size in sizes:
        table = [remaining.pop(0)]
        while len(table) < size:
            best = min(
                range(len(remaining)),
                key=lambda i: (sum(remaining[i] in met[member] for member in table), i),
            )
            table.append(remaining.pop(best))
        tables.append(table)
    return tables


# ---------------------------------------------------------------------------------------
# Standings


@dataclass(frozen=True)
class GameResult(Generic[P]):
    """A two-player game (``first`` moved first) or a bye (``second`` None).
    ``first_points`` is 1, ½ or 0; the second player scores the rest of 1.

    >>> GameResult.win("a", "b").points_of("b"), GameResult.bye("c").points_of("c")
    (Fraction(0, 1), Fraction(1, 1))
    """

    first: P
    second: P | None
    first_points: Fraction = ONE

    @classmethod
    def win(cls, winner: P, loser: P) -> GameResult[P]:
        return cls(winner, loser, ONE)

    @classmethod
    def draw(cls, first: P, second: P) -> GameResult[P]:
        return cls(first, second, HALF)

    @classmethod
    def bye(cls, player: P) -> GameResult[P]:
        return cls(player, None, ONE)

    @property
    def players(self) -> tuple[P, ...]:
        return (self.first,) if self.second is None else (self.first, self.second)

    def points_of(self, player: P) -> Fraction:
        return self.first_points if player == self.first else ONE - self.first_points


@dataclass(frozen=True)
class TableResult(Generic[P]):
    """A table game: ``places`` from the first player out to the last, the fool.

    >>> TableResult(("a", "b", "c")).points_of("c")
    Fraction(0, 1)
    """

    places: tuple[P, ...]
    place_points: tuple[Fraction, ...] | None = None  # None: 1 to each non-fool, 0 to the fool

    @property
    def players(self) -> tuple[P, ...]:
        return self.places

    def points_of(self, player: P) -> Fraction:
        table = self.place_points or (ONE,) * (len(self.places) - 1) + (ZERO,)
        return table[self.places.index(player)]


@dataclass(frozen=True)
class StandingRow(Generic[P]):
    """One line of the standings. Players level on points and both tie-breaks share a rank."""

    rank: int
    player: P
    points: Fraction
    buchholz: Fraction
    sonneborn_berger: Fraction
    games: int


def standings(
    results: Iterable[GameResult[P] | TableResult[P]],
    players: Iterable[P] = (),
    *,
    place_points: Mapping[int, Sequence[Fraction]] | None = None,
) -> list[StandingRow[P]]:
    """Standings: points, then Buchholz, then Sonneborn-Berger.

    Buchholz is the sum of the final points of each opponent met (a table counts each
    table-mate). Sonneborn-Berger adds an opponent's final points for each game won
    against them and half for a draw; at a table, a table-mate counts as beaten if they
    scored less there, drawn if they scored the same. A bye counts, for both
    tie-breaks, as a game won against an opponent with the player's own final points:
    the simple rule, close to FIDE's "dummy opponent" for unplayed rounds, that needs
    no knowledge of round order. ``place_points`` gives the organiser's points by place
    for each table size (``{4: [3, 2, 1, 0]}``); ``players`` lists players who have not
    played yet, so that they appear too. Equal rows keep the order players first appear.

    >>> rows = standings([GameResult.win("a", "b"), GameResult.draw("b", "c"), GameResult.bye("a")])
    >>> [(row.rank, row.player, str(row.points), str(row.buchholz)) for row in rows]
    [(1, 'a', '2', '5/2'), (2, 'b', '1/2', '5/2'), (3, 'c', '1/2', '1/2')]
    """
    results = list(results)
    order: dict[P, None] = dict.fromkeys(players)
    points: defaultdict[P, Fraction] = defaultdict(Fraction)
    games: Counter[P] = Counter()
    scored: list[tuple[GameResult[P] | TableResult[P], dict[P, Fraction]]] = []
    for result in results:
        if isinstance(result, TableResult) and result.place_points is None and place_points:
            table = place_points.get(len(result.places))
            if table is not None:
                result = TableResult(result.places, tuple(Fraction(p) for p in table))
        these = {player: result.points_of(player) for player in result.players}
        scored.append((result, these))
        for player, got in these.items():
            order.setdefault(player, None)
            points[player] += got
            games[player] += 1
    buchholz: defaultdict[P, Fraction] = defaultdict(Fraction)
    berger: defaultdict[P, Fraction] = defaultdict(Fraction)
    for result, these in scored:
        if isinstance(result, GameResult) and result.second is None:
            buchholz[result.first] += points[result.first]
            berger[result.first] += points[result.first] * result.first_points
            continue
        for player, mate in itertools.permutations(these, 2):
            buchholz[player] += points[mate]
            if these[player] > these[mate]:
                berger[player] += points[mate]
            elif these[player] == these[mate]:
                berger[player] += points[mate] / 2
    position = {player: index for index, player in enumerate(order)}

    def key(player: P) -> tuple[Fraction, Fraction, Fraction]:
        return (-Fraction(points[player]), -Fraction(buchholz[player]), -Fraction(berger[player]))

    rows: list[StandingRow[P]] = []
    for index, player in enumerate(sorted(order, key=lambda p: (key(p), position[p]))):
        rank = rows[-1].rank if rows and key(rows[-1].player) == key(player) else index + 1
        rows.append(
            StandingRow(
                rank=rank,
                player=player,
                points=Fraction(points[player]),
                buchholz=Fraction(buchholz[player]),
                sonneborn_berger=Fraction(berger[player]),
                games=games[player],
            )
        )
    return rows
