"""The engine's fast paths give exactly what the general code gives.

Playouts take shortcuts the explained results do not (a conquest cost as a bare int, cached
tables per race/badge pairing); these tests compare both on the positions of seeded random
games, with the official rules and with the test rule files.
"""

from __future__ import annotations

import functools
import json
import random
from collections.abc import Callable
from pathlib import Path

import pytest
from helpers import finished_games, random_positions, rule_sets, rules_and_players

import smallworld_rules as sw
from smallworld_rules.state import LOST_TRIBE, Phase

TEST_RULES = Path(__file__).parent / "rules"
TEST_RULES_V3 = Path(__file__).parent / "rules_v3"


@pytest.mark.parametrize("paths", [[], [TEST_RULES]], ids=["official", "test_rules"])
def test_conquest_cost_value_is_the_breakdown_value(paths: list[Path]) -> None:
    rules = sw.load_rules(paths=paths)
    checked = 0
    for game in random_positions(rules, 12, (2, 3, 4)):
        engine, state = game._engine, game._state
        if state.phase is not Phase.CONQUEST:
            continue
        for race in state.races:
            for region in range(engine.n):
                expected = engine.conquest_cost(state, race, region).value
                assert engine.conquest_cost_value(state, race, region) == expected
                checked += 1
    assert checked > 1000


@pytest.mark.parametrize(
    "how",
    [{}, {"paths": [TEST_RULES]}, {"paths": [TEST_RULES_V3]}, {"expansions": "all"}],
    ids=["official", "test_rules", "rules_v3", "expansions"],
)
def test_listed_abilities_are_those_ability_problem_allows(how: dict[str, object]) -> None:
    """A race's abilities are listed as legal exactly when they may be used on that target
    now: the listing (which makes the checks that do not depend on the target once per
    ability) gives, in the same order, every UseAbility that ``ability_problem`` accepts
    among all targets."""
    if how.get("expansions") == "all":
        rules = sw.load_rules(expansions=sw.available_expansions())
    else:
        rules = sw.load_rules(**how)  # type: ignore[arg-type]
    listed = 0
    players = (3, 4, 5) if how.get("expansions") else (2, 3, 4, 5)
    for game in random_positions(rules, 12, players):
        engine, state = game._engine, game._state
        phase = state.phase
        if phase is Phase.WITHDRAWAL:
            acting = state.withdrawals[0]
        elif phase in (Phase.CONQUEST, Phase.REDEPLOY) and state.acting is not None:
            acting = state.acting
        else:
            continue
        rs = state.races[acting]
        expected = []
        for ability in engine.abilities(state, acting):
            if phase.value not in ability.phases:
                continue
            if not ability.target:
                targets: list[int | None] = [None]
            else:
                top = engine.players if ability.target == "player" else engine.n
                targets = list(range(top))
            for target in targets:
                if engine.ability_problem(state, rs, ability, target) is None:
                    expected.append(sw.UseAbility(ability.name, target))
        assert engine._ability_actions(state, rs, phase) == expected
        listed += len(expected)
    assert listed > 20


def test_event_to_dict_is_what_attrs_asdict_gives() -> None:
    """A log event's saved form is ``{"type": name, **fields}``: the per-class field list the
    save uses gives exactly ``attrs.asdict``'s dict, and reads back to the same event."""
    import attrs

    from smallworld_rules.events import event_from_dict

    rules = sw.load_rules(expansions=sw.available_expansions())
    kinds = set()
    for game in random_positions(rules, 6, (3, 4, 5)):
        for event in game.log:
            expected = {"type": type(event).__name__, **attrs.asdict(event)}
            assert repr(event.to_dict()) == repr(expected)
            assert event_from_dict(event.to_dict()) == event
            kinds.add(type(event).__name__)
    assert len(kinds) >= 12


@pytest.mark.parametrize("depth", [1, 2, 23, 24, 25, 40])
def test_check_depth_refuses_exactly_what_is_nested_too_deep(depth: int) -> None:
    """A saved game's lists and objects may nest 24 levels deep and no deeper, whether the
    deepest branch is a list or an object and wherever it sits among shallow siblings (each
    wrapper here holds an empty container too, one level below it)."""
    from smallworld_rules.saved import MAX_JSON_DEPTH, check_depth

    for wrap in (lambda v: [1, "x", v, {}], lambda v: {"a": 1, "b": [], "c": v}):
        data: object = 7
        for _ in range(depth):
            data = wrap(data)
        if depth + 1 > MAX_JSON_DEPTH:
            with pytest.raises(sw.RulesError, match="nested more than 24"):
                check_depth(data, "test")
        else:
            check_depth(data, "test")
    cyclic: list[object] = [1]
    cyclic.append(cyclic)
    with pytest.raises(sw.RulesError, match="nested more than"):
        check_depth(cyclic, "test")




#: values a loaded save may put in any field of an event (the fields are not checked)
ODD_VALUES: list[object] = [
    True, False, None, 0, -3, 2**70, 1.5, "", "trolls", 'a"b\\c\n\u00e9\u2603', (), (1, "x"),
    ((1, "x", None), (True,)), {"b": [1, (2,)], "a": None}, [1, [2, {"z": 0, "y": 1}]],
]


def test_log_json_is_the_encoder_text() -> None:
    """A save writes its log faster than through each event's dict, and byte for byte the
    same: for every event of seeded games with every expansion, and for every event type
    with each field holding any value a loaded save may give it."""
    import attrs

    from smallworld_rules.events import EVENT_TYPES, encode_json, log_json

    def expected(events: list[object]) -> str:
        dicts = [e.to_dict() for e in events]  # type: ignore[attr-defined]
        return json.dumps(dicts, sort_keys=True, separators=(",", ":"))

    rules = sw.load_rules(expansions=sw.available_expansions())
    kinds = set()
    for game in finished_games(rules, 6, (3, 4, 5)):
        assert log_json(game.log) == expected(list(game.log))
        kinds.update(type(e).__name__ for e in game.log)
    assert len(kinds) >= 12
    odd = 0
    for cls in EVENT_TYPES.values():
        fields = attrs.fields(cls)
        for i in range(len(fields)):
            for value in ODD_VALUES:
                args = [value if j == i else j for j in range(len(fields))]
                event = cls(*args)
                assert log_json([event]) == expected([event]) == f"[{encode_json(event.to_dict())}]"
                odd += 1
    assert odd > 1000
    assert log_json([]) == "[]"


def test_to_json_is_the_sorted_encoding_of_its_document(tmp_path: Path) -> None:
    """A save is one JSON object with sorted keys and no spaces: written in pieces, it is
    still what encoding its document gives, also with a log whose events hold odd values
    (loaded from a save) and with a board that travels with the game."""
    board = Path(sw.__file__).parent / "maps" / "2p.json"
    (tmp_path / "mine.json").write_text(board.read_text())
    rules = sw.load_rules(expansions=sw.available_expansions())
    own_board = sw.Game.new(players=2, seed=3, map=str(tmp_path / "mine.json"))
    games = [*finished_games(rules, 3, (3, 4, 5)), own_board]
    for game in games:
        text = game.to_json()
        doc = json.loads(text)
        assert text == json.dumps(doc, sort_keys=True, separators=(",", ":"))
        with_player = [event for event in doc["log"] if "player" in event]
        for event, value in zip(with_player, ODD_VALUES, strict=False):
            event["player"] = value
        odd = json.dumps(doc)  # not sorted: loading does not depend on the order
        again = sw.Game.from_json(odd, rules=game.rules).to_json()
        assert again == json.dumps(json.loads(odd), sort_keys=True, separators=(",", ":"))


@pytest.mark.parametrize("depth", [23, 24, 25])
def test_check_depth_searches_containers_of_any_kind(depth: int) -> None:
    """The depth check looks inside every list and object, whatever their exact types: a
    tuple, a subclass of dict or list, or one whose siblings are subclasses of str or int
    (the quick test by exact types must not skip them)."""
    from collections import OrderedDict

    from smallworld_rules.saved import MAX_JSON_DEPTH, check_depth

    class Text(str):
        pass

    class Number(int):
        pass

    class Items(list):  # type: ignore[type-arg]
        pass

    wrappers = [
        lambda v: (v,),
        lambda v: Items([v]),
        lambda v: OrderedDict(a=v),
        lambda v: (1, Text("x"), v),
        lambda v: OrderedDict(a=Number(1), b=v),
        lambda v: Items([None, v, 2.5, True]),
        lambda v: {"a": Text("y"), "b": v},
    ]
    for wrap in wrappers:
        data: object = Text("leaf")
        for _ in range(depth):
            data = wrap(data)
        if depth > MAX_JSON_DEPTH:
            with pytest.raises(sw.RulesError, match="nested more than 24"):
                check_depth(data, "test")
        else:
            check_depth(data, "test")


def _event_the_general_way(data: dict[str, object]) -> object:
    """What ``event_from_dict`` made before its quick readers: ``cls(**fields)``, lists as
    tuples, or the refusal."""
    from smallworld_rules.events import EVENT_TYPES, _tupled

    cls = EVENT_TYPES[str(data["type"])]
    fields = {k: _tupled(v) for k, v in data.items() if k != "type"}
    try:
        return cls(**fields)
    except TypeError:
        return "refused"


def test_events_read_back_as_the_general_way_builds_them() -> None:
    """A save's log is read by a quick reader per event type: for every event of seeded
    games with every expansion, and for each with a field missing, one too many, a list (or
    lists in lists) in any field, the event is the one ``cls(**fields)`` builds, of the same
    class with the same field types, and a dict that is not an event is refused as before."""
    import attrs

    from smallworld_rules.events import event_from_dict, events_from_dicts

    def same(a: object, b: object) -> bool:
        return type(a) is type(b) and repr(a) == repr(b) and (
            not attrs.has(type(a)) or all(
                type(getattr(a, f.name)) is type(getattr(b, f.name))
                for f in attrs.fields(type(a))
            )
        )

    rules = sw.load_rules(expansions=sw.available_expansions())
    rng = random.Random(4)
    checked = refused = 0
    for game in finished_games(rules, 4, (3, 4, 5)):
        dicts = json.loads(game.to_json())["log"]
        loaded = events_from_dicts(dicts)
        assert [repr(e) for e in loaded] == [repr(e) for e in game.log]
        for data in dicts[:60]:
            names = [k for k in data if k != "type"]
            variants = [dict(data)]
            if names:
                variants.append({k: v for k, v in data.items() if k != rng.choice(names)})
                field = rng.choice(names)
                for value in ([1, [2, ["x"]]], [], [[]], {"a": [1]}, None, 2.5):
                    variants.append({**data, field: value})
            variants.append({**data, "surplus": 1})
            for variant in variants:
                expected = _event_the_general_way(variant)
                if expected == "refused":
                    with pytest.raises(sw.RulesError, match="bad log event"):
                        events_from_dicts([variant])
                    with pytest.raises(sw.RulesError, match="bad log event"):
                        event_from_dict(variant)
                    refused += 1
                else:
                    assert same(events_from_dicts([variant])[0], expected)
                    assert same(event_from_dict(variant), expected)
                    checked += 1
    assert checked > 1000 and refused > 200
    for bad in ([], "x", {"type": "Nothing"}, {"type": ["TurnEnded"]}, {"player": 1}):
        with pytest.raises(sw.RulesError, match="not a log event"):
            events_from_dicts([bad])


def test_invariants_count_each_races_tokens_on_the_map() -> None:
    """The invariants sum each occupant's tokens on the map in one pass: one token too many
    in any region is refused naming that race and its new count on the map; one Lost Tribe
    token too many is refused too."""
    from smallworld_rules.state import LOST_TRIBE

    rules = sw.load_rules()
    checked = 0
    for game in random_positions(rules, 2, (2, 4))[::25]:
        engine, state = game._engine, game._state
        engine.check_invariants(state)
        for r in range(engine.n):
            race = state.region_race[r]
            if race is None:
                continue
            s = state.copy()
            s.region_tokens = list(s.region_tokens)
            s.region_tokens[r] += 1 if race != LOST_TRIBE else 99
            tokens = zip(s.region_race, s.region_tokens, strict=True)
            on_map = sum(t for o, t in tokens if o == race)
            expected = "Lost Tribe tokens" if race == LOST_TRIBE else f"{race}: .* map {on_map} "
            with pytest.raises(sw.RulesError, match=expected):
                engine.check_invariants(s)
            checked += 1
    assert checked > 50


@pytest.mark.parametrize(
    ("path", "value", "message"),
    [
        (("region_tokens", 5), -1, "region_tokens[5] must be from 0, not -1"),
        (("box", "trolls"), "x", "box[trolls] must be an integer, not 'x'"),
        (("market", 2), [1], "market[2] must be [race, power, coins]"),
        (("players", 1, "declined"), [3], "players[1].declined[0] names an unknown race 3"),
        (("truces",), [[0, 7]], "truces[0][1] must be from 0 to 1, not 7"),
        (("piece_supply", "lair"), True, "piece_supply[lair] must be an integer, not True"),
    ],
)
def test_a_corrupt_entry_is_named_by_its_place(
    path: tuple[object, ...], value: object, message: str
) -> None:
    """A corrupt save names the entry that is wrong, down to its index or key (the place is
    made into text only for the message)."""
    game = sw.Game.new(players=2, seed=1)
    doc = json.loads(game.to_json())
    target = doc["state"]
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    with pytest.raises(sw.RulesError) as refused:
        sw.Game.from_json(json.dumps(doc))
    assert str(refused.value) == f"corrupt saved game: {message}"


def test_role_purchases_are_those_each_check_allows() -> None:
    """The Necromancer's purchases in legal_actions work each price out once per position
    (his token and power prices are one expression, compiled once): on every position of
    seeded games they are exactly the purchases whose own check (pricing each alone)
    allows them, in the same order, and the same shared instances from call to call."""
    from smallworld_rules.actions import Purchase

    rules = sw.load_rules(expansions=["necromancer_island"])
    offered = 0
    for game in random_positions(rules, 6, (3, 4, 5)):
        engine, state = game._engine, game._state
        wanted = [("token", None)] + [("power", p) for p in state.role_reserve]
        expected = [
            Purchase(item, power)
            for item, power in wanted
            if not state.conquered and engine.purchase_problem(state, item, power) is None
        ]
        quick = engine._purchases(state)
        assert quick == expected
        assert engine.role is not None and engine.role.buys["token"] is engine.role.buys["power"]
        assert all(a is b for a, b in zip(quick, engine._purchases(state), strict=True))
        offered += len(quick)
    assert offered > 100


def test_region_masks_of_the_rule_language_are_their_definitions() -> None:
    """The masks rule files read (``piece P``, ``non_empty``, ``lone``) are, on every
    position of seeded games with every expansion, the regions that hold such a piece, any
    token, exactly one token."""
    rules = sw.load_rules(expansions=sw.available_expansions())
    pieces = sorted(rules.pieces)
    checked = 0
    for game in random_positions(rules, 3, (3, 4, 5))[::5]:
        engine, state = game._engine, game._state
        for race in state.races:
            ctx = engine.context(state, race)
            tokens = state.region_tokens
            assert ctx.property_mask("non_empty") == sum(
                1 << r for r in range(engine.n) if tokens[r] > 0
            )
            assert ctx.property_mask("lone") == sum(
                1 << r for r in range(engine.n) if tokens[r] == 1
            )
            for piece in pieces:
                held = state.pieces
                assert ctx.piece_mask(piece) == sum(
                    1 << r for r in range(engine.n) if held.get(r, {}).get(piece, 0) > 0
                )
            checked += 1
    assert checked > 100


def test_shuffle_draws_what_randbelow_draws() -> None:
    """The seeded shuffle (Fisher–Yates with the game's generator written out) leaves the
    items and the generator exactly as drawing each position with ``randbelow`` does."""
    import random

    from smallworld_rules import rng

    source = random.Random(5)
    for _ in range(2000):
        state, n = source.getrandbits(64), source.randrange(0, 140)  # past the limits table
        drawn, shuffled = list(range(n)), list(range(n))
        expected = state
        for i in range(n - 1, 0, -1):
            expected, j = rng.randbelow(expected, i + 1)
            drawn[i], drawn[j] = drawn[j], drawn[i]
        assert rng.shuffle(state, shuffled) == expected
        assert shuffled == drawn


def _partial_games(rules: sw.Rules, games: int, players: tuple[int, ...]) -> list[sw.Game]:
    """Seeded random games stopped at a random point (some at the start, some over)."""
    out = []
    for seed in range(games):
        game = sw.Game.new(players=players[seed % len(players)], seed=seed, rules=rules)
        rng = random.Random(seed)
        for _ in range(rng.randrange(0, 300)):
            if game.is_over:
                break
            options = list(game.legal_actions())
            game.apply(options[rng.randrange(len(options))])
        out.append(game)
    return out


def test_a_loaded_log_is_built_when_first_read() -> None:
    """A loaded game builds its log's events only when the log is first read: the log is
    then the one the eager reading gives (same events, same field types) and the saved
    game's own, an immutable tuple of frozen events; saving before and after reading gives
    the same text; clones, moves and undo keep their meaning (seeded games, every
    expansion)."""
    import attrs

    from smallworld_rules.events import events_from_dicts

    rules = sw.load_rules(expansions=sw.available_expansions())
    checked = 0
    for game in _partial_games(rules, 10, (3, 4, 5)):
        text = game.to_json()
        eager = events_from_dicts(json.loads(text)["log"])
        loaded = sw.Game.from_json(text, rules=rules)
        assert loaded.to_json() == text  # written from the checked dicts, not built yet
        twin = loaded.clone()
        log = loaded.log
        assert type(log) is tuple and log == tuple(eager) == game.log
        assert [repr(e) for e in log] == [repr(e) for e in eager]
        for a, b in zip(log, eager, strict=True):
            assert [type(getattr(a, f.name)) for f in attrs.fields(type(a))] == [
                type(getattr(b, f.name)) for f in attrs.fields(type(b))
            ]
        assert loaded.log == log and loaded.to_json() == text
        if log:
            with pytest.raises(attrs.exceptions.FrozenInstanceError):
                log[0].player = 99  # type: ignore[misc]
        # the twin, cloned before the log was built, plays on alone and builds its own log
        if not twin.is_over:
            rng = random.Random(len(text))
            moves = []
            for _ in range(5):
                if twin.is_over:
                    break
                options = list(twin.legal_actions())
                moves.append(options[rng.randrange(len(options))])
                twin.apply(moves[-1])
                game.apply(moves[-1])
            assert loaded.log == log and loaded.to_json() == text
            assert twin.log == game.log and twin.to_json() == game.to_json()
            for _ in moves:
                twin.undo()
            assert twin.log == log and twin.to_json() == text
            with pytest.raises(sw.RulesError, match="nothing to undo"):
                twin.undo()
        checked += len(log)
    assert checked > 1000


def test_a_loaded_log_is_refused_as_the_eager_reading_refuses_it() -> None:
    """Every entry of a saved log is checked on loading, before any event is built: an
    entry with a field missing, one too many, keys of another event type or no event at
    all is refused with the eager reading's message, or built as it builds it."""
    from smallworld_rules.events import build_log, events_from_dicts, saved_log

    def outcome(read: object, items: list[object]) -> str:
        try:
            return repr(read(items))  # type: ignore[operator]
        except sw.RulesError as exc:
            return f"refused: {exc}"

    rules = sw.load_rules(expansions=sw.available_expansions())
    rng = random.Random(7)
    refused = built = 0
    for game in _partial_games(rules, 4, (3, 4, 5)):
        text = game.to_json()
        doc = json.loads(text)
        for i, data in enumerate(doc["log"][:80]):
            names = [k for k in data if k != "type"]
            other = rng.choice(doc["log"])
            variants: list[object] = [
                {k: v for k, v in data.items() if k != rng.choice(names)} if names else {},
                {**data, "surplus": 1},
                {**data, "type": other["type"]},
                {k: v for k, v in data.items() if k != "type"},
                [data], "x", None, {"type": ["TurnEnded"]},
            ]
            for variant in variants:
                items = [*doc["log"][:i], variant, *doc["log"][i + 1 : i + 3]]
                eager = outcome(events_from_dicts, items)
                lazy = outcome(lambda x: build_log(saved_log(x)), items)
                assert lazy == eager
                if eager.startswith("refused"):
                    refused += 1
                    bad = json.dumps({**doc, "log": items})
                    with pytest.raises(sw.RulesError) as exc:
                        sw.Game.from_json(bad, rules=rules)
                    assert f"refused: {exc.value}" == eager
                else:
                    built += 1
    assert refused > 500 and built > 50


def test_a_log_left_as_text_is_what_loading_it_whole_gives() -> None:
    """A save whose log is as the engine writes it is loaded without its log, the log's text
    kept to be parsed when read: for the saves of seeded games with every expansion and for
    corrupt variants (a value of the log or elsewhere replaced, a key dropped or added, a
    second "log" key, text cut and spliced), loading this way gives the same document and
    log as loading the text whole, or the same refusal."""
    from smallworld_rules.events import saved_log
    from smallworld_rules.saved import check_state_depth, load_json, load_save_json

    def compact(doc: object) -> str:
        return json.dumps(doc, sort_keys=True, separators=(",", ":"))

    def outcome(text: str) -> tuple[str, object]:
        try:
            doc, log_text = load_save_json(text)
            if log_text is not None:  # the state's depth, left to the caller (from_json)
                check_state_depth(doc)
        except sw.RulesError as exc:
            return "refused", str(exc)
        if log_text is None:
            return "whole", doc
        items = json.loads(log_text)
        assert len(items) == log_text.count('"type":')
        assert all(type(e) is dict for e in saved_log(items))  # every entry sure to build
        assert compact(items) == log_text
        assert doc["log"] == []
        return "whole", {**doc, "log": items}

    def whole(text: str) -> tuple[str, object]:
        try:
            return "whole", load_json(text, "not a saved game")
        except sw.RulesError as exc:
            return "refused", str(exc)

    hostile: list[object] = [
        -1, 0, 2**70, 1.5, True, None, "", "x", 'a"b', "\u00e9", [], [1, [2]], {"a": 1},
        json.loads("[" * 26 + "]" * 26),
    ]
    rules = sw.load_rules(expansions=sw.available_expansions())
    rng = random.Random(11)
    fast = cases = 0
    for game in _partial_games(rules, 8, (3, 4, 5)):
        text = game.to_json()
        assert load_save_json(text)[1] is not None  # every save the engine writes
        doc = json.loads(text)
        variants = [text]
        for _ in range(40):
            bad = json.loads(text)
            where = bad["log"] if bad["log"] and rng.random() < 0.6 else bad["state"]
            if isinstance(where, list):
                where = rng.choice(where)
            key = rng.choice(sorted(where))
            roll = rng.random()
            if roll < 0.2:
                del where[key]
            elif roll < 0.3:
                where["log" if rng.random() < 0.5 else "zz"] = rng.choice(hostile)
            else:
                where[key] = rng.choice(hostile)
            variants.append(compact(bad))
        for _ in range(20):
            cut = rng.randrange(len(text))
            splice = rng.choice(["[" * 30, '{"a":' * 30, "]", "", '"', ",", "\\"])
            variants.append(text[:cut] + splice + text[cut + rng.randrange(3) :])
        variants.append(compact({**doc, "zlog": 1}) + " ")
        # a second "log" key, which JSON lets win over the first
        variants += [text[:-1] + ',"log":5}', text[:-1] + ',"\\u006cog":[]}']
        for variant in variants:
            got = outcome(variant)
            assert got == whole(variant)
            fast += load_save_json(variant)[1] is not None if got[0] == "whole" else 0
            cases += 1
    assert cases > 400 and fast > 100


RULE_SETS = rule_sets()


@RULE_SETS
def test_turn_score_is_the_score_breakdown(how: dict[str, object]) -> None:
    """Rule 1.11: at the end of its owner's turn a race scores a coin per region it holds,
    changed by its rule files' score modifiers. The end of the turn (which makes no
    breakdown for a race without score modifiers) scores exactly the breakdown's value and
    logs its explanation, for every race in play on every position of seeded games."""
    from smallworld_rules.engine.scoring import scored

    rules, players = rules_and_players(how)
    plain = changed = 0
    for game in random_positions(rules, 10, players):
        engine, state = game._engine, game._state
        for race in state.races:
            b = engine.score(state, race)
            assert scored(engine, state, race) == (b.value, b.explain())
            if b.contributions:
                changed += 1
            else:
                plain += 1
    assert plain > 1000
    assert changed > 20


@RULE_SETS
def test_legal_abilities_are_listed_with_the_reach_of_the_conquests(how: dict[str, object]) -> None:
    """An ability may be used on a target its clause allows (``reachable``: a region the
    race may attack now). The conquest phase's legal actions, which hand the reach worked
    out for the conquests on to the abilities' listing, list the same UseAbility actions,
    in the same order, as the listing working the reach out itself (which a test above
    compares with ``ability_problem``), then the abilities of the player's races in
    decline."""
    from smallworld_rules.language import flow

    rules, players = rules_and_players(how)
    checked = 0
    for game in random_positions(rules, 10, players):
        engine, state = game._engine, game._state
        if state.phase is not Phase.CONQUEST or state.acting is None:
            continue
        rs = state.races[state.acting]
        expected = engine._ability_actions(state, rs, state.phase)
        if engine.declined_abilities:
            expected += flow.declined_ability_actions(engine, state, state.phase)
        listed = [a for a in engine.legal_actions(state) if isinstance(a, sw.UseAbility)]
        assert listed == expected
        checked += len(expected)
    assert checked > 20


def test_shuffle_limits_are_randbelows() -> None:
    """The shuffle's table of rejection limits (a draw at or above the limit is drawn again,
    so that every position is equally likely) holds randbelow's limit for each count."""
    from smallworld_rules import rng

    assert len(rng._LIMITS) == 128
    for n in range(1, 128):
        assert rng._LIMITS[n] == (1 << 64) - ((1 << 64) % n)


def _state_drawing(x: int) -> int:
    """The generator state whose next 64 bits are ``x`` (splitmix64 run backwards)."""
    mask = (1 << 64) - 1

    def unshift(y: int, shift: int) -> int:  # the inverse of y ^ (y >> shift)
        out = y
        for _ in range(64 // shift + 1):
            out = y ^ (out >> shift)
        return out

    z = unshift(x, 31)
    z = unshift(z * pow(0x94D049BB133111EB, -1, 1 << 64) & mask, 27)
    z = unshift(z * pow(0xBF58476D1CE4E5B9, -1, 1 << 64) & mask, 30)
    return (z - 0x9E3779B97F4A7C15) & mask


@pytest.mark.parametrize("n", [3, 5, 6, 7, 100, 127, 131])
def test_shuffle_draws_again_above_the_limit(n: int) -> None:
    """A draw at or above randbelow's limit for the count is drawn again (so that every
    position is equally likely): the shuffle, which looks its limits up in a table, draws
    again exactly when randbelow does, here on the shuffle's very first draw."""
    from smallworld_rules import rng

    state = _state_drawing((1 << 64) - 1)  # above the limit of every count but a power of 2
    assert rng.next_u64(state)[1] == (1 << 64) - 1
    expected, drawn = state, list(range(n))
    for i in range(n - 1, 0, -1):
        expected, j = rng.randbelow(expected, i + 1)
        drawn[i], drawn[j] = drawn[j], drawn[i]
    shuffled = list(range(n))
    assert rng.shuffle(state, shuffled) == expected
    assert shuffled == drawn


@RULE_SETS
def test_new_games_share_their_start_unchanged(how: dict[str, object]) -> None:
    """Rule 1.2: every game starts with the Lost Tribes on the map, full trays and full
    piece supplies. New games of one engine share those tables (never changed in place):
    after whole games have been played from them, a new game with the same seed is the
    same as the first, and the shared tables are still what the rules and map give."""
    from smallworld_rules.engine.new_game import start_tables

    rules, players = rules_and_players(how)
    for count in players[:2]:
        first = sw.Game.new(players=count, seed=3, rules=rules)
        before = first.to_json()
        engine = first._engine
        kept = start_tables(engine)
        random_positions(rules, 3, (count,))  # whole games from the same engine
        again = sw.Game.new(players=count, seed=3, rules=rules)
        assert again._engine is engine and start_tables(engine) is kept
        assert again.to_json() == before == first.to_json()
        occupants = tuple(
            LOST_TRIBE if r.lost_tribe else None for r in engine.map.regions
        )
        assert kept[0] == occupants
        assert kept[1] == {LOST_TRIBE: sum(1 << r for r, o in enumerate(occupants) if o)}
        assert kept[2] == tuple(0 if o is None else 1 for o in occupants)
        assert kept[3] == {rid: rd.box for rid, rd in rules.races.items()}
        assert kept[4] == {name: p.supply for name, p in rules.pieces.items()}
        assert all(pile == () for pile in kept[5].values())



_ENTRIES: list[object] = [
    0, 1, 7, -1, 30, 10**40, True, False, None, 1.0, "", "x", "amazons", "lost_tribe", "soul",
    [], [1], {}, {"a": 1},
]


def _outcome(check: Callable[..., object], *args: object) -> tuple[str, object]:
    try:
        return ("ok", check(*args))
    except sw.RulesError as exc:
        return ("refused", str(exc))


def test_a_saved_list_tested_at_once_is_what_checking_each_entry_gives() -> None:
    """A corrupt saved game is refused with a short message naming the first wrong entry,
    whether a list of a save is tested at once or entry by entry: for ~6,000 lists of ids and
    of integers (sound, or with hostile entries), the bulk tests of a load (`_ints`, `_ids`,
    `_sound_counts`) give the same list, or the same refusal, as the entry-by-entry check."""
    from smallworld_rules import saved

    engine = sw.Game.new(players=3, seed=0)._engine
    races, powers = engine.race_defs, engine.rules.powers
    pool = [*_ENTRIES, *sorted(races)[:5], *sorted(powers)[:5]]
    rng = random.Random(21)
    fast_ok = 0
    for _ in range(2000):
        size = rng.randrange(0, 6)
        sound_ids = [rng.choice(sorted(races)) for _ in range(size)]
        ints = [rng.randrange(0, 9) for _ in range(size)]
        for value in (sound_ids, ints, [rng.choice(pool) for _ in range(size)]):
            length = rng.choice([None, size, size + 1])
            low, high = rng.choice([(0, None), (0, 8), (1, 3), (-1, 99)])
            entry = functools.partial(_bounded, low=low, high=high)
            fast = _outcome(saved._ints, value, "f", low, high, length)
            assert fast == _outcome(saved._list, value, "f", entry, length), value
            known = rng.choice([races, powers, {*races, None, LOST_TRIBE}])
            entry = functools.partial(_known_id, known=known)
            fast = _outcome(saved._ids, value, "f", entry, known, length)
            assert fast == _outcome(saved._list, value, "f", entry, length), value
            fast_ok += fast[0] == "ok"
            each = all(_outcome(saved._int, v, "f")[0] == "ok" for v in value)
            assert saved._sound_counts(value) == each, value
    assert fast_ok > 1000
    # the list given back is a copy: the loaded state never shares the parsed document's list
    parsed = [1, 2]
    assert saved._ints(parsed, "f") == parsed and saved._ints(parsed, "f") is not parsed


def _bounded(value: object, where: object, low: int, high: int | None) -> int:
    from smallworld_rules import saved

    return saved._int(value, where, low, high)  # type: ignore[arg-type]


def _known_id(value: object, where: object, known: object) -> object:
    """An entry check of a load (`race_id`, `occupant`): a string or None that ``known``
    holds, as it is."""
    from smallworld_rules import saved

    if (value is None or isinstance(value, str)) and value in known:  # type: ignore[operator]
        return value
    raise saved._bad(where, f"names an unknown id {value!r}")  # type: ignore[arg-type]
