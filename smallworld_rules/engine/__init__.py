"""The rules of play: which actions are legal and what they do to a :class:`State`.

The engine knows no race or power by name. It reads what a race or power changes from its
compiled rule file: modifiers folded into the hook points (conquest cost, defence, losses,
score), flags, and pieces.

One :class:`Engine` class (``core.py``) binds the rules, each in the module named after it:

============== =====================================================================
module         rules
============== =====================================================================
new_game       the position before the first turn
market         the market: revealing combos, picking one
turn           who moves, the races acting in a turn, readying troops, ending a turn
races          a race's pairing (rule files, flags, modifiers), its regions and tokens
reach          where a race may attack: adjacency, entry, links, water, immunity, truces
conquest       conquest costs, abandoning regions, taking a region, the defender's losses
die            the reinforcement die
redeploy       the end of the conquests, redeployment, conquest-only tokens held back
withdrawals    the defenders placing the tokens they kept
decline        going into decline
scoring        the coins of each turn, the winners
use_ability    abilities (``UseAbility``): targets, limits, checks
effects        what the rule language's effects do; triggers running them
roles          a role's seat, drafted powers, purchases, what follows every turn
removals       pieces back to their supply, emptied regions, races leaving
position       set-up edits (``Game.put`` / ``Game.clear``) and the invariants
legal          the legal actions, and carrying an action out
context        the contexts compiled rules are evaluated in; a pairing's tables
basics         the game's constants, the phases, the shared action instances
============== =====================================================================
"""

from smallworld_rules.engine.basics import (
    BASE_COST,
    DIE_FACES,
    DIE_REACH,
    LOST_TRIBE_TOKENS,
    MARKET_SIZE,
    STARTING_COINS,
    Log,
)
from smallworld_rules.engine.core import Engine

__all__ = [
    "BASE_COST",
    "DIE_FACES",
    "DIE_REACH",
    "LOST_TRIBE_TOKENS",
    "MARKET_SIZE",
    "STARTING_COINS",
    "Engine",
    "Log",
]
