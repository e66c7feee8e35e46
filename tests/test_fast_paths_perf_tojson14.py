"""``Game.to_json`` keeps what a save repeats: the text of the save around its log and state
per engine (``game._FRAMES``), and per game the log's text as its last save wrote it
(``Game._written``: the next save writes only the events logged since; a log cut by an undo
or a refusal is written again from where it was cut). These tests compare every save with
the general spelling, ``json.dumps(doc, sort_keys=True, separators=(",", ":"))`` of the
document built from the game's public parts, event by event and field by field:

* at every step of seeded games (official rules, every ``tests/rules*`` folder, Necromancer
  Island, each box alone, all boxes; a chance-explicit game), games that undo one to three
  moves and play on (a log cut and grown again, often to the length it had), that are
  refused actions, cloned (the clone and the game played on apart) and deep-copied, and
  loaded from a save mid-way and played on;
* a board that is not official (its ``map_data`` travels with the game) and a seed that is
  not a plain ``int``;
* the frame of more engines than are kept;
* ``state.state_json`` writes a position whose mask of regions is past the numbers kept
  its own way, not the encoder's.
"""

from __future__ import annotations

import copy
import json
import random
import shutil
from pathlib import Path
from typing import Any

import pytest
from helpers import rule_sets, rules_and_players

import smallworld_rules as sw
from smallworld_rules import game as game_module
from smallworld_rules.jsontext import encode_json
from smallworld_rules.maps import MAP_NAMES
from smallworld_rules.saved import FORMAT, VERSION
from smallworld_rules.state import _state_text, state_json, state_to_dict


def _reference(game: sw.Game) -> str:
    """The save as the general way spells it: the whole document through ``json.dumps``."""
    engine = game._engine
    doc: dict[str, Any] = {
        "chance": "explicit" if engine.explicit_chance else "seeded",
        "expansions": list(game.rules.expansion_ids),
        "format": FORMAT,
        "log": [event.to_dict() for event in game.log],
        "map": game.map_name,
        "map_data": None if game.map_name in MAP_NAMES else game.map.to_dict(),
        "options": game.options,
        "packs": list(game.rules.packs),
        "players": game.players,
        "seed": game.seed,
        "state": state_to_dict(game._state),
        "version": VERSION,
    }
    return json.dumps(doc, sort_keys=True, separators=(",", ":"))


def _check(game: sw.Game, what: str) -> str:
    """The game's save, checked against the reference (twice: the second save of the same
    position writes nothing of the log again)."""
    text = game.to_json()
    assert text == _reference(game), what
    assert game.to_json() == text, what
    return text


def _step(game: sw.Game, rng: random.Random) -> None:
    """One seeded move (a chance outcome at a chance node)."""
    if game.to_move is sw.CHANCE:
        outcomes = game.chance_outcomes()
        game.apply(outcomes[rng.randrange(len(outcomes))][0])
    else:
        options = list(game.legal_actions())
        game.apply(options[rng.randrange(len(options))])


class _Counts:
    """How often each case a cache must notice came up (so that a test that never met one
    fails instead of passing for nothing)."""

    def __init__(self) -> None:
        self.regrown_same_length = 0
        self.refused = 0
        self.cloned = 0
        self.loaded = 0


def _play(game: sw.Game, seed: int, counts: _Counts, depth: int = 0) -> None:
    """Play ``game`` to its end (a twin or a loaded game: 30 steps), saving at every step
    and, at random steps, undoing some moves, being refused an action, cloning, deep-copying
    or loading its save."""
    rng = random.Random(seed)
    step = 0
    while not game.is_over and step < (400 if depth == 0 else 30):
        step += 1
        _step(game, rng)
        _check(game, f"seed {seed} step {step}")
        roll = rng.random()
        if roll < 0.15 and game._undo:
            length = len(game._log)
            for _ in range(rng.randint(1, 3)):
                if game._undo:
                    game.undo()
            seen_cut = rng.random() < 0.5  # else cut and grown again between two saves
            if seen_cut:
                _check(game, f"seed {seed} step {step}: undone")
            while len(game._log) < length and not game.is_over:
                _step(game, rng)
            if len(game._log) == length and not seen_cut:
                counts.regrown_same_length += 1
            _check(game, f"seed {seed} step {step}: played again")
        elif roll < 0.25 and game.to_move is not sw.CHANCE:
            legal = game.legal_actions()
            for bad in (sw.Conquer(0), sw.Deploy(0, 99), sw.EndTurn(), sw.Decline()):
                if bad not in legal:
                    text = game.to_json()
                    with pytest.raises(sw.IllegalAction):
                        game.apply(bad)
                    assert _check(game, f"seed {seed} step {step}: refused") == text
                    counts.refused += 1
                    break
        elif roll < 0.28 and depth == 0:
            twin = game.clone() if rng.random() < 0.7 else copy.deepcopy(game)
            _check(twin, f"seed {seed} step {step}: copied")
            counts.cloned += 1
            _play(twin, seed * 31 + step, counts, depth + 1)  # the twin played on apart
            _check(game, f"seed {seed} step {step}: after its twin")
        elif roll < 0.30 and depth == 0:
            loaded = sw.Game.from_json(game.to_json(), game.rules)
            assert _check(loaded, f"seed {seed} step {step}: loaded") == game.to_json()
            counts.loaded += 1
            _play(loaded, seed * 37 + step, counts, depth + 1)


@rule_sets(necromancer=True, each_box=True)
def test_every_save_is_the_general_spelling(how: dict[str, Any]) -> None:
    """Every save of seeded games with undos, refusals, clones, copies and loads is the
    general spelling of the game's document, byte for byte."""
    rules, players = rules_and_players(how)
    counts = _Counts()
    for seed in range(2):
        game = sw.Game.new(players=players[seed % len(players)], seed=seed, rules=rules)
        _check(game, "new game")
        _play(game, seed, counts)
    assert counts.refused and counts.cloned
    # a log cut and grown back to the length written, unsaved in between
    assert counts.regrown_same_length


def test_explicit_chance_and_many_undos() -> None:
    """A chance-explicit game (chance outcomes logged), and one game undone to its start and
    played again along other moves: saved as the general way spells them."""
    rules = sw.load_rules()
    counts = _Counts()
    for seed in range(3):
        game = sw.Game.new(players=3, seed=seed, rules=rules, chance="explicit")
        _play(game, seed + 10, counts)
    assert counts.loaded and counts.regrown_same_length
    game = sw.Game.new(players=2, seed=4, rules=rules)
    rng = random.Random(4)
    for _ in range(30):
        _step(game, rng)
        _check(game, "played")
    while game._undo:
        game.undo()
    _check(game, "undone to the start")
    for _ in range(30):
        _step(game, rng)
        _check(game, "played again")


def test_a_board_of_its_own_and_an_odd_seed(tmp_path: Path) -> None:
    """A board that is not official travels in the save (``map_data``); a seed that is not a
    plain int (a bool is an int to Python, not to JSON) is written by the encoder."""
    board = Path(sw.__file__).parent / "maps" / "2p.json"
    shutil.copy(board, tmp_path / "mine.json")
    game = sw.Game.new(players=2, seed=3, map=str(tmp_path / "mine.json"))
    assert game.map_name not in MAP_NAMES
    counts = _Counts()
    _check(game, "own board")
    _play(game, 3, counts)
    assert '"map_data":{' in game.to_json()
    odd = sw.Game.new(players=2, seed=_Seed(7))
    assert '"seed":7,' in _check(odd, "a seed of a subclass of int")


class _Seed(int):
    def __format__(self, spec: str) -> str:
        return "not the encoder's text"


def test_more_engines_than_kept() -> None:
    """Games of more engines than ``_FRAMES`` keeps, saved in turn twice over: each save
    has its own engine's frame."""
    rules = sw.load_rules()
    games = [
        sw.Game.new(players=players, seed=1, rules=rules, chance=chance)
        for players in (2, 3, 4, 5)
        for chance in ("seeded", "explicit")
    ]
    games += [sw.Game.new(players=3, seed=1, rules=sw.load_rules(expansions=[e]))
              for e in sw.available_expansions()]
    assert len({id(g._engine) for g in games}) > game_module._FRAMES_KEPT
    for _ in range(2):
        for game in games:
            _check(game, f"{game.players} players {game.rules.expansion_ids}")
    assert len(game_module._FRAMES) <= game_module._FRAMES_KEPT


@pytest.mark.parametrize(
    "expansions", [[], ["necromancer_island"], ["underground"], ["spiders_web"]], ids=str
)
def test_a_mask_of_regions_past_the_numbers_kept(expansions: list[str]) -> None:
    """A position whose mask of the regions conquered non-empty is past the numbers
    ``jsontext`` keeps (a conquest of a region numbered 10 or more) is written by
    ``state_json``'s own way (it was the encoder's: a third of the saves of a game), as the
    encoder writes it."""
    rules = sw.load_rules(expansions=expansions)
    written = 0
    for seed in range(3):
        game = sw.Game.new(players=3, seed=seed, rules=rules)
        rng = random.Random(seed)
        while not game.is_over:
            _step(game, rng)
            s = game._state
            expected = encode_json(state_to_dict(s))
            assert state_json(s) == expected  # (its names now kept, if they were not)
            if s.conquered_nonempty >= 1000 and not s.lang:  # (else the encoder writes it)
                assert _state_text(s) == expected
                written += 1
    assert written


@rule_sets(necromancer=True)
def test_a_loaded_game_saved_before_its_log_is_read(how: dict[str, Any]) -> None:
    """A loaded game keeps its log's text unparsed until the log is read; saved before that
    (after zero to five moves, a refusal, or as a clone), its save is the general spelling
    of the document (the reference, which reads the log, taken after the save)."""
    rules, players = rules_and_players(how)
    unread = 0
    for seed in range(2):
        game = sw.Game.new(players=players[seed % len(players)], seed=seed, rules=rules)
        rng = random.Random(seed)
        step = 0
        while not game.is_over:
            _step(game, rng)
            step += 1
            if step % 9:
                continue
            loaded = sw.Game.from_json(game.to_json(), rules)
            for _ in range(rng.randint(0, 5)):
                if not loaded.is_over:
                    _step(loaded, rng)
            if rng.random() < 0.3 and loaded.to_move is not sw.CHANCE:
                with pytest.raises(sw.IllegalAction):
                    loaded.apply(sw.Deploy(0, 99))
            if rng.random() < 0.3:
                loaded = loaded.clone()
            unread += loaded._log_text is not None
            text = loaded.to_json()
            assert text == _reference(loaded), f"seed {seed} step {step}"
    assert unread
