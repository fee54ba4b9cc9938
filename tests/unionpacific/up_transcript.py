"""Everything the Union Pacific engine says in one seeded game, for comparing engine versions.

``transcript(seed)`` plays a game with ``RandomBot``s and collects the narrative, ``describe`` of
every action, the placement checklist of one build per turn, every ``RuleError`` of a few illegal
actions and the outcome words. The expected English of each game is kept as readable text in
``fixtures/english/up_game_NN.txt`` (one sentence after another, a checklist over several lines), so a
change shows as a diff. They were written from the engine whose English was recorded before its sentences
became ``Message``s (for translation), after checking each against that record's sha256 digests.
``python -m tests.unionpacific.up_transcript`` rewrites them from the current engine: do that only for a
wanted change of the English, and say why in the commit.
"""

from __future__ import annotations

import random
from pathlib import Path

from railkit.errors import RuleError
from railkit.unionpacific import (
    Build,
    ChooseFirstShare,
    DiscardUnusable,
    DrawShare,
    EndTurn,
    ExchangeForUP,
    Invest,
    Pass,
    new_game,
)
from railkit.unionpacific.bots import RandomBot

GAMES = 50
ENGLISH = Path(__file__).with_name("fixtures") / "english"
DECKS = ("standard", "finnish", "dividend_cards")


def setup(seed: int) -> tuple[tuple[str, ...], dict[str, object]]:
    rng = random.Random(seed)
    players = ("Ann", "Bea", "Cy", "Dov", "Eli", "Flo")[: rng.randint(2, 6)]
    options = dict(deck=DECKS[seed % 3], removed_to_bottom=bool(seed % 2), safe_round=seed % 5 == 1 and len(players) < 5,
                   direct_up_draw=seed % 4 != 0)
    return players, options


def transcript(seed: int) -> list[str]:
    """The game's English: every sentence as ``str`` (a ``Message`` is its English)."""
    players, options = setup(seed)
    game = new_game(list(players), seed=seed, **options)
    bots = {p: RandomBot(seed * 7 + i) for i, p in enumerate(players)}
    rng = random.Random(seed)
    said: list[str] = []
    while not game.is_over:
        player = game.players_to_act()[0]
        if rng.random() < 0.3:  # a try, mostly illegal: its RuleError, then the real move
            bad = rng.choice([EndTurn(player), DrawShare(player, "display:3"), DrawShare(player, "up"),
                              Pass(player, "plains"), Invest(player, ("cp", "up", "x"), "plains"),
                              Invest(player, ("up", "up"), "river"), ExchangeForUP(player, "up"),
                              Build(player, "plains", "no-such-company", "x"), EndTurn(players[-1]),
                              DiscardUnusable(player, "mountain"), ChooseFirstShare(player, "up")])
            try:
                game.apply(bad)
            except RuleError as err:
                said.append(str(err.message))
            else:  # the try happened to be legal: it was the move
                said.append(str(game.describe(bad)))
                continue
        builds = [a for a in game.legal_actions(player) if isinstance(a, Build)]
        if builds:
            b = rng.choice(builds)
            other = rng.choice(list(game.board.sections))
            said.append(str(game.explain_placement(b.company, other, b.card)))
        action = bots[player].choose(game, player)
        said.append(str(game.describe(action)))
        game.apply(action)
    said += [str(s) for s in game.narrative]
    said.append(str(game.result()))
    return said


def text(seed: int) -> str:
    """The game's English as the text file stores it."""
    return "\n".join(transcript(seed)) + "\n"


def expected_path(seed: int) -> Path:
    return ENGLISH / f"up_game_{seed:02d}.txt"


if __name__ == "__main__":
    ENGLISH.mkdir(parents=True, exist_ok=True)
    for seed in range(GAMES):
        expected_path(seed).write_text(text(seed), encoding="utf-8")
