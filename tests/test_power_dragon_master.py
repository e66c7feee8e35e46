"""Dragon Master (rule 3): `dragon_attack` once per turn conquers a reachable region
for exactly 1 token whatever its defence (ruling 27); the Dragon's region is immune to enemy
conquest, to Sorcerer conversion and to other dragons (ruling 23) until the Dragon moves;
abandoning its region returns it to the supply (A10); removed on decline (rule 1.12).

Positions on the 2-player map: 1, 2 and 5 (an edge Mountain) are empty edge regions that 6
(an interior Hill with a Lost Tribe) borders; 4 is an edge Hill; 0 and 22 are the Seas, 7
the Lake; 19 is an edge Mountain far from 1.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import deploy_all_and_end, new_game, saved_state

import smallworld_rules as sw
from smallworld_rules.events import Conquered, PieceMoved

TEST_RULES = Path(__file__).parent / "rules"

#: A race whose conquests need not be adjacent (like a Flying race), to combine with the
#: Dragon Master badge, and a second dragon-like power: test-only rule files.
WINDRIDERS = """\
race windriders "Windriders" {
    tokens 6
    box 11
    text "Your race may conquer any land region, adjacent or not."
    flag conquer_anywhere
}
"""
WYRMLORD = """\
power wyrmlord "Wyrmlord" {
    tokens 0
    text "Once per turn conquer a reachable region for 1 token and put your Wyrm there."
    piece wyrm supply 1 { immune }
    ability dragon_attack {
        during conquest
        once_per_turn
        target region when reachable
        conquer paying 1
        move wyrm
    }
}
"""


@pytest.fixture(scope="module")
def more_rules(tmp_path_factory: pytest.TempPathFactory) -> sw.Rules:
    folder = tmp_path_factory.mktemp("dragon_rules")
    (folder / "windriders.swr").write_text(WINDRIDERS, encoding="utf-8")
    (folder / "wyrmlord.swr").write_text(WYRMLORD, encoding="utf-8")
    return sw.load_rules(paths=[TEST_RULES, folder])


def _refused(game: sw.Game, action: sw.Action, match: str) -> None:
    before = game.to_json()
    with pytest.raises(sw.IllegalAction, match=match):
        game.apply(action)
    assert game.to_json() == before


def _dragon_targets(game: sw.Game) -> set[int]:
    return {a.target for a in game.legal_actions()
            if isinstance(a, sw.UseAbility) and a.name == "dragon_attack"}


def _dragon_regions(game: sw.Game) -> list[int]:
    return [r for r in range(len(game.map.regions)) if game.region(r).pieces.get("dragon")]


def _master(rules: sw.Rules, opponent: tuple[str, str] = ("crowd", "plain2")) -> sw.Game:
    """Player 0 picks Ratmen + Dragon Master (13 tokens)."""
    game = new_game(rules, [("ratmen", "dragon_master"), opponent])
    game.apply(sw.PickCombo(0))
    return game


def _dragon_on_5(rules: sw.Rules, opponent: tuple[str, str]) -> sw.Game:
    """Player 0's Dragon takes 5; the Ratmen take 1 and 2 too and pile up on 1 (2 and 5
    keep one token each); then player 1 picks ``opponent``."""
    game = _master(rules, opponent)
    game.apply(sw.UseAbility("dragon_attack", 5))
    game.apply(sw.Conquer(1))
    game.apply(sw.Conquer(2))
    deploy_all_and_end(game)
    game.apply(sw.PickCombo(0))
    assert (game.region(2).tokens, game.region(5).tokens) == (1, 1)
    return game


def test_dragon_master_badge_tokens_section_3(rules: sw.Rules) -> None:
    """Rule 3 table: the Dragon Master badge gives 5 tokens."""
    assert rules.powers["dragon_master"].tokens == 5
    assert _master(rules).hand(0) == 8 + 5


def test_dragon_attack_costs_one_token_whatever_the_defence_ruling_27(rules: sw.Rules) -> None:
    """Ruling 27: a Mountain with 3 Trolls, a Lair and a Fortress (cost 8) falls to 1 token;
    the defender still loses exactly 1 token and withdraws the others; the Dragon moves in."""
    game = _master(rules)
    game.put(5, 1, 3, race="trolls", pieces={"lair": 1, "fortress": 1})
    game.put(4, 1, 1)
    assert game.conquest_cost(5) == 2 + 3 + 1 + 1 + 1
    assert 5 in _dragon_targets(game)
    game.apply(sw.UseAbility("dragon_attack", 5))
    event = [e for e in game.log if isinstance(e, Conquered)][-1]
    assert (event.region, event.tokens, event.lost, event.returned) == (5, 1, 1, 2)
    assert game.region(5).race == "ratmen" and game.region(5).tokens == 1
    assert game.region(5).pieces == {"dragon": 1}  # the Lair and the Fortress are gone
    assert game.hand(0) == 12
    assert [e for e in game.log if isinstance(e, PieceMoved)][-1] == PieceMoved("dragon", 5, -1)
    deploy_all_and_end(game)
    assert game.phase is sw.Phase.WITHDRAWAL and game.to_move == 1
    game.apply(sw.Deploy(4, 2))
    assert game.active_player == 1
    assert game.region(4).tokens + game.hand(1) == 3  # then readied for player 1's turn


def test_dragon_attack_once_per_turn_ruling_27(rules: sw.Rules) -> None:
    """Ruling 27 (edge): the Dragon attacks once per turn; normal conquests go on."""
    game = _master(rules)
    game.apply(sw.UseAbility("dragon_attack", 5))
    assert _dragon_targets(game) == set()
    _refused(game, sw.UseAbility("dragon_attack", 1), "already used this turn")
    game.apply(sw.Conquer(1))
    assert game.region(1).race == "ratmen"


def test_dragon_attack_needs_a_token_in_hand_ruling_4(rules: sw.Rules) -> None:
    """Ruling 4 (edge): the Dragon's single token must be in hand."""
    game = _master(rules)
    for region in (1, 2, 5, 6, 3):  # 2 + 2 + 3 + 3 + 3 = 13
        game.apply(sw.Conquer(region))
    assert game.hand(0) == 0
    assert _dragon_targets(game) == set()
    _refused(game, sw.UseAbility("dragon_attack", 4), "ruling 4")


def test_dragon_attack_targets_reachable_land_only_section_3(rules: sw.Rules) -> None:
    """Rule 3 Dragon Master (edge): not on the Seas or the Lake (no Seafaring), not on an own
    region, not away from the border on a first conquest nor away from the race later."""
    game = _master(rules)
    assert _dragon_targets(game) == {1, 2, 3, 4, 5, 10, 11, 15, 16, 17, 18, 19, 20, 21}
    for region in (0, 22, 9):  # two Seas on the edge, an interior Farmland
        _refused(game, sw.UseAbility("dragon_attack", region), "cannot target")
    game.apply(sw.Conquer(1))
    assert _dragon_targets(game) == {2, 5, 6}  # 0 is a Sea
    _refused(game, sw.UseAbility("dragon_attack", 1), "cannot target")  # own region
    _refused(game, sw.UseAbility("dragon_attack", 19), "cannot target")  # not adjacent
    _refused(game, sw.UseAbility("dragon_attack", 0), "cannot target")  # water


def test_dragon_cannot_attack_an_immune_region_ruling_23(rules: sw.Rules) -> None:
    """Ruling 23 (edge): a Hole-in-the-Ground region is immune to the Dragon too."""
    game = _master(rules)
    game.put(1, 1, 1, race="halflings", pieces={"hole": 1})
    assert 1 not in _dragon_targets(game) and 2 in _dragon_targets(game)
    _refused(game, sw.UseAbility("dragon_attack", 1), "cannot target region 1")


def test_dragon_region_immune_to_conquest_and_conversion_ruling_23(rules: sw.Rules) -> None:
    """Ruling 23: the Dragon's region cannot be conquered nor converted by the Sorcerers;
    a lone token beside it, without the Dragon, can."""
    game = _dragon_on_5(rules, ("sorcerers", "plain2"))
    game.put(6, 1, 2)  # Sorcerers next to 1, 2 and 5
    conquests = {a.region for a in game.legal_actions() if isinstance(a, sw.Conquer)}
    assert 5 not in conquests and 2 in conquests
    _refused(game, sw.Conquer(5), "immune")
    converts = {a.target for a in game.legal_actions()
                if isinstance(a, sw.UseAbility) and a.name == "convert"}
    assert converts == {2}
    _refused(game, sw.UseAbility("convert", 5), "cannot target region 5")
    game.apply(sw.UseAbility("convert", 2))
    assert game.region(2).race == "sorcerers"


def test_dragon_region_immune_to_another_dragon_ruling_23(more_rules: sw.Rules) -> None:
    """Ruling 23: another dragon-like power (test file wyrmlord.swr) cannot attack the
    Dragon's region; it may attack the region next to it."""
    game = _dragon_on_5(more_rules, ("crowd", "wyrmlord"))
    targets = _dragon_targets(game)
    assert 5 not in targets and 2 in targets
    _refused(game, sw.UseAbility("dragon_attack", 5), "cannot target region 5")
    game.apply(sw.UseAbility("dragon_attack", 2))
    assert game.region(2).pieces == {"wyrm": 1} and game.region(5).pieces == {"dragon": 1}


def test_dragon_moves_and_old_region_loses_immunity_ruling_27(rules: sw.Rules) -> None:
    """Ruling 27: used again, the Dragon moves to its new region; the old one can then be
    conquered."""
    game = _dragon_on_5(rules, ("crowd", "plain2"))
    game.apply(sw.Conquer(11))  # Crowd, next to 5
    _refused(game, sw.Conquer(5), "immune")
    deploy_all_and_end(game)
    game.apply(sw.UseAbility("dragon_attack", 6))
    assert _dragon_regions(game) == [6]
    assert [e for e in game.log if isinstance(e, PieceMoved)][-1] == PieceMoved("dragon", 6, 5)
    assert saved_state(game)["piece_supply"]["dragon"] == 0
    deploy_all_and_end(game)
    assert game.region(5).pieces == {} and game.region(5).race == "ratmen"
    assert sw.Conquer(5) in game.legal_actions()
    game.apply(sw.Conquer(5))  # 2 + 1 + Mountain
    assert game.region(5).race == "crowd"


def test_abandoning_the_dragon_region_returns_it_a10(rules: sw.Rules) -> None:
    """A10: the Dragon stays put until used; abandoning its region sends it back to the
    supply, from where the next attack places it."""
    game = _dragon_on_5(rules, ("crowd", "plain2"))
    game.apply(sw.Conquer(20))
    deploy_all_and_end(game)
    assert _dragon_regions(game) == [5]  # not used last turn: it stayed
    game.apply(sw.Abandon(5))
    assert game.region(5).race is None and game.region(5).pieces == {}
    assert saved_state(game)["piece_supply"]["dragon"] == 1
    game.apply(sw.UseAbility("dragon_attack", 6))
    assert [e for e in game.log if isinstance(e, PieceMoved)][-1] == PieceMoved("dragon", 6, -1)


def test_dragon_removed_on_decline_section_1_12(rules: sw.Rules) -> None:
    """Rule 1.12 / rule 3 (After decline: removed): the Dragon leaves the map with the decline; the
    declined token there can be conquered."""
    game = _dragon_on_5(rules, ("crowd", "plain2"))
    game.apply(sw.Conquer(11))
    deploy_all_and_end(game)
    game.apply(sw.Decline())
    assert _dragon_regions(game) == [] and saved_state(game)["piece_supply"]["dragon"] == 1
    assert game.region(5).declined
    assert sw.Conquer(5) in game.legal_actions()


def test_dragon_attack_anywhere_with_a_flying_race_section_3(more_rules: sw.Rules) -> None:
    """Rule 3 Flying + Dragon: the Dragon reaches wherever the race may conquer — with a race that
    conquers any land region (test file windriders.swr, like Flying) it strikes far from the
    race's regions, but never on water."""
    game = new_game(more_rules, [("windriders", "dragon_master")])
    game.apply(sw.PickCombo(0))
    game.apply(sw.Conquer(1))
    land = set(range(len(game.map.regions))) - {0, 7, 22}
    assert _dragon_targets(game) == land - {1}
    for water in (0, 7, 22):
        _refused(game, sw.UseAbility("dragon_attack", water), "cannot target")
    game.apply(sw.UseAbility("dragon_attack", 19))
    assert game.region(19).race == "windriders" and _dragon_regions(game) == [19]
