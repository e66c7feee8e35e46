"""The closed vocabulary of the rule language that the core implements.

Hooks, operators and statuses are grammar keywords; flags, piece properties and predicate
properties are checked in the semantic pass (with "did you mean" suggestions), so adding one
here and in the core is all a new generic concept needs.
"""

from __future__ import annotations

#: Value hooks a modifier can fold into, with whether the hook has a target region.
HOOKS: dict[str, bool] = {
    "conquest_cost": True,  # cost for the file's race to conquer the target region
    "defence": True,  # extra defence of a target region the file's race holds
    "losses": True,  # tokens the file's race loses when the target region is conquered
    "score": False,  # coins the file's race scores at the end of its owner's turn
}

OPS = ("add", "sub", "set")
STATUSES = ("active", "declined", "always")

#: Flags a race or power may raise; each is a switch the core reads.
FLAGS: dict[str, str] = {
    "enter_anywhere": "the first conquest need not be a border region",
    "conquer_anywhere": "conquests need not be adjacent to the race's regions (never water)",
    "enter_water": "may conquer and hold Seas and the Lake",
    "keeps_tokens_in_decline": "every token stays on the map when the race declines",
    "exempt_from_decline_limit": "does not count toward the one-declined-race limit",
    "acts_in_decline": "in decline, the race still readies, conquers and redeploys each turn, "
    "before its owner's active race",
    "decline_at_turn_end": "may go into decline at the end of a normal turn, after scoring "
    "(Decline() in place of EndTurn)",
    "no_final_die": "no final reinforcement-die attempt (an ability rolls instead)",
    "decline_surplus_is_lost": "the tokens it takes off the map when it declines count as "
    "lost: they go where an expansion sends lost tokens (the box otherwise)",
}

#: Piece properties: name -> whether it takes an integer value.
PIECE_PROPERTIES: dict[str, bool] = {
    "defence": True,  # adds to the region's defence (conquest cost), also in decline
    "immune": False,  # the region cannot be conquered or targeted by abilities
    "survives_decline": False,  # stays on the map when the holder declines
    "one_per_region": False,  # at most one such piece in a region
    "guards": False,  # the region counts as `guarded` (abilities may refuse such targets)
    "kept_when_lost": False,  # when its region falls, its holder places it again at once
    "lifted_at_redeploy": False,  # back to the supply when its holder starts redeploying
}

#: Keyword predicates about a region.
REGION_PROPERTIES: dict[str, str] = {
    "coastal": "borders a Sea or the Lake",
    "border": "may be entered by a first conquest (touches the edge or an edge Sea)",
    "non_empty": "holds a race or Lost Tribe token",
    "water": "is a Sea or the Lake",
    "lone": "holds exactly one token",
    "enemy_active": "is held by the active race of another player",
    "guarded": "holds a piece with the property `guards`",
    "reachable": "the race could conquer it now by the placement rules (border entry or "
    "adjacency, flags, links; never its own, an immune region, or water it may not enter)",
}

#: Keyword predicates about the moment, not a region.
CONTEXT_PROPERTIES: dict[str, str] = {
    "first_turn": "this is the first turn of the race",
    "on_map": "the race holds at least one region",
}

#: Keyword predicates about a player (the target of a `target player` ability).
PLAYER_PROPERTIES: dict[str, str] = {
    "attacked": "your active race attacked this player's active race this turn",
}

#: Phases in which an ability may be used.
PHASES: dict[str, str] = {
    "conquest": "the race's conquests (before the first redeployment step)",
    "redeploy": "the race's redeployment",
    "withdrawal": "its owner places survivors after losing a region in another player's turn",
}

#: Events a trigger may fire on.
EVENTS: dict[str, str] = {
    "conquest": "the race has just conquered a region (the target)",
    "redeploy": "the race has just ended its conquests",
}

#: Limits on how often an ability or trigger works.
LIMITS: dict[str, str] = {
    "once_per_turn": "once per turn",
    "once_per_player_per_turn": "once per turn against each player",
    "times": "at most N times in the race's whole life",
}

#: Effects: name -> (what the target must be: "own region", "region", "player" or "", text).
EFFECTS: dict[str, tuple[str, str]] = {
    "place": ("own region", "place a piece from its supply on the target"),
    "move": ("own region", "move a piece to the target: from its supply, else from the map"),
    "conquer": ("region", "conquer the target paying exactly N tokens from hand, whatever "
                "its defence (the defender loses as in any conquest)"),
    "convert": ("region", "replace the target's single token with one of the race's from "
                "the box (counts as a conquest; the replaced token goes to its box)"),
    "roll_die": ("", "roll the reinforcement die now: the next conquest costs that much "
                 "less (minimum 1); if no region is then affordable, the conquests end"),
    "truce": ("player", "until its owner's next turn, the target player's active race may "
              "not attack the race's owner's active race"),
    "gain": ("", "take N more tokens from the box into hand (the box is the cap)"),
}

#: Effects a trigger may have (the others are player decisions, so abilities only).
TRIGGER_EFFECTS = ("place", "gain")

#: Region sets: ``own`` / ``all`` regions, and this turn's ``conquests``.
REGION_SET_BASES = ("own", "all", "conquests")
