"""The expansion boxes: the catalogue of every published race and power (expansions/
CATALOGUE.toml) against the rule files, and loading the boxes by id.

A box is a folder ``expansions/<id>/`` with one rule file per race or power (file stem ==
id), loaded with ``sw.load_rules(expansions=[id])``; ``expansions/<id>.swr`` is a whole
expansion file (Necromancer Island). Loading a box adds its banners and badges to the stacks
the market is dealt from, and saves and records name the boxes so that the same rules load
again.
"""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import pytest

import smallworld_rules as sw
from smallworld_rules import cli
from smallworld_rules.rules import available_expansions, rules_root

EXPANSIONS = rules_root() / "expansions"
CATALOGUE = tomllib.loads((EXPANSIONS / "CATALOGUE.toml").read_text(encoding="utf-8"))
BOXES: dict[str, dict[str, object]] = CATALOGUE["boxes"]
ITEMS = [(box, item) for box, data in BOXES.items() for item in data["items"]]  # type: ignore[union-attr]
STATUSES = {"rule file", "needs construct", "unconfirmed", "not on the base maps"}
BASE = sw.load_rules()


def test_catalogue_counts_every_published_item() -> None:
    """The catalogue: Cursed! 2 races + 5 powers, Grand Dames 3 + 2, Be Not Afraid 5 + 5,
    Royal Bonus 3 + 3, A Spider's Web 3 + 3, Underground 15 + 21: 70 items, ids unique."""
    counts = {
        box: (
            sum(1 for i in data["items"] if i["kind"] == "race"),  # type: ignore[union-attr]
            sum(1 for i in data["items"] if i["kind"] == "power"),  # type: ignore[union-attr]
        )
        for box, data in BOXES.items()
    }
    assert counts == {
        "cursed": (2, 5),
        "grand_dames": (3, 2),
        "be_not_afraid": (5, 5),
        "royal_bonus": (3, 3),
        "spiders_web": (3, 3),
        "underground": (15, 21),
    }
    ids = [item["id"] for _, item in ITEMS]
    assert len(ids) == len(set(ids)) == 70
    assert not set(ids) & (set(BASE.races) | set(BASE.powers))


@pytest.mark.parametrize(("box", "item"), ITEMS, ids=[i["id"] for _, i in ITEMS])
def test_catalogue_item_is_complete(box: str, item: dict[str, object]) -> None:
    """Each item: a kind, a rule in our words, a known status; a printed token number or a
    note on what the sources give; a missing construct named where it is blocked, the
    disagreement named where it is unconfirmed."""
    assert item["kind"] in ("race", "power")
    assert isinstance(item["rule"], str) and item["rule"]
    assert item["status"] in STATUSES
    assert ("tokens" in item) != ("tokens_note" in item)
    if item["status"] == "needs construct":
        assert isinstance(item.get("needs"), str) and item["needs"]
    if item["status"] == "unconfirmed":
        assert isinstance(item.get("unconfirmed"), str) and item["unconfirmed"]
    if item["status"] == "not on the base maps":
        assert isinstance(item.get("excluded"), str) and item["excluded"]
    if item["status"] == "rule file":
        assert isinstance(item.get("tokens"), int)
        assert "needs" not in item and "unconfirmed" not in item


@pytest.mark.parametrize(("box", "item"), ITEMS, ids=[i["id"] for _, i in ITEMS])
def test_a_rule_file_exactly_for_the_written_items(box: str, item: dict[str, object]) -> None:
    """A "rule file" item has expansions/<box>/<id>.swr, of its kind and with its printed
    tokens; no other item has a file (no approximations)."""
    path = EXPANSIONS / box / f"{item['id']}.swr"
    assert path.is_file() == (item["status"] == "rule file")
    if path.is_file():
        rules = sw.load_rules(expansions=[box])
        table = rules.races if item["kind"] == "race" else rules.powers
        rule = table[str(item["id"])]
        assert (rule.kind, rule.tokens, rule.name) == (item["kind"], item["tokens"], item["name"])
        source = path.read_text(encoding="utf-8")
        assert source.startswith("#") and "Sources" in source.split(f"{item['kind']} ")[0]


def test_every_box_file_is_catalogued() -> None:
    """Every rule file in a box folder is a catalogued item of that box."""
    listed = {(box, item["id"]) for box, item in ITEMS}
    files = {(p.parent.name, p.stem) for p in EXPANSIONS.glob("*/*.swr")}
    assert files and files <= listed


def test_expansion_ids_are_the_files_and_folders() -> None:
    """available_expansions(): the whole-expansion files and the box folders that hold rule
    files, sorted."""
    assert available_expansions() == (
        "be_not_afraid", "cursed", "grand_dames", "necromancer_island", "royal_bonus",
        "spiders_web", "underground",
    )
    boxes = {box for box, item in ITEMS if item["status"] == "rule file"}
    assert boxes == {
        "be_not_afraid", "cursed", "grand_dames", "royal_bonus", "spiders_web", "underground",
    }


def test_a_box_loads_its_races_and_powers_by_id() -> None:
    """load_rules(expansions=["underground"]) adds the box's races and powers to the official
    ones and nothing else; Rules.boxes names it; no expansion file is compiled."""
    rules = sw.load_rules(expansions=["underground"])
    written = {
        kind: {i["id"] for b, i in ITEMS if b == "underground" and i["kind"] == kind
               and i["status"] == "rule file"}
        for kind in ("race", "power")
    }
    assert {"drow", "mudmen", "shadow_mimes"} <= written["race"]
    assert {"mining", "shield", "wise"} <= written["power"]
    assert set(rules.races) - set(BASE.races) == written["race"]
    assert set(rules.powers) - set(BASE.powers) == written["power"]
    assert rules.boxes == ("underground",) and rules.expansion_ids == ("underground",)
    assert dict(rules.expansions) == {}


def test_boxes_and_expansions_load_together() -> None:
    """Several boxes and Necromancer Island load together; the ids are listed once, sorted."""
    rules = sw.load_rules(expansions=["underground", "necromancer_island", "cursed", "cursed"])
    assert {"goblins", "mummies", "ogres"} <= set(rules.races)
    assert set(rules.expansions) == {"necromancer_island"}
    assert rules.boxes == ("underground", "cursed")
    assert rules.expansion_ids == ("cursed", "necromancer_island", "underground")


def test_necromancer_island_loads_as_before_edge() -> None:
    """Necromancer Island alone (edge): the same races and powers as the base game, its one
    expansion, no box."""
    rules = sw.load_rules(expansions=["necromancer_island"])
    assert (set(rules.races), set(rules.powers)) == (set(BASE.races), set(BASE.powers))
    assert rules.boxes == () and rules.expansion_ids == ("necromancer_island",)


def test_unknown_expansion_names_the_available_ones_edge() -> None:
    """An unknown id (edge) is refused with the list of the ids there are."""
    with pytest.raises(sw.RulesError, match=r"unknown expansion 'spiders'.*cursed.*underground"):
        sw.load_rules(expansions=["spiders"])


def test_box_banners_and_badges_join_the_market() -> None:
    """With the boxes loaded, their banners and badges are dealt like the official ones: over
    a few seeded games the market shows each race and power that has a rule file."""
    boxes = [box for box in available_expansions() if box != "necromancer_island"]
    rules = sw.load_rules(expansions=boxes)
    new = {str(item["id"]) for _, item in ITEMS if item["status"] == "rule file"}
    assert new <= set(rules.races) | set(rules.powers)
    seen: set[str] = set()
    for seed in range(40):
        game = sw.Game.new(players=2, seed=seed, rules=rules)
        seen |= {race for race, _, _ in game.market} | {power for _, power, _ in game.market}
    assert new <= seen
    official = sw.Game.new(players=2, seed=0)
    assert not new & {x for race, power, _ in official.market for x in (race, power)}


def test_a_save_names_the_boxes_and_loads_them_again() -> None:
    """A saved game names its boxes; Game.from_json loads them again and the game goes on."""
    rules = sw.load_rules(expansions=["cursed", "underground"])
    game = sw.Game.new(players=2, seed=5, rules=rules, combos=[("mummies", "muddy")])
    game.apply(sw.PickCombo(0))
    saved = game.to_json()
    assert json.loads(saved)["expansions"] == ["cursed", "underground"]
    again = sw.Game.from_json(saved)
    assert again.active_race(0) == "mummies" and again.conquest_cost(1) == 3
    assert again.to_json() == saved


def test_show_help_lists_the_expansion_ids(capsys: pytest.CaptureFixture[str]) -> None:
    """``smallworld show --help`` lists every expansion id."""
    with pytest.raises(SystemExit):
        cli.main(["show", "--help"])
    out = " ".join(capsys.readouterr().out.split())
    assert (
        "be_not_afraid, cursed, grand_dames, necromancer_island, royal_bonus, spiders_web,"
        " underground" in out
    )


def test_show_finds_a_box_item(capsys: pytest.CaptureFixture[str]) -> None:
    """``smallworld show goblins --expansion cursed`` prints the Goblins' rules and file."""
    assert cli.main(["show", "goblins", "--expansion", "cursed"]) == 0
    out = capsys.readouterr().out
    assert "Goblins" in out and "race in decline" in out and "goblins.swr" in out


def test_the_wheel_maps_the_expansions_folder() -> None:
    """The wheel carries expansions/ whole (subfolders included): pyproject force-includes the
    folder, not a list of files."""
    pyproject = tomllib.loads(
        (Path(__file__).parent.parent / "pyproject.toml").read_text(encoding="utf-8")
    )
    include = pyproject["tool"]["hatch"]["build"]["targets"]["wheel"]["force-include"]
    assert include["expansions"] == "smallworld_rules/_rules/expansions"


def test_a_record_names_the_boxes_and_replays() -> None:
    """A game record names its boxes; replaying it loads them and reproduces every step."""
    from smallworld_rules.records import make_record, replay_record

    rules = sw.load_rules(expansions=["underground", "cursed"])
    game = sw.Game.new(players=3, seed=4, rules=rules, combos=[("goblins", "stone")])
    bots = [sw.RandomBot(seed=p) for p in range(3)]
    while not game.is_over:
        player = game.to_move
        assert isinstance(player, int)
        game.apply(bots[player].choose(game.observation(player), list(game.legal_actions())))
    record = make_record(game)
    assert record["rules"]["expansions"] == ["cursed", "underground"]
    replayed, changed = replay_record(json.dumps(record))
    assert changed == [] and replayed.to_json() == game.to_json()
