"""Actions: frozen, hashable, JSON-serialisable values handed to :meth:`Game.apply`.

>>> from smallworld_rules.actions import Conquer, action_from_dict
>>> Conquer(3).to_dict()
{'type': 'Conquer', 'region': 3}
>>> action_from_dict({'type': 'Conquer', 'region': 3}) == Conquer(3)
True
"""

from __future__ import annotations

from typing import Any

import attrs

from smallworld_rules.errors import RulesError, excerpt


class _ActionBase:
    """Shared behaviour of every action."""

    __slots__ = ()

    def to_dict(self) -> dict[str, Any]:
        """The JSON form: ``{"type": name, **fields}``."""
        return {"type": type(self).__name__, **attrs.asdict(self)}  # type: ignore[arg-type]


@attrs.frozen
class PickCombo(_ActionBase):
    """Take the race/power combo at ``index`` of the market (0 = top, free)."""

    index: int


@attrs.frozen
class Decline(_ActionBase):
    """Put the active race into decline (instead of expanding, or where a power allows)."""


@attrs.frozen
class Abandon(_ActionBase):
    """Empty one of your active race's regions before your first conquest of the turn."""

    region: int


@attrs.frozen
class Conquer(_ActionBase):
    """Conquer ``region`` with tokens from hand (its full cost)."""

    region: int


@attrs.frozen
class ConquerWithDie(_ActionBase):
    """The final conquest attempt: name the region, then roll the reinforcement die."""

    region: int


@attrs.frozen
class Deploy(_ActionBase):
    """Place ``count`` tokens from hand in ``region`` (redeployment or withdrawal)."""

    region: int
    count: int


@attrs.frozen
class UseAbility(_ActionBase):
    """Use an ability named in a rule file; ``target`` is a region, player or power id."""

    name: str
    target: int | str | None = None


@attrs.frozen
class RollDie(_ActionBase):
    """A chance outcome: the reinforcement die shows ``face``."""

    face: int


@attrs.frozen
class DrawPiece(_ActionBase):
    """A chance outcome: the face-down piece ``kind`` comes out of the bag (a rule file's
    ``draw`` with ``chance="explicit"``)."""

    kind: str


@attrs.frozen
class EndTurn(_ActionBase):
    """End the turn once nothing is left to place."""


@attrs.frozen
class ChoosePower(_ActionBase):
    """A role activates one of the powers drafted for it at the start (its ``draft``)."""

    power: str


@attrs.frozen
class Purchase(_ActionBase):
    """A role buys, in its turn: ``item`` ``"token"`` (one from its reserve into its hand
    zone) or ``"power"`` (activates ``power``, one of its reserved powers)."""

    item: str
    power: str | None = None


Action = (
    PickCombo | Decline | Abandon | Conquer | ConquerWithDie | Deploy | UseAbility | RollDie
    | EndTurn | ChoosePower | Purchase | DrawPiece
)
ACTION_TYPES: dict[str, type[Any]] = {
    cls.__name__: cls
    for cls in (
        PickCombo, Decline, Abandon, Conquer, ConquerWithDie, Deploy, UseAbility, RollDie, EndTurn,
        ChoosePower, Purchase, DrawPiece,
    )
}


_INT_FIELDS = frozenset({"region", "index", "count", "face"})
_STR_FIELDS = frozenset({"name", "power", "item", "kind"})
def _field_kind(cls: type[Any], name: str) -> str:
    """What action_problem checks of a field: "int", "str", "str?" (a string or None: a
    Purchase's power), "target", or "" (nothing)."""
    if name in _INT_FIELDS:
        return "int"
    if name in _STR_FIELDS:
        return "str?" if name == "power" and cls is Purchase else "str"
    return "target" if name == "target" else ""


#: Each action class's fields with their kinds, in order (attrs.fields is too slow to call
#: for every action checked); keyed by the class itself, so that a class of another module
#: with an action's name is not an action.
_FIELD_KINDS: dict[type[Any], tuple[tuple[str, str], ...]] = {
    cls: tuple((f.name, _field_kind(cls, f.name)) for f in attrs.fields(cls))
    for cls in ACTION_TYPES.values()
}


def action_problem(action: object) -> str | None:
    """Why ``action`` is not a well-formed action (wrong class or field types), or ``None``."""
    cls = type(action)
    kinds = _FIELD_KINDS.get(cls)
    if kinds is None:
        return f"not an action: {excerpt(action)}"
    for name, kind in kinds:
        value = getattr(action, name)
        if type(value) is int:  # the common case first (a bool's type is bool, not int)
            if kind == "int" or kind == "target":
                continue
        elif kind == "int":
            if isinstance(value, int) and not isinstance(value, bool):
                continue  # an int subclass
            return f"{cls.__name__}.{name} must be an integer, not {excerpt(value)}"
        if kind == "str" or kind == "str?":
            if isinstance(value, str) or (value is None and kind == "str?"):
                continue
            return f"{cls.__name__}.{name} must be a string, not {excerpt(value)}"
        if kind == "target" and (
            isinstance(value, bool) or not isinstance(value, int | str | None)
        ):
            return (
                f"{cls.__name__}.target must be a region, player, id or None, "
                f"not {excerpt(value)}"
            )
    return None


def action_from_dict(data: Any) -> Action:
    """Rebuild an action from :func:`action_to_dict` output.

    Raises:
        RulesError: unknown type or wrong fields.
    """
    if not isinstance(data, dict) or not isinstance(data.get("type"), str) or (
        data["type"] not in ACTION_TYPES
    ):
        raise RulesError(f"not an action: {excerpt(data)}")
    cls = ACTION_TYPES[data["type"]]
    fields = {k: v for k, v in data.items() if k != "type"}
    names = {f.name for f in attrs.fields(cls)}
    if set(fields) - names:
        unknown = sorted(set(fields) - names)
        raise RulesError(f"{data['type']} has no field(s) {excerpt(unknown)}")
    try:
        action: Action = cls(**fields)
    except TypeError as exc:
        raise RulesError(f"bad action {excerpt(data)}: {exc}") from None
    problem = action_problem(action)
    if problem:
        raise RulesError(problem)
    return action
