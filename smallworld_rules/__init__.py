"""smallworld_rules: the rules of the board game Small World as a Python library.

>>> import smallworld_rules as sw
>>> game = sw.Game.new(players=2, seed=7)
>>> game.to_move, game.phase.value, game.coins(0)
(0, 'pick', 5)
"""

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
)
from smallworld_rules.bots import Bot, GreedyBot, RandomBot, play_game
from smallworld_rules.errors import IllegalAction, MapError, RuleFileError, RulesError
from smallworld_rules.game import CHANCE, Game, LegalActions, RegionView
from smallworld_rules.hooks import Breakdown, Contribution
from smallworld_rules.maps import GameMap, load_map
from smallworld_rules.packs import available_packs
from smallworld_rules.records import RecordMismatch
from smallworld_rules.rules import (
    Rules,
    available_expansions,
    find_power,
    find_race,
    load_rules,
)
from smallworld_rules.state import Phase
from smallworld_rules.version import __version__ as __version__

__all__ = [
    "CHANCE",
    "Abandon",
    "Action",
    "Bot",
    "Breakdown",
    "ChoosePower",
    "Conquer",
    "ConquerWithDie",
    "Contribution",
    "Decline",
    "Deploy",
    "DrawPiece",
    "EndTurn",
    "Game",
    "GameMap",
    "GreedyBot",
    "IllegalAction",
    "LegalActions",
    "MapError",
    "Phase",
    "PickCombo",
    "Purchase",
    "RandomBot",
    "RecordMismatch",
    "RegionView",
    "RollDie",
    "RuleFileError",
    "Rules",
    "RulesError",
    "UseAbility",
    "available_expansions",
    "available_packs",
    "find_power",
    "find_race",
    "load_map",
    "load_rules",
    "play_game",
]
