"""The end of the conquests and redeployment: tokens back in hand, tokens placed,
conquest-only tokens held back."""

from __future__ import annotations

from typing import TYPE_CHECKING

from smallworld_rules.actions import Deploy
from smallworld_rules.engine.basics import _CONQUEST, _REDEPLOY, _WITHDRAWAL, Log
from smallworld_rules.errors import IllegalAction
from smallworld_rules.events import DEPLOYED, PIECE_MOVED
from smallworld_rules.language import limits
from smallworld_rules.state import RaceState, State

if TYPE_CHECKING:
    from smallworld_rules.engine.core import Engine


def _surplus(s: State, regions: tuple[int, ...], keep: int = 1) -> int:
    """Tokens on ``regions`` beyond one per region (what ending the conquests lifts), or
    beyond ``keep`` for a race that keeps more (``region_tokens min``)."""
    tokens = s.region_tokens
    total = 0
    if keep == 1:  # a plain loop: cheaper than sum(map(...)) for a handful of regions
        for r in regions:
            total += tokens[r]
        return total - len(regions)
    for r in regions:
        if tokens[r] > keep:
            total += tokens[r] - keep
    return total


def _keep(self: Engine, s: State, race: str) -> int:
    """Tokens each region of the race keeps when it readies or ends its conquests: 1, or
    its ``region_tokens min``."""
    return self._combo_of(s, race).floor if self._floors else 1


def _hold(self: Engine, s: State, rs: RaceState) -> int:
    """Conquest-only tokens the race must hold off the map when its turn ends (ruling 13):
    all of them, or every token it has if it has fewer."""
    holding = self._holding  # _none_of, without its frame (asked at every Deploy)
    race = rs.race
    if race not in holding and (
        rs.power not in holding
        if race != self.role_race
        else holding.isdisjoint(s.role_powers)  # a role's pairing: its race and powers
    ):
        return 0
    combo = self._combo_of(s, race)
    if self._no_redeploy and "no_redeployment" in combo.flags:
        return rs.hand  # no redeployment: all of it waits off the map
    wanted = combo.conquest_tokens
    if not wanted:
        return 0
    return self._held_back(s, rs, wanted, self.regions_of(s, race))


def _held_back(s: State, rs: RaceState, wanted: int, own: tuple[int, ...]) -> int:
    """``_hold`` for a race that has conquest-only tokens (``wanted``) on ``own``."""
    return min(wanted, rs.hand + sum(map(s.region_tokens.__getitem__, own)))


def _may_end_conquest(
    rs: RaceState, hold: int, surplus: int, own: tuple[int, ...]
) -> bool:
    """Whether EndTurn may end the conquests now.

    Ending without redeploying leaves the surplus where it is. A race that must hold
    conquest-only tokens back but lacks them in hand (and cannot place any token) takes
    the surplus back first; if that is still too few, it stays in redeployment, where it
    must abandon regions (ruling 13).
    """
    return not own or rs.hand == hold or rs.hand < hold >= rs.hand + surplus


def _enter_redeploy(
    self: Engine,
    s: State,
    rs: RaceState,
    log: Log,
    lift: bool = True,
    own: tuple[int, ...] | None = None,
) -> bool:
    """Conquests end (rule 1.10): every token beyond one per region goes back to hand and the
    race's movable pieces to their supply (unless ``lift`` is off: the turn ends as it
    stands); then the race's redeploy triggers run. ``own``: the race's regions, if the
    caller has them at hand. Returns whether some trigger of the race's was looked for
    (only then may the hand and the tokens held back differ from what lifting gives)."""
    if lift and self._no_redeploy and self.has_flag(s, rs.race, "no_redeployment"):
        lift = False  # no redeployment: the conquests end as they stand
    race = rs.race
    # the quick tests of _none_of, without its frames: the pairing is looked up only for a
    # race with pieces to lift or triggers
    lifting, triggering, role = self._lifting, self._triggering, race == self.role_race
    triggers = race in triggering or rs.power in triggering or role
    if lift:
        keep = self._keep(s, race) if self._floors else 1  # region_tokens min: more stay
        tokens = s.region_tokens
        for r in self.regions_of(s, race) if own is None else own:
            extra = tokens[r] - keep
            if extra > 0:
                tokens[r] = keep
                rs.hand += extra
        if race in lifting or rs.power in lifting or role:
            combo = self._combo_of(s, race)
            triggers = "redeploy" in combo.triggers  # (lifting changes no pairing)
            lifts = combo.lifts_pieces
        else:
            lifts = False
        if lifts:
            holders = {d.id for d in self.defs(s, race)}
            for r in sorted(s.pieces):
                if s.region_race[r] != race:
                    # another race's piece of the same file (a badge dealt again while the
                    # piece stays with its declined holder) is not this race's to lift
                    if not s.pieces[r]:
                        s.set_pieces(r, {})
                    continue
                held = dict(s.pieces[r])  # piece tables are replaced (copy on write)
                for name in sorted(held):
                    piece = self.rules.pieces[name]
                    if piece.lifted_at_redeploy and piece.holder in holders:
                        supply = s.piece_supply[name] + held.pop(name)
                        s.piece_supply = {**s.piece_supply, name: supply}
                        log((PIECE_MOVED, name, -1, r))
                s.set_pieces(r, held)
        elif not all(s.pieces.values()):  # no piece of its to lift (most races): only drop
            for r in [r for r, held in s.pieces.items() if not held]:  # empty entries, as above
                s.set_pieces(r, {})
    s.die_bonus = -1
    s.phase = _REDEPLOY
    if triggers:
        self._fire(s, rs, "redeploy", -1, log)
    return triggers


def _deploy(self: Engine, s: State, action: Deploy, log: Log) -> None:
    phase = s.phase
    if phase is _REDEPLOY or phase is _CONQUEST:
        acting = s.acting  # _acting_race's frame only to refuse: no race acts
        rs = self._acting_race(s, action) if acting is None else s.own_race(acting)
        if self._no_redeploy and self.has_flag(s, rs.race, "no_redeployment"):
            raise IllegalAction(
                f"your {self.race_defs[rs.race].name} do not redeploy: the tokens in hand wait "
                "off the map until your next turn",
                action,
            )
        available = rs.hand
        holding = self._holding  # _hold only for a race that may hold tokens back
        if rs.race in holding or rs.power in holding or rs.race == self.role_race:
            available -= self._hold(s, rs)
        if phase is _CONQUEST:  # the first Deploy of a turn: what ending the conquests lifts
            entry = self._by_mask.get(s.race_masks.get(rs.race, 0))  # regions_of, inline
            own = self.regions_of(s, rs.race) if entry is None else entry[0]
            # what the lift adds is counted only where the hand alone lacks the tokens (the
            # count is then checked, or named in the refusal)
            if not 1 <= action.count <= available:
                if self._floors:
                    available += self._surplus(s, own, self._keep(s, rs.race))
                else:  # _surplus(s, own), inline: the tokens beyond 1 per region
                    tokens = s.region_tokens
                    available -= len(own)
                    for r in own:
                        available += tokens[r]
    elif phase is _WITHDRAWAL:
        rs = s.own_race(s.withdrawals[0])
        available = rs.hand
    else:  # refused with the phases it is played in
        self._need_phase(s, action, _CONQUEST, _REDEPLOY, _WITHDRAWAL)
        return  # pragma: no cover - _need_phase raised
    r, n = action.region, action.count
    if not 0 <= r < self.n or s.region_race[r] != rs.race:
        raise IllegalAction(
            f"region {r} is not held by your {self.race_defs[rs.race].name}", action
        )
    if not 1 <= n <= available:
        if available < 1:
            raise IllegalAction("you have no token to place", action)
        raise IllegalAction(f"you can place 1 to {available} tokens, not {n}", action)
    if self._capping:
        problem = limits.fits(self, s, rs.race, r, n, lifted=s.phase is _CONQUEST)
        if problem:
            raise IllegalAction(problem, action)
    # once lifted, the hand less the tokens held back is what was available (lifting
    # moves tokens from the regions into hand); only the race's triggers may change that
    fired = phase is _CONQUEST and self._enter_redeploy(s, rs, log, own=own)
    if fired and n > rs.hand - self._hold(s, rs):  # pragma: no cover - checked above
        raise IllegalAction(f"you can place at most {rs.hand} tokens", action)
    rs.hand -= n
    s.region_tokens[r] += n
    log((DEPLOYED, rs.owner, rs.race, r, n))
    if phase is _WITHDRAWAL:
        self._withdrawal_progress(s, log)
