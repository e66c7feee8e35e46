"""The semantic pass of the rule language: everything the grammar cannot see.

:func:`check` walks a parsed :class:`~smallworld_rules.dsl.ast.RuleFile` once and returns every
mistake in it, in source order, each a labelled :class:`~smallworld_rules.errors.RuleFileError`
with a position and (where one is close) a "did you mean" hint. Names are checked against the
closed vocabulary of :mod:`smallworld_rules.dsl.vocabulary` and against :data:`TERRAINS` and
:data:`FEATURES` (the map vocabulary, owned by :mod:`smallworld_rules.maps` and
re-exported here).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import PurePath

from smallworld_rules.dsl import ast
from smallworld_rules.dsl.bounds import COUNT_LIMIT, OPTION_LIMIT, VALUE_LIMIT, value_bound
from smallworld_rules.dsl.formatter import pred as pred_source
from smallworld_rules.dsl.parser import display_source, normalize_source, suggest
from smallworld_rules.dsl.vocabulary import (
    CONTEXT_PROPERTIES,
    EFFECTS,
    EVENT_OTHERS,
    EVENT_TARGETS,
    FLAGS,
    HOOKS,
    PIECE_PROPERTIES,
    PLAYER_PROPERTIES,
    REGION_PROPERTIES,
    TAKES_TARGET,
    TRIGGER_EFFECTS,
)
from smallworld_rules.errors import RuleFileError
from smallworld_rules.maps import FEATURES, TERRAINS

__all__ = ["FEATURES", "TERRAINS", "check"]

_PROPERTIES = {**REGION_PROPERTIES, **CONTEXT_PROPERTIES}
# Region properties that never change during a game: the only ones a link may use.
_MAP_PROPERTIES = frozenset({"coastal", "border", "water"})
# Statements with a name: a name may be given only once per kind of statement.
_NAMED: dict[type, str] = {
    ast.PieceDecl: "piece",
    ast.Flag: "flag",
    ast.OptionDecl: "option",
    ast.Ability: "ability",
    ast.Alias: "alias",
    ast.Zone: "zone",
    ast.Role: "role",
    ast.CounterDecl: "counter",
    ast.CollectLost: "collect",
}
_NAMED_TYPES = (
    ast.PieceDecl, ast.Flag, ast.OptionDecl, ast.Ability, ast.Alias, ast.Zone, ast.Role,
    ast.CounterDecl, ast.CollectLost,
)
# Statements a file may hold at most once, by the keyword that writes them.
_ONCE: dict[type, str] = {
    ast.Tokens: "tokens",
    ast.ConquestTokens: "conquest_tokens",
    ast.Box: "box",
    ast.Text: "text",
    ast.Players: "players",
    ast.MapFor: "map",
    ast.LostTokens: "lost_tokens",
    ast.Reach: "reach",
    ast.SkipCoins: "skip_coins",
    ast.OwnTokens: "own_tokens",
    ast.CollectLost: "collect",
    ast.SkipTokens: "skip_tokens",
}
#: The most tokens of its own a power may bring.
MAX_OWN_TOKENS = 20
#: The farthest ``reach`` and the most coins ``skip_coins`` may say (bounded values).
MAX_REACH = 3
MAX_SKIP_COINS = 10
# Statements only an expansion may hold, by the keyword that writes them.
_EXPANSION_ONLY: dict[type, str] = {
    ast.Players: "players",
    ast.MapFor: "map",
    ast.Zone: "zone",
    ast.LostTokens: "lost_tokens",
    ast.Role: "role",
}
# Role statements a role may hold at most once (``buy`` once per item).
_ROLE_ONCE: dict[type, str] = {
    ast.RoleToken: "token",
    ast.HandZone: "hand_zone",
    ast.StartHand: "start_hand",
    ast.Enter: "enter",
    ast.Draft: "draft",
    ast.Harvest: "harvest",
    ast.Exchange: "exchange",
    ast.Win: "win",
    ast.CountsAs: "counts_as",
}


def check(
    rule_file: ast.RuleFile,
    source: str,
    known_pieces: Iterable[str] = (),
    known_options: Iterable[str] = (),
) -> list[RuleFileError]:
    """Return every semantic error of a parsed rule file (an empty list when it is sound).

    Args:
        rule_file: the file as returned by :func:`smallworld_rules.dsl.parser.parse`.
        source: the text it was parsed from (for the caret context and for the readability
            word ``target``, which the syntax tree does not keep).
        known_pieces: names of pieces declared by other loaded files; pieces declared in
            ``rule_file`` itself are known without being listed.
        known_options: likewise, names of game options (the core's and other files').

    Returns:
        The errors, ordered by position.
    """
    checker = _Checker(
        rule_file, normalize_source(source), frozenset(known_pieces), frozenset(known_options)
    )
    checker.run()
    return sorted(checker.errors, key=lambda error: (error.line, error.column))


def _did_you_mean(word: str, candidates: Iterable[str], otherwise: str) -> str:
    suggestion = suggest(word, candidates)
    return f"did you mean {suggestion!r}?" if suggestion else otherwise


def _names(names: Iterable[str]) -> str:
    return ", ".join(sorted(names)) or "none"


def _map_node(node: ast.Pred) -> bool:
    """Whether the predicate node tests only the map (its sub-predicates aside)."""
    static = isinstance(node, ast.Terrain | ast.Feature | ast.Not | ast.And | ast.Or) or (
        isinstance(node, ast.Property) and node.name in _MAP_PROPERTIES
    )
    # Adjacency to a set of the map's regions is fixed too (its filter is a node of its
    # own); the links of a race are not the map's.
    return static or (
        isinstance(node, ast.AdjacentTo) and node.regions.base == "all" and not node.links
    )


def reads_only_the_map(pred: ast.Pred) -> bool:
    """Whether ``pred`` holds of the same regions throughout a game: it tests terrain,
    features, the map's properties and adjacency to such regions, nothing a move changes."""
    return all(_map_node(node) for node in _pred_nodes(pred))


def _pred_nodes(pred: ast.Pred) -> Iterator[ast.Pred]:
    """Yield every predicate node under ``pred``, including region-set filters (no recursion)."""
    stack: list[ast.Pred] = [pred]
    while stack:
        node = stack.pop()
        yield node
        if isinstance(node, ast.Not):
            stack.append(node.operand)
        elif isinstance(node, ast.And | ast.Or):
            stack.extend((node.right, node.left))
        elif isinstance(node, ast.AdjacentTo | ast.Distance) and node.regions.filter is not None:
            stack.append(node.regions.filter)


def _top_level_atoms(pred: ast.Pred) -> Iterator[ast.Pred]:
    """Yield the atoms of ``pred`` that test the hook's own target, not a region set's members."""
    stack: list[ast.Pred] = [pred]
    while stack:
        node = stack.pop()
        if isinstance(node, ast.Not):
            stack.append(node.operand)
        elif isinstance(node, ast.And | ast.Or):
            stack.extend((node.right, node.left))
        else:
            yield node


def _describe_atom(atom: ast.Pred) -> str:
    """Return how an atomic predicate reads in the source, for messages."""
    if isinstance(atom, ast.AdjacentTo):
        return "conquest_adjacent_to …" if atom.links else "adjacent_to …"
    if isinstance(atom, ast.Distance):
        return f"distance {atom.steps} to …"
    if isinstance(atom, ast.Not | ast.And | ast.Or):
        return "this condition"
    return pred_source(atom)


def _exprs(expr: ast.Expr) -> Iterator[ast.Expr]:
    """Yield every expression node under ``expr`` (no recursion)."""
    stack: list[ast.Expr] = [expr]
    while stack:
        node = stack.pop()
        yield node
        if isinstance(node, ast.BinOp):
            stack.extend((node.right, node.left))
        elif isinstance(node, ast.Call):
            stack.extend(reversed(node.args))


# Expressions whose value only the game knows.
_VARIABLE = (
    ast.Count, ast.CountPowers, ast.CountTokens, ast.Value, ast.CounterRef, ast.TokensIn, ast.Call
)


def _constant(expr: ast.Expr) -> int | None:
    """Return the value of an expression without ``count``, or ``None`` if it has one."""
    if isinstance(expr, ast.Number):
        return expr.value
    if isinstance(expr, _VARIABLE):
        return None
    # Evaluated bottom-up on an explicit stack: parser-built trees are bounded, but hand-made
    # ones are not, and check() must never overflow Python's stack.
    values: dict[int, int | None] = {}
    stack: list[tuple[ast.Expr, bool]] = [(expr, False)]
    while stack:
        node, visited = stack.pop()
        if isinstance(node, ast.Number):
            values[id(node)] = node.value
        elif isinstance(node, (ast.OptionValue, *_VARIABLE)):
            values[id(node)] = None
        elif not visited:
            stack.extend(((node, True), (node.right, False), (node.left, False)))
        else:
            left, right = values[id(node.left)], values[id(node.right)]
            values[id(node)] = _apply(node.op, left, right)
    return values[id(expr)]


def _apply(op: str, left: int | None, right: int | None) -> int | None:
    if left is None or right is None:
        return None
    if op == "+":
        return left + right
    if op == "-":
        return left - right
    if op == "*":
        # Constant folding of hostile input must not build astronomically large integers.
        product = left * right
        return product if abs(product) < 10**18 else None
    return None if right == 0 else left // right


class _Checker:
    """One run of the semantic pass over one file; errors accumulate in :attr:`errors`."""

    def __init__(
        self,
        rule_file: ast.RuleFile,
        source: str,
        known_pieces: frozenset[str],
        known_options: frozenset[str],
    ):
        self.file = rule_file
        self.display = display_source(source)
        self.errors: list[RuleFileError] = []
        declared = {s.name for s in rule_file.statements if isinstance(s, ast.PieceDecl)}
        options = {s.name for s in rule_file.statements if isinstance(s, ast.OptionDecl)}
        self.options = known_options | options
        self.pieces = known_pieces | declared
        self.counters = {s.name for s in rule_file.statements if isinstance(s, ast.CounterDecl)}
        # Where the expression being checked is: whether it has a target region, and in
        # which trigger's event (count(tokens in target), count(tokens lost) depend on it).
        self.has_target = False
        self.event: str | None = None

    # ---- helpers

    def error(self, pos: ast.Pos, label: str, message: str, hint: str = "") -> None:
        self.errors.append(
            RuleFileError(
                message,
                path=self.file.path,
                line=pos.line,
                column=pos.column,
                hint=hint,
                label=label,
                source=self.display,
            )
        )

    # ---- the pass

    def run(self) -> None:
        self.check_id()
        self.check_counts()
        self.check_region_tokens()
        for statement in self.file.statements:
            if isinstance(statement, ast.Flag):
                self.check_flag(statement)
            elif isinstance(statement, ast.PieceDecl):
                self.check_piece(statement)
            elif isinstance(statement, ast.Modifier):
                self.check_modifier(statement)
            elif isinstance(statement, ast.Link):
                self.check_link(statement)
            elif isinstance(statement, ast.Trigger):
                self.check_trigger(statement)
            elif isinstance(statement, ast.Ability):
                self.check_ability(statement)
            elif isinstance(statement, ast.Immune | ast.Reach | ast.RegionTokens | ast.SkipCoins):
                self.check_v3_statement(statement)
            elif isinstance(statement, ast.OwnTokens):
                self.check_own_tokens(statement)
            elif isinstance(statement, ast.SkipTokens) and statement.count > MAX_SKIP_COINS:
                self.error(
                    statement.pos, "bad-skip-tokens",
                    f"'skip_tokens {statement.count}' is out of range",
                    f"write 'skip_tokens N' with 0 <= N <= {MAX_SKIP_COINS}",
                )
            elif isinstance(statement, ast.CollectLost) and self.file.kind == "expansion":
                self.error(
                    statement.pos, "expansion-collects",
                    "an expansion has no race to collect lost tokens for",
                    "write 'lost_tokens to ZONE' in an expansion; 'collect lost_tokens into "
                    "ID \"Name\"' belongs to a race or power",
                )
            elif isinstance(statement, ast.OptionDecl):
                self.check_option_default(statement)
            if type(statement) in _EXPANSION_ONLY and self.file.kind != "expansion":
                word = _EXPANSION_ONLY[type(statement)]
                self.error(
                    statement.pos,
                    "expansion-only",
                    f"'{word}' is a statement of expansion files, not of a {self.file.kind}",
                    "move it into an expansion file (expansion ID \"Name\" { … })",
                )
            elif isinstance(statement, ast.Players) and not 2 <= statement.low <= statement.high:
                self.error(
                    statement.pos,
                    "bad-players",
                    f"'players {statement.low} to {statement.high}' is no range of players",
                    "write 'players LOW to HIGH' with 2 <= LOW <= HIGH",
                )
            elif isinstance(statement, ast.LostTokens):
                self.check_zone_ref(statement.zone, statement.pos, piles_only=True)
            elif isinstance(statement, ast.Role):
                self.check_role(statement)

    # ---- expansions

    def zones(self, piles_only: bool) -> set[str]:
        """Zone ids of this file (piles, and the roles' hand zones unless ``piles_only``)."""
        out = {
            st.name for st in self.file.statements if isinstance(st, ast.Zone | ast.CollectLost)
        }
        if not piles_only:
            for st in self.file.statements:
                if isinstance(st, ast.Role):
                    out |= {x.name for x in st.statements if isinstance(x, ast.HandZone)}
        return out

    def check_zone_ref(self, name: str, pos: ast.Pos, piles_only: bool) -> None:
        known = self.zones(piles_only)
        if name not in known:
            what = "a zone declared with 'zone ID \"Name\"'" if piles_only else "a zone"
            self.error(
                pos,
                "unknown-zone",
                f"{name!r} is not {what} of this file",
                _did_you_mean(name, known, f"the zones are {_names(known)}"),
            )

    def check_role(self, role: ast.Role) -> None:
        first: dict[str, ast.RoleStatement] = {}
        bought: dict[str, ast.Buy] = {}
        for st in role.statements:
            word = _ROLE_ONCE.get(type(st))
            if isinstance(st, ast.RoleSetting):
                word = st.word
            if word is not None:
                if word in first:
                    self.duplicate(st.pos, f"'{word}'", first[word].pos)
                first.setdefault(word, st)
            if isinstance(st, ast.Buy):
                if st.item in bought:
                    self.duplicate(st.pos, f"'buy {st.item}'", bought[st.item].pos)
                bought.setdefault(st.item, st)
                self.check_expr(st.price)
            elif isinstance(st, ast.RoleSetting):
                self.check_expr(st.value)
            elif isinstance(st, ast.Enter):
                self.check_pred(st.condition)
            elif isinstance(st, ast.HandZone) and st.on is not None:
                self.check_pred(st.on)
            elif isinstance(st, ast.Harvest):
                self.check_expr(st.amount)
                self.check_zone_ref(st.zone, st.pos, piles_only=True)
            elif isinstance(st, ast.Exchange):
                self.check_zone_ref(st.zone, st.pos, piles_only=True)
                if st.count < 1:
                    self.error(
                        st.pos, "bad-exchange", "an exchange needs at least 1 token",
                        "write 'exchange N in ZONE gives K' with N >= 1",
                    )
            elif isinstance(st, ast.Win):
                self.check_expr(st.left)
                self.check_expr(st.right)
            elif isinstance(st, ast.Draft) and not 1 <= st.choose <= st.count:
                self.error(
                    st.pos,
                    "bad-draft",
                    f"'draft {st.count} choose {st.choose}' chooses more powers than it draws",
                    "write 'draft N choose K' with 1 <= K <= N",
                )
        for word in ("token", "supply"):
            if word not in first:
                self.error(
                    role.pos,
                    "incomplete-role",
                    f"the role {role.name!r} does not say its '{word}'",
                    "a role needs 'token ID \"Name\"' and 'supply N' (its tokens)",
                )

    def check_id(self) -> None:
        path = self.file.path
        if path.startswith("<"):  # "<string>" and the like: no file name to agree with
            return
        file_name = PurePath(path).name
        stem = PurePath(path).stem
        if stem == self.file.id:
            return
        self.error(
            self.id_pos(),
            "id-mismatch",
            f"the id {self.file.id!r} does not match the file name {file_name!r}",
            f"rename the file to {self.file.id}{PurePath(path).suffix} or the id to {stem!r}",
        )

    def id_pos(self) -> ast.Pos:
        """The position of the id in the header."""
        return self.file.id_pos or self.file.pos

    def check_counts(self) -> None:
        kind = self.file.kind
        first: dict[str, ast.Statement] = {}
        named: dict[tuple[str, str], ast.Statement] = {}  # (kind of statement, name) -> first
        for statement in self.file.statements:
            word = _ONCE.get(type(statement))
            if word is not None:
                if word in first:
                    self.duplicate(statement.pos, f"'{word}'", first[word].pos)
                else:
                    first[word] = statement
            elif isinstance(statement, _NAMED_TYPES):
                key = (_NAMED[type(statement)], statement.name)
                if key in named:
                    self.duplicate(statement.pos, f"{key[0]} {key[1]!r}", named[key].pos)
                named.setdefault(key, statement)

        header = self.file.pos
        if kind in ("race", "power") and "tokens" not in first:
            self.error(
                header,
                "missing-tokens",
                f"the {kind} {self.file.id!r} does not say how many tokens it gives",
                "add 'tokens N' inside the braces",
            )
        if "text" not in first:
            self.error(
                header,
                "missing-text",
                f"the {kind} {self.file.id!r} has no rules text",
                'add text "…" with the printed rules text',
            )
        box = first.get("box")
        if kind == "race" and box is None:
            self.error(
                header,
                "missing-box",
                f"the race {self.file.id!r} does not say how many tokens are in the box",
                "add 'box N' (the race's physical tokens, at least its 'tokens')",
            )
        elif kind != "race" and box is not None:
            self.error(
                box.pos,
                "box-on-power",
                f"only races have a box, not {'an' if kind[0] in 'aeiou' else 'a'} {kind}",
                "remove the 'box' statement",
            )
        tokens = first.get("tokens")
        extra = first.get("conquest_tokens")
        # The banner's tokens and the conquest-only ones both come out of the race's box.
        needed = (tokens.value if isinstance(tokens, ast.Tokens) else 0) + (
            extra.value if isinstance(extra, ast.ConquestTokens) else 0
        )
        if kind == "race" and isinstance(box, ast.Box) and box.value < needed:
            given = (
                f"the {needed} the banner and conquest tokens give"
                if isinstance(extra, ast.ConquestTokens)
                else f"the {needed} the banner gives"
            )
            self.error(
                box.pos,
                "box-too-small",
                f"the box holds {box.value} tokens, fewer than {given}",
                f"the box must hold at least {needed} tokens",
            )

    def duplicate(self, pos: ast.Pos, what: str, first: ast.Pos) -> None:
        self.error(
            pos,
            "duplicate-statement",
            f"{what} is given twice",
            f"it is first given at line {first.line}, column {first.column}; keep one",
        )

    def check_flag(self, flag: ast.Flag) -> None:
        if flag.name not in FLAGS:
            self.error(
                flag.pos,
                "unknown-flag",
                f"unknown flag {flag.name!r}",
                _did_you_mean(flag.name, FLAGS, f"the flags are {_names(FLAGS)}"),
            )
        if flag.condition is None:
            return
        self.check_pred(flag.condition)
        for node in _pred_nodes(flag.condition):
            if not isinstance(node, ast.OptionIs | ast.Not | ast.And | ast.Or):
                self.error(
                    node.pos,
                    "impossible-condition",
                    f"a flag holds for the whole game, so it cannot depend on "
                    f"{_describe_atom(node)!r}",
                    "a flag's condition may test game options only: 'when option NAME'",
                )

    def check_option_ref(self, name: str, pos: ast.Pos) -> None:
        if name not in self.options:
            self.error(
                pos,
                "unknown-option",
                f"no loaded rule file declares a game option {name!r}",
                _did_you_mean(
                    name,
                    self.options,
                    "declare it with 'option NAME default VALUE \"meaning\"'",
                ),
            )

    def placed_anywhere(self, name: str | None) -> bool:
        """Whether the file declares the piece ``name`` with ``placed_anywhere``."""
        return any(
            isinstance(st, ast.PieceDecl) and st.name == name
            and any(p.name == "placed_anywhere" for p in st.properties)
            for st in self.file.statements
        )

    def check_piece(self, piece: ast.PieceDecl) -> None:
        if piece.supply < 1:
            self.error(
                piece.pos,
                "bad-supply",
                f"the piece {piece.name!r} has a supply of 0",
                "a piece needs a supply of at least 1",
            )
        seen: set[str] = set()
        for prop in piece.properties:
            if prop.name in seen:
                self.error(
                    prop.pos,
                    "duplicate-property",
                    f"the piece property {prop.name!r} is given twice",
                    "keep one",
                )
            seen.add(prop.name)
            takes_value = PIECE_PROPERTIES.get(prop.name)
            if takes_value is None:
                self.error(
                    prop.pos,
                    "unknown-piece-property",
                    f"unknown piece property {prop.name!r}",
                    _did_you_mean(
                        prop.name,
                        PIECE_PROPERTIES,
                        f"the piece properties are {_names(PIECE_PROPERTIES)}",
                    ),
                )
            elif takes_value and prop.value is None:
                self.error(
                    prop.pos,
                    "missing-property-value",
                    f"the piece property {prop.name!r} needs a number",
                    f"write e.g. '{prop.name} 1'",
                )
            elif prop.name == "repels" and "hidden" not in {p.name for p in piece.properties}:
                self.error(
                    prop.pos,
                    "unknown-piece-property",
                    "'repels' belongs to a face-down piece: a conquest turns it over",
                    "add 'hidden' to the piece's properties",
                )
            elif not takes_value and prop.value is not None:
                self.error(
                    prop.pos,
                    "value-on-flag-property",
                    f"the piece property {prop.name!r} takes no number",
                    f"write just '{prop.name}'",
                )

    def check_modifier(self, modifier: ast.Modifier) -> None:
        self.check_expr(modifier.value)
        condition = modifier.condition
        if condition is None:
            return
        self.check_pred(condition)
        if HOOKS.get(modifier.hook, True):
            return
        # The hook has no target region: the condition may only test the moment.
        if modifier.target is not None:
            self.error(
                modifier.target,
                "impossible-condition",
                f"the {modifier.hook!r} hook has no target region, so 'target' means nothing",
                "remove 'target'",
            )
        for atom in _top_level_atoms(condition):
            if isinstance(atom, ast.Property) and atom.name not in REGION_PROPERTIES:
                continue  # a context property, or an unknown one (already reported)
            if isinstance(atom, ast.OptionIs | ast.Compare):
                continue  # game options and comparisons are context too
            self.error(
                atom.pos,
                "impossible-condition",
                f"{_describe_atom(atom)!r} tests a target region, but the {modifier.hook!r} "
                "hook has none",
                "to count regions use e.g. count(own regions with …); conditions of "
                f"{modifier.hook!r} may use only {_names(CONTEXT_PROPERTIES)}, game options "
                "('option NAME') and comparisons ('count(own regions) >= 3')",
            )

    def check_own_tokens(self, st: ast.OwnTokens) -> None:
        if self.file.kind != "power":
            self.error(
                st.pos, "own-tokens-on-race", "only a power brings tokens of its own",
                "a race's tokens are its 'tokens' and its 'box'",
            )
        elif not 1 <= st.value <= MAX_OWN_TOKENS:
            self.error(
                st.pos, "bad-own-tokens", f"'own_tokens {st.value}' is out of range",
                f"write 'own_tokens N' with 1 <= N <= {MAX_OWN_TOKENS}",
            )

    def check_region_tokens(self) -> None:
        """``region_tokens min`` and ``max`` at most once each, and min not above max."""
        seen: dict[str, ast.RegionTokens] = {}
        for st in self.file.statements:
            if isinstance(st, ast.RegionTokens):
                if st.bound in seen:
                    self.duplicate(st.pos, f"'region_tokens {st.bound}'", seen[st.bound].pos)
                seen.setdefault(st.bound, st)
        low, high = seen.get("min"), seen.get("max")
        if low is not None and high is not None and low.count > high.count:
            self.error(
                high.pos, "bad-region-tokens",
                f"'region_tokens max {high.count}' is below 'region_tokens min {low.count}'",
                "a conquest would need more tokens than a region may hold",
            )

    def check_v3_statement(
        self, st: ast.Immune | ast.Reach | ast.RegionTokens | ast.SkipCoins
    ) -> None:
        """The statements of version 3 with a condition or a bounded number."""
        if isinstance(st, ast.Immune):
            if st.condition is not None:
                self.check_pred(st.condition)
        elif isinstance(st, ast.Reach) and not 1 <= st.steps <= MAX_REACH:
            self.error(
                st.pos, "bad-reach", f"'reach {st.steps}' is out of range",
                f"write 'reach N' with 1 <= N <= {MAX_REACH}",
            )
        elif isinstance(st, ast.RegionTokens) and not 1 <= st.count <= 99:
            self.error(
                st.pos, "bad-region-tokens", f"'region_tokens {st.bound} {st.count}' is out of "
                "range", f"write 'region_tokens {st.bound} N' with 1 <= N <= 99",
            )
        elif isinstance(st, ast.SkipCoins) and st.count > MAX_SKIP_COINS:
            self.error(
                st.pos, "bad-skip-coins", f"'skip_coins {st.count}' is out of range",
                f"write 'skip_coins N' with 0 <= N <= {MAX_SKIP_COINS}",
            )

    def check_expr(self, expr: ast.Expr) -> None:
        if value_bound(expr) > VALUE_LIMIT:
            self.error(
                expr.pos,
                "value-too-large",
                f"this value can exceed {VALUE_LIMIT:,}, the largest any rule file may compute",
                f"every value stays within ±{VALUE_LIMIT:,}, where a count stands for up to "
                f"{COUNT_LIMIT:,} and an option for up to {OPTION_LIMIT:,}: use smaller numbers",
            )
        for node in _exprs(expr):
            if isinstance(node, ast.Count | ast.TokensIn):
                self.check_region_set(node.regions)
            elif isinstance(node, ast.Value) and node.name == "target_tokens" and not (
                self.has_target
            ):
                self.error(
                    node.pos, "impossible-condition",
                    "'count(tokens in target)' needs a target region, and here there is none",
                    "it may be used in an ability with a target region or in a trigger of "
                    + ", ".join(sorted(EVENT_TARGETS)),
                )
            elif isinstance(node, ast.Value) and node.name == "tokens_lost" and self.event not in (
                "lost", "tokens_lost"
            ):
                self.error(
                    node.pos, "impossible-condition",
                    "'count(tokens lost)' is known only in a trigger 'on lost' or "
                    "'on tokens_lost'", "move it into such a trigger",
                )
            elif isinstance(node, ast.Value) and node.name == "coins_taken" and (
                self.event != "pick"
            ):
                self.error(
                    node.pos, "impossible-condition",
                    "'count(coins taken)' is known only in a trigger 'on pick'",
                    "move it into 'on pick do …'",
                )
            elif isinstance(node, ast.CounterRef) and node.name not in self.counters:
                self.error(
                    node.pos, "unknown-counter", f"this file declares no counter {node.name!r}",
                    _did_you_mean(
                        node.name, self.counters,
                        "declare it with 'counter NAME per_turn' or 'counter NAME per_game'",
                    ),
                )
            elif isinstance(node, ast.OptionValue):
                self.check_option_ref(node.name, node.pos)
            elif isinstance(node, ast.CountTokens) and node.place not in ("map", "reserve"):
                self.check_zone_ref(node.place, node.pos, piles_only=False)
            elif isinstance(node, ast.BinOp) and node.op == "/" and _constant(node.right) == 0:
                self.error(
                    node.right.pos,
                    "division-by-zero",
                    "this divides by zero",
                    "the divisor must not be 0",
                )

    def check_option_default(self, option: ast.OptionDecl) -> None:
        default = option.default
        if not isinstance(default, bool) and abs(default) > OPTION_LIMIT:
            self.error(
                option.pos,
                "value-too-large",
                f"the default {default:,} is more than {OPTION_LIMIT:,}, the largest value "
                "of an option",
                f"an option's whole-number value is from -{OPTION_LIMIT:,} to {OPTION_LIMIT:,}",
            )

    def check_link(self, link: ast.Link) -> None:
        self.check_pred(link.condition)
        for node in _pred_nodes(link.condition):
            if not _map_node(node) and not (
                isinstance(node, ast.Property) and node.name not in _PROPERTIES
            ):
                self.error(
                    node.pos,
                    "impossible-condition",
                    f"a link joins regions of the map, so it cannot depend on "
                    f"{_describe_atom(node)!r}",
                    "a link may test terrain, feature, "
                    + ", ".join(sorted(_MAP_PROPERTIES))
                    + " and adjacent_to all regions with …",
                )

    def check_limit(self, limit: ast.Limit | None, targeted: bool) -> None:
        if limit is None:
            return
        if limit.kind == "times" and not limit.count:
            self.error(
                limit.pos,
                "bad-limit",
                "'times 0' would never let it work",
                "write 'times N' with N at least 1, or remove the limit",
            )
        if limit.kind == "once_per_player_per_turn" and not targeted:
            self.error(
                limit.pos,
                "bad-limit",
                "'once_per_player_per_turn' needs a target region or player to tell the "
                "players apart",
                "add a 'target region …' or 'target player …' clause, or use 'once_per_turn'",
            )

    def check_effect(self, effect: ast.Effect) -> None:
        if effect.verb == "draw" and not any(
            isinstance(st, ast.PieceDecl) and any(p.name == "hidden" for p in st.properties)
            for st in self.file.statements
        ):
            self.error(
                effect.pos, "unknown-piece", "'draw' takes a piece of this file's bag, and "
                "the file declares no hidden piece",
                "declare the bag as pieces with 'hidden', e.g. 'piece gem supply 4 { hidden "
                "loot 1 stays }'",
            )
        if effect.piece is not None and effect.piece not in self.pieces:
            self.error(
                effect.pos,
                "unknown-piece",
                f"no loaded rule file declares a piece {effect.piece!r}",
                _did_you_mean(
                    effect.piece,
                    self.pieces,
                    "declare it with 'piece NAME supply N { … }' in this or another file",
                ),
            )
        if effect.amount is not None:
            self.check_expr(effect.amount)
        if effect.players is not None:  # opponents with PRED: a condition on each player
            self.check_pred(effect.players, player=True)
        self.check_counter_ref(effect)
        if effect.zone is not None:
            piles = {st.name for st in self.file.statements if isinstance(st, ast.CollectLost)}
            if effect.zone not in piles:
                self.error(
                    effect.pos, "unknown-zone",
                    f"{effect.zone!r} is not a pile of this file",
                    _did_you_mean(
                        effect.zone, piles,
                        "declare it with 'collect lost_tokens into ID \"Name\"'",
                    ),
                )

    def check_whom(self, effect: ast.Effect, event: str | None, player_target: bool) -> None:
        """``WHOM pays …`` / ``give … to WHOM`` must name a player the moment knows."""
        whom = effect.whom
        if whom is None or whom == "opponents":
            return
        known = EVENT_OTHERS.get(event or "")
        if whom == "target" and player_target:
            return
        if whom != known:
            where = f"'on {event}'" if event else "this ability"
            if known:
                hint = f"here the other player is the {known}; 'opponents' are all the others"
            else:
                hint = "'opponents' (every other player) may be used anywhere"
            if whom == "target":
                hint = "an ability names its target player with 'target player'"
            self.error(
                effect.pos, "unknown-player", f"{where} knows no {whom}", hint
            )

    def check_counter_ref(self, effect: ast.Effect) -> None:
        if effect.counter is not None and effect.counter not in self.counters:
            self.error(
                effect.pos, "unknown-counter", f"this file declares no counter {effect.counter!r}",
                _did_you_mean(
                    effect.counter, self.counters,
                    "declare it with 'counter NAME per_turn' or 'counter NAME per_game'",
                ),
            )

    def check_trigger(self, trigger: ast.Trigger) -> None:
        self.event = trigger.event
        self.has_target = trigger.event in EVENT_TARGETS
        try:
            self._check_trigger(trigger)
        finally:
            self.event, self.has_target = None, False

    def _check_trigger(self, trigger: ast.Trigger) -> None:
        if trigger.limit is not None and trigger.limit.kind == "times":
            self.check_limit(trigger.limit, targeted=False)
        if trigger.limit is not None and trigger.limit.kind == "once_per_player_per_turn":
            self.error(
                trigger.limit.pos,
                "bad-limit",
                f"a trigger fires on every {trigger.event}, so it takes 'times N' or "
                "'once_per_turn'",
                "write 'times N' or 'once_per_turn', or remove the limit",
            )
        if trigger.condition is not None:
            self.check_pred(trigger.condition)
            if trigger.event not in EVENT_TARGETS:
                for atom in _top_level_atoms(trigger.condition):
                    if isinstance(atom, ast.Property) and atom.name not in REGION_PROPERTIES:
                        continue
                    if isinstance(atom, ast.OptionIs | ast.Compare):
                        continue
                    self.error(
                        atom.pos,
                        "impossible-condition",
                        f"{_describe_atom(atom)!r} tests a target region, but 'on "
                        f"{trigger.event}' has none",
                        "compare numbers instead, e.g. 'when count(own regions) >= 3'; only "
                        + ", ".join(sorted(EVENT_TARGETS)) + " have a target region",
                    )
        for effect in trigger.effects:
            self.check_effect(effect)
            self.check_whom(effect, trigger.event, player_target=False)
            if effect.verb not in TRIGGER_EFFECTS:
                self.error(
                    effect.pos,
                    "effect-not-in-trigger",
                    f"a trigger cannot {effect.verb!r}: that is a player's decision",
                    "write it as an ability; triggers may " + ", ".join(TRIGGER_EFFECTS),
                )
            elif EFFECTS[effect.verb][0] and trigger.event not in EVENT_TARGETS:
                self.error(
                    effect.pos,
                    "ability-without-target",
                    f"'{effect.verb}' needs a region, but 'on {trigger.event}' has none",
                    "only " + ", ".join(sorted(EVENT_TARGETS)) + " have a target: the region "
                    "of the event",
                )
            elif effect.verb in ("place", "move") and trigger.event not in ("conquest",):
                self.error(
                    effect.pos,
                    "ability-without-target",
                    f"'{effect.verb}' puts a piece on a region of the race, and after "
                    f"'{trigger.event}' the region is not the race's",
                    "place pieces 'on conquest'",
                )

    def check_ability(self, ability: ast.Ability) -> None:
        target = ability.target
        self.has_target = target is not None and target.kind not in ("player", "combo")
        try:
            self._check_ability(ability)
        finally:
            self.has_target = False

    def _check_ability(self, ability: ast.Ability) -> None:
        seen: dict[type, ast.AbilityPart] = {}
        target = ability.target
        for part in ability.parts:
            if isinstance(part, ast.Effect):
                self.check_effect(part)
                self.check_whom(part, None, target is not None and target.kind == "player")
                continue
            if isinstance(part, ast.Price):
                self.check_expr(part.amount)
            first = seen.get(type(part))
            what = {
                ast.During: "'during'", ast.Limit: "a limit", ast.Price: "a price",
                ast.AbilityStatus: "a status",
            }.get(type(part), "a target")
            if first is not None and not isinstance(part, ast.During):
                self.duplicate(part.pos, f"{what} of ability {ability.name!r}", first.pos)
            seen.setdefault(type(part), part)
        target = ability.target
        self.check_limit(ability.limit, targeted=target is not None)
        if "decline" in ability.phases and ability.limit is None:
            self.error(
                ability.pos,
                "decline-ability-without-limit",
                f"the ability {ability.name!r} is used during decline but has no limit",
                "the decline waits until it is used: add 'once_per_turn' or 'times N'",
            )
        if not ability.phases:
            self.error(
                ability.pos,
                "ability-without-phase",
                f"the ability {ability.name!r} does not say when it may be used",
                "add 'during conquest', 'during redeploy' or 'during withdrawal'",
            )
        effects = ability.effects
        if not effects:
            self.error(
                ability.pos,
                "ability-without-effect",
                f"the ability {ability.name!r} does nothing",
                "add an effect: " + ", ".join(EFFECTS),
            )
        dice = ("conquer_with_die", "conquer_with_die_not_final")
        for effect in effects[:-1]:
            if effect.verb in dice:  # what follows would run before the roll
                self.error(
                    effect.pos,
                    "die-conquest-not-last",
                    f"'conquer with die' must be the last effect of the ability "
                    f"{ability.name!r}",
                    "move it to the end, or make the other effects a trigger "
                    "'on conquest do …'",
                )
        rolls = any(e.verb in dice for e in effects)
        if rolls and set(ability.phases) != {"conquest"}:
            self.error(
                ability.pos,
                "die-conquest-phase",
                f"the ability {ability.name!r} conquers with the die, so it is used during "
                "the conquests only",
                "write 'during conquest'",
            )
        if target is not None and target.kind == "combo" and (
            target.condition is not None
            or (ability.limit is not None and ability.limit.kind == "once_per_player_per_turn")
        ):
            self.error(
                target.pos,
                "combo-target",
                f"the ability {ability.name!r} aims at a combo of the market, which takes "
                "no 'when' condition and no 'once_per_player_per_turn'",
                "write 'target combo' alone, with 'once_per_turn' or 'times N'",
            )
        elif target is not None and target.condition is not None:
            self.check_pred(target.condition, player=target.kind == "player")
        wanted = {EFFECTS[e.verb][0] for e in effects if EFFECTS[e.verb][0]}
        if any(e.whom == "target" for e in effects):  # `target pays …` uses the player
            wanted.add("player")
        if target is None:
            for effect in effects:
                kind = EFFECTS[effect.verb][0]
                if kind:
                    self.error(
                        effect.pos,
                        "ability-without-target",
                        f"'{effect.verb}' needs a target, but the ability "
                        f"{ability.name!r} has none",
                        f"add 'target {kind} [when …]'",
                    )
            return
        if not wanted:
            self.error(
                target.pos,
                "unused-target",
                f"no effect of the ability {ability.name!r} uses a target",
                "remove the 'target' clause",
            )
        taken = False  # a conquest earlier in the ability makes the target the race's own
        for effect in effects:
            kind = EFFECTS[effect.verb][0]
            fits = kind == target.kind or (kind == "region" and target.kind == "own region")
            if kind == "own region" and target.kind == "region":
                fits = taken or self.placed_anywhere(effect.piece)
            taken = taken or effect.verb in TAKES_TARGET
            if kind and not fits:
                self.error(
                    effect.pos,
                    "wrong-target",
                    f"'{effect.verb}' needs a target {kind}, but the ability aims at a "
                    f"{target.kind}",
                    f"write 'target {kind} …'"
                    + (", or conquer the target first" if kind == "own region" else ""),
                )

    def check_region_set(self, regions: ast.RegionSet) -> None:
        if regions.filter is not None:
            self.check_pred(regions.filter)

    def check_pred(self, pred: ast.Pred, player: bool = False) -> None:
        for node in _pred_nodes(pred):
            if player and isinstance(node, ast.Property):
                if node.name not in PLAYER_PROPERTIES and node.name not in CONTEXT_PROPERTIES:
                    self.error(
                        node.pos,
                        "unknown-property",
                        f"{node.name!r} is no property of a player",
                        _did_you_mean(
                            node.name,
                            PLAYER_PROPERTIES,
                            f"a player's properties are {_names(PLAYER_PROPERTIES)}",
                        ),
                    )
                continue
            if player and not isinstance(
                node, ast.OptionIs | ast.Not | ast.And | ast.Or | ast.Compare
            ):
                self.error(
                    node.pos,
                    "impossible-condition",
                    f"{_describe_atom(node)!r} tests a region, but the target is a player",
                    f"a player's properties are {_names(PLAYER_PROPERTIES)}",
                )
                continue
            if isinstance(node, ast.Terrain) and node.name not in TERRAINS:
                self.error(
                    node.pos,
                    "unknown-terrain",
                    f"unknown terrain {node.name!r}",
                    _did_you_mean(node.name, TERRAINS, f"the terrains are {_names(TERRAINS)}"),
                )
            elif isinstance(node, ast.Feature) and node.name not in FEATURES:
                self.error(
                    node.pos,
                    "unknown-feature",
                    f"unknown feature {node.name!r}",
                    _did_you_mean(node.name, FEATURES, f"the features are {_names(FEATURES)}"),
                )
            elif isinstance(node, ast.HasPiece) and node.name not in self.pieces:
                self.error(
                    node.pos,
                    "unknown-piece",
                    f"no loaded rule file declares a piece {node.name!r}",
                    _did_you_mean(
                        node.name,
                        self.pieces,
                        "declare it with 'piece NAME supply N { … }' in this or another file",
                    ),
                )
            elif isinstance(node, ast.OptionIs):
                self.check_option_ref(node.name, node.pos)
            elif isinstance(node, ast.Compare):
                self.check_expr(node.left)
                self.check_expr(node.right)
            elif isinstance(node, ast.HoldsTokens):
                self.check_expr(node.amount)
            elif isinstance(node, ast.Distance) and not 1 <= node.steps <= MAX_REACH:
                self.error(
                    node.pos, "bad-reach", f"'distance {node.steps}' is out of range",
                    f"write 'distance N to …' with 1 <= N <= {MAX_REACH}",
                )
            elif isinstance(node, ast.Property) and node.name not in _PROPERTIES:
                self.error(
                    node.pos,
                    "unknown-property",
                    f"unknown property {node.name!r}",
                    self.property_hint(node.name),
                )

    def property_hint(self, name: str) -> str:
        # A bare terrain, feature or piece name is a common slip for the full predicate.
        for keyword, names in (
            ("terrain", TERRAINS),
            ("feature", FEATURES),
            ("piece", self.pieces),
        ):
            if name in names:
                return f"did you mean '{keyword} {name}'?"
        return _did_you_mean(name, _PROPERTIES, f"the properties are {_names(_PROPERTIES)}")

