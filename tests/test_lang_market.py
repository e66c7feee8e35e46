"""The rule language's piles of lost tokens (``collect lost_tokens into PILE``), their trade
(``exchange N in PILE``) and ``count(players)``, with an invented race, the Scavs of
tests/rules_market/: every token lost to a conquest joins their heap while they are active,
and at the start of their turn each as many tokens of it as there are players give one new
Scav."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from helpers import deploy_all_and_end, new_game

import smallworld_rules as sw
from smallworld_rules.dsl.parser import parse
from smallworld_rules.dsl.semantics import check
from smallworld_rules.errors import RuleFileError
from smallworld_rules.events import Exchanged, Scored, TokensToZone
from smallworld_rules.state import _plain as memory_plain
from smallworld_rules.state import state_to_dict

MARKET = Path(__file__).parent / "rules_market"
TEST_RULES = Path(__file__).parent / "rules"


@pytest.fixture(scope="module")
def rules() -> sw.Rules:
    return sw.load_rules(paths=[MARKET, TEST_RULES])


def _snapshot(game: sw.Game) -> str:
    state = game._state
    return json.dumps([state_to_dict(state), memory_plain(state.lang)], sort_keys=True)


def _errors(source: str) -> list[RuleFileError]:
    return check(parse(source), source)


def _race(*body: str) -> str:
    lines = ("tokens 5", "box 12", 'text "Test."', *body)
    return 'race scouts "Scouts" {\n' + "".join(f"    {line}\n" for line in lines) + "}\n"


def test_the_pile_is_a_zone_of_the_game(rules: sw.Rules) -> None:
    """collect lost_tokens into: the pile is a zone of the game, empty at first, and shown in
    every player's observation."""
    assert rules.zones["heap"].name == "The Scavs' heap"
    game = new_game(rules, [("scavs", "plain"), ("crowd", "plain2")])
    assert game.zone("heap") == {} and game.zone_pile("heap") == ()
    assert game.observation(1)["zones"]["heap"] == {}


def test_own_tokens_lost_join_the_pile_and_come_back_first(rules: sw.Rules) -> None:
    """collect lost_tokens into: a Lost Tribe the race conquers and its own token lost to an
    enemy conquest join its pile; with 2 players, 2 tokens make one trade, which takes the
    race's own kind first (back to its box) and gives one token at the start of its turn."""
    game = new_game(rules, [("scavs", "plain"), ("crowd", "plain2")])
    game.apply(sw.PickCombo(0))
    game.apply(sw.Conquer(3))  # the Lost Tribe of the Swamp: 3 Scavs
    assert game.zone_pile("heap") == ("#lost_tribe",)
    deploy_all_and_end(game)  # 4 Scavs on the Swamp
    game.apply(sw.PickCombo(0))
    game.apply(sw.Conquer(3))  # the Crowd take it: 1 Scav lost
    assert game.zone_pile("heap") == ("#lost_tribe", "scavs")
    assert TokensToZone("heap", ("scavs",)) in game.log
    deploy_all_and_end(game)
    while game.phase is sw.Phase.WITHDRAWAL:
        game.apply(next(iter(game.legal_actions())))
    trade = [e for e in game.log if isinstance(e, Exchanged)]
    assert trade == [Exchanged("heap", ("scavs", "#lost_tribe"), "scavs", 1)]
    assert game.zone("heap") == {} and game.to_move == 0


def test_count_players_reads_the_player_count_edge(rules: sw.Rules) -> None:
    """count(players) (edge): with 3 players 2 tokens in the pile make no trade."""
    combos = [("scavs", "commando"), ("crowd", "plain2"), ("humans", "bulky")]
    game = new_game(rules, combos, players=3)
    game.apply(sw.PickCombo(0))
    for _ in range(2):
        game.apply(next(a for a in game.legal_actions() if isinstance(a, sw.Conquer)
                        and game.region(a.region).lost_tribe))
    assert game.zone("heap") == {"#lost_tribe": 2}
    deploy_all_and_end(game)
    for _ in range(2):
        game.apply(sw.PickCombo(0))
        deploy_all_and_end(game)
    assert game.to_move == 0
    assert not [e for e in game.log if isinstance(e, Exchanged)]
    assert game.zone("heap") == {"#lost_tribe": 2}


def test_a_pile_leaves_with_its_race_edge(rules: sw.Rules) -> None:
    """collect lost_tokens into (edge): while the race is in decline its pile collects no
    more, and tokens lost then go to their box."""
    game = new_game(rules, [("scavs", "plain"), ("crowd", "plain2")])
    game.apply(sw.PickCombo(0))
    game.apply(sw.Conquer(1))
    deploy_all_and_end(game)
    game.apply(sw.PickCombo(0))
    deploy_all_and_end(game)
    game.apply(sw.Decline())
    game.apply(sw.Conquer(1))  # the Crowd take the declined Scavs' region
    assert game.zone("heap") == {}


def test_random_games_keep_every_invariant_and_save(rules: sw.Rules) -> None:
    """collect lost_tokens into, mark: in seeded random games every token is in exactly one
    place (box, hand, map or pile) after every action, and a save mid-game loads back the
    same, marks included; an action never changes the state it was applied to (copy on
    write)."""
    for seed in range(4):
        combos = [("scavs", "plain"), ("crowd", "grudging"), ("turncoats", "bulky"),
                  ("frostkin", "plain2"), ("breeders", "commando")]
        game = new_game(rules, combos, players=2 + seed % 2, seed=seed)
        rng = random.Random(seed)
        while not game.is_over:
            previous, before = game._state, _snapshot(game)
            options = list(game.legal_actions())
            game.apply(options[rng.randrange(len(options))])
            game._engine.check_invariants(game._state)
            now, game._state = game._state, previous  # copy on write: the state before the
            assert _snapshot(game) == before  # action is left exactly as it was
            game._state = now
            if len(game.log) % 7 == 0:
                text = game.to_json()
                assert sw.Game.from_json(text, rules=rules).to_json() == text


def test_a_corrupt_pile_is_refused(rules: sw.Rules) -> None:
    """collect lost_tokens into: a save whose piles are missing, or hold an unknown kind, is
    refused with a short message."""
    game = new_game(rules, [("scavs", "plain"), ("crowd", "plain2")])
    data = json.loads(game.to_json())
    del data["state"]["zones"]["heap"]
    with pytest.raises(sw.RulesError, match="zones"):
        sw.Game.from_json(json.dumps(data), rules=rules)
    data["state"]["zones"]["heap"] = [7]
    with pytest.raises(sw.RulesError) as caught:
        sw.Game.from_json(json.dumps(data), rules=rules)
    assert "zones[heap]" in str(caught.value) and len(str(caught.value)) < 200


def test_exchange_names_a_pile_of_the_file() -> None:
    """exchange N in PILE: a pile the file does not collect into is unknown-zone, with the
    line and column of the effect and a hint."""
    errors = _errors(_race('collect lost_tokens into heap "Heap"',
                           "on turn_start do exchange 2 in haep"))
    assert [(e.label, e.line, e.column) for e in errors] == [("unknown-zone", 6, 22)]
    assert "heap" in errors[0].hint


def test_an_expansion_cannot_collect() -> None:
    """collect lost_tokens into: an expansion has no race to collect for (expansion-collects)."""
    source = (
        'expansion haunts "Haunts" {\n    text "x"\n    collect lost_tokens into pit "Pit"\n}\n'
    )
    errors = _errors(source)
    assert [(e.label, e.line, e.column) for e in errors] == [("expansion-collects", 3, 5)]


def test_one_pile_per_file() -> None:
    """collect lost_tokens into: a file collects into one pile at most."""
    errors = _errors(_race('collect lost_tokens into heap "Heap"',
                           'collect lost_tokens into heap2 "Heap"'))
    assert len(errors) == 1 and errors[0].line == 6 and "twice" in errors[0].message


# --------------------------------------------------------------------------- mark / marked


def test_mark_the_conqueror_and_discount_its_regions(rules: sw.Rules) -> None:
    """mark WHOM / marked: whoever conquers a region of the race is marked, and the regions
    of that player's races then cost the race 1 token less."""
    game = new_game(rules, [("humans", "grudging"), ("crowd", "plain2")])
    game.apply(sw.PickCombo(0))
    game.apply(sw.Conquer(1))
    game.apply(sw.Conquer(2))
    deploy_all_and_end(game)
    game.apply(sw.PickCombo(0))
    game.apply(sw.Conquer(2))  # the Crowd attack the Humans: marked
    deploy_all_and_end(game)
    while game.phase is sw.Phase.WITHDRAWAL:
        game.apply(next(iter(game.legal_actions())))
    assert game.to_move == 0
    race = json.loads(game.to_json())["state"]["races"]["humans"]
    assert race["uses"]["@marked"] == 1 << 1
    crowd_region = 2
    breakdown = game.explain_conquest_cost(crowd_region)
    assert [(c.op, c.amount) for c in breakdown.contributions][-1] == ("sub", 1)
    assert breakdown.value == 2 + game.region(crowd_region).tokens - 1


def test_unmarked_players_pay_in_full_edge(rules: sw.Rules) -> None:
    """marked (edge): a player who never attacked the race is not marked: no discount, and
    a save with a mark for a player beyond the game is refused."""
    game = new_game(rules, [("humans", "grudging"), ("crowd", "plain2")])
    game.apply(sw.PickCombo(0))
    game.apply(sw.Conquer(1))
    deploy_all_and_end(game)
    game.apply(sw.PickCombo(0))
    game.apply(sw.Conquer(2))  # the Crowd enter elsewhere: nobody attacked
    deploy_all_and_end(game)
    assert game.to_move == 0
    breakdown = game.explain_conquest_cost(2)
    assert all(c.op != "sub" for c in breakdown.contributions)
    data = json.loads(game.to_json())
    data["state"]["races"]["humans"]["uses"]["@marked"] = 1 << 5
    with pytest.raises(sw.RulesError) as caught:
        sw.Game.from_json(json.dumps(data), rules=rules)
    assert "@marked" in str(caught.value) and len(str(caught.value)) < 200


# --------------------------------------------------------------------------- badge swaps


def test_a_picked_combo_may_swap_its_badge(rules: sw.Rules) -> None:
    """swaps_power_when_picked: after the pick the player chooses a badge, its own or that of
    a combo of the market; the two badges change places and the tokens follow the badge."""
    game = new_game(rules, [("turncoats", "plain"), ("crowd", "commando"), ("humans", "bulky")])
    game.apply(sw.PickCombo(0))
    assert game.to_move == 0 and game.phase is sw.Phase.PICK
    game.apply(sw.ChoosePower("bulky"))
    assert game.hand(0) == 6 + rules.powers["bulky"].tokens
    state = json.loads(game.to_json())["state"]
    assert state["races"]["turncoats"]["power"] == "bulky"
    assert state["market"][1][:2] == ["humans", "plain"]
    assert "swap" not in state.get("lang", {})


def test_no_second_pick_while_the_badge_is_chosen(rules: sw.Rules) -> None:
    """swaps_power_when_picked: a player picks one combo a turn; while the badge of the combo
    just picked is being chosen, picking another is refused (as ``legal_actions``, which
    lists only the badges) and changes nothing."""
    game = new_game(rules, [("turncoats", "plain"), ("crowd", "commando"), ("humans", "bulky")])
    game.apply(sw.PickCombo(0))
    before = _snapshot(game)
    assert all(type(a) is sw.ChoosePower for a in game.legal_actions())
    for i in range(len(game.market)):
        assert not game.is_legal(sw.PickCombo(i))
        with pytest.raises(sw.IllegalAction, match="choose its badge first"):
            game.apply(sw.PickCombo(i))
    assert _snapshot(game) == before
    game.apply(sw.ChoosePower("bulky"))
    assert game.phase is sw.Phase.CONQUEST


def test_the_action_space_has_the_badge_choices(rules: sw.Rules) -> None:
    """swaps_power_when_picked: the fixed action space of the rules lists ChoosePower for
    every power, so a learning agent can make the choice."""
    game = new_game(rules, [("turncoats", "plain"), ("crowd", "commando")])
    game.apply(sw.PickCombo(0))
    for action in game.legal_actions():
        assert game.action_at(game.action_index(action)) == action


# --------------------------------------------------------------------------- staying markers


def frost_on_the_forest(rules: sw.Rules) -> sw.Game:
    """The Frostkin hold the Magic Farmland 1 and put their 1 Frost on the empty Forest 2."""
    game = new_game(rules, [("frostkin", "plain"), ("crowd", "plain2")])
    game.apply(sw.PickCombo(0))
    game.apply(sw.Conquer(1))
    game.apply(sw.Deploy(1, 1))
    targets = {a.target for a in game.legal_actions() if isinstance(a, sw.UseAbility)}
    assert 1 in targets and 2 in targets and 22 not in targets  # own, next to it; not far
    game.apply(sw.UseAbility("cast_frost", 2))
    assert not [a for a in game.legal_actions() if isinstance(a, sw.UseAbility)]
    deploy_all_and_end(game)
    return game


def test_placed_anywhere_puts_a_marker_next_to_the_race(rules: sw.Rules) -> None:
    """placed_anywhere: the marker goes on a region the race does not hold, which its
    ability's target allows; its defence counts for whoever attacks the region."""
    game = frost_on_the_forest(rules)
    assert game.region(2).pieces == {"frost": 1} and game.region(2).race is None
    game.apply(sw.PickCombo(0))
    assert game.conquest_cost(2) == 2 + 1


def test_a_staying_marker_stays_and_takes_its_toll(rules: sw.Rules) -> None:
    """stays, toll: the marker stays on its region when another race conquers it, and that
    race scores 1 coin fewer for the region."""
    game = frost_on_the_forest(rules)
    game.apply(sw.PickCombo(0))
    game.apply(sw.Conquer(2))
    assert game.region(2).pieces == {"frost": 1}
    deploy_all_and_end(game)
    scored = [e for e in game.log if isinstance(e, Scored) and e.player == 1][-1]
    assert scored.coins == 1 - 1
    assert "frost" in scored.details[0][2]


def test_the_holder_pays_no_toll_and_its_markers_leave_with_its_decline_edge(
    rules: sw.Rules,
) -> None:
    """toll, stays (edge): the markers' own race pays no toll on its regions; when it
    declines its markers leave every region, held or not, back to the supply."""
    game = new_game(rules, [("frostkin", "plain"), ("crowd", "plain2")])
    game.apply(sw.PickCombo(0))
    game.apply(sw.Conquer(1))
    game.apply(sw.Deploy(1, 1))
    game.apply(sw.UseAbility("cast_frost", 1))
    deploy_all_and_end(game)
    scored = [e for e in game.log if isinstance(e, Scored) and e.player == 0][-1]
    assert scored.coins == 1
    game.apply(sw.PickCombo(0))
    deploy_all_and_end(game)
    game.apply(sw.Decline())
    assert game.region(1).pieces == {}
    assert json.loads(game.to_json())["state"]["piece_supply"]["frost"] == 6


def test_staying_markers_leave_regions_others_hold_edge(rules: sw.Rules) -> None:
    """stays (edge): a marker on a region another race conquered leaves it too when its
    race declines."""
    game = frost_on_the_forest(rules)
    game.apply(sw.PickCombo(0))
    game.apply(sw.Conquer(2))
    deploy_all_and_end(game)
    assert game.region(2).pieces == {"frost": 1} and game.region(2).race == "crowd"
    game.apply(sw.Decline())
    assert game.region(2).pieces == {}


# --------------------------------------------------------------------------- banner tokens


def test_a_skipped_banner_gathers_tokens_for_its_picker(rules: sw.Rules) -> None:
    """skip_tokens: each pick below the combo puts a token of its race on the banner, beside
    the coin; the player who picks it takes them with the banner's and badge's tokens."""
    combos = [("breeders", "plain"), ("crowd", "plain2"), ("humans", "bulky"),
              ("ratmen", "commando")]
    game = new_game(rules, combos, players=3)
    game.apply(sw.PickCombo(1))  # the Crowd: 1 coin and 1 Breeder on the banner
    assert json.loads(game.to_json())["state"]["lang"]["banner"] == {"breeders": 1}
    assert game.observation(1)["state"]["lang"]["banner"] == {"breeders": 1}
    deploy_all_and_end(game)
    game.apply(sw.PickCombo(1))  # the next combo: a second Breeder
    deploy_all_and_end(game)
    coins = game.coins(2)
    game.apply(sw.PickCombo(0))
    assert game.hand(2) == 4 + 2
    assert game.coins(2) == coins + 2
    assert "banner" not in json.loads(game.to_json())["state"].get("lang", {})


def test_banner_tokens_are_checked_on_load_edge(rules: sw.Rules) -> None:
    """skip_tokens (edge): a save with more tokens on a banner than the race's box, or with
    tokens on the banner of a race off the market, is refused."""
    combos = [("breeders", "plain"), ("crowd", "plain2"), ("humans", "bulky")]
    game = new_game(rules, combos)
    game.apply(sw.PickCombo(1))
    data = json.loads(game.to_json())
    data["state"]["lang"]["banner"] = {"breeders": 13}
    with pytest.raises(sw.RulesError, match="banner"):
        sw.Game.from_json(json.dumps(data), rules=rules)
    data["state"]["lang"]["banner"] = {"giants": 1}
    with pytest.raises(sw.RulesError, match="banner"):
        sw.Game.from_json(json.dumps(data), rules=rules)


def test_banner_tokens_survive_a_game_rebuilt_from_an_observation(rules: sw.Rules) -> None:
    """skip_tokens: the tokens on a banner are public, so a game rebuilt from another
    player's observation keeps them."""
    from smallworld_rules.observation import game_from_observation

    combos = [("breeders", "plain"), ("crowd", "plain2"), ("humans", "bulky")]
    game = new_game(rules, combos)
    game.apply(sw.PickCombo(1))
    rebuilt = game_from_observation(game.observation(1), seed=2, rules=rules)
    assert json.loads(rebuilt.to_json())["state"]["lang"]["banner"] == {"breeders": 1}
