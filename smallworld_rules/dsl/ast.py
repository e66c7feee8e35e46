"""The syntax tree of a rule file: frozen attrs nodes, each carrying its source position.

The parser (:mod:`smallworld_rules.dsl.parser`) builds these from the text; the compiler
(:mod:`smallworld_rules.dsl.compiler`) turns them into plain Python callables once, at load.
Nothing walks these nodes while a game is played.
"""

from __future__ import annotations

from typing import TypeVar

import attrs

_S = TypeVar("_S")


@attrs.frozen
class Pos:
    """A 1-based source position."""

    line: int
    column: int


# --------------------------------------------------------------------------- expressions


@attrs.frozen
class Number:
    """An integer literal: ``3``."""

    value: int
    pos: Pos = attrs.field(eq=False)


@attrs.frozen
class RegionSet:
    """A set of regions, optionally filtered: ``own regions with terrain forest``.

    ``base`` is ``"own"`` (regions held by the race the rule belongs to), ``"all"`` (every
    region of the map) or ``"conquests"`` (regions the race conquered this turn; there the
    filter ``non_empty`` means "was non-empty when conquered").
    """

    base: str
    filter: Pred | None
    pos: Pos = attrs.field(eq=False)


@attrs.frozen
class Count:
    """``count(<region set>)``: the number of regions in the set; with ``groups``,
    ``count(groups in <region set>)``: the connected groups its regions form."""

    regions: RegionSet
    pos: Pos = attrs.field(eq=False)
    groups: bool = False


@attrs.frozen
class BinOp:
    """``left op right`` with ``op`` one of ``+ - * /`` (``/`` divides rounding down)."""

    op: str
    left: Expr
    right: Expr
    pos: Pos = attrs.field(eq=False)


@attrs.frozen
class OptionValue:
    """``option NAME`` in an expression: the game option's value (true counts 1)."""

    name: str
    pos: Pos = attrs.field(eq=False)


@attrs.frozen
class CountPowers:
    """``count(powers)``: the special powers working for the race (a role may hold several)."""

    pos: Pos = attrs.field(eq=False)


@attrs.frozen
class CountTokens:
    """``count(tokens on map)`` or ``count(tokens in PLACE)``: the race's own tokens there.

    ``place`` is ``"map"``, ``"reserve"`` (its box) or the id of a zone.
    """

    place: str
    pos: Pos = attrs.field(eq=False)


@attrs.frozen
class Value:
    """A number the game knows at the moment (version 3): ``round``, ``rounds_left``,
    ``die``, ``count(coins)`` (``"coins"``), ``count(declined races)``
    (``"declined_races"``), ``count(tokens lost)`` (``"tokens_lost"``), ``count(coins
    taken)`` (``"coins_taken"``) or ``count(tokens in target)`` (``"target_tokens"``)."""

    name: str
    pos: Pos = attrs.field(eq=False)


@attrs.frozen
class CounterRef:
    """``counter NAME``: the value of a counter the file declares."""

    name: str
    pos: Pos = attrs.field(eq=False)


@attrs.frozen
class TokensIn:
    """``count(tokens in <region set>)``: the tokens, anyone's, on the regions of the set."""

    regions: RegionSet
    pos: Pos = attrs.field(eq=False)


@attrs.frozen
class Call:
    """``min(a, b, …)`` or ``max(a, b, …)``."""

    fn: str
    args: tuple[Expr, ...]
    pos: Pos = attrs.field(eq=False)


Expr = (
    Number | Count | BinOp | OptionValue | CountPowers | CountTokens | Value | CounterRef
    | TokensIn | Call
)

# --------------------------------------------------------------------------- predicates


@attrs.frozen
class Terrain:
    """``terrain NAME``: the region's terrain is NAME (checked against the map vocabulary)."""

    name: str
    pos: Pos = attrs.field(eq=False)


@attrs.frozen
class Feature:
    """``feature NAME``: the region carries the symbol NAME (mine, cavern, magic)."""

    name: str
    pos: Pos = attrs.field(eq=False)


@attrs.frozen
class HasPiece:
    """``piece NAME``: the region holds at least one piece NAME (declared by some rule file)."""

    name: str
    pos: Pos = attrs.field(eq=False)


@attrs.frozen
class Property:
    """A keyword predicate.

    Region properties: ``coastal`` (borders a Sea or the Lake), ``border`` (a first-conquest
    region), ``non_empty`` (holds a race or Lost Tribe token), ``water`` (a Sea or the Lake).
    Context properties (no region involved): ``first_turn`` (the race's first turn).
    """

    name: str
    pos: Pos = attrs.field(eq=False)


@attrs.frozen
class AdjacentTo:
    """``adjacent_to <region set>``: the region borders at least one region of the set; with
    ``links``, ``conquest_adjacent_to <region set>``: or the race's links join it to one."""

    regions: RegionSet
    pos: Pos = attrs.field(eq=False)
    links: bool = False


@attrs.frozen
class Not:
    """``not P``."""

    operand: Pred
    pos: Pos = attrs.field(eq=False)


@attrs.frozen
class And:
    """``P and Q``."""

    left: Pred
    right: Pred
    pos: Pos = attrs.field(eq=False)


@attrs.frozen
class Or:
    """``P or Q``."""

    left: Pred
    right: Pred
    pos: Pos = attrs.field(eq=False)


@attrs.frozen
class OptionIs:
    """``option NAME`` in a predicate: the game option is on (true or non-zero)."""

    name: str
    pos: Pos = attrs.field(eq=False)


@attrs.frozen
class Compare:
    """``left OP right`` with ``OP`` one of ``< <= = != >= >``: holds everywhere or nowhere
    (a condition on the moment, version 3)."""

    op: str
    left: Expr
    right: Expr
    pos: Pos = attrs.field(eq=False)


@attrs.frozen
class HoldsTokens:
    """``tokens OP EXPR``: the region holds that many tokens, anyone's (in ``conquests
    with …`` and an ``on conquest`` condition: held when conquered)."""

    op: str
    amount: Expr
    pos: Pos = attrs.field(eq=False)


@attrs.frozen
class Distance:
    """``distance N to <region set>``: the region is exactly N borders from the nearest
    region of the set (through any regions)."""

    steps: int
    regions: RegionSet
    pos: Pos = attrs.field(eq=False)


Pred = (
    Terrain | Feature | HasPiece | Property | AdjacentTo | OptionIs | Not | And | Or | Compare
    | HoldsTokens | Distance
)

# --------------------------------------------------------------------------- statements


@attrs.frozen
class Tokens:
    """``tokens N``: tokens the banner or badge gives."""

    value: int
    pos: Pos = attrs.field(eq=False)


@attrs.frozen
class ConquestTokens:
    """``conquest_tokens N``: extra tokens usable only to conquer; held off the map after
    each redeployment until the next turn (they never count for the tie-break)."""

    value: int
    pos: Pos = attrs.field(eq=False)


@attrs.frozen
class Box:
    """``box N``: physical tokens of the race (the hard cap on every gain); races only."""

    value: int
    pos: Pos = attrs.field(eq=False)


@attrs.frozen
class Text:
    """``text "…"``: the printed rules text (adjacent strings are joined by a space)."""

    text: str
    pos: Pos = attrs.field(eq=False)


@attrs.frozen
class Alias:
    """``alias "…"``: another name users may look the file up by."""

    name: str
    pos: Pos = attrs.field(eq=False)


@attrs.frozen
class Flag:
    """``flag NAME [when PRED]``: a switch from the core's closed list of flags (checked
    semantically); the condition may test game options only."""

    name: str
    pos: Pos = attrs.field(eq=False)
    condition: Pred | None = None


@attrs.frozen
class OptionDecl:
    """``option NAME default VALUE "meaning"``: a game option (a judgement call) the file
    declares; ``Game.new(options={NAME: …})`` changes it."""

    name: str
    default: bool | int
    text: str
    pos: Pos = attrs.field(eq=False)


@attrs.frozen
class PieceProperty:
    """A piece property: ``defence 1``, ``immune``, ``survives_decline``, ``one_per_region``."""

    name: str
    value: int | None
    pos: Pos = attrs.field(eq=False)


@attrs.frozen
class PieceDecl:
    """``piece NAME supply N { properties }``: markers of the holder with a limited supply."""

    name: str
    supply: int
    properties: tuple[PieceProperty, ...]
    pos: Pos = attrs.field(eq=False)


@attrs.frozen
class Modifier:
    """``HOOK OP EXPR [when PRED] [while active|while declined|always]``.

    ``hook`` is one of ``conquest_cost``, ``defence``, ``losses``, ``score``; ``op`` one of
    ``add``, ``sub``, ``set``; ``status`` is ``"active"`` (the default), ``"declined"`` or
    ``"always"``.
    """

    hook: str
    op: str
    value: Expr
    condition: Pred | None
    status: str
    pos: Pos = attrs.field(eq=False)
    #: where the readability word ``target`` was written after ``when``, if it was
    target: Pos | None = attrs.field(default=None, eq=False)


@attrs.frozen
class Link:
    """``link PRED``: regions matching a map predicate count as adjacent to one another for
    the race's conquests (e.g. ``link feature cavern``)."""

    condition: Pred
    pos: Pos = attrs.field(eq=False)


@attrs.frozen
class Limit:
    """How often an ability or trigger works: ``once_per_turn``, ``once_per_player_per_turn``
    or ``times N`` (in the race's whole life; ``count`` is N)."""

    kind: str
    count: int | None
    pos: Pos = attrs.field(eq=False)


@attrs.frozen
class Effect:
    """What an ability or trigger does: ``place PIECE``, ``move PIECE``, ``conquer paying
    EXPR``, ``convert``, ``roll_die``, ``truce`` or ``gain EXPR``; since version 3 also
    ``gain EXPR coins`` (verb ``gain_coins``), ``pay EXPR coins`` (``pay``), ``WHOM pays EXPR
    coins`` (``take_coins``), ``give EXPR tokens to WHOM`` (``give_tokens``), ``remove
    PIECE`` (``remove``), ``roll``, ``add EXPR to COUNTER`` (``add``) and ``discount
    EXPR``, ``conquer less EXPR`` (``conquer_less``), ``conquer with die``
    (``conquer_with_die``) and ``conquer with die not final`` (``conquer_with_die_not_final``)."""

    verb: str
    pos: Pos = attrs.field(eq=False)
    piece: str | None = None
    amount: Expr | None = None
    #: ``defender``, ``conqueror``, ``opponents`` or ``target``: the other player
    whom: str | None = None
    #: the counter of ``add``
    counter: str | None = None
    #: the pile of ``exchange``
    zone: str | None = None
    #: ``opponents with PRED pays …``: the opponents who pay (a predicate on a player)
    players: Pred | None = None


@attrs.frozen
class Trigger:
    """``on EVENT [limit] [when PRED] do EFFECT, … [status]``: the core acts for the race
    when the event happens (``effect`` is the first effect, ``rest`` the others)."""

    event: str
    limit: Limit | None
    effect: Effect
    pos: Pos = attrs.field(eq=False)
    condition: Pred | None = None
    rest: tuple[Effect, ...] = ()
    status: str = "active"

    @property
    def effects(self) -> tuple[Effect, ...]:
        """Every effect, in order."""
        return (self.effect, *self.rest)


@attrs.frozen
class During:
    """``during PHASE, …``: the phases in which an ability may be used."""

    phases: tuple[str, ...]
    pos: Pos = attrs.field(eq=False)


@attrs.frozen
class AbilityTarget:
    """``target own region|region|player [when PRED]``: what an ability is aimed at."""

    kind: str
    condition: Pred | None
    pos: Pos = attrs.field(eq=False)


@attrs.frozen
class Price:
    """``price EXPR``: the coins an ability costs each time it is used."""

    amount: Expr
    pos: Pos = attrs.field(eq=False)


@attrs.frozen
class AbilityStatus:
    """``while active``, ``while declined`` or ``always`` in an ability: when it works."""

    status: str
    pos: Pos = attrs.field(eq=False)


AbilityPart = During | Limit | AbilityTarget | Effect | Price | AbilityStatus


@attrs.frozen
class Ability:
    """``ability NAME { parts }``: a decision offered as ``UseAbility(NAME, target)``.

    The parts are kept in source order; the properties pick them out.
    """

    name: str
    parts: tuple[AbilityPart, ...]
    pos: Pos = attrs.field(eq=False)

    @property
    def phases(self) -> tuple[str, ...]:
        """Every phase named by the ``during`` parts."""
        return tuple(p for part in self.parts if isinstance(part, During) for p in part.phases)

    @property
    def limit(self) -> Limit | None:
        """The first limit given, if any."""
        return next((p for p in self.parts if isinstance(p, Limit)), None)

    @property
    def target(self) -> AbilityTarget | None:
        """The first target clause, if any."""
        return next((p for p in self.parts if isinstance(p, AbilityTarget)), None)

    @property
    def effects(self) -> tuple[Effect, ...]:
        """The effects, in order."""
        return tuple(p for p in self.parts if isinstance(p, Effect))

    @property
    def price(self) -> Price | None:
        """The first price given, if any."""
        return next((p for p in self.parts if isinstance(p, Price)), None)

    @property
    def status(self) -> str:
        """When it works: the first status given, else ``active``."""
        return next((p.status for p in self.parts if isinstance(p, AbilityStatus)), "active")


# --------------------------------------------------------------------------- expansions


@attrs.frozen
class Players:
    """``players LOW to HIGH``: the player counts an expansion is played with."""

    low: int
    high: int
    pos: Pos = attrs.field(eq=False)


@attrs.frozen
class MapFor:
    """``map players - N``: the official map for N players fewer than there are."""

    minus: int
    pos: Pos = attrs.field(eq=False)


@attrs.frozen
class Zone:
    """``zone ID "Name"``: a pile of tokens off the map, kept in order of arrival."""

    name: str
    title: str
    pos: Pos = attrs.field(eq=False)


@attrs.frozen
class LostTokens:
    """``lost_tokens to ZONE``: tokens lost to a conquest go to the zone, not the box."""

    zone: str
    pos: Pos = attrs.field(eq=False)


@attrs.frozen
class RoleToken:
    """``token ID "Name"``: the kind of token a role plays with (its race id on the map)."""

    name: str
    title: str
    pos: Pos = attrs.field(eq=False)


@attrs.frozen
class RoleSetting:
    """A role statement holding one expression: ``supply``, ``coins``,
    ``purchases_per_turn``."""

    word: str
    value: Expr
    pos: Pos = attrs.field(eq=False)


@attrs.frozen
class HandZone:
    """``hand_zone ID "Name" [on PRED]``: the role's tokens in hand rest in this zone, which
    lies on the regions ``on`` selects (if given): nobody may conquer or target those."""

    name: str
    title: str
    pos: Pos = attrs.field(eq=False)
    on: Pred | None = attrs.field(default=None, kw_only=True)


@attrs.frozen
class StartHand:
    """``start_hand N``: tokens in the role's hand zone at the start (the rest in reserve)."""

    count: int
    pos: Pos = attrs.field(eq=False)


@attrs.frozen
class Enter:
    """``enter when PRED``: where the role's tokens enter the map (instead of the border)."""

    condition: Pred
    pos: Pos = attrs.field(eq=False)


@attrs.frozen
class Draft:
    """``draft N choose K [except ID…]``: powers drawn for the role at the start."""

    count: int
    choose: int
    excluded: tuple[str, ...]
    pos: Pos = attrs.field(eq=False)


@attrs.frozen
class Buy:
    """``buy token|power price EXPR``: a purchase the role may make in its turn."""

    item: str
    price: Expr
    pos: Pos = attrs.field(eq=False)


@attrs.frozen
class Harvest:
    """``harvest EXPR into ZONE``: after scoring its turn, anonymous tokens into the zone."""

    amount: Expr
    zone: str
    pos: Pos = attrs.field(eq=False)


@attrs.frozen
class Exchange:
    """``exchange N in ZONE gives K``: after every turn, each N tokens of the zone give K."""

    count: int
    zone: str
    gain: int
    pos: Pos = attrs.field(eq=False)


@attrs.frozen
class Win:
    """``win when EXPR = EXPR``: the role's player wins at once when it holds."""

    left: Expr
    right: Expr
    pos: Pos = attrs.field(eq=False)


@attrs.frozen
class CountsAs:
    """``counts_as declined``: to every other race and power, the role's tokens are a race
    in decline."""

    status: str
    pos: Pos = attrs.field(eq=False)


RoleStatement = (
    RoleToken
    | RoleSetting
    | HandZone
    | StartHand
    | Enter
    | Draft
    | Buy
    | Harvest
    | Exchange
    | Win
    | CountsAs
)


@attrs.frozen
class Role:
    """``role ID "Name" { … }``: a seat that plays a token kind of its own instead of races."""

    name: str
    title: str
    statements: tuple[RoleStatement, ...]
    pos: Pos = attrs.field(eq=False)

    def first(self, kind: type[_S]) -> _S | None:
        """The first statement of that kind, if any."""
        return next((st for st in self.statements if isinstance(st, kind)), None)

    def setting(self, word: str) -> Expr | None:
        """The expression of ``supply``, ``coins`` or ``purchases_per_turn``, if given."""
        return next(
            (st.value for st in self.statements if isinstance(st, RoleSetting) and st.word == word),
            None,
        )


@attrs.frozen
class Immune:
    """``immune [when PRED] [status]``: the race's regions matching the condition are immune
    to enemy conquests and abilities, as a region with an immune piece is."""

    condition: Pred | None
    status: str
    pos: Pos = attrs.field(eq=False)
    #: ``immune to powers``: "powers" (conquests still allowed); "" for ``immune``
    to: str = ""


@attrs.frozen
class Reach:
    """``reach N``: the race's conquests reach regions up to N steps from its own."""

    steps: int
    pos: Pos = attrs.field(eq=False)


@attrs.frozen
class RegionTokens:
    """``region_tokens min N`` or ``region_tokens max N``: per-region token limits."""

    bound: str
    count: int
    pos: Pos = attrs.field(eq=False)


@attrs.frozen
class CounterDecl:
    """``counter NAME per_turn|per_game``: a number the race keeps (from 0)."""

    name: str
    span: str
    pos: Pos = attrs.field(eq=False)


@attrs.frozen
class OwnTokens:
    """``own_tokens N``: a power's own tokens, given with the combo beside the race's; they
    join the race's supply (not out of its box) until the race leaves the game."""

    value: int
    pos: Pos = attrs.field(eq=False)


@attrs.frozen
class SkipCoins:
    """``skip_coins N``: coins put on this combo when a player picks one below it."""

    count: int
    pos: Pos = attrs.field(eq=False)


@attrs.frozen
class CollectLost:
    """``collect lost_tokens into ID "Name"``: a pile of the race's own, where every token
    lost to a conquest goes while the race is active."""

    name: str
    title: str
    pos: Pos = attrs.field(eq=False)


@attrs.frozen
class SkipTokens:
    """``skip_tokens N``: tokens of the combo's race put on its banner when a player picks a
    combo below it, taken by whoever picks it."""

    count: int
    pos: Pos = attrs.field(eq=False)


Statement = (
    Tokens
    | ConquestTokens
    | Box
    | Text
    | Alias
    | Flag
    | OptionDecl
    | PieceDecl
    | Modifier
    | Link
    | Trigger
    | Ability
    | Players
    | MapFor
    | Zone
    | LostTokens
    | Role
    | Immune
    | Reach
    | RegionTokens
    | CounterDecl
    | SkipCoins
    | OwnTokens
    | CollectLost
    | SkipTokens
)


@attrs.frozen
class RuleFile:
    """One parsed rule file: ``KIND ID "Display name" { statements }``.

    ``kind`` is ``"race"``, ``"power"`` or ``"expansion"``; ``path`` is where it was read from.
    """

    kind: str
    id: str
    name: str
    statements: tuple[Statement, ...]
    path: str = attrs.field(eq=False)
    pos: Pos = attrs.field(eq=False)
    #: where the id is written in the header
    id_pos: Pos | None = attrs.field(default=None, eq=False)
