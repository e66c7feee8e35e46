"""An EndTurn in a game with a role (Necromancer Island) carried out on the game's own
position, with an undo record instead of a fork (``Game._end_turn_in_place``,
``smallworld_rules.in_place``), must give exactly what the forking path gives: the role's
turn end after every turn (its tokens set aside back in its hand zone, its harvest, the
exchange, its instant win) included, as well as the tokens a race holds back and the
tokens a role keeps in hand. The same positions, events, refusals, undo, history, saves
and records, compared on seeded games played twice (``play_alongside``).
"""

from __future__ import annotations

import copy
import random
from collections import Counter
from collections.abc import Iterator
from typing import Any

import attrs
import pytest
import test_fast_paths_perf_state4 as state4
from helpers import rule_sets
from test_fast_paths_perf_gc6 import refused_as_before, turn_end_in_place
from test_fast_paths_perf_state4 import (
    counting_forks,
    forking,
    history,
    made_by_any,
    made_in_place,
    play_alongside,
    position,
)

import smallworld_rules as sw
from smallworld_rules.engine.core import Engine
from smallworld_rules.events import (
    AbilityUsed,
    Exchanged,
    GameOver,
    PieceMoved,
    TokensToZone,
    TurnEnded,
    TurnStarted,
    build_log,
)
from smallworld_rules.state import State, state_to_dict

NECROMANCER = {"expansions": ["necromancer_island"]}
#: official, every tests/rules* folder, each expansion alone and every expansion together
RULE_SETS = rule_sets(each_box=True)
#: the effects of an ability made in place: pieces placed or moved, a truce
QUIET = {"place", "move", "truce"}


def ability_in_place(game: sw.Game, action: sw.Action) -> bool:
    """Whether ``apply`` may carry ``action`` out in place (nothing else holding the
    position): a UseAbility in the conquests or the redeployment with a race acting and
    nothing in the rule language's memory, in a game where no race in decline uses
    abilities, of an ability that every rule file naming it makes only place or move
    pieces or make a truce, without the rule language, a price or a count of uses."""
    s = game._state
    if type(action) is not sw.UseAbility or s.lang or s.acting is None:
        return False
    if s.phase not in (sw.Phase.CONQUEST, sw.Phase.REDEPLOY) or game._engine.declined_abilities:
        return False
    rules = game.rules
    files = [*rules.races.values(), *rules.powers.values(), *rules.expansions.values()]
    named = [
        a
        for d in files + [role.race for role in rules.roles.values()]
        for a in d.abilities
        if a.name == action.name
    ]
    return bool(named) and all(
        not a.language
        and a.price is None
        and a.limit != "times"
        and all(e.verb in QUIET for e in a.effects)
        for a in named
    )
#: the player counts play_alongside plays a role's rule set at (helpers.players_for)
COUNTS = (3, 4, 5)


def _wins_early(rules: sw.Rules) -> sw.Rules:
    """Necromancer Island with a win that comes true in the middle of a game (at most 11
    Ghosts left in his reserve) and is asked afresh after every turn (no places it reads
    only, so nothing is kept from one answer to the next)."""
    (role,) = rules.roles.values()
    race = role.race.id

    def won(ctx: Any) -> bool:
        return bool(ctx.state.box[race] <= 11)

    changed = attrs.evolve(role, won=won, win_places=None)
    return attrs.evolve(rules, roles={role.id: changed})


@pytest.fixture(scope="module")
def necromancer() -> sw.Rules:
    return sw.load_rules(**NECROMANCER)


def _watching(seen: Counter[str]) -> Any:
    """``play_alongside``'s ``taken_back``: every EndTurn that may be made in place, and
    what the one before it changed (read from the position at the next move): whether it
    was the role's own, kept tokens in its hand zone, filled or emptied a pile (the Well),
    changed the tray."""
    last: list[Any] = []

    def taken_back(game: sw.Game, action: sw.Action) -> bool:
        s = game._state
        if last:
            zones, box, role, hand = last.pop()
            seen["role"] += role
            seen["role with a hand"] += role and hand > 0
            seen["piles"] += s.zones is not zones
            seen["tray"] += s.box is not box
        if not turn_end_in_place(game, action):
            return False
        assert s.acting is not None
        seen["turn ends"] += 1
        last.append((s.zones, s.box, s.acting == game._engine.role_race, s.races[s.acting].hand))
        return True

    return taken_back


def test_turn_ends_of_a_role_game_made_in_place_are_those_made_on_a_fork() -> None:
    """Rule 1.11 (scoring), then after every turn the Necromancer's exchange (rule 4.3 d:
    every 4 tokens in the Well leave it, 1 Ghost goes from his reserve to the Island) and,
    after his own turn, his harvest (a soul into the Well per region he holds), and rule
    1.6 (the next turn's troops readied) are carried out alike in place and on a fork: every
    EndTurn that may be made in place was, the Necromancer's own (his tokens in hand rest on
    the Island) and those of races holding tokens back included, and each is taken back and
    played again (``play_alongside``)."""
    seen: Counter[str] = Counter()
    taken = play_alongside(NECROMANCER, made_by_any, _watching(seen))
    assert all(len(record) == 21 for action, record, _ in taken if type(action) is sw.EndTurn)
    assert sum(over for _, _, over in taken) >= 1
    assert seen["turn ends"] > 60, seen
    assert seen["role"] > 10 and seen["role with a hand"] > 3, seen
    assert seen["piles"] > 15 and seen["tray"] > 10, seen


def test_a_role_winning_at_once_ends_the_game_in_place(
    necromancer: sw.Rules, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A role wins at once when its win comes true after a turn (rule 4.2.5, A18): the game
    ends (rule 1.14) alike in place and on a fork, with a win asked afresh after every turn;
    here a game ends that way with a turn end made in place, taken back and played again
    (the others by a win after a decline or a turn end on a fork)."""
    rules = _wins_early(necromancer)
    monkeypatch.setattr(state4, "rules_and_players", lambda how: (rules, COUNTS))
    wins: list[bool] = []
    turn_end = Engine._role_turn_end

    def counted(engine: Engine, s: State, log: Any) -> bool:
        won = turn_end(engine, s, log)
        wins.append(won)
        return won

    monkeypatch.setattr(Engine, "_role_turn_end", counted)
    turns = {n: sw.Game.new(players=n, seed=0, rules=rules)._engine.map.turns for n in COUNTS}
    seen: Counter[str] = Counter()
    taken = play_alongside({}, made_by_any, _watching(seen))
    early = [r for _, r, over in taken if over and r[17] < turns[len(r[1])]]  # its round
    assert len(early) >= 1 and any(wins) and not all(wins), (len(early), Counter(wins))


def _turn_ends(rules: sw.Rules, games: int) -> Iterator[sw.Game]:
    """Seeded games of ``rules``, each yielded at every position where an EndTurn is legal
    and may be made in place, then played on by a random move."""
    for seed in range(games):
        game = sw.Game.new(players=COUNTS[seed % 3], seed=seed, rules=rules)
        choose = random.Random(seed)
        while not game.is_over:
            options = list(game.legal_actions())
            if sw.EndTurn() in options and turn_end_in_place(game, sw.EndTurn()):
                yield game
            game.apply(options[choose.randrange(len(options))])


def _identity(game: sw.Game) -> tuple[Any, ...]:
    """The objects of the game's position (by id), the role's piles and tray among them,
    its generation and its data."""
    s = game._state
    return (
        id(s),
        s.gen,
        id(s.races),
        {race: id(rs) for race, rs in s.races.items()},
        id(s.region_tokens),
        id(s.players),
        id(s.zones),
        id(s.box),
        s.reach_costs,
        state_to_dict(s),
    )


def test_a_refused_role_turn_end_leaves_the_position_as_it_was(
    necromancer: sw.Rules, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An EndTurn refused part way in a game with a role (the log refusing the harvest's
    souls put into the Well, the exchange, TurnEnded after the role's win was asked, or the
    next turn's start or the game's end) changes nothing, tried in place: the same position
    object, banners, races table, tokens, players, piles and tray, generation, save, log
    and history, and no fork made. Only events the move logs on a fork are refused."""
    tried: Counter[str] = Counter()
    for game in _turn_ends(necromancer, 2):
        reference = game._state.fork()  # the forking path, on the side: what it logs
        logged: list[object] = []
        game._engine.apply(reference, sw.EndTurn(), logged.append)
        del reference
        kinds = [TokensToZone, Exchanged, TurnEnded, (TurnStarted, GameOver)]
        for kind in kinds:
            if not any(isinstance(e, kind) for e in build_log(logged)):
                continue
            refused_as_before(game, sw.EndTurn(), kind, monkeypatch, identity=_identity)
            tried[str(kind)] += 1
    assert len(tried) == 4 and min(tried.values()) >= 3, tried


def test_a_turn_end_with_tokens_left_in_hand_is_refused_in_place(
    necromancer: sw.Rules, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A race must place the tokens in its hand before its turn ends (rule 1.10); the
    role keeps them in its hand zone instead (rule 4.3 b). Tried in place on the game's
    own position, such an EndTurn of a race is refused with the reason the forking path
    gives and leaves the game exactly as it was, without a fork."""
    refused = 0
    for seed in range(3):
        game = sw.Game.new(players=COUNTS[seed % 3], seed=seed, rules=necromancer)
        choose = random.Random(seed)
        while not game.is_over:
            options = list(game.legal_actions())
            s = game._state
            ready = (
                sw.EndTurn() not in options
                and s.phase is sw.Phase.REDEPLOY
                and s.acting is not None
                and s.races[s.acting].hand > 0
            )
            del s
            if ready and turn_end_in_place(game, sw.EndTurn()):
                identity = _identity(game)
                saved, log, undo = game.to_json(), game.log, list(game._undo)
                with forking(), pytest.raises(sw.IllegalAction) as forked:
                    game.apply(sw.EndTurn())
                message = str(forked.value)
                del forked  # (its traceback's frames hold the position)
                with counting_forks(monkeypatch) as forks:
                    with pytest.raises(sw.IllegalAction) as raised:
                        game.apply(sw.EndTurn())
                    assert not forks
                assert str(raised.value) == message and "place the" in message
                del raised
                assert _identity(game) == identity
                assert (game.to_json(), game.log, game._undo) == (saved, log, undo)
                refused += 1
            game.apply(options[choose.randrange(len(options))])
    assert refused > 10


def test_a_held_role_turn_end_is_undone_on_a_fork(necromancer: sw.Rules) -> None:
    """A turn end made in place whose role's turn end changed the piles and the tray
    (the exchange), undone while a clone shares the position, is undone on a fork: the
    clone keeps the position after it, piles and tray included, and each game then goes
    back alone to the position before it; saves, deep copies and loads are those of the
    forking path."""
    checked = 0
    for game in _turn_ends(necromancer, 6):
        if checked == 4:
            break
        before, past = position(game), history(game)
        zones, box = game._state.zones, game._state.box
        game.apply(sw.EndTurn())
        assert made_in_place(game)
        s = game._state
        exchanged = s.zones is not zones and s.box is not box
        del s
        if not exchanged:
            game.undo()
            assert position(game) == before
            continue
        after, done = position(game), history(game)
        twin = game.clone()
        game.undo()  # the twin shares the position: on a fork
        assert position(game) == before and history(game) == past
        assert position(twin) == after and history(twin) == done
        deep = copy.deepcopy(twin)
        saved = twin.to_json()
        assert position(sw.Game.from_json(saved, rules=necromancer)) == after
        twin.undo()
        assert position(twin) == before and position(deep) == after
        deep.undo()
        assert position(deep) == before and history(deep) == past
        del twin, deep
        game.apply(sw.EndTurn())  # played again on the game's own position
        assert made_in_place(game) and position(game) == after
        assert game.to_json() == saved
        game.undo()  # (the position _turn_ends plays on from)
        checked += 1
    assert checked == 4


@RULE_SETS
def test_abilities_made_in_place_are_those_made_on_a_fork(how: dict[str, object]) -> None:
    """An ability's effects (a Hero, a Fortress or an Encampment placed on one of the race's
    regions, a truce with the player chosen) and its limits (once a turn) are carried out
    alike in place and on a fork: every UseAbility that may be made in place (see
    ``ability_in_place``) was, and each is taken back and played again
    (``play_alongside``)."""
    taken = play_alongside(how, made_by_any, ability_in_place)
    assert all(len(record) == 7 for _, record, _ in taken)
    if how == {} or how == NECROMANCER:  # Heroes, Fortresses, Encampments, truces
        assert len(taken) > 10
        names = {action.name for action, _, _ in taken}
        assert names >= ({"encamp"} if how == {} else {"place_hero", "fortify", "choose_ally"})


def test_an_ability_copies_a_banner_held_elsewhere(necromancer: sw.Rules) -> None:
    """The acting banner, where the position is not all that holds it (here a fork of the
    position kept aside, which shares its banners), is copied before the ability is used
    and the record keeps it: the fork is left as it was, the move is the forking path's,
    and ``undo`` puts the banner back. Where nothing else holds it, the banner itself is
    the position's still after the move (no copy; the record keeps none)."""
    checked: Counter[bool] = Counter()
    for game, options in _abilities(necromancer, 6):
        use = next(a for a in options if ability_in_place(game, a))
        for held in (False, True):
            aside = game._state.fork() if held else None
            kept = None if aside is None else state_to_dict(aside)
            before = position(game)
            acting = game._state.acting
            assert acting is not None
            banner = id(game._state.races[acting])
            with forking():
                reference = game.clone()
                reference.apply(use)
            expected = position(reference)
            del reference
            game.apply(use)
            assert made_in_place(game) and position(game) == expected
            record = game._undo[-3]
            assert (record[1] is not None) is held
            assert (id(game._state.races[acting]) == banner) is not held
            if aside is not None:
                assert state_to_dict(aside) == kept
            game.undo()
            assert position(game) == before and id(game._state.races[acting]) == banner
            del aside
            checked[held] += 1
        if checked[True] >= 6:
            break
    assert checked[True] >= 6


def _abilities(rules: sw.Rules, games: int) -> Iterator[tuple[sw.Game, list[sw.Action]]]:
    """Seeded games of ``rules``, each yielded at every position where an ability that may
    be made in place is listed, with the legal actions, then played on by a random move."""
    for seed in range(games):
        count = (3, 4, 5)[seed % 3] if rules.roles else 2 + seed % 2
        game = sw.Game.new(players=count, seed=seed, rules=rules)
        choose = random.Random(seed)
        while not game.is_over:
            options = list(game.legal_actions())
            if any(ability_in_place(game, a) for a in options):
                yield game, options
            game.apply(options[choose.randrange(len(options))])


@pytest.mark.parametrize("how", [{}, NECROMANCER], ids=["official", "necromancer_island"])
def test_a_refused_ability_leaves_the_position_as_it_was(
    how: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """An ability used where its rule does not allow it (a region that is not the race's,
    one off the board, no target, a target that already holds the piece) is refused with
    the reason the forking path gives, and one refused after it made its changes (the log
    refusing AbilityUsed, or PieceMoved after the piece was put down) is undone: tried in
    place on the game's own position, either leaves the same position object, banners,
    races table, piece tables, generation, save, log and history, and makes no fork."""
    rules = sw.load_rules(**how)
    tried: Counter[str] = Counter()
    for game, options in _abilities(rules, 4):
        listed = [a for a in options if ability_in_place(game, a)]
        use = listed[0]
        assert isinstance(use, sw.UseAbility)
        n = len(game._state.region_tokens)
        wrong = [
            sw.UseAbility(use.name, r)
            for r in (-1, n + 3, None, *range(n))
            if sw.UseAbility(use.name, r) not in options
        ][:4]
        reference = game._state.fork()  # the forking path, on the side: what it logs
        logged: list[object] = []
        game._engine.apply(reference, use, logged.append)
        del reference
        events = build_log(logged)
        kinds = [k for k in (AbilityUsed, PieceMoved) if any(isinstance(e, k) for e in events)]
        for probe, kind in [(p, None) for p in wrong] + [(use, k) for k in kinds]:
            refused_as_before(game, probe, kind, monkeypatch, identity=_identity)
            tried["refused" if kind is None else kind.__name__] += 1
    assert min(tried.values()) > 5 and len(tried) == 3, tried
