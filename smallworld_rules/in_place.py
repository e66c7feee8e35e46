"""Moves carried out on the game's current position itself, with a small undo record.

``Game.apply`` normally forks the position (:meth:`State.fork`: 39 fields, the token list
and the races table copied) and keeps the position it played from for ``undo``. A Deploy
changes little: in the redeployment phase, the acting race's banner (replaced, copy on
write), one region's token count and one event; as the first Deploy of a turn (the
conquests end), also the tokens lifted back into hand, the piece tables and supply, the
die's bonus and the phase, unless the race's rule files have triggers (those of the
redeployment may change anything) or it is a role's. A Conquer of a region nobody defends
(``conquest._conquer``'s quick path, for a race without triggers, not a role's) changes the
banner's hand, the region's occupant and tokens, the turn's conquests, ``acted`` and the
die's bonus; one of a region a race defends (``conquest._seize``, where no trigger runs on
the loss and the defender neither is the role's nor retires) also the defender's side: its
banner's hand, the box or zone its lost tokens go to, ``attacked`` and the withdrawals to
come. A Deploy's or Conquer's banner is changed itself when it is the position's own
(its generation) and nothing else holds it (its reference count): the record then keeps its
hand, so that it holds only ints, strings and tuples of them, which the collector stops
walking after its first pass; any other banner is copied first (the position takes a
generation of its own) and the record keeps it. An EndTurn that ends the turn at once
(the player's active race in the redeployment, in a game whose turns end with scoring and
start with readying alone) changes the player's coins, two banners, the readied tokens and
the turn's fields (in a game with a role, also the piles and the tray its turn end replaces
after every turn): its record keeps those fields but the tokens (those it moves, the next
turn's readied ones, are put back from the readied pairs) and the races table of before (the
position gets a copy), two tracked objects where a fork makes three larger ones (the
position with its 39 fields, its token list and its table). An Abandon (no ``abandon``
trigger, no race kept out of what it abandoned) changes the banner's hand as a Conquer does,
the region, the piece tables and ``acted``; a PickCombo that only takes its combo changes
the player, the market and stacks, the tray, the races table (one new banner) and the turn's
fields of a run of conquests. A UseAbility of an ability that only places or moves pieces or
makes a truce changes the piece tables and supply, the abilities used, ``acted`` and the
truces, and the banner only as a Deploy's (a copy where it is not the position's alone).
When nothing but the game holds its current position, ``apply`` carries such a move out on
that position and keeps what it changed instead (a :data:`Record`, made from the values read
before the move: it assumes nothing about what the move will write beyond them, but that an
EndTurn's start of the next turn moves no tokens but those it readies, which
``Engine._plain_turns`` makes sure of; and the tests compare every such move with the
forking path, taken back and played again): no fork, and three objects fewer for the cyclic
collector to walk for as long as the history keeps the move. A refused move is changed back
from the same values; so is ``undo``, on the position itself or, if something else holds it
by then, on a fork of it. The position's conquest costs (``reach_costs``, whose token list
is the position's own) are dropped by the move and by ``undo``, as for a forked move.

*Nothing but the game holds it* is asked of the interpreter: the position's reference count.
A clone (which shares the position), a :class:`~smallworld_rules.game.LegalActions` view
still alive (it answers ``in`` from its position), another game's history, a caller's
variable: each holds a reference, and any of them sends the move down the forking path.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

from smallworld_rules.state import Phase, State

#: What a Deploy made in place changed, as it was before (a tuple: the undo history keeps one
#: per such move, where a State is every other move's entry): in the redeployment phase, the
#: acting race's id, its banner, the region and its token count; for the first Deploy of a
#: turn (the conquests end), the acting race's id, its banner, every region's token count,
#: the piece tables, the piece supply and the die's bonus (the phase was the conquests');
#: for a Conquer, the race's id, its banner, the region and its tokens, the occupants and
#: their masks, the conquests of the turn, ``acted`` and the die's bonus (10 values). The
#: banner is the banner's hand (an int) where the move changed the banner itself. For an
#: EndTurn (see ``Game._end_turn_in_place``), the races table, the players, ``None`` where the
#: tokens were kept (those it moves, the next turn's readied ones, are put back from
#: ``State.readied``) and the turn's fields, in ``undone``'s order (19 values), and in a game with
#: a role the piles and the tray its turn end may replace (21 values). For an Abandon,
#: the race's id, its banner (or hand), the region and its tokens, the occupants and their
#: masks, the piece tables, the supply and ``acted`` (9 values). For a PickCombo (see
#: ``Game._pick_in_place``), the players, the market, the stacks, the discards, the
#: generator, the box, the race picked (its banner is taken out of the table again),
#: ``picked``, the acting race and the fields of a race's run of conquests (15 values). For
#: a Conquer of a defended region, a Conquer's 10 values and the defender's side: its banner
#: (its hand where the move changed the banner itself; None for a Lost Tribe), the box, the
#: zones, ``attacked`` and the withdrawals to come (11 values). For a UseAbility that places
#: pieces or makes a truce (``Game._use_ability_in_place``), the acting race's id, its banner
#: where the move copied it (else None), the piece tables and supply, the abilities used this
#: turn, ``acted`` and the truces (7 values).
Record = tuple[Any, ...]


class _Holder:
    __slots__ = ("_state",)
    _state: object


def _calibrated() -> tuple[Callable[[Any], int], int]:
    """``sys.getrefcount`` and the count it gives for an object held by one attribute and
    one local variable, as in ``Game.apply`` (``old = self._state``): measured, not assumed,
    so that an interpreter counting its stack references otherwise still answers right.
    Where the count is unknown or does not rise by one per holder, no move is made in place
    (the count -1 is never given)."""
    count = getattr(sys, "getrefcount", None)
    if count is None or sys.implementation.name != "cpython":  # pragma: no cover
        return len, -1
    holder = _Holder()
    holder._state = object()
    old = holder._state
    alone = count(old)
    other = old
    if count(old) != alone + 1:  # pragma: no cover - every reference-counting CPython
        return count, -1
    del other
    return count, alone


#: ``sys.getrefcount``, and its answer for a position nothing but its game holds
refcount, ALONE = _calibrated()
_CONQUEST = Phase.CONQUEST
_REDEPLOY = Phase.REDEPLOY
_PICK = Phase.PICK


def undone(s: State, record: Record, alone: bool) -> State:
    """The position before the move ``record`` was kept for, ``s`` being the position
    after it: ``s`` itself changed back if nothing else holds it (``alone``), else a fork
    of it (``s`` may be another game's position, or a view's). A banner's hand is put
    back on the banner itself only where nothing but ``s`` holds it, else on a copy. Its
    conquest costs are dropped, as ``Game.apply`` drops those of a position it played
    from."""
    if not alone:
        s = s.fork()
    s.reach_costs = None
    size = len(record)
    if size == 7:  # a UseAbility (tested first: undo's cheapest restore, kept so)
        s.pieces = record[2]
        s.piece_supply = record[3]
        s.used = record[4]
        s.acted = record[5]
        s.truces = record[6]
        if record[1] is not None:  # the banner the move copied
            s.races[record[0]] = record[1]
        return s
    if size < 14:  # a Deploy, Conquer or Abandon: the banner, or the hand of one changed in place
        race, banner = record[0], record[1]
        if banner.__class__ is int:
            rs = s.races[race]
            if rs.gen != s.gen or refcount(rs) != ALONE:  # not the position's alone: a copy
                if rs.gen == s.gen:  # (a fork of the position holds it)
                    s.gen += 1
                rs = s.own_race(race)
            rs.hand = banner
        else:
            s.races[race] = banner
    if size == 4:
        s.region_tokens[record[2]] = record[3]
    elif size == 6:
        _, _, s.region_tokens[:], s.pieces, s.piece_supply, s.die_bonus = record
        s.phase = _CONQUEST
    elif size == 9:  # an Abandon
        (
            _,
            _,
            region,
            s.region_tokens[region],
            s.region_race,
            s.race_masks,
            s.pieces,
            s.piece_supply,
            s.acted,
        ) = record
    elif size == 10:  # a Conquer
        (
            _,
            _,
            region,
            s.region_tokens[region],
            s.region_race,
            s.race_masks,
            s.conquered,
            s.conquered_nonempty,
            s.acted,
            s.die_bonus,
        ) = record
    elif size == 11:  # a Conquer of a defended region: the 10 values, then the defender's side
        (
            _,
            _,
            region,
            s.region_tokens[region],
            occupants,
            s.race_masks,
            s.conquered,
            s.conquered_nonempty,
            s.acted,
            s.die_bonus,
            (banner, s.box, s.zones, s.attacked, s.withdrawals),
        ) = record
        s.region_race = occupants
        if banner.__class__ is int:  # as the acting banner's hand above
            race = occupants[region]
            rs = s.races[race]
            if rs.gen != s.gen or refcount(rs) != ALONE:
                if rs.gen == s.gen:
                    s.gen += 1
                rs = s.own_race(race)
            rs.hand = banner
        elif banner is not None:  # (None: a Lost Tribe)
            s.races[occupants[region]] = banner
    elif size == 15:  # a PickCombo: its new banner taken out again
        (
            s.players,
            s.market,
            s.race_stack,
            s.power_stack,
            s.power_discard,
            s.rng,
            s.box,
            race,
            s.picked,
            s.acting,
            s.conquered,
            s.conquered_nonempty,
            s.readied,
            s.die_target,
            s.die_bonus,
        ) = record
        s.races.pop(race, None)  # (a refusal may come before the banner is made)
        s.phase = _PICK
    else:  # an EndTurn: a copy of the races table (the record's may be another game's)
        # The only tokens it moves are those the next turn's start readied (a turn that
        # ends at once: scoring and readying alone); they go back where they were taken
        # from. A readying always binds a new tuple, and none leaves the record's.
        readied = s.readied
        if readied is not record[15]:
            tokens = s.region_tokens
            for r, taken in readied:
                tokens[r] += taken
        if size != 19:  # in a game with a role, its piles and tray too
            s.zones, s.box = record[19], record[20]
            record = record[:19]
        (
            races,
            s.players,
            _,  # (no tokens kept: see above)
            s.acted,
            s.picked,
            s.used,
            s.attacked,
            s.regained,
            s.purchases,
            s.conquered,
            s.conquered_nonempty,
            s.die_target,
            s.die_bonus,
            s.truces,
            s.acting,
            s.readied,
            s.active,
            s.round,
            s.winners,
        ) = record
        s.races = races.copy()
        s.phase = _REDEPLOY
        s.withdrawals = ()
        s.decline_at_end = False
    return s


def history_states(entries: list[Any], last: State) -> list[State]:
    """The positions before each move of an undo history (``entries``: a State, or a
    :data:`Record` for a move made in place), ``last`` being the position after the last
    move: each record's position rebuilt as a fork of the position after it."""
    states: list[Any] = list(entries)
    after = last
    for i in range(len(states) - 1, -1, -1):
        entry = states[i]
        if type(entry) is tuple:
            entry = states[i] = undone(after, entry, False)
        after = entry
    return states
