"""Issue 22: the English default name “You” never shows on a Finnish, Hungarian or Spanish page (kk_play said
“pelaat pelaajana You” after loading a save made on an English page), a class table never seats the default
name (the others would read “Sinä”/“You” as a third person's name), and the hot seat and the session speak to
the learner in the second person."""

from __future__ import annotations

import re

import pytest

from railkit.errors import InputError
from railkit.session import SessionError
from railkit.ui import i18n
from railkit.ui.app import error_text
from railkit.ui.records.learner import DEFAULT_LEARNER, default_learner, is_default_learner

LANGUAGES = ("fi", "hu", "es")
ENGLISH_YOU = re.compile(r"\bYou\b")


@pytest.fixture
def language(request):
    i18n.set_language(request.param)
    yield request.param
    i18n.set_language("en")


def english_save() -> str:
    from railkit.ui.capecairo.play import KkPlayApp

    app = KkPlayApp(seed=5, players=3)
    assert app.you == DEFAULT_LEARNER  # made on an English page: the seat is “You”
    return app.save_file().text


@pytest.mark.parametrize("language", LANGUAGES, indirect=True)
def test_an_english_save_loaded_on_another_language_page_shows_no_you(language):
    from railkit.ui.capecairo.common import player_html
    from railkit.ui.capecairo.play import KkPlayApp

    i18n.set_language("en")
    text = english_save()
    i18n.set_language(language)
    app = KkPlayApp(seed=6, players=3)
    said = app.load_save(text)
    assert not ENGLISH_YOU.search(said), said
    view = app.game.view(app.you)
    assert default_learner() in player_html(view, app.you) and "You" not in player_html(view, app.you)
    assert i18n.player_label(DEFAULT_LEARNER) == default_learner()


@pytest.mark.parametrize("language", LANGUAGES, indirect=True)
def test_the_default_name_is_known_in_every_language(language):
    for name in ("You", "Sinä", "Te", "Tú"):
        assert is_default_learner(name)
    assert not is_default_learner("Kim")


@pytest.mark.parametrize("language", ("en", *LANGUAGES), indirect=True)
def test_a_class_table_never_seats_the_default_name(language):
    from railkit.ui.capecairo.play import KkPlayApp

    panel = KkPlayApp(seed=7, players=3).together
    assert panel.name.value == ""  # the default learner's name is no name for the others at the table
    for name in ("You", "Sinä", "Te", "Tú"):
        panel.name.value = name
        with pytest.raises(InputError):
            panel._seat_name()
    panel.name.value = "Kim"
    assert panel._seat_name() == "Kim"


@pytest.mark.parametrize("language", ("en", *LANGUAGES), indirect=True)
def test_the_session_refuses_the_learner_in_the_second_person(language):
    from railkit.messages import Message

    refusal = SessionError(Message("{player} is not a human player in this game", {"player": "Kim"}))
    assert "Kim" not in error_text(refusal, "Kim") and "Kim" in error_text(refusal, "Ann")


def hot_seat_with_the_default_name():
    """A UP play lesson at a two-seat hot seat whose first seat has the learner's default name, dealt."""
    from railkit.ui.unionpacific.play import PlayApp

    app = PlayApp(seed=2)
    app.setup.mode.value = "hotseat"
    app.setup.names.value = f"{default_learner()}, Ann"
    app.setup.players.value = 2
    assert app.on_new_game()
    return app


@pytest.mark.parametrize("language", ("en", *LANGUAGES), indirect=True)
def test_up_hot_seat_speaks_to_a_seat_with_the_default_name(language):
    app = hot_seat_with_the_default_name()
    session = app.session
    first = session.acting
    words = app.next_words()
    assert is_default_learner(first)  # the first seat starts (UP-S8)
    assert words == i18n.tr("Your turn next: take the screen and press “Show my hand” (the others look away).")
    with pytest.raises(InputError, match="^" + re.escape(i18n.tr("Press “Show my hand” first (the others look away)."))):
        app._acting_or_error()


@pytest.mark.parametrize("language", ("en", *LANGUAGES), indirect=True)
def test_up_hot_seat_tells_the_default_named_seat_its_own_moves_in_the_second_person(language):
    from railkit.ui.unionpacific.play.screen import Screen
    from railkit.ui.unionpacific.play.tables import shown_events
    from tests.ui.test_ui_learner_you import THIRD_PERSON

    app = hot_seat_with_the_default_name()
    session = app.session
    assert Screen.of(session).you == default_learner()
    session.toggle_hand()  # the default-named seat shows its hand and makes its first move
    mark = len(session.game.narrative)
    app.act(lambda player: session.game.legal_actions(player)[0])
    lines = [line for _i, line in shown_events(Screen.of(session), mark)] + [app.message_text]
    assert lines and not [t for t in lines if THIRD_PERSON[language].search(t)], lines
