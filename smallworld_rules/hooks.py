"""Hook points: the contract between the core and the rule files.

A *value hook* (conquest cost, defence, losses, score) starts from a base the core computes,
then folds the modifiers of the rule files in fixed phases — every ``add``/``sub`` summed
(order-free), then ``set`` (the lowest ``set`` wins, so the result does not depend on the order
files were loaded), then one final clamp. The result is a :class:`Breakdown` that names every
contribution with the file and line it came from.

>>> b = fold(2, [Contribution("A discount", "sub", 1, "powers/example.swr", 4)], minimum=1)
>>> b.value, b.base
(1, 2)
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Protocol

import attrs

from smallworld_rules.frozen import quick_init

#: Path given for contributions computed by the core itself (not by a rule file).
CORE = "<core>"


@attrs.frozen
class Contribution:
    """One step of a :class:`Breakdown`.

    Attributes:
        label: what it is: "Lost Tribe tokens", "Mountain", a rule file's name, a piece.
        op: ``"add"``, ``"sub"`` or ``"set"``.
        amount: the number added, subtracted or set.
        path: the rule file it comes from, or ``"<core>"`` for a base-game rule.
        line: the line in that file (``None`` for the core).
    """

    label: str
    op: str
    amount: int
    path: str
    line: int | None = None


@attrs.frozen
class Breakdown:
    """A number the engine computed, with every contribution to it.

    Attributes:
        value: the final value.
        base: the starting value before any contribution.
        contributions: each step, in fold order (add/sub, then set).
        clamped_from: the value before the final clamp, or ``None`` if the clamp did nothing.
    """

    value: int
    base: int
    contributions: tuple[Contribution, ...] = ()
    clamped_from: int | None = None

    def __int__(self) -> int:
        return self.value

    def explain(self) -> str:
        """A one-line reading for people, e.g. ``2 +1 Lost Tribe tokens +1 Mountain = 4``."""
        parts = [str(self.base)]
        for c in self.contributions:
            sign = {"add": "+", "sub": "-", "set": "="}[c.op]
            where = "" if c.path == CORE else f" ({c.path}:{c.line})"
            parts.append(f"{sign}{c.amount} {c.label}{where}")
        text = " ".join(parts)
        if self.clamped_from is not None:
            text += f" (clamped from {self.clamped_from})"
        return f"{text} = {self.value}"


quick_init(Contribution)  # made for every score and conquest that modifiers change
quick_init(Breakdown)


def fold(
    base: int,
    contributions: Iterable[Contribution],
    *,
    minimum: int | None = None,
    maximum: int | None = None,
) -> Breakdown:
    """Fold contributions onto ``base`` in the fixed phase order and clamp once."""
    adds: list[Contribution] = []
    sets: list[Contribution] = []
    for c in contributions:
        (sets if c.op == "set" else adds).append(c)
    value = base + sum(c.amount if c.op == "add" else -c.amount for c in adds)
    if sets:
        value = min(c.amount for c in sets)
    raw = value
    if minimum is not None and value < minimum:
        value = minimum
    if maximum is not None and value > maximum:
        value = maximum
    return Breakdown(value, base, (*adds, *sets), raw if raw != value else None)


class EvalContext(Protocol):
    """What a compiled rule sees of the game while it is evaluated.

    Region sets are integer bitmasks (bit ``r`` = region ``r``).
    """

    @property
    def all_mask(self) -> int:
        """Every region of the map."""

    @property
    def target(self) -> int:
        """The region a targeted hook is asked about (``-1`` if none)."""

    def terrain_mask(self, name: str) -> int:
        """Regions of a terrain."""

    def feature_mask(self, name: str) -> int:
        """Regions carrying a symbol."""

    def property_mask(self, name: str) -> int:
        """Regions with a keyword property (coastal, border, non_empty, water), or, for a
        context property (first_turn), every region when it holds and none otherwise."""

    def piece_mask(self, name: str) -> int:
        """Regions holding at least one piece of that name."""

    def own_mask(self) -> int:
        """Regions held by the race the rule belongs to."""

    def conquests_mask(self, non_empty_only: bool) -> int:
        """Regions this race conquered this turn (only those non-empty when conquered)."""

    def adjacent_mask(self, regions: int) -> int:
        """Regions bordering at least one region of ``regions``."""

    def conquest_adjacent_mask(self, regions: int) -> int:
        """Regions adjacent to ``regions`` for the race's conquests: bordering one, or
        joined to one by the race's links (``conquest_adjacent_to``)."""

    def option(self, name: str) -> bool | int:
        """The value of a game option."""

    def powers_count(self) -> int:
        """Special powers working for the race (``count(powers)``)."""

    def tokens_in(self, place: str) -> int:
        """The race's tokens on the ``"map"``, in its ``"reserve"`` (box) or in a zone."""

    def value(self, name: str) -> int:
        """A number of the moment (``vocabulary.VALUES``): ``round``, ``rounds_left``,
        ``die``, ``coins``, ``declined_races``, ``tokens_lost``, ``target_tokens``."""

    def counter(self, key: str, per_turn: bool) -> int:
        """The value of a counter of the race (``key``: its file's id and name)."""

    def tokens_on(self, regions: int) -> int:
        """Tokens, anyone's, on the regions of the mask."""

    def past_mask(self, name: str) -> int:
        """This turn's conquests that had the region property ``name`` when conquered."""

    def past_piece_mask(self, name: str) -> int:
        """This turn's conquests that held a piece ``name`` when conquered."""

    def holding_mask(self, test: Callable[[int], bool], past: bool) -> int:
        """Regions whose tokens, anyone's, pass ``test`` (``past``: this turn's conquests,
        with the tokens they held when conquered)."""

    def past_tokens(self, regions: int) -> int:
        """Tokens the regions of the mask held when conquered this turn (0 for the others)."""


#: A compiled expression or predicate: a plain function of the context.
IntFn = Callable[[EvalContext], int]
