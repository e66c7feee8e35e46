"""Fingerprints of seeded games, to prove a change leaves every game byte for byte the same.

``python -m benchmarks.golden write FILE`` plays a fixed set of seeded random games (official
rules at 2 to 5 players, Necromancer Island at 3 to 6, explicit chance, every other expansion
box loaded together at 2 to 5 players) and writes one line per
game: the hash of its final ``to_json()``, of every event's repr, of every intermediate save,
and of the messages of a few refused actions. ``python -m benchmarks.golden check FILE`` plays
them again and names the first game that differs. Run ``write`` before a change and ``check``
after it.
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from collections.abc import Iterator
from pathlib import Path

import smallworld_rules as sw
from smallworld_rules.rules import available_expansions, rules_root


def _games() -> Iterator[tuple[str, sw.Rules, dict[str, object]]]:
    base = sw.load_rules()
    necro = sw.load_rules(expansions=["necromancer_island"])
    for players in (2, 3, 4, 5):
        for seed in range(8):
            yield f"base-{players}p-{seed}", base, {"players": players, "seed": seed}
    for players in (3, 4, 5, 6):
        for seed in range(4):
            yield f"necro-{players}p-{seed}", necro, {"players": players, "seed": seed}
    for seed in range(4):
        yield f"explicit-2p-{seed}", base, {"players": 2, "seed": seed, "chance": "explicit"}
    # the published boxes' races and powers, dealt into the market with the official ones
    published = [e for e in available_expansions() if e != "necromancer_island"]
    boxes = sw.load_rules(expansions=published)
    for players in (2, 3, 4, 5):
        for seed in range(6):
            yield f"boxes-{players}p-{seed}", boxes, {"players": players, "seed": seed}


class _Hash:
    """sha256 of the texts given, with the checkout's path taken out: explanations name each
    rule file by its path, which differs between two checkouts of the same code."""

    def __init__(self) -> None:
        self._h = hashlib.sha256()
        self._root = str(rules_root())

    def update(self, data: bytes) -> None:
        self._h.update(data.decode().replace(self._root, "<rules>").encode())

    def hexdigest(self) -> str:
        return self._h.hexdigest()


def _fingerprint(rules: sw.Rules, kwargs: dict[str, object]) -> str:
    game = sw.Game.new(rules=rules, **kwargs)  # type: ignore[arg-type]
    rng = random.Random(int(str(kwargs["seed"])) * 7919 + 1)
    h = _Hash()
    step = 0
    while not game.is_over:
        if game.to_move is sw.CHANCE:
            outcomes = game.chance_outcomes()
            action = outcomes[rng.randrange(len(outcomes))][0]
        else:
            options = list(game.legal_actions())
            action = options[rng.randrange(len(options))]
            if step % 7 == 0:  # a refused action: its message is part of the behaviour
                for bad in (sw.Conquer(0), sw.Deploy(0, 99), sw.EndTurn(), sw.Decline()):
                    if bad not in game.legal_actions():
                        try:
                            game.apply(bad)
                        except sw.IllegalAction as exc:
                            h.update(str(exc).encode())
                        break
        game.apply(action)
        step += 1
        if step % 5 == 0:
            h.update(game.to_json().encode())
            if step % 10 == 0:
                game.undo()
                game.apply(action)
    h.update(game.to_json().encode())
    for event in game.log:
        h.update(repr(event).encode())
    return h.hexdigest()


def fingerprints() -> dict[str, str]:
    return {name: _fingerprint(rules, kwargs) for name, rules, kwargs in _games()}


def main(argv: list[str]) -> int:
    if len(argv) != 2 or argv[0] not in ("write", "check"):
        print("usage: python -m benchmarks.golden write|check FILE")
        return 2
    verb, path = argv
    now = fingerprints()
    if verb == "write":
        Path(path).write_text(json.dumps(now, indent=1) + "\n")
        print(f"wrote {len(now)} fingerprints to {path}")
        return 0
    before = json.loads(Path(path).read_text())
    differ = [name for name in before if before[name] != now.get(name)]
    if differ:
        print(f"DIFFERENT: {len(differ)} of {len(before)} games, first {differ[0]}")
        return 1
    print(f"identical: {len(before)} games")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
