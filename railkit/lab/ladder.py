"""Rated ladders: seat-rotated tournaments of the lab's players, played in-process or on Dask.

    from railkit.lab.ladder import LadderSpec, run_ladder
    spec = LadderSpec("kk", 4, ("random", "heuristic", "ismcts:100"), games=400)
    records = run_ladder(spec, "kk.sqlite")            # in this process, with a progress bar
    records = run_ladder(spec, "kk.sqlite", dask="127.0.0.1:8786")   # on a Dask scheduler ("local": a LocalCluster)

Every game is played by ``play_game_record``: each seat's player (made fresh per game by ``make_player``) is
asked with its seat's view and legal moves only (``railkit.bots.decide``). Games are sent to Dask in batches
large enough that a task takes at least ``MIN_TASK_SECONDS`` (Dask costs 0.2–1 ms a task), and the results are
appended to the results file (``railkit.lab.store``) as each batch comes back, so a run that is stopped
resumes where it stopped. ``replay`` gives any stored game back as a game of the engine.
"""

from __future__ import annotations

import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from railkit.bots import decide
from railkit.game import Game
from railkit.lab.players import make_player
from railkit.lab.records import GameRecord, LadderSpec, lineup, seat_names
from railkit.lab.rules import GAMES

__all__ = ["LadderSpec", "MIN_TASK_SECONDS", "batches", "play_batch", "play_game_record", "replay", "run_ladder"]

MIN_TASK_SECONDS = 0.1  # Dask's own cost per task is 0.2-1 ms: a task plays games for at least this long


def play_game_record(spec: LadderSpec, index: int) -> GameRecord:
    """Play game ``index`` of ``spec`` (its seats and deal from ``lineup``) and say how it went."""
    rules = GAMES[spec.game]
    seats, seed = lineup(spec, index)
    names = seat_names(seats)
    game = rules.new(names, seed)
    players = [make_player(name, seed=seed * 31 + index * 7 + i) for i, name in enumerate(seats)]
    seat_of = {p: i for i, p in enumerate(names)}
    seconds = [0.0] * len(seats)
    decisions = [0] * len(seats)
    while not game.is_over:
        player = game.players_to_act()[0]
        seat = seat_of[player]
        started = time.process_time()
        action = decide(players[seat], game, player)
        seconds[seat] += time.process_time() - started
        decisions[seat] += 1
        game.apply(action)
    standing = rules.standing(game)
    return GameRecord(
        index=index, seed=seed, seats=seats,
        places=tuple(standing.places[p] for p in names),
        scores=tuple(standing.score[p] for p in names),
        money=tuple(standing.money[p] for p in names),
        winners=tuple(seat_of[p] for p in standing.winners),
        moves=len(game.log), seconds=tuple(round(s, 4) for s in seconds), decisions=tuple(decisions),
        end_reason=game.result().end_reason,
        log=[game.registry.to_dict(a) for a in game.log],
    )


def play_batch(spec: LadderSpec, indexes: Sequence[int]) -> list[GameRecord]:
    """Several games of ``spec``: one Dask task."""
    return [play_game_record(spec, i) for i in indexes]


def batches(indexes: Sequence[int], size: int) -> list[list[int]]:
    """``indexes`` cut into runs of ``size`` (at least 1)."""
    size = max(1, size)
    return [list(indexes[i:i + size]) for i in range(0, len(indexes), size)]


def run_ladder(spec: LadderSpec, out: str | Path, *, dask: str | None = None, workers: int = 2,
               batch: int | None = None, progress: bool = True) -> list[GameRecord]:
    """Play the games of ``spec`` not yet in the results file ``out`` and return all of its games.

    ``dask``: ``None`` plays in this process; ``"local"`` starts a ``LocalCluster`` of ``workers`` processes;
    any other text is a scheduler's address. ``batch``: games per Dask task (default: enough for
    ``MIN_TASK_SECONDS``, from the time one game took here)."""
    from railkit.lab.store import Store  # here: a notebook's ladder (railkit.lab.notebook) runs where no sqlite3 is

    store = Store(out)
    store.begin(spec)
    pending = [i for i in range(spec.games) if i not in store.done(spec)]
    bar = _bar(spec, total=spec.games, done=spec.games - len(pending), enabled=progress)
    try:
        if pending:
            if dask is None:
                for index in pending:
                    store.add(spec, [play_game_record(spec, index)])
                    bar.update(1)
            else:
                first = pending[0]
                started = time.perf_counter()
                store.add(spec, [play_game_record(spec, first)])  # also how long a game takes, for the batches
                bar.update(1)
                took = time.perf_counter() - started
                size = batch or max(1, int(MIN_TASK_SECONDS / max(took, 1e-6)) + 1)
                for records in _on_dask(spec, batches(pending[1:], size), dask, workers):
                    store.add(spec, records)
                    bar.update(len(records))
    finally:
        bar.close()
    return store.records(spec)


def _on_dask(spec: LadderSpec, tasks: list[list[int]], address: str, workers: int) -> Iterator[list[GameRecord]]:
    """Each batch's records as Dask finishes it (the scheduler at ``address``, or a LocalCluster)."""
    from dask.distributed import Client, LocalCluster, as_completed

    cluster = None
    if address == "local":
        cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,  # type: ignore[no-untyped-call]
                               dashboard_address=None)
        client = Client(cluster)  # type: ignore[no-untyped-call]
    else:
        client = Client(address)  # type: ignore[no-untyped-call]
    try:
        futures = client.map(play_batch, [spec] * len(tasks), tasks, pure=False)
        for future in as_completed(futures):  # type: ignore[no-untyped-call]
            yield future.result()
    finally:
        client.close()  # type: ignore[no-untyped-call]
        if cluster is not None:
            cluster.close()


def _bar(spec: LadderSpec, total: int, done: int, enabled: bool) -> Any:
    """A progress bar: tqdm's (a widget in a notebook, text in a terminal), or one that shows nothing."""
    if not enabled:
        return _Silent()
    from tqdm.auto import tqdm

    return tqdm(total=total, initial=done, desc=f"{spec.game} ladder", unit="game")


class _Silent:
    def update(self, n: int) -> None:
        pass

    def close(self) -> None:
        pass


def replay(spec: LadderSpec, record: GameRecord, upto: int | None = None) -> Game[Any]:
    """A stored ladder game as a game of the engine, its first ``upto`` moves played (all by default)."""
    rules = GAMES[spec.game]
    game = rules.cls(seat_names(record.seats), seed=record.seed, **rules.options)
    for raw in record.log[: len(record.log) if upto is None else upto]:
        game.apply(game.registry.from_dict(raw))
    return game

