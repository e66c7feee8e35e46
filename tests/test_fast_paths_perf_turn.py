"""The fast paths of the end of a turn, of deploying and of picking give exactly what the
general code gives.

Each test plays seeded random games with the official rules, every folder of test rule files
and every expansion (alone, and all together), and carries out the same action on the same
position twice: once as the game does, once with the fast path switched off. The states
(every field, in order), the events and the refusals must be the same.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from helpers import random_positions, rule_sets, rules_and_players

import smallworld_rules as sw
from smallworld_rules.engine import turn
from smallworld_rules.engine.core import Engine
from smallworld_rules.events import build_log
from smallworld_rules.state import PlayerState, RaceState, State

RULE_SETS = rule_sets(each_box=True)


def _dump(value: Any) -> Any:
    """A value of a state, race or player field, with its order kept (dicts included)."""
    if isinstance(value, (RaceState, PlayerState)):
        return [(name, _dump(getattr(value, name))) for name in value.__slots__ if name != "gen"]
    if isinstance(value, dict):
        return [(k, _dump(v)) for k, v in value.items()]
    if isinstance(value, (tuple, list)):
        return [_dump(v) for v in value]
    return repr(value)


def _whole(s: State) -> list[Any]:
    """Every field of a state but the bookkeeping of copy on write and the cached costs."""
    return [(name, _dump(getattr(s, name))) for name in State.__slots__
            if name not in ("gen", "reach_costs")]


def _outcome(engine: Engine, state: State, action: sw.Action) -> tuple[Any, ...]:
    """What carrying ``action`` out on a fork of ``state`` gives: the new state and the
    events, or the refusal's message."""
    new = state.fork()
    log: list[Any] = []
    try:
        engine.apply(new, action, log.append)
    except sw.IllegalAction as e:
        return ("refused", str(e), [repr(x) for x in build_log(log)])
    return (_whole(new), [repr(x) for x in build_log(log)])


@contextmanager
def _switched_off(engine: Engine, flag: str) -> Iterator[None]:
    """The engine with one of its fast-path flags off (engines are shared between games)."""
    kept = getattr(engine, flag)
    setattr(engine, flag, False)
    try:
        yield
    finally:
        setattr(engine, flag, kept)


def _compare(
    how: dict[str, Any],
    flag: str,
    actions: Callable[[sw.Game], list[sw.Action]],
    games: int = 8,
) -> tuple[int, int]:
    """Every action ``actions`` picks on every position of seeded games, carried out with
    the engine's ``flag`` on (as games do) and off (the general path): the same outcome.
    Returns (positions compared, engines with the flag on)."""
    rules, players = rules_and_players(how)
    compared = 0
    flagged = set()
    for game in random_positions(rules, games, players):
        engine, state = game._engine, game._state
        if getattr(engine, flag):
            flagged.add(id(engine))
        for action in actions(game):
            fast = _outcome(engine, state, action)
            with _switched_off(engine, flag):
                general = _outcome(engine, state, action)
            assert fast == general, (action, _text(state))
            compared += 1
    return compared, len(flagged)


def _text(s: State) -> str:
    """The start of a state's fields, to name the position a comparison failed on."""
    return repr(_whole(s))[:2000]


def _turn_enders(game: sw.Game) -> list[sw.Action]:
    """The actions that may end a turn (and start the next): EndTurn and Decline whether
    legal or not, and each legal Deploy of a withdrawal."""
    out: list[sw.Action] = [sw.EndTurn(), sw.Decline()]
    if game._state.phase is sw.Phase.WITHDRAWAL:
        out += [a for a in game.legal_actions() if isinstance(a, sw.Deploy)]
    return out


def _counted(monkeypatch: pytest.MonkeyPatch, module: Any, name: str) -> list[int]:
    """A call counter around ``module.name`` (a fast path), for the test to see it taken."""
    calls = [0]
    original = getattr(module, name)

    def counting(*args: Any, **kwargs: Any) -> Any:
        calls[0] += 1
        return original(*args, **kwargs)

    monkeypatch.setattr(module, name, counting)
    return calls


@RULE_SETS
def test_a_plain_turn_starts_as_the_general_start_of_a_turn(
    how: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Rule 1.6: a turn starts by readying the troops (every token but one per region back
    in hand), the first race to act being a declined one that acts in decline. Where no rule
    file does more as a turn starts (no revival, no piece lifted, no borrowed badge, no
    ``turn_start`` trigger, no ``region_tokens min``), the turn starts in one pass: every
    EndTurn, Decline and withdrawal Deploy on every position of seeded games ends the same
    way with that pass as without it."""
    calls = _counted(monkeypatch, turn, "_start_plain_turn")
    compared, flagged = _compare(how, "_plain_turns", _turn_enders)
    assert compared > 400
    if flagged:
        assert calls[0] > 50  # the one pass was taken, and compared
    else:
        assert calls[0] == 0  # a game whose turns start with more never takes it


#: score modifiers of every kind (sub, set, a clamp to 0), which no shipped rule file has
SCORE_FILES = {
    "taxed.swr": """\
power taxed "Taxed" {
    tokens 4
    text "Pay 6 coins at the end of each turn; 1 back at the end of the first."
    score sub 6
    score add 1 when first_turn
}
""",
    "capped.swr": """\
power capped "Capped" {
    tokens 4
    text "Score 2 coins while holding a Forest region, plus 1 per Hill region."
    score set 2 when count(own regions with terrain forest) > 0
    score add count(own regions with terrain hill)
}
""",
}


def _scores_checked(rules: sw.Rules, games: list[sw.Game]) -> tuple[int, int, int]:
    """Every race in play on every position: ``scored`` is the breakdown's value and
    explanation. Returns (races with contributions, clamped ones, set ones)."""
    from smallworld_rules.engine.scoring import scored

    changed = clamped = set_ = 0
    for game in games:
        engine, state = game._engine, game._state
        for race in state.races:
            b = engine.score(state, race)
            assert scored(engine, state, race) == (b.value, b.explain())
            changed += bool(b.contributions)
            clamped += b.clamped_from is not None
            set_ += any(c.op == "set" for c in b.contributions)
    return changed, clamped, set_


@RULE_SETS
def test_the_turn_score_is_folded_as_the_breakdown(how: dict[str, Any]) -> None:
    """Rule 1.11: a race scores a coin per region it holds, changed by its rule files'
    score modifiers (every add and sub, then the lowest set, then never below 0). The end
    of the turn folds and explains them without making the breakdown: the same value and
    text as the breakdown, for every race on every position of seeded games."""
    rules, players = rules_and_players(how)
    changed, _, _ = _scores_checked(rules, random_positions(rules, 6, players))
    assert changed > 5 or how.get("expansions") == ["necromancer_island"]


def test_subtracted_set_and_clamped_scores_are_folded_as_the_breakdown(
    tmp_path: Path,
) -> None:
    """Rule 1.11 with score modifiers that subtract, set and clamp (rule files of this
    test: no shipped one has them): the same value and explanation as the breakdown."""
    import random

    for name, text in SCORE_FILES.items():
        (tmp_path / name).write_text(text)
    rules = sw.load_rules(paths=[tmp_path])
    games = []
    for seed in range(8):
        combos = [("humans", "taxed"), ("elves", "capped"), ("giants", "forest")]
        game = sw.Game.new(players=2, seed=seed, rules=rules, combos=combos)
        rng = random.Random(seed)
        while not game.is_over:
            games.append(game.clone())
            options = list(game.legal_actions())
            game.apply(options[rng.randrange(len(options))])
    changed, clamped, set_ = _scores_checked(rules, games)
    assert changed > 200 and clamped > 20 and set_ > 20


#: the phases each action is played in (what the engine's phase checks name)
PLAYED_IN = {
    sw.Deploy: (sw.Phase.CONQUEST, sw.Phase.REDEPLOY, sw.Phase.WITHDRAWAL),
    sw.EndTurn: (sw.Phase.PICK, sw.Phase.CONQUEST, sw.Phase.REDEPLOY, sw.Phase.WITHDRAWAL),
    sw.PickCombo: (sw.Phase.PICK,),
    sw.Decline: (sw.Phase.CONQUEST, sw.Phase.REDEPLOY),
}


@pytest.mark.parametrize("chance", ["seeded", "explicit"])
def test_an_action_out_of_its_phase_is_refused_as_the_phase_check_words_it(
    chance: str,
) -> None:
    """An action played outside the phases it belongs to (a Deploy while picking, an
    EndTurn while the die is rolled …) is refused with the phase check's own message, and
    the game is left exactly as it was: Deploy and EndTurn look at the phase once, for the
    usual phases first, and call the check only to refuse."""
    import random

    rules = sw.load_rules()
    refused = set()
    for seed in range(6):
        game = sw.Game.new(players=2 + seed % 3, seed=seed, rules=rules, chance=chance)
        rng = random.Random(seed)
        while not game.is_over:
            engine, state = game._engine, game._state
            for action in (sw.Deploy(0, 1), sw.EndTurn(), sw.PickCombo(0), sw.Decline()):
                if state.phase in PLAYED_IN[type(action)]:
                    continue
                with pytest.raises(sw.IllegalAction) as wanted:
                    engine._need_phase(state, action, *PLAYED_IN[type(action)])
                before = game.to_json()
                with pytest.raises(sw.IllegalAction) as got:
                    game.apply(action)
                assert str(got.value) == str(wanted.value)
                assert game.to_json() == before
                refused.add((type(action), state.phase))
            options = list(game.legal_actions())
            game.apply(options[rng.randrange(len(options))])
    P = sw.Phase
    assert {(sw.Deploy, P.PICK), (sw.Decline, P.PICK), (sw.PickCombo, P.REDEPLOY)} <= refused
    assert {p for _, p in refused} >= {P.PICK, P.CONQUEST, P.REDEPLOY, P.WITHDRAWAL}
    if chance == "explicit":  # EndTurn and Deploy while the die is rolled
        assert {(sw.EndTurn, P.DIE_ROLL), (sw.Deploy, P.DIE_ROLL)} <= refused
