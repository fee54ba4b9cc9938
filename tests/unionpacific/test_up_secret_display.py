"""UP-S5 / UP-S6: the display is dealt during setup but lies face down until the first shares are revealed.
Before that, nothing public may depend on which companies it holds: not the narrative
(the play lesson's “whole game in words”), not any seat's view, not the status card, not the words of a move.

Two checks, over many seeds and every table size:

* the narrative up to the reveal names no company at all (the display is the only company information dealt
  face up, and it is not up yet); after the reveal it names the display (UP-S6);
* everything else a seat or a spectator is shown is the same whether the display holds its own cards or
  four others (swapped with cards of the deck): so nothing shown can name or hint at it.
"""

from __future__ import annotations

import json

import pytest

from railkit.unionpacific import ChooseFirstShare, UnionPacificGame, new_game
from railkit.unionpacific.sharedeck import DIVIDEND
from railkit.unionpacific.state import card_name

SEEDS = range(40)
PLAYERS = (2, 3, 4, 5, 6)


def company_words(game: UnionPacificGame) -> set[str]:
    """Every company's name and key, as the engine's sentences would show them."""
    return {c.name for c in game.board.companies} | {c.key for c in game.board.companies}


def before_reveal(game: UnionPacificGame) -> list[str]:
    return [str(line) for line in game.narrative]


def shown_to_everyone(game: UnionPacificGame) -> str:
    """All a spectator and each seat sees, as one text: views (hands too: a hand never depends on the
    display), the status card, the words of every move open now."""
    parts: list[object] = [game.view(None), repr(game), game._repr_html_()]
    for p in game.players:
        parts.append(game.view(p))
        parts += [str(game.describe(a)) for a in game.legal_actions(p)]
    return json.dumps(parts, sort_keys=True, default=str)


def with_other_display(game: UnionPacificGame, seed: int, players: int) -> UnionPacificGame:
    """The same deal, but the display's four cards swapped with four deck cards of other companies."""
    other = new_game(players, seed=seed)
    for action in game.log:
        other.apply(action)
    state = other._state  # changed in place: the live state, not the copy game.state hands out
    shown = set(state.display)
    spots = [i for i, card in enumerate(state.deck) if card != DIVIDEND and card not in shown][:4]
    assert len(spots) == 4
    for slot, i in enumerate(spots):
        state.display[slot], state.deck[i] = state.deck[i], state.display[slot]
    assert not set(state.display) & shown
    return other


def first_choices(game: UnionPacificGame, count: int) -> None:
    for p in game.players[:count]:
        game.apply(ChooseFirstShare(p, sorted(game.state.share_hand[p])[-1]))


@pytest.mark.parametrize("players", PLAYERS)
def test_UP_S5_the_narrative_names_no_company_before_the_first_shares_are_revealed(players):
    for seed in SEEDS:
        game = new_game(players, seed=seed)
        for chosen in range(players):  # nobody has chosen yet, then one by one, all but the last
            if chosen:
                p = game.players[chosen - 1]
                game.apply(ChooseFirstShare(p, sorted(game.state.share_hand[p])[-1]))
            said = " ".join(before_reveal(game))
            named = sorted(w for w in company_words(game) if w in said)
            assert not named, f"seed {seed}, {chosen} chosen: the narrative names {named} before UP-S6: {said!r}"


@pytest.mark.parametrize("players", PLAYERS)
def test_UP_S6_the_display_is_named_when_it_is_turned_up(players):
    for seed in SEEDS[:8]:
        game = new_game(players, seed=seed)
        mark = len(game.narrative)
        first_choices(game, players)
        after = [str(line) for line in game.narrative[mark:]]
        turned = [line for line in after if line.startswith("The display is turned up (UP-S6): ")]
        assert len(turned) == 1, after
        assert all(card_name(game.board, c) in turned[0] for c in game.state.display)
        revealed = next(i for i, line in enumerate(after) if line.startswith("First shares revealed together"))
        assert revealed < after.index(turned[0])  # UP-S5, then UP-S6


@pytest.mark.parametrize("players", PLAYERS)
def test_UP_S5_nothing_shown_before_the_reveal_depends_on_the_display(players):
    for seed in SEEDS:
        game = new_game(players, seed=seed)
        for chosen in (0, players - 1):
            if chosen:
                for p in game.players[:chosen]:
                    game.apply(ChooseFirstShare(p, sorted(game.state.share_hand[p])[0]))
            other = with_other_display(game, seed, players)
            assert other.state.display != game.state.display
            assert shown_to_everyone(other) == shown_to_everyone(game), f"seed {seed}, {chosen} chosen"


def test_UP_B5_a_replaced_first_display_is_told_only_at_the_reveal():
    """UP-B5 applies to the first display (rulings page): that it was replaced is about the display, so it
    is told with it, after UP-S5."""
    for seed in range(3000):
        game = new_game(4, seed=seed)
        if game.state.box or game.state.under_deck:
            break
    else:
        pytest.fail("no seed below 3000 replaces the first display")
    said = " ".join(before_reveal(game))
    assert "UP-B5" not in said
    first_choices(game, 4)
    said = " ".join(str(line) for line in game.narrative)
    assert said.index("First shares revealed") < said.index("UP-B5") < said.index("The display is turned up")
