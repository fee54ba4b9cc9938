"""KkAuctionApp driven headless (lesson kk_auction, KK-A1..KK-A7): sealed bids against computer players,
bad input, the reveal and the engine's choosing order, choosing a card, the next auction, and the
“who chooses first?” exercise."""

import html
import random
import re

import pytest

from railkit.capecairo import auction_order, explain_auction_order
from railkit.ui.capecairo.auction import KkAuctionApp
from railkit.ui.capecairo.auction.quiz import KINDS, _fits, make_question, random_question
from railkit.ui.capecairo.common import as_learner
from railkit.ui.capecairo.panels import notes_of


def text(value: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", " ", value))


def shown_order(app) -> list[str]:
    """The players in the reveal table, top to bottom (first cell: 1st, 2nd, ...; second: the name)."""
    rows = re.findall(r"<tr><td[^>]*>\d+\w\w</td><td class='name'[^>]*>(.*?)</td>", app.auction.reveal.value)
    return [text(r).replace("(you)", "").strip() for r in rows]


def bot_bids(app) -> dict[str, int]:
    return dict(app.game.state_dict()["pending_bids"])  # hidden state: only the test looks at it


def record_number(app) -> int:
    return app.game.state.last_auction["number"]


@pytest.fixture
def app():
    return KkAuctionApp(seed=5)


def test_KK_A1_new_game_puts_one_card_per_player_on_sale_and_bots_have_bid(app):
    game = app.game
    assert game.players == ("You", "Ann", "Ben") and app.you == "You"
    assert game.phase == "bid" and len(game.state.offer) == 3
    assert set(bot_bids(app)) == {"Ann", "Ben"} and game.players_to_act() == ("You",)
    for card_id in game.state.offer:
        assert card_id in app.auction.offer_html.value
    assert app.auction.bid_row.layout.display == "" and app.auction.choose_box.layout.display == "none"
    assert app.message_kind == "info" and "Hand in sealed bid" in app.message_text


def test_KK_A2_sealed_bids_stay_hidden_until_all_are_in(app):
    bids = bot_bids(app)
    shown = text(app.auction.players_html.value)
    assert shown.count("sealed ✔") == 2 and "not yet" in shown  # who has bid, never how much
    assert app.auction.reveal.value == "" and app.building_html.value == ""
    view = app.view()
    assert view.your_bid is None and view.money == {"You": 100, "Ann": 100, "Ben": 100}
    assert "Bids revealed" not in text(app.status.value)
    for p, amount in bids.items():
        assert f"{p} {amount}" not in " ".join(app.game.narrative)  # the engine's log keeps them sealed too


def test_KK_A2_enter_in_the_bid_field_hands_the_bid_in_like_the_button(app):
    app.auction.bid_field.value = "7"
    app.auction.bid_field._handle_custom_msg({"event": "submit"}, [])  # what the page sends on Enter
    assert app.game.state.last_auction["bids"]["You"] == 7 and app.game.phase != "bid"
    app.auction.bid_field._handle_custom_msg({"event": "something else"}, [])  # other events do nothing


@pytest.mark.parametrize("typed, says", [
    ("", "is empty"),
    ("   ", "is empty"),
    ("abc", "must be a whole number"),
    ("4.5", "must be a whole number"),
    ("1e2", "must be a whole number"),
    ("-3", "cannot be negative"),
    ("101", "you have only 100 pounds"),
    ("250", "cannot bid 250"),
])
def test_KK_A2_bad_bid_shows_a_clear_message_and_changes_nothing(app, typed, says):
    before = app.game.state_dict()
    shown = (app.status.value, app.auction.players_html.value, app.auction.offer_html.value)
    app.auction.bid_field.value = typed
    app.on_bid()
    assert app.message_kind == "error" and says in app.message_text
    assert app.game.state_dict() == before
    assert (app.status.value, app.auction.players_html.value, app.auction.offer_html.value) == shown
    if typed.strip().lstrip("-").isdigit():
        assert "(rule KK-A2)" in app.message_text  # the engine refused it, naming the rule


def test_KK_A3_A4_reveal_shows_every_bid_the_money_left_and_the_engines_order(app):
    bots = bot_bids(app)
    app.auction.bid_field.value = "7"
    app.on_bid()
    record = app.game.state.last_auction
    assert record["bids"] == {"You": 7, **bots}
    assert shown_order(app) == record["order"]  # the reveal lists players in the engine's order
    shown = text(app.auction.reveal.value)
    for step in record["steps"]:
        assert as_learner(step, app.you) in shown
    for bid in record["bids"].values():  # everybody paid their own bid (KK-A3)
        assert f"£{100 - bid}" in shown
    assert app.auction.bid_field.value == "" and app.message_kind == "ok"
    assert app.auction.bid_row.layout.display == "none"


def test_KK_A5_tie_on_bid_and_money_is_settled_by_draws_shown_in_words(app):
    bots = bot_bids(app)
    app.auction.bid_field.value = str(bots["Ann"])  # same bid as Ann, same money (100): a draw decides
    app.on_bid()
    record = app.game.state.last_auction
    shown = text(app.auction.reveal.value)
    assert "have the same money left" in shown and "Draws:" in shown and "(KK-A5)" in shown
    assert record["tie_break_cards"]
    assert "Cards drawn to break the tie" in shown
    assert shown_order(app) == record["order"]


def test_KK_A4_A6_highest_bidder_chooses_and_the_card_joins_the_end_of_the_line(app):
    high = max(bot_bids(app).values()) + 1
    app.auction.bid_field.value = str(high)
    app.on_bid()
    game = app.game
    assert game.phase == "choose" and game.current_player == "You"
    assert app.auction.choose_box.layout.display == "" and len(app.auction.choose_buttons.children) == len(game.state.offer)
    before = game.state_dict()
    app.on_choose("NOT-A-CARD")
    assert app.message_kind == "error" and "(rule KK-A4)" in app.message_text and game.state_dict() == before
    card = game.state.offer[1]
    app.on_choose(card)
    assert game.state.queues["You"][-1] == card
    assert game.phase == "build" and app.next_button.layout.display == ""  # the other cards were taken
    assert app.game.state.auction_winner == "You"
    taken = notes_of(app.session).taken[record_number(app)]
    assert taken["You"] == card and set(taken) == {"You", "Ann", "Ben"}
    assert "Take" not in text(app.auction.choose_prompt.value)
    assert "you chose first and open the building phase (KK-A7)" in text(app.status.value)  # the learner won


def test_next_auction_plays_the_building_phase_and_opens_new_sealed_bids(app):
    app.auction.bid_field.value = "0"
    app.on_bid()
    while app.game.phase == "choose":
        app.on_choose(app.game.state.offer[0])
    before = app.game.state_dict()
    app.auction.bid_field.value = "3"
    app.on_bid()  # no auction takes bids now: refused by the engine, nothing changes
    assert app.message_kind == "error" and app.game.state_dict() == before
    app.on_next_auction()
    game = app.game
    assert game.state.auction_no == 2 and game.phase == "bid" and game.players_to_act() == ("You",)
    log = text(app.building_html.value)
    assert "(KK-B1)" in log and "Auction 2" in log
    assert app.auction.reveal.value == ""  # the old reveal is gone while new bids are sealed
    app.on_next_auction()
    assert app.message_kind == "error" and "Finish this auction first" in app.message_text


def test_a_whole_game_of_auctions_runs_to_the_end(app):
    rng = random.Random(1)
    for _ in range(200):
        game = app.game
        if game.is_over:
            break
        if game.phase == "bid":
            app.auction.bid_field.value = str(rng.randint(0, min(12, game.state.money["You"])))
            app.on_bid()
        elif game.phase == "choose":
            app.on_choose(rng.choice(game.state.offer))
        else:
            app.on_next_auction()
        assert app.message_kind in ("ok", "info"), app.message_text
    assert app.game.is_over
    assert app.game.result().end_reason in ("KK-E1", "KK-B8")
    assert re.search(r"\bwins?\b", text(app.status.value)) or "KK-B8" in text(app.status.value)
    app.on_next_auction()
    assert app.message_kind == "error" and "New game" in app.message_text


@pytest.mark.parametrize("players", [2, 4])
def test_new_game_with_name_and_players(app, players):
    app.start.name_field.value = "  Ann  "
    app.start.players.value = players
    app.on_new_game()
    assert app.game.players[0] == "Ann" and len(app.game.players) == players
    assert len(set(app.game.players)) == players and app.game.state.auction_no == 1
    app.start.name_field.value = ""
    before = app.game.state_dict()
    app.on_new_game()
    assert app.message_kind == "error" and "Your name" in app.message_text and app.game.state_dict() == before


# -- the exercise -------------------------------------------------------------------------------------
def test_quiz_accepts_the_engines_order_and_rejects_a_wrong_one(app):
    q = app.quiz.question
    app.quiz.answer(q.order)
    assert app.quiz.on_check() is True and app.message_kind == "ok"
    assert app.quiz.score == [1, 1]
    assert all(step in text(app.quiz.feedback.value) for step in q.steps)
    q2 = app.quiz.on_new_question()
    app.quiz.answer(list(reversed(q2.order)))
    assert app.quiz.on_check() is False and app.message_kind == "info"
    assert app.quiz.score == [1, 2] and "✘" in app.quiz.feedback.value
    app.quiz.answer(q2.order)
    assert app.quiz.on_check() is True and app.quiz.score == [1, 2]  # only the first check counts


def test_quiz_refuses_an_incomplete_or_repeated_order(app):
    q = app.quiz.question
    app.quiz.answer([q.order[0]])
    assert app.quiz.on_check() is None and app.message_kind == "error" and "still empty" in app.message_text
    app.quiz.answer([q.order[0]] * len(q.players))
    assert app.quiz.on_check() is None and "more than once" in app.message_text
    assert app.quiz.score == [0, 0]


@pytest.mark.parametrize("kind", KINDS)
def test_KK_A5_quiz_situations_practise_each_kind_of_tie(kind):
    rng = random.Random(kind)
    for _ in range(15):
        q = random_question(rng, kind)
        assert q.kind == kind and _fits(q, kind)
        used = {p: 0 for p in q.players}

        def draw(p, q=q, used=used):
            used[p] += 1
            return q.draws[p][used[p] - 1]

        assert auction_order(q.bids, q.money_left, draw) == list(q.order)  # the engine's answer
        if kind == "draw_tie":
            assert any("draw again" in s for s in q.steps)
        if kind == "bid_tie":
            assert any("least money left" in s for s in q.steps) and not any("Draws" in s for s in q.steps)


def test_KK_A5_worked_example_of_the_lesson():
    q = make_question({"Ann": 46, "Ben": 58, "Cleo": 70}, {"Ann": 6, "Ben": 6, "Cleo": 9},
                      {"Ann": (1,), "Ben": (1,), "Cleo": (1,)})
    assert q.order == ("Cleo", "Ann", "Ben")
    q = make_question({"Ann": 46, "Ben": 46, "Cleo": 70}, {"Ann": 6, "Ben": 6, "Cleo": 9},
                      {"Ann": (3, 1), "Ben": (7, 1), "Cleo": (1, 1)})
    assert q.order == ("Cleo", "Ben", "Ann")
    assert q.order == tuple(explain_auction_order(q.bids, q.money_left, iter_draws(q)).order)


def iter_draws(q):
    used = {p: 0 for p in q.players}

    def draw(p):
        used[p] += 1
        return q.draws[p][used[p] - 1]

    return draw
