"""A game as JSON data and back: the stored state (``to_dict``/``from_dict``) and a game rebuilt
from one player's view (``from_view``). The fields stored are declared once, in :data:`FIELDS`.

Reading and writing the rules is most of the cost of a round trip, and a server reads the same
few rule sets over and over: both are remembered (:func:`rules_of`, :func:`rules_json`).
"""

from __future__ import annotations

from collections.abc import Callable
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


#: Everything ``to_dict`` stores besides the rules, in its order, with how a value is copied (the
#: values are JSON data of one level or two: copied level by level, never deep-copied).
FIELDS: Final[tuple[tuple[str, Callable[[Any], Any]], ...]] = (
    ("players", _same),
    ("dealer", _same),
    ("hands", _lists),
    ("stock", list),
    ("trump", _same),
    ("trump_card", _same),
    ("discard", list),
    ("table", _lists),
    ("attacker", _same),
    ("defender", _same),
    ("taking", _same),
    ("passed", sorted),
    ("limit", _same),
    ("bouts", _same),
    ("defended", _same),
    ("finished", list),
    ("over", _same),
    ("loser", _same),
    ("losing_team", _same),
    ("last_bout", _dict_or_none),
    ("shown_trump", _same),
    ("timeouts", list),
    ("end", _dict_or_none),
    ("direction", _same),
    ("slot", _same),
    ("named", dict),
    ("transfer_blocked", _same),
    ("closed", _same),
    ("king_defended", _same),
    ("may_reverse", _same),
)
#: The stored fields that belong to the running bout (:class:`durak.bout.Bout`).
BOUT_FIELDS: Final = frozenset(
    {"table", "taking", "passed", "limit", "named", "transfer_blocked", "closed", "king_defended"}
)
#: Stored fields a view shows under another name, or not at all (the hidden cards).
_VIEW_NAMES: Final = {"discard": "discarded", "named": "named_suits"}
_HIDDEN: Final = frozenset({"hands", "stock"})

_READ: dict[tuple[Any, ...], Rules] = {}
_WRITTEN: dict[tuple[int, bool], tuple[Rules, dict[str, Any]]] = {}
_REMEMBERED: Final = 256


def rules_of(data: dict[str, Any]) -> Rules:
    """``Rules.from_dict(data)``, remembered for the rule sets read before."""
    key = tuple((name, tuple(value) if isinstance(value, list) else value) for name, value in data.items())
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
    for name, copy in FIELDS:
        data[name] = copy(getattr(bout if name in BOUT_FIELDS else position, name))
    if position.state_format != 1:
        data["format"] = position.state_format
    if position.state_format != 1 or position.auto_pass:
        data["auto_pass"] = sorted(position.auto_pass)
    return data


def load(position: Position, data: dict[str, Any]) -> None:
    """Set ``position`` (new, of the stored rules, players and dealer) to the stored state ``data``."""
    bout = Bout()
    for name, copy in FIELDS:
        if name in BOUT_FIELDS:
            setattr(bout, name, copy(data[name]))
        else:
            setattr(position, name, copy(data[name]))
    bout.passed = set(data["passed"])
    position.bout = bout
    position.auto_pass = set(data.get("auto_pass", ()))
    position.set_trump(data["trump"])
    position.recount()


def load_view(position: Position, view: dict[str, Any], hands: list[list[str]], stock: list[str]) -> None:
    """Set ``position`` (new, of the view's rules, players and dealer) to the public state of
    ``view`` with ``hands`` and ``stock`` as the guess of the hidden cards."""
    bout = Bout()
    for name, copy in FIELDS:
        if name in _HIDDEN:
            continue
        key = _VIEW_NAMES.get(name, name)
        if name == "trump_card" or key not in view:
            continue
        setattr(bout if name in BOUT_FIELDS else position, name, copy(view[key]))
    bout.passed = set(view["passed"])
    position.bout = bout
    position.hands = [list(hand) for hand in hands]
    position.stock = list(stock)
    position.trump_card = view["trump_card"]
    position.auto_pass = set(view["auto_pass"])
    position.set_trump(view["trump"])
    position.recount()
