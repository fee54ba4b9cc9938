"""The HeuristicBots' choices, recorded once and compared after every speed change.

A bot made faster must choose exactly as before: the same move at every step of the same game. This
plays fixed games (seeds 0..N-1, 2-6 players for Union Pacific and 2-4 for Kap bis Kairo, some with
variant options or a random player in one seat) and keeps the SHA-256 of each game's whole action log
in ``benchmarks/bot_choices.json``::

    .venv/bin/python -m benchmarks.bot_choices            # replay and compare with the recorded logs
    .venv/bin/python -m benchmarks.bot_choices --record   # record the logs of the code as it is now
    .venv/bin/python -m benchmarks.bot_choices --games 20 # only the first 20 games of each engine
    .venv/bin/python -m benchmarks.bot_choices --views    # every bot asked as a Player: choose(view, legal)

``--views`` asks every bot for its moves with the seat's view and legal moves only (``railkit.bots.seated``),
as the lab, the session and the table server do: the logs must be the recorded ones too, which shows that the
heuristics read nothing of the game that the view does not hold.

``tests/test_bot_choices.py`` replays the first few games of each engine in the fast tier, both ways.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path
from typing import Any

RECORD = Path(__file__).with_name("bot_choices.json")
GAMES = 200


VIEWS = {"on": False}  # --views: every bot is asked as a Player, with the seat's view and legal moves


def _asked(bots: list[Any]) -> list[Any]:
    from railkit.bots import seated

    return [seated(b) for b in bots] if VIEWS["on"] else bots


def up_game(seed: int) -> Any:
    """Union Pacific game ``seed``: 2-6 players, a deck option in turn, UP-V2/V3/V4 now and then, and in
    every fifth game a random player in the last seat (the heuristic ones then meet moves they did not
    foresee)."""
    from railkit.unionpacific import new_game
    from railkit.unionpacific.bots import HeuristicBot, RandomBot, play_game
    from railkit.unionpacific.sharedeck import DECK_OPTIONS

    players = 2 + seed % 5
    options = {"deck": DECK_OPTIONS[seed // 5 % len(DECK_OPTIONS)], "countable_deck": seed % 3 == 1,
               "safe_round": seed % 4 == 2, "removed_to_bottom": seed % 7 == 3, "direct_up_draw": seed % 6 != 5}
    game = new_game(players, seed=seed, **options)
    game.narrate = False
    bots: list[Any] = [HeuristicBot(seed * 10 + i) for i in range(players)]
    if seed % 5 == 4:
        bots[-1] = RandomBot(seed * 10 + players)
    return play_game(game, dict(zip(game.players, _asked(bots), strict=True)))


def kk_game(seed: int) -> Any:
    """Kap bis Kairo game ``seed``: 2-4 players, in every fifth game a random player in the last seat."""
    from railkit.capecairo import new_game
    from railkit.capecairo.bots import HeuristicBot, RandomBot, play_game

    players = 2 + seed % 3
    game = new_game(players, seed=seed)
    game.narrate = False
    bots: list[Any] = [HeuristicBot(seed * 10 + i) for i in range(players)]
    if seed % 5 == 4:
        bots[-1] = RandomBot(seed * 10 + players)
    return play_game(game, _asked(bots))


ENGINES = {"up": up_game, "kk": kk_game}


def log_digest(game: Any) -> str:
    """SHA-256 of the game's action log, one ``repr`` a line."""
    return hashlib.sha256("\n".join(map(repr, game._log)).encode()).hexdigest()


def digests(engine: str, games: int) -> list[str]:
    play = ENGINES[engine]
    return [log_digest(play(seed)) for seed in range(games)]


def load_record(path: Path = RECORD) -> dict[str, list[str]]:
    return json.loads(path.read_text(encoding="utf-8"))["logs"]  # type: ignore[no-any-return]


def differences(engine: str, games: int, record: dict[str, list[str]] | None = None, views: bool = False) -> list[int]:
    """The seeds among the first ``games`` whose log is not the recorded one (``views``: the bots asked as
    ``Player``s, with the seat's view and legal moves)."""
    recorded = (record or load_record())[engine][:games]
    VIEWS["on"] = views
    try:
        return [seed for seed, digest in enumerate(digests(engine, len(recorded))) if digest != recorded[seed]]
    finally:
        VIEWS["on"] = False


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--record", action="store_true", help="record the logs as the code plays them now")
    parser.add_argument("--games", type=int, default=GAMES, help=f"games per engine (default {GAMES})")
    parser.add_argument("--only", choices=sorted(ENGINES), help="one engine only")
    parser.add_argument("--views", action="store_true", help="ask every bot with the seat's view and legal moves")
    args = parser.parse_args(argv)
    engines = [args.only] if args.only else list(ENGINES)
    if args.record:
        logs = load_record() if RECORD.exists() else {}
        logs.update({engine: digests(engine, args.games) for engine in engines})
        RECORD.write_text(json.dumps({
            "comment": "SHA-256 of each HeuristicBot game's action log (benchmarks/bot_choices.py), seed by seed",
            "logs": logs}, indent=1) + "\n", encoding="utf-8")
        print(f"recorded {', '.join(f'{len(logs[e])} {e}' for e in engines)} games in {RECORD}")
        return 0
    failed = False
    for engine in engines:
        changed = differences(engine, args.games, views=args.views)
        print(f"{engine}: {'the same choices' if not changed else f'{len(changed)} games differ, seeds {changed[:20]}'}")
        failed = failed or bool(changed)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
