"""The public API: every name users and outside checks rely on.

Positions are on the 2-player map unless said otherwise (region 1 an empty Farmland on the edge,
3 a Swamp with a Lost Tribe, 5 an empty Mountain on the edge, 6 an interior Hill with a Lost
Tribe, 7 the Lake, 0 and 22 the Seas, 12 an interior Forest on the Lake shore). Test-only rule
files come from tests/rules/ (``plain``/``plain2`` powers: no effect, no tokens; ``crowd``:
8 tokens in a box of 9; ``warded`` declares the pieces ``ward`` and ``sanctum``).
"""

from __future__ import annotations

import contextlib
import json
import random
import re
from collections.abc import Callable
from importlib import resources
from pathlib import Path
from typing import Any

import attrs
import pytest
from helpers import deploy_all_and_end, new_game, saved_state

import smallworld_rules as sw
from conftest import TEST_RULES
from smallworld_rules import events as ev
from smallworld_rules.actions import ACTION_TYPES, action_from_dict
from smallworld_rules.engine import DIE_FACES
from smallworld_rules.events import EVENT_TYPES, event_from_dict
from smallworld_rules.options import CORE_OPTIONS

OFFICIAL_RACES = {
    "amazons", "dwarves", "elves", "ghouls", "giants", "halflings", "humans", "orcs", "ratmen",
    "skeletons", "sorcerers", "tritons", "trolls", "wizards",
}
OFFICIAL_POWERS = {
    "alchemist", "berserk", "bivouacking", "commando", "diplomat", "dragon_master", "flying",
    "forest", "fortified", "heroic", "hill", "merchant", "mounted", "pillaging", "seafaring",
    "spirit", "stout", "swamp", "underworld", "wealthy",
}

EXTRA_RULES = {
    "scouts": 'race scouts "Scouts" {\n    tokens 4\n    box 9\n    text "Test race."\n}\n',
    "settlers": 'race settlers "Settlers" {\n    tokens 5\n    box 10\n    text "Test race."\n}\n',
    "nomads": 'race nomads "Nomads" {\n    tokens 6\n    box 11\n    text "Test race."\n}\n',
    "plain3": 'power plain3 "Plain Three" {\n    tokens 0\n    text "No power."\n}\n',
}


@pytest.fixture(scope="module")
def big_rules(tmp_path_factory: pytest.TempPathFactory) -> sw.Rules:
    """Official + test rules + three more plain races and a plain power (9 races, 8 powers),
    so that eight combos can be fixed: six visible and two in the stacks."""
    folder = tmp_path_factory.mktemp("extra_rules")
    for stem, text in EXTRA_RULES.items():
        (folder / f"{stem}.swr").write_text(text, encoding="utf-8")
    return sw.load_rules(paths=[TEST_RULES, folder])


@pytest.fixture
def game(rules: sw.Rules) -> sw.Game:
    """Player 0 has just picked Ratmen with no power: 8 tokens in hand."""
    g = new_game(rules, [("ratmen", "plain"), ("crowd", "plain2")])
    g.apply(sw.PickCombo(0))
    return g


def at_withdrawal(rules: sw.Rules) -> sw.Game:
    """Player 0 (Ratmen) took region 4 from player 1's 3 Crowd; player 1 must place 2."""
    g = new_game(rules, [("ratmen", "plain"), ("crowd", "plain2")])
    g.apply(sw.PickCombo(0))
    g.put(4, 1, 3, race="crowd")
    g.put(17, 1, 1)
    g.apply(sw.Conquer(4))
    g.apply(sw.Deploy(4, 7))
    g.apply(sw.EndTurn())
    assert g.phase is sw.Phase.WITHDRAWAL
    return g


def at_die_roll(rules: sw.Rules) -> sw.Game:
    """Explicit chance: Ratmen with 1 token in hand attempt the Mountain (cost 3) with the die."""
    g = new_game(rules, [("ratmen", "plain"), ("crowd", "plain2")], chance="explicit")
    g.apply(sw.PickCombo(0))
    for region in (1, 2, 6):  # 2 + 2 + 3 of the 8 tokens
        g.apply(sw.Conquer(region))
    g.apply(sw.ConquerWithDie(5))
    assert g.phase is sw.Phase.DIE_ROLL
    return g


def random_playout(game: sw.Game, rng: random.Random, steps: int) -> list[sw.Action]:
    """Apply up to ``steps`` uniformly random legal actions (dice drawn by probability)."""
    played: list[sw.Action] = []
    for _ in range(steps):
        if game.is_over:
            break
        if game.to_move == sw.CHANCE:
            outcomes = game.chance_outcomes()
            action: sw.Action = rng.choices(
                [a for a, _ in outcomes], weights=[p for _, p in outcomes]
            )[0]
        else:
            action = rng.choice(list(game.legal_actions()))
        game.apply(action)
        played.append(action)
    return played


def rule_line(path: str, needle: str) -> int:
    """The 1-based line of a rule file where ``needle`` first appears."""
    lines = Path(path).read_text(encoding="utf-8").splitlines()
    return next(i for i, line in enumerate(lines, 1) if needle in line)


# ---------------------------------------------------------------- load_rules


def test_load_rules_ids_are_official_file_stems() -> None:
    """Ids: races and powers are known by their rule-file stem; the official files use only
    official ids; ``Rules.get`` finds them and refuses unknown ones."""
    rules = sw.load_rules()
    assert rules.races and rules.powers
    assert set(rules.races) <= OFFICIAL_RACES
    assert set(rules.powers) <= OFFICIAL_POWERS
    for table, kind in ((rules.races, "race"), (rules.powers, "power")):
        for rule_id, rule in table.items():
            assert rule.id == rule_id == Path(rule.path).stem
            assert rule.kind == kind and rule.name and rule.text
            assert rules.get(rule_id) is rule
    for race in rules.races.values():
        assert race.box >= race.tokens > 0  # Rule 1.1: the box is a hard cap above the banner
    with pytest.raises(sw.RulesError, match="nope"):
        rules.get("nope")


def test_load_rules_is_the_whole_base_game() -> None:
    """``load_rules()`` is the base game: the 14 races and 20 powers of rules 2 and 3."""
    rules = sw.load_rules()
    assert set(rules.races) == OFFICIAL_RACES
    assert set(rules.powers) == OFFICIAL_POWERS


def test_load_rules_paths_add_and_override(tmp_path: Path) -> None:
    """``load_rules(paths=[...])`` adds rule files, and a file whose id matches an official
    one replaces it when ``override=True`` (issue 10; without it the conflict is refused)."""
    (tmp_path / "ratmen.swr").write_text(
        'race ratmen "Big Ratmen" {\n    tokens 9\n    box 13\n    text "More rats."\n}\n',
        encoding="utf-8",
    )
    with pytest.raises(sw.RulesError, match="override=True"):
        sw.load_rules(paths=[tmp_path, TEST_RULES])
    rules = sw.load_rules(paths=[tmp_path, TEST_RULES], override=True)
    assert rules.races["ratmen"].tokens == 9 and rules.races["ratmen"].name == "Big Ratmen"
    assert "crowd" in rules.races and "plain" in rules.powers
    assert sw.load_rules().races["ratmen"].tokens == 8  # the official file is untouched


def test_load_rules_refusals(tmp_path: Path) -> None:
    """Errors: an unknown expansion or path is a RulesError; a broken file is a RuleFileError
    carrying path, line and column."""
    with pytest.raises(sw.RulesError, match="no_such_expansion"):
        sw.load_rules(expansions=["no_such_expansion"])
    with pytest.raises(sw.RulesError, match="missing"):
        sw.load_rules(paths=[tmp_path / "missing"])
    broken = tmp_path / "oops.swr"
    broken.write_text('race oops "Oops" {\n    tokens 5\n    box 10\n    tokkens 3\n}\n', "utf-8")
    with pytest.raises(sw.RuleFileError) as info:
        sw.load_rules(paths=[broken])
    err = info.value
    assert isinstance(err, sw.RulesError) and isinstance(err, ValueError)
    assert Path(err.path).name == "oops.swr" and err.line == 4 and err.column >= 1
    assert str(err).startswith(f"{err.path}:4:{err.column}:")


def test_error_hierarchy_section_6() -> None:
    """Errors: RulesError is a ValueError and the base of IllegalAction, RuleFileError and
    MapError."""
    assert issubclass(sw.RulesError, ValueError)
    for cls in (sw.IllegalAction, sw.RuleFileError, sw.MapError):
        assert issubclass(cls, sw.RulesError)


# ---------------------------------------------------------------- Game.new


def test_new_game_defaults(rules: sw.Rules) -> None:
    """Rule 1.2: ``Game.new`` picks the official map for the player count; 5 coins each;
    6 visible combos (as far as banners and badges last); player 0 picks first."""
    for players in (2, 3, 4, 5):
        g = sw.Game.new(players=players, seed=4, rules=rules)
        assert g.players == players and g.map_name == f"{players}p"
        assert [g.coins(p) for p in range(players)] == [5] * players
        assert len(g.market) == min(6, len(rules.races), len(rules.powers))
        assert (g.round, g.active_player, g.to_move, g.phase) == (1, 0, 0, sw.Phase.PICK)
        assert not g.is_over and g.winners == []
        assert g.seed == 4
    default = sw.Game.new()
    assert default.players == 2 and default.map_name == "2p"
    assert default.rules.races.keys() == sw.load_rules().races.keys()


def test_market_entries_are_tuples(rules: sw.Rules) -> None:
    """``game.market`` lists visible combos top to bottom as (race, power, coins) tuples,
    each race and power once."""
    g = sw.Game.new(players=2, seed=9, rules=rules)
    races = [r for r, _, _ in g.market]
    powers = [p for _, p, _ in g.market]
    for entry in g.market:
        assert isinstance(entry, tuple) and len(entry) == 3
        assert entry[0] in rules.races and entry[1] in rules.powers and entry[2] == 0
    assert len(set(races)) == len(races) and len(set(powers)) == len(powers)


def test_seed_decides_the_shuffle(rules: sw.Rules) -> None:
    """All randomness comes from the seed: the same seed gives the same market, and the
    seed does change the shuffle."""
    assert sw.Game.new(seed=5, rules=rules).market == sw.Game.new(seed=5, rules=rules).market
    markets = {tuple(sw.Game.new(seed=s, rules=rules).market) for s in range(10)}
    assert len(markets) > 1


def test_combos_fix_market_and_stacks(big_rules: sw.Rules) -> None:
    """The first six combos are the visible ones top to bottom; the rest form the stacks in
    order, so they are revealed next."""
    combos = [
        ("ratmen", "plain"), ("crowd", "plain2"), ("elves", "forest"), ("giants", "commando"),
        ("miners", "wealthy"), ("raiders", "warded"), ("scouts", "bulky"), ("settlers", "plain3"),
    ]
    g = sw.Game.new(players=2, seed=1, rules=big_rules, combos=combos)
    assert g.market == [(r, p, 0) for r, p in combos[:6]]
    g.apply(sw.PickCombo(0))
    assert g.market == [(r, p, 0) for r, p in combos[1:7]]
    assert (g.active_race(0), g.active_power(0)) == combos[0]
    g.apply(sw.Conquer(1))
    deploy_all_and_end(g)
    g.apply(sw.PickCombo(0))
    assert g.market[-1] == (*combos[7], 0)
    # Fixing two combos: the other four visible ones come from the shuffle, without them.
    g2 = sw.Game.new(players=2, seed=1, rules=big_rules, combos=combos[:2])
    assert g2.market[:2] == [(r, p, 0) for r, p in combos[:2]]
    rest = g2.market[2:]
    assert not {r for r, _, _ in rest} & {"ratmen", "crowd"}
    assert not {p for _, p, _ in rest} & {"plain", "plain2"}


def test_map_override(rules: sw.Rules) -> None:
    """``map=`` overrides the board: 3 players on the 4p map play its 9 turns in a
    three-player rotation."""
    g = sw.Game.new(players=3, seed=2, rules=rules, map="4p")
    assert g.map_name == "4p" and g.players == 3 and len(g.map.regions) == 39
    assert g.map.turns == 9
    for expected in (0, 1, 2):
        assert g.active_player == expected and g.round == 1
        g.apply(sw.PickCombo(0))
        conquer = next(a for a in g.legal_actions() if isinstance(a, sw.Conquer))
        g.apply(conquer)
        deploy_all_and_end(g)
    assert (g.round, g.active_player) == (2, 0)
    with pytest.raises(sw.RulesError):
        g.coins(3)


def test_new_game_refusals(rules: sw.Rules) -> None:
    """Bad arguments are refused with a RulesError: unknown race/power ids (listing the known
    ones), duplicate ids, malformed combos, unknown option names (listing the known ones), wrong
    option types, bad chance value, bad player counts and seeds."""
    with pytest.raises(sw.RulesError, match="'dwarvez'") as info:
        sw.Game.new(rules=rules, combos=[("dwarvez", "plain")])
    assert all(r in str(info.value) for r in rules.races)
    with pytest.raises(sw.RulesError, match="'flyin'") as info:
        sw.Game.new(rules=rules, combos=[("ratmen", "flyin")])
    assert all(p in str(info.value) for p in rules.powers)
    with pytest.raises(sw.RulesError, match="ratmen"):
        sw.Game.new(rules=rules, combos=[("ratmen", "plain"), ("ratmen", "plain2")])
    with pytest.raises(sw.RulesError, match="plain"):
        sw.Game.new(rules=rules, combos=[("ratmen", "plain"), ("crowd", "plain")])
    with pytest.raises(sw.RulesError):
        sw.Game.new(rules=rules, combos=[("ratmen",)])  # type: ignore[list-item]
    with pytest.raises(sw.RulesError, match="no_such_option") as info:
        sw.Game.new(rules=rules, options={"no_such_option": True})
    assert all(name in str(info.value) for name in CORE_OPTIONS)
    with pytest.raises(sw.RulesError, match="abandon_mid_conquest"):
        sw.Game.new(rules=rules, options={"abandon_mid_conquest": "yes"})
    with pytest.raises(sw.RulesError, match="chance"):
        sw.Game.new(rules=rules, chance="loaded")
    for players in (0, 1, 9, -2, "3", 2.0, True, None):
        with pytest.raises(sw.RulesError):
            sw.Game.new(players=players, rules=rules)  # type: ignore[arg-type]
    with pytest.raises(sw.RulesError, match="seed"):
        sw.Game.new(seed="7", rules=rules)  # type: ignore[arg-type]


def test_options_with_defaults(rules: sw.Rules) -> None:
    """``game.options`` names every option in force, defaults included; a given option
    overrides its default; the returned mapping is a copy."""
    g = sw.Game.new(rules=rules)
    defaults = {name: option.default for name, option in rules.options.items()}
    assert set(CORE_OPTIONS) <= set(defaults) and g.options == defaults
    assert g.options["abandon_mid_conquest"] is False  # A5 default
    changed = sw.Game.new(rules=rules, options={"abandon_mid_conquest": True})
    assert changed.options == {**defaults, "abandon_mid_conquest": True}
    changed.options["abandon_mid_conquest"] = False
    assert changed.options["abandon_mid_conquest"] is True


def test_option_changes_play(rules: sw.Rules) -> None:
    """A5 as an option: with ``abandon_mid_conquest`` a region may be abandoned after a
    conquest; by default it may not."""
    for allowed in (False, True):
        g = new_game(rules, [("ratmen", "plain"), ("crowd", "plain2")],
                     options={"abandon_mid_conquest": allowed})
        g.apply(sw.PickCombo(0))
        g.apply(sw.Conquer(1))
        assert (sw.Abandon(1) in g.legal_actions()) is allowed


# ---------------------------------------------------------------- legal actions


def test_legal_actions_protocol(game: sw.Game) -> None:
    """``legal_actions()`` is iterable, sized and answers ``in``; everything it lists is
    accepted by ``apply``; non-actions are simply not in it."""
    legal = game.legal_actions()
    listed = list(legal)
    assert len(legal) == len(listed) > 0
    assert all(a in legal for a in listed)
    assert legal[0] == listed[0]
    assert sw.Conquer(7) not in legal  # the Lake
    assert "Conquer(1)" not in legal and None not in legal and 1 not in legal
    for action in listed:
        twin = game.clone()
        twin.apply(action)
    assert sw.Conquer(1) in legal and sw.Conquer(12) not in legal


def test_legal_deploy_counts_not_listed_are_in(game: sw.Game) -> None:
    """During redeployment the list stays small (1 or all per region) but any legal count is
    ``in`` it."""
    game.apply(sw.Conquer(1))
    game.apply(sw.Conquer(2))
    game.apply(sw.Deploy(1, 1))
    deploys = {a for a in game.legal_actions() if isinstance(a, sw.Deploy)}
    assert deploys == {sw.Deploy(1, 1), sw.Deploy(1, 5), sw.Deploy(2, 1), sw.Deploy(2, 5)}
    assert sw.Deploy(2, 3) in game.legal_actions()
    assert sw.Deploy(2, 6) not in game.legal_actions()
    assert sw.Deploy(3, 1) not in game.legal_actions()


def test_legal_actions_is_a_snapshot(rules: sw.Rules) -> None:
    """``legal_actions()`` lists the actions legal when it was called (a value), not those
    of whatever position the game reaches later."""
    g = new_game(rules, [("ratmen", "plain"), ("crowd", "plain2")])
    legal = g.legal_actions()
    g.apply(sw.PickCombo(0))
    assert sw.PickCombo(0) in legal
    assert all(isinstance(a, sw.PickCombo) for a in legal)


def test_membership_of_malformed_deploy_is_false(game: sw.Game) -> None:
    """``in`` answers True or False for any object; a Deploy with a non-integer field is
    not legal."""
    game.apply(sw.Conquer(1))
    assert sw.Deploy("1", 1) not in game.legal_actions()  # type: ignore[arg-type]


# ---------------------------------------------------------------- illegal actions change nothing


Setup = Callable[[sw.Rules], sw.Game]


def _picked(rules: sw.Rules) -> sw.Game:
    g = new_game(rules, [("ratmen", "plain"), ("crowd", "plain2")])
    g.apply(sw.PickCombo(0))
    return g


def _fresh(rules: sw.Rules) -> sw.Game:
    return new_game(rules, [("ratmen", "plain"), ("crowd", "plain2")])


def _conquered(rules: sw.Rules) -> sw.Game:
    g = _picked(rules)
    g.apply(sw.Conquer(1))
    return g


def _second_turn(rules: sw.Rules) -> sw.Game:
    """Player 1 (Crowd, region 20) to act; player 0's Ratmen hold region 1."""
    g = _conquered(rules)
    deploy_all_and_end(g)
    g.apply(sw.PickCombo(0))
    g.apply(sw.Conquer(20))
    return g


def _guarded(rules: sw.Rules) -> sw.Game:
    """Player 0's Ratmen (8 in hand) face 7 Crowd tokens in region 2: cost 9."""
    g = _picked(rules)
    g.put(2, 1, 7, race="crowd")
    return g


ILLEGAL: list[tuple[str, Setup, Any, str]] = [
    ("conquer before picking", _fresh, sw.Conquer(1), "phase"),
    ("deploy before picking", _fresh, sw.Deploy(1, 1), "phase"),
    ("end turn with a market", _fresh, sw.EndTurn(), "pick"),
    ("pick out of range", _fresh, sw.PickCombo(6), "position 6"),
    ("pick negative", _fresh, sw.PickCombo(-1), "position"),
    ("pick after picking", _picked, sw.PickCombo(0), "phase"),
    ("roll without a pending die", _picked, sw.RollDie(2), "phase"),
    ("decline in pick turn", _picked, sw.Decline(), "picked"),
    ("interior first conquest", _picked, sw.Conquer(12), "border"),
    ("the Lake", _picked, sw.Conquer(7), "water"),
    ("a Sea", _picked, sw.Conquer(0), "water"),
    ("no such region", _picked, sw.Conquer(99), "no region"),
    ("negative region", _picked, sw.Conquer(-1), "no region"),
    ("unreachable region", _conquered, sw.Conquer(17), "not adjacent"),
    ("own active region", _conquered, sw.Conquer(1), "already hold"),
    ("abandon unheld region", _picked, sw.Abandon(1), "not held"),
    ("deploy on unheld region", _conquered, sw.Deploy(2, 1), "not held"),
    ("deploy too many", _conquered, sw.Deploy(1, 99), "1 to"),
    ("deploy zero", _conquered, sw.Deploy(1, 0), "1 to"),
    ("end turn with tokens in hand", _conquered, sw.EndTurn(), "place the"),
    ("die not needed", _picked, sw.ConquerWithDie(1), "without the die"),
    ("unknown ability", _picked, sw.UseAbility("fly"), "UseAbility"),
    ("wrong player's region: abandon", _second_turn, sw.Abandon(1), "not held"),
    ("wrong player's region: deploy", _second_turn, sw.Deploy(1, 1), "not held"),
    ("too few tokens", _guarded, sw.Conquer(2), "costs 9 tokens and you have 8"),
    ("not an action: string", _picked, "Conquer(1)", "not an action"),
    ("not an action: dict", _picked, {"type": "Conquer", "region": 1}, "not an action"),
    ("not an action: None", _picked, None, "not an action"),
]


@pytest.mark.parametrize(("setup", "action", "reason"),
                         [pytest.param(s, a, r, id=i) for i, s, a, r in ILLEGAL])
def test_illegal_action_changes_nothing(
    rules: sw.Rules, setup: Setup, action: Any, reason: str
) -> None:
    """``apply`` of an illegal action raises IllegalAction with a reason and leaves the game
    byte-identical (state, log and undo history)."""
    g = setup(rules)
    before, log, twin = g.to_json(), g.log, g.clone()
    assert action not in g.legal_actions()
    with pytest.raises(sw.IllegalAction, match=reason) as info:
        g.apply(action)
    assert isinstance(info.value.reason, str) and info.value.reason
    if isinstance(action, tuple(ACTION_TYPES.values())):
        assert info.value.action == action
    assert g.to_json() == before and g.log == log
    # The undo history is untouched too: one undo lands where the twin's does.
    for one in (g, twin):
        with contextlib.suppress(sw.RulesError):
            one.undo()
    assert g.to_json() == twin.to_json()


def test_illegal_look_alike_action_refused(game: sw.Game) -> None:
    """Only the library's own action classes are actions; a look-alike is refused."""

    @attrs.frozen
    class Conquer:
        region: int

    before = game.to_json()
    with pytest.raises(sw.IllegalAction, match="not an action"):
        game.apply(Conquer(1))  # type: ignore[arg-type]
    assert game.to_json() == before


@pytest.mark.parametrize(
    "action", [sw.PickCombo("0"), sw.Conquer("1"), sw.Conquer(1.5)],  # type: ignore[arg-type]
    ids=["pick-str", "conquer-str", "conquer-float"],
)
def test_malformed_action_is_illegal(rules: sw.Rules, action: sw.Action) -> None:
    """Apply raises IllegalAction (a RulesError) for any action it cannot play, including
    one whose fields have the wrong type, and changes nothing."""
    g = _picked(rules) if not isinstance(action, sw.PickCombo) else _fresh(rules)
    before = g.to_json()
    with pytest.raises(sw.IllegalAction):
        g.apply(action)
    assert g.to_json() == before


def test_game_over_refuses_everything(rules: sw.Rules) -> None:
    """Rule 1.14: once the game is over nothing is legal and every action is refused."""
    g = new_game(rules, [("ratmen", "plain"), ("crowd", "plain2")])
    random_playout(g, random.Random(5), 10_000)
    assert g.is_over and g.to_move is None and len(g.legal_actions()) == 0
    before = g.to_json()
    for action in (sw.EndTurn(), sw.PickCombo(0), sw.Decline()):
        with pytest.raises(sw.IllegalAction, match="over"):
            g.apply(action)
    assert g.to_json() == before


# ---------------------------------------------------------------- undo and clone


def test_undo_restores_every_step(rules: sw.Rules) -> None:
    """``undo`` restores the exact previous state (to_json and log) step after step, back
    to the start; then it raises RulesError."""
    g = new_game(rules, [("ratmen", "plain"), ("crowd", "plain2")], chance="explicit")
    snapshots = [(g.to_json(), g.log)]
    g.set_coins(1, 9)
    snapshots.append((g.to_json(), g.log))
    g.put(16, 1, 2, race="crowd")
    snapshots.append((g.to_json(), g.log))
    rng = random.Random(3)
    for _ in range(60):
        if random_playout(g, rng, 1):
            snapshots.append((g.to_json(), g.log))
    assert len(snapshots) > 40
    snapshots.pop()  # the current position
    for expected in reversed(snapshots):
        g.undo()
        assert (g.to_json(), g.log) == expected
    with pytest.raises(sw.RulesError, match="nothing to undo"):
        g.undo()


def test_undo_nothing_to_undo(rules: sw.Rules) -> None:
    """A new game, or one restored with from_json, has nothing to undo."""
    g = new_game(rules, [])
    with pytest.raises(sw.RulesError):
        g.undo()
    g.apply(sw.PickCombo(0))
    restored = sw.Game.from_json(g.to_json(), rules=rules)
    with pytest.raises(sw.RulesError):
        restored.undo()


def test_clone_is_independent(game: sw.Game) -> None:
    """``clone()`` gives an independent game: actions and undo on one never change the
    other, in both directions."""
    start = game.to_json()
    twin = game.clone()
    assert twin.to_json() == start and twin.log == game.log
    twin.apply(sw.Conquer(1))
    assert game.to_json() == start and game.region(1).owner is None
    game.apply(sw.Conquer(2))
    after_two = game.to_json()
    assert twin.region(2).owner is None and twin.region(1).owner == 0
    twin.undo()
    assert twin.to_json() == start and game.to_json() == after_two
    game.undo()
    game.undo()  # back past the pick: the twin shares that history but keeps its own state
    assert game.active_race(0) is None
    assert twin.to_json() == start and twin.active_race(0) == "ratmen"
    twin.set_coins(0, 1)
    assert game.coins(0) == 5
    twin.undo()
    twin.undo()
    assert twin.to_json() == game.to_json()


# ---------------------------------------------------------------- reading the position


def test_position_views_through_a_turn(rules: sw.Rules) -> None:
    """Rule 1.5: after a pick the player's hand is banner + badge tokens, the active race and
    power are known; region views show owner, race, tokens; coins follow rule 1.11 scoring."""
    g = new_game(rules, [("ratmen", "plain"), ("crowd", "plain2")])
    assert g.active_race(0) is None and g.active_power(0) is None and g.hand(0) == 0
    g.apply(sw.PickCombo(0))
    tokens = rules.races["ratmen"].tokens + rules.powers["plain"].tokens
    assert (g.active_race(0), g.active_power(0), g.hand(0)) == ("ratmen", "plain", tokens)
    assert g.declined_races(0) == [] and g.phase is sw.Phase.CONQUEST
    g.apply(sw.Conquer(3))  # the Lost Tribe Swamp: 2 + 1
    view = g.region(3)
    assert isinstance(view, sw.RegionView)
    assert (view.id, view.terrain, view.owner, view.race, view.tokens) == (
        3, "swamp", 0, "ratmen", 3,
    )
    assert not view.declined and not view.lost_tribe and dict(view.pieces) == {}
    assert g.hand(0) == tokens - 3
    g.apply(sw.Deploy(3, g.hand(0) + 2))
    assert g.phase is sw.Phase.REDEPLOY and g.hand(0) == 0
    g.apply(sw.EndTurn())
    assert g.coins(0) == 5 + 1 and g.active_player == 1 and g.to_move == 1
    assert g.round == 1 and g.phase is sw.Phase.PICK


def test_region_view_of_lost_tribe_and_empty(rules: sw.Rules) -> None:
    """A Lost Tribe region has no owner or race, ``lost_tribe`` set and its token counted;
    an empty region has nothing."""
    g = new_game(rules, [])
    tribe, empty = g.region(6), g.region(1)
    assert (tribe.owner, tribe.race, tribe.tokens, tribe.lost_tribe, tribe.declined) == (
        None, None, 1, True, False,
    )
    assert (empty.owner, empty.race, empty.tokens, empty.lost_tribe) == (None, None, 0, False)
    assert g.region(7).terrain == "lake" and g.region(0).terrain == "sea"


def test_region_view_declined_and_pieces(game: sw.Game) -> None:
    """``declined`` marks tokens of a race in decline; ``pieces`` maps piece name to count
    and is a copy (the view is frozen)."""
    game.put(16, 1, 2, declined=True, race="crowd", pieces={"ward": 1, "sanctum": 1})
    view = game.region(16)
    assert (view.owner, view.race, view.tokens, view.declined) == (1, "crowd", 2, True)
    assert dict(view.pieces) == {"ward": 1, "sanctum": 1}
    assert game.declined_races(1) == ["crowd"] and game.active_race(1) is None
    with pytest.raises(AttributeError):
        view.tokens = 5  # type: ignore[misc]
    with contextlib.suppress(TypeError):  # a read-only mapping is fine too
        view.pieces["ward"] = 9  # type: ignore[index]
    assert game.region(16).pieces["ward"] == 1


def test_bad_lookups_refused(game: sw.Game) -> None:
    """Unknown regions, players and zones are RulesErrors, not IndexErrors."""
    for region in (-1, 23, "1", True, None):
        with pytest.raises(sw.RulesError):
            game.region(region)  # type: ignore[arg-type]
    for player in (-1, 2, "0"):
        for look in (game.coins, game.hand, game.active_race, game.declined_races):
            with pytest.raises(sw.RulesError):
                look(player)  # type: ignore[arg-type]
    with pytest.raises(sw.RulesError, match="well"):
        game.zone("well")
    with pytest.raises(sw.RulesError, match="island"):
        game.zone("island", player=0)


def test_decline_views(rules: sw.Rules) -> None:
    """Rule 1.12 through the API: after Decline the race is listed in ``declined_races``, there is
    no active race or power, the hand is 0 and the regions show ``declined``."""
    g = _second_turn(rules)
    deploy_all_and_end(g)
    g.apply(sw.Decline())
    assert g.declined_races(0) == ["ratmen"] and g.active_race(0) is None
    assert g.active_power(0) is None and g.hand(0) == 0
    view = g.region(1)
    assert view.declined and view.owner == 0 and view.race == "ratmen" and view.tokens == 1
    assert g.active_player == 1


def test_to_move_defender_chance_and_over(rules: sw.Rules) -> None:
    """``to_move`` is the defender during withdrawals (while ``active_player`` stays the
    attacker), CHANCE at a die roll, and None once the game is over."""
    w = at_withdrawal(rules)
    assert w.to_move == 1 and w.active_player == 0 and w.hand(1) == 2
    d = at_die_roll(rules)
    assert d.to_move == sw.CHANCE and d.active_player == 0
    assert set(d.legal_actions()) == {sw.RollDie(f) for f in set(DIE_FACES)}
    over = new_game(rules, [])
    random_playout(over, random.Random(1), 10_000)
    assert over.is_over and over.to_move is None and over.phase is sw.Phase.OVER
    assert over.winners and set(over.winners) <= set(range(2))
    best = max(over.coins(p) for p in range(2))
    assert all(over.coins(p) == best for p in over.winners)
    assert over.round == over.map.turns


# ---------------------------------------------------------------- conquest costs


def test_explain_giants_commando_clamped_section_1_7() -> None:
    """Rule 1.7 / ruling 24 / the hook points: Giants+Commando next to a Mountain the Giants hold:
    2 −1 (Giants) −1 (Commando) = 0, clamped to 1; both rule files and lines are named."""
    rules = sw.load_rules()
    g = sw.Game.new(players=2, seed=1, rules=rules, combos=[("giants", "commando")])
    g.apply(sw.PickCombo(0))
    g.apply(sw.Conquer(5))  # the edge Mountain: 2 + 1 (Mountain) − 1 (Commando)
    b = g.explain_conquest_cost(1)  # empty Farmland next to region 5
    assert isinstance(b, sw.Breakdown)
    assert (b.value, b.base, b.clamped_from) == (1, 2, 0)
    assert g.conquest_cost(1) == 1 == int(b)
    giants, commando = rules.races["giants"], rules.powers["commando"]
    assert [(c.label, c.op, c.amount, c.path, c.line) for c in b.contributions] == [
        ("Giants", "sub", 1, giants.path, rule_line(giants.path, "conquest_cost")),
        ("Commando", "sub", 1, commando.path, rule_line(commando.path, "conquest_cost")),
    ]
    assert all(isinstance(c, sw.Contribution) for c in b.contributions)
    text = b.explain()
    assert "clamped from 0" in text and text.endswith("= 1")
    assert f"{Path(giants.path).name}:{b.contributions[0].line}" in text
    # Not next to the Mountain: only Commando applies, nothing is clamped.
    far = g.explain_conquest_cost(2)
    assert (far.value, far.clamped_from) == (1, None)
    assert [c.label for c in far.contributions] == ["Commando"]


def test_conquest_cost_is_what_a_conquest_takes(game: sw.Game) -> None:
    """Rule 1.7: the cost ``conquest_cost`` reports is exactly the tokens a Conquer moves from hand
    (and what the Conquered event records); core contributions name ``<core>``."""
    game.put(1, 1, 2, race="crowd")
    b = game.explain_conquest_cost(1)
    assert b.value == 2 + 2 and b.clamped_from is None
    assert [(c.label, c.amount, c.path, c.line) for c in b.contributions] == [
        ("Crowd tokens", 2, "<core>", None)
    ]
    mountain = game.explain_conquest_cost(5)
    assert mountain.value == 3 and [c.label for c in mountain.contributions] == ["Mountain"]
    hand = game.hand(0)
    game.apply(sw.Conquer(1))
    assert game.hand(0) == hand - b.value
    event = [e for e in game.log if isinstance(e, ev.Conquered)][-1]
    assert event.cost == b.value and game.region(1).tokens == b.value


def test_conquest_cost_needs_an_acting_race(rules: sw.Rules) -> None:
    """With no active race there is nothing to price: RulesError (also for a bad region)."""
    g = new_game(rules, [])
    with pytest.raises(sw.RulesError, match="no active race"):
        g.conquest_cost(1)
    g.apply(sw.PickCombo(0))
    with pytest.raises(sw.RulesError):
        g.explain_conquest_cost(99)


# ---------------------------------------------------------------- chance


def test_chance_outcomes_section_1_1(rules: sw.Rules) -> None:
    """Rule 1.1: at a chance node the die outcomes are the distinct faces of 0,0,0,1,2,3 with
    their probabilities (summing to 1); applying one resolves the attempt."""
    g = at_die_roll(rules)
    outcomes = g.chance_outcomes()
    faces = (0, 0, 0, 1, 2, 3)
    assert {a.face: p for a, p in outcomes} == {
        f: pytest.approx(faces.count(f) / 6) for f in set(faces)
    }
    assert sum(p for _, p in outcomes) == pytest.approx(1.0)
    assert all(isinstance(a, sw.RollDie) and a in g.legal_actions() for a, _ in outcomes)
    with pytest.raises(sw.IllegalAction, match="face"):
        g.apply(sw.RollDie(5))
    g.apply(sw.RollDie(3))  # 1 in hand + 3 ≥ 3
    assert g.region(5).owner == 0 and g.phase is sw.Phase.REDEPLOY


def test_chance_outcomes_only_at_chance_node(rules: sw.Rules) -> None:
    """``chance_outcomes()`` raises RulesError when the game is not at a chance node; a
    seeded game never stops at one."""
    g = new_game(rules, [("ratmen", "plain")], chance="explicit")
    with pytest.raises(sw.RulesError, match="chance"):
        g.chance_outcomes()
    seeded = new_game(rules, [("ratmen", "plain")])
    seeded.apply(sw.PickCombo(0))
    for region in (1, 2, 6):
        seeded.apply(sw.Conquer(region))
    seeded.apply(sw.ConquerWithDie(5))
    assert seeded.to_move != sw.CHANCE and seeded.phase is sw.Phase.REDEPLOY
    with pytest.raises(sw.RulesError):
        seeded.chance_outcomes()


# ---------------------------------------------------------------- set-up calls


def test_put_respects_the_box_section_1_1(game: sw.Game, rules: sw.Rules) -> None:
    """Rule 1.1: ``put`` takes tokens from the box and never more than it holds; what was in
    the region goes back first; the refusal changes nothing."""
    in_box = rules.races["ratmen"].box - game.hand(0)
    before = game.to_json()
    with pytest.raises(sw.RulesError, match=f"only {in_box}"):
        game.put(1, 0, in_box + 1)
    assert game.to_json() == before
    game.put(1, 0, in_box)
    assert saved_state(game)["box"]["ratmen"] == 0 and game.region(1).tokens == in_box
    game.put(1, 0, in_box)  # the same tokens go back to the box and come out again
    game.clear(1)
    assert saved_state(game)["box"]["ratmen"] == in_box and game.region(1).owner is None
    game._engine.check_invariants(game._state)


def test_put_lost_tribe_respects_the_box_section_1_1(rules: sw.Rules) -> None:
    """Rule 1.1: there are 18 Lost Tribe tokens; the 2p board already uses 9 of them, so putting
    10 more in one region exceeds the box and must be refused."""
    g = new_game(rules, [])
    on_board = sum(g.region(r).tokens for r in range(23) if g.region(r).lost_tribe)
    with pytest.raises(sw.RulesError):
        g.put(1, None, 18 - on_board + 1)


def test_put_pieces_and_players(game: sw.Game) -> None:
    """``put`` places pieces from their supply (one-per-region and supply limits hold,
    unknown names are refused listing the known ones) and refuses impossible races."""
    with pytest.raises(sw.RulesError, match="known"):
        game.put(1, 0, 1, pieces={"castle": 1})
    with pytest.raises(sw.RulesError, match="at most one"):
        game.put(1, 0, 1, pieces={"ward": 2})
    game.put(1, 0, 1, pieces={"sanctum": 1})
    game.put(2, 0, 1, pieces={"sanctum": 1})
    with pytest.raises(sw.RulesError, match="sanctum"):
        game.put(4, 0, 1, pieces={"sanctum": 1})
    with pytest.raises(sw.RulesError):
        game.put(4, 0, 0)
    with pytest.raises(sw.RulesError, match="has no race in decline"):
        game.put(4, 0, 1, declined=True)
    with pytest.raises(sw.RulesError, match="already has an active race"):
        game.put(4, 0, 1, race="crowd")
    with pytest.raises(sw.RulesError, match="unknown race"):
        game.put(4, 1, 1, race="dwarvez")
    with pytest.raises(sw.RulesError):
        game.put(4, 5, 1)


def test_setup_calls_refused_mid_turn(rules: sw.Rules, game: sw.Game) -> None:
    """Positions are set up between turns: after a conquest, during redeployment, a
    withdrawal or a die roll, ``put``/``clear``/``set_coins`` are refused and change nothing."""
    game.apply(sw.Conquer(1))
    games = [game, at_withdrawal(rules), at_die_roll(rules)]
    redeploy = game.clone()
    redeploy.apply(sw.Deploy(1, 1))
    games.append(redeploy)
    for g in games:
        before = g.to_json()
        for call in (lambda g=g: g.put(17, 0, 1), lambda g=g: g.clear(1),
                     lambda g=g: g.set_coins(0, 3)):
            with pytest.raises(sw.RulesError, match="between turns"):
                call()
        assert g.to_json() == before


def test_setup_calls_are_undoable_and_logged(game: sw.Game) -> None:
    """Each set-up call is one undo step and logs a PositionEdited event."""
    start = game.to_json()
    game.put(16, 1, 2, race="crowd")
    game.clear(3)
    game.set_coins(1, 17)
    assert game.coins(1) == 17 and game.region(3).tokens == 0
    assert [type(e) for e in game.log[-3:]] == [ev.PositionEdited] * 3
    for _ in range(3):
        game.undo()
    assert game.to_json() == start
    with pytest.raises(sw.RulesError):
        game.set_coins(0, -1)
    with pytest.raises(sw.RulesError):
        game.set_coins(2, 1)
    assert game.to_json() == start


# ---------------------------------------------------------------- saving


def test_json_round_trip_at_many_points(rules: sw.Rules) -> None:
    """``to_json``/``from_json`` round-trip exactly at the start, after a pick, mid-conquest,
    at a withdrawal, at a die roll, in redeployment and at the end; a restored game plays on
    exactly like the original."""
    points = [_fresh(rules), _picked(rules), _conquered(rules), at_withdrawal(rules),
              at_die_roll(rules)]
    redeploy = _conquered(rules)
    redeploy.apply(sw.Deploy(1, 1))
    points.append(redeploy)
    over = _fresh(rules)
    random_playout(over, random.Random(8), 10_000)
    points.append(over)
    for g in points:
        text = g.to_json()
        restored = sw.Game.from_json(text, rules=rules)
        assert restored.to_json() == text
        assert restored.log == g.log and restored.phase is g.phase
        assert restored.to_move == g.to_move and restored.seed == g.seed
        assert restored.options == g.options and restored.map_name == g.map_name
        rng_a, rng_b = random.Random(2), random.Random(2)
        random_playout(g, rng_a, 40)
        random_playout(restored, rng_b, 40)
        assert restored.to_json() == g.to_json()


def test_json_document_shape(rules: sw.Rules) -> None:
    """The saved game is plain JSON carrying its format tag and version; with the official
    rules ``from_json`` needs no ``rules=`` argument."""
    g = sw.Game.new(players=3, seed=4)
    g.apply(sw.PickCombo(0))
    doc = json.loads(g.to_json())
    assert doc["format"] == "smallworld_rules/game" and doc["version"] == 3
    assert doc["map"] == "3p" and doc["players"] == 3 and doc["seed"] == 4
    assert sw.Game.from_json(g.to_json()).to_json() == g.to_json()


def test_json_round_trip_on_a_custom_map(tmp_path: Path) -> None:
    """A game on a map given by path (``Game.new(map=path)``) also round-trips through
    ``to_json``/``from_json``."""
    board = tmp_path / "island.json"
    text = resources.files("smallworld_rules.maps").joinpath("2p.json").read_text("utf-8")
    board.write_text(text, encoding="utf-8")
    g = sw.Game.new(players=2, seed=1, map=str(board))
    g.apply(sw.PickCombo(0))
    saved = g.to_json()
    assert sw.Game.from_json(saved).to_json() == saved


def corrupt(rules: sw.Rules, mutate: Callable[[dict[str, Any]], Any]) -> str:
    """Save a mid-turn game, damage the document, return the RulesError message."""
    g = _conquered(rules)
    doc = json.loads(g.to_json())
    mutate(doc)
    with pytest.raises(sw.RulesError) as info:
        sw.Game.from_json(json.dumps(doc), rules=rules)
    return str(info.value)


def _set(path: list[Any], value: Any) -> Callable[[dict[str, Any]], None]:
    def mutate(doc: dict[str, Any]) -> None:
        target = doc
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value

    return mutate


def test_from_json_refuses_corrupt_text(rules: sw.Rules) -> None:
    """Corrupt input is refused with a RulesError naming what is wrong."""
    for text in ("", "{", "not json", "\x00"):
        with pytest.raises(sw.RulesError, match="JSON"):
            sw.Game.from_json(text, rules=rules)
    for text in ("[]", "null", "3", '{"a": 1}'):
        with pytest.raises(sw.RulesError, match="format"):
            sw.Game.from_json(text, rules=rules)


CORRUPTIONS: list[tuple[str, Callable[[dict[str, Any]], Any], str]] = [
    ("format tag", _set(["format"], "chess/game"), "format"),
    ("version", _set(["version"], 99), "version"),
    ("missing key", lambda d: d.pop("state"), "state"),
    ("missing state key", lambda d: d["state"].pop("box"), "box"),
    ("negative tokens", _set(["state", "region_tokens", 3], -1), r"region_tokens\[3\]"),
    ("unknown race", _set(["state", "region_race", 2], "dwarvez"), "dwarvez"),
    ("short region list", lambda d: d["state"]["region_race"].pop(), "region_race"),
    ("long token list", lambda d: d["state"]["region_tokens"].append(0), "region_tokens"),
    ("conservation", _set(["state", "region_tokens", 1], 5), "ratmen"),
    ("market race twice",
     lambda d: d["state"]["market"][1].__setitem__(0, d["state"]["market"][0][0]),
     "banner"),
    ("bad phase", _set(["state", "phase"], "attack"), "attack"),
    ("negative coins", _set(["state", "players", 0, "coins"], -3), "coins"),
    ("players mismatch", _set(["players"], 3), "players"),
    ("bad log event", lambda d: d["log"].append({"type": "Nope"}), "Nope"),
    ("bad option", _set(["options", "abandon_mid_conquest"], 1), "abandon_mid_conquest"),
    ("unknown map", _set(["map"], "7p"), "7p"),
    ("phase without race", _set(["state", "active"], 1), "active race"),
]


@pytest.mark.parametrize(("mutate", "named"),
                         [pytest.param(m, n, id=i) for i, m, n in CORRUPTIONS])
def test_from_json_refuses_corrupt_documents(
    rules: sw.Rules, mutate: Callable[[dict[str, Any]], Any], named: str
) -> None:
    """A damaged saved game is refused with a RulesError whose message names the
    field or rule that is broken (never half-loaded, never another exception)."""
    message = corrupt(rules, mutate)
    assert re.search(named, message), message


# ---------------------------------------------------------------- log and actions


def test_log_is_typed_and_round_trips(rules: sw.Rules) -> None:
    """``log`` is a tuple of typed events in order; each ``to_dict()`` is JSON and goes back
    through ``event_from_dict`` to an equal event."""
    g = at_withdrawal(rules)
    g.apply(sw.Deploy(17, 2))
    random_playout(g, random.Random(4), 200)
    log = g.log
    assert isinstance(log, tuple) and log
    kinds = {type(e) for e in log}
    assert {ev.TurnStarted, ev.ComboPicked, ev.Conquered, ev.Deployed, ev.Scored,
            ev.TurnEnded, ev.PositionEdited} <= kinds
    for event in log:
        assert isinstance(event, ev.Event) and type(event).__name__ in EVENT_TYPES
        data = event.to_dict()
        assert data["type"] == type(event).__name__
        assert event_from_dict(json.loads(json.dumps(data))) == event
    with pytest.raises(sw.RulesError):
        event_from_dict({"type": "Conquered"})
    with pytest.raises(sw.RulesError):
        event_from_dict(["TurnStarted"])


def test_log_order_of_a_turn_section_1_4(rules: sw.Rules) -> None:
    """Rule 1.4: a first turn logs pick, conquests, redeployment, scoring and its end, then the next
    player's turn starts."""
    g = _picked(rules)
    g.apply(sw.Conquer(1))
    g.apply(sw.Deploy(1, 7))  # 8 − 2 in hand, + 1 taken back from region 1
    g.apply(sw.EndTurn())
    assert [type(e) for e in g.log] == [
        ev.TurnStarted, ev.ComboPicked, ev.Conquered, ev.Deployed, ev.Scored, ev.TurnEnded,
        ev.TurnStarted,
    ]
    assert g.log[0] == ev.TurnStarted(1, 0, 0) and g.log[-1] == ev.TurnStarted(1, 1, 0)
    assert g.log[4] == ev.Scored(0, 1, g.log[4].details) and g.log[5] == ev.TurnEnded(0)


ALL_ACTIONS = [
    sw.PickCombo(2), sw.Decline(), sw.Abandon(4), sw.Conquer(3), sw.ConquerWithDie(5),
    sw.Deploy(1, 2), sw.UseAbility("dragon_attack", 7), sw.UseAbility("choose_ally", 1),
    sw.UseAbility("choose_power", "flying"), sw.UseAbility("fortify"), sw.RollDie(2),
    sw.EndTurn(), sw.ChoosePower("flying"), sw.Purchase("token"), sw.Purchase("power", "hill"),
    sw.DrawPiece("loot_1"),
]


def test_actions_are_frozen_hashable_values() -> None:
    """Actions are frozen, hashable values, equal by their fields."""
    assert {type(a).__name__ for a in ALL_ACTIONS} == set(ACTION_TYPES)
    for action in ALL_ACTIONS:
        assert hash(action) == hash(type(action)(**attrs.asdict(action)))
        assert action == type(action)(**attrs.asdict(action))
    assert len(set(ALL_ACTIONS)) == len(ALL_ACTIONS)
    assert sw.Conquer(3) != sw.ConquerWithDie(3) and sw.Conquer(3) != sw.Abandon(3)
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        sw.Conquer(3).region = 4  # type: ignore[misc]
    assert sw.UseAbility("fortify").target is None
    assert sw.Conquer is sw.actions.Conquer


def test_actions_round_trip_through_dicts() -> None:
    """``to_dict()`` is JSON and ``action_from_dict`` rebuilds an equal action."""
    for action in ALL_ACTIONS:
        data = action.to_dict()
        assert data["type"] == type(action).__name__
        assert action_from_dict(json.loads(json.dumps(data))) == action
    assert sw.Deploy(1, 2).to_dict() == {"type": "Deploy", "region": 1, "count": 2}


@pytest.mark.parametrize(
    "data",
    [
        None, [], "Conquer", {"region": 1}, {"type": "Attack", "region": 1},
        {"type": "Conquer"}, {"type": "Conquer", "region": "1"},
        {"type": "Conquer", "region": True}, {"type": "Conquer", "region": 1.0},
        {"type": "Deploy", "region": 1}, {"type": "Decline", "region": 1},
        {"type": "UseAbility"}, {"type": "RollDie", "face": None},
    ],
)
def test_action_from_dict_refuses_bad_input(data: Any) -> None:
    """``action_from_dict`` refuses anything that is not an action's JSON with RulesError."""
    with pytest.raises(sw.RulesError):
        action_from_dict(data)


@pytest.mark.parametrize(
    "data",
    [{"type": "UseAbility", "name": 5}, {"type": "UseAbility", "name": "x", "target": [1]},
     {"type": "UseAbility", "name": "x", "target": {"r": 1}}],
    ids=["name-int", "target-list", "target-dict"],
)
def test_action_from_dict_checks_ability_fields(data: Any) -> None:
    """``UseAbility.name`` is a string and ``target`` a region, player or power id (or None);
    anything else is refused, so every action stays hashable."""
    with pytest.raises(sw.RulesError):
        action_from_dict(data)


# ---------------------------------------------------------------- determinism


@pytest.mark.parametrize("chance", ["seeded", "explicit"])
def test_same_seed_same_actions_same_game(rules: sw.Rules, chance: str) -> None:
    """Same seed + same actions → the same game: identical ``to_json()`` and log at the end
    (dice included when the game rolls them)."""
    first = sw.Game.new(players=3, seed=21, rules=rules, chance=chance)
    played = random_playout(first, random.Random(6), 10_000)
    assert first.is_over
    second = sw.Game.new(players=3, seed=21, rules=rules, chance=chance)
    for action in played:
        second.apply(action)
    assert second.to_json() == first.to_json() and second.log == first.log
    replayed = sw.Game.new(players=3, seed=21, rules=rules, chance=chance)
    for data in [a.to_dict() for a in played]:
        replayed.apply(action_from_dict(json.loads(json.dumps(data))))
    assert replayed.to_json() == first.to_json()


def test_seeded_die_comes_from_the_game_seed(rules: sw.Rules) -> None:
    """With chance="seeded" the die is rolled from the game's own generator: the result is
    fixed by seed and actions, and over several seeds more than one face shows."""
    faces = set()
    for seed in range(12):
        results = []
        for _ in range(2):
            g = new_game(rules, [("ratmen", "plain")], seed=seed)
            g.apply(sw.PickCombo(0))
            for region in (1, 2, 6):
                g.apply(sw.Conquer(region))
            g.apply(sw.ConquerWithDie(5))
            rolled = [e for e in g.log if isinstance(e, ev.DieRolled)]
            assert len(rolled) == 1
            results.append(rolled[0])
        assert results[0] == results[1]
        assert results[0].face in DIE_FACES
        assert results[0].success == (results[0].hand + results[0].face >= results[0].cost)
        faces.add(results[0].face)
    assert len(faces) > 1


def test_corrupt_lost_tribes_are_refused(rules: sw.Rules) -> None:
    """Corrupt saves: more Lost Tribe tokens than the box holds (rule 1.1) are refused with a
    message naming the fault."""
    import json

    game = sw.Game.new(players=2, seed=1, rules=rules)
    doc = json.loads(game.to_json())
    tribe = doc["state"]["region_race"].index("#lost_tribe")
    doc["state"]["region_tokens"][tribe] = 19
    with pytest.raises(sw.RulesError, match="Lost Tribe"):
        sw.Game.from_json(json.dumps(doc), rules=rules)
