"""Every rule ID of the two rules digests has a test that exercises it.

The IDs come from ``tests/rule_ids.txt``, a copy of the digests' IDs kept in the repo, so this check runs
everywhere; when the digests sit beside the checkout (``../shared/rules``, as in CI) a second test checks the
copy is current. A rule is covered by a test when, in a ``tests/**/test_*.py`` file:

* the test's name carries the ID with dashes as underscores (``test_UP_B2e_...`` for UP-B2e; ``UP_D1`` does not
  count for ``UP_D10``, nor ``UP_S7`` for ``UP_S7_FI``),
* it is a test pytest collects: a module-level ``test_*`` function or a method of a ``Test*`` class, not marked
  ``skip`` or ``xfail``, and
* it exercises railkit and checks something: its body asserts (``assert`` or ``pytest.raises``) and reaches
  railkit code, directly through a name the module imports from ``railkit``, or through a helper, fixture or
  test-helper module (``up_helpers``, ``conftest`` ...) that does.

Removing, renaming, skipping or emptying a rule's only test fails ``test_every_rule_has_a_test_that_exercises_it``.
"""

from __future__ import annotations

import ast
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from railkit.lessons import GAMES

TESTS = Path(__file__).resolve().parent
RULE_IDS = TESTS / "rule_ids.txt"
DIGESTS = TESTS.parent.parent / "shared" / "rules"  # beside the checkout, as in CI


def read_rule_ids(path: Path = RULE_IDS) -> list[str]:
    return [line.strip() for line in path.read_text(encoding="utf-8").splitlines()
            if line.strip() and not line.startswith("#")]


def ids_in_digests(folder: Path) -> set[str]:
    """The rule IDs the digests define: every UP-/KK- ID but the section headings (UP-B, KK-A, UP-2P)."""
    found: set[str] = set()
    for digest in folder.glob("*.md"):
        found |= set(re.findall(r"\b(?:UP|KK)-[A-Z0-9]+(?:-FI)?[a-z]?\b", digest.read_text(encoding="utf-8")))
    return {rule for rule in found if not re.fullmatch(r"(UP|KK)-[A-Z]|UP-2P", rule)}


def id_pattern(rule: str) -> re.Pattern[str]:
    """``rule`` inside a test name, not as the start of a longer ID (UP_D1 in UP_D10, UP_S7 in UP_S7_FI)."""
    return re.compile(re.escape(rule.replace("-", "_")) + r"(?![A-Za-z0-9])(?!_FI)")


@dataclass
class Module:
    """What one test (or helper) module reaches: railkit names, and its functions that use them."""

    path: Path
    tree: ast.Module
    railkit_names: set[str] = field(default_factory=set)  # names bound by ``from railkit... import`` / ``import railkit``
    helper_modules: dict[str, str] = field(default_factory=dict)  # local name -> tests' helper module name
    functions: dict[str, ast.FunctionDef] = field(default_factory=dict)  # module-level functions (fixtures too)


def parse(path: Path) -> Module:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    module = Module(path, tree)
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and node.module:
            for alias in node.names:
                name = alias.asname or alias.name
                if node.module.split(".")[0] == "railkit":
                    module.railkit_names.add(name)
                else:
                    module.helper_modules[name] = node.module.split(".")[-1]
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] == "railkit":
                    module.railkit_names.add((alias.asname or alias.name).split(".")[0])
        elif isinstance(node, ast.FunctionDef):
            module.functions[node.name] = node
    return module


class Reach:
    """Which functions of the test tree reach railkit code (a fixpoint over names they use)."""

    def __init__(self, tests: Path) -> None:
        self.modules = {p.stem: parse(p) for p in sorted(tests.rglob("*.py")) if "artifacts" not in p.parts}
        self._memo: dict[tuple[str, str], bool] = {}
        self.conftest_fixtures = set(self.modules["conftest"].functions) if "conftest" in self.modules else set()

    def helper_reaches(self, module_name: str, name: str, seen: frozenset = frozenset()) -> bool:
        helper = self.modules.get(module_name)
        if helper is None:
            return False
        if name in helper.railkit_names:
            return True
        node = helper.functions.get(name)
        return node is not None and self.function_reaches(helper, node, seen)

    def function_checks(self, module: Module, node: ast.FunctionDef, seen: frozenset = frozenset()) -> bool:
        """``node`` asserts, or calls a helper of its module or of a test-helper module that does."""
        if _asserts(node):
            return True
        key = (str(module.path), node.name)
        if key in seen:
            return False
        seen = seen | {key}
        for call in (n for n in ast.walk(node) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)):
            name = call.func.id
            if name in module.functions and self.function_checks(module, module.functions[name], seen):
                return True
            helper = self.modules.get(module.helper_modules.get(name, ""))
            if helper and name in helper.functions and self.function_checks(helper, helper.functions[name], seen):
                return True
        return False

    def function_reaches(self, module: Module, node: ast.FunctionDef, seen: frozenset = frozenset()) -> bool:
        key = (str(module.path), node.name)
        if key in self._memo:
            return self._memo[key]
        if key in seen:
            return False
        seen = seen | {key}
        used = {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}
        used |= {a.arg for a in node.args.args}  # fixtures by parameter name
        reaches = False
        for name in used:
            if name in module.railkit_names:
                reaches = True
            elif name in module.functions and name != node.name:
                reaches = self.function_reaches(module, module.functions[name], seen)
            elif name in module.helper_modules:
                reaches = self.helper_reaches(module.helper_modules[name], name, seen)
            elif name in self.conftest_fixtures and module.path.stem != "conftest":
                reaches = self.helper_reaches("conftest", name, seen)
            if reaches:
                break
        self._memo[key] = reaches
        return reaches


def _decorator_names(node: ast.FunctionDef) -> set[str]:
    names = set()
    for dec in node.decorator_list:
        target = dec.func if isinstance(dec, ast.Call) else dec
        names.add(ast.unparse(target))
    return names


def _asserts(node: ast.FunctionDef) -> bool:
    """The body asserts: ``assert``, ``pytest.raises``/``fail``, or an ``assert_*``/``check_*`` call."""
    for n in ast.walk(node):
        if isinstance(n, ast.Assert):
            return True
        if isinstance(n, ast.Call) and ast.unparse(n.func).endswith(("raises", "fail")):
            return True
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id.startswith(("assert_", "check_")):
            return True
    return False


def collected_tests(module: Module) -> list[ast.FunctionDef]:
    """The module's tests as pytest collects them: ``test_*`` functions and methods of ``Test*`` classes."""
    found = [n for n in module.tree.body if isinstance(n, ast.FunctionDef) and n.name.startswith("test_")]
    for cls in module.tree.body:
        if isinstance(cls, ast.ClassDef) and cls.name.startswith("Test"):
            found += [n for n in cls.body if isinstance(n, ast.FunctionDef) and n.name.startswith("test_")]
    return found


def exercising_tests(tests: Path = TESTS) -> dict[str, list[str]]:
    """Test name -> [``path::name``] for every test that is collected, not skipped, asserts and reaches railkit."""
    reach = Reach(tests)
    out: dict[str, list[str]] = {}
    for module in reach.modules.values():
        if not module.path.name.startswith("test_"):
            continue
        for node in collected_tests(module):
            if any(skip in d for d in _decorator_names(node) for skip in ("skip", "xfail")):
                continue
            if reach.function_checks(module, node) and reach.function_reaches(module, node):
                out.setdefault(node.name, []).append(f"{module.path.relative_to(tests)}::{node.name}")
    return out


def uncovered(rules: list[str], tests: Path = TESTS) -> list[str]:
    names = exercising_tests(tests)
    return [rule for rule in rules if not any(id_pattern(rule).search(name) for name in names)]


RULES = read_rule_ids()


def test_the_rule_id_copy_lists_both_games():
    assert len(RULES) == len(set(RULES)) > 70
    assert {r.split("-")[0] for r in RULES} == {"UP", "KK"}
    assert {"UP-D10", "UP-S7-FI", "UP-B3-FI", "UP-2P1", "KK-E1", "KK-B8"} <= set(RULES)


def test_every_rule_has_a_test_that_exercises_it():
    missing = uncovered(RULES)
    assert not missing, f"no collected test named after these rules asserts anything through railkit: {missing}"


def test_the_rule_id_copy_is_current_when_the_digests_are_beside_the_checkout():
    """In CI the digests sit at ../shared/rules; elsewhere this one check skips (the coverage test still runs)."""
    if not DIGESTS.is_dir():
        pytest.skip(f"the rules digests are not beside this checkout ({DIGESTS})")
    assert set(RULES) == ids_in_digests(DIGESTS), (
        f"tests/rule_ids.txt is out of date: .venv/bin/python tests/test_rule_coverage.py {DIGESTS} > tests/rule_ids.txt")


# -- the check can fail ------------------------------------------------------------------------------------
def _tree(tmp_path: Path, body: str) -> Path:
    (tmp_path / "conftest.py").write_text("")
    (tmp_path / "test_rules.py").write_text("import pytest\nfrom railkit.unionpacific import new_game\n\n" + body)
    return tmp_path


def test_a_rule_whose_test_is_removed_is_reported(tmp_path):
    body = ("def test_UP_D10_pays(): \n    assert new_game(3, seed=1)\n\n"
            "def test_UP_D1_pays():\n    assert new_game(3, seed=2)\n")
    assert uncovered(["UP-D1", "UP-D10"], _tree(tmp_path, body)) == []
    without = body.split("\n\ndef test_UP_D1_pays")[0] + "\n"
    assert uncovered(["UP-D1", "UP-D10"], _tree(tmp_path, without)) == ["UP-D1"]  # UP_D10 does not count for UP-D1


@pytest.mark.parametrize("body", [
    "def test_UP_B2e_named_only():\n    assert True\n",  # asserts, but never reaches railkit
    "def test_UP_B2e_no_check():\n    new_game(3, seed=1)\n",  # reaches railkit, checks nothing
    "@pytest.mark.skip\ndef test_UP_B2e_skipped():\n    assert new_game(3, seed=1)\n",  # never runs
    "def helper_UP_B2e():\n    assert new_game(3, seed=1)\n",  # not collected
    "def test_UP_S7_FI_only():\n    assert new_game(3, seed=1)\n",  # the Finnish variant is another rule
    "def quiet(game):\n    return game\n\ndef test_UP_B2e_helper_checks_nothing():\n    quiet(new_game(3, seed=1))\n",
], ids=["named-only", "no-check", "skipped", "not-a-test", "variant", "helper-without-check"])
def test_a_test_that_does_not_exercise_its_rule_does_not_count(tmp_path, body):
    assert uncovered(["UP-B2e" if "B2e" in body else "UP-S7"], _tree(tmp_path, body)) != []


def test_a_helper_or_fixture_that_reaches_railkit_counts(tmp_path):
    body = ("@pytest.fixture\ndef game():\n    return new_game(3, seed=1)\n\n"
            "def test_UP_B2e_through_a_fixture(game):\n    assert game.players\n\n"
            "def rejects(game, rule):\n    with pytest.raises(ValueError, match=rule):\n        game.apply(None)\n\n"
            "def test_UP_B2c_through_a_checking_helper(game):\n    rejects(game, 'UP-B2c')\n")
    assert uncovered(["UP-B2e", "UP-B2c"], _tree(tmp_path, body)) == []


def test_every_game_of_the_registry_has_its_rule_ids():
    """A game added to railkit/lessons.py needs its digest's IDs in rule_ids.txt (and tests for them)."""
    prefixes = {rule.split("-")[0] for rule in read_rule_ids()}
    assert prefixes == {g.rule_prefix for g in GAMES}, "add the new game's rule IDs to tests/rule_ids.txt"


if __name__ == "__main__":  # rewrite the copy: python tests/test_rule_coverage.py ../shared/rules > tests/rule_ids.txt
    header = [line for line in RULE_IDS.read_text(encoding="utf-8").splitlines() if line.startswith("#")]
    ids = sorted(ids_in_digests(Path(sys.argv[1])), key=lambda r: (r.split("-")[0] != "UP", r))
    print("\n".join(header + ids))
