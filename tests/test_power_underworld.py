"""Underworld (rule 3, A4): −1 token to conquer a region with a Cavern (at least 1),
and every Cavern region counts as adjacent to every other for the race's conquests; the first
conquest still obeys the border rule (A4); lost with the badge in decline.

Caverns of the 2-player map: 3 (Swamp, edge, Lost Tribe), 5 (Mountain, edge), 14 (Hill,
interior, Lost Tribe), 17 (Hill, edge, empty).
"""

from __future__ import annotations

import pytest
from helpers import deploy_all_and_end, new_game, saved_state

import smallworld_rules as sw
from smallworld_rules.events import Conquered

CAVERNS = {3, 5, 14, 17}
UNDERWORLD_LINE = 7  # powers/underworld.swr: the conquest_cost line


def _pick(rules: sw.Rules, race: str = "ratmen", power: str = "underworld") -> sw.Game:
    game = new_game(rules, [(race, power), ("crowd", "plain2"), ("giants", "bulky")])
    game.apply(sw.PickCombo(0))
    return game


def _targets(game: sw.Game) -> set[int]:
    return {a.region for a in game.legal_actions() if isinstance(a, sw.Conquer)}


def test_underworld_badge_tokens_section_3(rules: sw.Rules) -> None:
    """Rule 3 table: the Underworld badge gives 5 tokens (Ratmen 8 + 5)."""
    assert rules.powers["underworld"].tokens == 5
    assert _pick(rules).hand(0) == 13


@pytest.mark.parametrize(
    ("region", "plain", "underworld"),
    [
        (17, 2, 1),  # empty Cavern Hill
        (3, 3, 2),  # Cavern Swamp with a Lost Tribe
        (5, 3, 2),  # Cavern Mountain
        (14, 3, 2),  # Cavern Hill with a Lost Tribe
        (1, 2, 2),  # no Cavern
        (4, 2, 2),
        (6, 3, 3),
        (15, 3, 3),  # a Mountain without a Cavern
    ],
)
def test_underworld_discount_on_caverns_section_3(
    rules: sw.Rules, region: int, plain: int, underworld: int
) -> None:
    """Rule 3 Underworld: Cavern regions cost 1 less; other regions are unchanged."""
    assert _pick(rules, power="plain").conquest_cost(region) == plain
    assert _pick(rules).conquest_cost(region) == underworld


def test_underworld_explain_names_the_rule_file_and_line(rules: sw.Rules) -> None:
    """Rule 3 Underworld, the hook points: the breakdown names powers/underworld.swr and its
    line."""
    game = _pick(rules)
    b = game.explain_conquest_cost(5)
    assert (b.base, b.value) == (2, 2)
    mine = [c for c in b.contributions if c.path.endswith("powers/underworld.swr")]
    assert [(c.op, c.amount, c.line) for c in mine] == [("sub", 1, UNDERWORLD_LINE)]
    assert ("Mountain", 1) in [(c.label, c.amount) for c in b.contributions]
    assert not [c for c in game.explain_conquest_cost(1).contributions if "underworld" in c.path]


def test_underworld_caverns_are_adjacent_to_each_other_section_3(rules: sw.Rules) -> None:
    """Rule 3 Underworld: from the Cavern 17 the race may conquer the other Caverns (3, 5, 14),
    none of them adjacent to 17, as well as 17's neighbours; nothing else."""
    game = _pick(rules)
    game.apply(sw.Conquer(17))
    neighbours = set(game.map.regions[17].adjacent)
    assert not (CAVERNS - {17}) & neighbours
    assert _targets(game) == neighbours | (CAVERNS - {17})
    game.apply(sw.Conquer(14))  # interior, far from 17: Lost Tribe 3 − 1
    assert game.region(14).race == "ratmen"
    assert [e.cost for e in game.log if isinstance(e, Conquered)] == [1, 2]
    game.apply(sw.Conquer(21))  # adjacent to 14: ordinary adjacency goes on from there
    assert game.region(21).race == "ratmen"


def test_underworld_first_conquest_obeys_the_border_rule_a4(rules: sw.Rules) -> None:
    """A4: the link gives no entry: the interior Cavern 14 is refused as a first conquest,
    the edge Caverns are offered."""
    game = _pick(rules)
    assert 14 not in _targets(game)
    assert {3, 5, 17} <= _targets(game)
    before = game.to_json()
    with pytest.raises(sw.IllegalAction, match="border"):
        game.apply(sw.Conquer(14))
    assert game.to_json() == before


def test_underworld_link_needs_a_cavern_held_edge(rules: sw.Rules) -> None:
    """Rule 3 Underworld (edge): holding only non-Cavern regions, the Caverns are reached by
    ordinary adjacency only: from region 1, the Cavern 14 (interior) and 17 are refused."""
    game = _pick(rules)
    game.apply(sw.Conquer(1))
    assert _targets(game) == set(game.map.regions[1].adjacent) - {0}  # 0 is a Sea
    before = game.to_json()
    with pytest.raises(sw.IllegalAction, match="not adjacent"):
        game.apply(sw.Conquer(17))
    assert game.to_json() == before
    game.apply(sw.Conquer(5))  # a Cavern next to 1: the link now opens the others
    assert {3, 14, 17} <= _targets(game)


def test_underworld_lost_in_decline_for_acting_ghouls_section_3(rules: sw.Rules) -> None:
    """Rule 3 Underworld "Lost" after decline: declined Ghouls (which still conquer, rule 2) pay the
    full cost of a Cavern and no longer reach the far Caverns."""
    game = _pick(rules, race="ghouls")  # 5 + 5 tokens
    game.apply(sw.Conquer(17))
    deploy_all_and_end(game)
    game.apply(sw.PickCombo(0))  # player 1: Crowd
    game.apply(sw.Conquer(1))
    deploy_all_and_end(game)
    game.apply(sw.Decline())  # Ghouls keep every token in 17
    deploy_all_and_end(game)  # player 1
    game.apply(sw.PickCombo(0))  # player 0: Giants; the declined Ghouls act first
    assert saved_state(game)["acting"] == "ghouls"
    assert _targets(game) & CAVERNS == set()
    assert _targets(game) <= set(game.map.regions[17].adjacent)
    assert game.conquest_cost(3) == 3  # a Cavern at full cost
    assert game.conquest_cost(12) == 3
