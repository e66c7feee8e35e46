"""``print(game)``: the position as text (``smallworld_rules.textboard``): who is to move,
every player's races and coins, the market, and every region with what stands there."""

from __future__ import annotations

import smallworld_rules as sw
from smallworld_rules.textboard import render


def test_str_lists_every_region_with_its_occupant() -> None:
    """Every region has a line with its terrain, symbols and occupant."""
    game = sw.Game.new(players=3, seed=2)
    race = game.market[0][0]
    piece = sorted(game.rules.pieces)[0]
    game.put(5, 1, 4, race=race, pieces={piece: 1})
    game.put(6, 2, 2, race=game.market[1][0], declined=True)
    lines = str(game).splitlines()
    assert lines[0] == "Small World, 3p map: round 1 of 10, player 0 to pick a combo"
    regions = lines[lines.index("Regions:") + 1:]
    assert len(regions) == len(game.map)
    name = game.rules.races[race].name
    assert regions[5].split()[0] == "5"
    assert f"player 1 {name} x4 [{piece} 1]" in regions[5]
    assert "in decline x2" in regions[6]
    for r, line in enumerate(regions):
        assert game.map.regions[r].terrain in line
        if game.region(r).lost_tribe:
            assert line.endswith(f"Lost Tribe x{game.region(r).tokens}")
        if not game.region(r).tokens:
            assert line.rstrip().endswith("-")


def test_players_market_and_coins() -> None:
    """Each player's line shows races and coins; the market lists the six combos; a viewer
    sees only their own coins (coins lie face down)."""
    game = sw.Game.new(players=2, seed=4)
    top = game.market[0]
    game.apply(sw.PickCombo(0))
    text = str(game)
    power, race = game.rules.powers[top[1]].name, game.rules.races[top[0]].name
    assert f"player 0: {power} {race}; {game.hand(0)} in hand; {game.coins(0)} coins" in text
    assert f"player 1: no race yet; {game.coins(1)} coins" in text
    assert "Market: 0. " in text and "5. " in text
    hidden = render(game, viewer=1)
    assert f"player 0: {power} {race}; {game.hand(0)} in hand; ? coins" in hidden
    assert f"player 1: no race yet; {game.coins(1)} coins" in hidden
    assert all(len(line) <= 88 for line in text.splitlines())


def test_repr_stays_short_and_zones_are_listed() -> None:
    """``repr`` stays one short line; an expansion's zones get a line each by name."""
    rules = sw.load_rules(expansions=["necromancer_island"])
    game = sw.Game.new(players=3, seed=1, rules=rules)
    assert repr(game).startswith("<Game ") and "\n" not in repr(game)
    text = str(game)
    for zone in rules.zones.values():
        assert any(line.startswith(f"{zone.name}: ") for line in text.splitlines())


def test_game_over_line() -> None:
    """At the end the first line names the winners."""
    game = sw.Game.new(players=2, seed=1)
    sw.play_game(game, [sw.RandomBot(0), sw.RandomBot(1)])
    winners = ", ".join(str(p) for p in game.winners)
    assert str(game).splitlines()[0].endswith(f"game over (won by player {winners})")
