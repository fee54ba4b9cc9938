"""No input can break the Union Pacific engine or exhaust memory or time.

Hostile saves (huge numbers, huge lists, wrong types, nested junk, cut-off JSON, unknown
moves, ``"players": 10**12``) are refused with a ``SaveFileError`` in plain words; random junk
actions are refused with a ``RuleError`` (or a ``TypeError`` for a wrong Python type) and
leave the game exactly as it was. Part of it runs in a subprocess whose address space is
limited to 400 MB, proving that nothing tries to allocate its way out.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import textwrap

import pytest
from conftest import examples
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from railkit.errors import RuleError, SaveFileError
from railkit.unionpacific import UnionPacificGame, load_game, new_game
from railkit.unionpacific.actions import (
    Build,
    ChooseFirstShare,
    DiscardUnusable,
    DrawShare,
    EndTurn,
    ExchangeForUP,
    Invest,
    Pass,
    registry,
)
from railkit.unionpacific.bots import RandomBot

# too_slow only: each example loads (replays) a 40-move save or copies a game, slower than Hypothesis expects of
# a test; the other health checks (data too large, filtering, ...) stay on.
FUZZ = settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _played(players=3, seed=4, actions=40, **options) -> UnionPacificGame:
    game = new_game(players, seed=seed, **options)
    bot = RandomBot(seed)
    for _ in range(actions):
        if game.is_over:
            break
        game.apply(bot.choose(game, game.players_to_act()[0]))
    return game


GAME = _played()
SAVE = GAME.to_dict()
TEXT = GAME.to_json()

scalars = (st.none() | st.booleans() | st.integers() | st.integers(min_value=10**18, max_value=10**40)
           | st.floats(allow_nan=False) | st.text(max_size=40)
           | st.sampled_from(["Player 1", "plains", "general", "BNL", "UP", "deck", "display:0", "display:9",
                              "denver--pueblo--plains", "", "x" * 500]))
junk = st.recursive(scalars, lambda inner: st.lists(inner, max_size=6) | st.dictionaries(st.text(max_size=12), inner,
                                                                                        max_size=6), max_leaves=25)


DOUBLED = re.compile(r"(\b\w[\w '/.-]{3,}: )\1|\[(UP-[\w-]+)\].*\[\2\]|(Error: ).*\3")


def _readable(message: str) -> None:
    """Short, plain words, and no prefix said twice ("move 3 cannot be replayed: move 3 ...")."""
    assert message and len(message) < 700, message
    assert "Traceback" not in message and "object at 0x" not in message, message
    assert not DOUBLED.search(message), message
    assert message.count("cannot be replayed") <= 1 and message.count("cannot be set up") <= 1, message


def _load_or_refuse(save) -> None:
    try:
        game = load_game(save)
    except SaveFileError as exc:
        _readable(str(exc))
    else:
        assert isinstance(game, UnionPacificGame)


# -- hostile saves -----------------------------------------------------------------------------------------
@FUZZ
@given(key=st.sampled_from(["format", "version", "game", "players", "seed", "options", "actions", "extra"]),
       value=junk)
def test_a_save_with_any_top_level_value_loads_or_is_refused_in_words(key, value):
    _load_or_refuse({**SAVE, key: value})


@FUZZ
@given(name=st.sampled_from(sorted(SAVE["options"]) + ["colour"]), value=junk)
def test_a_save_with_any_option_value_loads_or_is_refused_in_words(name, value):
    _load_or_refuse({**SAVE, "options": {**SAVE["options"], name: value}})


@FUZZ
@given(index=st.integers(min_value=0, max_value=len(SAVE["actions"])), move=junk,
       kind=st.sampled_from([None, *registry.names()]))
def test_a_save_with_a_junk_move_is_refused_in_words(index, move, kind):
    if kind is not None:
        move = {**(move if isinstance(move, dict) else {}), "type": kind}
    actions = list(SAVE["actions"])
    actions.insert(index, move)
    _load_or_refuse({**SAVE, "actions": actions})


@FUZZ
@given(index=st.integers(min_value=0, max_value=len(SAVE["actions"]) - 1), field=st.text(max_size=10), value=junk)
def test_a_save_with_one_field_of_a_move_changed_loads_or_is_refused(index, field, value):
    actions = [dict(a) for a in SAVE["actions"]]
    target = actions[index]
    target[field if field and field not in ("type",) else sorted(target)[-1]] = value
    _load_or_refuse({**SAVE, "actions": actions})


@FUZZ
@given(cut=st.integers(min_value=0, max_value=len(TEXT) - 1))
def test_cut_off_json_is_refused_in_words(cut):
    with pytest.raises(SaveFileError) as info:
        load_game(TEXT[:cut])
    _readable(str(info.value))


HOSTILE = [
    {**SAVE, "players": 1_000_000_000_000},
    {**SAVE, "players": ["A"] * 100_000},
    {**SAVE, "players": ["x" * 10_000, "y"]},
    {**SAVE, "seed": 10**400},
    {**SAVE, "seed": "42"},
    {**SAVE, "actions": [{"type": "end_turn", "player": "Player 1"}] * 10_001},
    {**SAVE, "actions": {"type": "pass"}},
    {**SAVE, "options": {"deck": "standard" * 1000}},
    {**SAVE, "options": {"board": "/dev/zero"}},
    {**SAVE, "options": {"board": "/"}},
    {**SAVE, "options": {"board": "/nonexistent/board.json"}},
    {**SAVE, "actions": [{"type": "invest", "player": "Player 1", "cards": ["BNL"] * 1000, "discard": "plains"}]},
    {**SAVE, "actions": [{"type": "build", "player": "Player 1", "card": "plains", "company": "DM",
                          "section": "s" * 100_000}]},
    {**SAVE, "actions": [{"type": "draw_share", "player": "Player 1", "source": 10**100}]},
    {**SAVE, "actions": [{"type": "rocket", "player": "Player 1"}]},
    "[" * 200_000 + "]" * 200_000,
    '{"format": "railkit-game", "seed": ' + "9" * 20_000 + "}",
    "x" * 2_000_000,
    b"\xff\xfe" + b"{}" * 10,
    "",
]


@pytest.mark.parametrize("index", range(len(HOSTILE)))
def test_hostile_saves_are_refused_in_words(index):
    with pytest.raises(SaveFileError) as info:
        load_game(HOSTILE[index])
    _readable(str(info.value))


def test_the_doubled_prefix_detector_works():
    assert DOUBLED.search("x.json: x.json: file: cannot be read")
    assert DOUBLED.search("a train may not go there [UP-B2] [UP-B2]")
    assert not DOUBLED.search("move 3 cannot be replayed: the Denver Midland already has a train on X [UP-B2d]")


def test_board_file_errors_inside_a_save_name_the_file_once(tmp_path):
    bad = tmp_path / "board.json"
    bad.write_text('{"format": "railkit-union-pacific-board", "version": 1,,}')
    with pytest.raises(SaveFileError) as info:
        load_game({**SAVE, "options": {"board": str(bad)}})
    text = str(info.value)
    _readable(text)
    assert text.count(str(bad)) == 1 and "not valid JSON" in text


# -- junk actions on a game in progress ------------------------------------------------------------
def _snapshot(game):
    return game.state_dict(), len(game.log), len(game.narrative)


action_fields = st.fixed_dictionaries({}, optional={
    "player": junk | st.sampled_from(list(GAME.players)), "card": junk, "company": junk, "section": junk,
    "source": junk, "cards": junk, "discard": junk})


@FUZZ
@given(kind=st.sampled_from(registry.names()), fields=action_fields)
def test_a_junk_action_is_refused_and_changes_nothing(kind, fields):
    game = GAME.copy()
    before = _snapshot(game)
    try:
        action = registry.from_dict({"type": kind, **fields})
    except ValueError:
        return  # refused at the door (oversized, nested or missing fields)
    try:
        game.apply(action)
    except (RuleError, TypeError) as exc:
        _readable(str(exc))
        assert _snapshot(game) == before
    else:  # a legal move after all: it must have been among the legal actions
        assert action in GAME.legal_actions(action.player)


@FUZZ
@given(cls=st.sampled_from([Build, ChooseFirstShare, DiscardUnusable, DrawShare, EndTurn, ExchangeForUP, Invest, Pass]),
       data=st.data())
def test_an_action_built_directly_with_junk_fields_is_refused_and_changes_nothing(cls, data):
    """Actions built in Python skip the registry's bounds: any value may sit in any field."""
    import dataclasses

    fields = {}
    for f in dataclasses.fields(cls):
        if f.name == "player":
            fields[f.name] = data.draw(st.sampled_from(list(GAME.players)) | junk)
        else:
            fields[f.name] = data.draw(junk | st.sampled_from(["plains", "general", "BNL", "UP", "deck", "up",
                                                               "display:1", "denver--pueblo--plains"]))
    action = cls(**fields)
    game = GAME.copy()
    before = _snapshot(game)
    try:
        game.apply(action)
    except (RuleError, TypeError) as exc:
        _readable(str(exc))
        assert _snapshot(game) == before
    else:
        assert action in GAME.legal_actions(action.player)


@FUZZ
@given(thing=junk)
def test_anything_that_is_not_an_action_is_refused(thing):
    game = GAME.copy()
    before = _snapshot(game)
    with pytest.raises((RuleError, TypeError)):
        game.apply(thing)
    assert _snapshot(game) == before


# -- memory: a hard 400 MB limit ---------------------------------------------------------------------
LIMITED = textwrap.dedent("""
    import json, resource, sys
    resource.setrlimit(resource.RLIMIT_AS, (400 * 2**20, 400 * 2**20))
    from railkit.errors import SaveFileError
    from railkit.unionpacific import load_game, new_game
    save = json.loads(sys.stdin.read())
    hostile = [
        {**save, "players": 10**12},
        {**save, "players": ["A"] * 60_000},
        {**save, "actions": [{"type": "end_turn", "player": "Player 1"}] * 10_001},
        {**save, "actions": [{"type": "invest", "player": "Player 1", "cards": ["BNL"] * 50_000, "discard": "x"}]},
        {**save, "seed": 10**1000},
        {**save, "options": {"board": "/dev/zero"}},
        "[" * 500_000,
        '{"players": ' + "9" * 900_000 + "}",
        json.dumps({**save, "actions": save["actions"] + [{"type": "pass", "player": "Player 1", "discard": "z" * 900_000}]}),
    ]
    for item in hostile:
        try:
            load_game(item)
        except SaveFileError:
            pass
        else:
            raise SystemExit("a hostile save loaded")
    game = new_game(6, seed=1)
    for _ in range(200):
        try:
            new_game(10**12)
        except Exception as exc:
            assert type(exc).__name__ == "RuleError", exc
    print("ok")
""")


def test_hostile_input_under_a_400_mb_address_space_limit():
    resource = pytest.importorskip("resource")
    assert resource  # Linux and macOS only
    proc = subprocess.run([sys.executable, "-c", LIMITED], input=json.dumps(SAVE), capture_output=True, text=True,
                          timeout=300)
    assert "MemoryError" not in proc.stderr, proc.stderr[-2000:]
    assert proc.returncode == 0 and proc.stdout.strip() == "ok", proc.stderr[-2000:]
