"""Scoring: the coins of each turn, and the winners at the end of the game."""

from __future__ import annotations

from typing import TYPE_CHECKING

from smallworld_rules.engine import turn
from smallworld_rules.engine.basics import _OVER, Log
from smallworld_rules.engine.context import new_context
from smallworld_rules.events import GAME_OVER, SCORED, TURN_ENDED
from smallworld_rules.hooks import CORE, Breakdown, fold
from smallworld_rules.language import events, markers
from smallworld_rules.state import LOST_TRIBE, State

if TYPE_CHECKING:
    from smallworld_rules.engine.core import Engine


def score(self: Engine, s: State, race: str) -> Breakdown:
    """Coins a race scores at the end of its owner's turn (rule 1.11)."""
    regions = s.race_masks.get(race, 0).bit_count()
    parts = self._contributions(s, race, "score")
    if self._tolling:  # pieces of another race's that cost the holder of their region
        parts = [*parts, *markers.tolls(self, s, race)]
    if not parts:  # most races: the regions held, nothing to fold or clamp
        return Breakdown(regions, regions)
    return fold(regions, parts, minimum=0)


#: the explanation of a score without contributions, by value (written once, not per turn)
_PLAIN_KEPT = 128
_PLAIN = tuple(f"{value} = {value}" for value in range(_PLAIN_KEPT))
#: the same values written alone
_DIGITS = tuple(str(value) for value in range(_PLAIN_KEPT))
#: the texts kept per score modifier, one per amount it gave (see scored)
_TEXTS_KEPT = 32


def scored(self: Engine, s: State, race: str) -> tuple[int, str]:
    """``score(s, race)``'s value and explanation, folded and written as ``fold`` and
    ``Breakdown.explain`` do, without making the contributions and the breakdown (a test
    compares the two); a toll in the game takes the general way. ``race``: a race in play
    (the player's races at the end of its turn)."""
    if self._tolling:
        b = self.score(s, race)
        return b.value, b.explain()
    value = s.race_masks.get(race, 0).bit_count()
    # _modifiers(s, race, "score"), its first look-up inline (a frame per race scored): the
    # pairing by badge, then race, for the banner at hand
    rs = s.races[race]
    by_race = self._badge_combos.get(rs.power)
    combo = None if by_race is None else by_race.get(race)
    if combo is None:
        modifiers = self._modifiers(s, race, "score")
    else:
        modifiers = (combo.declined_modifiers if rs.declined else combo.active_modifiers)[
            "score"
        ]
    if not modifiers:  # most races: the regions held, nothing to fold or clamp
        return value, _PLAIN[value] if value < _PLAIN_KEPT else f"{value} = {value}"
    ctx = new_context(self, s, race)
    parts = [_DIGITS[value] if value < _PLAIN_KEPT else str(value)]
    sets = []  # fold: every add and sub first, then the lowest set
    for m in modifiers:
        if not m.condition(ctx):
            continue
        amount = m.value(ctx)
        op = m.op
        kept = self._score_labels.get(id(m))  # its texts by amount, each written once
        if kept is None or kept[0] is not m:
            kept = self._score_labels[id(m)] = (m, {})
        # (an int's text only: a hook's True or 1.0 equals 1 as a key, not as a text)
        text = kept[1].get(amount) if amount.__class__ is int else None
        if text is None:
            where = "" if m.path == CORE else f" ({m.path}:{m.line})"
            sign = "=" if op == "set" else "+" if op == "add" else "-"
            text = f"{sign}{amount} {m.label}{where}"
            if len(kept[1]) < _TEXTS_KEPT and amount.__class__ is int:
                kept[1][amount] = text
        if op == "set":
            sets.append((amount, text))
            continue
        if op == "add":
            value += amount
        else:
            value -= amount
        parts.append(text)
    if sets:
        value = min(amount for amount, _ in sets)
        parts += [text for _, text in sets]
    if value < 0:  # the clamp: a score is never negative
        parts.append(f"(clamped from {value})")
        value = 0
    parts.append("=")  # (" ".join then writes "... = value")
    parts.append(_DIGITS[value] if value < _PLAIN_KEPT and value.__class__ is int else str(value))
    return value, " ".join(parts)


def _score_and_advance(self: Engine, s: State, log: Log) -> None:
    """Rule 1.11 scoring, then the next player's turn or the end of the game (rule 1.14)."""
    p = s.active
    player = s.own_player(p)
    active = player.active
    # The active race first, then those in decline (most players have one race: the
    # details are made at once, not from a list)
    if active is not None:
        total, text = scored(self, s, active)
        details: tuple[tuple[str, int, str], ...] = ((active, total, text),)
    else:
        total, details = 0, ()
    for race in player.declined:
        value, text = scored(self, s, race)
        total += value
        details += ((race, value, text),)
    player.coins += total
    log((SCORED, p, total, details))
    if active is not None:
        s.own_race(active).turns += 1
        if s.decline_at_end:
            self._go_into_decline(s, s.own_race(active), log)  # ruling 34
    if "turn_end" in self.trigger_events:
        events.fire_player(self, s, p, "turn_end", log)
    won = self.role is not None and self._role_turn_end(s, log)
    log((TURN_ENDED, p))
    if won:
        self._game_over(s, log, winners=[self.role_seat])
        return
    s.active += 1
    if s.active == self.players:
        s.active = 0
        s.round += 1
    if s.round > self.map.turns:
        self._game_over(s, log)
        return
    if self._plain_turns:  # _start_turn's own choice, without its frame
        turn._start_plain_turn(self, s, log)
    else:
        self._start_turn(s, log)


def _game_over(self: Engine, s: State, log: Log, winners: list[int] | None = None) -> None:
    """Rule 1.14: most coins; ties broken by race tokens on the map; then shared (A14).
    ``winners``: a player who won at once (a role's win condition, A18)."""
    coins = [p.coins for p in s.players]
    if winners is not None:
        s.winners = tuple(winners)
        s.phase = _OVER
        log((GAME_OVER, tuple(winners), tuple(coins)))
        return
    best = max(coins)
    leaders = [p for p in range(self.players) if coins[p] == best]
    if len(leaders) > 1:
        on_map = {p: self.tokens_on_map(s, p) for p in leaders}
        most = max(on_map.values())
        leaders = [p for p in leaders if on_map[p] == most]
    s.winners = tuple(leaders)
    s.phase = _OVER
    s.round = self.map.turns
    log((GAME_OVER, tuple(leaders), tuple(coins)))


def tokens_on_map(self: Engine, s: State, player: int) -> int:
    """Race tokens of a player on the map, active and declined (the tie-break)."""
    total = 0
    for r in range(self.n):
        race = s.region_race[r]
        if race is not None and race != LOST_TRIBE and s.races[race].owner == player:
            total += s.region_tokens[r]
    return total
