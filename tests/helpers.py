"""Helpers for driving games in tests."""

from __future__ import annotations

import json
import random
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import settings

import smallworld_rules as sw
from benchmarks.measure import play_random
from smallworld_rules.events import ComboPicked, Scored
from smallworld_rules.state import state_to_dict

#: every folder of test rule files (tests/rules, tests/rules_v3, tests/rules_market …)
TEST_RULE_DIRS = sorted(p for p in Path(__file__).parent.glob("rules*") if p.is_dir())


def rule_set_table(
    *, necromancer: bool = False, each_box: bool = False
) -> dict[str, dict[str, Any]]:
    """The rule sets a fast path is compared with the general path on, by name, as the
    arguments of ``load_rules``: the official rules, every folder of test rule files and
    every expansion together; Necromancer Island alone, and each expansion alone, if asked."""
    table: dict[str, dict[str, Any]] = {"official": {}}
    table.update({d.name: {"paths": [d]} for d in TEST_RULE_DIRS})
    if necromancer:
        table["necromancer_island"] = {"expansions": ["necromancer_island"]}
    if each_box:
        table.update({e: {"expansions": [e]} for e in sw.available_expansions()})
    table["expansions"] = {"expansions": list(sw.available_expansions())}
    return table


def rule_sets(*, necromancer: bool = False, each_box: bool = False) -> pytest.MarkDecorator:
    """A test parametrised by ``how`` over :func:`rule_set_table`."""
    table = rule_set_table(necromancer=necromancer, each_box=each_box)
    return pytest.mark.parametrize("how", list(table.values()), ids=list(table))


def players_for(rules: sw.Rules) -> tuple[int, ...]:
    """The player counts to play a rule set at: 3 to 5 with a role (it takes a seat)."""
    return (3, 4, 5) if rules.roles else (2, 3, 4, 5)


def finished_games(
    rules: sw.Rules, games: int, players: tuple[int, ...] | None = None
) -> list[sw.Game]:
    """Seeded games played to the end by uniformly random moves (the benchmark's
    ``play_random``), seed ``i`` at ``players[i % len(players)]`` (default: players_for)."""
    counts = players_for(rules) if players is None else players
    return [play_random(rules, counts[seed % len(counts)], seed)[0] for seed in range(games)]


def rules_and_players(how: dict[str, Any]) -> tuple[sw.Rules, tuple[int, ...]]:
    """The rules of a :func:`rule_sets` case, and the player counts to play them at."""
    rules = sw.load_rules(**how)
    return rules, players_for(rules)


#: A small, complete rule file the language tests parse.
GIANTS = """\
race giants "Giants" {
    tokens 6
    box 11
    text "Conquer a region adjacent to a Mountain region your Giants occupy"
         "for 1 token less."
    conquest_cost sub 1 when target adjacent_to own region with terrain mountain
}
"""


def new_game(
    rules: sw.Rules,
    combos: Iterable[tuple[str, str]],
    players: int = 2,
    seed: int = 1,
    **kwargs: Any,
) -> sw.Game:
    """A game with a fixed market (the rest drawn from the seeded shuffle)."""
    return sw.Game.new(players=players, seed=seed, rules=rules, combos=list(combos), **kwargs)


def playing_positions(rules: sw.Rules, games: int) -> Iterator[sw.Game]:
    """Every position of seeded uniformly random games, as the game stands there (the same
    game object, moved on once the caller is done with it), at ``players_for(rules)``."""
    players = players_for(rules)
    for seed in range(games):
        game = sw.Game.new(players=players[seed % len(players)], seed=seed, rules=rules)
        rng = random.Random(seed)
        while not game.is_over:
            yield game
            acts = list(game.legal_actions())
            game.apply(acts[rng.randrange(len(acts))])


def random_positions(
    rules: sw.Rules, games: int, players: tuple[int, ...], options: dict[str, int] | None = None
) -> list[sw.Game]:
    """Clones of every position of seeded uniformly random games (game ``k`` has
    ``players[k % len(players)]`` players, and the ``options`` given)."""
    out = []
    for seed in range(games):
        game = sw.Game.new(
            players=players[seed % len(players)], seed=seed, rules=rules, options=options
        )
        rng = random.Random(seed)
        while not game.is_over:
            out.append(game.clone())
            acts = list(game.legal_actions())
            game.apply(acts[rng.randrange(len(acts))])
    return out


def random_moves_until_round(game: sw.Game, turn: int, seed: int) -> None:
    """Play seeded uniformly random actions until the turn track reaches ``turn``."""
    rng = random.Random(seed)
    while game.round < turn and not game.is_over:
        options = list(game.legal_actions())
        game.apply(options[rng.randrange(len(options))])


def deploy_all_and_end(game: sw.Game) -> None:
    """Put everything in hand (and any surplus) on one own region, then end the turn."""
    while sw.EndTurn() not in game.legal_actions():
        deploys = [a for a in game.legal_actions() if isinstance(a, sw.Deploy)]
        game.apply(max(deploys, key=lambda a: a.count))
    game.apply(sw.EndTurn())


def first_round_on_the_2p_map(game: sw.Game) -> None:
    """Round 1 of a 2-player game: player 0 picks the top combo and takes Farmland 1 and
    Forest 2, player 1 picks the next and takes Mountain 19; player 0's second turn begins."""
    game.apply(sw.PickCombo(0))
    game.apply(sw.Conquer(1))
    game.apply(sw.Conquer(2))
    deploy_all_and_end(game)
    game.apply(sw.PickCombo(0))
    game.apply(sw.Conquer(19))
    deploy_all_and_end(game)


def declined_then_next_picked(rules: sw.Rules, combos: list[tuple[str, str]]) -> sw.Game:
    """Player 0 takes Farmland 1, Forest 2 and Swamp 3 with the first of ``combos`` (the
    second goes to player 1, who takes Mountain 19) and declines it; in player 0's next
    turn the third combo is picked."""
    game = sw.Game.new(players=2, seed=1, rules=rules, combos=combos)
    game.apply(sw.PickCombo(0))
    for region in (1, 2, 3):
        game.apply(sw.Conquer(region))
    deploy_all_and_end(game)
    game.apply(sw.PickCombo(0))
    game.apply(sw.Conquer(19))
    deploy_all_and_end(game)
    game.apply(sw.Decline())
    deploy_all_and_end(game)  # player 1
    game.apply(sw.PickCombo(0))
    return game


def skeletons_holding(rules: sw.Rules, power: str, regions: list[int]) -> sw.Game:
    """Player 0's Skeletons with the power hold one token on each of ``regions`` (set up with
    ``put``), the rest of the tokens on the first of them, and end the turn."""
    game = sw.Game.new(players=2, seed=1, rules=rules, combos=[("skeletons", power)])
    game.apply(sw.PickCombo(0))
    for region in regions:
        game.put(region, 0, 1)
    deploy_all_and_end(game)
    return game


def both_enter(game: sw.Game, first: int, second: int) -> None:
    """Each player in turn picks the top combo, conquers one region and ends the turn."""
    for region in (first, second):
        game.apply(sw.PickCombo(0))
        game.apply(sw.Conquer(region))
        deploy_all_and_end(game)


def place_withdrawals(game: sw.Game) -> None:
    """Defenders place all their survivors on their first region."""
    while game.phase is sw.Phase.WITHDRAWAL:
        deploys = [a for a in game.legal_actions() if isinstance(a, sw.Deploy)]
        game.apply(max(deploys, key=lambda a: a.count))


def saved_state(game: sw.Game) -> dict[str, Any]:
    """The ``state`` part of the saved game (box, stacks …)."""
    state: dict[str, Any] = json.loads(game.to_json())["state"]
    return state


def subset(rules: sw.Rules, races: Iterable[str], powers: Iterable[str]) -> sw.Rules:
    """The same rules with only some races and powers (a small, predictable market)."""
    return sw.Rules(
        {r: rules.races[r] for r in races},
        {p: rules.powers[p] for p in powers},
        rules.expansions,
        rules.pieces,
        rules.options,
    )


def player_range(rules: sw.Rules) -> tuple[int, int]:
    """The player counts a rule set is played with (2–5, narrowed by its expansions; a role's
    seat may add one above the official boards)."""
    low, high = 2, 5
    for expansion in rules.expansions.values():
        if expansion.players is not None:
            low = max(low, expansion.players[0])
            high = min(expansion.players[1], 5 + expansion.map_minus)
    return low, high


def budget(budgets: dict[str, dict[str, int]], name: str) -> int:
    """A size from a module's per-profile table (tests/conftest.py's Hypothesis profiles; an
    unknown profile gets the ``ci`` sizes)."""
    return budgets.get(settings.get_current_profile_name(), budgets["ci"])[name]


def check_invariants(game: sw.Game, rules: sw.Rules, step: int) -> None:
    """After any action: each held region has at least 1 token, every race's tokens add up to
    its box (box + hand + held + map; plus the tokens of its own a power brought it,
    ``own_tokens``), and no player's coins are negative. Read from the state's own dict, the
    one a save writes (without the log: a save of every step costs a game's length squared)."""
    state: dict[str, Any] = state_to_dict(game._state)
    on_map: dict[str, int] = {}
    for r, (race, tokens) in enumerate(
        zip(state["region_race"], state["region_tokens"], strict=True)
    ):
        if race is not None:
            assert tokens >= 1, f"step {step}: region {r} is held by {race} without a token"
            on_map[race] = on_map.get(race, 0) + tokens
    races = state["races"]
    extra = (state.get("lang") or {}).get("extra", {})
    for race, rule in rules.races.items():
        in_play = races.get(race, {})
        total = (
            state["box"][race]
            + in_play.get("hand", 0)
            + in_play.get("held", 0)
            + on_map.get(race, 0)
            + sum(pile.count(race) for pile in state["zones"].values())
        )
        supply = rule.box + extra.get(race, 0)
        assert total == supply, f"step {step}: {race} has {total} tokens, the box {supply}"
        assert state["box"][race] >= 0
    for p in range(game.players):
        assert game.coins(p) >= 0, f"step {step}: player {p} has negative coins"


def every_listed_action_applies(game: sw.Game, step: int) -> None:
    """Each action ``legal_actions`` lists applies to a clone without being refused."""
    for action in game.legal_actions():
        twin = game.clone()
        try:
            twin.apply(action)
        except sw.IllegalAction as exc:  # pragma: no cover - a failure message
            raise AssertionError(f"step {step}: listed action {action!r} refused: {exc}") from exc


def play_pair_at_random(rules: sw.Rules, race: str, power: str, seed: int) -> sw.Game:
    """Player 0 picks ``(race, power)`` from the top of the market, then a whole seeded random
    2-player game is played; after every action the invariants hold (:func:`check_invariants`)
    and every 5th step each listed action applies to a clone. Returns the finished game."""
    game = sw.Game.new(players=2, seed=seed, rules=rules, combos=[(race, power)])
    assert game.market[0][:2] == (race, power)
    rng = random.Random(seed)
    game.apply(sw.PickCombo(0))
    assert (game.active_race(0), game.active_power(0)) == (race, power)
    step = 1
    check_invariants(game, rules, step)
    while not game.is_over:
        assert step < 5000, "the random game does not end"  # a game takes a few hundred
        actions = list(game.legal_actions())
        assert actions, f"step {step}: no legal action in phase {game.phase}"
        if step % 5 == 0:
            every_listed_action_applies(game, step)
        game.apply(rng.choice(actions))
        step += 1
        check_invariants(game, rules, step)
    picks = [e for e in game.log if isinstance(e, ComboPicked)]
    assert (picks[0].player, picks[0].race, picks[0].power) == (0, race, power)
    assert game.winners and game.to_move is None
    return game


def play_round_back(game: sw.Game, enter: int = 19) -> None:
    """Player 0 ends the turn (everything in hand on one region); the other player of a
    2-player game picks the top combo and enters at ``enter`` if he has no race yet, ends
    his turn, and the turn is player 0's again."""
    deploy_all_and_end(game)
    if game.to_move == 1:
        if sw.PickCombo(0) in game.legal_actions():
            game.apply(sw.PickCombo(0))
            game.apply(sw.Conquer(enter))
        deploy_all_and_end(game)
    assert game.to_move == 0


def last_score(game: sw.Game, player: int) -> Scored:
    """The last turn score of ``player`` in the game's log."""
    return [e for e in game.log if isinstance(e, Scored) and e.player == player][-1]
