"""Compiled rule definitions: what the engine consults, built once per rule file."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import attrs

from smallworld_rules.hooks import EvalContext, IntFn


@attrs.frozen
class CompiledModifier:
    """One modifier of a rule file, compiled.

    Attributes:
        hook: the hook it folds into.
        op: ``add``, ``sub`` or ``set``.
        status: when it applies: ``active``, ``declined`` or ``always``.
        value: the amount, as a function of the context.
        condition: whether it applies, as a function of the context.
        label: the display name of its rule file.
        path, line: where it was written.
        where: for a condition on the target region, the regions where it holds, as a bitmask
            function of the context (``condition`` is the target's bit of it); ``None`` for
            a modifier with no such condition. Neither it nor ``value`` depends on the
            target, so the engine may evaluate them once for many regions.
    """

    hook: str
    op: str
    status: str
    value: IntFn
    condition: Callable[[EvalContext], bool]
    label: str
    path: str
    line: int
    where: IntFn | None = None

    def applies_to(self, declined: bool) -> bool:
        """Whether the modifier works for a race in that state."""
        return self.status == "always" or (self.status == "declined") == declined


@attrs.frozen
class PieceDef:
    """A kind of piece (marker) declared by a rule file."""

    name: str
    supply: int
    defence: int
    immune: bool
    survives_decline: bool
    one_per_region: bool
    holder: str  #: id of the race or power that declares it
    path: str
    line: int
    guards: bool = False  #: its region counts as ``guarded``
    kept_when_lost: bool = False  #: its holder places it again when its region falls
    lifted_at_redeploy: bool = False  #: back to the supply when its holder redeploys
    placed_anywhere: bool = False  #: ``place`` may put it on a region its race does not hold
    stays: bool = False  #: stays on its region until its holder declines or leaves the game
    toll: int = 0  #: coins fewer for the region's holder, another race than the piece's
    loot: int = 0  #: coins from the bank for whoever conquers its region
    lifted_at_turn_start: bool = False  #: back to the supply when its holder's turn begins
    hidden: bool = False  #: one of its file's bag, placed face down by ``draw``
    repels: int = 0  #: hidden: revealed by a conquest, it stops it (N tokens lost)


@attrs.frozen
class CompiledEffect:
    """One effect of an ability or trigger (see ``vocabulary.EFFECTS``).

    Attributes:
        verb: ``place``, ``move``, ``conquer``, ``convert``, ``roll_die``, ``truce``, ``gain``.
        piece: the piece placed or moved.
        amount: the tokens paid (``conquer``) or gained (``gain``).
    """

    verb: str
    piece: str | None = None
    amount: IntFn | None = None
    #: who ``take_coins`` and ``give_tokens`` act on: defender, conqueror, opponents, target
    whom: str | None = None
    #: the counter ``add`` raises (its key) and whether it is kept per turn
    counter: str | None = None
    per_turn: bool = False
    #: the pile of ``exchange``
    zone: str | None = None
    #: ``opponents with PRED``: the players' mask the predicate gives (see players_matching)
    players: IntFn | None = None


@attrs.frozen
class CompiledTrigger:
    """``on EVENT [limit] [when PRED] do EFFECT, … [status]``, compiled.

    Attributes:
        event: one of ``vocabulary.EVENTS``.
        times: at most this many times in the race's life (0: no limit).
        effect: what it does (the first effect).
        key: the name its uses are counted under.
        label, path, line: where it was written.
        effects: every effect, in order (``effect`` first).
        condition: whether it fires, as a function of the context (``None``: always).
        status: ``active`` (the default), ``declined`` or ``always``.
        once_per_turn: it fires at most once a turn.
        rolls: one of its effects rolls the die (it runs once the action is done).
        draws: one of its effects draws a face-down piece (with ``chance="explicit"`` it runs
            once the action is done, as a roll does).
    """

    event: str
    times: int
    effect: CompiledEffect
    key: str
    label: str
    path: str
    line: int
    effects: tuple[CompiledEffect, ...] = ()
    condition: Callable[[EvalContext], bool] | None = None
    status: str = "active"
    once_per_turn: bool = False
    rolls: bool = False
    draws: bool = False

    def applies_to(self, declined: bool) -> bool:
        """Whether the trigger works for a race in that state."""
        return self.status == "always" or (self.status == "declined") == declined


@attrs.frozen
class CompiledAbility:
    """``ability NAME { … }``, compiled.

    Attributes:
        name: the name in ``UseAbility(name, target)``.
        phases: the phases it may be used in.
        limit: ``""``, ``once_per_turn``, ``once_per_player_per_turn`` or ``times``.
        times: N of ``times N``.
        target: ``""``, ``own region``, ``region``, ``player`` or ``combo`` (of the market).
        condition: the target's condition as a bitmask function (regions, or players).
        effects: what it does, in order.
        label, path, line: where it was written.
    """

    name: str
    phases: frozenset[str]
    limit: str
    times: int
    target: str
    condition: IntFn | None
    effects: tuple[CompiledEffect, ...]
    label: str
    path: str
    line: int
    #: coins paid to the bank each time it is used (``None``: free)
    price: IntFn | None = None
    #: one of its effects is of version 3 of the language (run by smallworld_rules.language)
    language: bool = False
    #: when it works: ``active`` (the default), ``declined`` or ``always``
    status: str = "active"
    #: P when the target's condition is exactly ``not piece P`` (else ``""``): the listing
    #: skips it where a placement of P, one a region, tests the same (use_ability._plan)
    absent_piece: str = ""
    #: a target player's condition reads a value of the moment (``count(coins)`` is each
    #: player's own): tested for each player apart; else once for them all
    per_player: bool = True


@attrs.frozen
class OptionDef:
    """A game option: a named judgement call (an ambiguity of the rules, "A1" to "A20") with its
    default.

    Attributes:
        name: the name given in ``Game.new(options={name: …})``.
        default: ``True``/``False`` or an integer.
        text: what it decides.
        path, line: where it is declared (``"<core>"`` for the core's own).
    """

    name: str
    default: bool | int
    text: str
    path: str
    line: int | None = None


@attrs.frozen
class ZoneDef:
    """A zone of tokens off the map, declared by an expansion.

    Attributes:
        id: the name given to ``Game.zone``.
        name: the display name.
        role: for a role's hand zone, the role whose tokens in hand rest there; ``None`` for a
            shared pile (kept in order of arrival).
        path, line: where it is declared.
    """

    id: str
    name: str
    role: str | None
    path: str
    line: int


@attrs.frozen
class RoleDef:
    """``role ID "Name" { … }``, compiled: a seat playing a token kind of its own.

    The role takes the last seat (to the right of the start player), never picks a combo and
    never declines; its token kind is its only race, and the powers it activates all work for
    it at once.

    Attributes:
        id, name: the role's id and display name.
        race: the rule definition of its token kind (``race.id`` marks its regions).
        supply: how many tokens it has (evaluated once, with the game options).
        hand_zone: the zone its tokens in hand rest in between turns, if any.
        start_hand: tokens in hand (the hand zone) at the start; the rest are its reserve.
        coins: coins it starts with (``None``: the standard 5).
        enter: the regions its tokens enter the map by (``None``: the border regions).
        covers: the regions its hand zone lies on, which nobody may conquer or target
            (``None``: none).
        draft: (powers drawn, powers activated, power ids never drawn), or ``None``.
        buys: item (``token`` or ``power``) -> its price.
        purchases_per_turn: at most this many purchases a turn (0: any number).
        harvest: (anonymous tokens added, the zone) after it scores, or ``None``.
        exchange: (N, zone, K): after every turn each N tokens of the zone give K, or ``None``.
        win: (left, right): its player wins at once when they are equal, or ``None``.
        counts_as_declined: other races and powers see its tokens as a race in decline.
        path, line: where it is declared.
        won: whether ``win``'s two sides are equal, as one function (``None`` without a
            ``win``; made from ``win`` if not given): what the engine asks after every turn.
        win_places: the places of the ``count(tokens in …)`` that are all ``win`` reads
            (``None``: it reads more, or is not known), so that it is asked again only when
            one of them may have changed.
    """

    id: str
    name: str
    race: RuleDef
    supply: IntFn
    hand_zone: str | None
    start_hand: int
    coins: IntFn | None
    enter: IntFn | None
    covers: IntFn | None
    draft: tuple[int, int, tuple[str, ...]] | None
    buys: Mapping[str, IntFn]
    purchases_per_turn: IntFn | None
    harvest: tuple[IntFn, str] | None
    exchange: tuple[int, str, int] | None
    win: tuple[IntFn, IntFn] | None
    counts_as_declined: bool
    path: str
    line: int
    won: Callable[[EvalContext], bool] | None = attrs.field(
        default=attrs.Factory(lambda self: sides_equal(self.win), takes_self=True)
    )
    win_places: tuple[str, ...] | None = None


def sides_equal(win: tuple[IntFn, IntFn] | None) -> Callable[[EvalContext], bool] | None:
    """A role's ``won`` made from its ``win``: whether the two sides are equal (the
    compiler gives a generated function instead, where it can)."""
    if win is None:
        return None
    left, right = win
    return lambda c: left(c) == right(c)


@attrs.frozen
class RuleDef:
    """A race, power or expansion, compiled from its rule file.

    Attributes:
        kind: ``"race"``, ``"power"`` or ``"expansion"``.
        id: the file stem, e.g. ``"my_power"`` for ``powers/my_power.swr``.
        name: the display name written in the file's header.
        tokens: tokens the banner or badge gives.
        box: physical tokens of a race (0 for powers).
        conquest_tokens: extra tokens usable only to conquer: taken with the combo and held
            off the map after each redeployment until the next turn.
        text: the printed rules text.
        aliases: other names for look-ups.
        flags: the core switches it raises whatever the options.
        conditional_flags: (flag, condition) pairs whose condition tests game options.
        options: the game options it declares.
        pieces: the pieces it declares.
        modifiers: hook name -> its compiled modifiers.
        links: map predicates whose regions count as adjacent to one another.
        triggers: what the core does for the race on events.
        abilities: the decisions it offers its player.
        players: (fewest, most) players an expansion is played with, if it says.
        map_minus: an expansion plays on the map for this many players fewer.
        zones: the zones of tokens off the map an expansion declares.
        lost_tokens_to: the zone tokens lost to a conquest go to (``None``: the box).
        roles: the roles an expansion declares.
        works_in_decline: a power that still acts in decline keeps its badge then.
        path: the rule file.
        ast: the parsed file (for docs and explanations).
    """

    kind: str
    id: str
    name: str
    tokens: int
    box: int
    conquest_tokens: int
    text: str
    aliases: tuple[str, ...]
    flags: frozenset[str]
    conditional_flags: tuple[tuple[str, IntFn], ...]
    options: tuple[OptionDef, ...]
    pieces: tuple[PieceDef, ...]
    modifiers: Mapping[str, tuple[CompiledModifier, ...]]
    works_in_decline: bool
    path: str
    ast: Any = attrs.field(repr=False, eq=False)
    links: tuple[IntFn, ...] = ()
    triggers: tuple[CompiledTrigger, ...] = ()
    abilities: tuple[CompiledAbility, ...] = ()
    players: tuple[int, int] | None = None
    map_minus: int = 0
    zones: tuple[ZoneDef, ...] = ()
    lost_tokens_to: str | None = None
    roles: tuple[RoleDef, ...] = ()
    #: ``immune [when PRED] [status]``: (the regions' condition or None, status)
    immune: tuple[tuple[IntFn | None, str], ...] = ()
    #: ``immune to powers [when PRED] [status]``: as ``immune``
    shielded: tuple[tuple[IntFn | None, str], ...] = ()
    #: ``reach N``: conquests reach regions up to N steps away (1: adjacent ones)
    reach: int = 1
    #: ``region_tokens min N`` / ``max N`` (0: no limit)
    region_min: int = 0
    region_max: int = 0
    #: ``skip_coins N``: coins put on its combo when one below is picked (None: 1)
    skip_coins: int | None = None
    #: ``own_tokens N``: a power's own tokens, joining the race's supply
    own_tokens: int = 0
    #: ``collect lost_tokens into PILE``: the pile lost tokens go to while its race is active
    collects: str | None = None
    #: ``skip_tokens N``: tokens of the race put on its banner when a combo below is picked
    skip_tokens: int = 0
    #: what its rules read that the engine records only on demand ("facts", "die")
    needs: frozenset[str] = frozenset()
