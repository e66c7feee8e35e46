"""The rule language: ``hand_over new``, the hand-over of a region of a race in decline
to its owner's active race with a new token (from the active race's box, else its hand);
the flag ``revives_previous_decline``; abilities ``during turn_start``.

Written for invented powers in temporary files; Farmland 1, Forest 2 and Swamp 3 (2-player
map) border one another in a chain.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import declined_then_next_picked, deploy_all_and_end

import smallworld_rules as sw

_EMBERS = (
    'power embers "Embers" {\n    tokens 4\n    text "In decline, hand regions over."\n'
    "    ability kindle {\n        during conquest\n        while declined\n"
    "        target own region\n        hand_over new\n    }\n}\n"
)


def _kindled(tmp_path: Path) -> sw.Game:
    """Player 0's Ratmen with the invented Embers hold Farmland 1, Forest 2 and Swamp 3 and
    decline; in player 0's next turn the Humans are picked."""
    (tmp_path / "embers.swr").write_text(_EMBERS, encoding="utf-8")
    rules = sw.load_rules(paths=[tmp_path])
    return declined_then_next_picked(
        rules, [("ratmen", "embers"), ("amazons", "commando"), ("humans", "forest")]
    )


def test_hand_over_new_takes_a_new_token(tmp_path: Path) -> None:
    """`hand_over new`: the region is held by a token of the active race taken from
    its box; the player's hand is untouched."""
    game = _kindled(tmp_path)
    hand, boxed = game.hand(0), game._state.box["humans"]
    game.apply(sw.UseAbility("kindle", 1))
    assert (game.region(1).race, game.region(1).tokens) == ("humans", 1)
    assert (game.hand(0), game._state.box["humans"]) == (hand, boxed - 1)


def test_hand_over_new_falls_back_on_the_hand_edge(tmp_path: Path) -> None:
    """`hand_over new` (edge): with the active race's box empty, the token comes from
    the hand; with neither, the ability is not offered."""
    game = _kindled(tmp_path)
    game._state.box["humans"] = 0
    hand = game.hand(0)
    game.apply(sw.UseAbility("kindle", 1))
    assert game.region(1).race == "humans" and game.hand(0) == hand - 1
    game._state.races["humans"].hand = 0
    assert not [a for a in game.legal_actions() if isinstance(a, sw.UseAbility)]


def test_hand_over_new_in_a_trigger_is_a_rule_file_error_edge(tmp_path: Path) -> None:
    """`hand_over new` in a trigger (edge): a RuleFileError at the effect, the hint saying to
    write it as an ability."""
    text = _EMBERS.replace(
        "    ability kindle {\n        during conquest\n        while declined\n"
        "        target own region\n        hand_over new\n    }\n",
        "    on conquest do hand_over new\n",
    )
    (tmp_path / "embers.swr").write_text(text, encoding="utf-8")
    with pytest.raises(sw.RuleFileError, match="a trigger cannot") as caught:
        sw.load_rules(paths=[tmp_path])
    assert (caught.value.line, caught.value.column) == (4, 20)
    assert "write it as an ability" in str(caught.value)


# ------------------------------------------------------- flag revives_previous_decline

_LAZARUS = (
    'power lazarus "Lazarus" {\n    tokens 3\n    text "Declining, bring back the race before."\n'
    "    flag revives_previous_decline\n}\n"
)


def _revived(tmp_path: Path) -> sw.Game:
    """Player 0's Amazons (Commando) hold Farmland 1 and decline; his Humans with the
    invented Lazarus take Hill 4 and decline in turn."""
    (tmp_path / "lazarus.swr").write_text(_LAZARUS, encoding="utf-8")
    rules = sw.load_rules(paths=[tmp_path])
    game = sw.Game.new(players=2, seed=1, rules=rules, combos=[
        ("amazons", "commando"), ("ratmen", "mounted"), ("humans", "lazarus")])
    game.apply(sw.PickCombo(0))
    game.apply(sw.Conquer(1))
    deploy_all_and_end(game)
    game.apply(sw.PickCombo(0))
    game.apply(sw.Conquer(19))
    deploy_all_and_end(game)
    game.apply(sw.Decline())
    deploy_all_and_end(game)  # player 1
    game.apply(sw.PickCombo(0))  # the Humans
    game.apply(sw.Conquer(4))
    deploy_all_and_end(game)
    deploy_all_and_end(game)  # player 1
    game.apply(sw.Decline())
    return game


def test_revives_previous_decline_brings_the_race_back(tmp_path: Path) -> None:
    """`flag revives_previous_decline`: the previous race in decline stays as the race
    declines and is the active race when its owner's turn starts, its banner's tokens
    (Amazons: 6) less its token on the map in hand."""
    game = _revived(tmp_path)
    assert game.declined_races(0) == ["amazons", "humans"]
    deploy_all_and_end(game)  # player 1
    assert game.active_race(0) == "amazons" and game.active_power(0) is None
    assert game.hand(0) == 6 - 1 and game.declined_races(0) == ["humans"]


def test_revives_previous_decline_spares_only_the_previous_race_edge(tmp_path: Path) -> None:
    """`flag revives_previous_decline` (edge): the next decline of the revived race is an
    ordinary one: the race with the flag, now the previous race in decline, leaves."""
    game = _revived(tmp_path)
    deploy_all_and_end(game)  # player 1
    deploy_all_and_end(game)  # player 0's revived Amazons
    deploy_all_and_end(game)  # player 1
    game.apply(sw.Decline())
    assert game.declined_races(0) == ["amazons"]
    assert game.region(4).race is None


# ------------------------------------------------------------------ during turn_start

_HERALDS = (
    'power heralds "Heralds" {\n    tokens 3\n    text "Coins as the turn starts."\n'
    "    ability herald {\n        during turn_start\n        once_per_turn\n"
    "        gain 1 coin\n    }\n}\n"
)


def _heralded(tmp_path: Path) -> sw.Game:
    (tmp_path / "heralds.swr").write_text(_HERALDS, encoding="utf-8")
    rules = sw.load_rules(paths=[tmp_path])
    game = sw.Game.new(players=2, seed=1, rules=rules, combos=[("ratmen", "heralds")])
    game.apply(sw.PickCombo(0))
    return game


def test_an_ability_during_turn_start_comes_before_the_first_conquest(tmp_path: Path) -> None:
    """`during turn_start`: the ability is offered in the conquests while the turn has no
    conquest yet."""
    game = _heralded(tmp_path)
    assert sw.UseAbility("herald") in game.legal_actions()
    coins = game.coins(0)
    game.apply(sw.UseAbility("herald"))
    assert game.coins(0) == coins + 1


def test_an_ability_during_turn_start_is_over_after_a_conquest_edge(tmp_path: Path) -> None:
    """`during turn_start` (edge): after the turn's first conquest the ability is not
    offered, and using it is refused with the reason, the game unchanged."""
    game = _heralded(tmp_path)
    game.apply(sw.Conquer(1))
    assert sw.UseAbility("herald") not in game.legal_actions()
    before = game.to_json()
    with pytest.raises(sw.IllegalAction, match="used during turn_start, not now"):
        game.apply(sw.UseAbility("herald"))
    assert game.to_json() == before
