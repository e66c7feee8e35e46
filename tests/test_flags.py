"""The core's flags (``flag NAME`` in a rule file, smallworld_rules/dsl/vocabulary.py), each
proved with a test-only rule file from tests/rules/ against the rule it relaxes."""

from __future__ import annotations

import pytest
from helpers import both_enter, deploy_all_and_end, new_game, saved_state

import smallworld_rules as sw
from smallworld_rules.events import Declined, Scored


def _pick(rules: sw.Rules, race: str, power: str) -> sw.Game:
    others = [p for p in ("plain", "plain2", "bulky") if p != power][:2]
    game = new_game(rules, [(race, power), ("crowd", others[0]), ("giants", others[1])])
    game.apply(sw.PickCombo(0))
    return game


def test_enter_anywhere_first_conquest_section_1_7(rules: sw.Rules) -> None:
    """`enter_anywhere` lifts the border rule of the first conquest (rule 1.7), and only that:
    later conquests still need adjacency."""
    game = _pick(rules, "burrowers", "plain")
    assert sw.Conquer(6) in game.legal_actions()  # interior
    game.apply(sw.Conquer(6))
    with pytest.raises(sw.IllegalAction, match="not adjacent"):
        game.apply(sw.Conquer(19))


def test_conquer_anywhere_lifts_adjacency_not_entry_or_water(rules: sw.Rules) -> None:
    """`conquer_anywhere` lifts adjacency (rule 1.7) but not the border entry nor water."""
    game = _pick(rules, "ratmen", "gliders")
    assert sw.Conquer(13) not in game.legal_actions()  # first conquest: border only
    game.apply(sw.Conquer(1))
    assert sw.Conquer(13) in game.legal_actions()  # interior, not adjacent to 1
    game.apply(sw.Conquer(13))
    with pytest.raises(sw.IllegalAction, match="water"):
        game.apply(sw.Conquer(7))


def test_enter_water_seas_and_lake_as_empty_regions(rules: sw.Rules) -> None:
    """`enter_water`: a Sea (at the edge) and the Lake may be conquered, each as one empty
    region costing 2, and they score like any region (rule 1.7, ruling 32)."""
    game = _pick(rules, "ratmen", "sailors")  # 13 tokens
    assert game.conquest_cost(0) == 2
    game.apply(sw.Conquer(0))  # the Sea touches the edge: a first conquest may take it
    game.apply(sw.Conquer(1))
    game.apply(sw.Conquer(2))
    game.apply(sw.Conquer(7))  # the Lake, next to 2
    deploy_all_and_end(game)
    assert [e for e in game.log if isinstance(e, Scored)][-1].coins == 4


def test_water_held_in_decline_still_scores_ruling_32(rules: sw.Rules) -> None:
    """Ruling 32: water regions are kept and scored after decline."""
    game = _pick(rules, "ratmen", "sailors")
    game.apply(sw.Conquer(0))
    game.apply(sw.Conquer(1))
    deploy_all_and_end(game)
    game.apply(sw.PickCombo(0))
    game.apply(sw.Conquer(19))
    deploy_all_and_end(game)
    coins = game.coins(0)
    game.apply(sw.Decline())
    assert game.region(0).declined and game.coins(0) == coins + 2


def test_keeps_tokens_in_decline(rules: sw.Rules) -> None:
    """`keeps_tokens_in_decline`: every token stays on the map when the race declines (rule 1.12
    step 3 exception), including the ones the turn's readying had taken into hand."""
    game = _pick(rules, "hoarders", "plain")  # 5 tokens
    game.apply(sw.Conquer(1))
    game.apply(sw.Deploy(1, 4))
    game.apply(sw.EndTurn())
    assert game.region(1).tokens == 5
    game.apply(sw.PickCombo(0))
    game.apply(sw.Conquer(19))
    deploy_all_and_end(game)
    assert game.hand(0) == 4  # readied
    box = saved_state(game)["box"]["hoarders"]
    game.apply(sw.Decline())
    assert game.region(1).tokens == 5 and game.region(1).declined
    assert saved_state(game)["box"]["hoarders"] == box


def _decline_twice(rules: sw.Rules, first_power: str) -> sw.Game:
    """Player 0 declines a Ratmen race with ``first_power``, picks Giants, declines them."""
    game = new_game(rules, [("ratmen", first_power), ("crowd", "plain2"), ("giants", "bulky")])
    game.apply(sw.PickCombo(0))
    game.apply(sw.Conquer(1))
    deploy_all_and_end(game)
    game.apply(sw.PickCombo(0))  # player 1: Crowd
    game.apply(sw.Conquer(19))
    deploy_all_and_end(game)
    game.apply(sw.Decline())
    deploy_all_and_end(game)
    game.apply(sw.PickCombo(0))  # player 0: Giants
    game.apply(sw.Conquer(17))
    deploy_all_and_end(game)
    deploy_all_and_end(game)
    game.apply(sw.Decline())
    return game


def test_exempt_from_decline_limit_ruling_33(rules: sw.Rules) -> None:
    """Ruling 33: an exempt declined race stays when a later race declines; both score; the
    exempt power keeps its badge in decline."""
    game = _decline_twice(rules, "lingering")
    assert [e for e in game.log if isinstance(e, Declined)][-1].removed == ()
    assert game.declined_races(0) == ["ratmen", "giants"]
    assert [e for e in game.log if isinstance(e, Scored)][-1].coins == 2
    assert "lingering" not in saved_state(game)["power_discard"]


def test_without_the_flag_the_older_declined_race_leaves_section_1_12(rules: sw.Rules) -> None:
    """Rule 1.12 step 1, the contrast: the same play with a plain power removes the Ratmen."""
    game = _decline_twice(rules, "plain")
    assert [e for e in game.log if isinstance(e, Declined)][-1].removed == ("ratmen",)
    assert game.declined_races(0) == ["giants"]


def test_exempt_race_declining_keeps_the_other_declined_race_a12(rules: sw.Rules) -> None:
    """A12: an exempt race going into decline displaces nobody: at most one non-exempt
    declined race, any number of exempt ones."""
    game = new_game(rules, [("ratmen", "plain"), ("crowd", "plain2"), ("giants", "lingering")])
    both_enter(game, 1, 19)
    game.apply(sw.Decline())  # Ratmen (not exempt) decline
    deploy_all_and_end(game)
    game.apply(sw.PickCombo(0))  # Lingering Giants
    game.apply(sw.Conquer(17))
    deploy_all_and_end(game)
    deploy_all_and_end(game)
    game.apply(sw.Decline())
    assert game.declined_races(0) == ["ratmen", "giants"]
