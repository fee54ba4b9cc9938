"""Helpers shared by the Union Pacific game tests (imported by name: pytest puts this folder on sys.path)."""

from railkit.unionpacific import ChooseFirstShare, new_game


def started(players=4, seed=0, **options):
    """A game past UP-S5: everyone has laid the first share of their sorted hand."""
    game = new_game(players, seed=seed, **options)
    for p in game.players:
        game.apply(ChooseFirstShare(p, sorted(game.state.share_hand[p])[0]))
    return game
