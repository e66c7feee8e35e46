"""``quick_init`` and ``quick_new``: the fast constructors of the breakdown parts and of the
log events behave exactly as the ``__init__`` attrs writes (events are frozen, typed
values)."""

from __future__ import annotations

import inspect
from typing import Any

import attrs
import pytest

from smallworld_rules.events import EVENT_TYPES, Deployed, TurnStarted, event_from_dict
from smallworld_rules.frozen import quick_init
from smallworld_rules.hooks import Breakdown, Contribution

FAST = [*EVENT_TYPES.values(), Contribution, Breakdown]


def sample(cls: type[Any]) -> list[Any]:
    """A value of the right kind for every field (distinct, so a swap would show)."""
    values: list[Any] = []
    for i, field in enumerate(attrs.fields(cls)):
        kind = str(field.type)
        if "tuple" in kind:
            values.append((f"v{i}",))
        elif "str" in kind and "int" not in kind:
            values.append(f"v{i}")
        else:
            values.append(i + 1)
    return values


@pytest.mark.parametrize("cls", FAST, ids=lambda c: c.__name__)
def test_the_fast_init_takes_the_fields_in_order_with_their_defaults(cls: type[Any]) -> None:
    params = list(inspect.signature(cls).parameters.values())
    fields = attrs.fields(cls)
    assert [p.name for p in params] == [f.name for f in fields]
    for p, f in zip(params, fields, strict=True):
        assert p.default == (inspect.Parameter.empty if f.default is attrs.NOTHING else f.default)
    values = sample(cls)
    by_position = cls(*values)
    by_name = cls(**{f.name: v for f, v in zip(fields, values, strict=True)})
    assert by_position == by_name and hash(by_position) == hash(by_name)
    assert [getattr(by_position, f.name) for f in fields] == values
    assert attrs.evolve(by_position) == by_position
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        setattr(by_position, fields[0].name, values[0])
    with pytest.raises(TypeError):
        cls(*values, "one too many")
    with pytest.raises(TypeError):
        cls(**{"no_such_field": 1})


def test_defaults_and_the_json_round_trip_are_unchanged() -> None:
    assert TurnStarted(1, 0) == TurnStarted(round=1, player=0, readied=0)
    assert Breakdown(3, 3).contributions == () and Breakdown(3, 3).clamped_from is None
    event = Deployed(1, "ratmen", 4, 2)
    assert event_from_dict(event.to_dict()) == event
    assert repr(event) == "Deployed(player=1, race='ratmen', region=4, count=2)"


def test_it_is_the_same_as_attrs_own_init_on_a_fresh_class() -> None:
    def make() -> type[Any]:
        @attrs.frozen
        class Probe:
            a: int
            b: str
            c: tuple[int, ...] = ()
            d: int | None = None

        return Probe

    plain, fast = make(), quick_init(make())
    for args, kwargs in [((1, "x"), {}), ((1, "x", (2,)), {"d": 4}), ((), {"a": 0, "b": ""})]:
        assert attrs.asdict(plain(*args, **kwargs)) == attrs.asdict(fast(*args, **kwargs))
    for bad_args, bad_kwargs in [((), {}), ((1,), {"a": 1, "b": "x"}), ((1, "x"), {"e": 0})]:
        with pytest.raises(TypeError):
            plain(*bad_args, **bad_kwargs)
        with pytest.raises(TypeError):
            fast(*bad_args, **bad_kwargs)


def test_it_refuses_fields_it_could_not_build_the_same() -> None:
    @attrs.frozen
    class Checked:
        a: int = attrs.field(validator=attrs.validators.instance_of(int))

    @attrs.frozen
    class Converted:
        a: int = attrs.field(converter=int)

    @attrs.frozen
    class Made:
        a: list[int] = attrs.field(factory=list)

    @attrs.frozen
    class KeywordOnly:
        a: int = attrs.field(kw_only=True)

    for cls in (Checked, Converted, Made, KeywordOnly):
        with pytest.raises(TypeError, match="quick_init cannot build"):
            quick_init(cls)
