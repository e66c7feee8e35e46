"""The error catalogue: one labelled mistake per entry, with the rule file that makes it.

This is the only list of the loader's error labels: every label a rule file can be refused
with has an entry here, the test suite checks each one (the loader, run on the entry's files,
reports its label at its line and column) and the documentation's error catalogue page is
generated from it at every build, with the loader's real message.

An entry is data: the rule file as text, where the loader points, and for the few mistakes that
need more than a small UTF-8 file, how to make the file (a long :class:`Repeat`, another
encoding, an earlier file with the same id, or no file at all). :func:`reproduce` makes the
mistake for real in a folder, with the loader it is given (the language sits below the loader,
so this module never imports it).

>>> entry = next(e for e in CATALOGUE if e.label == "unknown-terrain")
>>> error = diagnose(entry.text, entry.path)[0]
>>> (error.label, error.line, error.column) == (entry.label, entry.line, entry.column)
True
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import attrs

from smallworld_rules.dsl.parser import (
    MAX_DIGITS,
    MAX_PARENS,
    MAX_SOURCE_BYTES,
    MAX_STATEMENTS,
    MAX_STRING_CHARS,
    MAX_TOKENS,
    parse,
    parse_file,
)
from smallworld_rules.dsl.semantics import check
from smallworld_rules.errors import RuleFileError

__all__ = ["CATALOGUE", "REPEAT", "CatalogueEntry", "Repeat", "diagnose", "reproduce"]

#: Where an entry's source holds its :class:`Repeat`.
REPEAT = "{repeat}"

_HEADER_ID = re.compile(r"^\s*(?:race|power|expansion)\s+([a-z][a-z0-9_]*)", re.M)


@attrs.frozen
class Repeat:
    """A long run of text in an example, written out only when the file is made.

    Attributes:
        text: the piece repeated (a whole line when it ends with a newline).
        times: how many times it is written, in all.
    """

    text: str
    times: int

    @property
    def written(self) -> str:
        """The run as the file holds it."""
        return self.text * self.times

    @property
    def shown(self) -> str:
        """The run as the documentation shows it: the piece twice, then ``…``.

        >>> Repeat("not ", 200).shown
        'not not …'
        >>> Repeat("    gain 1\\n", 900).shown
        '    gain 1\\n    gain 1\\n    …\\n'
        """
        if self.text.endswith("\n"):
            indent = self.text[: len(self.text) - len(self.text.lstrip())]
            return self.text * 2 + indent + "…\n"
        return self.text * 2 + "…"


def _file_for(entry: CatalogueEntry) -> str:
    match = _HEADER_ID.search(entry.shown)
    return f"my_rules/{match.group(1) if match else 'example'}.swr"


@attrs.frozen
class CatalogueEntry:
    """A labelled mistake.

    Attributes:
        label: the ``RuleFileError.label`` the loader gives it.
        title: this example's mistake in a few words.
        explain: what the label means and how to fix it, in a sentence or two.
        source: the rule file that makes it; :data:`REPEAT` in it stands for ``repeat``.
        line, column: where the loader points.
        repeat: a long run of text written where the source says :data:`REPEAT`.
        encoding: how the file is saved (anything but UTF-8 is refused).
        missing: the file is not written at all: reading it is the mistake.
        earlier: files (path, text) loaded before this one, in order.
        path: the file's path, relative to the folder the example is made in (by default
            ``my_rules/ID.swr``, after the id in the header).
    """

    label: str
    title: str
    explain: str
    source: str
    line: int
    column: int
    repeat: Repeat | None = attrs.field(default=None, kw_only=True)
    encoding: str = attrs.field(default="utf-8", kw_only=True)
    missing: bool = attrs.field(default=False, kw_only=True)
    earlier: tuple[tuple[str, str], ...] = attrs.field(default=(), kw_only=True)
    path: str = attrs.field(default=attrs.Factory(_file_for, takes_self=True), kw_only=True)

    @property
    def text(self) -> str:
        """The whole rule file, its repeat written out."""
        if self.repeat is None:
            return self.source
        return self.source.replace(REPEAT, self.repeat.written)

    @property
    def data(self) -> bytes:
        """The file's bytes, in the entry's encoding."""
        return self.text.encode(self.encoding)

    @property
    def shown(self) -> str:
        """The rule file as the documentation shows it, its repeat shortened."""
        if self.repeat is None:
            return self.source
        return self.source.replace(REPEAT, self.repeat.shown)


def diagnose(source: str, path: str = "<example>") -> list[RuleFileError]:
    """Every error of one rule file on its own: the syntax error, or all semantic ones."""
    try:
        tree = parse(source, path)
    except RuleFileError as error:
        return [error]
    return check(tree, source)


def reproduce(
    entry: CatalogueEntry, folder: Path, load_rules: Callable[..., object]
) -> RuleFileError | None:
    """Make the mistake of an entry for real, in ``folder``.

    The earlier files and the entry's file are written under ``folder`` and loaded next to the
    official rules with ``load_rules(paths=[...])`` (give it
    :func:`smallworld_rules.load_rules`); a ``missing`` file is read with
    :func:`~smallworld_rules.dsl.parser.parse_file`, as ``smallworld check`` does.

    Returns:
        The error the loader raised, or ``None`` if it loaded the files.
    """
    paths: list[Path] = []
    for name, text in entry.earlier:
        paths.append(_write(folder / name, text.encode("utf-8")))
    target = folder / entry.path
    try:
        if entry.missing:
            parse_file(target)
        else:
            load_rules(paths=[*paths, _write(target, entry.data)])
    except RuleFileError as error:
        return error
    return None


def _write(path: Path, data: bytes) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    return path


# --------------------------------------------------------------------------- the entries


def _race(*body: str) -> str:
    return 'race scouts "Scouts" {\n' + "".join(f"    {line}\n" for line in body) + "}\n"


_TEXT = 'text "Scouts see far."'
_BASICS = ("tokens 5", "box 10", _TEXT)


def _basic(*body: str) -> str:
    return _race(*_BASICS, *body)


def _power(*body: str) -> str:
    return 'power keen "Keen" {\n' + "".join(f"    {line}\n" for line in body) + "}\n"


def _expansion(*body: str) -> str:
    lines = ('text "Spirits walk."', *body)
    return 'expansion haunts "Haunts" {\n' + "".join(f"    {line}\n" for line in lines) + "}\n"


def _role(*body: str) -> str:
    lines = ('zone pit "Pit"', 'role medium "Medium" {', *(f"    {b}" for b in body), "}")
    return _expansion(*lines)


_ROLE_BASICS = ('token shade "Shade"', "supply 8")


CATALOGUE: tuple[CatalogueEntry, ...] = (
    # ---- syntax
    CatalogueEntry(
        "bad-header", "the file does not start with race, power or expansion",
        "The file does not start with `race`, `power` or `expansion`, an id and a quoted "
        'display name, as in `race scouts "Scouts" {`.',
        'rase scouts "Scouts" {\n    tokens 5\n}\n', 1, 1, path="my_rules/scouts.swr",
    ),
    CatalogueEntry(
        "bad-id", "a name with a hyphen",
        "An id or name may hold only lowercase letters, digits and `_`, starting with a letter "
        "(and a file's id must be its file name): write `my_scouts`, not `my-scouts`.",
        'race my-scouts "Scouts" {\n    tokens 5\n}\n', 1, 6, path="my_rules/my_scouts.swr",
    ),
    CatalogueEntry(
        "missing-brace", "the closing brace is missing",
        "A `{` or `}` is missing: every `{` needs its `}`, and the file ends with the `}` "
        "that closes its header's `{`.",
        'race scouts "Scouts" {\n    tokens 5\n    box 10\n', 3, 11,
    ),
    CatalogueEntry(
        "unknown-hook", "a misspelt hook",
        "A statement starts with a word that is no statement or hook; the hint suggests the "
        "closest one.",
        _basic("conquest_cots sub 1"), 5, 5,
    ),
    CatalogueEntry(
        "unknown-operator", "an operator that does not exist",
        "A modifier's operator must be `add`, `sub` or `set`.",
        _basic("score plus 1"), 5, 11,
    ),
    CatalogueEntry(
        "unknown-status", "a misspelt status",
        "After `while` comes `active` or `declined`; a modifier that always applies says "
        "`always`.",
        _basic("score add 1 while activ"), 5, 23,
    ),
    CatalogueEntry(
        "unknown-keyword", "a misspelt keyword inside a region set",
        "A word that is no keyword stands where only a keyword may; the hint suggests the "
        "closest one.",
        _basic("score add count(own regions wth terrain forest)"), 5, 33,
    ),
    CatalogueEntry(
        "misplaced-keyword", "two statuses on one modifier",
        "A real keyword of the language, but in a place where it cannot stand; the hint says "
        "what may come there.",
        _basic("score add 1 always while active"), 5, 24,
    ),
    CatalogueEntry(
        "missing-value", "a word where a number belongs",
        "A number is missing: counts, supplies and values are whole numbers written in digits.",
        _race("tokens 5", "box ten"), 3, 9,
    ),
    CatalogueEntry(
        "missing-name", "a number where a name belongs",
        "A name is missing after `flag`, `piece`, `terrain` and the like.",
        _basic("flag 3"), 5, 10,
    ),
    CatalogueEntry(
        "missing-when", "a condition without its 'when'",
        "A condition must be introduced by `when`: `score add 7 when first_turn`.",
        _basic("score add 7 first_turn"), 5, 17,
    ),
    CatalogueEntry(
        "bad-region-set", "a region set that does not exist",
        "Region sets are `own regions`, `all regions` and `conquests`.",
        _basic("score add count(my regions)"), 5, 21,
    ),
    CatalogueEntry(
        "unterminated-string", "a string never closed",
        'A string is not closed: add the closing `"`, and write `\\"` for a quote inside it.',
        'race scouts "Scouts" {\n    text "Scouts see far.\n}\n', 2, 10,
    ),
    CatalogueEntry(
        "bad-escape", "an escape other than \\\" and \\\\",
        'The only escapes in strings are `\\"` (a quote) and `\\\\` (a backslash).',
        'race scouts "Scouts" {\n    text "Scouts\\nsee far."\n}\n', 2, 17,
    ),
    CatalogueEntry(
        "unexpected-character", "punctuation the language does not use",
        "A character that has no place in the language, such as `;`: statements need no "
        "separator.",
        _race("tokens 5;"), 2, 13,
    ),
    CatalogueEntry(
        "trailing-input", "text after the closing brace",
        "A file holds exactly one declaration: something follows its closing `}`. Put each "
        "race or power in a file of its own.",
        _race(*_BASICS) + "race more {\n", 6, 1,
    ),
    CatalogueEntry(
        "unexpected-eof", "the file ends in the middle of a condition",
        "The file ends in the middle of a statement: finish it and close the `{`.",
        _race(*_BASICS)[:-2] + "    conquest_cost sub 1 when target coastal and", 5, 48,
    ),
    CatalogueEntry(
        "syntax-error", "a game option whose default is neither true nor false",
        "Any other syntax error: the message says what the parser expected, and where.",
        _basic('option scouts_far default maybe "Do scouts see farther?"'), 5, 31,
    ),
    # ---- limits
    CatalogueEntry(
        "number-too-large", "a number of seven digits",
        f"Numbers have at most {MAX_DIGITS} digits; no race or power needs more.",
        _race("tokens 5000000", "box 10", _TEXT), 2, 12,
    ),
    CatalogueEntry(
        "string-too-long", "a rules text of 11,200 characters",
        f"A string longer than the language allows ({MAX_STRING_CHARS:,} characters); a "
        "rules text is a few sentences.",
        'race scouts "Scouts" {\n    tokens 5\n    box 10\n    text "{repeat}"\n}\n', 4, 10,
        repeat=Repeat("Scouts see far.\n", 700),
    ),
    CatalogueEntry(
        "too-deep", "parentheses 33 deep",
        f"Parentheses (more than {MAX_PARENS} deep), or chains of `not`, `and`, `or` and "
        "arithmetic, nest too deep; split the rule or drop the redundant parentheses.",
        _basic("conquest_cost sub 1 when target " + "(" * 33 + "coastal" + ")" * 33), 5, 69,
    ),
    CatalogueEntry(
        "too-many-tokens", "a sum of 5,000 terms",
        "The file has more tokens (words, numbers, symbols) than any race or power needs "
        f"({MAX_TOKENS:,}).",
        'race scouts "Scouts" {\n    tokens 5\n    box 10\n    text "Scouts see far."\n'
        "    score add 0\n{repeat}}\n", 4999, 11,
        repeat=Repeat("        + 1\n", 5000),
    ),
    CatalogueEntry(
        "too-many-statements", "a file of 603 statements",
        f"The file has more statements than any race or power needs ({MAX_STATEMENTS:,}).",
        'race scouts "Scouts" {\n    tokens 5\n    box 10\n    text "Scouts see far."\n'
        "{repeat}}\n", 502, 5,
        repeat=Repeat("    score add 1\n", 600),
    ),
    CatalogueEntry(
        "file-too-large", "a file of 1.3 MB",
        f"The file is larger than {MAX_SOURCE_BYTES // 1024:,} KiB; a rule file describes one "
        "race or power.",
        "{repeat}" + _race(*_BASICS), 1, 1,
        repeat=Repeat("# a comment line of filler text\n", 40_000),
    ),
    CatalogueEntry(
        "bad-encoding", "a file saved as Latin-1",
        "Rule files are UTF-8: save the file as UTF-8.",
        _race("tokens 5", "box 10", 'text "Scouts see far, and drink café au lait."'), 4, 40,
        encoding="latin-1",
    ),
    CatalogueEntry(
        "unreadable-file", "a file that is not there",
        "The file cannot be read (it does not exist, or it is a folder): check the path.",
        "", 1, 1, path="my_rules/scouts.swr", missing=True,
    ),
    # ---- names and vocabulary
    CatalogueEntry(
        "unknown-terrain", "a misspelt terrain (with a suggestion)",
        "Terrains are those of the maps: farmland, forest, hill, lake, mountain, sea, swamp.",
        _basic("score add count(own regions with terrain forrest)"), 5, 46,
    ),
    CatalogueEntry(
        "unknown-feature", "a feature the maps do not have",
        "Features are the symbols of the maps: cavern, magic, mine.",
        _basic("score add count(own regions with feature gold)"), 5, 46,
    ),
    CatalogueEntry(
        "unknown-property", "a bare terrain name used as a condition",
        "A misspelt predicate keyword or an unknown region property: a terrain is tested "
        "with `terrain forest`, a feature with `feature mine`.",
        _basic("conquest_cost sub 1 when target forest"), 5, 37,
    ),
    CatalogueEntry(
        "unknown-flag", "a flag the core does not know",
        "Flags come from the core's closed list (see the rule-language reference).",
        _basic("flag fly_anywhere"), 5, 10,
    ),
    CatalogueEntry(
        "unknown-piece", "a piece used but never declared",
        "A piece no loaded rule file declares: declare it with `piece NAME supply N { … }` "
        "or load the file that does.",
        _basic("score add count(own regions with piece tower)"), 5, 44,
    ),
    CatalogueEntry(
        "unknown-piece-property", "a piece property that does not exist",
        "Piece properties come from the core's closed list (see the rule-language reference).",
        _basic("piece tower supply 3 { sturdy }"), 5, 28,
    ),
    CatalogueEntry(
        "missing-property-value", "a piece property without its number",
        "The property takes a number, as in `defence 1`.",
        _basic("piece tower supply 3 { defence }"), 5, 28,
    ),
    CatalogueEntry(
        "value-on-flag-property", "a number given to a property that takes none",
        "The property is a switch and takes no number: write `immune`, not `immune 1`.",
        _basic("piece tower supply 3 { immune 1 }"), 5, 28,
    ),
    CatalogueEntry(
        "duplicate-property", "a piece property given twice",
        "A piece property is given twice; keep one.",
        _basic("piece tower supply 3 { defence 1 defence 2 }"), 5, 38,
    ),
    CatalogueEntry(
        "unknown-option", "a game option nobody declares",
        "A condition or expression names a game option that neither the core nor any loaded "
        "file declares (`option NAME default true \"…\"`).",
        _basic("score add 1 when option scouts_bonus"), 5, 29,
    ),
    # ---- expansions
    CatalogueEntry(
        "expansion-only", "a zone declared by a race",
        "Players, maps, zones, lost tokens and roles belong to expansion files "
        "(`expansion ID \"Name\" { … }`), not to races or powers.",
        _basic('zone pit "Pit"'), 5, 10,
    ),
    CatalogueEntry(
        "bad-players", "an impossible range of players",
        "`players LOW to HIGH` needs 2 <= LOW <= HIGH.",
        _expansion("players 4 to 3"), 3, 5,
    ),
    CatalogueEntry(
        "unknown-zone", "lost tokens sent to a zone nobody declares",
        "A statement names a zone the file does not declare (`zone ID \"Name\"`, or a "
        "role's `hand_zone`).",
        _expansion("lost_tokens to well"), 3, 20,
    ),
    CatalogueEntry(
        "incomplete-role", "a role without its tokens",
        "A role needs the kind of token it plays with (`token ID \"Name\"`) and how many "
        "there are (`supply N`).",
        _role("supply 8"), 4, 10,
    ),
    CatalogueEntry(
        "bad-draft", "a draft choosing more powers than it draws",
        "`draft N choose K` needs 1 <= K <= N.",
        _role(*_ROLE_BASICS, "draft 2 choose 3"), 7, 9,
    ),
    CatalogueEntry(
        "bad-exchange", "an exchange of no tokens",
        "`exchange N in ZONE gives K` needs N >= 1.",
        _role(*_ROLE_BASICS, "exchange 0 in pit gives 1"), 7, 9,
    ),
    # ---- statements
    CatalogueEntry(
        "duplicate-statement", "a statement given twice",
        "A statement that may appear once appears twice (or a name is declared twice); keep "
        "one.",
        _basic("tokens 6"), 5, 5,
    ),
    CatalogueEntry(
        "missing-tokens", "a race without its tokens",
        "A race or power must say how many tokens its banner or badge gives (`tokens N`).",
        'race scouts "Scouts" {\n    box 10\n    text "Scouts see far."\n}\n', 1, 1,
    ),
    CatalogueEntry(
        "missing-text", "a race without its rules text",
        "Every file carries its printed rules text (`text \"…\"`).",
        'race scouts "Scouts" {\n    tokens 5\n    box 10\n}\n', 1, 1,
    ),
    CatalogueEntry(
        "missing-box", "a race without its box",
        "A race must say how many tokens are in its box (`box N`, the cap of every gain).",
        'race scouts "Scouts" {\n    tokens 5\n    text "Scouts see far."\n}\n', 1, 1,
    ),
    CatalogueEntry(
        "box-on-power", "a box given to a power",
        "Only races have a box of tokens; remove `box` from the power.",
        _power("tokens 4", "box 10", 'text "Keen eyes."'), 3, 5,
    ),
    CatalogueEntry(
        "box-too-small", "a box smaller than the banner",
        "The box must hold at least the tokens the banner gives (and the conquest-only ones).",
        _race("tokens 5", "box 4", _TEXT), 3, 5,
    ),
    CatalogueEntry(
        "bad-supply", "a piece with no supply",
        "A piece's supply is at least 1.",
        _basic("piece tower supply 0 { defence 1 }"), 5, 5,
    ),
    CatalogueEntry(
        "id-mismatch", "an id that differs from the file name",
        "The id in the header must be the file's stem: rename the file or the id.",
        _race(*_BASICS), 1, 6, path="my_rules/rangers.swr",
    ),
    CatalogueEntry(
        "duplicate-id", "a file with the id of a file loaded before it",
        "Two loaded files have the same id. A later file replaces an earlier one only with "
        "`load_rules(..., override=True)` (and a race never replaces a power); otherwise "
        "rename the file and the id in its header.",
        _race("tokens 6", "box 11", 'text "Scouts see farther."'), 1, 6,
        path="more_rules/scouts.swr", earlier=(("my_rules/scouts.swr", _race(*_BASICS)),),
    ),
    CatalogueEntry(
        "duplicate-piece", "a piece declared by two files",
        "Piece names are shared by every loaded file, so two files cannot both declare a piece "
        "of one name: rename the later one (or use the earlier file's piece).",
        _basic("piece tower supply 2 { defence 1 }"), 5, 5,
        path="more_rules/scouts.swr",
        earlier=(("my_rules/keen.swr", 'power keen "Keen" {\n    tokens 4\n    text "Keen."\n'
                  '    piece tower supply 3 { defence 1 }\n}\n'),),
    ),
    CatalogueEntry(
        "duplicate-option", "a game option declared by two files",
        "Game option names are shared by every loaded file and the core, so two files cannot "
        "both declare one: rename the later one.",
        _basic('option scouts_bonus default 1 "Coins."'), 5, 12,
        path="more_rules/scouts.swr",
        earlier=(("my_rules/keen.swr", 'power keen "Keen" {\n    tokens 4\n    text "Keen."\n'
                  '    option scouts_bonus default 2 "More coins."\n}\n'),),
    ),
    # ---- expressions and conditions
    CatalogueEntry(
        "division-by-zero", "a division by zero",
        "An expression divides by zero.",
        _basic("score add count(own regions) / 0"), 5, 36,
    ),
    CatalogueEntry(
        "value-too-large", "a value too large to play",
        "An expression or an option's default can be larger than play allows: every value "
        "stays within ±1,000,000, where a count stands for up to 1,000 and an option for up "
        "to 10,000 (`smallworld_rules.dsl.bounds`), so that what the checker accepts, a game "
        "can play and explain.",
        _basic("score add count(own regions) * 999999"), 5, 15,
    ),
    CatalogueEntry(
        "impossible-condition", "a target region tested where there is none",
        "The condition tests something the hook cannot know, e.g. a target region for "
        "`score`, which has none.",
        _basic("score add 1 when target terrain forest"), 5, 22,
    ),
    # ---- abilities and triggers
    CatalogueEntry(
        "ability-without-target", "an ability whose effect needs a target",
        "The effect needs a target (a region or a player) but the ability gives none: add "
        "`target …`.",
        _basic("piece tower supply 3 { defence 1 }",
               "ability build {", "    during redeploy", "    place tower", "}"),
        8, 9,
    ),
    CatalogueEntry(
        "ability-without-phase", "an ability that never says when",
        "An ability must say in which phases it may be used (`during …`).",
        _basic("ability rally {", "    gain 1", "}"), 5, 13,
    ),
    CatalogueEntry(
        "ability-without-effect", "an ability that does nothing",
        "An ability that does nothing: give it at least one effect.",
        _basic("ability rally {", "    during conquest", "}"), 5, 13,
    ),
    CatalogueEntry(
        "wrong-target", "an effect aimed at the wrong kind of target",
        "The target is of the wrong kind for the effect (a region where a player is needed, "
        "…).",
        _basic("ability parley {", "    during redeploy",
               "    target region", "    truce", "}"), 8, 9,
    ),
    CatalogueEntry(
        "bad-limit", "a limit per player without a target",
        "A limit that cannot work: `times 0`, `once_per_player_per_turn` without a target "
        "or on a trigger (a trigger takes `times N` or `once_per_turn`).",
        _basic("ability rally {", "    during conquest",
               "    once_per_player_per_turn", "    gain 1", "}"), 7, 9,
    ),
    CatalogueEntry(
        "effect-not-in-trigger", "a player's decision written as a trigger",
        "A trigger may only do what needs no decision (`place`, `gain`, coins, `give`, "
        "`remove`, `roll`, `add`); the rest are abilities.",
        _basic("on conquest do convert"), 5, 20,
    ),
    CatalogueEntry(
        "unused-target", "a target no effect uses",
        "The ability names a target that none of its effects uses: remove the target or use "
        "it.",
        _basic("ability rally {", "    during conquest",
               "    target region", "    gain 1", "}"), 7, 9,
    ),
    CatalogueEntry(
        "unknown-player", "a player the moment does not know",
        "`WHOM pays N coins` or `give N tokens to WHOM` names a player the event has not: the "
        "`defender` is known `on conquest`, the `conqueror` `on lost` and `on tokens_lost`, "
        "the `target` in an ability with `target player`; `opponents` anywhere.",
        _basic("on redeploy do defender pays 1 coin"), 5, 20,
    ),
    CatalogueEntry(
        "unknown-counter", "a counter nobody declares",
        "`counter NAME` or `add N to NAME` names a counter the file does not declare with "
        "`counter NAME per_turn` or `counter NAME per_game`.",
        _basic("score add counter raids"), 5, 23,
    ),
    CatalogueEntry(
        "bad-reach", "a reach out of range",
        "`reach N` takes N from 1 (the adjacent regions) to 3.",
        _basic("reach 9"), 5, 5,
    ),
    CatalogueEntry(
        "bad-region-tokens", "a per-region limit out of range",
        "`region_tokens min N` and `region_tokens max N` take N from 1 to 99.",
        _basic("region_tokens max 0"), 5, 5,
    ),
    CatalogueEntry(
        "own-tokens-on-race", "tokens of its own on a race",
        "`own_tokens N` is a statement of powers: a race's tokens are its `tokens` and `box`.",
        _basic("own_tokens 2"), 5, 5,
    ),
    CatalogueEntry(
        "bad-own-tokens", "too many tokens of its own",
        "`own_tokens N` takes N from 1 to 20.",
        _power("tokens 2", 'text "Keen eyes."', "own_tokens 99"), 4, 5,
    ),
    CatalogueEntry(
        "bad-skip-coins", "too many coins for a skipped combo",
        "`skip_coins N` takes N from 0 to 10.",
        _basic("skip_coins 50"), 5, 5,
    ),
    CatalogueEntry(
        "expansion-collects", "a pile of lost tokens in an expansion",
        "`collect lost_tokens into ID \"Name\"` gives a race (or the race of a power) a pile "
        "of its own; an expansion sends lost tokens to a zone with `lost_tokens to ZONE`.",
        _expansion('collect lost_tokens into pit "Pit"'), 3, 5,
    ),
    CatalogueEntry(
        "bad-skip-tokens", "too many tokens for a skipped combo",
        "`skip_tokens N` takes N from 0 to 10.",
        _basic("skip_tokens 50"), 5, 5,
    ),
    CatalogueEntry(
        "decline-ability-without-limit", "an ability during decline without a limit",
        "An ability `during decline` must be used before the decline turn is scored, so it "
        "needs a limit (`once_per_turn` or `times N`) to let the turn end.",
        _basic("ability tower {", "    during decline", "    target own region",
               "    gather", "}"), 5, 13,
    ),
    CatalogueEntry(
        "not-a-condition", "a number where a condition belongs",
        "A condition tests something; a number alone (`count(own regions)`) tests nothing: "
        "compare it (`count(own regions) >= 3`). `option NAME` alone is a condition: the "
        "option is on.",
        _basic("score add 1 when count(own regions)"), 5, 22,
    ),
    CatalogueEntry(
        "not-a-number", "a condition where a number belongs",
        "Parentheses hold a condition or a number; a condition in parentheses cannot be "
        "added to, multiplied or compared: `(first_turn) + 1 > 2` means nothing.",
        _basic("score add 1 when (first_turn) + 1 > 2"), 5, 23,
    ),
    CatalogueEntry(
        "die-conquest-not-last", "an effect after a conquest with the die",
        "`conquer with die` rolls the die first, so an effect written after it would happen "
        "before the conquest: make it the ability's last effect, or make the rest a trigger "
        "(`on conquest do …`).",
        _basic("ability lantern {", "    during conquest", "    target region",
               "    conquer with die", "    gain 1 coins", "}"), 8, 9,
    ),
    CatalogueEntry(
        "die-conquest-phase", "a conquest with the die outside the conquests",
        "An ability that conquers with the die is used during the conquests only: write "
        "`during conquest`.",
        _basic("ability lantern {", "    during redeploy", "    target region",
               "    conquer with die", "}"), 5, 13,
    ),
    CatalogueEntry(
        "combo-target", "a condition or a per-player limit on a market combo",
        "`target combo` aims at a combo of the market by its place (0 at the top): it takes "
        "no `when` condition and no `once_per_player_per_turn` limit.",
        _basic("ability mimic {", "    during conquest", "    target combo when coastal",
               "    borrow power", "}"), 7, 9,
    ),
)
