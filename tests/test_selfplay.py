"""Self-play data (``smallworld_rules.selfplay``, ``smallworld selfplay``): one ``.npz`` file
per game with every move's observation, legal mask, action and outcome, deterministic by
seed, resumable."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import smallworld_rules as sw
from smallworld_rules import cli, selfplay
from smallworld_rules.bots import RandomBot

np = pytest.importorskip("numpy")

BOTS = ["greedy", "random"]


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    folder = tmp_path_factory.mktemp("selfplay")
    return selfplay.generate(folder, games=3, bots=BOTS, seed=2, workers=2)


def test_the_files_hold_every_move(run: list[Path]) -> None:
    """Every move has an observation of the documented size, a legal mask with the action
    taken in it, the mover and the mover's final outcome (1 for a winner)."""
    meta = json.loads((run[0].parent / "selfplay.json").read_text(encoding="utf-8"))
    assert meta["format"] == "smallworld_rules/selfplay" and meta["games"] == 3
    assert [p.name for p in run] == ["game-000000.npz", "game-000001.npz", "game-000002.npz"]
    for index, path in enumerate(run):
        data = np.load(path)
        moves = len(data["actions"])
        assert moves > 20
        assert data["observations"].shape == (moves, meta["observation_size"])
        assert data["legal_masks"].shape == (moves, meta["action_size"])
        assert data["legal_masks"][np.arange(moves), data["actions"]].all()
        assert int(data["game"]) == index and int(data["seed"]) == 2 + index
        assert list(data["seats"]) == [BOTS[(s + index) % 2] for s in range(2)]
        won = data["winners"][data["players"]]
        assert np.array_equal(data["outcomes"] == 1.0, won)
        assert set(data["outcomes"].tolist()) <= {1.0, -1.0}
        assert set(data["players"].tolist()) == {0, 1}


def test_the_game_in_a_file_is_the_seeded_game(run: list[Path]) -> None:
    """Replaying the recorded action indices (read back through ``action_names``'s layout)
    from the same seed reaches the recorded final coins: the data is the game itself."""
    data = np.load(run[1])
    game = sw.Game.new(players=2, seed=int(data["seed"]))
    layout = selfplay.encoding(game)
    for index in data["actions"]:
        action = next(a for a in game.legal_actions() if layout.action_index(a) == index)
        game.apply(action)
    assert game.is_over
    assert [game.coins(p) for p in range(2)] == data["coins"].tolist()


def test_distinct_legal_actions_have_distinct_indices() -> None:
    """The legal mask loses nothing: at every position of random games, the legal actions'
    indices are all different."""
    for seed in range(3):
        game = sw.Game.new(players=3, seed=seed)
        bot = RandomBot(seed)
        layout = selfplay.encoding(game)
        while not game.is_over:
            legal = list(game.legal_actions())
            indices = {layout.action_index(a) for a in legal}
            assert len(indices) == len(legal)
            assert int(layout.legal_mask(legal).sum()) == len(legal)
            game.apply(bot.choose(game))


def test_same_seed_same_data_and_resume(run: list[Path], tmp_path: Path) -> None:
    """The same arguments give the same arrays, whatever the workers; a run interrupted
    (here: a file removed) plays only the missing game when run again."""
    again = selfplay.generate(tmp_path, games=3, bots=BOTS, seed=2, workers=1)
    for a, b in zip(run, again, strict=True):
        left, right = np.load(a), np.load(b)
        for key in left.files:
            assert np.array_equal(left[key], right[key]), key
    kept = again[0].stat().st_mtime_ns
    again[2].unlink()
    selfplay.generate(tmp_path, games=3, bots=BOTS, seed=2, workers=1)
    assert again[2].exists() and again[0].stat().st_mtime_ns == kept
    assert np.array_equal(np.load(again[2])["actions"], np.load(run[2])["actions"])


def test_another_runs_folder_is_refused(run: list[Path], tmp_path: Path) -> None:
    with pytest.raises(sw.RulesError, match="another self-play run"):
        selfplay.generate(run[0].parent, games=3, bots=BOTS, seed=3)
    (tmp_path / "notes.txt").write_text("mine", encoding="utf-8")
    with pytest.raises(sw.RulesError, match="not empty"):
        selfplay.generate(tmp_path, games=1)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes.txt"]


def test_cli_selfplay(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``smallworld selfplay --out DIR`` writes the files and says how many games (with a
    progress bar when asked)."""
    code = cli.main(["selfplay", "--out", str(tmp_path / "data"), "--games", "2", "--bots",
                     "random", "--workers", "1", "--seed", "4", "--progress"])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert err.endswith("] 2/2 games\n") and "Traceback" not in err
    assert out.strip() == f"2 games of self-play data in {tmp_path / 'data'}"
    assert sorted(p.name for p in (tmp_path / "data").iterdir()) == [
        "game-000000.npz", "game-000001.npz", "selfplay.json"
    ]
    code = cli.main(["selfplay", "--out", str(tmp_path / "x"), "--bots", "clever"])
    out, err = capsys.readouterr()
    assert code == 2 and "unknown bot 'clever'" in err and "Traceback" not in err
