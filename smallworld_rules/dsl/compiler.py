"""Compile a parsed rule file into plain Python callables, once, at load.

Every predicate becomes a function returning the *bitmask* of regions that satisfy it, every
expression a function returning an int; a modifier's condition on its target is then one bit
test. Nothing here runs while a game is played except the closures it returns.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import TypeVar

from smallworld_rules.dsl import ast, codegen
from smallworld_rules.dsl.codegen import at_distance, bounded, divide
from smallworld_rules.dsl.vocabulary import (
    CONTEXT_PROPERTIES,
    EVENT_TARGETS,
    FLAGS,
    HOOKS,
    PAST_PROPERTIES,
)
from smallworld_rules.hooks import EvalContext, IntFn
from smallworld_rules.language import groups
from smallworld_rules.ruledefs import (
    CompiledAbility,
    CompiledEffect,
    CompiledModifier,
    CompiledTrigger,
    OptionDef,
    PieceDef,
    RoleDef,
    RuleDef,
    ZoneDef,
    sides_equal,
)

_F = TypeVar("_F")

# The effects of version 3, carried out by smallworld_rules.language rather than the engine.
_LANGUAGE_EFFECTS = frozenset(
    {"gain_coins", "pay", "take_coins", "give_tokens", "remove", "roll", "add", "exchange", "mark",
     "gather", "hand_over", "discount", "conquer_less", "unmark", "evict",
     "conquer_with_die", "conquer_with_die_not_final",
     "hand_over_new", "draw", "borrow_power"}
)

# Flags that only matter once the race is in decline: a power raising one keeps its badge.
_DECLINE_FLAGS = frozenset({"exempt_from_decline_limit"})


class Scope:
    """What compiling one file needs to know beyond a node: the file's id and counters, and
    what its rules read of the game that the engine records only on demand (``needs``:
    ``"facts"``, what each conquest took; ``"die"``, the last face rolled)."""

    def __init__(self, rule_id: str = "", counters: dict[str, str] | None = None) -> None:
        self.rule_id = rule_id
        self.counters = counters or {}
        self.needs: set[str] = set()


def compile_predicate(pred: ast.Pred, past: bool = False, scope: Scope | None = None) -> IntFn:
    """A predicate as a function giving the bitmask of regions that satisfy it.

    ``past``: the region properties describe a conquered region as it was before the
    conquest (``conquests with …``, the condition of an ``on conquest`` trigger).
    """
    scope = scope or Scope()
    general = _closure_predicate(pred, past, scope)  # also notes what the rule reads
    return _chosen(codegen.predicate(pred, past, partial(counter_key, scope)), general)


def _chosen(generated: _F | None, general: _F) -> _F:
    """The generated function (one call, see smallworld_rules.dsl.codegen), else the
    closures' (a tree too deep for one function)."""
    return general if generated is None else generated


def _closure_predicate(pred: ast.Pred, past: bool, scope: Scope) -> IntFn:
    """compile_predicate's closures: one per node (the general path, and what a tree too
    deep for generated source keeps)."""
    if isinstance(pred, ast.Terrain):
        terrain = pred.name
        return lambda c: c.terrain_mask(terrain)
    if isinstance(pred, ast.Feature):
        feature = pred.name
        return lambda c: c.feature_mask(feature)
    if isinstance(pred, ast.HasPiece):
        piece = pred.name
        if past:
            scope.needs.add("facts")
            return lambda c: c.past_piece_mask(piece)
        return lambda c: c.piece_mask(piece)
    if isinstance(pred, ast.Property):
        prop = pred.name
        if past and prop in PAST_PROPERTIES:
            if prop == "non_empty":  # the engine keeps it for every conquest
                return lambda c: c.conquests_mask(True)
            scope.needs.add("facts")
            return lambda c: c.past_mask(prop)
        return lambda c: c.property_mask(prop)
    if isinstance(pred, ast.OptionIs):
        option = pred.name
        return lambda c: c.all_mask if c.option(option) else 0
    if isinstance(pred, ast.AdjacentTo):
        regions = _closure_region_set(pred.regions, scope)
        if pred.links:
            return lambda c: c.conquest_adjacent_mask(regions(c))
        return lambda c: c.adjacent_mask(regions(c))
    if isinstance(pred, ast.Distance):
        regions, steps = _closure_region_set(pred.regions, scope), pred.steps
        return lambda c: at_distance(c, regions(c), steps)
    if isinstance(pred, ast.Not):
        operand = _closure_predicate(pred.operand, past, scope)
        return lambda c: c.all_mask & ~operand(c)
    if isinstance(pred, ast.And):
        left, right = _closure_predicate(pred.left, past, scope), _closure_predicate(
            pred.right, past, scope
        )
        return lambda c: left(c) & right(c)
    if isinstance(pred, ast.Or):
        left, right = _closure_predicate(pred.left, past, scope), _closure_predicate(
            pred.right, past, scope
        )
        return lambda c: left(c) | right(c)
    if isinstance(pred, ast.Compare):
        a, b = _closure_expr(pred.left, scope, past), _closure_expr(pred.right, scope, past)
        test = _COMPARISONS[pred.op]
        return lambda c: c.all_mask if test(a(c), b(c)) else 0
    if isinstance(pred, ast.HoldsTokens):
        amount, test = _closure_expr(pred.amount, scope, past), _COMPARISONS[pred.op]
        if past:
            scope.needs.add("facts")
        return lambda c: c.holding_mask(lambda held: test(held, amount(c)), past)
    raise TypeError(f"not a predicate: {pred!r}")  # pragma: no cover - the parser guarantees it


_COMPARISONS: dict[str, Callable[[int, int], bool]] = {
    "<": int.__lt__,
    "<=": int.__le__,
    "=": int.__eq__,
    "!=": int.__ne__,
    ">=": int.__ge__,
    ">": int.__gt__,
}


def _closure_region_set(regions: ast.RegionSet, scope: Scope) -> IntFn:
    """A region set as a function giving its bitmask (closures, as _closure_predicate)."""
    base: IntFn
    flt = regions.filter
    past = regions.base == "conquests"
    if past:
        # Among this turn's conquests the region properties describe each region as it was
        # when conquered: it is held by the conqueror now, so its present state cannot tell.
        if isinstance(flt, ast.Property) and flt.name == "non_empty":
            return lambda c: c.conquests_mask(True)
        base = lambda c: c.conquests_mask(False)  # noqa: E731
    elif regions.base == "own":
        base = lambda c: c.own_mask()  # noqa: E731
    else:
        base = lambda c: c.all_mask  # noqa: E731
    if flt is None:
        return base
    keep = _closure_predicate(flt, past, scope)
    return lambda c: base(c) & keep(c)


def compile_expr(expr: ast.Expr, scope: Scope | None = None, past: bool = False) -> IntFn:
    """An expression as a function giving an int (``past``: as in compile_predicate)."""
    scope = scope or Scope()
    general = _closure_expr(expr, scope, past)  # also notes what the rule reads
    return _chosen(codegen.expression(expr, past, partial(counter_key, scope)), general)


def _closure_expr(expr: ast.Expr, scope: Scope, past: bool) -> IntFn:
    """compile_expr's closures (as _closure_predicate)."""
    if isinstance(expr, ast.Number):
        value = expr.value
        return lambda c: value
    if isinstance(expr, ast.Count):
        regions = _closure_region_set(expr.regions, scope)
        if expr.groups:
            return lambda c: groups.count(c.adjacent_mask, regions(c))
        return lambda c: regions(c).bit_count()
    if isinstance(expr, ast.OptionValue):
        option = expr.name
        return lambda c: bounded(int(c.option(option)))
    if isinstance(expr, ast.CountPowers):
        return lambda c: c.powers_count()
    if isinstance(expr, ast.CountTokens):
        place = expr.place
        return lambda c: c.tokens_in(place)
    if isinstance(expr, ast.Value):
        name = expr.name
        if name == "die":
            scope.needs.add("die")
        if name == "target_tokens" and past:
            scope.needs.add("facts")
            return lambda c: c.past_tokens(1 << c.target if c.target >= 0 else 0)
        return lambda c: c.value(name)
    if isinstance(expr, ast.CounterRef):
        key, per_turn = counter_key(scope, expr.name)
        return lambda c: c.counter(key, per_turn)
    if isinstance(expr, ast.TokensIn):
        regions = _closure_region_set(expr.regions, scope)
        if expr.regions.base == "conquests":
            scope.needs.add("facts")
            return lambda c: c.past_tokens(regions(c))
        return lambda c: c.tokens_on(regions(c))
    if isinstance(expr, ast.Call):
        args = tuple(_closure_expr(a, scope, past) for a in expr.args)
        pick = min if expr.fn == "min" else max
        return lambda c: pick(f(c) for f in args)
    if isinstance(expr, ast.BinOp):
        left, right = _closure_expr(expr.left, scope, past), _closure_expr(expr.right, scope, past)
        ops: dict[str, Callable[[int, int], int]] = {
            "+": int.__add__,
            "-": int.__sub__,
            "*": int.__mul__,
            "/": divide,
        }
        op = ops[expr.op]
        if expr.op == "*":  # sums of bounded values stay bounded; products may not
            return lambda c: bounded(left(c) * right(c))
        return lambda c: op(left(c), right(c))
    raise TypeError(f"not an expression: {expr!r}")  # pragma: no cover


def _prices(buys: list[ast.Buy]) -> dict[str, IntFn]:
    """Each item's price; items priced by the same expression share one function, so the
    engine works a position's price out once for them (see roles.purchase_problem)."""
    compiled: dict[ast.Expr, IntFn] = {}
    out: dict[str, IntFn] = {}
    for st in buys:
        price = compiled.get(st.price)
        if price is None:
            price = compiled[st.price] = compile_expr(st.price)
        out[st.item] = price
    return out


def counter_key(scope: Scope, name: str) -> tuple[str, bool]:
    """The name a counter is kept under (its file's id and its name) and whether it starts
    afresh each turn."""
    return f"{scope.rule_id}#{name}", scope.counters.get(name) == "per_turn"


def _compile_condition(
    pred: ast.Pred | None, targeted: bool, scope: Scope | None = None, past: bool = False
) -> tuple[Callable[[EvalContext], bool], IntFn | None]:
    """A modifier's condition, and for a condition on the target the mask it tests."""
    if pred is None:
        return lambda c: True, None
    scope = scope or Scope()
    mask = compile_predicate(pred, past, scope)
    # (untargeted: only context properties reach here, see the semantic pass)
    general: Callable[[EvalContext], bool] = (
        (lambda c: bool((mask(c) >> c.target) & 1)) if targeted else (lambda c: mask(c) != 0)
    )
    generated = codegen.condition(pred, past, targeted, partial(counter_key, scope))
    return _chosen(generated, general), mask if targeted else None


def _uses_context_only(pred: ast.Pred) -> bool:
    if isinstance(pred, ast.Property):
        return pred.name in CONTEXT_PROPERTIES
    if isinstance(pred, ast.OptionIs | ast.Compare):
        return True
    if isinstance(pred, ast.Not):
        return _uses_context_only(pred.operand)
    if isinstance(pred, ast.And | ast.Or):
        return _uses_context_only(pred.left) and _uses_context_only(pred.right)
    return False


def compile_effect(
    effect: ast.Effect, scope: Scope | None = None, past: bool = False
) -> CompiledEffect:
    """An effect with its amount compiled."""
    scope = scope or Scope()
    amount = None if effect.amount is None else compile_expr(effect.amount, scope, past)
    if effect.verb == "roll":
        scope.needs.add("die")
    if effect.counter is not None:
        key, per_turn = counter_key(scope, effect.counter)
        return CompiledEffect(effect.verb, effect.piece, amount, effect.whom, key, per_turn)
    if effect.zone is not None:
        return CompiledEffect(effect.verb, effect.piece, amount, effect.whom, zone=effect.zone)
    if effect.players is not None:
        players = compile_predicate(effect.players, scope=scope)
        return CompiledEffect(effect.verb, effect.piece, amount, effect.whom, players=players)
    return CompiledEffect(effect.verb, effect.piece, amount, effect.whom)


def compile_trigger(trigger: ast.Trigger, rule_file: ast.RuleFile, scope: Scope) -> CompiledTrigger:
    """A trigger; on a conquest its condition and amounts read the target as it was."""
    past = trigger.event == "conquest"
    condition = None
    if trigger.condition is not None:
        targeted = trigger.event in EVENT_TARGETS and not _uses_context_only(trigger.condition)
        condition = _compile_condition(trigger.condition, targeted, scope, past)[0]
    if trigger.event == "die_roll":
        scope.needs.add("die")
    effects = tuple(compile_effect(e, scope, past) for e in trigger.effects)
    limit = trigger.limit
    return CompiledTrigger(
        event=trigger.event,
        times=0 if limit is None or limit.kind != "times" else limit.count or 0,
        effect=effects[0],
        key=f"{rule_file.id}:{trigger.pos.line}:{trigger.pos.column}",
        label=rule_file.name,
        path=rule_file.path,
        line=trigger.pos.line,
        effects=effects,
        condition=condition,
        status=trigger.status,
        once_per_turn=limit is not None and limit.kind == "once_per_turn",
        rolls=any(e.verb == "roll" for e in effects),
        draws=any(e.verb == "draw" for e in effects),
    )


def compile_ability(
    ability: ast.Ability, rule_file: ast.RuleFile, scope: Scope | None = None
) -> CompiledAbility:
    """An ability; its target's condition becomes a bitmask of regions (or of players)."""
    scope = scope or Scope(rule_file.id)
    limit, target = ability.limit, ability.target
    condition = None
    absent = ""
    per_player = True
    if target is not None and target.condition is not None:
        condition = compile_predicate(target.condition, scope=scope)
        test = target.condition
        if isinstance(test, ast.Not) and isinstance(test.operand, ast.HasPiece):
            absent = test.operand.name
        per_player = _reads_values(test)
    price = ability.price
    return CompiledAbility(
        name=ability.name,
        phases=frozenset(ability.phases),
        limit="" if limit is None else limit.kind,
        times=0 if limit is None else limit.count or 0,
        target="" if target is None else target.kind,
        condition=condition,
        effects=tuple(compile_effect(e, scope) for e in ability.effects),
        label=rule_file.name,
        path=rule_file.path,
        line=ability.pos.line,
        price=None if price is None else compile_expr(price.amount, scope),
        language=any(e.verb in _LANGUAGE_EFFECTS for e in ability.effects),
        status=ability.status,
        absent_piece=absent,
        per_player=per_player,
    )


def _reads_values(pred: ast.Pred) -> bool:
    """Whether a predicate may read a value of the moment (``count(coins)`` …): only a
    tree of properties and options joined by ``not``, ``and``, ``or`` is known not to."""
    if isinstance(pred, ast.Property | ast.OptionIs):
        return False
    if isinstance(pred, ast.Not):
        return _reads_values(pred.operand)
    if isinstance(pred, ast.And | ast.Or):
        return _reads_values(pred.left) or _reads_values(pred.right)
    return True


def _empty_race(rule_file: ast.RuleFile, token: ast.RoleToken) -> RuleDef:
    """The rule definition of a role's token kind: a race with no rule of its own."""
    return RuleDef(
        kind="race",
        id=token.name,
        name=token.title,
        tokens=0,
        box=0,
        conquest_tokens=0,
        text="",
        aliases=(),
        flags=frozenset(),
        conditional_flags=(),
        options=(),
        pieces=(),
        modifiers={hook: () for hook in HOOKS},
        works_in_decline=False,
        path=rule_file.path,
        ast=None,
    )


def compile_role(role: ast.Role, rule_file: ast.RuleFile) -> RoleDef:
    """A role of an expansion (the semantic pass has checked it is complete)."""
    token = role.first(ast.RoleToken)
    supply = role.setting("supply")
    assert token is not None and supply is not None
    hand_zone, draft = role.first(ast.HandZone), role.first(ast.Draft)
    start, enter = role.first(ast.StartHand), role.first(ast.Enter)
    harvest, exchange, win = role.first(ast.Harvest), role.first(ast.Exchange), role.first(ast.Win)
    coins, limit = role.setting("coins"), role.setting("purchases_per_turn")
    sides = None if win is None else (compile_expr(win.left), compile_expr(win.right))
    return RoleDef(
        id=role.name,
        name=role.title,
        race=_empty_race(rule_file, token),
        supply=compile_expr(supply),
        hand_zone=None if hand_zone is None else hand_zone.name,
        start_hand=0 if start is None else start.count,
        coins=None if coins is None else compile_expr(coins),
        enter=None if enter is None else compile_predicate(enter.condition),
        covers=None if hand_zone is None or hand_zone.on is None else compile_predicate(
            hand_zone.on
        ),
        draft=None if draft is None else (draft.count, draft.choose, draft.excluded),
        buys=_prices([st for st in role.statements if isinstance(st, ast.Buy)]),
        purchases_per_turn=None if limit is None else compile_expr(limit),
        harvest=None if harvest is None else (compile_expr(harvest.amount), harvest.zone),
        exchange=None if exchange is None else (exchange.count, exchange.zone, exchange.gain),
        win=sides,
        counts_as_declined=role.first(ast.CountsAs) is not None,
        path=rule_file.path,
        line=role.pos.line,
        won=None if win is None else _chosen(
            codegen.equal(win.left, win.right, partial(counter_key, Scope())),
            sides_equal(sides),
        ),
        win_places=None if win is None else codegen.places_read(win.left, win.right),
    )


def compile_file(rule_file: ast.RuleFile) -> RuleDef:
    """Turn a checked :class:`ast.RuleFile` into a :class:`RuleDef`."""
    tokens, box, conquest_tokens, text = 0, 0, 0, ""
    aliases: list[str] = []
    flags: set[str] = set()
    conditional_flags: list[tuple[str, IntFn]] = []
    options: list[OptionDef] = []
    pieces: list[PieceDef] = []
    modifiers: dict[str, list[CompiledModifier]] = {hook: [] for hook in HOOKS}
    links: list[IntFn] = []
    triggers: list[CompiledTrigger] = []
    abilities: list[CompiledAbility] = []
    players: tuple[int, int] | None = None
    map_minus = 0
    zones: list[ZoneDef] = []
    lost_tokens_to: str | None = None
    roles: list[RoleDef] = []
    counters = {
        st.name: st.span for st in rule_file.statements if isinstance(st, ast.CounterDecl)
    }
    scope = Scope(rule_file.id, counters)
    immune: list[tuple[IntFn | None, str]] = []
    shielded: list[tuple[IntFn | None, str]] = []  # immune to powers
    reach, region_min, region_max = 1, 0, 0
    skip_coins: int | None = None
    own_tokens = 0
    collects: str | None = None
    skip_tokens = 0
    for st in rule_file.statements:
        if isinstance(st, ast.Tokens):
            tokens = st.value
        elif isinstance(st, ast.Box):
            box = st.value
        elif isinstance(st, ast.ConquestTokens):
            conquest_tokens = st.value
        elif isinstance(st, ast.Text):
            text = st.text
        elif isinstance(st, ast.Alias):
            aliases.append(st.name)
        elif isinstance(st, ast.Flag):
            if st.condition is None:
                flags.add(st.name)
            else:
                conditional_flags.append((st.name, compile_predicate(st.condition)))
        elif isinstance(st, ast.OptionDecl):
            options.append(OptionDef(st.name, st.default, st.text, rule_file.path, st.pos.line))
        elif isinstance(st, ast.PieceDecl):
            props = {p.name: p.value for p in st.properties}
            pieces.append(
                PieceDef(
                    name=st.name,
                    supply=st.supply,
                    defence=props.get("defence") or 0,
                    immune="immune" in props,
                    survives_decline="survives_decline" in props,
                    one_per_region="one_per_region" in props,
                    holder=rule_file.id,
                    path=rule_file.path,
                    line=st.pos.line,
                    guards="guards" in props,
                    kept_when_lost="kept_when_lost" in props,
                    lifted_at_redeploy="lifted_at_redeploy" in props,
                    placed_anywhere="placed_anywhere" in props,
                    stays="stays" in props,
                    lifted_at_turn_start="lifted_at_turn_start" in props,
                    toll=props.get("toll") or 0,
                    loot=props.get("loot") or 0,
                    hidden="hidden" in props,
                    repels=props.get("repels") or 0,
                )
            )
        elif isinstance(st, ast.Link):
            links.append(compile_predicate(st.condition))
        elif isinstance(st, ast.Trigger):
            triggers.append(compile_trigger(st, rule_file, scope))
        elif isinstance(st, ast.Ability):
            abilities.append(compile_ability(st, rule_file, scope))
        elif isinstance(st, ast.Immune):
            where = None if st.condition is None else compile_predicate(st.condition, scope=scope)
            (shielded if st.to else immune).append((where, st.status))
        elif isinstance(st, ast.Reach):
            reach = st.steps
        elif isinstance(st, ast.RegionTokens):
            if st.bound == "min":
                region_min = st.count
            else:
                region_max = st.count
        elif isinstance(st, ast.SkipCoins):
            skip_coins = st.count
        elif isinstance(st, ast.OwnTokens):
            own_tokens = st.value
        elif isinstance(st, ast.Players):
            players = (st.low, st.high)
        elif isinstance(st, ast.MapFor):
            map_minus = st.minus
        elif isinstance(st, ast.Zone):
            zones.append(ZoneDef(st.name, st.title, None, rule_file.path, st.pos.line))
        elif isinstance(st, ast.LostTokens):
            lost_tokens_to = st.zone
        elif isinstance(st, ast.SkipTokens):
            skip_tokens = st.count
        elif isinstance(st, ast.CollectLost):
            zones.append(ZoneDef(st.name, st.title, None, rule_file.path, st.pos.line))
            collects = st.name
        elif isinstance(st, ast.Role):
            roles.append(compile_role(st, rule_file))
            hand = st.first(ast.HandZone)
            if hand is not None:
                zones.append(ZoneDef(hand.name, hand.title, st.name, rule_file.path, hand.pos.line))
        elif isinstance(st, ast.Modifier):
            targeted = HOOKS[st.hook]
            if st.condition is not None and not _uses_context_only(st.condition):
                targeted = True
            condition, where = _compile_condition(st.condition, targeted, scope)
            modifiers[st.hook].append(
                CompiledModifier(
                    hook=st.hook,
                    op=st.op,
                    status=st.status,
                    value=compile_expr(st.value, scope),
                    condition=condition,
                    label=rule_file.name,
                    path=rule_file.path,
                    line=st.pos.line,
                    where=where,
                )
            )
    works_in_decline = any(
        m.status != "active" for mods in modifiers.values() for m in mods
    ) or bool((flags | {name for name, _ in conditional_flags}) & _DECLINE_FLAGS)
    works_in_decline = works_in_decline or any(
        status != "active"
        for status in [t.status for t in triggers] + [i[1] for i in immune + shielded]
    )
    works_in_decline = works_in_decline or any(a.status != "active" for a in abilities)
    unknown = flags - set(FLAGS)
    if unknown:  # pragma: no cover - the semantic pass refuses them first
        raise ValueError(f"unknown flags {sorted(unknown)}")
    return RuleDef(
        kind=rule_file.kind,
        id=rule_file.id,
        name=rule_file.name,
        tokens=tokens,
        box=box,
        conquest_tokens=conquest_tokens,
        text=text,
        aliases=tuple(aliases),
        flags=frozenset(flags),
        conditional_flags=tuple(conditional_flags),
        options=tuple(options),
        pieces=tuple(pieces),
        modifiers={hook: tuple(mods) for hook, mods in modifiers.items()},
        works_in_decline=works_in_decline,
        path=rule_file.path,
        ast=rule_file,
        links=tuple(links),
        triggers=tuple(triggers),
        abilities=tuple(abilities),
        players=players,
        map_minus=map_minus,
        zones=tuple(zones),
        lost_tokens_to=lost_tokens_to,
        roles=tuple(roles),
        immune=tuple(immune),
        shielded=tuple(shielded),
        reach=reach,
        region_min=region_min,
        region_max=region_max,
        skip_coins=skip_coins,
        own_tokens=own_tokens,
        collects=collects,
        skip_tokens=skip_tokens,
        needs=frozenset(scope.needs),
    )
