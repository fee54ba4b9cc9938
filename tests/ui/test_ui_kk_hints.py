"""The KK play lesson's help for a learner: the race map (redrawn only on change, with the reconstruction note),
“Why?” for every prompt (KK-A2..KK-A6, KK-B2, KK-B3), the review after a game, the learner “You”."""

from __future__ import annotations

import html
import re

from railkit.capecairo import Bid, Build, Choose, Pass
from railkit.ui.capecairo.common import as_learner, deck_note
from railkit.ui.capecairo.play import KkPlayApp
from railkit.ui.capecairo.race_panel import race_key


def text(value: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", " ", value))


def test_the_learner_is_You_by_default_and_engine_sentences_read_in_the_second_person() -> None:
    app = KkPlayApp(seed=1, players=2)
    assert app.you == "You" and app.start.name_field.value == "You"
    assert as_learner("You hands in a sealed bid.", "You") == "You hand in a sealed bid."
    assert as_learner("You's next terrain is V07.", "You") == "Your next terrain is V07."
    assert as_learner("Kim hands in a sealed bid.", "Kim") == "You hand in a sealed bid."  # any learner name
    assert as_learner("Ann hands in a sealed bid.", "Kim") == "Ann hands in a sealed bid."


def test_the_race_map_is_redrawn_only_when_the_race_changes() -> None:
    app = KkPlayApp(seed=2, players=2, win_crossings=3)
    assert app.race_map.figure.renders == 1 and "rulings.ipynb" in app.race_map.note.value
    renders, key = app.race_map.figure.renders, race_key(app.view())
    app.refresh()  # nothing changed
    assert app.race_map.figure.renders == renders
    app.auction.bid_field.value = "3"
    app.on_bid()  # the bids alone do not change the map; choosing a card does
    while not app.game.is_over and race_key(app.view()) == key:
        app.on_auto()
    assert race_key(app.view()) != key and app.race_map.figure.renders == renders + 1


def test_KK_every_prompt_has_a_why_hint_from_the_engine() -> None:
    app = KkPlayApp(seed=3, players=2, win_crossings=3)
    app.hint_button.value = True
    seen: set[str] = set()
    for _ in range(200):
        if app.game.is_over:
            break
        hint = text(app.hint_html.value)
        phase = app.game.phase
        seen.add(phase)
        if phase == "bid":
            assert "KK-A2" in hint and "KK-A3" in hint and "KK-A5" in hint
            assert f"£{app.game.state.money['You']}" in hint
        elif phase == "choose":
            assert "KK-A6" in hint
            assert hint.count("Take ") == sum(isinstance(a, Choose) for a in app.game.legal_actions("You"))
        else:
            assert "KK-B2" in hint and "KK-B3" in hint
            if any(isinstance(a, Build) for a in app.game.legal_actions("You")):
                assert "Allowed now: build buying" in hint
        app.on_auto()
    assert seen == {"bid", "choose", "build"}
    assert "Review of your moves" in text(app.review_html.value)
    assert app.history.widget.layout.display != "none"  # the money and terrains over the game, charted
    app.hint_button.value = False
    assert app.hint_html.value == ""


def test_the_review_after_a_game_lists_weak_moves_with_reasons() -> None:
    app = KkPlayApp(seed=4, players=2, win_crossings=3)
    for _ in range(300):
        if app.game.is_over:
            break
        game = app.game
        if game.phase == "bid":
            app.auction.bid_field.value = str(game.state.money["You"])  # far too much (KK-A3)
            app.on_bid()
        elif game.phase == "choose":
            app.on_choose(game.state.offer[0])
        else:
            app._move(Pass("You")) if any(isinstance(a, Pass) for a in game.legal_actions("You")) else app.on_auto()
    assert app.game.is_over
    review = text(app.review_html.value)
    assert "Review of your moves" in review and "KK-A3" in review
    assert any(isinstance(a, Bid) for a in app.game.log)


def test_deck_views_carry_the_reconstruction_note() -> None:
    app = KkPlayApp(seed=5, players=2)
    assert "rulings.ipynb" in app.auction.offer_html.value and "KK-C4" in text(deck_note())
