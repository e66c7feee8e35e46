"""Every value a rule file can produce is bounded (``smallworld_rules.dsl.bounds``): what
``smallworld check`` accepts, a game can play and explain.

Found by trying the library as an attacker would: a score that is a product of many large
numbers passed the checker, then every explanation of it raised (the integer had more digits
than Python converts to text), so the game's one legal action raised every time and it could
never go on; ``defence add`` of the same broke ``explain_conquest_cost`` and its ``repr``.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import deploy_all_and_end

import smallworld_rules as sw
from smallworld_rules import cli
from smallworld_rules.dsl.bounds import COUNT_LIMIT, OPTION_LIMIT, VALUE_LIMIT


def _product(levels: int) -> str:
    """``(999999) * (999999)``, nested ``levels`` deep: 2**levels factors in few parentheses."""
    text = "999999"
    for _ in range(levels):
        text = f"({text}) * ({text})"
    return text


PRODUCT = _product(10)  # 1,024 factors, some 6,000 digits: more than str() converts


def _race(tmp_path: Path, *body: str, name: str = "bigscore") -> Path:
    path = tmp_path / f"{name}.swr"
    lines = [f'race {name} "Big Score" {{', '    text "Counts big."', "    tokens 5",
             "    box 10", *(f"    {line}" for line in body), "}"]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


@pytest.mark.parametrize("hook", ["score", "defence", "conquest_cost", "losses"])
def test_a_product_of_large_numbers_is_refused_where_it_is_written(
    tmp_path: Path, hook: str
) -> None:
    """No value a rule file computes may exceed ±1,000,000: the checker refuses a modifier
    whose value could (its line and column, the label ``value-too-large``, a hint), for every
    hook, so the file never reaches a game."""
    path = _race(tmp_path, f"{hook} add {PRODUCT}")
    with pytest.raises(sw.RuleFileError) as caught:
        sw.load_rules(paths=[path])
    error = caught.value
    assert (error.label, error.line, error.column) == ("value-too-large", 5, 10 + len(hook))
    assert "1,000,000" in str(error) and len(str(error)) < 6_000


def test_smallworld_check_refuses_it_with_a_clear_message(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``smallworld check`` refuses what play cannot run: an error at the line, no
    traceback, exit status 1."""
    defence = f"defence add count(own regions) * {_product(8)}"
    path = _race(tmp_path, f"score add {PRODUCT}", defence)
    code = cli.main(["check", str(path)])
    err = capsys.readouterr().err
    assert code == 1 and "Traceback" not in err
    assert f"{path}:5:15: this value can exceed 1,000,000" in err
    assert f"{path}:6:17: this value can exceed 1,000,000" in err


def test_the_bound_counts_each_part_at_its_largest(tmp_path: Path) -> None:
    """A count stands for up to 1,000 and an option for up to 10,000 in the bound: a count
    times 1,000 is at the limit and loads; times 1,001, or an option times 101, does not."""
    assert (VALUE_LIMIT, COUNT_LIMIT, OPTION_LIMIT) == (1_000_000, 1_000, 10_000)
    sw.load_rules(paths=[_race(tmp_path, "score add count(own regions) * 1000")])
    for body in ("score add count(own regions) * 1001", "score add option big * 101"):
        folder = tmp_path / body.split()[-1]
        folder.mkdir()
        path = _race(folder, 'option big default 1 "A big option"', body)
        with pytest.raises(sw.RuleFileError, match="can exceed 1,000,000"):
            sw.load_rules(paths=[path])


def test_values_at_the_limit_play_and_explain(tmp_path: Path) -> None:
    """What the checker accepts plays: a score and a defence of up to 1,000 per region are
    scored, folded and explained (the breakdown's text and repr)."""
    path = _race(
        tmp_path, "score add count(own regions) * 1000",
        "defence add count(own regions) * 1000",
    )
    rules = sw.load_rules(paths=[path])
    game = sw.Game.new(players=2, seed=1, rules=rules, combos=[("bigscore", "forest")])
    game.apply(sw.PickCombo(0))
    region = next(a.region for a in game.legal_actions() if isinstance(a, sw.Conquer))
    game.apply(sw.Conquer(region))
    deploy_all_and_end(game)
    assert game.coins(0) == 5 + 1 + 1000
    game.apply(sw.PickCombo(0))
    breakdown = game.explain_conquest_cost(region)
    assert breakdown.value == game.conquest_cost(region) >= 1000
    assert "1000" in breakdown.explain() and repr(breakdown)


def test_an_option_value_beyond_the_limit_is_refused(tmp_path: Path) -> None:
    """An option's whole-number value is from -10,000 to 10,000: a larger default is refused
    by the checker, a larger value by ``Game.new`` (without echoing it), so the bound of every
    expression that reads an option holds."""
    path = _race(tmp_path, 'option big default 99999 "A big option"', "score add option big")
    with pytest.raises(sw.RuleFileError, match="more than 10,000") as caught:
        sw.load_rules(paths=[path])
    assert caught.value.label == "value-too-large"
    ni = sw.load_rules(expansions=["necromancer_island"])
    for value in (OPTION_LIMIT + 1, -(10**5000)):
        with pytest.raises(sw.RulesError, match="from -10000 to 10000") as refused:
            sw.Game.new(players=3, seed=1, rules=ni, options={"necromancer_coins": value})
        assert len(str(refused.value)) < 200
    game = sw.Game.new(players=3, seed=1, rules=ni, options={"necromancer_coins": OPTION_LIMIT})
    assert game.coins(2) == OPTION_LIMIT
