"""Everything the Kap bis Kairo engine says in 50 seeded games and 300 auction explanations.

The expected English is kept as readable text in ``fixtures/english/`` (``kk_game_NN.txt``, ``kk_auctions.txt``),
so a change fails ``test_kk_messages.py`` with a diff. The files were written from the engine whose English was
recorded before its sentences became ``Message``s (for translation), after checking each against that record's
sha256 digests. ``.venv/bin/python tests/capecairo/kk_transcript.py`` rewrites them from the current engine:
do that only for a wanted change of the English, and say why in the commit.
"""

from __future__ import annotations

import random
from pathlib import Path

from test_kk_english import NAMES, sentences_of_a_game

from railkit.capecairo import explain_auction_order

ENGLISH = Path(__file__).parent / "fixtures" / "english"
GAMES = 50


def game_text(i):
    """Game ``i``'s English as its text file stores it (2 to 4 players, seed 7000 + i)."""
    return "\n".join(map(str, sentences_of_a_game(2 + i % 3, 7000 + i))) + "\n"


def auctions_text():
    """The steps of 300 random auction explanations, ties and draws included."""
    rng = random.Random(5)
    said = []
    for _ in range(300):
        players = NAMES[: rng.randint(2, 4)]
        bids = {p: rng.choice([0, 1, 1, 2, 5]) for p in players}
        money = {p: rng.choice([0, 1, 1, 2, 30]) for p in players}
        coins = [rng.choice([1, 1, 2, 9]) for _ in range(rng.randint(0, 12))]
        said += explain_auction_order(bids, money, lambda p, pool=coins: pool.pop() if pool else None).steps
    return "\n".join(map(str, said)) + "\n"


if __name__ == "__main__":
    ENGLISH.mkdir(parents=True, exist_ok=True)
    for i in range(GAMES):
        (ENGLISH / f"kk_game_{i:02d}.txt").write_text(game_text(i), encoding="utf-8")
    (ENGLISH / "kk_auctions.txt").write_text(auctions_text(), encoding="utf-8")
