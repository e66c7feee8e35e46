"""A Spider's Web (expansions/spiders_web/copycat.swr): the Copycat.

Copycat (3): once per turn the race borrows the badge of a combo of the market (`borrow
power`, an ability aimed at `target combo`): it also plays by that badge's rules, not its
tokens, until its owner's next turn starts or until that badge leaves the market.

2-player map: Farmland 1 (edge), Forest 2 (edge), Mountain 5 (edge), Hill 6 (Lost Tribe;
next to 1, 2 and 5). After player 0 picks the Copycat combo the market reads: 0 Commando,
1 Dragon Master, 2 Wealthy, 3 Forest, 4 Merchant.
"""

from __future__ import annotations

import json

import pytest
from helpers import deploy_all_and_end, new_game

import smallworld_rules as sw
from smallworld_rules.events import Scored

MARKET = [("ratmen", "copycat"), ("humans", "commando"), ("elves", "dragon_master"),
          ("dwarves", "wealthy"), ("orcs", "forest"), ("giants", "merchant")]


@pytest.fixture(scope="module")
def spiders_web() -> sw.Rules:
    return sw.load_rules(expansions=["spiders_web"])


def copycat(rules: sw.Rules) -> sw.Game:
    """Player 0 has just picked the Ratmen Copycat (11 tokens)."""
    game = new_game(rules, MARKET)
    game.apply(sw.PickCombo(0))
    return game


def mirrors(game: sw.Game) -> set[int | str | None]:
    return {a.target for a in game.legal_actions()
            if isinstance(a, sw.UseAbility) and a.name == "mirror"}


def test_copycat_badge(spiders_web: sw.Rules) -> None:
    """Copycat: the badge gives 3 tokens; its ability aims at a combo of the market."""
    power = spiders_web.powers["copycat"]
    assert power.tokens == 3
    assert [(a.name, a.target, a.limit) for a in power.abilities] == [
        ("mirror", "combo", "once_per_turn")
    ]


def test_borrowed_commando_lowers_conquest_costs(spiders_web: sw.Rules) -> None:
    """Copycat: the race borrows the Commando badge of the market and conquers at 1 token
    less, once per turn (no second borrowing that turn)."""
    game = copycat(spiders_web)
    assert mirrors(game) == {0, 1, 2, 3, 4, 5}
    assert [game.explain_conquest_cost(r).value for r in (1, 5, 6)] == [2, 3, 3]
    game.apply(sw.UseAbility("mirror", 0))
    assert game.powers(0) == ["copycat", "commando"]
    assert [game.explain_conquest_cost(r).value for r in (1, 5, 6)] == [1, 2, 2]
    assert mirrors(game) == set()  # once per turn
    with pytest.raises(sw.IllegalAction, match="already used this turn"):
        game.apply(sw.UseAbility("mirror", 1))
    game.apply(sw.Conquer(1))
    assert game.region(1).tokens == 1


def test_borrowed_dragon_master_gives_its_ability(spiders_web: sw.Rules) -> None:
    """Copycat: the race borrowing Dragon Master may use its Dragon: conquer a region with a
    single token and put the immune Dragon there."""
    game = copycat(spiders_web)
    assert not any(isinstance(a, sw.UseAbility) and a.name == "dragon_attack"
                   for a in game.legal_actions())
    game.apply(sw.UseAbility("mirror", 1))
    game.apply(sw.Conquer(1))
    assert sw.UseAbility("dragon_attack", 6) in game.legal_actions()
    game.apply(sw.UseAbility("dragon_attack", 6))
    assert game.region(6).race == "ratmen" and game.region(6).tokens == 1
    assert game.region(6).pieces == {"dragon": 1}


def test_borrowed_pieces_go_back_when_the_borrowing_ends(spiders_web: sw.Rules) -> None:
    """Copycat: the Dragon placed under the borrowed Dragon Master stays through the other
    players' turns and goes back to its supply when the owner's next turn starts, so that
    whoever picks Dragon Master finds it."""
    game = copycat(spiders_web)
    game.apply(sw.UseAbility("mirror", 1))
    game.apply(sw.Conquer(1))
    game.apply(sw.UseAbility("dragon_attack", 6))
    deploy_all_and_end(game)
    assert game.region(6).pieces == {"dragon": 1}
    game.apply(sw.PickCombo(4))  # player 1 takes another combo
    game.apply(sw.Conquer(5))
    assert game.region(6).pieces == {"dragon": 1}  # through the other player's turn
    deploy_all_and_end(game)
    assert game.region(6).pieces == {} and game.region(6).race == "ratmen"
    assert game.powers(0) == ["copycat"]


def test_borrowed_wealthy_and_forest_score(spiders_web: sw.Rules) -> None:
    """Copycat: a borrowed badge's scoring works at the end of the turn: Wealthy's 7 coins
    at the end of the first turn, or Forest's coin per Forest region."""
    for target, bonus in ((2, 7), (3, 1)):
        game = copycat(spiders_web)
        game.apply(sw.UseAbility("mirror", target))
        game.apply(sw.Conquer(1))
        game.apply(sw.Conquer(2))  # a Forest
        deploy_all_and_end(game)
        score = [e for e in game.log if isinstance(e, Scored) and e.player == 0][-1]
        assert score.coins == 2 + bonus


def test_borrowing_ends_when_the_next_turn_starts(spiders_web: sw.Rules) -> None:
    """Copycat: the borrowed badge works until its owner's next turn starts; then the race
    plays by its own badge alone and may borrow again."""
    game = copycat(spiders_web)
    game.apply(sw.UseAbility("mirror", 0))
    game.apply(sw.Conquer(1))
    deploy_all_and_end(game)
    assert game.powers(0) == ["copycat", "commando"]  # through the other player's turn
    game.apply(sw.PickCombo(5))  # player 1 takes another combo
    deploy_all_and_end(game)
    assert game.powers(0) == ["copycat"]
    assert "borrowed" not in game.observation(0)["state"].get("lang", {})
    assert game.explain_conquest_cost(5).value == 3
    assert 0 in mirrors(game)


def test_borrowing_ends_when_the_combo_is_picked(spiders_web: sw.Rules) -> None:
    """Copycat: the race loses the borrowed power as soon as someone picks that combo, and
    the borrowed badge's Dragon goes back to its supply for the new owner."""
    game = copycat(spiders_web)
    game.apply(sw.UseAbility("mirror", 1))  # Dragon Master
    game.apply(sw.Conquer(1))
    game.apply(sw.UseAbility("dragon_attack", 6))
    deploy_all_and_end(game)
    game.apply(sw.PickCombo(1))  # player 1 takes the Elves Dragon Master
    assert game.region(6).pieces == {}  # the Dragon is back in its supply, for the Elves
    assert game.powers(0) == ["copycat"]
    assert game.powers(1) == ["dragon_master"]
    assert "borrowed" not in game.observation(0)["state"].get("lang", {})


def test_borrowing_ends_with_the_badge_at_decline(spiders_web: sw.Rules) -> None:
    """Copycat: the borrowing comes with the Copycat badge; once the race declines and its
    badge is discarded, the borrowed power no longer works for it."""
    game = copycat(spiders_web)
    game.apply(sw.UseAbility("mirror", 2))
    game.apply(sw.Conquer(1))
    deploy_all_and_end(game)
    game.apply(sw.PickCombo(5))
    deploy_all_and_end(game)
    game.apply(sw.Decline())
    assert game.powers(0) == []


def test_borrowed_badge_is_saved_and_observed(spiders_web: sw.Rules) -> None:
    """Copycat: what the race borrows is part of the saved game and of every player's
    observation; a save naming an unknown badge is refused."""
    game = copycat(spiders_web)
    game.apply(sw.UseAbility("mirror", 0))
    assert game.observation(1)["state"]["lang"]["borrowed"] == {"ratmen": "commando"}
    back = sw.Game.from_json(game.to_json(), rules=spiders_web)
    assert back.powers(0) == ["copycat", "commando"]
    assert back.explain_conquest_cost(1).value == 1
    doc = json.loads(game.to_json())
    doc["state"]["lang"]["borrowed"] = {"ratmen": "nonsense"}
    with pytest.raises(sw.RulesError, match="borrowed"):
        sw.Game.from_json(json.dumps(doc), rules=spiders_web)
    doc["state"]["lang"]["borrowed"] = ["ratmen"]
    with pytest.raises(sw.RulesError, match="borrowed"):
        sw.Game.from_json(json.dumps(doc), rules=spiders_web)


def test_no_combo_beyond_the_market(spiders_web: sw.Rules) -> None:
    """Copycat: the target is a combo of the market; a place past its end is refused and
    the game is unchanged."""
    game = copycat(spiders_web)
    before = game.to_json()
    with pytest.raises(sw.IllegalAction, match="no combo 6"):
        game.apply(sw.UseAbility("mirror", 6))
    assert game.to_json() == before
