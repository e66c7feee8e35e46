"""The four official boards (rule 1.3, rule 1.7, rule 1.15, rule 6; region ids) and
map validation (``build_map`` / ``load_map`` refuse bad boards with a ``MapError`` naming the
region at fault).

Expected numbers come from the cross-checked board survey shipped with the project (the maps
README: 23/30/39/48 regions, 51/71/95/119 borders, two edge Seas and one interior Lake per
board, 14/16/21/25 land regions legal for a first conquest). The precomputed bitmask tables are
checked against the region list, and the region list against the raw JSON read independently.
"""

from __future__ import annotations

import copy
import json
from importlib import resources
from pathlib import Path
from typing import Any

import pytest

import smallworld_rules as sw
from smallworld_rules.maps import FEATURES, TERRAINS, WATER_TERRAINS, build_map, map_for_players

# board: (players, turns, regions, borders, seas, lake, lost tribes, physical edge regions)
BOARDS = {
    "2p": (2, 10, 23, 51, (0, 22), 7, 9, 15),
    "3p": (3, 10, 30, 71, (0, 24), 14, 10, 16),
    "4p": (4, 9, 39, 95, (0, 38), 16, 14, 18),
    "5p": (5, 8, 48, 119, (0, 43), 20, 18, 21),
}
#: Land regions a first conquest may target (edge, or shore of an edge Sea): maps README.
FIRST_CONQUEST_LAND = {"2p": 14, "3p": 16, "4p": 21, "5p": 25}
#: Land regions that are legal first-conquest targets only through a Sea shore (maps README).
SEA_SHORE_ONLY = {"2p": [21], "3p": [7, 23], "4p": [1, 2, 6, 7, 13], "5p": [6, 11, 16, 17, 25, 31]}
#: Land terrain counts farmland/forest/hill/mountain/swamp and symbols per kind (maps README).
LAND_MIX = {
    "2p": ((4, 4, 4, 4, 4), 4),
    "3p": ((5, 5, 5, 7, 5), 5),
    "4p": ((7, 7, 7, 8, 7), 7),
    "5p": ((9, 9, 9, 9, 9), 9),
}
#: The one Mountain carrying both a Mine and a Cavern (maps README).
MINE_AND_CAVERN = {"2p": 5, "3p": 12, "4p": 21, "5p": 26}

NAMES = sorted(BOARDS)


def raw_doc(name: str) -> dict[str, Any]:
    """The shipped JSON of a board, read without going through ``build_map``."""
    text = resources.files("smallworld_rules.maps").joinpath(f"{name}.json").read_text("utf-8")
    doc: dict[str, Any] = json.loads(text)
    return doc


def bits(mask: int) -> set[int]:
    return {i for i in range(mask.bit_length()) if (mask >> i) & 1}


@pytest.fixture(params=NAMES)
def name(request: pytest.FixtureRequest) -> str:
    return str(request.param)


# ---------------------------------------------------------------- the official boards


def test_board_sizes_and_turn_track_section_1_3(name: str) -> None:
    """Rule 1.3 and the map survey: 23/30/39/48 regions and 10/10/9/8 turns for 2–5 players."""
    players, turns, regions, *_ = BOARDS[name]
    m = sw.load_map(name)
    assert (m.name, m.players, m.turns, len(m.regions), len(m)) == (
        name, players, turns, regions, regions,
    )
    assert map_for_players(players) == name
    game = sw.Game.new(players=players, seed=0)
    assert game.map_name == name and game.map.turns == turns


def test_region_ids_are_list_indices(name: str) -> None:
    """Region ids are exactly the ids of maps/*.json (``regions[i].id == i``)."""
    m = sw.load_map(name)
    raw = raw_doc(name)["regions"]
    assert [r.id for r in m.regions] == list(range(len(m.regions))) == [r["id"] for r in raw]
    for region, doc in zip(m.regions, raw, strict=True):
        assert region.terrain == doc["terrain"]
        assert region.features == frozenset(doc["features"])
        assert region.lost_tribe == doc["lost_tribe"]
        assert region.edge == doc["border"]
        assert sorted(region.adjacent) == sorted(doc["adjacent"])


def test_adjacency_symmetric_and_matches_bitmasks(name: str) -> None:
    """Rule 1.15: adjacency is a symmetric relation without self-loops; the precomputed bitmask
    table says exactly what ``regions[i].adjacent`` says; the board has its surveyed number of
    borders."""
    m = sw.load_map(name)
    n = len(m.regions)
    assert len(m.adjacency) == n
    edges = set()
    for r in m.regions:
        assert r.id not in r.adjacent
        assert len(set(r.adjacent)) == len(r.adjacent)
        assert bits(m.adjacency[r.id]) == set(r.adjacent)
        assert m.neighbours(r.id) == r.adjacent
        for a in r.adjacent:
            assert 0 <= a < n
            assert r.id in m.regions[a].adjacent, f"{r.id}->{a} is one-sided"
            assert (m.adjacency[a] >> r.id) & 1
            edges.add(frozenset((r.id, a)))
    assert len(edges) == BOARDS[name][3]


def test_board_is_connected(name: str) -> None:
    """Rule 1.7: every region can be reached by adjacent conquests (also without the water)."""
    m = sw.load_map(name)
    for allowed in (m.all_mask, m.all_mask & ~m.water_mask):
        start = (allowed & -allowed).bit_length() - 1
        seen = 1 << start
        frontier = seen
        while frontier:
            grown = 0
            for r in bits(frontier):
                grown |= m.adjacency[r]
            frontier = grown & allowed & ~seen
            seen |= frontier
        assert seen == allowed


def test_terrain_and_feature_masks_agree_with_regions(name: str) -> None:
    """Rule 6 terrain and symbols: each terrain and feature mask holds exactly the regions of that
    terrain or symbol; the masks partition the board; the survey's counts hold."""
    m = sw.load_map(name)
    assert set(m.terrain_masks) == set(TERRAINS)
    assert set(m.feature_masks) == set(FEATURES)
    for terrain, mask in m.terrain_masks.items():
        assert bits(mask) == {r.id for r in m.regions if r.terrain == terrain}
    for feature, mask in m.feature_masks.items():
        assert bits(mask) == {r.id for r in m.regions if feature in r.features}
    union = 0
    for mask in m.terrain_masks.values():
        assert union & mask == 0
        union |= mask
    assert union == m.all_mask == (1 << len(m.regions)) - 1
    land, per_feature = LAND_MIX[name]
    counts = [len(bits(m.terrain_masks[t])) for t in ("farmland", "forest", "hill", "mountain",
                                                       "swamp")]
    assert tuple(counts) == land
    assert all(len(bits(m.feature_masks[f])) == per_feature for f in FEATURES)
    double = [r.id for r in m.regions if len(r.features) > 1]
    assert double == [MINE_AND_CAVERN[name]]
    assert m.regions[double[0]].terrain == "mountain"
    assert m.regions[double[0]].features == {"mine", "cavern"}


def test_water_two_edge_seas_and_an_interior_lake_section_1_7(name: str) -> None:
    """Rule 1.7 / rule 6: every board has two Seas, both on the edge, and one Lake inside the map;
    water carries no symbol and no Lost Tribe; ``water_mask`` is exactly Seas + Lake."""
    _, _, _, _, seas, lake, _, _ = BOARDS[name]
    m = sw.load_map(name)
    assert bits(m.terrain_masks["sea"]) == set(seas)
    assert bits(m.terrain_masks["lake"]) == {lake}
    assert bits(m.water_mask) == {*seas, lake}
    assert all(m.regions[s].edge for s in seas)
    assert not m.regions[lake].edge
    for r in m.regions:
        if r.terrain in WATER_TERRAINS:
            assert not r.features and not r.lost_tribe


def test_lost_tribes_section_1_2(name: str) -> None:
    """Rule 1.2: one Lost Tribe token on each Lost Tribe symbol region (9/10/14/18 regions, at most
    the 18 tokens in the box); the mask agrees with the regions; a new game puts them there."""
    players, *_, tribes, _ = BOARDS[name]
    m = sw.load_map(name)
    marked = {r.id for r in m.regions if r.lost_tribe}
    assert len(marked) == tribes <= 18
    assert bits(m.lost_tribe_mask) == marked
    game = sw.Game.new(players=players, seed=3)
    assert {r for r in range(len(m.regions)) if game.region(r).lost_tribe} == marked


def test_entry_mask_is_edge_or_edge_sea_shore_ruling_1(name: str) -> None:
    """Rule 1.7 / ruling 1: a first conquest targets a region touching the edge or on the shore of a
    Sea that touches the edge. 14/16/21/25 land regions qualify; the two Seas add 2 each."""
    *_, edge_count = BOARDS[name]
    m = sw.load_map(name)
    seas = {r.id for r in m.regions if r.terrain == "sea"}
    expected = {
        r.id for r in m.regions if r.edge or any(a in seas for a in r.adjacent)
    }
    entry = bits(m.entry_mask)
    assert entry == expected
    assert len({r.id for r in m.regions if r.edge}) == edge_count
    land_entry = entry - bits(m.water_mask)
    assert len(land_entry) == FIRST_CONQUEST_LAND[name]
    assert len(entry) == FIRST_CONQUEST_LAND[name] + 2
    assert seas <= entry
    shore_only = sorted(r for r in land_entry if not m.regions[r].edge)
    assert shore_only == SEA_SHORE_ONLY[name]


def test_lake_shore_is_not_a_border_region_ruling_1(name: str) -> None:
    """Rule 1.7: the Lake does not touch the edge: neither the Lake nor a region whose only contact
    with the outside is the Lake is a border region."""
    *_, lake, _, _ = BOARDS[name]
    m = sw.load_map(name)
    assert not (m.entry_mask >> lake) & 1
    seas = bits(m.terrain_masks["sea"])
    lake_only = [
        r.id for r in m.regions
        if lake in r.adjacent and not r.edge and not seas & set(r.adjacent)
    ]
    assert lake_only, "every board has interior regions on the Lake shore"
    for r in lake_only:
        assert not (m.entry_mask >> r) & 1, f"region {r} only touches the Lake"


def test_coastal_mask_section_1_15(name: str) -> None:
    """Rule 1.15: a coastal region is a land region bordering a Sea or the Lake."""
    m = sw.load_map(name)
    water = bits(m.water_mask)
    expected = {
        r.id for r in m.regions if r.id not in water and any(a in water for a in r.adjacent)
    }
    assert bits(m.coastal_mask) == expected
    assert not m.coastal_mask & m.water_mask
    *_, lake, _, _ = BOARDS[name]
    assert set(m.regions[lake].adjacent) <= bits(m.coastal_mask)


def test_maps_are_immutable_and_cached() -> None:
    """A GameMap is immutable and official boards are loaded once per process."""
    m = sw.load_map("2p")
    assert sw.load_map("2p") is m
    with pytest.raises(AttributeError):
        m.turns = 3  # type: ignore[misc]


def test_first_conquest_uses_the_entry_mask_in_play() -> None:
    """Rule 1.7: a race with no region may conquer exactly the land regions of ``entry_mask``
    (those it can afford); interior regions are refused with a reason."""
    game = sw.Game.new(players=2, seed=1, combos=[("ratmen", "commando")])
    game.apply(sw.PickCombo(0))
    m = game.map
    targets = {a.region for a in game.legal_actions() if isinstance(a, sw.Conquer)}
    assert targets == bits(m.entry_mask & ~m.water_mask)
    interior = min(bits(m.all_mask & ~m.entry_mask & ~m.water_mask))
    with pytest.raises(sw.IllegalAction, match="border"):
        game.apply(sw.Conquer(interior))


# ---------------------------------------------------------------- refusing bad boards


def bad(mutate: Any) -> str:
    """Build a mutated copy of the 2p board; return the MapError message."""
    doc = copy.deepcopy(raw_doc("2p"))
    mutate(doc)
    with pytest.raises(sw.MapError) as info:
        build_map(doc, "broken")
    assert isinstance(info.value, sw.RulesError)
    return str(info.value)


def test_good_board_builds() -> None:
    """The shipped 2p document is accepted by ``build_map`` unchanged (the mutations below are
    what makes the other documents fail)."""
    m = build_map(raw_doc("2p"), "copy")
    assert m.name == "copy" and m.adjacency == sw.load_map("2p").adjacency


def test_asymmetric_adjacency_refused() -> None:
    """Adjacency must be symmetric: a one-sided neighbour names both regions."""

    def mutate(doc: dict[str, Any]) -> None:
        doc["regions"][3]["adjacent"].remove(4)

    msg = bad(mutate)
    assert "broken" in msg and "region 4" in msg and "3" in msg


def test_unknown_terrain_refused() -> None:
    """Terrain must be one of the seven known kinds; the message names region and terrain."""

    def mutate(doc: dict[str, Any]) -> None:
        doc["regions"][9]["terrain"] = "desert"

    msg = bad(mutate)
    assert "region 9" in msg and "desert" in msg


def test_id_not_index_refused() -> None:
    """Region ids must equal their position in the list."""

    def mutate(doc: dict[str, Any]) -> None:
        doc["regions"][6]["id"] = 60

    msg = bad(mutate)
    assert "region 6" in msg and "id" in msg


def test_out_of_range_neighbour_refused() -> None:
    """A neighbour id must be another region of the board."""

    def mutate(doc: dict[str, Any]) -> None:
        doc["regions"][12]["adjacent"].append(23)

    msg = bad(mutate)
    assert "region 12" in msg and "adjacent" in msg


def test_self_and_duplicate_neighbours_refused() -> None:
    """A region is not its own neighbour, and lists each neighbour once."""

    def self_loop(doc: dict[str, Any]) -> None:
        doc["regions"][2]["adjacent"].append(2)

    def twice(doc: dict[str, Any]) -> None:
        doc["regions"][2]["adjacent"].append(1)

    assert "region 2" in bad(self_loop)
    assert "region 2" in bad(twice) and "twice" in bad(twice)


def test_water_with_lost_tribe_or_symbol_refused() -> None:
    """Rule 6: water regions carry no Lost Tribe and no symbol."""

    def tribe(doc: dict[str, Any]) -> None:
        doc["regions"][7]["lost_tribe"] = True

    def symbol(doc: dict[str, Any]) -> None:
        doc["regions"][22]["features"] = ["mine"]

    assert "region 7" in bad(tribe)
    assert "region 22" in bad(symbol)


def test_unknown_feature_and_bad_flags_refused() -> None:
    """Unknown symbols and non-boolean flags are refused, naming the region."""

    def feature(doc: dict[str, Any]) -> None:
        doc["regions"][4]["features"] = ["gold"]

    def flag(doc: dict[str, Any]) -> None:
        doc["regions"][4]["border"] = "yes"

    assert "region 4" in bad(feature) and "gold" in bad(feature)
    assert "region 4" in bad(flag)


def test_missing_keys_and_bad_header_refused() -> None:
    """The document needs players, turns and a non-empty region list."""

    def no_turns(doc: dict[str, Any]) -> None:
        del doc["turns"]

    def no_regions(doc: dict[str, Any]) -> None:
        doc["regions"] = []

    def bad_players(doc: dict[str, Any]) -> None:
        doc["players"] = "two"

    assert "turns" in bad(no_turns)
    assert "regions" in bad(no_regions)
    assert "players" in bad(bad_players)
    with pytest.raises(sw.MapError):
        build_map([], "list")  # type: ignore[arg-type]


def test_unknown_map_name_refused() -> None:
    """``load_map("7p")`` is a clear MapError listing the official boards; so is a Game on a
    board that does not exist or a player count without an official board."""
    with pytest.raises(sw.MapError, match="7p") as info:
        sw.load_map("7p")
    for official in NAMES:
        assert official in str(info.value)
    with pytest.raises(sw.MapError):
        map_for_players(7)
    with pytest.raises(sw.RulesError, match="7p"):
        sw.Game.new(players=2, map="7p")


def test_custom_map_file(tmp_path: Path) -> None:
    """A map file given by path loads under its stem; a broken one is a MapError naming it."""
    doc = raw_doc("2p")
    good = tmp_path / "island.json"
    good.write_text(json.dumps(doc), encoding="utf-8")
    m = sw.load_map(good)
    assert m.name == "island" and len(m.regions) == 23
    game = sw.Game.new(players=2, seed=1, map=str(good))
    assert game.map_name == "island"
    broken = tmp_path / "broken.json"
    broken.write_text("{not json", encoding="utf-8")
    with pytest.raises(sw.MapError, match="broken"):
        sw.load_map(broken)
    with pytest.raises(sw.MapError):
        sw.load_map(tmp_path / "missing.json")
