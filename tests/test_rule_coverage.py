"""Every rule ID of the two rules digests has at least one test named after it.

The IDs are copied from the digests (shared/rules/union_pacific.md and cape_to_cairo.md);
section headings (UP-B, KK-A, ...) are not rules and are left out. A test is named after a
rule when its function name contains the ID with dashes as underscores, e.g.
``test_UP_B2e_...`` for UP-B2e; ``UP_D1`` does not count for ``UP_D10``.
"""

import ast
import re
from pathlib import Path

import pytest

from railkit.lessons import GAMES

UNION_PACIFIC = """
UP-C1 UP-C2 UP-C3 UP-C4 UP-S1 UP-S2 UP-S3 UP-S4 UP-S5 UP-S6 UP-S7 UP-S7-FI UP-S8
UP-T1 UP-T2 UP-T3 UP-T4 UP-B1 UP-B2 UP-B2a UP-B2b UP-B2c UP-B2d UP-B2e UP-B2f UP-B3 UP-B3-FI
UP-B4 UP-B5 UP-B6 UP-I1 UP-I2 UP-I3 UP-I4 UP-D1 UP-D2 UP-D3 UP-D4 UP-D5 UP-D6 UP-D7 UP-D8
UP-D9 UP-D10 UP-D11 UP-D12 UP-D13 UP-2P1 UP-2P2 UP-V1 UP-V2 UP-V3 UP-V4
""".split()
CAPE_TO_CAIRO = """
KK-C1 KK-C2 KK-C3 KK-C4 KK-C5 KK-S1 KK-A1 KK-A2 KK-A3 KK-A4 KK-A5 KK-A6 KK-A7
KK-B1 KK-B2 KK-B3 KK-B4 KK-B5 KK-B6 KK-B7 KK-B8 KK-R1 KK-R2 KK-R3 KK-E1
""".split()

# Each game of the lesson registry (railkit/lessons.py) with its digest's rule IDs.
RULE_IDS = {"unionpacific": UNION_PACIFIC, "capecairo": CAPE_TO_CAIRO}
ALL_RULES = [rule for g in GAMES for rule in RULE_IDS.get(g.id, [])]

TESTS = Path(__file__).parent


def _test_names() -> list[str]:
    names = []
    for path in TESTS.rglob("test_*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        names += [n.name for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and n.name.startswith("test_")]
    return names


NAMES = _test_names()


@pytest.mark.parametrize("rule", ALL_RULES)
def test_rule_has_a_named_test(rule):
    pattern = re.compile(re.escape(rule.replace("-", "_")) + r"(?![A-Za-z0-9])")
    assert any(pattern.search(name) for name in NAMES), f"no test is named after {rule}"


def test_the_id_list_matches_the_digest_when_it_is_present():
    """When the digests sit beside the project (as in CI), the copied list must match them."""
    rules = TESTS.parent.parent / "shared" / "rules"
    if not rules.is_dir():
        pytest.skip("the rules digests are not beside this checkout")
    found = set()
    for digest in rules.glob("*.md"):
        found |= set(re.findall(r"\b(?:UP|KK)-[A-Z0-9]+(?:-FI)?[a-z]?\b", digest.read_text(encoding="utf-8")))
    found = {rule for rule in found if not re.fullmatch(r"(UP|KK)-[A-Z]|UP-2P", rule)}
    assert found == set(ALL_RULES)


def test_every_game_of_the_registry_has_its_rule_ids():
    assert set(RULE_IDS) == {g.id for g in GAMES}, "list the new game's rule IDs in RULE_IDS"
    for g in GAMES:
        assert all(rule.startswith(g.rule_prefix + "-") for rule in RULE_IDS[g.id]), g.id
