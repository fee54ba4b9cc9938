"""The play lesson keeps the display face down until the first shares are revealed (UP-S5, UP-S6):
its “whole game in words”, latest moves, display box and every other text on the page are the same
whichever companies the hidden display holds."""

from __future__ import annotations

import pytest

from railkit.ui import i18n
from railkit.ui.unionpacific.play import PlayApp
from railkit.unionpacific.sharedeck import DIVIDEND
from tests.ui.test_i18n_catalogs import widget_texts


@pytest.fixture(autouse=True)
def english_again():
    yield
    i18n.set_language("en")


def swap_display(app: PlayApp) -> None:
    state = app.game.state
    shown = set(state.display)
    spots = [i for i, card in enumerate(state.deck) if card != DIVIDEND and card not in shown][:4]
    for slot, i in enumerate(spots):
        state.display[slot], state.deck[i] = state.deck[i], state.display[slot]
    assert not set(state.display) & shown


@pytest.mark.parametrize("language", ["en", "fi"])
@pytest.mark.parametrize("seed", range(6))
def test_UP_S5_the_play_lesson_shows_nothing_of_the_display_before_the_reveal(seed, language):
    i18n.set_language(language)
    app = PlayApp(seed=seed, players=4, game_number=seed)
    game = app.game
    assert game.phase == "first_share" and game.players_to_act()
    names = {c.name for c in game.board.companies}
    app.log.widget.selected_index = 0  # open “The whole game in words”
    log = " ".join(widget_texts(app.log.widget) + widget_texts(app.events.widget))
    assert "UP-S5" in log
    assert not [n for n in names if n in log], log  # no company is named in words before UP-S6
    before = widget_texts(app.widget)
    swap_display(app)
    app.refresh()
    assert widget_texts(app.widget) == before
