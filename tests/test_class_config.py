"""`make run CLASS=30 LESSON=up_play`: Voila's preheated pools sized for a class (class_config)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from railkit.errors import InputError
from railkit.ui.voila_template import class_config, launch
from railkit.ui.voila_template.class_config import MAX_CLASS, main, pool_kernels, pools_config, voila_args

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = ROOT / "notebooks"
# traitlets 5 calls a whole dict on the command line deprecated, yet its key=value form gives Voila strings.
pytestmark = pytest.mark.filterwarnings("ignore:.*for dict-traits is deprecated:DeprecationWarning")


def voila_pool_sizes(args: list[str]) -> dict[str, int]:
    """The pool size Voila gives each notebook, read the way Voila 0.5 reads its command line and its
    ``VoilaKernelManager.fill_if_needed`` reads ``kernel_pools_config``."""
    from voila.app import Voila
    from voila.voila_kernel_manager import voila_kernel_manager_factory

    from railkit.ui.voila_template.kernels import RailkitKernelManager

    manager = voila_kernel_manager_factory(RailkitKernelManager, True, 1)  # preheat on, voila.json's pool of 1
    app = Voila()
    app.parse_command_line(args)
    raw = app.config[manager.__name__].get("kernel_pools_config")
    trait = manager.class_traits()["kernel_pools_config"]
    pools = trait.from_string(str(raw)) if raw is not None else {"default": {"pool_size": 1}}
    default = pools.get("default", {})
    return {p.name: pools.get(p.name, default).get("pool_size", default.get("pool_size", 1))
            for p in NOTEBOOKS.glob("*.ipynb")}


def test_a_class_at_one_lesson_gets_that_many_preheated_kernels_of_it():
    sizes = voila_pool_sizes(voila_args(30, "up_play"))
    assert sizes.pop("up_play.ipynb") == 30
    assert set(sizes.values()) == {1}  # the other lessons stay small, as in voila.json


def test_a_class_gets_its_first_minute_before_voila_replaces_the_kernels_it_took():
    from voila.app import Voila
    from voila.voila_kernel_manager import voila_kernel_manager_factory

    from railkit.ui.voila_template.kernels import RailkitKernelManager

    manager = voila_kernel_manager_factory(RailkitKernelManager, True, 1)
    app = Voila()
    app.parse_command_line(voila_args(30, "up_play"))
    raw = app.config[manager.__name__]["fill_delay"]
    assert manager.class_traits()["fill_delay"].from_string(str(raw)) == class_config.CLASS_FILL_DELAY_S >= 30


def test_the_lesson_may_be_named_with_or_without_its_extension():
    assert pools_config(12, "kk_play.ipynb") == pools_config(12, "kk_play") == {
        "default": {"pool_size": 1}, "kk_play.ipynb": {"pool_size": 12}}


def test_a_class_without_a_lesson_is_spread_over_every_lesson():
    lessons = [p for p in NOTEBOOKS.glob("*.ipynb") if p.stem != "index"]
    sizes = voila_pool_sizes(voila_args(30))
    per = -(-30 // len(lessons))
    assert set(sizes.values()) == {per}
    assert per * len(lessons) >= 30


def test_without_a_class_voila_json_decides():
    assert voila_args(None) == voila_args("") == []
    assert set(voila_pool_sizes([]).values()) == {1}


@pytest.mark.parametrize(("learners", "lesson", "words"), [
    (0, "up_play", "from 1 to"), (MAX_CLASS + 1, "up_play", "deploy/"), ("thirty", "up_play", "whole number"),
    (30, "up_nowhere", "not a lesson"), (30, "../up_play", "not a lesson"), (None, "up_play", "CLASS= too"),
])
def test_a_class_option_that_cannot_work_is_refused_in_plain_words(learners, lesson, words):
    with pytest.raises(InputError, match=re.escape(words)):
        voila_args(learners, lesson)


def test_the_command_prints_voilas_arguments_and_fails_on_a_bad_option(capsys):
    assert main(["30", "up_play"]) == 0
    out, err = capsys.readouterr()
    arg, delay = out.split()  # words without spaces: make passes them on unquoted
    assert delay == f"--VoilaKernelManager.fill_delay={class_config.CLASS_FILL_DELAY_S}"
    name, _, value = arg.partition("=")
    assert name == "--VoilaKernelManager.kernel_pools_config"
    assert json.loads(value)["up_play.ipynb"] == {"pool_size": 30}
    assert "preheated kernels" in err
    assert main(["", ""]) == 0
    assert capsys.readouterr().out.strip() == ""
    assert main(["500", "up_play"]) == 2
    assert "make run: CLASS=500" in capsys.readouterr().err


def test_pool_kernels_counts_every_notebook_voila_serves():
    notebooks = len(list(NOTEBOOKS.glob("*.ipynb")))
    assert pool_kernels(pools_config(30, "up_play")) == 30 + (notebooks - 1)


def test_memory_note_warns_when_the_pools_would_not_fit(monkeypatch):
    monkeypatch.setattr(class_config, "available_gb", lambda: 1.0)
    assert "deploy/" in class_config.memory_note(pools_config(30, "up_play"))
    monkeypatch.setattr(class_config, "available_gb", lambda: 1000.0)
    assert "deploy/" not in class_config.memory_note(pools_config(30, "up_play"))


def test_make_run_hands_the_class_to_the_launcher_quietly_and_voila_json_keeps_its_small_pools():
    recipe = (ROOT / "Makefile").read_text().split("\nrun:", 1)[1].split("\n\n", 1)[0]
    assert '--class "$(CLASS)" --lesson "$(LESSON)"' in recipe and "-- $(VOILA_ARGS)" in recipe
    # one command, not echoed (DB= may hold a password), no shell plumbing: the launcher supervises
    commands = recipe.replace("\\\n", " ").splitlines()[1:]
    assert len(commands) == 1 and commands[0].startswith("\t@exec $(BIN)/python -m railkit.ui.voila_template.launch ")
    assert "trap" not in recipe and "&" not in recipe.replace("&&", "")
    args, extra = launch.parse(["--db", "sqlite:///x", "--teacher-key-file", "k", "--saves-dir", "g", "--class", "30",
                                "--lesson", "up_play", "--", "--Room.per_address=0"])
    assert launch.class_config.voila_args(args.class_size, args.lesson) == voila_args(30, "up_play")
    assert extra == ["--Room.per_address=0"]
    config = json.loads((NOTEBOOKS / "voila.json").read_text())
    voila = config["VoilaConfiguration"]
    assert voila["preheat_kernel"] is True and voila["default_pool_size"] == 1
    assert voila["multi_kernel_manager_class"] == "railkit.ui.voila_template.kernels.RailkitKernelManager"
