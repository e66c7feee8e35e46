"""Where the rule language's events fire, and the triggers run on them.

``EVENTS`` names, for each event of ``vocabulary.EVENTS``, the engine step that fires it;
:func:`fire` runs a race's triggers on one. A trigger whose effects roll the die waits in
``memory`` ``queue`` until the action that fired it is done (:func:`after_action`): with
``chance="explicit"`` the roll is then a chance node, resolved by :func:`resolve_roll`; so is
a ``draw`` (``memory`` ``drawing``: its region), resolved by
:func:`~smallworld_rules.language.hidden_pieces.drawn`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from smallworld_rules import rng
from smallworld_rules.events import DIE_ROLLED
from smallworld_rules.language import effects, memory
from smallworld_rules.ruledefs import CompiledEffect
from smallworld_rules.state import EFFECT_ROLL, LOST_TRIBE, Phase, RaceState, State

if TYPE_CHECKING:
    from smallworld_rules.engine.basics import Log
    from smallworld_rules.engine.core import Engine

#: event -> the engine step that fires it (for readers; the engine calls :func:`fire`).
EVENTS: dict[str, str] = {
    "conquest": "conquest._seize (_conquer for a region nobody defends), after it changed hands",
    "lost": "conquest._seize, for the defender, after the conqueror's triggers",
    "tokens_lost": "conquest._seize, for the defender, when it lost at least one token",
    "redeploy": "redeploy._enter_redeploy",
    "turn_start": "turn._start_turn, for each race of the player, after TurnStarted",
    "turn_end": "scoring._score_and_advance, for each race of the player, before TurnEnded",
    "pick": "market._pick, after ComboPicked",
    "decline": "decline._go_into_decline, after Declined",
    "any_decline": "decline._go_into_decline, for every race in play, after 'decline'",
    "abandon": "conquest._abandon, after Abandoned",
    "die_roll": "die._resolve_die, after DieRolled (the reinforcement die)",
    "any_lost": "conquest._seize, for each race of the defender's owner, after 'lost'",
}


class Occasion:
    """What an event knows: its target region, the other player and race, and a number
    (``lost``: the tokens lost, or for ``pick`` the coins that lay on the combo)."""

    __slots__ = ("event", "lost", "other", "other_race", "target")

    def __init__(
        self, event: str, target: int = -1, other: int = -1, other_race: str | None = None,
        lost: int = 0,
    ) -> None:
        self.event = event
        self.target = target
        self.other = other
        self.other_race = other_race
        self.lost = lost


def fire(
    engine: Engine,
    s: State,
    rs: RaceState,
    event: str,
    log: Log,
    occasion: Occasion | None = None,
    as_declined: bool | None = None,
) -> None:
    """Run ``rs``'s triggers on ``event`` (those that work in its status, or in
    ``as_declined``)."""
    if engine._none_of(rs.race, rs, engine._triggering):
        return
    triggers = engine._combo_of(s, rs.race).triggers.get(event)
    if not triggers:
        return
    declined = rs.declined if as_declined is None else as_declined
    occasion = occasion or Occasion(event)
    target = occasion.target
    for trigger in triggers:
        status = trigger.status  # trigger.applies_to(declined), inline: fired often
        if status != "always" and (status == "declined") != declined:
            continue
        condition = trigger.condition
        if condition is not None and not condition(engine.context(s, rs.race, target, occasion)):
            continue
        if trigger.once_per_turn:
            if trigger.key in s.used:
                continue
            s.used = (*s.used, trigger.key)
        if trigger.times:
            if rs.uses.get(trigger.key, 0) >= trigger.times:
                continue
            rs.uses = {**rs.uses, trigger.key: rs.uses.get(trigger.key, 0) + 1}
        if trigger.rolls or (engine._hiding and engine.explicit_chance and trigger.draws):
            _wait(s, (rs.race, "trigger", trigger.key, 0, target, occasion.other, occasion.lost))
            continue
        run(engine, s, rs, trigger.effects, occasion, log)


def _wait(s: State, item: tuple[str, str, str, int, int, int, int]) -> None:
    memory.put(s, "queue", (*memory.get(s, "queue", ()), item))


def run(
    engine: Engine,
    s: State,
    rs: RaceState,
    effect_list: tuple[CompiledEffect, ...],
    occasion: Occasion,
    log: Log,
) -> int | None:
    """Carry out effects in order, each unless it cannot happen now. Returns the index of
    the effect after a ``roll`` that must wait for a chance node, else ``None``."""
    target = occasion.target
    for i, effect in enumerate(effect_list):
        verb = effect.verb
        if verb == "roll":
            if engine.explicit_chance:
                return i + 1
            s.rng, k = rng.randbelow(s.rng, len(engine.die_faces))
            _rolled(engine, s, rs, engine.die_faces[k], log)
        elif verb == "gain":  # the amount may read the event (count(tokens lost) …)
            assert effect.amount is not None
            amount = effect.amount(engine.context(s, rs.race, target, occasion))
            engine._gain(s, rs, amount, log)
        elif verb in effects.EFFECTS:
            entry = effects.EFFECTS[verb]
            if entry.problem(engine, s, rs, effect, occasion) is None:
                if verb == "draw" and engine.explicit_chance:
                    memory.put(s, "drawing", target)  # a chance node: DrawPiece answers it
                    return i + 1
                entry.do(engine, s, rs, effect, occasion, log)
        elif engine._effect_problem(s, rs, effect, target) is None:
            engine._do_effect(s, rs, effect, target, log)
    return None


def _rolled(engine: Engine, s: State, rs: RaceState, face: int, log: Log) -> None:
    memory.put(s, "die", face)
    log((DIE_ROLLED, rs.owner, -1, face, 0, 0, True))


def _effects_of(engine: Engine, s: State, race: str, source: str, name: str) -> tuple[
    CompiledEffect, ...
]:
    for d in engine._combo_of(s, race).defs:
        if source == "trigger":
            for trigger in d.triggers:
                if trigger.key == name:
                    return trigger.effects
        else:
            for ability in d.abilities:
                if ability.name == name:
                    return ability.effects
    return ()


def after_action(engine: Engine, s: State, log: Log) -> None:
    """Run what waits for a roll of the die, now that the action is done."""
    while memory.get(s, "queue") and s.phase is not Phase.OVER:
        queue = memory.get(s, "queue")
        (race, source, name, first, target, other, lost), rest = queue[0], queue[1:]
        memory.put(s, "queue", rest)
        if race not in s.races:
            continue
        rs = s.own_race(race)
        effect_list = _effects_of(engine, s, race, source, name)
        occasion = Occasion(source, target, other, None, lost)
        resume = run(engine, s, rs, effect_list[first:], occasion, log)
        if resume is not None:  # a chance node: the roll comes as a RollDie (a DrawPiece)
            memory.put(s, "queue", ((race, source, name, first + resume, target, other, lost),
                                    *memory.get(s, "queue", ())))
            memory.put(s, "resume", s.phase.value)
            memory.put(s, "roller", race)
            s.phase = Phase.DIE_ROLL
            s.die_target = EFFECT_ROLL
            return


def resolve_roll(engine: Engine, s: State, face: int, log: Log) -> None:
    """The chance node of a ``roll`` effect: the face, then the effects after it."""
    s.die_target = -1
    s.phase = Phase(memory.get(s, "resume", Phase.CONQUEST.value))
    race = memory.get(s, "roller")
    memory.forget(s, "resume", "roller")
    rs = s.races.get(race) if race else None
    memory.put(s, "die", face)
    log((DIE_ROLLED, -1 if rs is None else rs.owner, -1, face, 0, 0, True))


def run_ability(
    engine: Engine, s: State, rs: RaceState, effect_list: tuple[CompiledEffect, ...],
    name: str, target: int, other: int, log: Log,
) -> None:
    """An ability's effects (``other``: its target player); from a ``roll`` on they wait
    until the action is done."""
    for i, effect in enumerate(effect_list):
        if effect.verb == "roll" or (effect.verb == "draw" and engine.explicit_chance):
            _wait(s, (rs.race, "ability", name, i, target, other, 0))
            return
        occasion = Occasion("ability", target, other)
        if effect.verb in effects.EFFECTS:
            entry = effects.EFFECTS[effect.verb]
            if entry.problem(engine, s, rs, effect, occasion) is None:
                entry.do(engine, s, rs, effect, occasion, log)
        else:
            engine._do_effect(s, rs, effect, target, log)


def record_conquest(engine: Engine, s: State, r: int, conqueror: RaceState) -> None:
    """Keep what region ``r`` held before its conquest (``memory`` facts)."""
    occupant, tokens = s.region_race[r], s.region_tokens[r]
    owner = -1
    kind = "empty"
    if occupant == LOST_TRIBE:
        kind = "tribe"
    elif occupant is not None and occupant in s.races:
        drs = s.races[occupant]
        owner = drs.owner
        kind = "declined" if drs.declined or engine.seen_declined(occupant) else "active"
    pieces = tuple(sorted(name for name, n in s.pieces.get(r, {}).items() if n))
    fact = (r, kind, owner, tokens if occupant is not None else 0, pieces)
    memory.put(s, "facts", (*memory.get(s, "facts", ()), fact))


def fire_all(engine: Engine, s: State, event: str, log: Log) -> None:
    """Fire ``event`` for every race in play, seat by seat."""
    for race in sorted(s.races, key=lambda r: (s.races[r].owner, r)):
        if race in s.races and triggers(engine, s, race, event):
            fire(engine, s, s.own_race(race), event, log)


def fire_player(
    engine: Engine, s: State, player: int, event: str, log: Log,
    occasion: Occasion | None = None,
) -> None:
    """Fire ``event`` for each race of ``player``: its active race, then its declined ones."""
    ps = s.players[player]
    for race in ((ps.active,) if ps.active else ()) + ps.declined:
        if race in s.races and triggers(engine, s, race, event):
            fire(engine, s, s.own_race(race), event, log, occasion)


def triggers(engine: Engine, s: State, race: str, event: str) -> bool:
    """Whether the race has a trigger on ``event`` (asked before its state is copied)."""
    rs = s.races.get(race)
    if engine._none_of(race, rs, engine._triggering):
        return False
    return event in engine._combo_of(s, race).triggers
