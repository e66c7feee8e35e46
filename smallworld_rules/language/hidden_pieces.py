"""Pieces placed face down (``hidden``): a rule file's bag of markers.

The pieces of a rule file with the property ``hidden`` are its bag; their supplies are what
is left in it. The effect ``draw`` puts one of them on the target region, drawn with the
game's generator, each kind as likely as its supply is large (nothing when the bag is empty
or the region holds one already); with ``chance="explicit"`` the draw is a chance node
(:func:`outcomes`), answered with :class:`~smallworld_rules.DrawPiece` (:func:`drawn`),
once the action that drew is done. Only the holder's owner sees which: an observation of
another player shows a face-down marker of the file (:func:`placeholder`), and the bag's
supplies as one.

When a race other than the holder conquers the region, the piece is revealed (event
``PieceRevealed``) and goes back to its supply: ``loot N`` gives the conqueror N coins; a
piece with ``repels N`` stops the conquest before any token moves — the region keeps its
occupant, the conqueror loses N tokens from hand to its box and may not try the region
again this turn (``State.lang["repelled"]``, race -> bitmask).
"""

from __future__ import annotations

from random import Random
from typing import TYPE_CHECKING

from smallworld_rules import rng
from smallworld_rules.actions import DrawPiece
from smallworld_rules.errors import IllegalAction, excerpt
from smallworld_rules.events import PIECE_MOVED, PIECE_REVEALED
from smallworld_rules.language import memory
from smallworld_rules.state import EFFECT_ROLL, Phase, RaceState, State

if TYPE_CHECKING:
    from smallworld_rules.engine.basics import Log
    from smallworld_rules.engine.core import Engine
    from smallworld_rules.language.events import Occasion
    from smallworld_rules.ruledefs import CompiledEffect
    from smallworld_rules.rules import Rules


def placeholder(holder: str) -> str:
    """The name other players see for a face-down piece of the rule file ``holder``."""
    return f"?{holder}"


def bag(engine: Engine, s: State, race: str) -> list[str]:
    """The hidden pieces of ``race``'s rule files, in the order they are declared."""
    holders = {d.id for d in engine.defs(s, race)}
    return [n for n in engine._hiding if engine.rules.pieces[n].holder in holders]


def draw_problem(
    engine: Engine, s: State, rs: RaceState, e: CompiledEffect, o: Occasion
) -> str | None:
    kinds = bag(engine, s, rs.race)
    if any(name in kinds for name in s.pieces.get(o.target, {})):
        return f"region {o.target} holds a face-down marker already"
    if not any(s.piece_supply[name] for name in kinds):
        return "the bag is empty"
    return None


def draw(
    engine: Engine, s: State, rs: RaceState, e: CompiledEffect, o: Occasion, log: Log
) -> None:
    """Draw one piece of the bag (weighted by supply) onto the target, face down."""
    kinds = bag(engine, s, rs.race)
    total = sum(s.piece_supply[name] for name in kinds)
    s.rng, k = rng.randbelow(s.rng, total)
    for name in kinds:
        k -= s.piece_supply[name]
        if k < 0:
            _put(engine, s, o.target, name, log)
            return


def _put(engine: Engine, s: State, r: int, name: str, log: Log) -> None:
    place(s, r, name)
    log((PIECE_MOVED, placeholder(engine.rules.pieces[name].holder), r, -1))


def pending(s: State) -> bool:
    """Whether the chance node of ``s`` is a draw (``chance="explicit"``; see
    :func:`drawn`)."""
    return s.phase is Phase.DIE_ROLL and s.die_target == EFFECT_ROLL and (
        "drawing" in s.lang
    )


def outcomes(engine: Engine, s: State) -> list[tuple[DrawPiece, float]]:
    """At a draw's chance node: each kind left in the bag, as likely as its supply is
    large."""
    kinds = bag(engine, s, memory.get(s, "roller", ""))
    left = [(name, s.piece_supply[name]) for name in kinds if s.piece_supply[name]]
    total = sum(n for _, n in left)
    return [(DrawPiece(name), n / total) for name, n in left]


def drawn(engine: Engine, s: State, action: DrawPiece, log: Log) -> None:
    """The chance node of a ``draw``: the piece ``action.kind`` goes face down on the region
    drawn for, then play goes on where the draw interrupted it."""
    if not pending(s):
        raise IllegalAction("no face-down piece is being drawn now", action)
    if action.kind not in {a.kind for a, _ in outcomes(engine, s)}:
        raise IllegalAction(f"the bag holds no piece {excerpt(action.kind)}", action)
    r = memory.get(s, "drawing")
    s.die_target = -1
    s.phase = Phase(memory.get(s, "resume", Phase.CONQUEST.value))
    memory.forget(s, "resume", "roller", "drawing")
    _put(engine, s, r, action.kind, log)


def place(s: State, r: int, name: str) -> None:
    """Put the drawn piece ``name`` on ``r``, out of its supply."""
    s.piece_supply = {**s.piece_supply, name: s.piece_supply[name] - 1}
    held = dict(s.pieces.get(r, {}))  # replaced, not changed (copy on write)
    held[name] = held.get(name, 0) + 1
    s.set_pieces(r, held)


def reveal(engine: Engine, s: State, rs: RaceState, r: int, log: Log) -> bool:
    """``rs`` conquers ``r``: the face-down pieces of other races there are revealed and go
    back to their supply. True if one of them stops the conquest."""
    hidden = [n for n in s.pieces.get(r, {}) if n in engine._hiding]
    mine = set(bag(engine, s, rs.race))
    repelled = 0
    for name in hidden:
        if name in mine:
            continue  # the holder's own marker stays face down
        piece = engine.rules.pieces[name]
        held = dict(s.pieces[r])
        held[name] -= 1
        if not held[name]:
            del held[name]
        s.set_pieces(r, held)
        s.piece_supply = {**s.piece_supply, name: s.piece_supply[name] + 1}
        log((PIECE_REVEALED, name, r, rs.owner))
        if piece.repels:
            repelled += piece.repels
        elif piece.loot:
            s.own_player(rs.owner).coins += piece.loot
    if not repelled:
        return False
    lost = min(repelled, rs.hand)
    rs.hand -= lost
    s.to_box(rs.race, lost)
    kept = memory.get(s, "repelled", {})
    memory.put(s, "repelled", {**kept, rs.race: kept.get(rs.race, 0) | 1 << r})
    s.acted = True
    return True


def repelled(s: State, race: str) -> int:
    """The regions a face-down piece stopped ``race`` from conquering this turn."""
    if not s.lang:
        return 0
    return int(memory.get(s, "repelled", {}).get(race, 0))


def seen_by(engine: Engine, s: State, player: int) -> dict[str, str]:
    """The hidden pieces ``player`` may not tell apart: name -> the placeholder he sees
    (those of the races of other players, and of no race in play)."""
    own = {d.id for race, rs in s.races.items() if rs.owner == player
           for d in engine.defs(s, race)}
    pieces = engine.rules.pieces
    return {n: placeholder(pieces[n].holder) for n in engine._hiding
            if pieces[n].holder not in own}


def masked(counts: dict[str, int], unseen: dict[str, str]) -> dict[str, int]:
    """``counts`` (piece name -> count) as a player sees them: the hidden pieces he may not
    tell apart summed under their placeholder."""
    out: dict[str, int] = {}
    for name, count in counts.items():
        key = unseen.get(name, name)
        out[key] = out.get(key, 0) + count
    return out


def guess(
    rules: Rules, pieces: dict[str, dict[str, int]], supply: dict[str, int], seed: Random
) -> tuple[dict[str, dict[str, int]], dict[str, int]]:
    """The observed ``pieces`` (region -> name -> count) and ``supply`` with each face-down
    placeholder replaced by pieces of its file's bag, drawn by ``seed`` (for a game rebuilt
    from an observation)."""
    by_holder: dict[str, list[str]] = {}
    for name, piece in rules.pieces.items():
        if piece.hidden:
            by_holder.setdefault(placeholder(piece.holder), []).append(name)
    if not any(key in by_holder for key in supply):
        return pieces, supply
    supply = dict(supply)
    pieces = {r: dict(held) for r, held in pieces.items()}
    for key, names in by_holder.items():
        if key not in supply:
            continue
        pool = [n for n in names for _ in range(rules.pieces[n].supply)]
        seed.shuffle(pool)
        del supply[key]
        for r in sorted(pieces, key=int):
            for _ in range(pieces[r].pop(key, 0)):
                name = pool.pop()
                pieces[r][name] = pieces[r].get(name, 0) + 1
        for name in names:
            supply[name] = pool.count(name)
    return pieces, supply
