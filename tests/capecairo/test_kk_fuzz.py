"""No input can exhaust memory or time, and every refusal says what is wrong.

Hostile saves (junk of every JSON type, huge numbers and lists, cut-off text, unknown moves)
give a ``SaveFileError``; junk actions give a ``RuleError`` (or ``TypeError`` for what is not
an action at all) and leave the game exactly as it was. Part runs in a child process whose
address space is capped at 400 MB.
"""

import json
import subprocess
import sys
import textwrap

import pytest
from conftest import examples
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from railkit.capecairo import Bid, Build, Choose, Pass, load_game, new_game
from railkit.capecairo.bots import HeuristicBot, RandomBot
from railkit.errors import RuleError, SaveFileError

HUGE = [10**30, -(10**30), 10**12, 2**63, 10**9 + 1, -1, 0, 1]
junk = st.recursive(
    st.none() | st.booleans() | st.integers() | st.sampled_from(HUGE) | st.floats(allow_nan=False)
    | st.text(max_size=30) | st.sampled_from(["bid", "Player 1", "R01", "", "over"]),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=10), inner, max_size=5),
    max_leaves=12,
)
FAST = settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow])


def played(players=3, seed=1, moves=50):
    game = new_game(players, seed=seed)
    bots = [HeuristicBot(seed + i) if i % 2 else RandomBot(seed + i) for i in range(players)]
    for _ in range(moves):
        if game.is_over:
            break
        player = game.current_player
        game.apply(bots[game.players.index(player)].choose(game, player))
    return game


SAVE = played().to_dict()


def assert_plain_message(exc):
    message = str(exc)
    assert message and "\n" not in message and len(message) < 400, message
    assert "Traceback" not in message and "Error:" not in message
    for prefix in ("cannot be set up", "cannot be replayed", "is not playing"):
        assert message.count(prefix) <= 1, message


def load_or_refuse(save):
    try:
        return load_game(save)
    except SaveFileError as exc:
        assert_plain_message(exc)
        return None


@FAST
@given(key=st.sampled_from(["players", "seed", "options", "actions", "format", "version", "game"]), value=junk)
def test_a_save_with_junk_in_any_top_level_field_is_refused_in_words(key, value):
    load_or_refuse({**SAVE, key: value})


@FAST
@given(key=st.sampled_from(["deck", "win_crossings", "river_bonus_for_builder", "stack", "colour"]), value=junk)
def test_a_save_with_junk_options_is_refused_in_words(key, value):
    load_or_refuse({**SAVE, "options": {**SAVE["options"], key: value}})


@FAST
@given(index=st.integers(0, len(SAVE["actions"]) - 1), field=st.sampled_from(["type", "player", "amount", "card_id",
                                                                               "buy", "extra"]), value=junk)
def test_a_save_with_a_junk_move_is_refused_naming_the_move(index, field, value):
    actions = [dict(a) for a in SAVE["actions"]]
    actions[index][field] = value
    game = load_or_refuse({**SAVE, "actions": actions})
    if game is not None:  # the junk happened to make a legal move
        assert len(game.log) == len(actions)


@FAST
@given(cut=st.integers(1, len(json.dumps(SAVE)) - 1))
def test_a_cut_off_save_is_refused(cut):
    with pytest.raises(SaveFileError) as err:
        load_game(json.dumps(SAVE)[:cut])
    assert_plain_message(err.value)


@pytest.mark.parametrize("change, words", [
    ({"players": 1_000_000_000_000}, "2 to 4 players, not 1000000000000"),
    ({"players": ["Ann"] * 10**6}, "2 to 4 players, not 1000000"),
    ({"seed": 10**30}, "smaller than 2**63"),
    ({"actions": [{"type": "bid", "player": "Player 1", "amount": 10**30}]}, "move 1 cannot be replayed"),
    ({"actions": [{"type": "teleport", "player": "Player 1"}]}, "'teleport' is not a kind of move"),
    ({"actions": [{"type": "bid"}] * 20_000}, "at most 10,000"),
    ({"options": {"stack": ["R01"] * 10**6}}, "stack lists 1,000,000 cards"),
    ({"options": {"win_crossings": 10**30}}, "win_crossings must be from 1 to 8"),
    ({"options": {"deck": "/dev/zero"}}, "/dev/zero: file: is not a regular file"),
])
def test_hostile_saves_are_refused_quickly_in_words(change, words):
    with pytest.raises(SaveFileError, match=words.replace("*", r"\*")) as err:
        load_game({**SAVE, **change})
    assert_plain_message(err.value)


STATES = [played(n, seed, moves) for n in (2, 3, 4) for seed, moves in ((n, 5), (n + 10, 30), (n + 20, 400))]
names = st.sampled_from(["Player 1", "Player 2", "Zed", ""]) | junk
actions = st.one_of(
    st.builds(Bid, names, junk), st.builds(Choose, names, junk), st.builds(Build, names, junk),
    st.builds(Pass, names), junk,
)


@settings(max_examples=examples(400), deadline=None)
@given(index=st.integers(0, len(STATES) - 1), action=actions)
def test_junk_actions_are_refused_and_change_nothing(index, action):
    game = STATES[index].copy()
    before = (game.state_dict(), game.narrative, list(game.log))
    if isinstance(action, (Bid, Choose, Build, Pass)):
        assert len(game.describe(action)) < 200
    try:
        game.apply(action)
    except RuleError as exc:
        assert_plain_message(exc)
        assert exc.rule.startswith("KK")
        assert (game.state_dict(), game.narrative, list(game.log)) == before
    else:
        assert game.log[-1] == action  # a legal move, carried out


CHILD = textwrap.dedent("""
    import json, random, resource
    resource.setrlimit(resource.RLIMIT_AS, (400 * 2**20, 400 * 2**20))
    from railkit.capecairo import Bid, Build, Choose, Pass, load_game, new_game
    from railkit.errors import RuleError, SaveFileError

    base = new_game(4, seed=3).to_dict()
    hostile = [
        {**base, "players": 10**12},
        '{"format": "railkit-game", "players": [' + '"x",' * 240_000 + '"y"]}',
        '{"format": "railkit-game", "game": "cape_to_cairo", "version": 1, "seed": 1, "players": 2, "actions": '
        + "[" * 400_000 + "]" * 400_000 + "}",
        '{"players": ' + "9" * 900_000 + "}",
        {**base, "options": {"stack": ["R01"] * 10**7}},
        {**base, "options": {"deck": "/dev/urandom"}},
        {**base, "actions": [{"type": "bid", "player": "Player 1", "amount": 10**9}] * 10_000},
        {**base, "actions": [{"type": "bid", "player": "Player 1", "amount": [1] * 64}] * 10_000},
        bytes(random.Random(1).randrange(256) for _ in range(999_000)),
    ]
    for save in hostile:
        try:
            load_game(save)
        except SaveFileError:
            pass
    rng = random.Random(2)
    game = new_game(4, seed=4)
    for _ in range(5_000):
        player = rng.choice(list(game.players) + ["Zed"])
        amount = rng.choice([10**30, -(10**30), 10**5000, 5, None, "9" * 10_000, [0] * 1000])
        action = rng.choice([Bid(player, amount), Choose(player, amount), Build(player, amount), Pass(player), amount])
        try:
            game.apply(action)
        except RuleError:
            pass
        if game.is_over:
            game = new_game(4, seed=rng.randrange(100))
    print("ok")
""")


@pytest.mark.slow  # 5,000 junk moves in a fresh interpreter; the fast tier tries junk moves in-process (above)
def test_hostile_input_never_needs_more_than_400_megabytes():
    done = subprocess.run([sys.executable, "-c", CHILD], capture_output=True, text=True, timeout=300)
    assert "MemoryError" not in done.stderr
    assert done.returncode == 0 and done.stdout.strip() == "ok", done.stderr[-2000:]
