"""Small World Underground (expansions/underground/), played on the base maps: the
Will-o'-Wisps, written with the rule language's ``conquer with die``.

Will-o'-Wisps: before any conquest of a Magic Source region (the Underground's Mystic
Crystals), or of a region adjacent to a Magic Source region the Wisps occupy, the player may
name the region and roll the reinforcement die; the region then costs the result less (at
least 1 token). If the tokens in hand suffice, the Wisps must conquer it, whatever the
roll; if they fall short, their conquests end.

2-player map: Farmland 1 (edge, Magic Source), Forest 2 (edge, next to 1), Hill 4 (edge,
not next to a Magic Source), Mountain 5 (edge, next to 1), Hill 6 (Lost Tribe, next to 1),
Forest 10 (edge, Magic Source, Lost Tribe), Swamp 16 (edge, Magic Source, Lost Tribe).
"""

from __future__ import annotations

import pytest
from helpers import new_game

import smallworld_rules as sw
from smallworld_rules.events import Conquered, DieRolled


def wisps(rules: sw.Rules, chance: str = "explicit") -> sw.Game:
    game = new_game(rules, [("will_o_wisps", "plain"), ("crowd", "plain2")], chance=chance)
    game.apply(sw.PickCombo(0))
    return game


def targets(game: sw.Game) -> list[int | None]:
    return [
        a.target for a in game.legal_actions()
        if isinstance(a, sw.UseAbility) and a.name == "wisp_light"
    ]


def last_roll(game: sw.Game) -> DieRolled:
    return [e for e in game.log if isinstance(e, DieRolled)][-1]


def test_will_o_wisps_banner_and_box(underground: sw.Rules) -> None:
    """Will-o'-Wisps: the banner gives 6 tokens; the box holds 11; the file is in the
    Underground box."""
    race = underground.races["will_o_wisps"]
    assert (race.tokens, race.box) == (6, 11)
    assert wisps(underground).hand(0) == 6


def test_will_o_wisps_roll_before_conquering_a_magic_source(underground: sw.Rules) -> None:
    """Will-o'-Wisps: the die may be rolled before a conquest of a Magic Source region:
    Forest 10 (2 + 1 Lost Tribe) with a 2 is conquered with 1 token, and the conquests go
    on (the die was not a final attempt)."""
    game = wisps(underground)
    assert set(targets(game)) == {1, 10, 16}  # the Magic Source regions on the edge
    game.apply(sw.UseAbility("wisp_light", 10))
    assert game.to_move is sw.CHANCE
    game.apply(sw.RollDie(2))
    assert (last_roll(game).region, last_roll(game).face, last_roll(game).success) == (
        10, 2, True
    )
    assert (game.region(10).race, game.region(10).tokens, game.hand(0)) == (
        "will_o_wisps", 1, 5
    )
    assert game.phase == "conquest" and targets(game)


def test_will_o_wisps_next_to_a_magic_source_they_occupy(underground: sw.Rules) -> None:
    """Will-o'-Wisps: a region adjacent to a Magic Source region the Wisps occupy may be
    rolled for; next to one they do not occupy it may not: Forest 2 (next to Farmland 1)
    only once the Wisps hold Farmland 1, and Hill 4 (next to none) never."""
    game = wisps(underground)
    assert 2 not in targets(game) and 4 not in targets(game)
    game.apply(sw.Conquer(1))
    assert {2, 5, 6} <= set(targets(game)) and 4 not in targets(game)
    game.apply(sw.UseAbility("wisp_light", 2))
    game.apply(sw.RollDie(1))
    assert (game.region(2).race, game.region(2).tokens, game.hand(0)) == (
        "will_o_wisps", 1, 3
    )


def test_will_o_wisps_must_conquer_once_rolled(underground: sw.Rules) -> None:
    """Will-o'-Wisps: once the die is rolled, the named region must be conquered if the
    tokens in hand suffice, whatever the roll: Forest 10 with a 0 takes its full 3."""
    game = wisps(underground)
    game.apply(sw.UseAbility("wisp_light", 10))
    game.apply(sw.RollDie(0))
    conquered = [e for e in game.log if isinstance(e, Conquered)][-1]
    assert (conquered.region, conquered.tokens, game.hand(0)) == (10, 3, 3)


def test_will_o_wisps_a_roll_that_falls_short_ends_the_conquests(
    underground: sw.Rules,
) -> None:
    """Will-o'-Wisps (judgement call): a roll that leaves the named region too dear ends the
    conquests, as a final die attempt that falls short: 1 token in hand for Hill 6 (3, next
    to the Wisps' Farmland 1) with a 1 takes nothing, and the race redeploys."""
    game = wisps(underground)
    game.apply(sw.Conquer(1))  # 2 tokens: 4 left
    game.apply(sw.Conquer(5))  # 3 tokens: 1 left
    assert game.hand(0) == 1 and 6 in targets(game)
    game.apply(sw.UseAbility("wisp_light", 6))
    game.apply(sw.RollDie(1))
    assert (last_roll(game).region, last_roll(game).success) == (6, False)
    assert game.region(6).lost_tribe and game.phase == "redeploy"
    assert not any(isinstance(a, sw.Conquer) for a in game.legal_actions())


def test_will_o_wisps_no_roll_beyond_the_dies_reach(underground: sw.Rules) -> None:
    """Will-o'-Wisps: no roll is offered for a region even the die's best face (3) leaves
    too dear: Forest 10 holding 6 Lost Tribe tokens (8) with 4 in hand; asking is refused
    and changes nothing."""
    game = new_game(underground, [("will_o_wisps", "plain"), ("crowd", "plain2")])
    game.put(10, None, 6)
    game.apply(sw.PickCombo(0))
    game.apply(sw.Conquer(1))
    assert game.conquest_cost(10) == 8 and 10 not in targets(game)
    before = game.to_json()
    with pytest.raises(sw.IllegalAction):
        game.apply(sw.UseAbility("wisp_light", 10))
    assert game.to_json() == before


def test_will_o_wisps_seeded_roll(underground: sw.Rules) -> None:
    """Will-o'-Wisps: without chance nodes the game's seeded generator rolls the die, the
    same face for the same seed, and the conquest follows the face."""
    games = [wisps(underground, chance="seeded") for _ in range(2)]
    for game in games:
        game.apply(sw.UseAbility("wisp_light", 10))
    assert games[0].to_json() == games[1].to_json()
    face = last_roll(games[0]).face
    assert games[0].region(10).tokens == max(1, 3 - face)


def test_will_o_wisps_option_roll_again(underground: sw.Rules) -> None:
    """Will-o'-Wisps, game option wisps_roll_again (one implementation's reading): a roll that
    falls short takes nothing and the conquests go on, so the die may be rolled again for
    the same region; the booklet's reading (the default) offers the other ability only."""
    game = new_game(
        underground, [("will_o_wisps", "plain"), ("crowd", "plain2")], chance="explicit",
        options={"wisps_roll_again": True},
    )
    game.apply(sw.PickCombo(0))
    assert targets(game) == []  # the default's ability is off
    game.apply(sw.Conquer(1))
    game.apply(sw.Conquer(5))  # 1 token left
    again = [a for a in game.legal_actions() if isinstance(a, sw.UseAbility)]
    assert sw.UseAbility("wisp_light_again", 6) in again
    game.apply(sw.UseAbility("wisp_light_again", 6))
    game.apply(sw.RollDie(1))
    assert (last_roll(game).region, last_roll(game).success) == (6, False)
    assert game.phase == "conquest" and game.region(6).lost_tribe and game.hand(0) == 1
    game.apply(sw.UseAbility("wisp_light_again", 6))
    game.apply(sw.RollDie(2))
    assert (game.region(6).race, game.region(6).tokens, game.hand(0)) == (
        "will_o_wisps", 1, 0
    )
    assert "wisp_light_again" not in {
        a.name for a in wisps(underground).legal_actions() if isinstance(a, sw.UseAbility)
    }


def test_will_o_wisps_saved_while_the_roll_waits(underground: sw.Rules) -> None:
    """Will-o'-Wisps: a game saved while the die rolled for a named region waits resumes at
    the same chance node, for the same region; a save whose pending roll is corrupt is
    refused with a short message."""
    game = wisps(underground)
    game.apply(sw.UseAbility("wisp_light", 10))
    saved = game.to_json()
    copy = sw.Game.from_json(saved, rules=underground)
    for g in (game, copy):
        g.apply(sw.RollDie(1))
    assert game.to_json() == copy.to_json() and copy.region(10).tokens == 2
    bad = saved.replace('"die_conquest":"end"', '"die_conquest":"maybe"')
    assert bad != saved
    with pytest.raises(sw.RulesError, match="die_conquest"):
        sw.Game.from_json(bad, rules=underground)
