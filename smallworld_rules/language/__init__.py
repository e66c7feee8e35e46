"""The rule language's events, effects and values, one table per kind of construct.

The rule files say *what* happens (``on lost do conqueror pays 1 coin``); these modules say
how the core does it, each construct an entry of one table with its handler next to it:

* :mod:`~smallworld_rules.language.values` — the numbers and region properties of the
  moment an expression may read (``round``, ``count(coins)``, ``in_decline`` …);
* :mod:`~smallworld_rules.language.events` — where each event fires and what it knows (its
  target region, the other player, the tokens lost), and the triggers run on it;
* :mod:`~smallworld_rules.language.effects` — what each effect does and when it cannot;
* :mod:`~smallworld_rules.language.memory` — what the constructs keep in the state (the
  facts of this turn's conquests, the last die face, counters, rolls waiting).

The names are the rule language's (:mod:`smallworld_rules.dsl.vocabulary`); a test checks
that every name there has its entry here.
"""
