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
    "crosses_water": "its conquests pass through the Seas and the Lake: a region across water "
    "bordering one of its regions counts as adjacent (the water itself is not held)",
    "immune_to_penniless": "its regions, active or in decline, are immune to the conquests "
    "and abilities of an opponent who has no coins",
    "swaps_power_when_picked": "when its combo is picked, its owner may swap the badge for the "
    "badge of another combo of the market (ChoosePower), taking that badge's tokens instead",
    "no_redeployment": "no redeployment: its conquests end as they stand and the tokens left "
    "in hand wait off the map until its next turn (a withdrawal still places them)",
    "vanishes_in_decline": "as it goes into decline, once its decline triggers have run, "
    "every token of the race leaves the map for its box: the race leaves the game",
    "redeploys_before_decline": "going into decline in place of expanding, the race first "
    "redeploys its readied troops (EndTurn then declines it and scores the turn)",
    "no_return_to_abandoned": "may not conquer again, in the same turn, a region it abandoned "
    "this turn",
    "second_conquest_round": "its first EndTurn during its conquests ends a first round: every "
    "token but one per region goes back into hand and a second round begins (the final die "
    "attempt belongs to the second round)",
    "revives_previous_decline": "as it goes into decline, its owner's previous race in decline "
    "stays on the map instead of leaving, and becomes the active race again when its owner's "
    "next turn starts: its banner's tokens, less those on the map, in hand; no badge",
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
    "placed_anywhere": False,  # `place` may put it on any region its ability targets
    "stays": False,  # stays on its region whoever holds it; leaves when its holder declines
    "toll": True,  # the region's holder, another race than the piece's, scores N fewer coins
    "loot": True,  # whoever conquers its region takes that many coins from the bank
    "lifted_at_turn_start": False,  # back to the supply when its holder's next turn begins
    "hidden": False,  # one of the file's bag: placed face down by `draw`, shown to its owner
    "repels": True,  # hidden: revealed by a conquest, it stops it; the conqueror loses N tokens
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
    "in_decline": "is held by a race in decline (anyone's)",
    "lost_tribe": "holds a Lost Tribe token",
    "enemy": "is held by a race of another player, active or in decline",
    "marked": "is held by a race of a player the race has marked (the effect `mark WHOM`)",
    "discounted": "a discount (the effect `discount N`) waits on it for the race this turn",
}

#: Region properties that describe a conquered region as it was just before the conquest,
#: in ``conquests with …`` and in the condition of an ``on conquest`` trigger. The others
#: (terrain, coastal, …) do not change with a conquest.
PAST_PROPERTIES = frozenset(
    {"non_empty", "lone", "enemy_active", "in_decline", "lost_tribe", "enemy"}
)

#: Keyword predicates about the moment, not a region.
CONTEXT_PROPERTIES: dict[str, str] = {
    "first_turn": "this is the first turn of the race",
    "on_map": "the race holds at least one region",
}

#: Keyword predicates about a player (the target of a `target player` ability).
PLAYER_PROPERTIES: dict[str, str] = {
    "attacked": "your active race attacked this player's active race this turn",
    "neighbour": "this player's active race occupies a region bordering one of the race's",
}

#: Phases in which an ability may be used.
PHASES: dict[str, str] = {
    "conquest": "the race's conquests (before the first redeployment step)",
    "redeploy": "the race's redeployment",
    "withdrawal": "its owner places survivors after losing a region in another player's turn",
    "decline": "right after the race went into decline in place of expanding, before that "
    "turn is scored (every such ability that may be used must be, before EndTurn)",
    "turn_start": "the start of its owner's turn: the conquests, before the turn's first "
    "conquest",
}

#: Events a trigger may fire on.
EVENTS: dict[str, str] = {
    "conquest": "the race has just conquered a region (the target; the other player is the "
    "defender)",
    "redeploy": "the race has just ended its conquests",
    "turn_start": "its owner's turn begins (after the race readied its tokens)",
    "turn_end": "its owner's turn ends, after scoring",
    "pick": "its owner has just picked its combo",
    "decline": "the race has just gone into decline",
    "any_decline": "any race, of any player, has just gone into decline",
    "abandon": "its owner has just abandoned one of its regions (the target)",
    "lost": "another race has just conquered one of its regions (the target; the other player "
    "is the conqueror)",
    "tokens_lost": "it has just lost tokens to a conquest of one of its regions (the target; "
    "count(tokens lost) says how many)",
    "die_roll": "its owner has just rolled the reinforcement die (die is the face)",
    "any_lost": "another race has just conquered a region of one of its owner's races, this "
    "race or another (the target; the other player is the conqueror)",
}

#: The events whose target is a region, and the events that know another player.
EVENT_TARGETS = frozenset({"conquest", "abandon", "lost", "tokens_lost", "any_lost"})
EVENT_OTHERS: dict[str, str] = {
    "conquest": "defender", "lost": "conqueror", "tokens_lost": "conqueror",
    "any_lost": "conqueror",
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
    "gain_coins": ("", "gain N coins from the bank (written `gain N coins`)"),
    "pay": ("", "pay N coins to the bank (written `pay N coins`); a player who has fewer pays "
            "what they have"),
    "take_coins": ("", "the other player pays N coins to the race's owner (written `WHOM pays "
                   "N coins`, WHOM one of defender, conqueror, opponents, target); each pays "
                   "what they can"),
    "give_tokens": ("", "the other player's race takes N tokens from its box into hand "
                    "(written `give N tokens to WHOM`); it places them when it withdraws"),
    "remove": ("region", "take a piece off the target back to its supply"),
    "roll": ("", "roll the die; `die` is then its face (in a trigger the roll, and the "
             "effects after it, come once the action that fired the trigger is done)"),
    "add": ("", "add N to a counter the file declares (written `add N to NAME`)"),
    "exchange": ("", "while the file's pile (`collect lost_tokens into PILE`) holds N tokens, "
                 "they go back to their boxes and the race takes 1 token from its box "
                 "(written `exchange N in PILE`)"),
    "mark": ("", "the other player (written `mark WHOM`) is marked by the race for the rest of "
             "its life: the regions of that player's races are then `marked` for it"),
    "gather": ("own region", "move one token of each other region of the race into the "
               "target; those regions are left empty (their other tokens back to the box, "
               "their pieces to the supply)"),
    "hand_over": ("own region", "the target's tokens go back to the race's box and one token "
                  "of its owner's active race, from its hand (else its box), holds the region "
                  "(no conquest)"),
    "discount": ("region", "this turn, the race's conquest of the target costs N tokens "
                 "less (at least 1 still); several add up, the conquest spends them"),
    "conquer_less": ("region", "conquer the target at its conquest cost less N tokens "
                     "(clamped as any conquest), however far it is: the target condition "
                     "says what it reaches (never the race's own, an immune region, water "
                     "it may not enter or a truce's)"),
    "unmark": ("", "the other player (written `unmark WHOM`, `opponents` for all) is no "
               "longer marked by the race"),
    "evict": ("region", "the tokens on the target go back to their owner's hand, none lost (he "
              "places them as after losing a region); a Lost Tribe's leave the game"),
    "conquer_with_die": ("region", "roll the reinforcement die for the target, then conquer it "
                         "at its cost less the face (at least 1 token) with the tokens in "
                         "hand, whatever the roll; if they fall short, the conquests end "
                         "(the ability's last effect; offered while the best face would do)"),
    "conquer_with_die_not_final": ("region", "as `conquer with die`, but a roll that falls short "
                               "takes nothing and the conquests go on: the die may be rolled "
                               "again (written `conquer with die not final`)"),
    "hand_over_new": ("own region", "as `hand_over`, with a new token: the active race's token "
                      "comes from its box (else its hand); written `hand_over new`"),
    "draw": ("region", "place on the target, face down, one of the file's `hidden` pieces, "
             "drawn at random as each one's supply weighs (none if the target holds one)"),
    "borrow_power": ("combo", "the race plays by the badge of the target combo of the market "
                     "as well as its own (its modifiers, flags, triggers and abilities, not "
                     "its tokens) until its owner's next turn starts or that badge leaves "
                     "the market; written `borrow power`"),
}

#: Effects a trigger may have (the others are player decisions, so abilities only).
TRIGGER_EFFECTS = (
    "place", "gain", "gain_coins", "pay", "take_coins", "give_tokens", "remove", "roll", "add",
    "exchange", "mark", "unmark", "draw",
)

#: Who ``WHOM pays N coins`` and ``give N tokens to WHOM`` name.
WHOM: dict[str, str] = {
    "defender": "the player whose region the race conquered (on conquest)",
    "conqueror": "the player who conquered the race's region (on lost, tokens_lost)",
    "opponents": "every other player, one after the other",
    "target": "the player an ability targets (target player)",
}

#: Numbers of the moment an expression may read (version 3).
VALUES: dict[str, str] = {
    "round": "the round being played (1 in the first)",
    "rounds_left": "the rounds still to play after this one",
    "die": "the face of the die the race's owner rolled last this turn (0 before any roll)",
    "count(coins)": "its owner's coins",
    "count(declined races)": "the races in decline on the map, anyone's",
    "count(tokens lost)": "in a lost or tokens_lost trigger: the tokens the race lost",
    "count(coins taken)": "in a pick trigger: the coins that lay on the combo picked",
    "count(tokens in target)": "the tokens in the target region (in an on conquest trigger: "
    "before the conquest)",
    "count(tokens in REGIONS)": "the tokens, anyone's, on a region set (conquests: as they "
    "were before each conquest)",
    "counter NAME": "the value of a counter the file declares",
    "min(A, B, …), max(A, B, …)": "the least or greatest of the values",
    "count(players)": "the players of the game",
}

#: Region sets: ``own`` / ``all`` regions, and this turn's ``conquests``.
REGION_SET_BASES = ("own", "all", "conquests")

#: The effects that take an ability's target region for the race: the later effects of the
#: same ability act on a region the race then holds.
TAKES_TARGET = frozenset({"conquer", "convert", "conquer_less"})
