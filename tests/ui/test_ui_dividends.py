"""DividendsApp driven headless: callbacks, state and shown text (lesson up_dividends, UP-D2..D11)."""

import re

import pytest

from railkit.ui.unionpacific.dividends import DividendsApp
from railkit.ui.unionpacific.dividends.examples import COMPANY, PRESETS, UNION_PACIFIC


def shown_amounts(app) -> dict[str, int]:
    rows = re.findall(r"<tr><td class='name'>(\w+)</td><td>(\d+)</td><td><b>(\d+)</b></td></tr>", app.result_html.value)
    return {name: int(amount) for name, _shares, amount in rows}


def fill(app, value=None, shares=(), payout=None, mode=COMPANY):
    app.mode.value = mode
    if value is not None:
        app.value_field.value = str(value)
    if payout is not None:
        app.payout_number.value = payout
    app.players.value = max(2, len(shares))
    for field, n in zip(app.share_fields, shares, strict=False):
        field.value = str(n)


@pytest.fixture
def app():
    return DividendsApp(seed=7)


def test_UP_D5_tie_for_most_shows_amounts_steps_and_chart(app):
    fill(app, value=7, shares=(3, 3, 3, 1))
    app.on_pay()
    assert shown_amounts(app) == {"Ann": 3, "Ben": 3, "Cleo": 3, "Dev": 0}
    assert "UP-D5" in app.steps_box.value and "rounded down to 3 each" in app.steps_box.value
    assert app.figure.figure is not None and list(app.figure.figure.data[0].y) == [3, 3, 3, 0]
    assert app.message_kind == ""


def test_UP_D6_tie_for_second_can_round_to_nothing(app):
    fill(app, value=5, shares=(4, 2, 2, 2))
    app.on_pay()
    assert shown_amounts(app) == {"Ann": 5, "Ben": 0, "Cleo": 0, "Dev": 0}


def test_UP_D4_sole_shareholder_gets_both(app):
    fill(app, value=6, shares=(2, 0))
    app.on_pay()
    assert shown_amounts(app) == {"Ann": 9, "Ben": 0}


def test_UP_D11_union_pacific_ties_share_positions(app):
    fill(app, mode=UNION_PACIFIC, payout=2, shares=(4, 2, 2, 2))
    app.on_pay()
    assert shown_amounts(app) == {"Ann": 10, "Ben": 6, "Cleo": 6, "Dev": 6}
    assert app.value_row.layout.display == "none" and app.payout_row.layout.display == ""


def test_empty_field_counts_as_no_shares_but_empty_value_is_an_error(app):
    fill(app, value=4, shares=(2, 1))
    app.share_fields[1].value = "   "
    app.on_pay()
    assert shown_amounts(app) == {"Ann": 6, "Ben": 0}
    app.value_field.value = ""
    app.on_pay()
    assert app.message_kind == "error" and "Company value" in app.message_text and "empty" in app.message_text


@pytest.mark.parametrize("field, text, words", [
    ("value", "seven", "whole number"),
    ("value", "-3", "cannot be less than 1"),
    ("value", "", "empty"),
    ("share", "-1", "cannot be less than 0"),
    ("share", "2.5", "whole number"),
    ("share", "abc", "whole number"),
    ("value", "99", "cannot be more than"),
])
def test_bad_input_shows_a_message_and_clears_the_old_result(app, field, text, words):
    """A refused value keeps what was typed but takes away the old payout, which no longer matches the fields."""
    fill(app, value=7, shares=(3, 3, 3, 1))
    app.on_pay()
    shown = app.result_html.value
    if field == "value":
        app.value_field.value = text
    else:
        app.share_fields[2].value = text
    assert app.on_pay() is None
    assert app.message_kind == "error" and words in app.message_text
    assert "Traceback" not in app.message.value
    assert app.explanation is None and app.calculated is None and app.figure.figure is None
    assert "No payout shown" in app.result_html.value and app.steps_box.value == ""
    assert (app.value_field.value if field == "value" else app.share_fields[2].value) == text  # nothing typed is lost
    fill(app, value=7, shares=(3, 3, 3, 1))
    app.on_pay()
    assert app.result_html.value == shown


def test_hidden_players_do_not_count(app):
    fill(app, value=6, shares=(1, 1, 5, 5))
    app.players.value = 2
    app.on_pay()
    assert shown_amounts(app) == {"Ann": 4, "Ben": 4}
    assert app.share_fields[2].layout.display == "none"


@pytest.mark.parametrize("preset", PRESETS, ids=[p.key for p in PRESETS])
def test_rulebook_presets_match_the_rulebook(app, preset):
    app.tabs.selected_index = 2
    explanation = app.load_preset(preset.key)
    assert explanation is not None
    assert tuple(explanation.amounts.values()) == preset.rulebook
    assert app.tabs.selected_index == 0  # the calculator shows the example
    assert app.message_kind == "info" and "rulebook gives" in app.message_text
    assert preset.rule in app.message_text or preset.rule in preset.label


def test_up_table_tab_shows_table_and_ties_for_each_payout(app):
    app.table_payout.value = 3
    html = app.table_html.value
    assert "railkit-tie-table" in html
    # three tied from 1st at payout 3: (15 + 12 + 9) / 3 = 12 (UP-D11)
    tie_rows = re.findall(r"<tr><th class='name'>from [^<]+</th>((?:<td>\d+</td>)+)</tr>", html)
    first = [int(x) for x in re.findall(r"\d+", tie_rows[0])]
    assert first == [15, 13, 12, 10, 9]  # 1 to 5 tied from the 1st position
    app.table_payout.value = 1
    assert "payout 1" in app.table_html.value


def test_quiz_deals_checks_and_explains(app):
    assert app.on_check() is None and app.message_kind == "error"  # nothing dealt yet
    app.on_deal()
    mode, number, shares = app.quiz_situation
    right = app.quiz_answers
    for field, player in zip(app.answer_fields, shares, strict=False):
        field.value = str(right[player])
    assert app.on_check() is True
    assert app.quiz_score == [1, 1] and app.message_kind == "ok"
    assert "railkit-explanation" in app.quiz_feedback.value
    # a second check of the same situation does not count again
    app.on_check()
    assert app.quiz_score == [1, 1]


def test_quiz_wrong_answer_is_marked_and_explained(app):
    app.on_deal()
    _mode, _number, shares = app.quiz_situation
    first = next(iter(shares))
    for field, player in zip(app.answer_fields, shares, strict=False):
        field.value = str(app.quiz_answers[player])
    app.answer_fields[0].value = str(app.quiz_answers[first] + 1)
    assert app.on_check() is False
    assert "railkit-wrong" in app.quiz_feedback.value and app.quiz_score == [0, 1]


def test_quiz_bad_answer_shows_a_message_and_changes_nothing(app):
    app.on_deal()
    situation, score = app.quiz_situation, list(app.quiz_score)
    app.answer_fields[0].value = "lots"
    assert app.on_check() is None
    assert app.message_kind == "error" and "whole number" in app.message_text
    assert app.quiz_situation == situation and app.quiz_score == score and app.quiz_feedback.value == ""


def test_quiz_is_reproducible_with_a_seed():
    a, b = DividendsApp(seed=3), DividendsApp(seed=3)
    assert [a.deal() for _ in range(5)] == [b.deal() for _ in range(5)]


def test_unexpected_errors_become_a_message_not_a_traceback(app, monkeypatch):
    import railkit.ui.unionpacific.dividends.app as mod

    def boom(*_a, **_k):
        raise ZeroDivisionError("boom")

    monkeypatch.setattr(mod, "explain", boom)
    assert app.on_pay() is None
    assert app.message_kind == "error" and "Something went wrong" in app.message_text


def test_UP_D11_an_amount_no_rulebook_shows_is_marked_DECISION(app):
    """UP-D11: the rulebooks give 12 each for three tied for 1st; the 4th player's 6 is railkit's reading."""
    app.load_preset("D11b")
    message = app.message_text
    assert ("The rulebook gives: Ann 12, Ben 12, Cleo 12; Dev 6 is railkit's DECISION (the next player takes the "
            "next free position, UP-D11).") in message
    app.load_preset("D5")  # every amount of this example is in the rulebooks
    assert "DECISION" not in app.message_text and "Dev 0" in app.message_text
