"""A game as JSON data and back: the stored state (``to_dict``/``from_dict``) and a game rebuilt
from one player's view (``from_view``). The fields stored are declared once, in :data:`FIELDS`.

Reading and writing the rules is most of the cost of a round trip, and a server reads the same
few rule sets over and over: both are remembered (:func:`rules_of`, :func:`rules_json`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final

from durak.bout import Bout
from durak.rules import Rules
from durak.state import Position


def _same(value: Any) -> Any:
    return value


def _lists(value: list[list[Any]]) -> list[list[Any]]:
    return [list(item) for item in value]


def _dict_or_none(value: dict[str, Any] | None) -> dict[str, Any] | None:
    return dict(value) if value is not None else None


@dataclass(frozen=True, slots=True)
class Stored:
    """One field of the stored state: its ``name``, how its value goes out to JSON (``out``) and
    back (``back``), copied level by level (the values are JSON of one level or two, never
    deep-copied); whether it belongs to the running :class:`~durak.bout.Bout` (``in_bout``);
    and how a view shows it: under ``seen_as`` (by default its name), or not at all (``hidden``:
    the cards nobody may see, and what a view leaves out)."""

    name: str
    out: Callable[[Any], Any] = _same
    back: Callable[[Any], Any] = _same
    in_bout: bool = False
    seen_as: str = ""
    hidden: bool = False


#: Everything ``to_dict`` stores besides the rules, in its order.
FIELDS: Final = (
    Stored("players"),
    Stored("dealer"),
    Stored("hands", _lists, _lists, hidden=True),
    Stored("stock", list, list, hidden=True),
    Stored("trump"),
    Stored("trump_card"),  # a view's is the face-up card: the same while the stock lasts
    Stored("discard", list, list, seen_as="discarded"),
    Stored("table", _lists, _lists, in_bout=True),
    Stored("attacker"),
    Stored("defender"),
    Stored("taking", in_bout=True),
    Stored("passed", sorted, set, in_bout=True),
    Stored("limit", in_bout=True),
    Stored("bouts"),
    Stored("defended"),
    Stored("finished", list, list),
    Stored("over"),
    Stored("loser"),
    Stored("losing_team"),
    Stored("last_bout", _dict_or_none, _dict_or_none),
    Stored("shown_trump", hidden=True),  # public once, when it was shown; a view has no key for it
    Stored("timeouts", list, list),
    Stored("end", _dict_or_none, _dict_or_none),
    Stored("direction"),
    Stored("slot"),
    Stored("named", dict, dict, in_bout=True, seen_as="named_suits"),
    Stored("transfer_blocked", in_bout=True),
    Stored("closed", in_bout=True),
    Stored("king_defended", in_bout=True),
    Stored("may_reverse"),
)

_READ: dict[tuple[Any, ...], Rules] = {}
_WRITTEN: dict[tuple[int, bool], tuple[Rules, dict[str, Any]]] = {}
_REMEMBERED: Final = 256


def rules_of(data: dict[str, Any]) -> Rules:
    """``Rules.from_dict(data)``, remembered for the rule sets read before."""
    # The type too: True == 1 and 6.0 == 6, but Rules refuses what is not of its option's type.
    key = tuple(
        (name, type(value), tuple(value) if isinstance(value, list) else value)
        for name, value in data.items()
    )
    try:
        return _READ[key]
    except (KeyError, TypeError):  # TypeError: a value that is no JSON scalar, which from_dict refuses
        pass
    rules = Rules.from_dict(data)
    if len(_READ) >= _REMEMBERED:
        _READ.clear()
    _READ[key] = rules
    return rules


def rules_json(rules: Rules, *, stored: bool = False) -> dict[str, Any]:
    """``rules.to_dict(stored=stored)``, remembered for the rule sets written before (a fresh
    dict each time)."""
    known = _WRITTEN.get((id(rules), stored))
    if known is None or known[0] is not rules:
        if len(_WRITTEN) >= _REMEMBERED:
            _WRITTEN.clear()
        known = _WRITTEN[id(rules), stored] = (rules, rules.to_dict(stored=stored))
    data = dict(known[1])
    data["enchanted"] = list(data["enchanted"])
    return data


def to_dict(position: Position) -> dict[str, Any]:
    """The whole state as JSON data (see :meth:`durak.Game.to_dict`)."""
    data: dict[str, Any] = {"rules": rules_json(position.rules, stored=True)}
    bout = position.bout
    for field in FIELDS:
        data[field.name] = field.out(getattr(bout if field.in_bout else position, field.name))
    if position.state_format != 1:
        data["format"] = position.state_format
    if position.state_format != 1 or position.auto_pass:
        data["auto_pass"] = sorted(position.auto_pass)
    return data


def load(position: Position, data: dict[str, Any]) -> None:
    """Set ``position`` (new, of the stored rules, players and dealer) to the stored state ``data``."""
    bout = position.bout = Bout()
    for field in FIELDS:
        setattr(bout if field.in_bout else position, field.name, field.back(data[field.name]))
    position.auto_pass = set(data.get("auto_pass", ()))
    position.set_trump(data["trump"])
    position.recount()


def load_view(position: Position, view: dict[str, Any], hands: list[list[str]], stock: list[str]) -> None:
    """Set ``position`` (new, of the view's rules, players and dealer) to the public state of
    ``view`` with ``hands`` and ``stock`` as the guess of the hidden cards."""
    bout = position.bout = Bout()
    for field in FIELDS:
        key = field.seen_as or field.name
        if not field.hidden and key in view:
            setattr(bout if field.in_bout else position, field.name, field.back(view[key]))
    position.hands = [list(hand) for hand in hands]
    position.stock = list(stock)
    position.auto_pass = set(view["auto_pass"])
    position.set_trump(view["trump"])
    position.recount()
