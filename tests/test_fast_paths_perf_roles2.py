"""The shortcuts of pass 8e give what the general code gives.

* A rule's expression or predicate compiled as one generated function
  (``smallworld_rules.dsl.codegen``) gives, in every context, what the compiler's closures
  give (one per node, the general path): on every position of seeded random games of every
  rule set, with each compiled rule evaluated both ways as the game asks for it, and on a
  hand-built tree of every kind of node.
"""

from __future__ import annotations

import random
from functools import partial
from typing import Any

import attrs
import pytest
from helpers import finished_games, players_for, rule_sets

import smallworld_rules as sw
from smallworld_rules.actions import UseAbility
from smallworld_rules.dsl import ast, codegen, compiler
from smallworld_rules.dsl.vocabulary import TAKES_TARGET
from smallworld_rules.engine import roles, use_ability
from smallworld_rules.engine.basics import _PHASE_NAMES
from smallworld_rules.engine.context import _Ctx
from smallworld_rules.engine.core import Engine
from smallworld_rules.events import AbilityUsed
from smallworld_rules.language import effects as language_effects
from smallworld_rules.language import events as lang_events
from smallworld_rules.language import flow
from smallworld_rules.ruledefs import RoleDef, sides_equal
from smallworld_rules.state import SOUL, Phase


def _outcome(fn: Any, ctx: Any) -> Any:
    """What ``fn(ctx)`` gives, or the kind of error it raises."""
    try:
        return fn(ctx)
    except Exception as exc:  # compared, not hidden
        return type(exc)


def _play(rules: sw.Rules, games: int) -> int:
    """Seeded uniformly random games; the number of actions played."""
    return sum(len(game.action_stack) for game in finished_games(rules, games))


@rule_sets(necromancer=True, each_box=True)
def test_generated_rules_give_what_their_closures_give(
    how: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every compiled rule a game evaluates (a modifier's value and condition, a price, a
    harvest, a win, an ability's target, a trigger's condition …) gives, generated as one
    function, what the closures of its nodes give, in the very context the game asks in."""
    asked: list[int] = [0]
    wrong: list[tuple[Any, Any, Any]] = []
    generated_count = [0]

    def both(generated: Any, general: Any) -> Any:
        if generated is None:
            return general
        generated_count[0] += 1

        def check(ctx: Any) -> Any:
            fast, slow = _outcome(generated, ctx), _outcome(general, ctx)
            asked[0] += 1
            if fast != slow or type(fast) is not type(slow):
                wrong.append((generated, fast, slow))
            return general(ctx)

        return check

    monkeypatch.setattr(compiler, "_chosen", both)
    rules = sw.load_rules(**how)
    assert generated_count[0] > 0  # every rule set has rules compiled this way
    _play(rules, 4)
    assert not wrong, wrong[:5]
    assert asked[0] > 100


def _pos() -> Any:
    return ast.Pos(1, 1)


def _every_node() -> tuple[list[ast.Expr], list[ast.Pred]]:
    """Expressions and predicates with every kind of node, past and present."""
    p = _pos()
    own = ast.RegionSet("own", None, p)
    every = ast.RegionSet("all", None, p)
    conquests = ast.RegionSet("conquests", None, p)
    non_empty = ast.Property("non_empty", p)
    coastal = ast.Property("coastal", p)
    conquered_full = ast.RegionSet("conquests", non_empty, p)
    mountains = ast.RegionSet("all", ast.Terrain("mountain", p), p)
    own_magic = ast.RegionSet("own", ast.Feature("magic", p), p)
    two = ast.Number(2, p)
    count_own = ast.Count(own, p)
    exprs: list[ast.Expr] = [
        ast.Number(-3, p),
        count_own,
        ast.Count(own, p, groups=True),
        ast.Count(every, p),
        ast.Count(mountains, p),
        ast.CounterRef("hits", p),
        ast.Count(own_magic, p),
        ast.Count(conquests, p),
        ast.Count(conquered_full, p),
        ast.OptionValue("abandon_mid_conquest", p),
        ast.CountPowers(p),
        ast.CountTokens("map", p),
        ast.CountTokens("reserve", p),
        ast.Value("coins", p),
        ast.Value("target_tokens", p),
        ast.TokensIn(own, p),
        ast.TokensIn(conquests, p),
        ast.Call("min", (count_own, two, ast.CountTokens("map", p)), p),
        ast.Call("max", (count_own,), p),
        ast.BinOp("+", count_own, two, p),
        ast.BinOp("-", two, ast.CountTokens("map", p), p),
        ast.BinOp("*", ast.Number(999_999, p), ast.CountTokens("map", p), p),
        ast.BinOp("/", ast.CountTokens("map", p), count_own, p),
        ast.BinOp("/", two, ast.Count(conquests, p), p),
    ]
    preds: list[ast.Pred] = [
        ast.Terrain("forest", p),
        ast.Feature("cavern", p),
        ast.HasPiece("encampment", p),
        non_empty,
        coastal,
        ast.Property("first_turn", p),
        ast.Property("lone", p),
        ast.OptionIs("abandon_mid_conquest", p),
        ast.AdjacentTo(own, p),
        ast.AdjacentTo(mountains, p, links=True),
        ast.Distance(2, own, p),
        ast.Not(coastal, p),
        ast.And(non_empty, ast.Not(ast.Terrain("sea", p), p), p),
        ast.Or(ast.Terrain("hill", p), ast.Feature("mine", p), p),
        ast.Compare(">=", count_own, two, p),
        ast.Compare("=", ast.CountTokens("reserve", p), ast.Number(0, p), p),
        ast.Compare("!=", ast.CountPowers(p), ast.Number(1, p), p),
        ast.Compare("<", count_own, ast.Number(4, p), p),
        ast.Compare("<=", two, count_own, p),
        ast.Compare(">", ast.CountTokens("map", p), two, p),
        ast.HoldsTokens(">=", two, p),
        ast.HoldsTokens("<", ast.BinOp("+", count_own, ast.Number(1, p), p), p),
    ]
    return exprs, preds


def test_every_kind_of_node_generated_gives_what_its_closures_give() -> None:
    """Each kind of node of an expression or a predicate (present and, where the language
    has one, past), generated as one function, gives what the compiler's closures give,
    for every race in play on every position of seeded official games, with every region as
    the target."""
    exprs, preds = _every_node()
    pairs: list[tuple[Any, Any]] = []
    for past in (False, True):
        for e in exprs:
            scope = compiler.Scope("test")
            made = codegen.expression(e, past, partial(compiler.counter_key, scope))
            assert made is not None, e
            pairs.append((made, compiler._closure_expr(e, scope, past)))
        for q in preds:
            scope = compiler.Scope("test")
            made = codegen.predicate(q, past, partial(compiler.counter_key, scope))
            assert made is not None, q
            pairs.append((made, compiler._closure_predicate(q, past, scope)))
            for targeted in (False, True):
                cond = codegen.condition(
                    q, past, targeted, partial(compiler.counter_key, scope)
                )
                mask = compiler._closure_predicate(q, past, scope)
                slow = (
                    (lambda c, m=mask: bool((m(c) >> c.target) & 1))
                    if targeted
                    else (lambda c, m=mask: m(c) != 0)
                )
                pairs.append((cond, slow))
    rules = sw.load_rules()
    compared = 0
    for seed in range(3):
        game = sw.Game.new(players=2 + seed, seed=seed, rules=rules)
        rng = random.Random(seed)
        step = 0
        while not game.is_over:
            if step % 7 == 0:
                engine, state = game._engine, game._state
                for race in state.races:
                    for target in (-1, *range(0, engine.n, 5)):
                        ctx = _Ctx(engine, state, race, target)
                        for fast, slow in pairs:
                            assert _outcome(fast, ctx) == _outcome(slow, ctx)
                            compared += 1
            options = list(game.legal_actions())
            game.apply(options[rng.randrange(len(options))])
            step += 1
    assert compared > 10_000


def test_a_tree_too_deep_keeps_the_closures() -> None:
    """A tree nested deeper than one generated function takes is left to the closures,
    which give the same values."""
    p = _pos()
    deep: ast.Expr = ast.Number(1, p)
    for _ in range(codegen.MAX_DEPTH + 5):
        deep = ast.BinOp("+", deep, ast.Number(1, p), p)
    assert codegen.expression(deep, False, lambda name: (name, False)) is None
    fn = compiler.compile_expr(deep)
    assert fn(None) == codegen.MAX_DEPTH + 6  # type: ignore[arg-type]


def test_generated_source_holds_no_text_of_the_file() -> None:
    """The names a rule file gives (here a terrain, a zone and an option that are code)
    reach the generated function as values, never as source: the function only looks
    them up."""
    p = _pos()
    sly = "x') or __import__('os').system('true') or ('"
    expr = ast.BinOp(
        "+",
        ast.CountTokens(sly, p),
        ast.Count(ast.RegionSet("all", ast.Terrain(sly, p), p), p),
        p,
    )
    seen: list[str] = []

    class Probe:
        all_mask = 0b111

        def tokens_in(self, place: str) -> int:
            seen.append(place)
            return 2

        def terrain_mask(self, name: str) -> int:
            seen.append(name)
            return 0b101

    fn = codegen.expression(expr, False, lambda name: (name, False))
    assert fn is not None
    assert fn(Probe()) == 2 + 2  # type: ignore[arg-type]
    assert seen == [sly, sly]
    assert all(sly not in source for source in codegen._makers)


def _tokens_in_general(engine: Any, state: Any, race: str, place: str) -> int:
    """``count(tokens in …)`` from its definition: the race's tokens on the regions it holds
    (a scan of the map), in its box, in a zone's pile, or in the role's hand zone (its hand
    and the tokens set aside)."""
    if place == "map":
        return sum(
            tokens
            for occupant, tokens in zip(state.region_race, state.region_tokens, strict=True)
            if occupant == race
        )
    if place == "reserve":
        return int(state.box.get(race, 0))
    if place in state.zones:
        return list(state.zones[place]).count(race)
    zone = engine.rules.zones.get(place)
    rs = state.races.get(race)
    if zone is None or rs is None or engine.role is None or zone.role != engine.role.id:
        return 0
    return int(rs.hand + rs.held) if race == engine.role_race else 0


@rule_sets(necromancer=True)
def test_tokens_and_powers_counted_by_the_context_are_their_definitions(
    how: dict[str, Any],
) -> None:
    """``count(tokens in map|reserve|<zone>)`` and ``count(powers)`` worked out by the
    context itself equal their definitions (the engine's ``tokens_in`` too), for every race
    in play and every place on every position of seeded random games."""
    rules = sw.load_rules(**how)
    players = players_for(rules)
    compared = 0
    for seed in range(3):
        game = sw.Game.new(players=players[seed % len(players)], seed=seed, rules=rules)
        engine = game._engine
        places = ["map", "reserve", "nowhere", *engine.rules.zones]
        rng = random.Random(seed)
        while not game.is_over:
            state = game._state
            for race in state.races:
                ctx = _Ctx(engine, state, race)
                for place in places:
                    want = _tokens_in_general(engine, state, race, place)
                    assert ctx.tokens_in(place) == want, (race, place)
                    assert engine.tokens_in(state, race, place) == want
                    compared += 1
                assert ctx.powers_count() == len(engine._powers(state, race))
            options = list(game.legal_actions())
            game.apply(options[rng.randrange(len(options))])
    assert compared > 500


# --------------------------------------------------------------------------- UseAbility


def _old_ability_problem(
    self: Any, s: Any, rs: Any, ability: Any, target: Any, targets: Any = None,
    reach: Any = None,
) -> str | None:
    """``ability_problem`` as it was before pass 8e (the general code), verbatim."""
    phase = _PHASE_NAMES[s.phase]
    if rs.declined and flow.choosing(s) == rs.race:
        phase = "decline"
    if phase not in ability.phases and not use_ability._starting(s, phase, ability):
        when = " or ".join(sorted(ability.phases))
        return f"{ability.name} is used during {when}, not now ({phase})"
    if ability.limit == "times" and rs.uses.get(ability.name, 0) >= ability.times:
        return f"{ability.name} may be used only {ability.times} time(s)"
    key = self._use_key(ability, s, target)
    if ability.limit and ability.limit != "times" and key in s.used:
        per = " against that player" if "@" in key else ""
        return f"{ability.name} was already used this turn{per}"
    if not ability.target:
        if target is not None:
            return f"{ability.name} takes no target"
    else:
        what = ability.target if ability.target in ("player", "combo") else "region"
        if target is None:
            return f"{ability.name} needs a target {what}"
        top = {"player": self.players, "combo": len(s.market)}.get(what, self.n)
        if not 0 <= target < top:
            return f"there is no {what} {target}"
        if targets is None:
            targets = self._ability_targets(s, rs, ability)
        if not (targets >> target) & 1:
            why = "its conditions fail"
            if ability.target == "region":
                why = self.target_problem(s, rs.race, target) or why
            return f"{ability.name} cannot target {what} {target}: {why}"
    if ability.price is not None:
        cost = language_effects.price(self, s, rs, ability.price)
        coins = s.players[rs.owner].coins
        if coins < cost:
            return f"{ability.name} costs {cost} coins and you have {coins}"
    taken = False
    for effect in ability.effects:
        problem = self._effect_problem(s, rs, effect, target, taken, reach)
        if problem:
            return problem
        taken = taken or effect.verb in TAKES_TARGET
    return None


def _old_use_ability(self: Any, s: Any, action: Any, log: Any) -> None:
    """``_use_ability`` as it was before pass 8e (the general code), verbatim."""
    self._need_phase(s, action, Phase.CONQUEST, Phase.REDEPLOY, Phase.WITHDRAWAL)
    withdrawal = s.phase is Phase.WITHDRAWAL
    rs = s.own_race(s.withdrawals[0]) if withdrawal else self._acting_race(s, action)
    ability = next((a for a in self.abilities(s, rs.race) if a.name == action.name), None)
    if ability is None and self.declined_abilities and s.phase is not Phase.WITHDRAWAL:
        user = flow.declined_user(self, s, action.name)
        if user is not None:
            rs = user
            ability = next(a for a in self.abilities(s, rs.race) if a.name == action.name)
    if ability is None:
        known = sorted({a.name for a in self.abilities(s, rs.race)})
        have = f"(yours: {', '.join(known)})" if known else "(your race has none now)"
        raise sw.IllegalAction(f"your race has no ability {action.name!r} {have}", action)
    target = action.target
    if target is not None and not isinstance(target, int):
        raise sw.IllegalAction(f"{ability.name} targets a region or player number", action)
    problem = self.ability_problem(s, rs, ability, target)
    if problem:
        raise sw.IllegalAction(problem, action)
    if ability.limit == "times":
        rs.uses = {**rs.uses, ability.name: rs.uses.get(ability.name, 0) + 1}
    elif ability.limit:
        s.used = (*s.used, self._use_key(ability, s, target))
    if s.phase is Phase.CONQUEST:
        s.acted = True
    if ability.price is not None:
        s.own_player(rs.owner).coins -= language_effects.price(self, s, rs, ability.price)
    log(AbilityUsed(rs.owner, rs.race, ability.name, target))
    if ability.language:
        where = -1 if target is None else target
        other = where if ability.target == "player" else -1
        lang_events.run_ability(self, s, rs, ability.effects, ability.name, where, other, log)
    else:
        for effect in ability.effects:
            self._do_effect(s, rs, effect, -1 if target is None else target, log)
    if s.phase is Phase.WITHDRAWAL:
        self._withdrawal_progress(s, log)


def _outcome_of(game: sw.Game, action: Any) -> tuple[Any, ...]:
    """What applying ``action`` to a clone gives: the refusal, or the events and the save."""
    twin = game.clone()
    before = len(twin.log)
    try:
        twin.apply(action)
    except sw.IllegalAction as exc:
        return ("refused", str(exc))
    return ("applied", tuple(twin.log[before:]), twin.to_json())


@rule_sets(necromancer=True)
def test_abilities_used_as_the_general_code_uses_them(
    how: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every UseAbility listed on a position, and every ability of the rules on a few
    targets (most refused), gives the same refusal, or the same events and save, as the
    general code (the ability looked up by a generator over ``abilities``, every check of
    ``ability_problem`` in its old form) on every third position of seeded random games."""
    rules = sw.load_rules(**how)
    names = sorted(
        {a.name for d in [*rules.races.values(), *rules.powers.values()] for a in d.abilities}
    )
    players = players_for(rules)
    compared = applied = 0
    for seed in range(3):
        game = sw.Game.new(players=players[seed % len(players)], seed=seed, rules=rules)
        rng = random.Random(seed)
        step = 0
        while not game.is_over:
            options = list(game.legal_actions())
            if step % 3 == 0:
                listed = [a for a in options if isinstance(a, UseAbility)]
                tried = listed + [
                    UseAbility(name, target)
                    for name in names
                    for target in (None, 0, 3, game._engine.n - 1)
                ]
                fast = [_outcome_of(game, a) for a in tried]
                with monkeypatch.context() as m:
                    m.setitem(Engine._handlers, UseAbility, _old_use_ability)
                    m.setattr(Engine, "ability_problem", _old_ability_problem)
                    slow = [_outcome_of(game, a) for a in tried]
                assert fast == slow
                compared += len(tried)
                applied += sum(o[0] == "applied" for o in fast)
            game.apply(options[rng.randrange(len(options))])
            step += 1
    assert compared > 0
    if names:
        assert applied > 0


LIMITED = """\
power limited "Limited" {
    tokens 4
    text "Twice a game, in your conquests, gain 1 token; once a turn, in your redeployment,"
         "1 coin for 1."
    ability muster { during conquest times 2 gain 1 }
    ability toll { during redeploy once_per_turn price 1 gain 1 coin }
}
"""


def test_abilities_limited_in_number_used_as_the_general_code_uses_them(
    tmp_path: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An ability usable a number of times a game, and one once a turn (no shipped file has
    the first): used, refused once used up, and tried on targets it does not take, on every
    position of seeded games where the race with this power acts, as the general code."""
    (tmp_path / "limited.swr").write_text(LIMITED, encoding="utf-8")
    rules = sw.load_rules(paths=[tmp_path])
    refused = applied = 0
    for seed in range(4):
        game = sw.Game.new(players=2, seed=seed, rules=rules, combos=[("ratmen", "limited")])
        game.apply(sw.PickCombo(0))
        rng = random.Random(seed)
        while not game.is_over:
            tried = [UseAbility(n, t) for n in ("muster", "toll") for t in (None, 2)]
            fast = [_outcome_of(game, a) for a in tried]
            with monkeypatch.context() as m:
                m.setitem(Engine._handlers, UseAbility, _old_use_ability)
                m.setattr(Engine, "ability_problem", _old_ability_problem)
                slow = [_outcome_of(game, a) for a in tried]
            assert fast == slow
            applied += sum(o[0] == "applied" for o in fast)
            refused += sum("may be used only 2 time(s)" in str(o) for o in fast)
            options = list(game.legal_actions())
            game.apply(options[rng.randrange(len(options))])
    assert applied > 0 and refused > 0


# --------------------------------------------------------------------------- the ability listing

PLANTERS = """\
# A power of this test: pieces placed on targets of every kind the listing checks as a mask.
power planters "Planters" {
    tokens 5
    text "Place a Flag on one of your regions without one; a Beacon on any region without"
         "one; a Post on any of your regions (several a region)."
    piece flag supply 2 { one_per_region }
    piece beacon supply 3 { placed_anywhere one_per_region }
    piece post supply 4 { }
    ability plant {
        during conquest, redeploy
        target own region
        place flag
    }
    ability signal {
        during redeploy
        target region
        place beacon
    }
    ability settle {
        during conquest
        target own region when adjacent_to own region with piece flag
        place post
    }
}
"""


@rule_sets(necromancer=True)
def test_listed_placements_are_those_ability_problem_allows(how: dict[str, Any]) -> None:
    """Pieces placed by an ability (one a region or several, on own regions or anywhere):
    the listing, which checks them as a mask of the targets, gives in order every UseAbility
    ``ability_problem`` accepts among all targets, for the acting race and the player's
    races in decline on every position of seeded games."""
    from test_fast_paths_perf_roles import _listed_as_ability_problem_allows

    rules = sw.load_rules(**how)
    assert _listed_as_ability_problem_allows(rules, players_for(rules)) > 0


def test_listed_placements_of_every_kind_are_those_ability_problem_allows(
    tmp_path: Any,
) -> None:
    """As above, with a power whose target clauses let through regions the placement
    refuses (one already holding the piece), and one whose pieces go anywhere."""
    from test_fast_paths_perf_roles import _listed_as_ability_problem_allows

    (tmp_path / "planters.swr").write_text(PLANTERS, encoding="utf-8")
    assert _listed_as_ability_problem_allows(sw.load_rules(paths=[tmp_path]), (2, 3)) > 100


# --------------------------------------------------------------------------- the role's turn end


def _old_take_from_pile(pile: list[str], count: int, first: str) -> list[str]:
    """``roles._take_from_pile`` before pass 8e (the general code): one scan per kind."""
    taken: list[str] = []
    for wanted in (first, SOUL, None):
        i = 0
        while i < len(pile) and len(taken) < count:
            if wanted is None or pile[i] == wanted:
                taken.append(pile.pop(i))
            else:
                i += 1
    return taken


def test_tokens_taken_from_a_pile_are_those_the_rule_takes() -> None:
    """Rule 4.5: an exchange takes the role's own tokens first, then anonymous souls, then
    the oldest others; the tokens taken and the pile left are those of the general code,
    for 5,000 random piles (every count, the role's kind absent or present, piles shorter
    than the count)."""
    rng = random.Random(8)
    kinds = ["ghost", SOUL, "ratmen", "elves", "orcs"]
    for _ in range(5000):
        pile = [rng.choice(kinds) for _ in range(rng.randrange(0, 12))]
        count = rng.randrange(1, 7)
        first = rng.choice(["ghost", "elves"])
        fast, slow = list(pile), list(pile)
        assert roles._take_from_pile(fast, count, first) == _old_take_from_pile(
            slow, count, first
        )
        assert fast == slow


def test_a_role_wins_when_the_two_sides_of_its_win_are_equal() -> None:
    """Rule 4.2.5 (A18): the Necromancer wins at once when every Ghost is on the map or the
    Island. The win asked after every turn, as one function (``RoleDef.won``), is whether
    the two sides of ``win`` are equal, on every position of seeded Necromancer Island
    games; a RoleDef made without one gets it from its ``win``."""
    rules = sw.load_rules(expansions=["necromancer_island"])
    (role,) = [r for e in rules.expansions.values() for r in e.roles]
    assert role.won is not None and role.win is not None
    made = attrs.evolve(role, won=sides_equal(role.win))
    rebuilt = RoleDef(**{f.name: getattr(role, f.name) for f in attrs.fields(RoleDef)
                         if f.name != "won"})
    assert rebuilt.won is not None and rebuilt.won is not role.won
    left, right = role.win
    seen = {True: 0, False: 0}
    for seed in range(6):
        game = sw.Game.new(players=3 + seed % 3, seed=seed, rules=rules)
        rng = random.Random(seed)
        while not game.is_over:
            engine, state = game._engine, game._state
            ctx = _Ctx(engine, state, engine.role_race)
            want = left(ctx) == right(ctx)
            assert role.won(ctx) is want
            assert made.won is not None and made.won(ctx) is want
            assert rebuilt.won(ctx) is want
            seen[want] += 1
            options = list(game.legal_actions())
            game.apply(options[rng.randrange(len(options))])
    assert seen[False] > 100
