"""A saved state read from its text, as a save writes it: the quick way of a load.

:func:`~smallworld_rules.saved.load_save_text` leaves a state of the engine's own shape out
of the JSON parse and gives back its text (with one group per field). Here that
text is read with tables made once per engine: every name a look-up among the rules' own
ids, every count a look-up among the texts of small numbers, every range tested as
:func:`~smallworld_rules.saved.state_from_dict` tests it, and the position checked by the
same cross-field checks. Whatever is not exactly as expected — an unknown name, a number
past the tables, a range, a repeated key, a position the checks refuse — gives ``None``,
and the caller parses the text and takes the general way, which decides (the same state,
or the refusal with its message). So this way never accepts what the general way refuses,
and builds the same state where it answers (``tests/test_fast_paths_perf_json8.py``).

Every text inside a field is taken only whole, as the engine writes it (a table's key, a
number's own spelling, a flag, the fixed text between an entry's fields), so that the
state's text need not be tested character by character first: ``Game.from_json`` gives the
fields as a pattern of the state's frame alone parts them (``saved._quick_pattern``), and a
state read that way which this reader or the checks do not take is loaded again with the
state's own patterns (``tests/test_fast_paths_perf_json14.py``).
"""

from __future__ import annotations

import functools
import re
from operator import itemgetter
from typing import TYPE_CHECKING, Any

from smallworld_rules.engine.basics import LOST_TRIBE_TOKENS
from smallworld_rules.language import memory
from smallworld_rules.saved import _NAME, _PHASES, StateText, _check_consistency
from smallworld_rules.state import (
    EFFECT_ROLL,
    LOST_TRIBE,
    Phase,
    PlayerState,
    RaceState,
    State,
    new_generation,
)

if TYPE_CHECKING:
    from smallworld_rules.engine import Engine

#: the numbers a state holds, by their text (a count of tokens, coins, a region, a seat)
_NUMBERS = {str(i): i for i in range(1000)}
#: and those of the die's fields (-3 … 99: a rule file's roll, an ability's, none)
_SIGNED = {str(i): i for i in range(EFFECT_ROLL, 100)}
#: a digit's byte to its number
_DIGITS = bytes.maketrans(b"0123456789", bytes(range(10)))
#: the occupants that are not races in play
_TRIBE = {LOST_TRIBE}
#: the flags by their text
_FLAGS = {"true": True, "false": False}
#: the phases by their text in a save
_PHASE_TEXT: dict[str, Phase] = {f'"{name}"': phase for name, phase in _PHASES.items()}
#: a name as the state's pattern takes it (``saved._NAME``), without its quotes and with them
_PLAIN = re.compile(_NAME[1:-3] + "*")
_QUOTED = re.compile(_NAME)
#: the name of a use of an ability (``RaceState.uses``: plain characters, colons too)
_USE = re.compile(r'"[ !#-+\--9;-Z^-z|~:]++"')
_MARKS = f'"{memory.MARKS}"'


class _Tables:
    """What reading a state's text needs of an engine, worked out once."""

    __slots__ = (
        "active", "badges", "bits", "box", "coins", "combos", "commas", "engine", "hands",
        "heads", "helds", "market", "named", "occupants", "owners", "placed", "powers", "races",
        "regions", "single", "supply", "turns", "wearing",
    )

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

        def quoted(ids: Any) -> dict[str, str]:  # (a name the pattern cannot take: left out)
            return {f'"{i}"': i for i in ids if _PLAIN.fullmatch(i)}

        self.races = quoted(engine.race_defs)
        self.powers = quoted(engine.rules.powers)
        self.badges = sorted(engine.rules.powers)  # (see _check_consistency)
        occupants: dict[str, str | None] = {"null": None, f'"{LOST_TRIBE}"': LOST_TRIBE}
        self.occupants = {**self.races, **occupants}
        self.regions = {f'"{r}"': r for r in range(engine.n)}  # (a key of the pieces)
        self.commas = "," * (engine.n - 1)
        self.bits = tuple(1 << r for r in range(engine.n))  # (each region's in a mask)
        # Every region's table of one kind of piece, by its text in a save's pieces (the
        # closing brace left out): a region holds one kind of piece, a few, most often.
        self.single = {
            f'"{r}":{{"{name}":{count}': (r, name, count)
            for r in range(engine.n)
            for name, piece in engine.rules.pieces.items()
            if _PLAIN.fullmatch(name)
            for count in range(1, min(piece.supply, 9) + 1)
        }
        self.box = _counted(engine.race_defs)
        self.supply = _counted(engine.rules.pieces)
        self.placed = {text: entry for text, entry in self.supply.items() if entry[1]}
        # A race's, a player's and a combo's fields by their texts, key and all (no slice
        # of the entry made, nor its hash worked out, to look the value up)
        races = self.races.items()
        self.heads = {
            f'{text}:{{"declined":{flag}': (race, flag == "true")
            for text, race in races for flag in ("false", "true")
        }
        self.named = {f'"race":{text}': race for text, race in races}
        wearing: dict[str, str | None] = {f'"power":{t}': p for t, p in self.powers.items()}
        active: dict[str, str | None] = {f'"active":{text}': race for text, race in races}
        self.wearing = {**wearing, '"power":null': None}
        self.active = {**active, '"active":null': None}
        self.hands, self.helds, self.owners, self.turns, self.coins = map(
            _field, ("hand", "held", "owner", "turns", "coins")
        )
        self.combos = {
            f"{race_text},{power_text}": (race, power)
            for race_text, race in races for power_text, power in self.powers.items()
        }
        # A market's entries whole (a combo and its coins, up to 9), for rules of a few
        # hundred combos (the official ones: 2,800 entries); else none, and each entry is
        # read by its combo and its coins.
        few = len(self.combos) <= 400
        self.market = {
            f"{text},{coins}": (race, power, coins)
            for text, (race, power) in (self.combos.items() if few else ())
            for coins in range(10)
        }


@functools.cache
def _field(key: str) -> dict[str, int]:
    """A number field's texts, key and all (``"hand":4``), to its number (0 to 999)."""
    return {f'"{key}":{text}': number for text, number in _NUMBERS.items()}


def _counted(names: Any) -> dict[str, tuple[str, int]]:
    """Every entry of a table of counts by these names (a count from 0 to 99), by its text
    in a save: the name and the count (a few hundred)."""
    return {f'"{name}":{count}': (name, count) for name in names if _PLAIN.fullmatch(name)
            for count in range(100)}


#: the tables of the engines last read for (a few; the oldest dropped)
_TABLES: dict[int, _Tables] = {}
_TABLES_KEPT = 16


def _tables(engine: Engine) -> _Tables:
    tables = _TABLES.get(id(engine))
    if tables is None or tables.engine is not engine:  # (the kept one holds its engine)
        if len(_TABLES) >= _TABLES_KEPT:
            del _TABLES[next(iter(_TABLES))]
        tables = _TABLES[id(engine)] = _Tables(engine)
    return tables


def _names(text: str, table: dict[str, str]) -> tuple[str, ...]:
    """A list's names (its text between the brackets) as the table's ids: a KeyError for
    anything else."""
    if not text:
        return ()
    names = text.split(",")
    # (one C call for them all; an itemgetter of one key gives the value, not a tuple)
    return itemgetter(*names)(table) if len(names) > 1 else (table[text],)


def _table(text: str, entries: dict[str, tuple[str, int]]) -> dict[str, int]:
    """A table of counts (its text between the braces) from its entries' texts: a KeyError
    for any other entry (an entry twice: its last count at its first place, as json)."""
    if not text:
        return {}
    found = text.split(",")
    # (one C call for them all; an itemgetter of one key gives the value, not a tuple)
    return dict(itemgetter(*found)(entries) if len(found) > 1 else (entries[text],))


def _numbers(text: str) -> list[int]:
    return list(map(_NUMBERS.__getitem__, text.split(","))) if text else []


def _uses(text: str, players: int) -> dict[str, int]:
    """A race's uses of abilities (its table's text between the braces): names of plain
    characters (colons too) and counts from 1 (the players' marks within the seats' bits),
    else a KeyError or ValueError."""
    uses = {}
    for entry in text.split(","):
        name, _, count = entry.rpartition(":")
        if not _USE.fullmatch(name):
            raise ValueError(name)
        uses[name[1:-1]] = number = _NUMBERS[count]
        if number < 1 or (name == _MARKS and number >= 1 << players):
            raise ValueError(count)
    return uses


def _on_the_map(
    occupants: tuple[str | None, ...], tokens: list[int], bits: tuple[int, ...]
) -> tuple[dict[str, int], dict[str, int]] | None:
    """The occupants' masks (``state.occupant_masks``) and each occupant's tokens on the
    map, or None if a region's tokens disagree with its occupant (none on an occupied
    region, some on an empty one): ``check_invariants``' tests of the board, in the one
    pass that makes the masks (``bits``: each region's bit)."""
    masks: dict[str, int] = {}
    on_map: dict[str, int] = {}
    for occupant, count, bit in zip(occupants, tokens, bits, strict=True):
        if occupant is None:
            if count:
                return None
        elif not count:
            return None
        elif occupant in masks:
            masks[occupant] |= bit
            on_map[occupant] += count
        else:
            masks[occupant] = bit
            on_map[occupant] = count
    return masks, on_map


def _whole(text: str) -> int:
    """A whole number from 0 spelled as json writes it (no sign, no leading zero), else a
    ValueError."""
    number = _NUMBERS.get(text)
    if number is None:
        number = int(text)
        if number < 0 or str(number) != text:  # (int() takes signs, spaces, underscores…)
            raise ValueError(text)
    return number


def state_from_text(engine: Engine, state: StateText) -> State | None:
    """The state ``state_from_dict`` makes of this text (from ``saved.load_save_text``), or
    None where this way is not sure: the caller then parses the text and takes the general
    way, which decides."""
    try:
        tables = _tables(engine)
        s = _read(engine, tables, state[3])
    except Exception:  # a name or number not in the tables (KeyError), another shape, …
        return None
    if s is None:
        return None
    try:  # (the invariants of counts proven by _read where it could: see _on_the_map)
        _check_consistency(engine, s, engine._own_tokens, tables.badges)
    except Exception:  # refused (or anything else): the general way decides, with its message
        return None
    s.gen = new_generation()
    return s


def _read(engine: Engine, t: _Tables, fields: tuple[Any, ...]) -> State | None:
    """The fields of the state, tested as ``state_from_dict`` tests them (None, or anything
    raised, a KeyError most often: not sure)."""
    (
        acted, acting, active, attacked, box, conquered, nonempty, decline_at_end, die_bonus,
        die_target, market, phase, picked, supply, pieces, players_text, power_discard,
        power_stack, purchases, race_stack, races_text, readied, region_race, region_tokens,
        rng, role_powers, role_reserve, round_, used, winners, withdrawals,
    ) = fields
    n, players = engine.n, engine.players
    numbers, races, powers = _NUMBERS, t.races, t.powers
    if engine.pile_zones:  # a game with a role's zones saves them: the general way
        return None
    s = State.__new__(State)
    entries = region_race.split(",")
    if len(entries) != n or n < 2:
        return None
    occupants = itemgetter(*entries)(t.occupants)  # (a tuple: two keys or more)
    if len(region_tokens) == 2 * n - 1 and region_tokens[1::2] == t.commas:
        # one digit each (most boards): the digits' bytes made numbers at once (a character
        # not ASCII makes more bytes than regions, and no digit byte)
        digits = region_tokens[::2].encode()
        if not digits.isdigit():
            return None
        tokens = list(digits.translate(_DIGITS))
    else:
        tokens = _numbers(region_tokens)
    if len(tokens) != n:
        return None
    s.region_race = occupants  # (State.set_occupants, without its call)
    masked = _on_the_map(occupants, tokens, t.bits)
    if masked is None:
        return None
    s.race_masks, on_map = masked
    s.reach_costs = None
    s.region_tokens = tokens
    # (a piece's supply first: those placed are counted into it as they are read)
    s.piece_supply = supply_table = _table(supply, t.supply)
    if len(supply_table) != len(engine.rules.pieces):
        return None
    pieces_in_all = supply_table.copy()
    # The pieces: "region":{"name":count,...} entries, in the save's order (a repeated key
    # is read as the parse reads it: its last value, at its first place).
    table_of: dict[int, dict[str, int]] = {}
    if pieces:
        single = t.single
        for entry in pieces[:-1].split("},"):
            found = single.get(entry)
            if found is None:  # (several kinds, or a count past the table's): entry by entry
                key, _, counts = entry.partition(":{")
                region = t.regions[key]
                if region in table_of:  # (a region twice: as json, its last table kept)
                    return None
                table_of[region] = placed = _table(counts, t.placed)
                for name, count in placed.items():
                    pieces_in_all[name] += count
            else:
                region, name, count = found
                if region in table_of:
                    return None
                table_of[region] = {name: count}
                pieces_in_all[name] += count
    if pieces_in_all != engine._full_pieces:  # (check_invariants: every piece somewhere)
        return None
    s.pieces = table_of
    # (a name twice leaves one missing: the general way; else the parse's last value)
    s.box = box_table = _table(box, t.box)
    if len(box_table) != len(engine.race_defs):
        return None
    tokens_in_all = box_table.copy()  # (each race's tokens, counted as check_invariants does)
    for race, count in on_map.items():
        if race in tokens_in_all:
            tokens_in_all[race] += count
        elif race != LOST_TRIBE:  # (a race of the board not in the box: the checks decide)
            return None
    in_play: dict[str, RaceState] = {}
    if races_text:
        top = players - 1
        heads, named, wearing = t.heads, t.named, t.wearing
        hands, helds, owners, turns_of = t.hands, t.helds, t.owners, t.turns
        for entry in races_text[:-2].split("}},"):
            # '"key":{"declined":…', '"hand":…', '"held":…', '"owner":…', '"power":…',
            # '"race":…', '"turns":…', '"uses":{'
            head, hand, held, owner, power, race, turns, uses = entry.split(",", 7)
            race_id, declined = heads[head]
            if named[race] != race_id or uses[:8] != '"uses":{':
                return None
            rs = RaceState(
                race_id, wearing[power], owners[owner], declined, hands[hand], turns_of[turns],
                helds[held], {} if len(uses) == 8 else _uses(uses[8:], players),
            )
            if rs.owner > top or race_id in in_play:  # (a race twice: the general way)
                return None
            in_play[race_id] = rs
            tokens_in_all[race_id] += rs.hand + rs.held
    s.races = in_play
    if (  # (a power's own tokens join their race's: check_invariants then counts them)
        (tokens_in_all != engine._full_tokens and not engine._own_tokens)
        or on_map.get(LOST_TRIBE, 0) > LOST_TRIBE_TOKENS
        or not in_play.keys() >= on_map.keys() - _TRIBE
    ):
        return None
    seats: list[PlayerState] = []
    if players_text:
        coins_of, active_of = t.coins, t.active
        for entry in players_text[1:-2].split("]},{"):
            # '"active":…', '"coins":…', '"declined":[…'
            active_text, coins, declined_text = entry.split(",", 2)
            if declined_text[:12] != '"declined":[':
                return None
            seats.append(PlayerState(
                coins_of[coins],
                active_of[active_text],
                _names(declined_text[12:], races) if len(declined_text) > 12 else (),
            ))
    if len(seats) != players:
        return None
    s.players = tuple(seats)
    combos: Any = ()
    if market:
        entries = market[1:-1].split("],[")
        try:  # (one C call for them all where every entry is in the table of whole entries)
            combos = itemgetter(*entries)(t.market) if len(entries) > 1 else (t.market[entries[0]],)
        except KeyError:
            combos = []
            pair_of = t.combos
            for entry in entries:
                pair, _, coins = entry.rpartition(",")
                race, power = pair_of[pair]
                combos.append((race, power, numbers[coins]))
    s.market = tuple(combos)
    s.race_stack = _names(race_stack, races)
    s.power_stack = _names(power_stack, powers)
    s.power_discard = _names(power_discard, powers) if power_discard else ()
    s.round = round_ = numbers[round_]  # (past 999: past the last round too)
    s.active = active = numbers[active]
    s.phase = _PHASE_TEXT[phase]
    s.conquered = conquered_regions = tuple(_numbers(conquered)) if conquered else ()
    s.conquered_nonempty = nonempty = _whole(nonempty)
    s.acted = _FLAGS[acted]
    s.picked = _FLAGS[picked]
    pairs = []
    if readied:
        for entry in readied[1:-1].split("],["):
            region, taken = entry.split(",")
            pair = numbers[region], numbers[taken]
            if pair[0] >= n or pair[1] < 1:
                return None
            pairs.append(pair)
    s.readied = tuple(pairs)
    s.die_target = die_target = _SIGNED[die_target]
    s.withdrawals = _names(withdrawals, races) if withdrawals else ()
    s.rng = rng = _whole(rng)
    s.winners = seated = tuple(_numbers(winners)) if winners else ()
    s.acting = None if acting == "null" else races[acting]
    if used:  # (names of abilities: not among the tables)
        names = used.split(",")
        if not all(map(_QUOTED.fullmatch, names)):
            return None
        s.used = tuple(name[1:-1] for name in names)
    else:
        s.used = ()
    s.attacked = attacked = numbers[attacked]
    s.truces = ()
    s.die_bonus = die_bonus = _SIGNED[die_bonus]
    s.decline_at_end = _FLAGS[decline_at_end]
    s.regained = {}
    s.zones = {}
    s.role_powers = _names(role_powers, powers) if role_powers else ()
    s.role_reserve = _names(role_reserve, powers) if role_reserve else ()
    s.purchases = numbers[purchases]
    s.lang = {}
    if not (
        1 <= round_ <= engine.map.turns + 1
        and active < players
        and nonempty < 1 << n
        and die_target < n
        and die_bonus >= -1
        and rng < 1 << 64
        and attacked < 1 << players
        and (not conquered_regions or max(conquered_regions) < n)
        and (not seated or max(seated) < players)
        and "" not in s.used
    ):
        return None
    return s
