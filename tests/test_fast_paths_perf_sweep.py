"""The fast paths of pass 7g (a fresh profile) give what the general code gives.

Each test compares a shortcut with the general path it replaced, on every mask, region
list or position of seeded random games with the official rules, every folder of test
rule files and every expansion.
"""

from __future__ import annotations

import copy
import pickle
import random
from pathlib import Path
from typing import Any

import attrs
import pytest
from helpers import random_positions, rule_sets, rules_and_players

import smallworld_rules as sw
from smallworld_rules.engine.basics import _bits
from smallworld_rules.events import EVENT_TYPES
from smallworld_rules.state import Phase

RULE_SETS = rule_sets()


def _bits_one_by_one(mask: int) -> tuple[int, ...]:
    """The set bits of ``mask``, lowest first, taken off one at a time (the general way)."""
    found = []
    while mask:
        low = mask & -mask
        mask ^= low
        found.append(low.bit_length() - 1)
    return tuple(found)


def test_bits_by_byte_tables_are_the_set_bits() -> None:
    """A region mask's regions (bit i set: region i) are read a byte at a time from
    tables: they are the mask's set bits in id order for every width, from none up to
    masks wider than any map (tables added as a wider mask first comes)."""
    rng = random.Random(7)
    masks = [0, 1, 255, 256, (1 << 64) - 1, 1 << 64, 1 << 200]
    masks += [rng.getrandbits(rng.randrange(1, 260)) for _ in range(3000)]
    for mask in masks:
        assert _bits(mask) == _bits_one_by_one(mask), bin(mask)


@RULE_SETS
def test_regions_of_masks_in_games_are_the_set_bits(how: dict[str, object]) -> None:
    """Rule 1.7 asks which regions a race holds and which it may reach: every mask the
    engine keeps the regions of (its races' regions, their reach, where a modifier
    applies) over seeded games lists exactly that mask's regions, in id order."""
    rules, players = rules_and_players(how)
    checked = 0
    engines = {id(game._engine): game._engine for game in random_positions(rules, 6, players)}
    for engine in engines.values():
        for mask, regions in engine._mask_regions.items():
            assert regions == _bits_one_by_one(mask)
            checked += 1
        for mask, (regions, same, *_) in engine._by_mask.items():
            assert same == mask and regions == _bits_one_by_one(mask)
            checked += 1
    assert checked > 100


@RULE_SETS
def test_own_race_copies_every_field_once_per_state(how: dict[str, object]) -> None:
    """A race banner changed by an action is the banner of the position before it, copied
    once for the new position (copied slot by slot where it is asked for, not through
    its constructor): every saved field equal, the old banner unchanged, the copy the
    state's own; a state's full copy owns a copy of every banner."""
    rules, players = rules_and_players(how)
    checked = 0
    for game in random_positions(rules, 4, players):
        state = game._state
        fork = state.fork()
        for race, rs in state.races.items():
            before = rs.to_dict()
            own = fork.own_race(race)
            assert own is not rs and own.gen == fork.gen and rs.to_dict() == before
            assert own.to_dict() == before and fork.own_race(race) is own
            assert rs.uses is own.uses and state.races[race] is rs
            checked += 1
        copy = state.copy()
        assert all(
            copy.races[r] is not rs
            and copy.races[r].gen == copy.gen
            and copy.races[r].to_dict() == rs.to_dict()
            for r, rs in state.races.items()
        )
    assert checked > 500


@RULE_SETS
def test_one_flag_for_the_reach_and_cost_extras_is_their_union(how: dict[str, object]) -> None:
    """Rule 1.7's reach and costs skip, with one test each, what no rule file of the game
    has (regions immune by rule, regions kept out after an abandonment, face-down pieces;
    defence modifiers, regions shielded from powers, discounts): the flag is set exactly
    when one of them is there, once every badge a race may borrow has lent its features.
    (What the listing does with them: tests/test_fast_paths_perf_legal.py.)"""
    rules, players = rules_and_players(how)
    for n in players:
        engine = sw.Game.new(players=n, seed=0, rules=rules)._engine
        barred = bool(engine._immunizing or engine.keeps_out or engine._hiding)
        assert engine._reach_barred == barred
        by_region = "defence" in engine.hooks_used or engine._shielding or engine._discounting
        assert engine._costs_by_region == bool(by_region)


@pytest.mark.parametrize("cls", list(EVENT_TYPES.values()), ids=lambda c: c.__name__)
def test_events_made_directly_are_those_the_class_makes(cls: type[Any]) -> None:
    """A log event made by its class's direct constructor (``_make``, no ``type.__call__``)
    is the event the class itself makes from the same fields, by position or with its
    defaults: same type, equal, same repr, hash and JSON form, frozen, copied and pickled
    to equal events; too many or too few fields are refused alike."""
    fields = attrs.fields(cls)
    values = [(f"v{i}",) if "tuple" in str(f.type) else i + 1 for i, f in enumerate(fields)]
    required = [v for f, v in zip(fields, values, strict=True) if f.default is attrs.NOTHING]
    for given in (values, required):
        made, direct = cls(*given), cls._make(*given)
        assert type(direct) is cls and direct == made and repr(direct) == repr(made)
        assert hash(direct) == hash(made) and direct.to_dict() == made.to_dict()
        assert copy.copy(direct) == made and pickle.loads(pickle.dumps(direct)) == made
        with pytest.raises(attrs.exceptions.FrozenInstanceError):
            setattr(direct, fields[0].name, values[0])
    with pytest.raises(TypeError):
        cls._make(*values, "one too many")
    if required:
        with pytest.raises(TypeError):
            cls._make(*required[:-1])


@RULE_SETS
def test_events_of_games_made_directly_read_back_equal(how: dict[str, object]) -> None:
    """The log of seeded games (the conquests, abandonments, lost tokens and first turn
    made by the direct constructors) holds events equal to those their class makes from
    their fields, and a saved game's log reads back equal."""
    rules, players = rules_and_players(how)
    kinds: set[str] = set()
    for count in players[:2]:
        game = sw.Game.new(players=count, seed=count + 10, rules=rules)
        choose = random.Random(count)
        while not game.is_over:
            options = list(game.legal_actions())
            game.apply(options[choose.randrange(len(options))])
        for event in game.log:
            values = [getattr(event, f.name) for f in attrs.fields(type(event))]
            assert event == type(event)(*values) and type(event)(*values) == event
            kinds.add(type(event).__name__)
        assert sw.Game.from_json(game.to_json(), rules=rules).log == game.log
    assert {"Conquered", "TurnStarted"} <= kinds


SETTERS = """
power setters "Setters" {
    tokens 4
    text "Forests cost you 3 tokens, coastal regions 1, Hills 5 fewer (but always at least 1)."
    conquest_cost set 3 when terrain forest
    conquest_cost set 1 when coastal
    conquest_cost sub 5 when terrain hill
}
"""


@pytest.mark.parametrize("more", [[], ["rules_cost"]], ids=["official", "with_discounts"])
def test_conquest_costs_with_set_modifiers_are_the_breakdowns(
    tmp_path: Path, more: list[str]
) -> None:
    """Rule 1.7's cost, changed by modifiers that set it (the lowest of those that apply
    wins) and one that takes more than it is off (a cost is at least 1): the costs the
    listing uses are, region by region and in order, each breakdown's value, for every race
    in play on the conquest positions of seeded games where a race carries those powers;
    also where discounts make every cost be worked out region by region."""
    (tmp_path / "setters.swr").write_text(SETTERS)
    rules = sw.load_rules(paths=[tmp_path, *(Path(__file__).parent / m for m in more)])
    checked = 0
    for seed in range(8):
        race = sorted(rules.races)[seed % len(rules.races)]
        game = sw.Game.new(players=2 + seed % 3, seed=seed, rules=rules, combos=[(race, "setters")])
        choose = random.Random(seed)
        while not game.is_over:
            engine, state = game._engine, game._state
            if state.phase is Phase.CONQUEST:
                for who in state.races:
                    costs = engine.conquest_costs(state, who, engine.map.all_mask)
                    expected = [engine.conquest_cost(state, who, r).value for r in costs]
                    assert list(costs) == list(range(engine.n))
                    assert list(costs.values()) == expected
                    checked += 1
            options = list(game.legal_actions())
            game.apply(options[choose.randrange(len(options))])
    assert checked > 100
