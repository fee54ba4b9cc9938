"""benchmarks/engines.py: the comparison with the recorded baseline (made-up numbers; nothing is timed here)."""

import importlib.util
import json
from pathlib import Path

ENGINES = Path(__file__).resolve().parent.parent / "benchmarks" / "engines.py"


def load_engines():
    spec = importlib.util.spec_from_file_location("benchmarks_engines", ENGINES)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_a_median_more_than_25_percent_above_its_baseline_is_a_regression(tmp_path):
    engines = load_engines()
    baseline = {"kk_random": 1.0, "up_random": 4.0, "up_heuristic": 10.0}
    measured = {"kk_random": 1.26, "up_random": 5.0, "up_heuristic": 9.0, "kk_heuristic": 99.0}
    # 1.26 ms is 26 % slower; 5.0 ms exactly 25 % (not more); faster is fine; no baseline: not compared
    assert engines.regressions(measured, baseline) == {"kk_random": 1.26}
    assert engines.regressions(measured, baseline, tolerance=0.1) == {"kk_random": 1.26, "up_random": 1.25}
    path = tmp_path / "baseline.json"
    path.write_text(json.dumps({"median_ms": baseline}))
    assert engines.load_baseline(path) == baseline
    assert engines.load_baseline(tmp_path / "missing.json") == {}


def test_the_recorded_baseline_names_every_measure():
    engines = load_engines()
    assert set(engines.load_baseline()) == set(engines.MEASURES)


def test_the_baseline_says_how_many_plays_of_a_seed_it_took_the_fastest_of(tmp_path):
    engines = load_engines()
    path = tmp_path / "baseline.json"
    path.write_text(json.dumps({"median_ms": {"kk_random": 1.0}}))
    assert engines.baseline_best_of(path) == 1  # recorded before --best-of: one play per seed
    path.write_text(json.dumps({"best_of": 3, "median_ms": {"kk_random": 1.0}}))
    assert engines.baseline_best_of(path) == 3
    assert engines.baseline_best_of(tmp_path / "missing.json") == 1
    assert engines.baseline_best_of() >= 1
