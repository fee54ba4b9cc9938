"""After a move, headless: the lesson names the next control for the keyboard focus (the hidden focus mark the
template's script follows) and the message bar (a live region) says what the move and the other players did, the
auction's result included. Enter in a text box submits it as the form's button does."""

import html
import random
import re

from railkit.ui.app import MOST_SPOKEN_EVENTS, Messages, others_words
from railkit.ui.capecairo.auction import KkAuctionApp
from railkit.ui.capecairo.play import KkPlayApp
from railkit.ui.unionpacific.building import BuildingApp
from railkit.ui.unionpacific.play import PlayApp
from railkit.ui.widgets import submit_on_enter


def act(app, action):
    """The move through the app's own callback (``PlayApp.act``, as every move button calls it)."""
    return app.act(lambda _player: action)


def focus_target(app) -> str | None:
    """The CSS selector the app last asked the keyboard focus to go to."""
    found = re.search(r"data-focus='([^']*)'", app.messages.focus_mark.value)
    return html.unescape(found.group(1)) if found else None


def test_a_focus_request_is_numbered_so_the_same_control_can_be_asked_for_again():
    messages = Messages()
    messages.focus(".railkit-kk-next")
    first = messages.focus_mark.value
    messages.focus(".railkit-kk-next")
    assert first != messages.focus_mark.value and "data-n='2'" in messages.focus_mark.value


def test_the_spoken_summary_names_the_newest_moves_and_counts_the_rest():
    assert others_words([]) == "" and others_words(["  "]) == ""
    assert others_words(["ann bids 3"]) == "Then: Ann bids 3."
    many = [f"move {i}" for i in range(MOST_SPOKEN_EVENTS + 2)]
    said = others_words(many)
    assert said.startswith("Then (2 more before") and "Move 0." not in said and f"Move {len(many) - 1}." in said


def test_kk_auction_goes_from_the_bid_to_the_card_or_next_auction_then_back_to_the_bid():
    app = KkAuctionApp(seed=5)
    assert focus_target(app) is None  # nothing moves the focus while the page loads
    app.auction.bid_field.value = "0"
    app.on_bid()
    assert "choosing order:" in app.message_text and "Bids:" in app.message_text  # the auction's result, spoken
    assert focus_target(app) in (".railkit-kk-choose button.kk-take", ".railkit-kk-next")
    if app.view().phase == "choose":
        app.on_choose(app.view().offer[0]["id"])
        assert focus_target(app) == ".railkit-kk-next"
    app.on_next_auction()
    assert focus_target(app) in (".railkit-kk-bid input", ".railkit-kk-new")


def test_enter_in_the_bid_box_hands_the_bid_in():
    app = KkAuctionApp(seed=5)
    app.auction.bid_field.value = "1"
    app.auction.bid_field._handle_msg({"content": {"data": {"method": "custom", "content": {"event": "submit"}}}, "buffers": []})
    assert "You paid £1" in app.message_text


def test_submit_on_enter_calls_the_action_only_for_a_submit():
    import ipywidgets as widgets

    calls = []
    field = widgets.Text()
    submit_on_enter(field, lambda: calls.append(field.value))
    field.value = "7"
    field._handle_msg({"content": {"data": {"method": "custom", "content": {"event": "other"}}}, "buffers": []})
    field._handle_msg({"content": {"data": {"method": "custom", "content": {"event": "submit"}}}, "buffers": []})
    assert calls == ["7"]


def test_kk_play_names_the_computer_players_moves_and_the_next_control():
    app = KkPlayApp(seed=3)
    app.auction.bid_field.value = "2"
    app.on_bid()
    assert app.message_text.startswith("You bid £2.") and "Then" in app.message_text
    phase = app.view().phase
    expected = {"bid": ".railkit-kk-bid input", "choose": ".railkit-kk-choose button.kk-take"}.get(
        phase, ".railkit-kk-buy select, .railkit-kk-build:enabled, .railkit-kk-pass")
    assert focus_target(app) == expected


def test_up_play_after_a_turn_speaks_of_the_others_and_focuses_the_next_step():
    app = PlayApp(seed=7, players=4, game_number=11, name="Alex")
    for _ in range(12):  # the learner's first moves, until the computer players have moved after one
        assert act(app, app.game.legal_actions(app.session.acting)[0]) is True, app.moves.note.text
        assert focus_target(app) in (".railkit-unusable select, .railkit-action-mode button", ".railkit-draw button",
                                     ".railkit-exchange-pick select, .railkit-end-turn"), focus_target(app)
        if "Then" in app.message_text:
            break
    assert "Then" in app.message_text, app.message_text  # the computer players' moves, read out


def test_up_building_goes_from_the_card_to_the_section_list():
    app = BuildingApp(seed=1)
    app.company.value = app.board.companies[0].key
    assert focus_target(app) is None  # choosing a company moves nothing (the arrow keys go on choosing)
    app.card.value = "general"
    assert focus_target(app) == ".railkit-section select"


def test_a_refused_move_leaves_the_focus_where_it_was():
    app = KkAuctionApp(seed=random.Random(2).randrange(100))
    app.auction.bid_field.value = "lots"
    app.on_bid()
    assert app.message_kind == "error" and focus_target(app) is None
