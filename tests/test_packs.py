"""Issue 10 parts 1–2: loading user files and rule packs, overrides, and finding races and powers.

Packs are installed distributions; most tests here fake one cheaply (a ``*.dist-info`` folder
with an ``entry_points.txt`` on ``sys.path``), and one slow test installs the real template of
``examples/pack-template`` into a fresh virtual environment and loads it through its entry point.
"""

from __future__ import annotations

import importlib.util
import itertools
import json
import os
import shutil
import subprocess
import sys
import sysconfig
import textwrap
import time
from pathlib import Path

import pytest

import smallworld_rules as sw
from smallworld_rules.packs import ENTRY_POINT_GROUP, Pack, find_pack

REPO = Path(__file__).resolve().parent.parent
TEMPLATE = REPO / "examples" / "pack-template"
TEMPLATE_RULES = TEMPLATE / "smallworld_pack_template" / "rules"
TEST_RULES = REPO / "tests" / "rules"

_counter = itertools.count()


def race(rule_id: str, name: str | None = None, tokens: int = 5, extra: str = "") -> str:
    return (
        f'race {rule_id} "{name or rule_id.title()}" {{\n'
        f'    tokens {tokens}\n    box {tokens + 5}\n    text "Test race."\n{extra}}}\n'
    )


def power(rule_id: str, name: str | None = None, extra: str = "") -> str:
    title = name or rule_id.title()
    return f'power {rule_id} "{title}" {{\n    tokens 2\n    text "T."\n{extra}}}\n'


def write(folder: Path, files: dict[str, str]) -> Path:
    for relative, text in files.items():
        path = folder / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return folder


class FakeSite:
    """A folder on ``sys.path`` holding fake installed distributions that register packs."""

    def __init__(self, root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
        self.root = root
        self.monkeypatch = monkeypatch
        root.mkdir(parents=True, exist_ok=True)
        monkeypatch.syspath_prepend(str(root))

    def add(
        self,
        distribution: str,
        pack: str,
        files: dict[str, str] | None = None,
        *,
        value: str = "{module}:RULES",
        module_code: str = "from pathlib import Path\nRULES = Path(__file__).parent / 'rules'\n",
        version: str = "1.0",
    ) -> str:
        """Install a distribution with one pack; return the name of the pack's module."""
        module = f"fakepack_{next(_counter)}_{os.getpid()}"
        package = self.root / module
        package.mkdir()
        (package / "__init__.py").write_text(module_code, encoding="utf-8")
        write(package / "rules", files or {})
        self.monkeypatch.delitem(sys.modules, module, raising=False)  # forgotten afterwards
        info = self.root / f"{distribution.replace('-', '_')}-{version}.dist-info"
        info.mkdir()
        (info / "METADATA").write_text(
            f"Metadata-Version: 2.1\nName: {distribution}\nVersion: {version}\n", encoding="utf-8"
        )
        (info / "entry_points.txt").write_text(
            f"[{ENTRY_POINT_GROUP}]\n{pack} = {value.format(module=module)}\n", encoding="utf-8"
        )
        importlib.invalidate_caches()
        return module


@pytest.fixture
def site(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> FakeSite:
    return FakeSite(tmp_path / "site", monkeypatch)


# --------------------------------------------------------------------------- paths and override


def test_an_official_id_is_overridden_only_on_request(tmp_path: Path) -> None:
    """Issue 10 part 1: a file whose id is an official one is a conflict naming both files (a
    RuleFileError at the id in the later file), unless override=True, which lets it replace
    the official file."""
    path = write(tmp_path, {"ratmen.swr": race("ratmen", "Big Ratmen", tokens=9)}) / "ratmen.swr"
    official = sw.load_rules().races["ratmen"].path
    with pytest.raises(sw.RuleFileError) as info:
        sw.load_rules(paths=[tmp_path])
    error = info.value
    assert (error.label, error.path, error.line, error.column) == ("duplicate-id", str(path), 1, 6)
    assert error.message == (
        f"the id 'ratmen' is already used by {official} (official); this file would replace it"
    )
    assert "override=True" in error.hint
    assert str(error).startswith(f"{path}:1:6: ")
    rules = sw.load_rules(paths=[tmp_path], override=True)
    assert (rules.races["ratmen"].tokens, rules.races["ratmen"].name) == (9, "Big Ratmen")
    assert sw.load_rules().races["ratmen"].tokens == 8  # nothing cached wrongly


def test_two_user_files_with_one_id_conflict_and_the_later_wins(tmp_path: Path) -> None:
    first = write(tmp_path / "a", {"scouts.swr": race("scouts", "First")})
    second = write(tmp_path / "b", {"sub/scouts.swr": race("scouts", "Second")})
    with pytest.raises(sw.RuleFileError, match="already used by") as info:
        sw.load_rules(paths=[first, second])
    assert str(first / "scouts.swr") in info.value.message
    assert info.value.path == str(second / "sub" / "scouts.swr")
    assert sw.load_rules(paths=[first, second], override=True).races["scouts"].name == "Second"
    assert sw.load_rules(paths=[second, first], override=True).races["scouts"].name == "First"


def test_a_race_never_replaces_a_power(tmp_path: Path) -> None:
    write(tmp_path, {"commando.swr": race("commando")})
    for override in (False, True):
        with pytest.raises(sw.RuleFileError, match="a power; this file is a race, which cannot"):
            sw.load_rules(paths=[tmp_path], override=override)


def test_the_same_file_given_twice_is_loaded_once(tmp_path: Path) -> None:
    write(tmp_path, {"scouts.swr": race("scouts")})
    rules = sw.load_rules(paths=[tmp_path, tmp_path / "scouts.swr", tmp_path])
    assert "scouts" in rules.races


def test_a_misnamed_file_is_reported_as_misnamed_not_as_a_conflict(tmp_path: Path) -> None:
    write(tmp_path, {"bigrats.swr": race("ratmen")})
    with pytest.raises(sw.RuleFileError) as info:
        sw.load_rules(paths=[tmp_path])
    assert info.value.label == "id-mismatch"


def test_overridden_files_declare_nothing(tmp_path: Path) -> None:
    """A replaced file's pieces and options are gone: the replacement may declare them again."""
    piece = "    piece totem supply 2 { immune }\n"
    first = write(tmp_path / "a", {"shamans.swr": race("shamans", extra=piece)})
    second = write(tmp_path / "b", {"shamans.swr": race("shamans", "Again", extra=piece)})
    rules = sw.load_rules(paths=[first, second], override=True)
    assert rules.pieces["totem"].path == str(second / "shamans.swr")


def test_parse_cache_sees_edits(tmp_path: Path) -> None:
    """The parse cache is keyed by path, modification time and size: an edit is seen."""
    path = write(tmp_path, {"scouts.swr": race("scouts", tokens=4)}) / "scouts.swr"
    assert sw.load_rules(paths=[path]).races["scouts"].tokens == 4
    path.write_text(race("scouts", tokens=7), encoding="utf-8")
    stat = path.stat()
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns + 10**9))
    assert sw.load_rules(paths=[path]).races["scouts"].tokens == 7


# --------------------------------------------------------------------------- find_race / find_power


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("ratmen", "ratmen"),
        ("Ratmen", "ratmen"),
        ("RAT MEN", "ratmen"),
        ("rat-men", "ratmen"),
        ("  rat_men ", "ratmen"),
        ("Giants", "giants"),
        ("longlegs", "longlegs"),
        ("Long Legs", "longlegs"),  # the display name
        ("lang-shanks", "longlegs"),  # an alias
        ("O'Shanks", "longlegs"),  # apostrophes are ignored too
    ],
)
def test_find_race_matches_ids_names_and_aliases(
    tmp_path: Path, name: str, expected: str
) -> None:
    """Issue 10 part 1: ids, display names and aliases, ignoring case, blanks, '_' and '-'."""
    extra = '    alias "Lang Shanks"\n    alias "OShanks"\n'
    folder = write(tmp_path, {"longlegs.swr": race("longlegs", "Long Legs", extra=extra)})
    rules = sw.load_rules(paths=[folder])
    assert rules.find_race(name).id == expected
    assert sw.find_race(name, rules).id == expected


def test_find_race_and_power_with_the_official_rules() -> None:
    assert sw.find_race("Rat Men").id == "ratmen"
    assert sw.find_power("COMMANDO").id == "commando"
    assert sw.load_rules().find_power("commando").name == "Commando"


def test_find_suggests_the_closest_on_a_miss() -> None:
    with pytest.raises(sw.RulesError, match=r"did you mean 'ratmen' \(Ratmen\)\?"):
        sw.find_race("ratman")
    with pytest.raises(sw.RulesError, match="did you mean 'commando'"):
        sw.find_power("Comando")
    with pytest.raises(sw.RulesError, match=r"the races are: .*ratmen"):
        sw.find_race("xyzzy")


def test_find_says_when_the_name_is_of_the_other_kind() -> None:
    with pytest.raises(sw.RulesError, match="the power 'commando' is: use find_power"):
        sw.find_race("Commando")
    with pytest.raises(sw.RulesError, match="the race 'ratmen' is: use find_race"):
        sw.find_power("ratmen")


def test_find_prefers_ids_and_refuses_true_ambiguity(tmp_path: Path) -> None:
    folder = write(
        tmp_path,
        {
            "scouts.swr": race("scouts", "Rangers"),
            "rangers.swr": race("rangers", "Wardens", extra='    alias "Pathfinders"\n'),
            "pathers.swr": race("pathers", "Others", extra='    alias "Pathfinders"\n'),
        },
    )
    rules = sw.load_rules(paths=[folder])
    assert rules.find_race("rangers").id == "rangers"  # the id wins over scouts' display name
    with pytest.raises(sw.RulesError, match=r"names several races: 'pathers'.*'rangers'"):
        rules.find_race("Pathfinders")


def test_find_finds_test_rules_by_display_name(rules: sw.Rules) -> None:
    assert rules.find_power("Plain Two").id == "plain2"
    with pytest.raises(sw.RulesError, match="no power name given"):
        rules.find_power(" - ")


# --------------------------------------------------------------------------- packs (faked)


def test_available_packs_reads_metadata_and_imports_nothing(site: FakeSite) -> None:
    module = site.add("alpha-pack", "alpha", {"goblins.swr": race("goblins")}, version="2.3")
    packs = [p for p in sw.available_packs() if p.name == "alpha"]
    assert [(p.name, p.distribution, p.version, p.value) for p in packs] == [
        ("alpha", "alpha-pack", "2.3", f"{module}:RULES")
    ]
    assert module not in sys.modules  # discovered lazily: nothing imported yet
    rules = sw.load_rules(packs=["alpha"])
    assert module in sys.modules
    assert "goblins" in rules.races and "ratmen" in rules.races
    assert rules.packs == ("alpha",)


def test_a_pack_record_can_be_passed_itself(site: FakeSite) -> None:
    site.add("alpha-pack", "alpha", {"powers/lucky.swr": power("lucky")})
    pack = find_pack("alpha")
    assert isinstance(pack, Pack)
    assert "lucky" in sw.load_rules(packs=[pack]).powers


def test_a_pack_overrides_an_official_id_only_on_request(site: FakeSite) -> None:
    site.add("alpha-pack", "alpha", {"ratmen.swr": race("ratmen", "Pack Ratmen")})
    with pytest.raises(sw.RulesError) as info:
        sw.load_rules(packs=["alpha"])
    message = str(info.value)
    assert "(official); this file (pack 'alpha' from the distribution 'alpha-pack' 1.0)" in message
    assert sw.load_rules(packs=["alpha"], override=True).races["ratmen"].name == "Pack Ratmen"


def test_duplicates_across_packs_name_both_distributions(site: FakeSite) -> None:
    """Issue 10 part 2: the same rule id in two packs is reported with both distribution names."""
    site.add("alpha-pack", "alpha", {"goblins.swr": race("goblins", "Alpha Goblins")})
    beta = {"races/goblins.swr": race("goblins", "Beta Goblins")}
    site.add("beta-pack", "beta", beta, version="0.2")
    with pytest.raises(sw.RulesError) as info:
        sw.load_rules(packs=["alpha", "beta"])
    message = str(info.value)
    assert "'goblins'" in message
    assert "distribution 'alpha-pack' 1.0" in message and "distribution 'beta-pack' 0.2" in message
    rules = sw.load_rules(packs=["alpha", "beta"], override=True)
    assert rules.races["goblins"].name == "Beta Goblins"


def test_a_pack_name_registered_twice_names_both_distributions(site: FakeSite) -> None:
    site.add("alpha-pack", "shared", {"goblins.swr": race("goblins")})
    site.add("beta-pack", "shared", {"trolls2.swr": race("trolls2")})
    assert [p.distribution for p in sw.available_packs() if p.name == "shared"] == [
        "alpha-pack",
        "beta-pack",
    ]
    with pytest.raises(sw.RulesError, match=r"'alpha-pack' 1\.0 and 'beta-pack' 1\.0"):
        sw.load_rules(packs=["shared"])


def test_an_unknown_pack_gets_a_suggestion(site: FakeSite) -> None:
    site.add("alpha-pack", "alpha", {"goblins.swr": race("goblins")})
    with pytest.raises(sw.RulesError, match=r"no rule pack 'alhpa'.*did you mean 'alpha'"):
        sw.load_rules(packs=["alhpa"])


def test_entry_point_values_a_callable_and_a_package(site: FakeSite) -> None:
    """The value may name a callable returning the folder, or a package (its own folder)."""
    code = "from pathlib import Path\ndef folder():\n    return Path(__file__).parent / 'rules'\n"
    files = {"goblins.swr": race("goblins")}
    site.add("call-pack", "call", files, module_code=code, value="{module}:folder")
    assert "goblins" in sw.load_rules(packs=["call"]).races
    files = {"__init__.py": "", "powers/lucky.swr": power("lucky")}
    site.add("pkg-pack", "pkg", files, value="{module}.rules")
    assert "lucky" in sw.load_rules(packs=["pkg"]).powers


@pytest.mark.parametrize(
    ("module_code", "value", "message"),
    [
        ("raise RuntimeError('broken pack')\n", "{module}:RULES", "cannot load .*broken pack"),
        ("RULES = 42\n", "{module}:RULES", "which is int, not a folder"),
        ("RULES = '/no/such/folder'\n", "{module}:RULES", "does not exist on disk"),
        ("def RULES():\n    raise OSError('nope')\n", "{module}:RULES", "failed: OSError: nope"),
        ("", "{module}:MISSING", "cannot load .*AttributeError"),
    ],
)
def test_broken_packs_are_refused_with_the_pack_and_distribution_named(
    site: FakeSite, module_code: str, value: str, message: str
) -> None:
    site.add("bad-pack", "bad", module_code=module_code, value=value)
    with pytest.raises(sw.RulesError, match=message) as info:
        sw.load_rules(packs=["bad"])
    assert "'bad-pack'" in str(info.value)


# --------------------------------------------------------------------------- the template


def test_the_template_rule_files_load_next_to_the_official_ones() -> None:
    """The template's files are sound in today's language (fast: no install)."""
    rules = sw.load_rules(paths=[TEMPLATE_RULES, TEST_RULES])
    assert {"mossfolk", "cliffwardens"} <= set(rules.races) and "tidebound" in rules.powers
    assert rules.find_race("Cliff Wardens").id == "cliffwardens"
    assert "cliffwardens_discount" in rules.options


SCRIPT = """
import sys
import smallworld_rules as sw

packs = {p.name: p for p in sw.available_packs()}
assert packs["template"].distribution == "smallworld-pack-template", packs
assert "smallworld_pack_template" not in sys.modules, "discovery imported the pack"
rules = sw.load_rules(packs=["template"])
assert {"mossfolk", "cliffwardens"} <= set(rules.races) and "tidebound" in rules.powers
assert "site-packages" in rules.races["mossfolk"].path, rules.races["mossfolk"].path
game = sw.Game.new(players=2, seed=5, rules=rules, combos=[("mossfolk", "tidebound")])
game.apply(sw.PickCombo(0))
assert game.active_race(0) == "mossfolk" and game.active_power(0) == "tidebound"
print("loaded", sw.__file__)
"""


@pytest.mark.slow
def test_the_template_installs_into_a_venv_and_loads_through_its_entry_point(
    tmp_path: Path,
) -> None:
    """The template installs and loads through its entry point, and its own tests (seeded
    full games against official races) pass in that environment.

    Closes "the README's test command fails in a fresh virtual environment": the nested venv
    is made without system site packages and sees this environment's packages (lark, attrs,
    pytest, pip, hatchling) through a ``.pth`` file, so it works whatever the outer venv is."""
    start = time.perf_counter()
    project = tmp_path / "pack-template"
    shutil.copytree(TEMPLATE, project, ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"))
    venv = tmp_path / "venv"
    python = venv / ("Scripts/python.exe" if os.name == "nt" else "bin/python")
    env = {
        **os.environ,
        "PYTHONPATH": str(REPO),  # this checkout's smallworld_rules, whatever else is installed
        "PIP_DISABLE_PIP_VERSION_CHECK": "1",
        "PYTHONDONTWRITEBYTECODE": "1",
    }
    # Without its own pip the venv is made in a blink; a venv's system site packages are the
    # base interpreter's, not this (possibly virtual) environment's, so the packages at hand
    # are handed over by a .pth file instead: nothing is fetched.
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    nested = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True, text=True, check=True,
    ).stdout.strip()
    outer = dict.fromkeys(sysconfig.get_paths()[key] for key in ("purelib", "platlib"))
    Path(nested, "outer-environment.pth").write_text("\n".join(outer) + "\n", encoding="utf-8")
    offline = importlib.util.find_spec("hatchling") is not None
    install = [str(python), "-m", "pip", "install", "--no-deps", "--no-cache-dir", "-q"]
    if offline:  # the build backend is at hand: build without fetching anything
        install += ["--no-index", "--no-build-isolation"]
    installed = subprocess.run(
        [*install, str(project)], capture_output=True, text=True, env=env, cwd=tmp_path
    )
    assert installed.returncode == 0, installed.stdout + installed.stderr

    loaded = subprocess.run(
        [str(python), "-c", textwrap.dedent(SCRIPT)],
        capture_output=True, text=True, env=env, cwd=tmp_path,
    )
    assert loaded.returncode == 0, loaded.stderr
    assert f"loaded {REPO / 'smallworld_rules' / '__init__.py'}" in loaded.stdout

    tests = subprocess.run(
        [str(python), "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests"],
        capture_output=True, text=True, env=env, cwd=project,
    )
    assert tests.returncode == 0, tests.stdout + tests.stderr
    assert " passed" in tests.stdout
    assert time.perf_counter() - start < 60


def test_a_saved_game_names_its_packs_and_reloads_them(site: FakeSite) -> None:
    """A game played with a pack's race is saved with the pack's name, so ``from_json`` loads
    the pack again without ``rules=``."""
    site.add("alpha-pack", "alpha", {"goblins.swr": race("goblins")})
    rules = sw.load_rules(packs=["alpha"])
    game = sw.Game.new(players=2, seed=1, rules=rules, combos=[("goblins", "commando")])
    game.apply(sw.PickCombo(0))
    saved = game.to_json()
    assert json.loads(saved)["packs"] == ["alpha"]
    restored = sw.Game.from_json(saved)
    assert restored.active_race(0) == "goblins" and restored.to_json() == saved
