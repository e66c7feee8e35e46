"""What rule files cost: Giants, Commando and Forest as compiled rule files versus the same
modifiers written by hand as plain Python functions.

The hand-written rules replace only the ``value``/``condition``/``where`` functions of the
compiled :class:`~smallworld_rules.ruledefs.CompiledModifier` (label, path, line, op and status are
kept), so everything else the engine does is identical and any difference in speed is the
cost of the compiled closures. :func:`equivalence` first checks that the two rule sets play
byte-identical games; a speed comparison of rules that differ would mean nothing.
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, cast

import attrs

import smallworld_rules as sw
from benchmarks.measure import Sizes, Stat, play_random, time_games
from smallworld_rules.hooks import EvalContext
from smallworld_rules.ruledefs import CompiledModifier, RuleDef

# --------------------------------------------------------------------------- the Python rules
#
# Each function is what the compiler builds for the rule file's line, flattened by hand. The
# compiler turns a predicate into a function giving the bitmask of the regions satisfying it,
# a condition on the target into a bit test of that mask (``_compile_condition``), a number
# into a constant function, and ``count(…)`` into ``bit_count`` of a region set.


def always(c: EvalContext) -> bool:
    """No ``when``: the compiler's condition is ``lambda c: True``."""
    return True


def one(c: EvalContext) -> int:
    """``sub 1``."""
    return 1


def giants_where(c: EvalContext) -> int:
    """``when target adjacent_to own regions with terrain mountain`` (races/giants.swr): the
    regions where it holds (the engine's conquest costs test each region's bit of it)."""
    return c.adjacent_mask(c.own_mask() & c.terrain_mask("mountain"))


def giants_condition(c: EvalContext) -> bool:
    """The same condition asked about one target, as explanations ask it.

    As compiled: the target's bit of the mask. No ``target >= 0`` guard, because the
    compiled one has none either (``conquest_cost`` is always asked about a region).
    """
    return bool((giants_where(c) >> c.target) & 1)


def forest_value(c: EvalContext) -> int:
    """``count(own regions with terrain forest)`` (powers/forest.swr)."""
    return (c.own_mask() & c.terrain_mask("forest")).bit_count()


#: (hook, op, status, value, condition, where) of one hand-written modifier.
HookSpec = tuple[
    str,
    str,
    str,
    Callable[[EvalContext], int],
    Callable[[EvalContext], bool],
    Callable[[EvalContext], int] | None,
]

#: rule id -> its modifier in Python. The op and status are not replaced, only checked: if a
#: rule file changes shape, the benchmark refuses to compare rather than compare other rules.
PYTHON_HOOKS: dict[str, HookSpec] = {
    "giants": ("conquest_cost", "sub", "active", one, giants_condition, giants_where),
    "commando": ("conquest_cost", "sub", "active", one, always, None),
    "forest": ("score", "add", "active", forest_value, always, None),
}


def _with_python_hooks(rule: RuleDef, spec: HookSpec) -> RuleDef:
    hook, op, status, value, condition, where = spec
    used = {name: mods for name, mods in rule.modifiers.items() if mods}
    if list(used) != [hook] or len(used[hook]) != 1:
        raise RuntimeError(
            f"{rule.path}: expected one {hook} modifier and no other, found "
            f"{ {name: len(mods) for name, mods in used.items()} }; update benchmarks/overhead.py"
        )
    compiled: CompiledModifier = used[hook][0]
    if (compiled.op, compiled.status) != (op, status) or (compiled.where is None) != (
        where is None
    ):
        raise RuntimeError(f"{rule.path}:{compiled.line}: not a {status} '{op}' modifier any more")
    modifier = attrs.evolve(compiled, value=value, condition=condition, where=where)
    return attrs.evolve(rule, modifiers={**rule.modifiers, hook: (modifier,)})


def python_rules(rules: sw.Rules, hooks: dict[str, HookSpec] = PYTHON_HOOKS) -> sw.Rules:
    """``rules`` with the modifiers of ``hooks``' rule files replaced by Python functions."""
    races, powers = dict(rules.races), dict(rules.powers)
    for rule_id, spec in hooks.items():
        table = races if rule_id in races else powers
        table[rule_id] = _with_python_hooks(table[rule_id], spec)
    return attrs.evolve(rules, races=races, powers=powers)


# --------------------------------------------------------------------------- the markets

#: Races and powers with no modifiers of their own, to fill the visible market. Their rules run
#: the same way with both rule sets, so they dilute the ratio but cannot bias it.
FILLERS = [
    ("amazons", "seafaring"),
    ("ghouls", "stout"),
    ("ratmen", "spirit"),
    ("trolls", "heroic"),
]


def market(seed: int) -> list[tuple[str, str]]:
    """The six visible combos of the game ``seed``: Giants with Commando or with Forest (the
    other power goes to Halflings), then the fillers, rotated so the rules of interest sit at
    every price. The stacks below are drawn from the seeded shuffle as usual."""
    other = "forest" if seed % 2 == 0 else "commando"
    main = [("giants", "commando" if other == "forest" else "forest"), ("halflings", other)]
    combos = main + FILLERS
    shift = (seed // 2) % len(combos)
    return combos[shift:] + combos[:shift]


# --------------------------------------------------------------------------- checks and timings


@dataclass(frozen=True)
class Equivalence:
    games: int
    mismatches: list[tuple[int, int]]  # (players, seed) whose final positions differ
    picked: dict[str, int]  # rule id -> games in which some player took it

    @property
    def equivalent(self) -> bool:
        return not self.mismatches


def equivalence(compiled: sw.Rules, python: sw.Rules, games: int) -> Equivalence:
    """Play the same seeded games with both rule sets (half with 2 players, half with 4) and
    compare the final ``to_json()`` byte for byte. Also counts how often the three rules were
    actually taken, so a run where no one picked them does not pass for a proof."""
    mismatches = []
    picked = dict.fromkeys(PYTHON_HOOKS, 0)
    for i in range(games):
        players, seed = (2, 4)[i % 2], i
        a = play_random(compiled, players, seed, market(seed))[0]
        b = play_random(python, players, seed, market(seed))[0]
        if a.to_json() != b.to_json():
            mismatches.append((players, seed))
        taken = {getattr(e, name, None) for e in a.log for name in ("race", "power")}
        for rule_id in picked:
            picked[rule_id] += rule_id in taken
    return Equivalence(games, mismatches, picked)


def calls_per_game(rules: sw.Rules, games: int) -> Stat:
    """How often the engine calls the three modifiers' functions (condition and value) per
    2-player game on the restricted markets: with the per-call costs below, this bounds what
    the rule files can cost in a whole game. Counted through wrapped Python hooks, which play
    the same games (see :func:`equivalence`)."""
    calls = 0

    def counted(fn: Callable[[EvalContext], Any]) -> Callable[[EvalContext], Any]:
        def wrapper(c: EvalContext) -> Any:
            nonlocal calls
            calls += 1
            return fn(c)

        return wrapper

    hooks = {
        rule_id: (
            hook, op, status, counted(value), counted(condition), where and counted(where)
        )
        for rule_id, (hook, op, status, value, condition, where) in PYTHON_HOOKS.items()
    }
    counting = python_rules(rules, hooks)
    for seed in range(games):
        play_random(counting, 2, seed, market(seed))
    return Stat("calls", (calls / max(games, 1),))


def game_ratio(compiled: sw.Rules, python: sw.Rules, sizes: Sizes) -> dict[str, Stat]:
    """Games/s with each rule set on the restricted markets, and their time ratio.

    Each seed is played by both sides back to back (which goes first alternates), and a run's
    ratio is the median of the per-game ratios. On a shared machine a burst of load from
    other processes then spoils a few pairs, not the run: ratios of batch totals swung by
    ±10 % from run to run where this stays within about ±2 %.
    """
    sides = {"compiled": compiled, "python": python}
    totals: dict[str, list[float]] = {"compiled": [], "python": []}
    ratios: list[float] = []
    for _ in range(sizes.runs):
        spent: dict[str, list[float]] = {"compiled": [], "python": []}
        for seed in range(sizes.overhead_games):
            order = ("compiled", "python") if seed % 2 == 0 else ("python", "compiled")
            for name in order:
                spent[name].append(time_games(sides[name], 2, (seed,), market)[0])
        for name, seconds in spent.items():
            totals[name].append(sum(seconds))
        pairs = zip(spent["compiled"], spent["python"], strict=True)
        ratios.append(statistics.median(c / p for c, p in pairs))
    games = sizes.overhead_games
    return {
        "compiled_games_per_s": Stat("games/s", tuple(games / t for t in totals["compiled"])),
        "python_games_per_s": Stat("games/s", tuple(games / t for t in totals["python"])),
        "game_time_ratio": Stat("×", tuple(ratios)),
    }


class MapContext:
    """A minimal :class:`~smallworld_rules.hooks.EvalContext` built from the public
    :class:`~smallworld_rules.Game` API, enough for these three rules: it lets the modifiers be
    called on their own, without the engine around them."""

    def __init__(self, game: sw.Game, race: str, target: int) -> None:
        game_map = game.map
        self._adjacency = game_map.adjacency
        self._terrains = game_map.terrain_masks
        self._own = sum(1 << r for r in range(len(game_map)) if game.region(r).race == race)
        self.target = target
        self.all_mask = game_map.all_mask

    def own_mask(self) -> int:
        return self._own

    def terrain_mask(self, name: str) -> int:
        return self._terrains[name]

    def adjacent_mask(self, regions: int) -> int:
        out = 0
        while regions:
            low = regions & -regions
            out |= self._adjacency[low.bit_length() - 1]
            regions ^= low
        return out


def _contexts(rules: sw.Rules, positions: int) -> list[EvalContext]:
    """Contexts from random games on the restricted markets: every position where Giants are
    on the board, a few target regions each (the rules' cost barely depends on which)."""
    # Typed as the protocol, which MapContext implements only as far as these rules need.
    out: list[EvalContext] = []
    for seed in range(50):
        game = sw.Game.new(players=2, seed=seed, rules=rules, combos=market(seed))
        rng = random.Random(seed)
        while not game.is_over and len(out) < positions:
            options = list(game.legal_actions())
            game.apply(options[rng.randrange(len(options))])
            if any(game.region(r).race == "giants" for r in range(len(game.map))):
                found = (MapContext(game, "giants", r) for r in range(0, len(game.map), 7))
                out.extend(cast(Iterable[EvalContext], found))
        if len(out) >= positions:
            break
    return out[:positions]


def _modifiers(rules: sw.Rules) -> list[CompiledModifier]:
    return [
        mod
        for rule_id, (hook, *_) in PYTHON_HOOKS.items()
        for mod in rules.get(rule_id).modifiers[hook]
    ]


def call_ratio(compiled: sw.Rules, python: sw.Rules, sizes: Sizes) -> dict[str, Stat]:
    """µs per modifier (its condition, then its value if it applies, as the engine does) on
    real positions, compiled versus Python: the cost of the closures alone, undiluted by the
    rest of the engine. Interleaved pass by pass, summarised as in :func:`game_ratio`."""
    contexts = _contexts(compiled, sizes.hook_positions)
    sides = {
        name: [(m.condition, m.value) for m in _modifiers(rules)]
        for name, rules in (("compiled", compiled), ("python", python))
    }
    times: dict[str, list[float]] = {"compiled": [], "python": []}
    ratios: list[float] = []
    passes = max(2, sizes.repeat // 100)
    calls = len(contexts) * len(sides["compiled"])
    for _ in range(sizes.runs):
        spent: dict[str, list[float]] = {"compiled": [], "python": []}
        for i in range(passes):
            for name in ("compiled", "python") if i % 2 == 0 else ("python", "compiled"):
                pairs = sides[name]
                start = time.perf_counter()
                for ctx in contexts:
                    for condition, value in pairs:
                        if condition(ctx):
                            value(ctx)
                spent[name].append(time.perf_counter() - start)
        for name, seconds in spent.items():
            # Median pass, not the mean: a pass hit by other load would skew one side only.
            times[name].append(statistics.median(seconds) / calls * 1e6)
        timed = zip(spent["compiled"], spent["python"], strict=True)
        ratios.append(statistics.median(c / p for c, p in timed))
    return {
        "compiled_modifier_us": Stat("µs", tuple(times["compiled"])),
        "python_modifier_us": Stat("µs", tuple(times["python"])),
        "modifier_call_ratio": Stat("×", tuple(ratios)),
    }


def overhead(rules: sw.Rules, sizes: Sizes) -> dict[str, Any]:
    """Equivalence first, then both ratios (the timings are skipped if the rules differ)."""
    python = python_rules(rules)
    check = equivalence(rules, python, sizes.equivalence_games)
    out: dict[str, Any] = {"equivalence": check}
    if check.equivalent:
        out.update(game_ratio(rules, python, sizes))
        out.update(call_ratio(rules, python, sizes))
        out["modifier_calls_per_game"] = calls_per_game(rules, sizes.equivalence_games)
        # What the closures' extra cost adds up to in a game, from the medians above: the
        # game-level ratio alone is too noisy to show an effect this size.
        extra_us = out["modifier_calls_per_game"].median * (
            out["compiled_modifier_us"].median - out["python_modifier_us"].median
        )
        game_us = 1e6 / out["compiled_games_per_s"].median
        out["estimated_overhead_pct"] = Stat("% of game", (100 * extra_us / game_us,))
    return out
