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
}

#: Piece properties: name -> whether it takes an integer value.
PIECE_PROPERTIES: dict[str, bool] = {
    "defence": True,  # adds to the region's defence (conquest cost), also in decline
    "immune": False,  # the region cannot be conquered or targeted by abilities
    "survives_decline": False,  # stays on the map when the holder declines
    "one_per_region": False,  # at most one such piece in a region
}

#: Keyword predicates about a region.
REGION_PROPERTIES: dict[str, str] = {
    "coastal": "borders a Sea or the Lake",
    "border": "may be entered by a first conquest (touches the edge or an edge Sea)",
    "non_empty": "holds a race or Lost Tribe token",
    "water": "is a Sea or the Lake",
}

#: Keyword predicates about the moment, not a region.
CONTEXT_PROPERTIES: dict[str, str] = {
    "first_turn": "this is the first turn of the race",
}

#: Region sets: ``own`` / ``all`` regions, and this turn's ``conquests``.
REGION_SET_BASES = ("own", "all", "conquests")
