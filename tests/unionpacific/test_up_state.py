"""One visible state: ``game.state`` holds everything that changes; copies, pickles
and deep copies of a game evolve independently and continue exactly like the original; the
board is shared, never copied; the package has no import cycles; a game shows itself well."""

from __future__ import annotations

import ast
import copy
import dataclasses
import pickle
import subprocess
import sys
from pathlib import Path

import pytest
from state_copy import check_copy_over_every_field

from railkit.unionpacific import (
    Build,
    ChooseFirstShare,
    DiscardUnusable,
    DrawShare,
    EndTurn,
    ExchangeForUP,
    Invest,
    Pass,
    UPState,
    new_game,
)
from railkit.unionpacific.board import Board, load_board
from railkit.unionpacific.bots import RandomBot
from railkit.unionpacific.network import BoardIndex

PACKAGE = Path(__file__).resolve().parents[2] / "railkit" / "unionpacific"


def played(players=4, seed=0, actions=80, **options):
    game = new_game(players, seed=seed, **options)
    bot = RandomBot(seed)
    for _ in range(actions):
        if game.is_over:
            break
        game.apply(bot.choose(game, game.players_to_act()[0]))
    return game


def finish(game, seed=1):
    bot = RandomBot(seed)
    while not game.is_over:
        game.apply(bot.choose(game, game.players_to_act()[0]))
    return game


# -- the state is one visible object ---------------------------------------------------------------
def test_the_whole_changing_state_is_one_dataclass():
    game = played()
    assert isinstance(game.state, UPState) and dataclasses.is_dataclass(game.state)
    names = {f.name for f in dataclasses.fields(UPState)}
    for part in ("track_hand", "share_hand", "display", "deck", "table", "money", "payouts", "imaginary",
                 "step", "turn_index", "net", "rng"):
        assert part in names
    # outsiders get a copy: changing it changes nothing in the game
    expected = game.state_dict()
    seen = game.state
    assert seen.money is not game.state.money and seen.net is not game.state.net and seen.step == game.state.step
    seen.money.clear()
    seen.step = "draw"
    seen.share_hand[game.players[0]]["BNL"] = 99
    assert game.state_dict() == expected
    with pytest.raises(AttributeError):
        game.state = seen  # the state is changed by actions only
    with pytest.raises(AttributeError):
        game.money  # noqa: B018 - the pass-through names are gone: read game.state
    assert isinstance(game.log, tuple)


# -- copy, pickle, deepcopy -----------------------------------------------------------------------------
@pytest.mark.parametrize("how", ["copy", "pickle", "deepcopy"])
def test_a_duplicate_has_the_same_state_and_continues_identically(how):
    game = played(4, seed=5, actions=90, safe_round=True, removed_to_bottom=True)
    twin = {"copy": lambda g: g.copy(),
            "pickle": lambda g: pickle.loads(pickle.dumps(g)),
            "deepcopy": copy.deepcopy}[how](game)
    assert twin.state_dict() == game.state_dict()
    assert twin.narrative == game.narrative and twin.log == game.log
    assert twin.board is game.board  # the shipped board is shared, never copied
    finish(game, seed=11)
    finish(twin, seed=11)
    assert twin.state_dict() == game.state_dict()
    assert twin.narrative == game.narrative
    assert twin.result().to_dict() == game.result().to_dict()


@pytest.mark.parametrize("how", ["copy", "pickle", "deepcopy"])
def test_a_duplicate_evolves_independently(how):
    game = played(3, seed=2, actions=40)
    twin = {"copy": lambda g: g.copy(),
            "pickle": lambda g: pickle.loads(pickle.dumps(g)),
            "deepcopy": copy.deepcopy}[how](game)
    before = game.state_dict()
    finish(twin, seed=3)
    assert twin.is_over and game.state_dict() == before
    assert len(game.log) < len(twin.log)


def test_copy_shares_only_what_never_changes():
    game = played(4, seed=8, actions=60)
    twin = game.copy()
    s, t = game._state, twin._state  # the live states (game.state hands out a copy)
    assert t.net.idx is s.net.idx and twin.board is game.board
    for name in ("track_hand", "share_hand", "display", "deck", "table", "money", "payouts", "box", "reserve"):
        assert getattr(t, name) is not getattr(s, name), name
    assert t.net.trains_on is not s.net.trains_on and t.rng is not s.rng
    assert twin._log is not game._log and twin.rng is t.rng and twin.options is not game.options


@pytest.mark.parametrize("players, seed, actions", [(4, 8, 60), (2, 6, 400)], ids=["4p", "2p-over"])
def test_copy_copies_every_field_of_the_state(players, seed, actions):
    """Every field of ``UPState`` (from ``dataclasses.fields``: a new field is checked too) is equal right after
    ``copy()``, and changing any field of the copy in place leaves the original as it was. The board index is
    shared by design; so may be ``players`` and ``options`` (fixed for the game). Speed: benchmarks/state_copy.py."""
    game = played(players, seed=seed, actions=actions)
    assert game.is_over == (game.state.imaginary is not None) == (players == 2)  # UP-2P2's player formed at the end
    twin = game.copy()
    names = check_copy_over_every_field(game._state, twin._state, shared=(BoardIndex, Board),
                                        fixed=frozenset({"players", "options"}))
    assert {"net", "rng", "money", "track_hand", "deck"} <= set(names) and len(names) == len(dataclasses.fields(UPState))
    assert twin.log is not game.log


def test_the_copy_check_fails_on_a_field_that_copy_shares():
    """The check itself can fail: a copy sharing one mutable field (or one not copied at all) is caught by name."""
    game = played(3, seed=1, actions=30)
    shallow = dataclasses.replace(game._state, rng=game._state.rng)  # every field shared, the state object new
    with pytest.raises(AssertionError, match="changing the copy's options changed the original's options"):
        check_copy_over_every_field(game._state, shallow, shared=(BoardIndex, Board))
    game = played(3, seed=1, actions=30)  # a fresh game: the shared fields above were changed through the shallow copy
    forgotten = game._state.copy()
    forgotten.share_draws += 1  # as if copy() had left a field at its default
    with pytest.raises(AssertionError, match="share_draws differs"):
        check_copy_over_every_field(game._state, forgotten, shared=(BoardIndex, Board))


def test_a_board_from_a_file_pickles_by_content(tmp_path):
    from railkit.paths import data_dir

    path = tmp_path / "board.json"
    path.write_text((data_dir() / "union_pacific" / "board.json").read_text())
    game = played(3, seed=4, actions=30, board=str(path))
    path.unlink()  # the pickle does not need the file any more
    again = pickle.loads(pickle.dumps(game))
    assert again.board.source == str(path) and again.state_dict() == game.state_dict()
    assert list(again.board.sections) == list(game.board.sections)
    assert again.board.graph.number_of_edges() == game.board.graph.number_of_edges()
    finish(again, 2)
    finish(game, 2)
    assert again.state_dict() == game.state_dict()


def test_the_board_copies_as_itself():
    board = load_board()
    assert copy.copy(board) is board and copy.deepcopy(board) is board
    assert pickle.loads(pickle.dumps(board)) is board  # the shipped board comes back as the loaded one


# -- no import cycles -----------------------------------------------------------------------------
PACKAGE_NAME = "railkit.unionpacific"


def _imports(path: Path, modules: set[str]) -> set[str]:
    """The package modules ``path`` imports. ``from railkit.unionpacific import checks`` imports the
    module ``checks``; ``from railkit.unionpacific import new_game`` imports the package itself."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith(PACKAGE_NAME):
            if node.module == PACKAGE_NAME:
                for alias in node.names:
                    sub = f"{PACKAGE_NAME}.{alias.name}"
                    found.add(sub if sub in modules else PACKAGE_NAME)
            else:
                found.add(node.module)
        elif isinstance(node, ast.Import):
            found |= {a.name for a in node.names if a.name.startswith(PACKAGE_NAME)}
    return found


def test_the_unionpacific_modules_import_each_other_without_cycles():
    paths = {f"{PACKAGE_NAME}.{p.stem}": p for p in PACKAGE.glob("*.py") if p.stem != "__init__"}
    modules = set(paths)
    graph = {}
    for name, path in paths.items():
        deps = _imports(path, modules)
        # the package's __init__ imports every module, so a module importing the package is a cycle
        assert PACKAGE_NAME not in deps, f"{name} imports the package {PACKAGE_NAME}; import the module instead"
        graph[name] = sorted(deps & modules)
    done: set[str] = set()

    def visit(name: str, trail: tuple[str, ...]) -> None:
        assert name not in trail, "import cycle: " + " -> ".join(trail + (name,))
        if name in done:
            return
        for dep in graph[name]:
            visit(dep, trail + (name,))
        done.add(name)

    for name in graph:
        visit(name, ())


def test_each_module_imports_first_in_a_fresh_interpreter():
    """Each module imported first (nothing of railkit loaded yet) works, whatever the order."""
    names = sorted(p.stem for p in PACKAGE.glob("*.py") if p.stem != "__init__")
    code = (
        "import importlib, sys\n"
        "for n in sys.argv[1:]:\n"
        "    for m in [m for m in sys.modules if m.startswith('railkit')]:\n"
        "        del sys.modules[m]\n"
        "    importlib.import_module('railkit.unionpacific.' + n)\n"
    )
    subprocess.run([sys.executable, "-c", code, *names], check=True, timeout=120)


# -- how a game shows itself --------------------------------------------------------------------------
def test_repr_and_html_status_card_escape_names():
    game = new_game(["<b>Ann</b>", "Ben & Co"], seed=1)
    text = repr(game)
    assert "UnionPacificGame" in text and "first_share" in text and "payouts 0 of 3" in text
    card = game._repr_html_()
    assert "<b>Ann</b>" not in card and "&lt;b&gt;Ann&lt;/b&gt;" in card and "Ben &amp; Co" in card
    assert "El Paso &amp; Rio Grande" in card  # companies' values, escaped
    hidden = new_game(3, public_money=False)._repr_html_()
    assert "hidden (UP-D13)" in hidden


def test_describe_names_every_kind_of_action_with_its_rule():
    game = new_game(4, seed=0)
    p = game.players[0]
    section = next(iter(game.board.sections))
    actions = [
        ChooseFirstShare(p, "UP"), DiscardUnusable(p, "plains"), Build(p, "plains", "DM", section),
        DrawShare(p, "deck"), DrawShare(p, "up"), DrawShare(p, "display:2"), ExchangeForUP(p, "EPRG"),
        EndTurn(p), Invest(p, ("BNL", "BNL"), "hills"), Invest(p, ("BNL", "UP"), "river"), Pass(p, "mountain"),
    ]
    for action in actions:
        words = game.describe(action)
        assert words.startswith(p) and "(UP-" in words, words
    assert "UP" not in game.describe(ChooseFirstShare(p, "UP")).split("(")[0]  # hidden
    with pytest.raises(TypeError):
        game.describe("build")  # type: ignore[arg-type]
