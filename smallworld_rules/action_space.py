"""A fixed integer action space: every action of a game numbered, for learning programs.

The space depends on the rules, the map and the number of players (never on the position):
the same game set-up always numbers the same action the same way, so a policy network can
have one output per index. :meth:`Game.action_index`, :meth:`Game.action_at` and
:meth:`Game.legal_mask` use it; :func:`action_space` gives the space itself.

>>> import smallworld_rules as sw
>>> game = sw.Game.new(players=2, seed=1)
>>> game.action_index(sw.PickCombo(0)), game.action_at(0)
(0, PickCombo(index=0))
>>> mask = game.legal_mask()
>>> sum(mask) == len(game.legal_actions())
True
>>> all(game.action_at(i) in game.legal_actions() for i, bit in enumerate(mask) if bit)
True

The blocks, in order (``n`` regions, ``P`` players, ``C`` the deploy cap):

* ``PickCombo(i)``: 6 (``i`` = 0 … 5, the market from the top);
* ``Decline()``, ``EndTurn()``: 1 each;
* ``Abandon(r)``, ``Conquer(r)``, ``ConquerWithDie(r)``: ``n`` each;
* ``Deploy(r, c)``: ``n × C``, ``c`` = 1 … ``C`` (index ``r × C + c - 1`` in the block);
* ``RollDie(face)``: one per die face (0, 1, 2, 3);
* ``UseAbility(name, target)``: per ability name (sorted), 1 without a target, ``n`` for a
  region target, ``P`` for a player, 6 for a combo of the market, one per power id (sorted)
  for a power;
* ``ChoosePower(p)``: one per power id (sorted), only when the rules have a role that drafts;
* ``Purchase``: ``("token")`` and ``("power", p)`` per power id, only for a role that buys;
* ``DrawPiece(kind)``: one per face-down piece (``hidden``), in the order the rules declare
  them, only when the rules have such pieces (``draw_kinds``).

**The deploy cap** ``C`` is the largest token supply of any token kind of the rules (the
biggest race box, or a role's supply): no race ever holds more tokens than its supply, so
every ``Deploy`` count the engine accepts has a slot and ``legal_mask`` always agrees with
``legal_actions``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Final

from smallworld_rules.actions import (
    Abandon,
    Action,
    ChoosePower,
    Conquer,
    ConquerWithDie,
    Decline,
    Deploy,
    DrawPiece,
    EndTurn,
    PickCombo,
    Purchase,
    RollDie,
    UseAbility,
    action_problem,
)
from smallworld_rules.engine import DIE_FACES, MARKET_SIZE
from smallworld_rules.errors import RulesError

if TYPE_CHECKING:
    from smallworld_rules.engine import Engine
    from smallworld_rules.game import Game

#: Ability target kinds that name a region (the engine checks which regions).
_REGION_TARGETS: Final = frozenset({"region", "own region"})


class ActionSpace:
    """The numbered actions of one set-up (rules, map, players); see the module.

    Attributes:
        size: the number of indices (``0 … size - 1``).
        deploy_cap: ``C``, the largest ``Deploy`` count with a slot.
        blocks: ``(name, first index, slots)`` of every block, in order.
        draw_kinds: the face-down pieces, in the order of the ``DrawPiece`` block.
    """

    def __init__(self, engine: Engine) -> None:
        rules, n, players = engine.rules, engine.n, engine.players
        powers = sorted(rules.powers)
        supplies = [race.box for race in rules.races.values()]
        if engine.role is not None:
            supplies.append(engine.role_supply)
        self.deploy_cap: int = max(supplies)
        regions = range(n)
        blocks: list[tuple[str, list[Action]]] = [
            ("PickCombo", [PickCombo(i) for i in range(MARKET_SIZE)]),
            ("Decline", [Decline()]),
            ("EndTurn", [EndTurn()]),
            ("Abandon", [Abandon(r) for r in regions]),
            ("Conquer", [Conquer(r) for r in regions]),
            ("ConquerWithDie", [ConquerWithDie(r) for r in regions]),
            ("Deploy", [Deploy(r, c) for r in regions for c in range(1, self.deploy_cap + 1)]),
            ("RollDie", [RollDie(face) for face in sorted(set(DIE_FACES))]),
        ]
        for name, kinds in sorted(_ability_kinds(engine).items()):
            slots: list[Action] = []
            for kind in sorted(kinds):
                if kind == "":
                    slots.append(UseAbility(name))
                elif kind == "region":
                    slots.extend(UseAbility(name, r) for r in regions)
                elif kind == "player":
                    slots.extend(UseAbility(name, p) for p in range(players))
                elif kind == "combo":  # a combo of the market, from the top
                    slots.extend(UseAbility(name, i) for i in range(MARKET_SIZE))
                elif kind == "power":
                    slots.extend(UseAbility(name, p) for p in powers)
                else:
                    raise RulesError(f"ability {name!r}: no action slots for target {kind!r}")
            blocks.append((f"UseAbility {name}", slots))
        roles = list(rules.roles.values())
        swapping = any(
            "swaps_power_when_picked" in d.flags
            for table in (rules.races, rules.powers) for d in table.values()
        )
        if swapping or any(role.draft is not None for role in roles):
            blocks.append(("ChoosePower", [ChoosePower(p) for p in powers]))
        buys = {item for role in roles for item in role.buys}
        if buys:
            wanted: list[Action] = [Purchase("token")] if "token" in buys else []
            if "power" in buys:
                wanted += [Purchase("power", p) for p in powers]
            blocks.append(("Purchase", wanted))
        #: the kinds of face-down piece a draw may bring out, in the order they are declared
        self.draw_kinds: tuple[str, ...] = tuple(
            name for name, piece in rules.pieces.items() if piece.hidden
        )
        if self.draw_kinds:
            blocks.append(("DrawPiece", [DrawPiece(kind) for kind in self.draw_kinds]))
        self._actions: list[Action] = []
        self.blocks: list[tuple[str, int, int]] = []
        for name, actions in blocks:
            self.blocks.append((name, len(self._actions), len(actions)))
            self._actions.extend(actions)
        self._index: dict[Action, int] = {}
        for i, action in enumerate(self._actions):
            if action in self._index:
                raise RulesError(f"two action slots for {action!r}: an ability name with a "
                                 "region target and a player target")
            self._index[action] = i
        self.size: int = len(self._actions)

    def index(self, action: Action) -> int:
        """The index of ``action``.

        Raises:
            RulesError: not an action, or one with no slot in this space (e.g. a ``Deploy``
                count above the cap, a region not on the map, an ability the rules lack).
        """
        problem = action_problem(action)
        if problem:
            raise RulesError(problem)
        i = self._index.get(action)  # action_problem refused booleans (True == 1)
        if i is None:
            raise RulesError(f"{action!r} has no index in this action space")
        return i

    def action(self, index: int) -> Action:
        """The action at ``index``.

        Raises:
            RulesError: not an index of the space.
        """
        if isinstance(index, bool) or not isinstance(index, int) or not (
            0 <= index < self.size
        ):
            raise RulesError(f"an action index is an integer from 0 to {self.size - 1}, "
                             f"not {index!r}")
        return self._actions[index]

    def legal_indices(self, actions: Sequence[Action] | Game) -> list[int]:
        """The sorted indices of the legal actions (of a game, or a list of actions)."""
        listed = actions.legal_actions() if not isinstance(actions, Sequence) else actions
        return sorted(self.index(a) for a in listed)

    def mask(self, actions: Sequence[Action] | Game) -> list[int]:
        """``size`` zeros and ones: 1 at the index of every legal action."""
        bits = [0] * self.size
        for i in self.legal_indices(actions):
            bits[i] = 1
        return bits


def _ability_kinds(engine: Engine) -> dict[str, set[str]]:
    """Ability name -> its target kinds (``""`` for none) over every rule file loaded."""
    rules = engine.rules
    kinds: dict[str, set[str]] = {}
    defs = [*rules.races.values(), *rules.powers.values(), *rules.expansions.values()]
    defs += [role.race for role in rules.roles.values()]
    for rule in defs:
        for ability in rule.abilities:
            kind = "region" if ability.target in _REGION_TARGETS else ability.target
            kinds.setdefault(ability.name, set()).add(kind)
    return kinds


_SPACES: dict[tuple[int, int, int], tuple[Engine, ActionSpace]] = {}


def action_space(game: Game) -> ActionSpace:
    """The action space of ``game``'s set-up (built once per rules, map and player count)."""
    engine = game._engine
    key = (id(engine.rules), id(engine.map), engine.players)
    kept = _SPACES.get(key)
    # The kept engine holds its rules and map, so their ids cannot have been reused.
    if kept is None or kept[0].rules is not engine.rules or kept[0].map is not engine.map:
        if len(_SPACES) >= 32:
            del _SPACES[next(iter(_SPACES))]
        kept = _SPACES[key] = (engine, ActionSpace(engine))
    return kept[1]
