"""What the rule language's effects of version 3 do, and when they cannot happen.

``EFFECTS`` maps each verb to an :class:`Effect`: ``problem`` says why it cannot happen now
(``None``: it can), ``do`` carries it out. The effects of version 2 (place, move, conquer,
convert, roll_die, truce, gain) are the engine's own (``engine/effects.py``); ``roll`` is
run by :func:`smallworld_rules.language.events.run`, as it may have to wait for a chance node.

Coins never go below 0: a player who must pay more than they have pays what they have (an
ability with a ``price`` is not offered to a player who cannot pay it).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, NamedTuple

from smallworld_rules.dsl.bounds import COUNT_LIMIT
from smallworld_rules.events import ABANDONED, PIECE_MOVED, TOKENS_GAINED
from smallworld_rules.language import (
    borrowing,
    die_conquest,
    discounts,
    hidden_pieces,
    memory,
    piles,
)
from smallworld_rules.language.values import immune_regions
from smallworld_rules.ruledefs import CompiledEffect
from smallworld_rules.state import LOST_TRIBE, RaceState, State

if TYPE_CHECKING:
    from smallworld_rules.engine.basics import Log
    from smallworld_rules.engine.core import Engine
    from smallworld_rules.language.events import Occasion

Problem = Callable[["Engine", State, RaceState, CompiledEffect, "Occasion"], str | None]
Do = Callable[["Engine", State, RaceState, CompiledEffect, "Occasion", "Log"], None]


class Effect(NamedTuple):
    """One effect: why it cannot happen now, and what it does."""

    problem: Problem
    do: Do


def _amount(engine: Engine, s: State, rs: RaceState, effect: CompiledEffect, o: Occasion) -> int:
    assert effect.amount is not None
    return max(0, effect.amount(engine.context(s, rs.race, o.target, o)))


def _always(engine: Engine, s: State, rs: RaceState, e: CompiledEffect, o: Occasion) -> None:
    return None


def _players(engine: Engine, s: State, rs: RaceState, e: CompiledEffect, o: Occasion) -> list[
    int
]:
    """The players the effect's ``whom`` names at this moment (``opponents with PRED``:
    those of them the predicate holds for)."""
    whom = e.whom
    if whom == "opponents":
        order = [(rs.owner + i) % engine.players for i in range(1, engine.players)]
        if e.players is None:
            return order
        mask = sum(1 << p for p in order)
        mask = engine.players_matching(s, rs.owner, rs.race, e.players, mask)
        return [p for p in order if (mask >> p) & 1]
    return [o.other] if o.other >= 0 and o.other != rs.owner else []


def _gain_coins(
    engine: Engine, s: State, rs: RaceState, e: CompiledEffect, o: Occasion, log: Log
) -> None:
    s.own_player(rs.owner).coins += _amount(engine, s, rs, e, o)


def _pay(engine: Engine, s: State, rs: RaceState, e: CompiledEffect, o: Occasion, log: Log) -> None:
    player = s.own_player(rs.owner)
    player.coins -= min(player.coins, _amount(engine, s, rs, e, o))


def _take_coins(
    engine: Engine, s: State, rs: RaceState, e: CompiledEffect, o: Occasion, log: Log
) -> None:
    wanted = _amount(engine, s, rs, e, o)
    for p in _players(engine, s, rs, e, o):
        payer = s.own_player(p)
        paid = min(payer.coins, wanted)
        payer.coins -= paid
        s.own_player(rs.owner).coins += paid


def _give_tokens(
    engine: Engine, s: State, rs: RaceState, e: CompiledEffect, o: Occasion, log: Log
) -> None:
    wanted = _amount(engine, s, rs, e, o)
    for p in _players(engine, s, rs, e, o):
        race = o.other_race if e.whom != "opponents" and o.other_race else s.players[p].active
        if race is None or race not in s.races or race not in s.box:
            continue
        tokens = min(wanted, s.box[race])
        if not tokens:
            continue
        other = s.own_race(race)
        s.to_box(race, -tokens)
        other.hand += tokens
        log((TOKENS_GAINED, other.owner, race, tokens))
        # It places them when it withdraws (or, acting, in its redeployment).
        if race != s.acting and race not in s.withdrawals and engine.mask_of(s, race):
            s.withdrawals = (*s.withdrawals, race)


def _remove_problem(
    engine: Engine, s: State, rs: RaceState, e: CompiledEffect, o: Occasion
) -> str | None:
    if o.target < 0 or not s.pieces.get(o.target, {}).get(e.piece or ""):
        return f"region {o.target} holds no {e.piece}"
    return None


def _remove(
    engine: Engine, s: State, rs: RaceState, e: CompiledEffect, o: Occasion, log: Log
) -> None:
    assert e.piece is not None
    engine._take_piece(s, o.target, e.piece)
    s.piece_supply = {**s.piece_supply, e.piece: s.piece_supply[e.piece] + 1}
    log((PIECE_MOVED, e.piece, -1, o.target))


def _add(engine: Engine, s: State, rs: RaceState, e: CompiledEffect, o: Occasion, log: Log) -> None:
    assert e.amount is not None and e.counter is not None
    amount = e.amount(engine.context(s, rs.race, o.target, o))
    if e.per_turn:
        counters = dict(memory.get(s, "counters", {}))
        key = f"{rs.race}|{e.counter}"
        counters[key] = _counted(counters.get(key, 0) + amount)
        if not counters[key]:
            del counters[key]
        memory.put(s, "counters", counters)
    else:
        key = "#" + e.counter
        uses = {**rs.uses, key: _counted(rs.uses.get(key, 0) + amount)}
        if not uses[key]:
            del uses[key]
        rs.uses = uses


def _mark(
    engine: Engine, s: State, rs: RaceState, e: CompiledEffect, o: Occasion, log: Log
) -> None:
    marks = rs.uses.get(memory.MARKS, 0)
    for p in _players(engine, s, rs, e, o):
        marks |= 1 << p
    if marks:
        rs.uses = {**rs.uses, memory.MARKS: marks}


def _unmark(
    engine: Engine, s: State, rs: RaceState, e: CompiledEffect, o: Occasion, log: Log
) -> None:
    marks = rs.uses.get(memory.MARKS, 0)
    for p in _players(engine, s, rs, e, o):
        marks &= ~(1 << p)
    if marks != rs.uses.get(memory.MARKS, 0):
        uses = {k: v for k, v in rs.uses.items() if k != memory.MARKS}
        if marks:
            uses[memory.MARKS] = marks
        rs.uses = uses


def _evict_problem(
    engine: Engine, s: State, rs: RaceState, e: CompiledEffect, o: Occasion
) -> str | None:
    r = o.target
    if r < 0 or s.region_race[r] in (None, rs.race):
        return None
    if engine.immune_piece(s, r) is not None or (
        engine._immunizing and (immune_regions(engine, s) >> r) & 1
    ):
        return f"region {r} is immune"
    return None


def _evict(
    engine: Engine, s: State, rs: RaceState, e: CompiledEffect, o: Occasion, log: Log
) -> None:
    """The target's tokens go back to their owner's hand, none lost, as after losing the
    region (he places them at his withdrawal); a Lost Tribe's leave the game."""
    r = o.target
    occupant, held = s.region_race[r], s.region_tokens[r]
    if r < 0 or occupant is None:
        return
    if occupant == LOST_TRIBE:
        engine._lose(s, occupant, held, log)
        engine._empty_region(s, r)
        return
    drs = s.own_race(occupant)
    if occupant == engine.role_race:  # as in a conquest: its hand zone's tokens wait aside
        drs.held += drs.hand
        drs.hand = 0
    for name, count in engine._remove_pieces(s, r, keep_survivors=False).items():
        s.regained = {**s.regained, name: s.regained.get(name, 0) + count}  # ruling 25
    s.occupy(r, None, 0)
    drs.hand += held
    log((ABANDONED, drs.owner, occupant, r, held))
    if occupant == rs.race:
        return  # its own tokens: back in hand for its redeployment
    if drs.declined and not engine.mask_of(s, occupant):
        engine._retire(s, occupant, log)  # a declined race cannot re-enter the map
    elif occupant not in s.withdrawals:
        s.withdrawals = (*s.withdrawals, occupant)


def _counted(value: int) -> int:
    """A counter stays between 0 and COUNT_LIMIT (what the checker's bound of an expression
    takes any count to be at most)."""
    return max(0, min(COUNT_LIMIT, value))


def _gather_problem(
    engine: Engine, s: State, rs: RaceState, e: CompiledEffect, o: Occasion
) -> str | None:
    if o.target < 0 or s.region_race[o.target] != rs.race:
        return f"region {o.target} is not held by your race"
    if engine.mask_of(s, rs.race) == 1 << o.target:
        return "your race holds no other region to gather from"
    return None


def _gather(
    engine: Engine, s: State, rs: RaceState, e: CompiledEffect, o: Occasion, log: Log
) -> None:
    gathered = 0
    for r in engine.regions_of(s, rs.race):
        if r != o.target:
            gathered += 1
            s.to_box(rs.race, s.region_tokens[r] - 1)  # one token of each region moves
            engine._empty_region(s, r)
    s.region_tokens[o.target] += gathered


def _heir(s: State, rs: RaceState) -> str | None:
    """The active race of the race's owner, if it is another race."""
    heir = s.players[rs.owner].active
    return heir if heir is not None and heir != rs.race else None


def _hand_over_problem(
    engine: Engine, s: State, rs: RaceState, e: CompiledEffect, o: Occasion
) -> str | None:  # also hand_over_new's: either source of the token will do
    if o.target < 0 or s.region_race[o.target] != rs.race:
        return f"region {o.target} is not held by your race"
    heir = _heir(s, rs)
    if heir is None:
        return "you have no other active race to hand the region to"
    if s.races[heir].hand < 1 and s.box.get(heir, 0) < 1:
        return f"no {engine.race_defs[heir].name} token is left in hand or in the box"
    return None


def _hand_over(
    engine: Engine, s: State, rs: RaceState, e: CompiledEffect, o: Occasion, log: Log
) -> None:
    heir = _heir(s, rs)
    assert heir is not None
    s.to_box(rs.race, s.region_tokens[o.target])
    engine._empty_region(s, o.target)
    # `hand_over`: a token of its hand, else of its box; `hand_over new` the other way.
    from_box = e.verb == "hand_over_new" and s.box.get(heir, 0) > 0
    if s.races[heir].hand and not from_box:
        s.own_race(heir).hand -= 1
    else:
        s.to_box(heir, -1)
    s.occupy(o.target, heir, 1)
    if not engine.mask_of(s, rs.race) and rs.declined:
        engine._retire(s, rs.race, log)  # a declined race cannot come back to the map


EFFECTS: dict[str, Effect] = {
    "gain_coins": Effect(_always, _gain_coins),
    "pay": Effect(_always, _pay),
    "take_coins": Effect(_always, _take_coins),
    "give_tokens": Effect(_always, _give_tokens),
    "remove": Effect(_remove_problem, _remove),
    "add": Effect(_always, _add),
    "exchange": Effect(_always, piles.exchange),
    "mark": Effect(_always, _mark),
    "gather": Effect(_gather_problem, _gather),
    "hand_over": Effect(_hand_over_problem, _hand_over),
    "discount": Effect(discounts.problem, discounts.do),
    "conquer_less": Effect(discounts.conquer_problem, discounts.conquer),
    "unmark": Effect(_always, _unmark),
    "evict": Effect(_evict_problem, _evict),
    "conquer_with_die": Effect(die_conquest.problem, die_conquest.do),
    "conquer_with_die_not_final": Effect(die_conquest.problem, die_conquest.do),
    "hand_over_new": Effect(_hand_over_problem, _hand_over),
    "draw": Effect(hidden_pieces.draw_problem, hidden_pieces.draw),
    "borrow_power": Effect(borrowing.problem, borrowing.borrow),
}


def price(engine: Engine, s: State, rs: RaceState, fn: Callable[..., int] | None) -> int:
    """The coins an ability costs now (0 without a price)."""
    if fn is None:
        return 0
    return max(0, fn(engine.context(s, rs.race)))
