"""The mutable state of one game, kept flat so that copying it (undo, clone) is cheap.

Only :mod:`smallworld_rules.engine` changes a :class:`State`; the :class:`~smallworld_rules.Game`
façade keeps earlier copies for ``undo``. Every field is plain data, so :func:`state_to_dict`
and :func:`state_from_dict` round-trip it exactly.

Copy on write. ``Game.apply`` makes a copy before an action (atomicity, undo; but see *In
place* below), and copying every race, player and piece table was the largest single cost
of a random playout.
:meth:`State.fork` therefore shares those nested objects with the state it was made from; the
copy that is changed must get its own object first:

* a :class:`RaceState` or :class:`PlayerState` through :meth:`State.own_race` /
  :meth:`State.own_player`, which copy it once per fork (its ``gen`` says which state owns it);
* a region's piece table (``pieces[r]``) is never changed in place: it is replaced by a
  changed copy (:meth:`State.set_pieces`, which replaces the table of tables too).

Most of the other containers change in few actions of a game (a third of them at most), so
copying them before every action was wasted work, and garbage kept alive by the undo history.
They are values never changed in place, which :meth:`State.fork` shares:

* ``race_stack``, ``power_stack``, ``power_discard``, ``conquered``, ``readied``,
  ``withdrawals``, ``winners``, ``used``, ``truces``, ``role_powers``, ``role_reserve``,
  ``market``, ``players`` and ``region_race`` are tuples (``readied`` and ``truces`` of pairs,
  ``market`` of (race, power, coins); ``players`` is replaced by :meth:`State.own_player`,
  ``region_race`` by :meth:`State.occupy`): a change binds a new tuple
  (``s.used = (*s.used, key)``, :func:`without` for ``list.remove``);
* ``box``, ``pieces``, ``piece_supply``, ``regained`` and ``zones`` (whose piles are tuples)
  are dicts shared until they change: a change binds a changed copy (``s.regained =
  {**s.regained, name: n}``; :meth:`State.to_box` for the trays, :meth:`State.set_pieces`).
  They are typed ``Mapping`` so that mypy refuses a write in place;
* likewise inside the nested objects: ``RaceState.uses`` (a shared ``Mapping``) and
  ``PlayerState.declined`` (a tuple), which their ``copy`` shares.

Every other field is copied by :meth:`State.fork` and may be changed in place: these change
often or at many sites (``region_tokens``: in most actions), and ``races`` holds the shared
objects above. A change made past these rules would also change the states kept for
``undo``; the tests check that every state kept in the history is left as it was.

In place: ``Game.apply`` carries a Deploy (of the redeployment phase, or the first of a turn
by a race without triggers), a Conquer (of a region nobody defends, or of one a race
defends where no trigger runs on the loss) and an EndTurn that ends
the turn at once out on the game's current position itself when nothing else holds that
position (no clone, view, history or caller), keeping a record of what changed for ``undo``
(``smallworld_rules.in_place``). The acting banner of a Deploy or Conquer is changed itself
when it carries the position's generation and nothing else holds it (its reference count);
otherwise, and for an EndTurn, the position first takes a generation of its own, so that
the banners are copied before they change.

Two fields are derived and never saved: ``race_masks`` (kept in step by :meth:`State.occupy`)
and ``reach_costs``, the conquest costs ``legal_actions`` worked out for a position, written
on that position for the conquest that follows: a fork carries them, the engine drops them
once the action applied to the fork is done, ``Game.apply`` drops them from the position it
played from (unless a clone shares that position), and :meth:`State.copy` (made to be
edited) drops them at once. Dropping them changes no answer, only how fast a conquest from
that position is costed.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum
from itertools import chain, count
from operator import attrgetter, itemgetter
from typing import TYPE_CHECKING, Any, TypeVar, cast

from smallworld_rules.jsontext import KEY_TEXT, NUMBER_TEXT, STRING_TEXT, encode_json, remember_text

if TYPE_CHECKING:
    from smallworld_rules.engine.conquest import ListedCosts

T = TypeVar("T")
#: object.__new__ as a global: ``Cls.__new__(Cls)`` is an unspecialised look-up on the class
#: (CPython 3.11), and every copy on write makes one (of a class with an ``__init__``: fork
#: calls ``State()`` instead, which is cheaper still)
_new = object.__new__

#: Generation numbers: the RaceState / PlayerState objects a state may change in place carry
#: its generation (see the module doc). A state made from nothing (a new game, a load) takes a
#: number no state has had; a fork takes its parent's plus one. So a state's generation is
#: above those of all the states it descends from, and the objects it shares with them carry
#: theirs: an object carrying a state's generation can only have been made by that state
#: (two forks of one state share a number, but never an object: each has its own tables).
_generations = count(1)


def new_generation() -> int:
    """A generation number no state has had yet (for a state made from nothing)."""
    return next(_generations)


def occupant_masks(occupants: tuple[str | None, ...]) -> dict[str, int]:
    """Each occupant's regions as a bitmask (``State.race_masks``, worked out from scratch)."""
    masks: dict[str, int] = {}
    for r, occupant in enumerate(occupants):
        if occupant is not None:
            masks[occupant] = masks.get(occupant, 0) | 1 << r
    return masks


def without(items: tuple[T, ...], item: T) -> tuple[T, ...]:
    """``items`` less the first ``item``: ``list.remove`` for the tuple fields (ValueError
    if it is not there)."""
    i = items.index(item)
    return items[:i] + items[i + 1 :]

#: The occupant id of Lost Tribe tokens (not a valid rule-file id, so it cannot collide).
LOST_TRIBE = "#lost_tribe"
#: A token with no race in a zone (a role's harvest, rule 4.5 A19).
SOUL = "#soul"
#: Where rule files say a race's tokens not in play are (``count(tokens in reserve)``: its box);
#: ``Game.zone`` answers for a role's reserve under this name.
RESERVE = "reserve"
#: ``State.die_target`` of a pending die roll made by an ability (no target region yet).
ABILITY_ROLL = -2
#: ``State.die_target`` of a pending roll of the rule language's ``roll`` effect.
EFFECT_ROLL = -3


class Phase(StrEnum):
    """Where the game stands (``game.phase``)."""

    PICK = "pick"  #: the active player must pick a combo
    CONQUEST = "conquest"  #: decline, abandon, conquer, or start redeploying
    DIE_ROLL = "die_roll"  #: the reinforcement die is a pending chance node
    REDEPLOY = "redeploy"  #: the active player places the tokens in hand
    WITHDRAWAL = "withdrawal"  #: a defender places its surviving tokens
    OVER = "over"  #: the game has ended


class RaceState:
    """A race banner in play: held by a player, active or in decline."""

    __slots__ = ("declined", "gen", "hand", "held", "owner", "power", "race", "turns", "uses")
    #: the saved fields (``gen`` is bookkeeping of copy on write, not game data)
    FIELDS = ("declined", "hand", "held", "owner", "power", "race", "turns", "uses")

    def __init__(
        self,
        race: str,
        power: str | None,
        owner: int,
        declined: bool,
        hand: int,
        turns: int,
        held: int = 0,
        uses: Mapping[str, int] | None = None,
        gen: int = 0,
    ) -> None:
        self.gen = gen  #: the generation of the state that may change it in place
        self.race = race
        self.power = power  #: the badge still attached (``None`` once discarded)
        self.owner = owner
        self.declined = declined
        self.hand = hand  #: tokens off the map, waiting to be placed
        self.turns = turns  #: turns its owner has finished with it active
        #: conquest-only tokens held off the map until the next turn (for a role: its hand
        #: zone's tokens, set aside while it places returned tokens at a withdrawal)
        self.held = held
        #: lifetime uses of limited abilities and triggers (``times N``), by name; shared by
        #: the copies and replaced by a changed copy when it changes (it seldom does)
        self.uses: Mapping[str, int] = {} if uses is None else uses

    def to_dict(self) -> dict[str, Any]:
        out = {s: getattr(self, s) for s in self.FIELDS}
        out["uses"] = dict(sorted(self.uses.items()))
        return out


class PlayerState:
    """A player's coins and races."""

    __slots__ = ("active", "coins", "declined", "gen")

    def __init__(
        self, coins: int, active: str | None, declined: tuple[str, ...], gen: int = 0
    ) -> None:
        self.gen = gen  #: as RaceState.gen
        self.coins = coins
        self.active = active
        self.declined = declined  #: a tuple, shared by the copies (it seldom changes)

    def copy(self, gen: int) -> PlayerState:
        new = _new(PlayerState)  # slot by slot, as State.own_race copies a race
        new.gen = gen
        new.coins = self.coins
        new.active = self.active
        new.declined = self.declined
        return new

    def to_dict(self) -> dict[str, Any]:
        return {"coins": self.coins, "active": self.active, "declined": list(self.declined)}


class State:
    """Everything that changes during a game."""

    __slots__ = (
        "acted",
        "acting",
        "active",
        "attacked",
        "box",
        "conquered",
        "conquered_nonempty",
        "decline_at_end",
        "die_bonus",
        "die_target",
        "gen",
        "lang",
        "market",
        "phase",
        "picked",
        "piece_supply",
        "pieces",
        "players",
        "power_discard",
        "power_stack",
        "purchases",
        "race_masks",
        "race_stack",
        "races",
        "reach_costs",
        "readied",
        "regained",
        "region_race",
        "region_tokens",
        "rng",
        "role_powers",
        "role_reserve",
        "round",
        "truces",
        "used",
        "winners",
        "withdrawals",
        "zones",
    )

    region_race: tuple[str | None, ...]  #: occupant race id, LOST_TRIBE, or None (see occupy)
    #: derived from region_race, not saved: each occupant's regions as a bitmask (see occupy)
    race_masks: Mapping[str, int]
    #: derived, not saved: the conquest costs legal_actions worked out for this very position
    #: (region -> cost, with the engine and the acting race they are for); a fork carries
    #: them only until the action applied to it is done (see Engine._attempt)
    reach_costs: ListedCosts | None
    region_tokens: list[int]
    #: region -> piece name -> count (only regions with pieces; see set_pieces)
    pieces: Mapping[int, Mapping[str, int]]
    box: Mapping[str, int]  #: race id -> tokens in the storage tray (see to_box)
    piece_supply: Mapping[str, int]  #: piece name -> pieces off the map
    races: dict[str, RaceState]  #: race banners in play
    players: tuple[PlayerState, ...]
    market: tuple[tuple[str, str, int], ...]  #: visible combos: (race, power, coins on it)
    race_stack: tuple[str, ...]
    power_stack: tuple[str, ...]
    power_discard: tuple[str, ...]
    round: int
    active: int  #: the player whose turn it is
    phase: Phase
    conquered: tuple[int, ...]  #: regions conquered this turn, in order
    conquered_nonempty: int  #: bitmask of those that were non-empty when conquered
    acted: bool  #: the active player abandoned or conquered this turn
    picked: bool  #: the active player picked a combo this turn
    readied: tuple[tuple[int, int], ...]  #: (region, tokens) taken into hand at turn start
    die_target: int  #: the region of a pending die roll, -1, or ABILITY_ROLL
    withdrawals: tuple[str, ...]  #: races whose owners still place surviving tokens, in order
    rng: int
    winners: tuple[int, ...]
    acting: str | None  #: the race conquering or redeploying now (a declined one may act)
    used: tuple[str, ...]  #: abilities used this turn: "name" or "name@player"
    attacked: int  #: bitmask of players whose active race the active race attacked this turn
    truces: tuple[tuple[int, int], ...]  #: (protected, barred) player: until the former's next turn
    die_bonus: int  #: a rolled bonus waiting for the next conquest, or -1
    decline_at_end: bool  #: the active race declines once this turn is scored
    regained: Mapping[str, int]  #: pieces kept when lost this turn, placed again at withdrawal
    zones: Mapping[str, tuple[str, ...]]  #: pile zone -> its tokens' kinds, oldest first
    role_powers: tuple[str, ...]  #: the powers working for the role, in activation order
    role_reserve: tuple[str, ...]  #: the role's drafted powers not yet active
    purchases: int  #: purchases the role made this turn
    #: what the rule language's constructs keep (see smallworld_rules.language.memory):
    #: empty, and not saved, unless a rule file needs it; replaced, never changed in place
    lang: Mapping[str, Any]
    gen: int  #: this state's generation (copy on write, see the module doc); not game data

    def copy(self) -> State:
        """An independent copy (it shares only the values that are never changed in place)."""
        new = self.fork()
        new.reach_costs = None  # a copy is made to be edited
        gen = new.gen
        for race in self.races:  # the fork's own table: each race replaced by its copy
            new.own_race(race)
        new.players = tuple(p.copy(gen) for p in self.players)
        return new

    def fork(self) -> State:
        """A copy to change, sharing the races, players and piece tables of
        ``self`` until it changes them, and its immutable values (copy on write: see the
        module doc)."""
        # State() rather than _new(State): the class has no __init__ (keep it so), and the call
        # skips object.__new__'s argument tuples and subtype checks (~0.3 k instructions)
        new = State()
        new.gen = self.gen + 1  # (see _generations: one above the states it descends from)
        new.region_race = self.region_race
        new.race_masks = self.race_masks
        new.reach_costs = self.reach_costs
        new.region_tokens = self.region_tokens.copy()  # (a method call: cheaper than list())
        new.pieces = self.pieces
        new.box = self.box
        new.piece_supply = self.piece_supply
        new.races = self.races.copy()
        new.players = self.players
        new.market = self.market
        new.race_stack = self.race_stack
        new.power_stack = self.power_stack
        new.power_discard = self.power_discard
        new.round = self.round
        new.active = self.active
        new.phase = self.phase
        new.conquered = self.conquered
        new.conquered_nonempty = self.conquered_nonempty
        new.acted = self.acted
        new.picked = self.picked
        new.readied = self.readied
        new.die_target = self.die_target
        new.withdrawals = self.withdrawals
        new.rng = self.rng
        new.winners = self.winners
        new.acting = self.acting
        new.used = self.used
        new.attacked = self.attacked
        new.truces = self.truces
        new.die_bonus = self.die_bonus
        new.decline_at_end = self.decline_at_end
        new.regained = self.regained
        new.zones = self.zones
        new.role_powers = self.role_powers
        new.role_reserve = self.role_reserve
        new.purchases = self.purchases
        new.lang = self.lang
        return new

    def occupy(self, region: int, race: str | None, tokens: int) -> None:
        """Put ``tokens`` of ``race`` (``None``: nobody) in ``region``. The occupants are a
        tuple shared with the states this one was forked from: replaced, not changed; so are
        their masks, which this keeps up to date (the only other writer is set_occupants)."""
        occupants = self.region_race
        old = occupants[region]
        if old != race:
            changed = list(occupants)  # one copy and one tuple (cheaper than two slices)
            changed[region] = race
            self.region_race = tuple(changed)
            bit = 1 << region
            masks = dict(self.race_masks)
            if old is not None:
                left = masks[old] & ~bit
                if left:
                    masks[old] = left
                else:
                    del masks[old]
            if race is not None:
                masks[race] = masks.get(race, 0) | bit
            self.race_masks = masks
        self.region_tokens[region] = tokens

    def set_occupants(self, occupants: tuple[str | None, ...]) -> None:
        """Set every region's occupant at once (a new or loaded position), with its masks."""
        self.region_race = occupants
        self.race_masks = occupant_masks(occupants)

    def set_pieces(self, region: int, table: Mapping[str, int]) -> None:
        """Set the pieces in ``region`` (an empty table: none). The table of tables and the
        tables themselves are shared with earlier states: replaced, never changed."""
        pieces = dict(self.pieces)
        if table:
            pieces[region] = table
        else:
            pieces.pop(region, None)
        self.pieces = pieces

    def to_box(self, race: str, tokens: int) -> None:
        """Put ``tokens`` of ``race`` into its tray (take them out if negative). The tray
        table is shared with the states this one was forked from: it is replaced, not
        changed in place."""
        self.box = {**self.box, race: self.box[race] + tokens}

    def own_race(self, race: str) -> RaceState:
        """``races[race]``, to change in place: copied first if another state shares it."""
        rs = self.races[race]
        gen = self.gen
        if rs.gen != gen:  # copied slot by slot (not through __init__: ~1.2 an action)
            new = _new(RaceState)
            new.gen = gen
            new.race = rs.race
            new.power = rs.power
            new.owner = rs.owner
            new.declined = rs.declined
            new.hand = rs.hand
            new.turns = rs.turns
            new.held = rs.held
            new.uses = rs.uses
            rs = self.races[race] = new
        return rs

    def own_player(self, player: int) -> PlayerState:
        """``players[player]``, to change in place: copied first if another state shares it."""
        ps = self.players[player]
        if ps.gen != self.gen:
            ps = ps.copy(self.gen)
            players = list(self.players)  # a tuple shared with earlier states: replaced
            players[player] = ps
            self.players = tuple(players)
        return ps


def state_to_dict(s: State) -> dict[str, Any]:
    """Plain JSON-ready data of a state."""
    return {
        "region_race": list(s.region_race),
        "region_tokens": list(s.region_tokens),
        "pieces": {str(r): dict(sorted(p.items())) for r, p in sorted(s.pieces.items())},
        "box": dict(sorted(s.box.items())),
        "piece_supply": dict(sorted(s.piece_supply.items())),
        "races": {k: v.to_dict() for k, v in sorted(s.races.items())},
        "players": [p.to_dict() for p in s.players],
        "market": [list(m) for m in s.market],
        "race_stack": list(s.race_stack),
        "power_stack": list(s.power_stack),
        "power_discard": list(s.power_discard),
        "round": s.round,
        "active": s.active,
        "phase": s.phase.value,
        "conquered": list(s.conquered),
        "conquered_nonempty": s.conquered_nonempty,
        "acted": s.acted,
        "picked": s.picked,
        "readied": [list(x) for x in s.readied],
        "die_target": s.die_target,
        "withdrawals": list(s.withdrawals),
        "rng": s.rng,
        "winners": list(s.winners),
        "acting": s.acting,
        "used": list(s.used),
        "attacked": s.attacked,
        "truces": [list(t) for t in s.truces],
        "die_bonus": s.die_bonus,
        "decline_at_end": s.decline_at_end,
        "regained": dict(sorted(s.regained.items())),
        "zones": {z: list(p) for z, p in sorted(s.zones.items())},
        "role_powers": list(s.role_powers),
        "role_reserve": list(s.role_reserve),
        "purchases": s.purchases,
        **({"lang": _plain(s.lang)} if s.lang else {}),
    }


def _plain(value: Any) -> Any:
    """JSON-ready data: tuples as lists, dicts with sorted keys."""
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in sorted(value.items())}
    if isinstance(value, tuple | list):
        return [_plain(v) for v in value]
    return value



_INT_ONLY, _BOOL_ONLY = frozenset((int,)), frozenset((bool,))
_BOOL_TEXT = {True: "true", False: "false"}  # looked up only for a value of type bool
#: the text of a region's key in ``pieces`` (``'"3":'``), looked up only for an int
_REGION_KEYS = {r: f'"{r}":' for r in range(1000)}
_THIRD, _COINS, _DECLINED = itemgetter(2), attrgetter("coins"), attrgetter("declined")
_RACE_NUMBERS = attrgetter("hand", "held", "owner", "turns")


def state_json(s: State) -> str:
    """``encode_json(state_to_dict(s))``, the text of a saved state, written quicker.

    The encoder sorts the keys of every object and makes a new string for every number and
    name: a state holds ~300 of them. When every field holds what it is meant to (numbers of
    type int, names as strings, flags as bools, tables of counts keyed by names) and the
    rule language keeps nothing (``lang``: any JSON data), the text is put together here
    from the texts :mod:`~smallworld_rules.jsontext` keeps, each the encoder's own; anything
    else (a name not kept yet, or anything raising on the way) is written by the encoder,
    as before.

    >>> from smallworld_rules import Game
    >>> s = Game.new(players=2, seed=1)._state
    >>> state_json(s) == encode_json(state_to_dict(s))
    True
    """
    if not s.lang:
        try:
            text = _state_text(s)
        except KeyError:  # a name not kept yet (or a large number): kept for the next time
            text = encode_json(state_to_dict(s))
            remember_text(text)
            return text
        except Exception:  # not as the engine writes it: the encoder's text, or its error
            text = None
        if text is not None:
            return text
    return encode_json(state_to_dict(s))


def _names_text(names: Any) -> str:
    """The text of a list of names (or None): a KeyError for any other entry."""
    return "[" + ",".join(map(STRING_TEXT.__getitem__, names)) + "]"


def _numbers_text(numbers: Any) -> str:
    """The text of a list of ints (tested by the caller)."""
    return "[" + ",".join(map(NUMBER_TEXT.__getitem__, numbers)) + "]"


def _counts_text(counts: Mapping[Any, Any]) -> str | None:
    """The text of a table of counts by name (keys in sorted order), or None if a count is
    not an int (a key that is not a string kept in KEY_TEXT: a KeyError)."""
    keys, numbers = KEY_TEXT, NUMBER_TEXT
    if len(counts) == 1:  # most piece tables
        ((name, number),) = counts.items()
        return "{" + keys[name] + numbers[number] + "}" if type(number) is int else None
    if not _INT_ONLY.issuperset(map(type, counts.values())):
        return None
    return "{" + ",".join([keys[k] + numbers[n] for k, n in sorted(counts.items())]) + "}"


def _state_text(s: State) -> str | None:
    """:func:`state_json`'s own way, or None where it is not sure (see there)."""
    numbers, names, keys, bools = NUMBER_TEXT, STRING_TEXT, KEY_TEXT, _BOOL_TEXT
    races, players, market, pieces = s.races, s.players, s.market, s.pieces
    in_play = sorted(races.items())
    if not (
        _INT_ONLY.issuperset(map(type, chain(
            (
                s.active, s.attacked, s.conquered_nonempty, s.die_bonus, s.die_target,
                s.purchases, s.rng, s.round,
            ),
            s.region_tokens, s.conquered, s.winners, chain.from_iterable(s.readied),
            chain.from_iterable(s.truces), map(_THIRD, market), map(_COINS, players),
            chain.from_iterable(map(_RACE_NUMBERS, races.values())), pieces,
        )))
        and _BOOL_ONLY.issuperset(map(type, chain(
            (s.acted, s.picked, s.decline_at_end), map(_DECLINED, races.values())
        )))
    ):  # (the names and keys: only strings are found in the tables of their texts)
        return None
    box, supply = _counts_text(s.box), _counts_text(s.piece_supply)
    regained = _counts_text(s.regained) if s.regained else "{}"
    regions = sorted(pieces, key=numbers.__getitem__)  # their keys' order as text
    piece_texts = [_counts_text(pieces[r]) for r in regions]
    uses = [_counts_text(r.uses) if r.uses else "{}" for _, r in in_play]
    if None in (box, supply, regained) or None in piece_texts or None in uses:
        return None
    race_text = ",".join([
        f'{keys[k]}{{"declined":{bools[r.declined]},"hand":{numbers[r.hand]},'
        f'"held":{numbers[r.held]},"owner":{numbers[r.owner]},"power":{names[r.power]},'
        f'"race":{names[r.race]},"turns":{numbers[r.turns]},"uses":{u}}}'
        for (k, r), u in zip(in_play, uses, strict=True)
    ])
    player_text = ",".join([
        f'{{"active":{names[p.active]},"coins":{numbers[p.coins]},'
        f'"declined":{_names_text(p.declined)}}}'
        for p in players
    ])
    market_text = ",".join([
        f"[{names[race]},{names[power]},{numbers[coins]}]" for race, power, coins in market
    ])
    pieces_text = ",".join(
        map(str.__add__, map(_REGION_KEYS.__getitem__, regions), cast("list[str]", piece_texts))
    )
    zones = s.zones
    zones_text = ",".join([f"{keys[z]}{_names_text(zones[z])}" for z in sorted(zones)])
    readied = ",".join([f"[{numbers[r]},{numbers[n]}]" for r, n in s.readied])
    truces = ",".join([f"[{numbers[a]},{numbers[b]}]" for a, b in s.truces])
    # (a mask of regions, and the generator's state, are often past the numbers kept: an
    # int of type int is written by the f-string as the encoder writes it)
    return (
        f'{{"acted":{bools[s.acted]},"acting":{names[s.acting]},'
        f'"active":{numbers[s.active]},"attacked":{numbers[s.attacked]},"box":{box},'
        f'"conquered":{_numbers_text(s.conquered)},'
        f'"conquered_nonempty":{s.conquered_nonempty},'
        f'"decline_at_end":{bools[s.decline_at_end]},"die_bonus":{numbers[s.die_bonus]},'
        f'"die_target":{numbers[s.die_target]},"market":[{market_text}],'
        f'"phase":{names[s.phase.value]},"picked":{bools[s.picked]},'
        f'"piece_supply":{supply},"pieces":{{{pieces_text}}},'
        f'"players":[{player_text}],"power_discard":{_names_text(s.power_discard)},'
        f'"power_stack":{_names_text(s.power_stack)},"purchases":{numbers[s.purchases]},'
        f'"race_stack":{_names_text(s.race_stack)},"races":{{{race_text}}},'
        f'"readied":[{readied}],"regained":{regained},'
        f'"region_race":{_names_text(s.region_race)},'
        f'"region_tokens":{_numbers_text(s.region_tokens)},"rng":{s.rng},'
        f'"role_powers":{_names_text(s.role_powers)},'
        f'"role_reserve":{_names_text(s.role_reserve)},"round":{numbers[s.round]},'
        f'"truces":[{truces}],"used":{_names_text(s.used)},'
        f'"winners":{_numbers_text(s.winners)},'
        f'"withdrawals":{_names_text(s.withdrawals)},"zones":{{{zones_text}}}}}'
    )
