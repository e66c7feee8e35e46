"""The numbers and region properties of the moment that the rule language reads.

``VALUES`` maps each ``ast.Value`` name to its handler, ``REGION_PROPERTIES`` the region
properties of version 3 to theirs, ``PAST`` each region property to its test on what a
conquered region held (``memory`` facts). The engine's evaluation context delegates here.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from smallworld_rules.dsl.bounds import COUNT_LIMIT
from smallworld_rules.language import crossing, discounts, memory
from smallworld_rules.state import LOST_TRIBE, State

if TYPE_CHECKING:
    from smallworld_rules.engine.context import _Ctx
    from smallworld_rules.engine.core import Engine


def _owner(c: _Ctx) -> int:
    rs = c.state.races.get(c.race)
    return -1 if rs is None else rs.owner


def _coins(c: _Ctx) -> int:
    owner = _owner(c)
    # Read as at most COUNT_LIMIT, the bound the checker gives any count.
    return min(c.state.players[owner].coins, COUNT_LIMIT) if owner >= 0 else 0


def _declined_races(c: _Ctx) -> int:
    return sum(1 for rs in c.state.races.values() if rs.declined)


def _tokens_lost(c: _Ctx) -> int:
    return 0 if c.occasion is None else c.occasion.lost


def _coins_taken(c: _Ctx) -> int:
    return 0 if c.occasion is None else c.occasion.lost


def _target_tokens(c: _Ctx) -> int:
    return c.state.region_tokens[c.target] if c.target >= 0 else 0


def _players(c: _Ctx) -> int:
    return c.engine.players


def _round(c: _Ctx) -> int:
    return c.state.round


def _rounds_left(c: _Ctx) -> int:
    return max(0, c.engine.map.turns - c.state.round)


def _die(c: _Ctx) -> int:
    return int(memory.get(c.state, "die", 0))


def _lost_tribe(c: _Ctx) -> int:
    return c.state.race_masks.get(LOST_TRIBE, 0)


VALUES: dict[str, Callable[[_Ctx], int]] = {
    "round": _round,
    "rounds_left": _rounds_left,
    "die": _die,
    "coins": _coins,
    "declined_races": _declined_races,
    "tokens_lost": _tokens_lost,
    "coins_taken": _coins_taken,
    "target_tokens": _target_tokens,
    "players": _players,
}


def _in_decline(c: _Ctx) -> int:
    s, engine, out = c.state, c.engine, 0
    for race, mask in s.race_masks.items():
        rs = s.races.get(race)
        if rs is not None and (rs.declined or engine.seen_declined(race)):
            out |= mask
    return out


def _enemy(c: _Ctx) -> int:
    s, owner, out = c.state, _owner(c), 0
    for race, mask in s.race_masks.items():
        rs = s.races.get(race)
        if rs is not None and rs.owner != owner:
            out |= mask
    return out


def _marked(c: _Ctx) -> int:
    rs = c.state.races.get(c.race)
    marks = 0 if rs is None else rs.uses.get(memory.MARKS, 0)
    out = 0
    if marks:
        for race, mask in c.state.race_masks.items():
            other = c.state.races.get(race)
            if other is not None and (marks >> other.owner) & 1:
                out |= mask
    return out


REGION_PROPERTIES: dict[str, Callable[[_Ctx], int]] = {
    "in_decline": _in_decline,
    "lost_tribe": _lost_tribe,
    "enemy": _enemy,
    "marked": _marked,
    "discounted": discounts.discounted_mask,
}

#: A conquered region's facts (occupant, owner, tokens) -> whether it had the property; the
#: owner compared is the conqueror's (``me``).
PAST: dict[str, Callable[[str, int, int, int], bool]] = {
    "lone": lambda occupant, owner, tokens, me: tokens == 1,
    "enemy_active": lambda occupant, owner, tokens, me: occupant == "active" and owner != me,
    "in_decline": lambda occupant, owner, tokens, me: occupant == "declined",
    "lost_tribe": lambda occupant, owner, tokens, me: occupant == "tribe",
    "enemy": lambda occupant, owner, tokens, me: occupant in ("active", "declined")
    and owner != me,
}


def _facts(c: _Ctx) -> tuple[tuple[int, str, int, int, tuple[str, ...]], ...]:
    if c.state.acting != c.race:
        return ()
    facts: tuple[tuple[int, str, int, int, tuple[str, ...]], ...] = memory.get(
        c.state, "facts", ()
    )
    return facts


def past_mask(c: _Ctx, name: str) -> int:
    """This turn's conquests that had the property when conquered."""
    test, me, out = PAST[name], _owner(c), 0
    for r, occupant, owner, tokens, _ in _facts(c):
        if test(occupant, owner, tokens, me):
            out |= 1 << r
    return out


def past_piece_mask(c: _Ctx, name: str) -> int:
    """This turn's conquests that held the piece when conquered."""
    return sum(1 << r for r, _, _, _, pieces in _facts(c) if name in pieces)


def past_tokens(c: _Ctx, regions: int) -> int:
    """Tokens the regions held when conquered this turn."""
    return sum(tokens for r, _, _, tokens, _ in _facts(c) if (regions >> r) & 1)


def holding_mask(c: _Ctx, test: Callable[[int], bool], past: bool) -> int:
    """Regions whose tokens, anyone's, pass ``test`` (the predicate ``tokens OP N``);
    ``past``: this turn's conquests, with what each held when conquered."""
    if past:
        return sum(1 << r for r, _, _, tokens, _ in _facts(c) if test(tokens))
    tokens = c.state.region_tokens
    return sum(1 << r for r in range(len(tokens)) if test(tokens[r]))


def tokens_on(c: _Ctx, regions: int) -> int:
    """Tokens, anyone's, on the regions of the mask."""
    tokens = c.state.region_tokens
    return sum(tokens[r] for r in range(len(tokens)) if (regions >> r) & 1)


def counter(c: _Ctx, key: str, per_turn: bool) -> int:
    """A counter's value: per turn in ``memory``, per game with the race's uses."""
    if per_turn:
        counters = memory.get(c.state, "counters", {})
        return int(counters.get(f"{c.race}|{key}", 0))
    rs = c.state.races.get(c.race)
    return 0 if rs is None else rs.uses.get("#" + key, 0)


def neighbours(engine: Engine, s: State, race: str) -> int:
    """The players whose active race occupies a region bordering one of ``race``'s (the
    player property ``neighbour``): a mask of players."""
    border = engine.adjacent_mask(s.race_masks.get(race, 0))
    touching = border & engine.enemy_active_mask(s, race)
    out = 0
    for other, mask in s.race_masks.items():
        if mask & touching and other in s.races:
            out |= 1 << s.races[other].owner
    return out


def reach_within(engine: Engine, own: int, steps: int) -> int:
    """Regions at most ``steps`` borders away from ``own`` (``reach N``)."""
    reach = own
    for _ in range(steps):
        reach |= engine.adjacent_mask(reach)
    return reach


def far_reach(
    engine: Engine, steps: int, flags: frozenset[str], own: int, adjacent: int
) -> int:
    """The regions a race reaching beyond its neighbours (``adjacent``) may attack: ``reach
    N`` and the flag ``crosses_water``."""
    reach = reach_within(engine, own, steps) if steps > 1 else adjacent
    if "crosses_water" in flags:
        reach |= crossing.across_water(engine, own)
    return reach


def immune_regions(engine: Engine, s: State) -> int:
    """Regions the ``immune`` statements of the races in play make immune now."""
    return _covered(engine, s, engine._immunizing, "immune", None)


def shielded_regions(engine: Engine, s: State, race: str) -> int:
    """Regions the ``immune to powers`` statements of races other than ``race`` cover now:
    ``race``'s abilities cannot target them and its modifiers do not change their cost."""
    return _covered(engine, s, engine._shielding, "shielded", race)


def _covered(
    engine: Engine, s: State, files: frozenset[str], field: str, skip: str | None
) -> int:
    """The regions of the races in play (but ``skip``) that their statements ``field``
    (``RuleDef.immune`` or ``.shielded``: conditions and statuses) cover now."""
    out = 0
    for race, rs in s.races.items():
        own = s.race_masks.get(race, 0)
        if race == skip or not own or engine._none_of(race, rs, files):
            continue
        for d in engine._combo_of(s, race).defs:
            for where, status in getattr(d, field):
                if status != "always" and (status == "declined") != rs.declined:
                    continue
                out |= own if where is None else own & where(engine.context(s, race))
            if d.id in engine._penniless and _penniless_opponent(s, rs.owner):
                out |= own
    return out


def _penniless_opponent(s: State, owner: int) -> bool:
    """Whether the player whose turn it is, another than ``owner``, has no coins
    (``immune_to_penniless``: only he may conquer or aim abilities now)."""
    return s.active != owner and s.players[s.active].coins == 0
