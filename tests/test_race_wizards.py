"""Wizards (rule 2): +1 coin per Magic Source region occupied at the end of the turn,
while active only.

Positions are on the 2-player map. Magic Sources: region 1 (an empty Farmland on the edge),
10 (a Forest with a Lost Tribe on the edge), 13 (an interior Farmland with a Lost Tribe) and
16 (a Swamp with a Lost Tribe on the edge). Region 2 is an empty Forest next to 1, 14 a Hill
with a Lost Tribe between 10 and 13, 20 an empty Swamp on the edge next to 13 and to 21, an
empty Forest. ``plain``/``plain2``/``crowd``/``bulky`` are test rule files (tests/rules/).
"""

from __future__ import annotations

from helpers import deploy_all_and_end, new_game

import smallworld_rules as sw
from smallworld_rules.events import Scored


def _wizards(rules: sw.Rules, power: str = "plain") -> sw.Game:
    """Player 0 has just picked Wizards; then Crowd, then Ratmen with Hill are offered."""
    game = new_game(rules, [("wizards", power), ("crowd", "plain2"), ("ratmen", "hill")])
    game.apply(sw.PickCombo(0))
    return game


def _scored(game: sw.Game) -> Scored:
    event: Scored = [e for e in game.log if isinstance(e, Scored)][-1]
    return event


def test_wizards_banner_and_box_section_2(rules: sw.Rules) -> None:
    """Rule 2 Wizards: banner 5 tokens, 10 in the box."""
    assert (rules.races["wizards"].tokens, rules.races["wizards"].box) == (5, 10)
    assert _wizards(rules).hand(0) == 5


def test_one_coin_per_magic_source_section_2(rules: sw.Rules) -> None:
    """Rule 2 Wizards: region 1 (Magic Source) and 2 score 2 regions + 1 Magic Source = 3
    coins: 5 + 3 = 8."""
    game = _wizards(rules)
    game.apply(sw.Conquer(1))
    game.apply(sw.Conquer(2))
    deploy_all_and_end(game)
    assert _scored(game).coins == 3 and game.coins(0) == 5 + 3
    race, coins, text = _scored(game).details[0]
    assert (race, coins) == ("wizards", 3) and "races/wizards.swr" in text.replace("\\", "/")


def test_several_magic_sources_section_2(rules: sw.Rules) -> None:
    """Rule 2 Wizards: two Magic Sources (10, 13) among three regions: 3 + 2 = 5 coins."""
    game = _wizards(rules, "bulky")  # 5 + 5 tokens
    for region in (10, 14, 13):  # Lost Tribes, 3 each
        game.apply(sw.Conquer(region))
    deploy_all_and_end(game)
    assert _scored(game).coins == 3 + 2 and game.coins(0) == 5 + 5


def test_no_magic_source_no_bonus_section_2(rules: sw.Rules) -> None:
    """Rule 2 Wizards (edge): without a Magic Source the Wizards score their regions only: 20 and
    21 are not Magic Sources, and the neighbouring Magic Source 13, held by the enemy, is not
    theirs: 2 coins."""
    game = _wizards(rules)
    game.put(13, 1, 1, race="crowd")
    game.apply(sw.Conquer(20))
    game.apply(sw.Conquer(21))
    deploy_all_and_end(game)
    assert _scored(game).coins == 2 and game.coins(0) == 5 + 2


def test_no_bonus_in_the_decline_turn_or_after_section_2(rules: sw.Rules) -> None:
    """Rule 2 Wizards / rule 1.11–1.12 (edge): the bonus stops in decline: in the decline turn the
    Wizards on 1 (Magic Source) and 2 score 2, and the turn after, the declined Wizards still
    score 2 plus the new race's 1 region."""
    game = _wizards(rules)
    game.apply(sw.Conquer(1))
    game.apply(sw.Conquer(2))
    deploy_all_and_end(game)
    game.apply(sw.PickCombo(0))  # player 1: Crowd
    game.apply(sw.Conquer(20))
    deploy_all_and_end(game)
    coins = game.coins(0)
    game.apply(sw.Decline())
    assert _scored(game).coins == 2 and game.coins(0) == coins + 2
    deploy_all_and_end(game)
    game.apply(sw.PickCombo(0))  # player 0: Ratmen with Hill, 12 tokens
    game.apply(sw.Conquer(10))  # a Magic Source, but not the Wizards'
    deploy_all_and_end(game)
    assert _scored(game).coins == 2 + 1
    assert game.region(1).declined and game.region(1).race == "wizards"
