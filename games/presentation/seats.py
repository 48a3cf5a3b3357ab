"""The seats around the table: each player's name, role, cards left and team, in play order,
and the line that says who plays with whom."""

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext

import durak

from .. import words


@dataclass
class Player:
    position: int
    name: str
    is_me: bool
    hand_size: int
    role: str  # "attacker", "defender" or ""
    out: bool
    waited_for: bool
    team: int | None = None  # 0 or 1 in a team game (durak.Game.team_of)
    partner: bool = False  # in my team, not me
    auto_pass: bool = False  # asked not to be waited for to throw in (public: view["auto_pass"])
    #: A person's reliability (``User.reliability``: a percent, None while new); None for a
    #: computer too, told apart by ``person``.
    reliability: int | None = None
    person: bool = False
    #: The viewer's own private note about this player (``accounts.relations.notes_by``): only
    #: ever given for a seated viewer's own notes.
    note: str = ""

    @property
    def reliability_label(self) -> str:
        """ "96%", or "new" for a person with too few games; "" for a computer."""
        if not self.person:
            return ""
        if self.reliability is None:
            return pgettext("reliability of a player with few games", "new")
        return _("%(percent)d%%") % {"percent": self.reliability}

    @property
    def team_name(self) -> str:
        return words.TEAM_WORDS[self.team]() if self.team is not None else ""

    @property
    def role_label(self) -> str:
        """The marker beside the name: "attacks" / "defends"."""
        if self.role == "attacker":
            return pgettext("role marker", "attacks")
        if self.role == "defender":
            return pgettext("role marker", "defends")
        return ""

    @property
    def count_label(self) -> str:
        if self.out:
            return pgettext("a player who has no cards left", "out")
        return ngettext("%(count)d card", "%(count)d cards", self.hand_size) % {"count": self.hand_size}


def _role(view: dict[str, Any], position: int) -> str:
    if position == view.get("attacker"):
        return "attacker"
    if position == view.get("defender"):
        return "defender"
    return ""


def players(
    view: dict[str, Any],
    me: int | None,
    names: dict[int, str],
    engine: durak.Game | None,
    *,
    reliability: Mapping[int, int | None] | None = None,
    notes: Mapping[int, str] | None = None,
) -> list[Player]:
    """Every seat, in seat order; ``engine`` (``engine.game_of``) answers whose team each is in.
    ``reliability``: the people's, by seat (computers absent); ``notes``: the viewer's own."""
    reliability = reliability or {}
    notes = notes or {}

    def team_of(position: int | None) -> int | None:
        return engine.team_of(position) if engine is not None and position is not None else None

    my_team = team_of(me)
    over = bool(view.get("over"))
    finished, waiting = set(view.get("finished") or []), set(view.get("waiting_for") or [])
    auto_pass = set(view.get("auto_pass") or [])
    return [
        Player(
            position=position,
            name=words.seat_word(position, me=me, names=names),
            is_me=position == me,
            hand_size=size,
            role=_role(view, position),
            out=position in finished,
            waited_for=position in waiting and not over,
            team=team_of(position),
            partner=position != me and my_team is not None and team_of(position) == my_team,
            auto_pass=position in auto_pass and not over,
            reliability=reliability.get(position),
            person=position in reliability,
            note=notes.get(position, "") if position != me else "",
        )
        for position, size in enumerate(view.get("hand_sizes") or [])
    ]


def opponents(seated: list[Player], me: int | None) -> list[Player]:
    """The others in play order, starting left of me (a spectator: from the first seat)."""
    start = 0 if me is None else me + 1
    in_order = [seated[(start + i) % len(seated)] for i in range(len(seated))]
    return [player for player in in_order if not player.is_me]


def team_line(engine: durak.Game | None, me: int | None, names: dict[int, str]) -> str:
    """Who plays with whom: "You play in team A with clara." (a spectator: each team's players)."""
    teams = engine.teams if engine is not None else None
    if engine is None or not teams:
        return ""
    my_team = engine.team_of(me) if me is not None else None
    if my_team is not None:
        partners = [words.seat_word(p, me=me, names=names) for p in teams[my_team] if p != me]
        return _("You play in %(team)s with %(names)s.") % {
            "team": words.TEAM_WORDS[my_team](),
            "names": words.join_names(partners),
        }
    return (
        "; ".join(
            _("%(team)s: %(names)s")
            % {
                "team": words.capfirst(words.TEAM_WORDS[index]()),
                "names": words.join_names([words.seat_word(p, me=me, names=names) for p in team]),
            }
            for index, team in enumerate(teams)
        )
        + "."
    )
