"""The canonical layout of a rule file: ``format_source(text)`` and ``format_tree(tree)``.

The formatter prints a parsed :class:`~smallworld_rules.dsl.ast.RuleFile` in one fixed layout
(four-space indentation, one statement per line, the fewest parentheses, rules text wrapped at
:data:`WIDTH` columns), so that ``parse(format_tree(tree)) == tree`` for every tree the parser
builds. :func:`format_source` also keeps the file's comments: a comment on a line of its own
stays above the statement that follows it, a comment at the end of a line stays at the end of
that statement's first line.

>>> print(format_source('race x "X" { tokens 6 box 11 text "Plain." }'), end="")
race x "X" {
    tokens 6
    box 11
    text "Plain."
}
"""

from __future__ import annotations

from smallworld_rules.dsl import ast
from smallworld_rules.dsl.parser import normalize_source, parse
from smallworld_rules.dsl.vocabulary import HOOKS

__all__ = ["WIDTH", "format_source", "format_tree"]

#: Column at which rules text and long lines are wrapped.
WIDTH = 100
_INDENT = "    "

# Binding strength of expression and predicate operators (higher binds tighter).
_EXPR_LEVEL = {"+": 1, "-": 1, "*": 2, "/": 2}
_OR, _AND, _NOT, _ATOM = 1, 2, 3, 4


def format_source(source: str, path: str = "<string>") -> str:
    """Parse ``source`` and print it in the canonical layout, keeping its comments.

    Raises:
        RuleFileError: the source does not parse.
    """
    text = normalize_source(source)
    tree = parse(text, path)
    return _Printer(_comments(text)).file(tree)


def format_tree(tree: ast.RuleFile) -> str:
    """Print a parsed rule file in the canonical layout (it has no comments to keep)."""
    return _Printer({}).file(tree)


def _comments(text: str) -> dict[int, tuple[str, bool]]:
    """Line number -> (comment, whether it stands alone on its line).

    Comments are found by a scan that skips strings, the same way the lexer reads them.
    """
    found: dict[int, tuple[str, bool]] = {}
    line, i, n = 1, 0, len(text)
    line_start = 0
    while i < n:
        c = text[i]
        if c == "\n":
            line += 1
            i += 1
            line_start = i
        elif c == '"':
            i += 1
            while i < n and text[i] != '"':
                if text[i] == "\\":
                    i += 1
                elif text[i] == "\n":
                    line += 1
                    line_start = i + 1
                i += 1
            i += 1
        elif c == "#":
            end = text.find("\n", i)
            end = n if end < 0 else end
            alone = not text[line_start:i].strip()
            found[line] = (text[i:end].rstrip(), alone)
            i = end
        else:
            i += 1
    return found


def _quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _wrap(text: str, room: int) -> list[str]:
    """Split rules text at spaces into pieces that fit ``room`` columns once quoted."""
    pieces: list[str] = []
    current = ""
    for word in text.split(" "):
        candidate = f"{current} {word}" if current else word
        if current and len(_quote(candidate)) > room:
            pieces.append(current)
            current = word
        else:
            current = candidate
    pieces.append(current)
    return pieces


class _Printer:
    """Prints one file; comments are consumed as the statements they belong to are printed."""

    def __init__(self, comments: dict[int, tuple[str, bool]]) -> None:
        self.comments = dict(comments)
        self.lines: list[str] = []

    # ---- comments

    def leading(self, before_line: int, indent: str) -> None:
        """Emit the comments above ``before_line`` not printed yet (an end-of-line comment
        inside a statement that spans lines moves above the next one)."""
        for line in sorted(self.comments):
            if line >= before_line:
                break
            self.lines.append(indent + self.comments.pop(line)[0])

    def trailing(self, line: int) -> str:
        entry = self.comments.get(line)
        if entry is None or entry[1]:
            return ""
        del self.comments[line]
        return "  " + entry[0]

    def emit(self, indent: str, text: str, line: int) -> None:
        self.leading(line, indent)
        self.lines.append(indent + text + self.trailing(line))

    # ---- the file

    def file(self, tree: ast.RuleFile) -> str:
        self.emit("", f"{tree.kind} {tree.id} {_quote(tree.name)} {{", tree.pos.line)
        for statement in tree.statements:
            self.statement(statement, _INDENT)
        self.leading(10**9, _INDENT)  # comments after the last statement
        self.lines.append("}")
        return "\n".join(self.lines) + "\n"

    def statement(self, st: ast.Statement, indent: str) -> None:
        line = st.pos.line
        if isinstance(st, ast.Tokens):
            self.emit(indent, f"tokens {st.value}", line)
        elif isinstance(st, ast.ConquestTokens):
            self.emit(indent, f"conquest_tokens {st.value}", line)
        elif isinstance(st, ast.Box):
            self.emit(indent, f"box {st.value}", line)
        elif isinstance(st, ast.Text):
            self.text(st, indent)
        elif isinstance(st, ast.Alias):
            self.emit(indent, f"alias {_quote(st.name)}", line)
        elif isinstance(st, ast.Flag):
            when = "" if st.condition is None else f" when {pred(st.condition)}"
            self.emit(indent, f"flag {st.name}{when}", line)
        elif isinstance(st, ast.OptionDecl):
            value = str(st.default).lower() if isinstance(st.default, bool) else str(st.default)
            head = f"option {st.name} default {value}"
            if len(indent + head + " " + _quote(st.text)) <= WIDTH:
                self.emit(indent, f"{head} {_quote(st.text)}", line)
            else:
                self.emit(indent, head, line)
                self.lines.append(indent + _INDENT + _quote(st.text))
        elif isinstance(st, ast.PieceDecl):
            props = " ".join(
                p.name if p.value is None else f"{p.name} {p.value}" for p in st.properties
            )
            body = f"{{ {props} }}" if props else "{ }"
            self.emit(indent, f"piece {st.name} supply {st.supply} {body}", line)
        elif isinstance(st, ast.Modifier):
            self.emit(indent, modifier(st), line)
        elif isinstance(st, ast.Link):
            self.emit(indent, f"link {pred(st.condition)}", line)
        elif isinstance(st, ast.Trigger):
            self.emit(indent, trigger(st), line)
        elif isinstance(st, ast.Immune):
            when = "" if st.condition is None else f" when {pred(st.condition)}"
            to = " to powers" if st.to else ""
            self.emit(indent, f"immune{to}{when}{_status(st.status)}", line)
        elif isinstance(st, ast.Reach):
            self.emit(indent, f"reach {st.steps}", line)
        elif isinstance(st, ast.RegionTokens):
            self.emit(indent, f"region_tokens {st.bound} {st.count}", line)
        elif isinstance(st, ast.CounterDecl):
            self.emit(indent, f"counter {st.name} {st.span}", line)
        elif isinstance(st, ast.OwnTokens):
            self.emit(indent, f"own_tokens {st.value}", line)
        elif isinstance(st, ast.SkipCoins):
            self.emit(indent, f"skip_coins {st.count}", line)
        elif isinstance(st, ast.SkipTokens):
            self.emit(indent, f"skip_tokens {st.count}", line)
        elif isinstance(st, ast.CollectLost):
            self.emit(indent, f"collect lost_tokens into {st.name} {_quote(st.title)}", line)
        elif isinstance(st, ast.Ability):
            self.ability(st, indent)
        elif isinstance(st, ast.Players):
            self.emit(indent, f"players {st.low} to {st.high}", line)
        elif isinstance(st, ast.MapFor):
            self.emit(indent, f"map players - {st.minus}", line)
        elif isinstance(st, ast.Zone):
            self.emit(indent, f"zone {st.name} {_quote(st.title)}", line)
        elif isinstance(st, ast.LostTokens):
            self.emit(indent, f"lost_tokens to {st.zone}", line)
        elif isinstance(st, ast.Role):
            self.emit(indent, f"role {st.name} {_quote(st.title)} {{", line)
            for inner in st.statements:
                self.emit(indent + _INDENT, role_statement(inner), inner.pos.line)
            self.lines.append(indent + "}")

    def text(self, st: ast.Text, indent: str) -> None:
        head = indent + "text "
        pieces = _wrap(st.text, WIDTH - len(head))
        self.emit(indent, "text " + _quote(pieces[0]), st.pos.line)
        for piece in pieces[1:]:
            self.lines.append(" " * len(head) + _quote(piece))

    def ability(self, st: ast.Ability, indent: str) -> None:
        self.emit(indent, f"ability {st.name} {{", st.pos.line)
        inner = indent + _INDENT
        for part in st.parts:
            self.emit(inner, ability_part(part), part.pos.line)
        self.lines.append(indent + "}")


# --------------------------------------------------------------------------- pieces of syntax


def _status(status: str) -> str:
    return {"declined": " while declined", "always": " always"}.get(status, "")


def trigger(st: ast.Trigger) -> str:
    """``on EVENT [limit] [when PRED] do EFFECT, … [status]``."""
    limit = "" if st.limit is None else f" {_limit(st.limit)}"
    when = "" if st.condition is None else f" when {pred(st.condition)}"
    effects = ", ".join(effect(e) for e in st.effects)
    return f"on {st.event}{limit}{when} do {effects}{_status(st.status)}"


def modifier(st: ast.Modifier) -> str:
    """``HOOK OP EXPR [when [target] PRED] [status]`` (``while active`` is the default)."""
    out = f"{st.hook} {st.op} {expr(st.value)}"
    if st.condition is not None:
        target = "target " if HOOKS.get(st.hook, False) else ""
        out += f" when {target}{pred(st.condition)}"
    if st.status == "declined":
        out += " while declined"
    elif st.status == "always":
        out += " always"
    return out


def role_statement(st: ast.RoleStatement) -> str:
    """One line of a role block."""
    if isinstance(st, ast.RoleToken):
        return f"token {st.name} {_quote(st.title)}"
    if isinstance(st, ast.RoleSetting):
        return f"{st.word} {expr(st.value)}"
    if isinstance(st, ast.HandZone):
        on = "" if st.on is None else f" on {pred(st.on)}"
        return f"hand_zone {st.name} {_quote(st.title)}{on}"
    if isinstance(st, ast.StartHand):
        return f"start_hand {st.count}"
    if isinstance(st, ast.Enter):
        return f"enter when {pred(st.condition)}"
    if isinstance(st, ast.Draft):
        excluded = f" except {' '.join(st.excluded)}" if st.excluded else ""
        return f"draft {st.count} choose {st.choose}{excluded}"
    if isinstance(st, ast.Buy):
        return f"buy {st.item} price {expr(st.price)}"
    if isinstance(st, ast.Harvest):
        return f"harvest {expr(st.amount)} into {st.zone}"
    if isinstance(st, ast.Exchange):
        return f"exchange {st.count} in {st.zone} gives {st.gain}"
    if isinstance(st, ast.Win):
        return f"win when {expr(st.left)} = {expr(st.right)}"
    return f"counts_as {st.status}"


def _limit(limit: ast.Limit) -> str:
    return f"times {limit.count}" if limit.kind == "times" else limit.kind


def effect(st: ast.Effect) -> str:
    """One effect of an ability or trigger."""
    if st.verb in ("place", "move"):
        return f"{st.verb} {st.piece}"
    if st.verb == "conquer":
        assert st.amount is not None
        return f"conquer paying {expr(st.amount)}"
    if st.verb == "gain":
        assert st.amount is not None
        return f"gain {expr(st.amount)}"
    if st.players is not None:
        assert st.amount is not None
        coins = "coin" if isinstance(st.amount, ast.Number) and st.amount.value == 1 else "coins"
        return f"opponents with {pred(st.players)} pay {expr(st.amount)} {coins}"
    words = {
        "gain_coins": "gain {} coins",
        "pay": "pay {} coins",
        "take_coins": str(st.whom) + " pays {} coins",
        "give_tokens": "give {} tokens to " + str(st.whom),
        "add": "add {} to " + str(st.counter),
        "exchange": "exchange {} in " + str(st.zone),
        "discount": "discount {}",
        "conquer_less": "conquer less {}",
    }
    if st.verb in words:
        assert st.amount is not None
        return words[st.verb].format(expr(st.amount))
    if st.verb == "remove":
        return f"remove {st.piece}"
    if st.verb in ("mark", "unmark"):
        return f"{st.verb} {st.whom}"
    if st.verb in ("conquer_with_die", "conquer_with_die_not_final"):
        return st.verb.replace("_", " ")
    if st.verb == "hand_over_new":
        return "hand_over new"
    if st.verb == "borrow_power":
        return "borrow power"
    return st.verb


def ability_part(part: ast.AbilityPart) -> str:
    """One line of an ability block."""
    if isinstance(part, ast.During):
        return "during " + ", ".join(part.phases)
    if isinstance(part, ast.Limit):
        return _limit(part)
    if isinstance(part, ast.AbilityTarget):
        when = "" if part.condition is None else f" when {pred(part.condition)}"
        return f"target {part.kind}{when}"
    if isinstance(part, ast.Price):
        return f"price {expr(part.amount)}"
    if isinstance(part, ast.AbilityStatus):
        return {"declined": "while declined", "always": "always"}.get(part.status, "while active")
    return effect(part)


def expr(node: ast.Expr, level: int = 0) -> str:
    """An expression with the parentheses its context needs (``level``: the binding
    strength the context requires)."""
    if isinstance(node, ast.Number):
        return str(node.value)
    if isinstance(node, ast.Count):
        if node.groups:
            return f"count(groups in {region_set(node.regions)})"
        return f"count({region_set(node.regions)})"
    if isinstance(node, ast.OptionValue):
        return f"option {node.name}"
    if isinstance(node, ast.CountPowers):
        return "count(powers)"
    if isinstance(node, ast.CountTokens):
        return "count(tokens on map)" if node.place == "map" else f"count(tokens in {node.place})"
    if isinstance(node, ast.Value):
        return _VALUE_WORDS.get(node.name, node.name)
    if isinstance(node, ast.CounterRef):
        return f"counter {node.name}"
    if isinstance(node, ast.TokensIn):
        return f"count(tokens in {region_set(node.regions)})"
    if isinstance(node, ast.Call):
        return f"{node.fn}({', '.join(expr(a) for a in node.args)})"
    strength = _EXPR_LEVEL[node.op]
    # Left-associative: the right operand needs a strictly tighter binding.
    out = f"{expr(node.left, strength)} {node.op} {expr(node.right, strength + 1)}"
    return f"({out})" if strength < level else out


_VALUE_WORDS = {
    "coins": "count(coins)",
    "coins_taken": "count(coins taken)",
    "players": "count(players)",
    "declined_races": "count(declined races)",
    "tokens_lost": "count(tokens lost)",
    "target_tokens": "count(tokens in target)",
}


def region_set(node: ast.RegionSet, tight: bool = False) -> str:
    """``own regions``, ``all regions`` or ``conquests``, with a filter (inside
    ``adjacent_to`` the filter must be one atom or a ``not``)."""
    base = "conquests" if node.base == "conquests" else f"{node.base} regions"
    if node.filter is None:
        return base
    return f"{base} with {pred(node.filter, _NOT if tight else _OR)}"


def pred(node: ast.Pred, level: int = _OR) -> str:
    """A predicate with the parentheses its context needs."""
    if isinstance(node, ast.Or):
        out, strength = f"{pred(node.left, _OR)} or {pred(node.right, _AND)}", _OR
    elif isinstance(node, ast.And):
        out, strength = f"{pred(node.left, _AND)} and {pred(node.right, _NOT)}", _AND
    elif isinstance(node, ast.Not):
        out, strength = f"not {pred(node.operand, _NOT)}", _NOT
    else:
        out, strength = _atom(node), _ATOM
    return f"({out})" if strength < level else out


def _atom(node: ast.Pred) -> str:
    if isinstance(node, ast.Terrain):
        return f"terrain {node.name}"
    if isinstance(node, ast.Feature):
        return f"feature {node.name}"
    if isinstance(node, ast.HasPiece):
        return f"piece {node.name}"
    if isinstance(node, ast.OptionIs):
        return f"option {node.name}"
    if isinstance(node, ast.AdjacentTo):
        word = "conquest_adjacent_to" if node.links else "adjacent_to"
        return f"{word} {region_set(node.regions, tight=True)}"
    if isinstance(node, ast.Compare):
        return f"{expr(node.left)} {node.op} {expr(node.right)}"
    if isinstance(node, ast.Distance):
        return f"distance {node.steps} to {region_set(node.regions, tight=True)}"
    if isinstance(node, ast.HoldsTokens):
        return f"tokens {node.op} {expr(node.amount)}"
    assert isinstance(node, ast.Property)
    return node.name

