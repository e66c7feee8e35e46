"""Random games as a Hypothesis state machine: the game never breaks (the invariants of the game).

A :class:`RuleBasedStateMachine` plays games by drawing from ``legal_actions()`` (and from
``chance_outcomes()`` at chance nodes with ``chance="explicit"``) over 2–5 players, every map
(also a map made for another player count), random seeds, sometimes a random ``combos=`` market
and random boolean game options, with the official rules, the official rules plus the test-only
rule files of tests/rules/, and the Necromancer Island expansion whenever
``load_rules(expansions=["necromancer_island"])`` works. Besides playing single actions it
plays whole turns, undoes a few steps and plays on differently, restores the game from its own
JSON and plays on, clones it, and sets positions up with ``put``/``clear``/``set_coins``.

What each property guards (the invariants, and the rules they come from):

* after every step, the engine's own ``check_invariants`` and an independent count through the
  public API (``game.region``, ``game.hand``, the saved game's box and hands, ``game.zone``):
  - every held region has ≥ 1 token, and no region holds tokens of two owners (rule 1.10);
  - tokens are conserved per race: box + hands + held back + map (+ zones) == supply (rule 1.1);
  - pieces are conserved per kind: supply + on the map == the declared supply;
  - coins are never negative (rule 1.5);
  - at most one declined race per player that is not exempt from the limit, the exemption read
    from the compiled flags of the race's and its power's rule files (rule 1.12, A12);
  - the market shows ≤ 6 distinct combos with ≥ 0 coins on each (rule 1.5);
  - somebody can always act: ``legal_actions()`` is non-empty, duplicate-free and matches
    ``chance_outcomes()`` at a chance node, until the game is over;
* ``to_json`` → ``from_json`` → ``to_json`` is identical, and the restored game offers the same
  legal actions (saving);
* ``clone()`` is independent: playing on the clone leaves the original's JSON unchanged;
* ``undo()`` after any action or set-up call restores the previous ``to_json`` exactly, and
  re-applying the action gives the same position again;
* every action in ``legal_actions()`` applies without error (a few sampled per step, on
  clones), including ``Deploy`` counts between 1 and "all" that are ``in`` but not listed;
* a set-up call that is refused raises ``RulesError`` and changes nothing;
* the game ends after the turn track: ``is_over`` with a non-empty list of winners, and one
  ``TurnEnded`` per player per space of the track (rule 1.3, rule 1.14).

A separate, cheaper property plays many whole games with the per-action checks only: it is the
one the ``thorough`` profile scales to ten thousand games.
"""

from __future__ import annotations

import functools
import json
import random
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pytest
from helpers import budget, player_range
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    rule,
)

import smallworld_rules as sw
from smallworld_rules import events as ev
from smallworld_rules.maps import MAP_NAMES

TEST_RULES = Path(__file__).parent / "rules"
EXPANSION = "necromancer_island"
EXEMPT_FLAG = "exempt_from_decline_limit"

# Budgets per Hypothesis profile (tests/conftest.py): examples of the state machine, steps per
# example, and whole games of the cheaper property.
BUDGETS: dict[str, dict[str, int]] = {
    "dev": {"machine": 3, "steps": 15, "games": 5},
    "ci": {"machine": 50, "steps": 40, "games": 50},
    "thorough": {"machine": 500, "steps": 50, "games": 10_000},
}




# --------------------------------------------------------------------------- rules under test


def expansion_rules(paths: Iterable[Path] = ()) -> sw.Rules | None:
    """The rules with Necromancer Island, or ``None`` while the expansion does not exist."""
    try:
        return sw.load_rules(expansions=[EXPANSION], paths=list(paths))
    except sw.RuleFileError:
        raise  # the expansion exists but is broken: that is a failure, not a skip
    except sw.RulesError as exc:
        if "unknown expansion" in str(exc):
            return None
        raise


@functools.cache
def rule_sets() -> dict[str, sw.Rules]:
    """Every rule set the games are played with (loaded once per session)."""
    sets = {
        "official": sw.load_rules(),
        "with_test_rules": sw.load_rules(paths=[TEST_RULES]),
    }
    expansion = expansion_rules()
    if expansion is not None:
        sets["expansion"] = expansion
        with_tests = expansion_rules([TEST_RULES])
        assert with_tests is not None
        sets["expansion_with_test_rules"] = with_tests
    return sets


def test_expansion_is_played_when_it_exists() -> None:
    """The expansion joins the rule sets as soon as it can be loaded."""
    if expansion_rules() is None:
        pytest.skip(f"the {EXPANSION} expansion does not exist yet")
    assert "expansion" in rule_sets()


# --------------------------------------------------------------------------- position checks


def engine_check(game: sw.Game) -> None:
    """The engine's own invariant check (internal, but the one authority on the state)."""
    engine = getattr(game, "_engine", None)
    state = getattr(game, "_state", None)
    if engine is not None and state is not None and hasattr(engine, "check_invariants"):
        engine.check_invariants(state)


def flags_of(rules: sw.Rules, kind: str, rule_id: str | None) -> set[str]:
    """Every flag a rule file may raise: unconditional ones and option-conditional ones."""
    if rule_id is None:
        return set()
    table = {"race": rules.races, "power": rules.powers}[kind]
    d = table.get(rule_id)
    if d is None:
        return set()
    return set(d.flags) | {flag for flag, _ in d.conditional_flags}


def zone_tokens(game: sw.Game) -> dict[str, int]:
    """Tokens in the named zones by kind (each zone asked once: zones are not per player)."""
    totals: dict[str, int] = {}
    for name in sorted(game.rules.zones):
        for kind, count in game.zone(name).items():
            assert count >= 0, f"zone {name!r} holds {count} {kind}"
            totals[kind] = totals.get(kind, 0) + count
    return totals


def check_roles(game: sw.Game, state: dict[str, Any], zones: dict[str, int]) -> None:
    """Rule 4.2.5: a role's tokens on the map + in its zones + in reserve are exactly its supply
    (14 Ghosts, minus the difficulty setting); the role never declines nor picks a combo."""
    for role_id in game.rules.roles:
        role = game.rules.roles[role_id]
        race = role.race.id
        seat = game.players - 1
        supply = 14 - int(game.options.get("ghosts_removed", 0))
        on_map = sum(
            game.region(r).tokens
            for r in range(len(game.map.regions))
            if game.region(r).race == race
        )
        total = on_map + zones.get(race, 0) + state["box"][race]
        assert total == supply, f"{race}: {total} tokens, exactly {supply} exist"
        assert game.active_race(seat) == race and not game.declined_races(seat)


def check_position(game: sw.Game, doc: dict[str, Any] | None = None) -> None:
    """Every invariant of one position, via check_invariants and via the public API."""
    engine_check(game)
    rules = game.rules
    if doc is None:
        doc = json.loads(game.to_json())
    state = doc["state"]
    players = range(game.players)

    # Regions: ≥ 1 token where held, one owner per region (rule 1.10).
    on_map: dict[str, int] = {}
    placed: dict[str, int] = {}
    for r in range(len(game.map.regions)):
        view = game.region(r)
        assert view.tokens >= 0, f"region {r}: {view.tokens} tokens"
        assert (view.owner is None) == (view.race is None), f"region {r}: {view}"
        assert not (view.lost_tribe and view.race is not None), f"region {r}: two occupants"
        if view.owner is not None or view.lost_tribe:
            assert view.tokens >= 1, f"region {r} is held without a token"
        if view.tokens == 0:
            assert view.owner is None and not view.lost_tribe and not view.declined
        if view.race is not None:
            assert view.owner in players
            owned = [game.active_race(view.owner), *game.declined_races(view.owner)]
            assert view.race in owned, f"region {r}: {view.race} is not player {view.owner}'s"
            counts_as_declined = any(
                role.race.id == view.race and role.counts_as_declined
                for role in rules.roles.values()
            )
            assert view.declined == (
                view.race in game.declined_races(view.owner) or counts_as_declined
            )
            on_map[view.race] = on_map.get(view.race, 0) + view.tokens
        for name, count in view.pieces.items():
            assert count >= 1 and name in rules.pieces, f"region {r}: pieces {view.pieces}"
            placed[name] = placed.get(name, 0) + count

    # Tokens per race: box + hand + held + map (+ zones) == supply (rule 1.1).
    zones = zone_tokens(game)
    check_roles(game, state, zones)
    races = state["races"]
    for race, rd in rules.races.items():
        in_play = races.get(race, {})
        hand, held = in_play.get("hand", 0), in_play.get("held", 0)
        box = state["box"][race]
        assert min(box, hand, held) >= 0, f"{race}: box {box} hand {hand} held {held}"
        total = box + hand + held + on_map.get(race, 0) + zones.get(race, 0)
        assert total == rd.box, f"{race}: {total} tokens, the supply is {rd.box}"

    # Pieces per kind: supply + map == declared supply.
    for name, piece in rules.pieces.items():
        supply = state["piece_supply"][name]
        assert supply >= 0
        assert supply + placed.get(name, 0) == piece.supply, f"piece {name} not conserved"

    # Players: coins ≥ 0, hands, at most one non-exempt declined race (rule 1.5, rule 1.12, A12).
    for p in players:
        assert game.coins(p) >= 0
        active = game.active_race(p)
        declined = game.declined_races(p)
        assert len(set(declined)) == len(declined) and active not in declined
        if active is not None:
            assert game.hand(p) == races[active]["hand"] >= 0
            assert game.active_power(p) == races[active]["power"]
        else:
            assert game.hand(p) == 0 and game.active_power(p) is None
        counted = [
            race
            for race in declined
            if EXEMPT_FLAG
            not in flags_of(rules, "race", race) | flags_of(rules, "power", races[race]["power"])
        ]
        assert len(counted) <= 1, f"player {p} has {counted} in decline"

    # Market (rule 1.5).
    market = game.market
    assert len(market) <= 6
    assert len({r for r, _, _ in market}) == len(market)
    assert len({p for _, p, _ in market}) == len(market)
    assert all(c >= 0 for _, _, c in market)
    assert not {r for r, _, _ in market} & set(races)

    # Somebody can always act until the game is over.
    assert 1 <= game.round <= game.map.turns
    legal = list(game.legal_actions())
    if game.is_over:
        assert game.to_move is None and not legal
        assert game.winners and set(game.winners) <= set(players)
        return
    assert legal, f"nobody can act in {game!r}"
    assert len(set(legal)) == len(legal), f"duplicate legal actions: {legal}"
    if game.to_move == sw.CHANCE:
        outcomes = game.chance_outcomes()
        assert {a for a, _ in outcomes} == set(legal)
        assert abs(sum(p for _, p in outcomes) - 1) < 1e-9
        assert all(p > 0 for _, p in outcomes)
    else:
        assert game.to_move in players


def check_round_trip(game: sw.Game, text: str) -> None:
    """``to_json`` → ``from_json`` → ``to_json`` is identical; the copy plays the same."""
    restored = sw.Game.from_json(text, rules=game.rules)
    assert restored.to_json() == text
    assert list(restored.legal_actions()) == list(game.legal_actions())
    assert restored.to_move == game.to_move


def check_finished(game: sw.Game) -> None:
    """Rule 1.3, rule 1.14: the game ends after the turn track, with winners; or at once when a role
    meets its win condition (rule 4.3 d, A18)."""
    assert game.is_over and game.to_move is None
    assert game.winners and all(0 <= p < game.players for p in game.winners)
    coins = [game.coins(p) for p in range(game.players)]
    ended = sum(isinstance(e, ev.TurnEnded) for e in game.log)
    if game.rules.roles and game.winners == [game.players - 1]:
        ghost = next(iter(game.rules.roles.values())).race.id
        box = json.loads(game.to_json())["state"]["box"][ghost]
        if box == 0 and not game.zone("well").get(ghost):
            assert ended <= game.players * game.map.turns
            return  # A18: the role won at once, every one of its tokens in play
    assert all(coins[p] == max(coins) for p in game.winners)
    assert ended == game.players * game.map.turns


def random_action(game: sw.Game, rng: random.Random) -> sw.Action:
    """A legal action (a chance outcome, weighted, at a chance node)."""
    if game.to_move == sw.CHANCE:
        outcomes = game.chance_outcomes()
        return rng.choices([a for a, _ in outcomes], weights=[p for _, p in outcomes])[0]
    return rng.choice(list(game.legal_actions()))


def play_to_end(game: sw.Game, rng: random.Random, limit: int = 20_000) -> int:
    """Play random legal actions to the end, checking every position; return the count."""
    for count in range(limit):
        if game.is_over:
            return count
        game.apply(random_action(game, rng))
        check_position(game)
    raise AssertionError(f"the game did not end within {limit} actions")


# --------------------------------------------------------------------------- game set-ups


@st.composite
def game_configs(draw: st.DrawFn) -> dict[str, Any]:
    """Arguments of ``Game.new``: rule set, players, map, seed, market, chance, options."""
    sets = rule_sets()
    name = draw(st.sampled_from(sorted(sets)))
    rules = sets[name]
    players = draw(st.integers(*player_range(rules)))
    map_name = draw(st.one_of(st.none(), st.sampled_from(MAP_NAMES)))
    config: dict[str, Any] = {
        "rule_set": name,
        "players": players,
        "seed": draw(st.integers(-(2**64), 2**64)),
        "chance": draw(st.sampled_from(["seeded", "explicit"])),
    }
    if map_name is not None:
        config["map"] = map_name
    if draw(st.booleans()):
        races = draw(st.permutations(sorted(rules.races)))
        powers = draw(st.permutations(sorted(rules.powers)))
        size = draw(st.integers(0, min(len(races), len(powers))))
        config["combos"] = list(zip(races[:size], powers[:size], strict=True))
    flips = {
        option: draw(st.booleans())
        for option, declared in sorted(rules.options.items())
        if isinstance(declared.default, bool)
    }
    if flips and draw(st.booleans()):
        config["options"] = flips
    return config


def new_game(config: dict[str, Any]) -> sw.Game:
    args = {k: v for k, v in config.items() if k != "rule_set"}
    return sw.Game.new(rules=rule_sets()[config["rule_set"]], **args)


# --------------------------------------------------------------------------- the state machine


class GamePlay(RuleBasedStateMachine):
    """Plays one game per run and checks every invariant after every step."""

    def __init__(self) -> None:
        super().__init__()
        self.game: sw.Game | None = None
        self.snapshots: list[str] = []  # to_json before each apply/set-up call, for undo
        self.rng = random.Random(0)

    @property
    def g(self) -> sw.Game:
        assert self.game is not None
        return self.game

    @initialize(config=game_configs(), seed=st.integers(0, 2**32))
    def start(self, config: dict[str, Any], seed: int) -> None:
        self.game = new_game(config)
        self.rng = random.Random(seed)
        event(f"rules: {config['rule_set']}")
        event(f"players: {config['players']}, map: {self.game.map_name}")
        assert self.game.players == config["players"]
        # Rule 1.2: the start player begins, unless a role first chooses its drafted powers (rule
        # 4.1).
        first = self.game.players - 1 if self.game.rules.roles else 0
        assert self.game.round == 1 and self.game.active_player == first
        assert self.game.to_move == first

    # ---------------------------------------------------------------- applying actions

    def draw_action(self, data: st.DataObject) -> sw.Action:
        game = self.g
        if game.to_move == sw.CHANCE:
            outcomes = game.chance_outcomes()
            return data.draw(st.sampled_from([a for a, _ in outcomes]), label="chance")
        return data.draw(st.sampled_from(list(game.legal_actions())), label="action")

    def apply_checked(self, action: sw.Action) -> None:
        """Apply ``action``, then check that undo and re-applying are exact."""
        game = self.g
        before = game.to_json()
        assert action in game.legal_actions()
        game.apply(action)
        after = game.to_json()
        game.undo()
        assert game.to_json() == before, f"undo of {action!r} did not restore the position"
        game.apply(action)
        assert game.to_json() == after, f"re-applying {action!r} gave another position"
        self.snapshots.append(before)

    def sample_legal_on_clones(self, data: st.DataObject) -> None:
        """A few legal actions (and a mid-sized Deploy) each apply cleanly on a clone."""
        game = self.g
        if game.is_over or game.to_move == sw.CHANCE:
            return
        legal = list(game.legal_actions())
        picks = self.rng.sample(legal, min(3, len(legal)))
        for r, count in {(a.region, a.count) for a in legal if isinstance(a, sw.Deploy)}:
            if count > 2:
                picks.append(sw.Deploy(r, self.rng.randint(2, count - 1)))
                break
        before = game.to_json()
        for action in picks:
            assert action in game.legal_actions(), action
            twin = game.clone()
            twin.apply(action)
            engine_check(twin)
        assert game.to_json() == before, "playing on a clone changed the original"

    @rule(data=st.data())
    def play_one(self, data: st.DataObject) -> None:
        game = self.g
        if game.is_over:  # Rule 1.14: nothing is legal any more, and nothing changes
            before = game.to_json()
            assert not list(game.legal_actions())
            with pytest.raises(sw.IllegalAction):
                game.apply(sw.EndTurn())
            assert game.to_json() == before
            return
        self.sample_legal_on_clones(data)
        self.apply_checked(self.draw_action(data))

    @rule(seed=st.integers(0, 2**32))
    def play_a_turn(self, seed: int) -> None:
        """Random legal actions until the turn passes to the next player (or the game ends)."""
        game = self.g
        rng = random.Random(seed)
        start = (game.round, game.active_player)
        while not game.is_over and (game.round, game.active_player) == start:
            self.snapshots.append(game.to_json())
            game.apply(random_action(game, rng))
            check_position(game)

    @rule(steps=st.integers(1, 4))
    def undo_some(self, steps: int) -> None:
        """undo() walks back through earlier positions exactly (the game then goes on)."""
        game = self.g
        for _ in range(min(steps, len(self.snapshots))):
            game.undo()
            assert game.to_json() == self.snapshots.pop()
        if not self.snapshots:  # back at the start (or at a restored game): nothing to undo
            before = game.to_json()
            with pytest.raises(sw.RulesError):
                game.undo()
            assert game.to_json() == before

    @rule()
    def restore_from_json(self) -> None:
        """Play goes on from a restored copy (which has no undo history)."""
        text = self.g.to_json()
        self.game = sw.Game.from_json(text, rules=self.g.rules)
        assert self.game.to_json() == text
        self.snapshots = []
        with pytest.raises(sw.RulesError):
            self.game.undo()

    @rule(data=st.data())
    def clone_is_independent(self, data: st.DataObject) -> None:
        game = self.g
        before = game.to_json()
        twin = game.clone()
        assert twin.to_json() == before
        if twin.is_over:
            with pytest.raises(sw.IllegalAction):
                twin.apply(sw.EndTurn())
        else:
            twin.apply(self.draw_action(data))
            twin.undo()
            assert twin.to_json() == before
        if self.snapshots:  # the clone has its own copy of the undo history
            twin.undo()
            assert twin.to_json() == self.snapshots[-1]
        assert game.to_json() == before, "changing the clone changed the original"
        # and the other way round
        copy = game.clone()
        copy_text = copy.to_json()
        if not game.is_over:
            self.apply_checked(self.draw_action(data))
            assert copy.to_json() == copy_text, "changing the original changed the clone"

    @rule(data=st.data())
    def set_up_position(self, data: st.DataObject) -> None:
        """put / clear / set_coins either work (and keep every invariant) or change nothing."""
        game = self.g
        rules = game.rules
        region = data.draw(st.integers(0, len(game.map.regions) - 1), label="region")
        what = data.draw(st.sampled_from(["put", "put", "clear", "coins"]), label="call")
        before = game.to_json()
        try:
            if what == "put":
                player = data.draw(st.one_of(st.none(), st.integers(0, game.players - 1)))
                pieces = data.draw(
                    st.dictionaries(
                        st.sampled_from(sorted(rules.pieces) or ["nothing"]),
                        st.integers(1, 2),
                        max_size=2,
                    ),
                    label="pieces",
                )
                race = data.draw(st.one_of(st.none(), st.sampled_from(sorted(rules.races))))
                game.put(
                    region,
                    player,
                    data.draw(st.integers(1, 4), label="tokens"),
                    declined=data.draw(st.booleans(), label="declined"),
                    pieces=pieces or None,
                    race=race,
                )
            elif what == "clear":
                game.clear(region)
            else:
                player = data.draw(st.integers(0, game.players - 1), label="player")
                game.set_coins(player, data.draw(st.integers(0, 60), label="coins"))
        except sw.RulesError as exc:
            assert str(exc), "a refusal says why"
            assert game.to_json() == before, f"a refused {what} changed the game"
            event(f"set-up {what}: refused")
            return
        event(f"set-up {what}: done")
        self.snapshots.append(before)

    # ---------------------------------------------------------------- invariants

    @invariant()
    def position_is_sound(self) -> None:
        if self.game is None:
            return
        text = self.game.to_json()
        check_position(self.game, json.loads(text))
        check_round_trip(self.game, text)

    def teardown(self) -> None:
        """Every run ends with the game played to the end of the turn track."""
        if self.game is None:
            return
        play_to_end(self.game, self.rng)
        check_finished(self.game)


GamePlay.TestCase.settings = settings(
    max_examples=budget(BUDGETS, "machine"),
    stateful_step_count=budget(BUDGETS, "steps"),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
TestGamePlay = GamePlay.TestCase


# --------------------------------------------------------------------------- whole games


@settings(
    max_examples=budget(BUDGETS, "games"),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(config=game_configs(), seed=st.integers(0, 2**32))
def test_whole_games_keep_every_invariant(config: dict[str, Any], seed: int) -> None:
    """Whole random games (every rule set, 2–5 players, every map, random markets and
    options, both chance modes) keep every invariant after every action and end after the
    turn track; the final position round-trips through JSON."""
    game = new_game(config)
    check_position(game)
    play_to_end(game, random.Random(seed))
    check_finished(game)
    check_round_trip(game, game.to_json())


# --------------------------------------------------------------------------- finds, kept


def _empty_land(game: sw.Game) -> list[int]:
    water = game.map.water_mask
    return [
        r for r in range(len(game.map.regions))
        if not (water >> r) & 1 and not game.region(r).tokens
    ]


def test_a_decline_after_a_region_was_set_up_again_keeps_every_token() -> None:
    """Found by the ``thorough`` profile (a 4-player game with ``put`` between turns and a
    decline): a decline turn puts the tokens readied at the start of the turn back where they
    were, and a region set up again since then (``put``/``clear``) is no longer where they
    were. They stay in hand and go to the box with the rest of the hand, and no other race's
    region receives them (tokens are conserved per race, the rules' supply)."""
    game = sw.Game.new(players=2, seed=1)
    r = _empty_land(game)[0]
    game.put(r, 0, 3, race="ratmen")  # player 0's turn begins: 2 tokens readied from r
    assert game.region(r).tokens == 1 and game.hand(0) == 2
    game.put(r, 1, 1, race="amazons")  # r set up again, for player 1
    check_position(game)
    game.apply(sw.Decline())
    check_position(game)
    assert game.region(r).race == "amazons" and game.region(r).tokens == 1


def test_a_decline_puts_back_the_readied_tokens_of_regions_left_as_they_were() -> None:
    """A decline turn leaves on the map what was there at the start of the turn: a race that
    keeps its tokens in decline (the ``keeps_tokens_in_decline`` flag) gets its readied tokens
    back on every region an edit did not touch, though the edit came after they were readied."""
    game = sw.Game.new(players=2, seed=1)
    r, other = _empty_land(game)[:2]
    game.put(other, 0, 2, race="ghouls")  # the turn begins: 1 token readied from `other`
    game.put(r, 0, 3)  # placed after the readying: nothing to put back
    game.set_coins(1, 3)  # an edit that touches no region
    game.apply(sw.Decline())
    check_position(game)
    assert (game.region(r).tokens, game.region(other).tokens) == (3, 2)
    assert game.region(r).declined and game.region(other).declined
