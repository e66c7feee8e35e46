"""Bad input changes nothing: illegal actions and tampered saved games.

What each property guards ("illegal actions change nothing", ``apply``):

* ``test_any_action_is_legal_or_refused_atomically``: an arbitrary action built from the action
  classes of ``smallworld_rules.actions.ACTION_TYPES`` with arbitrary field values (in range,
  out of range, huge, negative, wrong types), a near miss of a legal action, or something that
  is no action at all, in a random position reached by legal play: either it is ``in``
  ``legal_actions()`` and applies (and ``undo`` restores the position), or ``apply`` raises
  ``IllegalAction`` with a non-empty reason and ``to_json`` and the log are unchanged — and
  then it is not ``in`` ``legal_actions()`` either.
* ``test_illegal_by_construction``: actions that a rule of the game forbids, derived from the
  position through the public API only — wrong phase (rule 1.4), wrong player (another player's
  region), an unreachable region (rule 1.7 adjacency), too few tokens (the cost from
  ``conquest_cost``), water without the ``enter_water`` flag (rule 1.7), an immune region (a piece
  declared ``immune``, here the test rule file's ``sanctum``), out-of-range indices and die
  faces (rule 1.1, rule 1.5) — are refused atomically with a reason.
* ``test_tampered_saved_game_is_refused_or_sound``: a saved game with one field damaged
  (negative or huge numbers, unknown race ids and regions, wrong types, missing or extra keys)
  is refused with ``RulesError`` within a second, never another exception; if it is accepted
  (the damage was harmless), the restored game is sound and playable.
* Scenario tests pin the categories down on set-up positions (an immune ``sanctum``, a Sea
  next to the race, a withdrawing defender), and regression tests keep the bugs this module
  found fixed: look-alike field values (``PickCombo(True)``) were ``in`` the legal actions but
  refused by ``apply``; unhashable JSON values where a saved game expects an id crashed
  ``from_json`` with a TypeError; a Stout race's end-of-turn ``Decline`` right after its pick
  was accepted by ``apply`` but not listed by ``legal_actions()``.

The positions come from the official rules plus tests/rules (for the immune piece), 2–5
players, both chance modes, random play of up to 150 actions with occasional ``put`` set-ups.
"""

from __future__ import annotations

import contextlib
import copy
import json
import random
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import attrs
import pytest
from helpers import budget
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import smallworld_rules as sw
from smallworld_rules.actions import ACTION_TYPES
from smallworld_rules.engine import DIE_FACES, Engine
from smallworld_rules.events import TurnEnded
from smallworld_rules.state import State

TEST_RULES = Path(__file__).parent / "rules"
INT_FIELDS = frozenset({"region", "index", "count", "face"})

BUDGETS: dict[str, dict[str, int]] = {
    "dev": {"arbitrary": 20, "constructed": 10, "tampered": 20},
    "ci": {"arbitrary": 60, "constructed": 50, "tampered": 50},
    "thorough": {"arbitrary": 3_000, "constructed": 2_000, "tampered": 2_000},
}


#: Actions (or damages) tried on each random position: positions cost more than tries.
ACTIONS_PER_POSITION = 6




_RULES: dict[str, sw.Rules] = {}


def rules() -> sw.Rules:
    """Official rules plus tests/rules (for the immune ``sanctum`` piece), loaded once."""
    if "rules" not in _RULES:
        _RULES["rules"] = sw.load_rules(paths=[TEST_RULES])
    return _RULES["rules"]


# --------------------------------------------------------------------------- positions


def random_action(game: sw.Game, rng: random.Random) -> sw.Action:
    if game.to_move == sw.CHANCE:
        outcomes = game.chance_outcomes()
        return rng.choices([a for a, _ in outcomes], weights=[p for _, p in outcomes])[0]
    return rng.choice(list(game.legal_actions()))


@st.composite
def positions(draw: st.DrawFn) -> sw.Game:
    """A game after some random legal actions; sometimes with set-up pieces and tokens."""
    players = draw(st.integers(2, 5), label="players")
    game = sw.Game.new(
        players=players,
        seed=draw(st.integers(0, 2**32), label="seed"),
        rules=rules(),
        chance=draw(st.sampled_from(["seeded", "explicit"]), label="chance"),
    )
    rng = random.Random(draw(st.integers(0, 2**32), label="play seed"))
    set_ups = draw(st.sampled_from([0.0, 0.0, 0.05, 0.2]), label="set-up rate")
    for _ in range(draw(st.integers(0, 150), label="actions")):
        if game.is_over:
            break
        game.apply(random_action(game, rng))
        if rng.random() < set_ups:
            set_up(game, rng)
    return game


def set_up(game: sw.Game, rng: random.Random) -> None:
    """Between turns, put tokens and a piece (some make their region immune) on a region."""
    n = len(game.map.regions)
    region = rng.randrange(n)
    pieces = {rng.choice(sorted(game.rules.pieces)): 1} if game.rules.pieces else None
    player = rng.choice([None, *range(game.players)])
    with contextlib.suppress(sw.RulesError):  # not between turns, a cap, water …
        game.put(region, player, rng.randint(1, 3), pieces=pieces)


# --------------------------------------------------------------------------- arbitrary actions

GARBAGE: list[Any] = [
    True, False, None, 1.0, 2.5, float("nan"), "1", "", "region", b"1", [1], (1,), {"a": 1},
    10**30, -(10**30), 2**63, -1,
]


def int_values(game: sw.Game) -> st.SearchStrategy[Any]:
    n = max(len(game.map.regions), 10)
    return st.one_of(
        st.integers(-2, n + 2),
        st.integers(-2, n + 2),
        st.integers(),
        st.sampled_from(GARBAGE),
    )


def name_values() -> st.SearchStrategy[Any]:
    return st.one_of(
        st.text(max_size=12),
        st.sampled_from(["dragon_attack", "convert", "berserk_roll", "fortify", "encamp",
                         "place_hero", "choose_ally", "choose_power", "buy_ghost", "buy_power"]),
        st.sampled_from(GARBAGE),
    )


def target_values(game: sw.Game) -> st.SearchStrategy[Any]:
    ids = sorted({*game.rules.races, *game.rules.powers})
    return st.one_of(st.none(), int_values(game), st.sampled_from(ids), st.text(max_size=8))


def built_actions(game: sw.Game) -> st.SearchStrategy[Any]:
    """Instances of the real action classes with arbitrary field values."""
    options = []
    for cls in ACTION_TYPES.values():
        kwargs: dict[str, st.SearchStrategy[Any]] = {}
        for f in attrs.fields(cls):
            if f.name in INT_FIELDS:
                kwargs[f.name] = int_values(game)
            elif f.name == "name":
                kwargs[f.name] = name_values()
            else:
                kwargs[f.name] = target_values(game)
        options.append(st.builds(cls, **kwargs))
    return st.one_of(options)


@attrs.frozen
class Conquer:
    """A look-alike of ``sw.Conquer`` that is not the library's class."""

    region: int


class FakeAction(sw.Conquer):
    """A subclass of a real action class: not an action of the library either."""


NOT_ACTIONS: list[Any] = [
    None, 0, "Conquer(1)", "EndTurn", {"type": "Conquer", "region": 1}, {"type": "EndTurn"},
    sw.EndTurn, sw.Conquer, Conquer(1), FakeAction(1), object(), [sw.EndTurn()], (sw.Decline(),),
]


@st.composite
def near_misses(draw: st.DrawFn, game: sw.Game) -> Any:
    """A legal action with one field nudged: a neighbour region, one token more, …"""
    legal = list(game.legal_actions())
    if not legal:
        return draw(built_actions(game))
    action = draw(st.sampled_from(legal))
    fields = [f.name for f in attrs.fields(type(action))]
    if not fields:
        bare = [c for c in ACTION_TYPES.values() if not attrs.fields(c)]
        return draw(st.sampled_from(bare))()  # another action without fields
    name = draw(st.sampled_from(fields))
    value = getattr(action, name)
    if isinstance(value, int):
        new = value + draw(st.sampled_from([-2, -1, 1, 2, 100]))
    else:
        new = draw(target_values(game))
    return attrs.evolve(action, **{name: new})


def well_typed(action: Any) -> bool:
    """Whether the action is a real action class with exactly typed fields."""
    cls = ACTION_TYPES.get(type(action).__name__)
    if cls is None or type(action) is not cls:
        return False
    for f in attrs.fields(cls):
        value = getattr(action, f.name)
        if f.name in INT_FIELDS and (type(value) is not int):
            return False
        if f.name == "name" and type(value) is not str:
            return False
        if f.name == "target" and not (value is None or type(value) in (int, str)):
            return False
    return True


def log_dicts(game: sw.Game) -> list[dict[str, Any]]:
    return [e.to_dict() for e in game.log]


def assert_refused(game: sw.Game, action: Any, why: str = "") -> sw.IllegalAction:
    """``apply`` raises IllegalAction with a reason and changes nothing (state, log, undo)."""
    before, log = game.to_json(), log_dicts(game)
    twin = game.clone()
    try:
        game.apply(action)
    except sw.IllegalAction as exc:
        error = exc
    else:
        p = game.active_player
        raise AssertionError(
            f"{action!r} ({why}) was accepted in {game!r}: player {p} plays "
            f"{game.active_race(p)}/{game.active_power(p)}"
        )
    reason = error.reason
    assert isinstance(reason, str) and reason.strip(), f"{action!r} refused without a reason"
    assert game.to_json() == before, f"refusing {action!r} ({why}) changed the game"
    assert log_dicts(game) == log
    if attrs.has(type(action)) and well_typed(action):
        assert action not in game.legal_actions(), f"{action!r} is `in` but refused: {reason}"
    mine = game.clone()
    for one in (mine, twin):  # the undo history is untouched too
        with contextlib.suppress(sw.RulesError):
            one.undo()
    assert mine.to_json() == twin.to_json()
    return error


@settings(
    max_examples=budget(BUDGETS, "arbitrary"),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(game=positions(), data=st.data())
def test_any_action_is_legal_or_refused_atomically(game: sw.Game, data: st.DataObject) -> None:
    """Any action either is legal and applies, or is refused and changes nothing."""
    for _ in range(ACTIONS_PER_POSITION):
        action = data.draw(
            st.one_of(
                built_actions(game),
                near_misses(game),
                near_misses(game),
                st.sampled_from(NOT_ACTIONS),
            ),
            label="action",
        )
        legal = game.legal_actions()
        before = game.to_json()
        try:
            game.apply(action)
        except sw.IllegalAction:
            assert game.to_json() == before
            assert_refused(game, action, "arbitrary")  # again: reason, log, `in`, undo history
            continue
        assert well_typed(action), f"{action!r} has ill-typed fields but was accepted"
        assert action in legal, f"{action!r} was applied but is not in legal_actions()"
        game.undo()
        assert game.to_json() == before


# ------------------------------------------------------------------------ illegal by construction

KNOWN_HOOKS = frozenset({"conquest_cost", "defence", "losses", "score"})


#: RuleDef fields that cannot change where a race may go; any other non-empty field (links,
#: triggers, abilities, and whatever the language gains later) might.
PLAIN_FIELDS = frozenset({
    "kind", "id", "name", "tokens", "box", "conquest_tokens", "text", "aliases", "options",
    "pieces", "modifiers", "works_in_decline", "path", "ast", "flags", "conditional_flags",
})


def is_plain(d: Any) -> bool:
    """A rule file that changes nothing about where its race may go: no flags, no hook beyond
    cost, defence, losses and score, and nothing else (links, triggers, abilities …)."""
    if d is None:
        return True
    if d.flags or d.conditional_flags:
        return False
    if any(mods for hook, mods in d.modifiers.items() if hook not in KNOWN_HOOKS):
        return False
    return not any(
        getattr(d, f.name) for f in attrs.fields(type(d)) if f.name not in PLAIN_FIELDS
    )


def active_defs(game: sw.Game) -> list[Any]:
    p = game.active_player
    race, power = game.active_race(p), game.active_power(p)
    return [
        game.rules.races.get(race) if race else None,
        game.rules.powers.get(power) if power else None,
    ]


def raises_flag(game: sw.Game, flag: str) -> bool:
    return any(
        d is not None and (flag in d.flags or any(f == flag for f, _ in d.conditional_flags))
        for d in active_defs(game)
    )


PHASE_ACTIONS: dict[str, set[str]] = {  # the action types each phase may accept
    "pick": {"PickCombo", "EndTurn", "UseAbility"},
    "conquest": {"Decline", "Abandon", "Conquer", "ConquerWithDie", "Deploy", "EndTurn",
                 "UseAbility"},
    "die_roll": {"RollDie"},
    "redeploy": {"Deploy", "EndTurn", "Abandon", "UseAbility", "Decline"},
    # EndTurn once the hand is empty: placing regained pieces again is optional (ruling 25).
    "withdrawal": {"Deploy", "UseAbility", "EndTurn"},
    "over": set(),
}


def example_of(name: str, region: int) -> Any:
    cls = ACTION_TYPES[name]
    values = {"region": region, "index": 0, "count": 1, "face": 0, "name": "fortify"}
    return cls(**{f.name: values.get(f.name) for f in attrs.fields(cls)})


def forbidden(game: sw.Game, rng: random.Random) -> Iterator[tuple[Any, str]]:
    """Actions a rule forbids in this position, each with the rule it breaks."""
    n = len(game.map.regions)
    phase = game.phase.value
    region = rng.randrange(n)
    # Wrong phase (rule 1.4).
    accepted = PHASE_ACTIONS.get(phase)
    if accepted is not None:
        for name in sorted(set(ACTION_TYPES) - accepted):
            yield example_of(name, region), f"{name} in the {phase} phase"
    # Out-of-range indices, regions and die faces.
    yield sw.PickCombo(len(game.market) + rng.randint(0, 3)), "no such combo"
    yield sw.PickCombo(-rng.randint(1, 3)), "negative combo index"
    for action_type in (sw.Conquer, sw.ConquerWithDie, sw.Abandon):
        yield action_type(n + rng.randint(0, 50)), "no such region"
        yield action_type(-rng.randint(1, 50)), "negative region"
    yield sw.Deploy(n + rng.randint(0, 5), 1), "no such region"
    yield sw.Deploy(region, -rng.randint(0, 3)), "fewer than one token"
    yield sw.Deploy(region, 10**6), "more tokens than exist"
    yield sw.RollDie(rng.choice([-1, 4, 5, 6, 7, 100])), "no such die face"
    if phase == "die_roll":
        assert set(DIE_FACES) == {0, 1, 2, 3}
    if game.is_over or game.to_move == sw.CHANCE:
        return
    mover = game.to_move
    assert mover is not None
    # Wrong player: a region of someone else's (or of another race) takes no Deploy or Abandon.
    active = game.active_race(mover)
    acting = json.loads(game.to_json())["state"].get("acting")
    if acting is not None and acting != active:
        return  # a race in decline acts: the rules below speak of the active race
    for r in range(n):
        view = game.region(r)
        if phase in ("conquest", "redeploy") and (view.race is None or view.race != active):
            yield sw.Abandon(r), f"region {r} is not the active race's"
            yield sw.Deploy(r, 1), f"region {r} is not the active race's"
        elif phase == "withdrawal" and view.owner != mover:
            yield sw.Deploy(r, 1), f"region {r} is not the defender's"
    if phase != "conquest":
        return
    race = game.active_race(mover)
    acting = json.loads(game.to_json())["state"].get("acting")
    if race is None or (acting is not None and acting != race):
        return  # a race in decline acts (the rules below speak of the active race)
    own = [r for r in range(n) if game.region(r).race == race]
    hand = game.hand(mover)
    plain = all(is_plain(d) for d in active_defs(game)) and not game.rules.expansions
    for r in range(n):
        view = game.region(r)
        if view.race == race:
            yield sw.Conquer(r), "own region"
            continue
        if any(game.rules.pieces[p].immune for p in view.pieces):
            yield sw.Conquer(r), "immune region"
            yield sw.ConquerWithDie(r), "immune region"
            continue
        water = view.terrain in ("sea", "lake")
        if water and not raises_flag(game, "enter_water") and not game.rules.expansions:
            yield sw.Conquer(r), "water without the enter_water flag"
            continue
        if plain and own and not set(game.map.neighbours(r)) & set(own):
            yield sw.Conquer(r), "unreachable region"
            yield sw.ConquerWithDie(r), "unreachable region"
            continue
        try:
            cost = game.conquest_cost(r)
        except sw.RulesError:
            continue
        if cost > hand:
            yield sw.Conquer(r), f"too few tokens ({hand} for {cost})"
        if cost <= hand:
            yield sw.ConquerWithDie(r), "the die is not needed"
        elif cost - hand > 3:
            yield sw.ConquerWithDie(r), "more than 3 short (ruling 5)"


@settings(
    max_examples=budget(BUDGETS, "constructed"),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(game=positions(), seed=st.integers(0, 2**32))
def test_illegal_by_construction(game: sw.Game, seed: int) -> None:
    """Rule 1.4, rule 1.5, rule 1.7, rule 1.9: actions a rule forbids are refused with a reason,
    atomically."""
    rng = random.Random(seed)
    cases = list(forbidden(game, rng))
    for action, why in rng.sample(cases, min(len(cases), 12)):
        assert_refused(game, action, why)


def test_immune_region_is_refused() -> None:
    """Region immunity: a piece declared ``immune`` (tests/rules/warded.swr's
    ``sanctum``), set up with ``put``, makes an adjacent region unconquerable."""
    game = sw.Game.new(players=2, seed=1, rules=rules(), combos=[("ratmen", "plain")])
    game.apply(sw.PickCombo(0))
    game.put(1, 0, 3)
    target = next(r for r in game.map.neighbours(1) if game.region(r).terrain not in
                  ("sea", "lake") and game.region(r).owner is None)
    game.put(target, 1, 1, race="crowd", pieces={"sanctum": 1})
    error = assert_refused(game, sw.Conquer(target), "immune")
    assert "immune" in error.reason
    assert_refused(game, sw.ConquerWithDie(target), "immune")
    assert sw.Conquer(target) not in game.legal_actions()


def test_water_without_the_flag_is_refused() -> None:
    """Rule 1.7: a Sea next to the race's region cannot be conquered without ``enter_water``."""
    game = sw.Game.new(players=2, seed=1, rules=rules(), combos=[("ratmen", "plain")])
    game.apply(sw.PickCombo(0))
    sea = next(r for r in range(len(game.map.regions)) if game.region(r).terrain == "sea")
    land = next(r for r in game.map.neighbours(sea)
                if game.region(r).terrain not in ("sea", "lake"))
    game.put(land, 0, 2)
    error = assert_refused(game, sw.Conquer(sea), "water")
    assert "water" in error.reason


def test_withdrawing_defender_may_only_deploy() -> None:
    """Ruling 8: while a defender places its survivors, only its Deploys to its own regions are
    legal; the attacker's regions, conquests and the end of the turn are refused."""
    game = sw.Game.new(
        players=2, seed=1, rules=rules(), combos=[("ratmen", "plain"), ("crowd", "plain2")]
    )
    game.apply(sw.PickCombo(0))
    land = [r for r in range(len(game.map.regions))
            if game.region(r).terrain not in ("sea", "lake") and not game.region(r).lost_tribe]
    attack = next(r for r in land if sw.Conquer(r) in game.legal_actions())
    refuge = next(r for r in land if r != attack and r not in game.map.neighbours(attack))
    game.put(attack, 1, 3, race="crowd")
    game.put(refuge, 1, 1)
    game.apply(sw.Conquer(attack))
    while game.phase is not sw.Phase.WITHDRAWAL:  # the defender withdraws after the turn
        legal = game.legal_actions()
        deploys = [a for a in legal if isinstance(a, sw.Deploy)]
        game.apply(sw.EndTurn() if sw.EndTurn() in legal else max(deploys, key=lambda a: a.count))
    assert game.to_move == 1 and game.active_player == 0
    for action in (sw.Deploy(attack, 1), sw.Conquer(attack), sw.EndTurn(), sw.Decline(),
                   sw.Abandon(refuge), sw.Deploy(refuge, 99), sw.PickCombo(0)):
        assert_refused(game, action, "withdrawal")
    game.apply(sw.Deploy(refuge, 1))


# --------------------------------------------------------------------------- legal == accepted


def test_decline_at_turn_end_is_listed_when_accepted() -> None:
    """``legal_actions()`` lists every action ``apply`` accepts (regression, found by
    test_any_action_is_legal_or_refused_atomically: Stout's end-of-turn Decline right after
    the pick was accepted but not listed)."""
    game = sw.Game.new(players=2, seed=1, combos=[("humans", "stout")])
    game.apply(sw.PickCombo(0))
    twin = game.clone()
    try:
        twin.apply(sw.Decline())
        accepted = True
    except sw.IllegalAction:
        accepted = False
    assert accepted == (sw.Decline() in game.legal_actions())


# --------------------------------------------------------------------------- look-alike values


def test_membership_agrees_with_apply_for_look_alike_values() -> None:
    """``in legal_actions()`` answers exactly whether ``apply`` would accept the action.

    Regression: ``PickCombo(True)`` and ``PickCombo(0.0)`` compare equal to ``PickCombo(0)``,
    so they were ``in`` the legal actions while ``apply`` refused them (found by this module).
    """
    game = sw.Game.new(players=2, seed=1)
    for action in (sw.PickCombo(True), sw.PickCombo(0.0)):  # type: ignore[arg-type]
        with pytest.raises(sw.IllegalAction):
            game.apply(action)
        assert action not in game.legal_actions()


# --------------------------------------------------------------------------- tampered saved games


def paths_of(doc: Any, prefix: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    """Every path to a value in a JSON document."""
    yield prefix
    if isinstance(doc, dict):
        for key, value in doc.items():
            yield from paths_of(value, (*prefix, key))
    elif isinstance(doc, list):
        for i, value in enumerate(doc):
            yield from paths_of(value, (*prefix, i))


def _damage(doc: dict[str, Any], path: tuple[Any, ...], value: Any) -> dict[str, Any]:
    damaged = copy.deepcopy(doc)
    parent: Any = damaged
    for key in path[:-1]:
        parent = parent[key]
    parent[path[-1]] = value
    return damaged


#: Saved games that crashed ``from_json`` with a TypeError (unhashable JSON values where an
#: id is expected) before they were refused properly; found by this module.
UNHASHABLE_IDS: list[tuple[tuple[Any, ...], Any]] = [
    (("log", 0, "type"), []),
    (("state", "market", 0, 0), {}),
    (("state", "power_stack", 0), [1, 2]),
]


@pytest.mark.parametrize(("path", "value"), UNHASHABLE_IDS, ids=["log", "market", "stack"])
def test_unhashable_ids_in_a_saved_game_are_refused(path: tuple[Any, ...], value: Any) -> None:
    """A corrupt saved game is refused with a RulesError, never another exception
    (regression: a JSON list or object where an id is expected raised TypeError)."""
    game = sw.Game.new(players=2, seed=1)
    text = json.dumps(_damage(json.loads(game.to_json()), path, value))
    with pytest.raises(sw.RulesError):
        sw.Game.from_json(text)


def damaged_values(game: sw.Game) -> st.SearchStrategy[Any]:
    ids = sorted({*game.rules.races, *game.rules.powers, *game.rules.pieces})
    odd: list[Any] = [None, True, False, 1.5, float("inf"), [], {}, [1], {"x": 1}, [[1, 2]]]
    return st.one_of(
        st.integers(-3, 3),
        st.sampled_from([-1, -(10**6), 10**6, 10**40, -(10**40), len(game.map.regions), 99]),
        st.sampled_from(ids),
        st.sampled_from(["dwarvez", "#lost_tribe", "", "over", "pick", "-1", "7p", "😀"]),
        st.sampled_from(odd),
        st.text(max_size=5),
    )


@settings(
    max_examples=budget(BUDGETS, "tampered"),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(game=positions(), data=st.data())
def test_tampered_saved_game_is_refused_or_sound(game: sw.Game, data: st.DataObject) -> None:
    """Issue 6 part 5: a damaged saved game is refused with a RulesError within a
    second, or — if the damage left a valid game — loads into a sound, playable position."""
    doc = json.loads(game.to_json())
    paths = [p for p in paths_of(doc) if p]
    for _ in range(ACTIONS_PER_POSITION):
        damaged = copy.deepcopy(doc)
        for _ in range(data.draw(st.integers(1, 3), label="damages")):
            damage(damaged, data.draw(st.sampled_from(paths), label="path"), data, game)
        if damaged != doc:
            load_damaged(game, json.dumps(damaged))


def damage(doc: Any, path: tuple[Any, ...], data: st.DataObject, game: sw.Game) -> None:
    """Set, delete or add a value at ``path`` (if an earlier damage left it there)."""
    parent: Any = doc
    try:
        for key in path[:-1]:
            parent = parent[key]
        how = data.draw(st.sampled_from(["set", "set", "set", "delete", "add"]), label="how")
        last = path[-1]
        if how == "set":
            parent[last] = data.draw(damaged_values(game), label="value")
        elif how == "delete":
            del parent[last]
        elif isinstance(parent, list):
            parent.append(data.draw(damaged_values(game), label="value"))
        else:
            key = data.draw(st.text(max_size=6), label="key")
            parent[key] = data.draw(damaged_values(game), label="value")
    except (KeyError, IndexError, TypeError):
        pass  # an earlier damage removed or replaced this path


def load_damaged(game: sw.Game, text: str) -> None:
    started = time.perf_counter()
    try:
        restored = sw.Game.from_json(text, rules=game.rules)
    except sw.RulesError as exc:
        assert str(exc).strip(), "a refusal says what is wrong"
        assert time.perf_counter() - started < 1.0, "refusing took longer than a second"
        return
    # Accepted: the damage was harmless, so the game must be sound and playable.
    engine = getattr(restored, "_engine", None)
    if engine is not None:
        engine.check_invariants(restored._state)
    again = restored.to_json()
    assert sw.Game.from_json(again, rules=game.rules).to_json() == again
    rng = random.Random(0)
    for _ in range(30):
        if restored.is_over:
            assert restored.winners
            break
        legal = list(restored.legal_actions())
        assert legal, "an accepted save left nobody able to act"
        restored.apply(random_action(restored, rng))
        if engine is not None:
            engine.check_invariants(restored._state)


def test_an_action_refused_after_the_engine_logged_leaves_no_event(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Standards: an illegal action leaves the game exactly as it was — the log included,
    even if the engine had logged an event before it found the action illegal."""
    game = sw.Game.new(players=2, seed=1)
    game.apply(sw.PickCombo(0))
    before, events = game.to_json(), list(game.log)

    def log_then_refuse(engine: Engine, s: State, action: sw.Action, log: Any) -> None:
        log(TurnEnded(0))
        raise sw.IllegalAction("refused after logging")

    monkeypatch.setattr(Engine, "apply", log_then_refuse)
    with pytest.raises(sw.IllegalAction, match="refused after logging"):
        game.apply(next(iter(game.legal_actions())))
    assert list(game.log) == events and game.to_json() == before


# --------------------------------------------------------------------------- the turn's fields


def _turn_begun() -> tuple[dict[str, Any], int, int]:
    """Player 0's turn has begun (2 tokens readied from a region of 3): the saved game, the
    region and an empty Sea."""
    game = sw.Game.new(players=2, seed=1)
    water = game.map.water_mask
    land = next(r for r in range(len(game.map.regions))
                if not (water >> r) & 1 and not game.region(r).tokens)
    sea = next(r for r in range(len(game.map.regions)) if (water >> r) & 1)
    game.put(land, 0, 3, race="ratmen")
    doc = json.loads(game.to_json())
    assert doc["state"]["readied"] == [[land, 2]] and sw.Decline() in game.legal_actions()
    return doc, land, sea


def test_a_save_whose_readied_names_an_empty_sea_is_refused() -> None:
    """A saved game is checked against the rules field by field: the tokens readied at the
    start of a turn come from the acting race's regions, since a decline turn puts them back
    there (a save naming an empty Sea let a legal Decline leave tokens with no owner)."""
    doc, _, sea = _turn_begun()
    sw.Game.from_json(json.dumps(doc)).apply(sw.Decline())  # the save as written plays on
    doc["state"]["readied"] = [[sea, 1]]
    with pytest.raises(sw.RulesError, match=rf"readied names region {sea}, which 'ratmen'"):
        sw.Game.from_json(json.dumps(doc))


#: Fields of the turn set to what no legal play leaves, each with the words of the refusal.
TURN_DAMAGE: list[tuple[str, Any, str]] = [
    ("readied", [[0, 2], [0, 2]], "readied names a region twice"),
    ("readied", "more than in hand", "readied takes more tokens than 'ratmen' has in hand"),
    ("die_target", 3, "die_target is set, but no die roll is pending"),
    ("die_bonus", 7, "die_bonus is 7"),
    ("decline_at_end", True, "decline_at_end is set in the conquest phase"),
    ("attacked", 1, "attacked names the active player"),
    ("conquered", [3], "conquered lists conquests, but nothing was done"),
    ("conquered_nonempty", 8, "conquered_nonempty names a region that was not conquered"),
    ("winners", [0], "winners are set before the game is over"),
    ("truces", [[1, 0], [1, 0]], "truces protect a player twice"),
]


@pytest.mark.parametrize(("field", "value", "words"), TURN_DAMAGE, ids=[
    f"{field}-{i}" for i, (field, _, _) in enumerate(TURN_DAMAGE)
])
def test_turn_fields_no_play_leaves_are_refused(field: str, value: Any, words: str) -> None:
    """A saved game's fields of the turn in progress hold only what play can leave: readied
    tokens from distinct regions, no more than the hand holds; a die target only while a roll
    is pending, a kept die face only a face of the die; decline at the end only once the turn
    has ended; the attacker never among the attacked; conquests only after an action, the
    non-empty ones among them; winners only once the game is over; one truce per player."""
    doc, land, _ = _turn_begun()
    if value == "more than in hand":
        value = [[land, 3]]
    if field == "readied" and value == [[0, 2], [0, 2]]:
        value = [[land, 1], [land, 1]]
    doc["state"][field] = value
    with pytest.raises(sw.RulesError, match=words):
        sw.Game.from_json(json.dumps(doc))


def test_an_acting_race_not_in_play_is_refused_in_every_phase() -> None:
    """The acting race is one of the active player's races in play, whatever the phase (a
    withdrawal named one not in play: refused with a message, never a KeyError)."""
    doc, _, _ = _turn_begun()
    state = doc["state"]
    state["phase"], state["withdrawals"], state["acting"] = "withdrawal", ["ratmen"], "orcs"
    with pytest.raises(sw.RulesError, match="acting names 'orcs', not a race of the active"):
        sw.Game.from_json(json.dumps(doc))
