"""The fast paths of pass 8b (carrying out conquests, deploys and turn ends) give exactly
what the general code gives.

Each test plays seeded random games with the official rules, every folder of test rule
files and every expansion (alone, and all together), and carries out actions on every
position twice: once as the game does, once with the engine's quick answers switched to
the general code. The states (every field, in order), the events and the refusals must be
the same, and the position the action was carried out from must be left as it was (a
banner changed in place without its copy would show there).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from helpers import random_positions, rule_sets, rules_and_players
from test_fast_paths_perf_turn import _outcome, _text, _whole

import smallworld_rules as sw
from smallworld_rules.engine.core import Engine
from smallworld_rules.state import State

RULE_SETS = rule_sets(each_box=True)


def _every_file(engine: Engine) -> frozenset[str]:
    """The id of every rule file of the engine's rules: a quick test by rule file that is
    given them all always sends the race to the general code."""
    rules = engine.rules
    ids = {*rules.races, *rules.powers, *rules.expansions}
    ids |= {role.race.id for role in rules.roles.values()}
    return frozenset(ids)


#: the engine's quick tests by rule file, each given every rule file in _general
_QUICK_TESTS = ("_losing", "_triggering", "_lifting", "_holding")


@contextmanager
def _general(engine: Engine) -> Iterator[None]:
    """The engine with the quick answers of conquest.py, redeploy.py and turn.py switched
    to the general code: every race's losses from its pairing (``losses``), every race's
    triggers asked through ``_fire``, lost tokens sent by ``_lose``, every race's pieces to
    lift and triggers looked up in its pairing as its conquests end, the tokens a Deploy
    may place asked again after them, and ``_hold`` asked for every race (engines are
    shared: put back after)."""
    kept = {name: getattr(engine, name) for name in (*_QUICK_TESTS, "_lost_to_box")}
    every = _every_file(engine)
    for name in _QUICK_TESTS:
        setattr(engine, name, every)
    engine._lost_to_box = False
    try:
        yield
    finally:
        for name, value in kept.items():
            setattr(engine, name, value)


def _compare(
    how: dict[str, Any],
    switch: Callable[[Engine], Any],
    actions: Callable[[sw.Game], list[sw.Action]],
    games: int = 4,
) -> int:
    """Every action ``actions`` picks on every position of seeded games, carried out as
    games do and with ``switch`` on (the general path): the same outcome, and the position
    itself unchanged by either. Returns the number of actions compared."""
    rules, players = rules_and_players(how)
    compared = 0
    for game in random_positions(rules, games, players):
        engine, state = game._engine, game._state
        before = _whole(state)
        for action in actions(game):
            fast = _outcome(engine, state, action)
            assert _whole(state) == before, (action, "changed the position it was played on")
            with switch(engine):
                general = _outcome(engine, state, action)
            assert fast == general, (action, _text(state))
            compared += 1
    return compared


def _conquests(game: sw.Game) -> list[sw.Action]:
    """Every legal action that takes a region or may end in one: Conquer, ConquerWithDie,
    the abilities (some conquer or convert), and the die's outcome when it is rolled."""
    kinds = (sw.Conquer, sw.ConquerWithDie, sw.UseAbility)
    return [a for a in game.legal_actions() if isinstance(a, kinds) or game.to_move == -1]


@RULE_SETS
def test_conquests_carried_out_quickly_are_those_of_the_general_code(
    how: dict[str, Any],
) -> None:
    """Rules 1.7 and 1.8: the conqueror places its tokens, the defender loses one token (or
    what its losses modifiers say) to its box, or to the zone an expansion names, and takes
    the rest back into hand; Lost Tribes are discarded (ruling 10). Every conquest of
    seeded games carried out with the quick answers (losses without the pairing, lost
    tokens boxed without ``_lose``, the conqueror's triggers tested before ``_fire``) and
    with the general code gives the same state, events and refusals, and leaves the
    position it was played on unchanged (the defender's banner copied where it changes)."""
    assert _compare(how, _general, _conquests) > 100


def _deploys_and_turn_ends(game: sw.Game) -> list[sw.Action]:
    """Every legal Deploy and, legal or not, EndTurn, Decline, and a Deploy of one token
    more than the hand into the first region of the acting race (refused)."""
    out: list[sw.Action] = [a for a in game.legal_actions() if isinstance(a, sw.Deploy)]
    out += [sw.EndTurn(), sw.Decline()]
    s = game._state
    if s.acting is not None:
        own = game._engine.regions_of(s, s.acting)
        if own:
            out.append(sw.Deploy(own[0], s.races[s.acting].hand + 1))
    return out


@RULE_SETS
def test_deploys_and_turn_ends_carried_out_quickly_are_those_of_the_general_code(
    how: dict[str, Any],
) -> None:
    """Rule 1.10: as the conquests end every token but one per region goes back to hand
    and the race's movable pieces to their supply, then the race's redeploy triggers run,
    and the tokens in hand are placed (ruling 13: less those held back). Every Deploy,
    EndTurn and Decline on every position of seeded games, carried out with the quick
    tests (no pairing looked up for a race with no piece to lift and no trigger, no second
    count of the tokens a Deploy may place) and with the general code, gives the same
    state, events and refusals, and leaves the position unchanged."""
    # (two games: every Deploy of every position is compared, and apply3 compares them too)
    assert _compare(how, _general, _deploys_and_turn_ends, games=2) > 200


@RULE_SETS
def test_losses_answered_quickly_are_the_breakdowns(how: dict[str, Any]) -> None:
    """Rule 1.8: a defender loses one token when a region of its is conquered, unless a
    rule file of its says otherwise (``losses`` modifiers), never more than the region
    holds. ``losses_value`` equals ``losses(...).value`` for every race in play and every
    region on every position of seeded games; a race with such modifiers is met in the
    official rules (Elves)."""
    rules, players = rules_and_players(how)
    compared = modified = 0
    for game in random_positions(rules, 4, players):
        engine, state = game._engine, game._state
        for race in state.races:
            for region in range(engine.n):
                assert engine.losses_value(state, race, region) == (
                    engine.losses(state, race, region).value
                ), (race, region)
                compared += 1
            if engine._modifiers(state, race, "losses"):
                modified += 1
    assert compared > 1000
    if not how:
        assert modified > 0


def _ghoul_positions(rules: sw.Rules, games: int) -> list[sw.Game]:
    """Clones of every position of seeded random 2-player games in which player 0 picks
    Ghouls (they act in decline) first."""
    out = []
    for seed in range(games):
        game = sw.Game.new(players=2, seed=seed, rules=rules, combos=[("ghouls", "flying")])
        game.apply(sw.PickCombo(0))
        pick = random.Random(seed)
        while not game.is_over:
            out.append(game.clone())
            options = list(game.legal_actions())
            game.apply(options[pick.randrange(len(options))])
    return out


def _general_order(engine: Engine, s: State) -> list[str]:
    """``_acting_order`` as a comprehension (its definition before the loop)."""
    player = s.players[s.active]
    declined = player.declined
    order = [r for r in declined if engine.has_flag(s, r, "acts_in_decline")] if declined else []
    if player.active is not None:
        order.append(player.active)
    return order


@RULE_SETS
def test_no_race_acts_after_the_active_race(how: dict[str, Any]) -> None:
    """Rule 1.6 and the races that act in decline (A11): a player's declined races that
    act in decline go first, its active race last. On every position of seeded games the
    acting order is the general one, and when the acting race is the player's active race
    no race follows it (what EndTurn then takes without asking ``_next_acting``); races
    acting in decline are met in the official rules (Ghouls)."""
    rules, players = rules_and_players(how)
    compared = following = 0
    positions = random_positions(rules, 6, players)
    if not how:  # and games whose first race is Ghouls, played at random
        positions += _ghoul_positions(rules, 12)
    for game in positions:
        engine, state = game._engine, game._state
        order = engine._acting_order(state)
        assert order == _general_order(engine, state)
        if state.acting is None:
            continue
        compared += 1
        if state.acting == state.players[state.active].active:
            assert engine._next_acting(state) is None, _text(state)
        elif engine._next_acting(state) is not None:
            following += 1
    assert compared > 100
    if not how:
        assert following > 0
