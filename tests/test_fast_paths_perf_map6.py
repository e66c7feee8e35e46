"""The fast paths of pass 10d (the listing's cost on the larger maps) give what the general
path gives: ``action_problem`` from its table of field kinds against the check field by
field it replaced; ``_bits`` without a loop up to 48 regions against the bits one by
one; the rows of Deploys made for a new count against ``_shared``'s instances; and, on the
positions of seeded games of every rule set, the actions listed as well formed, the
Deploy rows and the regions kept per mask."""

from __future__ import annotations

import itertools
import random
from typing import Any

import attrs
from helpers import playing_positions, rule_sets

import smallworld_rules as sw
from smallworld_rules import actions
from smallworld_rules.actions import ACTION_TYPES, Conquer, Deploy, Purchase, action_problem
from smallworld_rules.engine import basics
from smallworld_rules.errors import excerpt

RULE_SETS = rule_sets(each_box=True)


def _general_problem(action: object) -> str | None:
    """Why ``action`` is not well formed, worked out field by field from its class's attrs
    fields and the names of the integer and string fields (the check the table replaced)."""
    cls = ACTION_TYPES.get(type(action).__name__)
    if cls is None or type(action) is not cls:
        return f"not an action: {excerpt(action)}"
    for field in attrs.fields(cls):
        name = field.name
        value = getattr(action, name)
        if name in ("region", "index", "count", "face"):
            if not isinstance(value, int) or isinstance(value, bool):
                return f"{cls.__name__}.{name} must be an integer, not {excerpt(value)}"
        elif name in ("name", "power", "item", "kind") and not isinstance(value, str):
            if name == "power" and cls is Purchase and value is None:
                continue
            return f"{cls.__name__}.{name} must be a string, not {excerpt(value)}"
        elif name == "target" and (
            isinstance(value, bool) or not isinstance(value, int | str | None)
        ):
            return (
                f"{cls.__name__}.target must be a region, player, id or None, "
                f"not {excerpt(value)}"
            )
    return None


class _Number(int):
    """An int subclass (accepted where an integer is wanted; a bool is not)."""


class _Text(str):
    """A str subclass."""


#: Field values of every kind an action may be handed by a caller
_VALUES: tuple[Any, ...] = (
    0, 7, -1, 1 << 70, True, False, _Number(3), "Forest", "", _Text("x"), None, 2.0,
    [1], (1,), {"a": 1}, b"x",
)


def _made(cls: type[Any], values: tuple[Any, ...]) -> object:
    """An instance of the action class ``cls`` with these field values, whatever their
    types (attrs classes check none; set past the frozen guard)."""
    action = object.__new__(cls)
    for field, value in zip(attrs.fields(cls), values, strict=True):
        object.__setattr__(action, field.name, value)
    return action


def test_action_problem_is_the_field_by_field_check() -> None:
    """An action handed to the game must be one of the action classes, with an integer
    region, index, count or face, a string name, power, item or kind (a purchase's power
    may be missing), and a region, player, id or nothing as a target. For every action
    class and every combination of field values of many types (ints, booleans, an int
    and a str subclass, strings, None, floats, containers), and for objects that are no
    action (a subclass, a class of another module with an action's name, plain values),
    ``action_problem`` gives the very answer of the check field by field."""
    checked = 0
    for cls in ACTION_TYPES.values():
        width = len(attrs.fields(cls))
        for values in itertools.product(_VALUES, repeat=width):
            action = _made(cls, values)
            assert action_problem(action) == _general_problem(action), (cls, values)
            checked += 1

    class Sub(Conquer):
        pass

    lookalike = type("Conquer", (), {"region": 1})()
    for other in (Sub(2), lookalike, 3, "Conquer", None, Conquer):
        assert action_problem(other) == _general_problem(other)
        assert action_problem(other) is not None
    assert checked > 800
    assert actions._FIELD_KINDS.keys() == set(ACTION_TYPES.values())


def _set_bits(mask: int) -> tuple[int, ...]:
    """The set bits of ``mask``, one by one, lowest first."""
    return tuple(i for i in range(mask.bit_length()) if (mask >> i) & 1)


def test_bits_without_a_loop_are_the_set_bits() -> None:
    """``_bits`` reads masks up to 24 bits as two chunks, up to 48 as two halves of two
    chunks (the upper alone when the lower is empty), wider ones chunk by chunk. Around
    every boundary (one bit, low runs, the halves' edges at 24 and 48 bits), for random
    masks of every width up to 100 bits, and with the chunk tables made afresh in any
    order (a first mask of each width), it gives the set bits one by one."""
    rng = random.Random(10)
    widths = [0, 1, 11, 12, 13, 23, 24, 25, 30, 31, 36, 47, 48, 49, 60, 61, 100]
    masks = [0, (1 << 24) - 1, 1 << 24, (1 << 48) - 1, 1 << 48, (1 << 47) | 1]
    masks += [1 << i for i in range(100)] + [(1 << i) - 1 for i in range(100)]
    masks += [
        rng.getrandbits(w) << shift for w in widths for shift in (0, 24, 36) for _ in range(40)
    ]
    saved = list(basics._CHUNK_BITS)
    try:
        for first in (0, 1 << 30, (1 << 40) | 1, 1 << 60, 5):
            basics._CHUNK_BITS.clear()  # the tables made again, from this first mask on
            for mask in [first, *masks]:
                assert basics._bits(mask) == _set_bits(mask), (first, mask)
    finally:
        basics._CHUNK_BITS[:] = saved


def test_deploy_rows_are_the_shared_well_formed_deploys() -> None:
    """Placing tokens names a region and a count (rule 1.10's redeployment): the row of
    ``Deploy(r, count)`` the listing makes for a new count on every region of the
    largest map is, region by region, the shared instance ``_shared`` gives (the same
    object, whichever of the two made it first), equal to ``Deploy(r, count)``, well
    formed by ``action_problem`` and known so (``apply`` skips its check)."""
    n = 48
    for count in (2, 5, 17, 31, 97):
        # for odd counts some made by _shared first: the row reuses them
        every_third = range(0, n, 3) if count % 2 else range(0)
        before = {r: basics._shared(Deploy, r, count) for r in every_third}
        row = basics._region_deploys(n, count)
        assert len(row) == n
        for r, action in enumerate(row):
            assert action == Deploy(r, count)
            assert type(action) is Deploy
            assert basics._shared(Deploy, r, count) is action
            assert before.get(r, action) is action
            assert action_problem(action) is None
            assert id(action) in basics._WELL_FORMED
        assert basics._region_deploys(n, count) == row


@RULE_SETS
def test_listings_name_kept_regions_and_shared_deploys(how: dict[str, Any]) -> None:
    """Rule 1.7 and 1.10: a race conquers next to its regions and redeploys on them, so
    the listing reads the regions of masks (its own, its reach) and hands out a Deploy
    per region and count. On every position of seeded games (the official rules at 2 to
    5 players, every folder of test rule files, each box alone and every box together),
    each action listed that ``apply`` takes as well formed without a check is well
    formed; after the games each Deploy row the engine made for a count is, region by
    region, the shared instance of ``Deploy(r, count)``, and every region list it kept
    for a mask (a race's regions, a reach) is that mask's regions one by one."""
    rules = sw.load_rules(**how)
    listed = 0
    engines = set()
    for game in playing_positions(rules, 3):
        engines.add(game._engine)
        for action in game.legal_actions():
            if id(action) in basics._WELL_FORMED:
                assert action_problem(action) is None, action
                listed += 1
    assert listed
    kept = 0
    for engine in engines:
        for count, row in engine._all_deploys.items():
            assert len(row) == engine.n
            for r, action in enumerate(row):
                assert basics._shared(Deploy, r, count) is action
                assert action == Deploy(r, count) and id(action) in basics._WELL_FORMED
        for mask, entry in engine._by_mask.items():
            assert entry[0] == _set_bits(mask) and entry[1] == mask
            kept += 1
        for mask, regions in engine._mask_regions.items():
            assert regions == _set_bits(mask)
            kept += 1
    assert kept
    assert any(engine._all_deploys for engine in engines)
