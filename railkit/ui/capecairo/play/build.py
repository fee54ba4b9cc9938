"""The learner's building turn in the play lesson (KK-B1..KK-B5), as a panel: the cards turned up this
round, the engine's count of the attempt (``explain_build``), and exactly the purchases the engine
allows (``legal_actions``) — Buy, Build and Pass.
"""

from __future__ import annotations

from collections.abc import Callable

import ipywidgets as widgets

from railkit.capecairo import Build, CapeToCairoGame, explain_build
from railkit.capecairo.game import TRACK_PRICE  # KK-B2 (4): the engine's price of one track piece
from railkit.ui.app import Messages, Panel
from railkit.ui.capecairo.common import cards_count, cards_html, pieces_count, pounds
from railkit.ui.capecairo.play.exercise import explanation_html
from railkit.ui.i18n import tr, trn
from railkit.ui.widgets import button, html_box, row

NO_BUILD = -1  # the Buy list's value when the engine allows no build now (a None value would show blank)


class BuildPanel(Panel):
    """The learner's building turn (KK-B): the cards turned up, the engine's count, Buy, Build and Pass."""

    def __init__(self, messages: Messages, on_build: Callable[[], object], on_pass: Callable[[], object]) -> None:
        super().__init__(messages)
        self.flipped_html = html_box("railkit-kk-flipped")
        self.explain_html = html_box("railkit-kk-explain")
        self.buy = widgets.Dropdown(options=[(tr("—"), NO_BUILD)], value=NO_BUILD, description=tr("Buy"),
                                    style={"description_width": "45px"}, layout=widgets.Layout(width="560px"))
        self.buy.add_class("railkit-kk-buy")
        self.build_button = button(tr("Build"), "railkit-kk-build", "wrench", "success",
                                   tr("Cross the next terrain in front of your train (KK-B2)"), "130px")
        self.build_button.on_click(lambda _b: on_build())
        self.pass_button = button(tr("Pass"), "railkit-kk-pass", "forward", "",
                                  tr("Do not build now; the turn goes to the left (KK-B3)"), "130px")
        self.pass_button.on_click(lambda _b: on_pass())
        self.widget = widgets.VBox([self.flipped_html, self.explain_html,
                                    row([self.buy, self.build_button, self.pass_button])])
        self.widget.add_class("railkit-kk-build-box")
        self.deck_note: bool | str = True  # the app sets its deck's note (a club's deck names itself)

    def refresh(self, game: CapeToCairoGame, you: str) -> None:
        v = game.view(you)
        if v.phase != "build" or you not in v.to_act:
            self.widget.layout.display = "none"
            self._no_build()  # no option of an earlier turn stays behind the hidden Build button
            return
        self.flipped_html.value = (
            f"<b>{tr('Turned up this building round (KK-B1, KK-B3): {cards}', cards=cards_count(len(v.flipped)))}</b>"
            + cards_html(v.flipped, empty=tr("none: no card was left to turn up"), note=self.deck_note))
        self.explain_html.value = explanation_html(explain_build(game, you), you=you)
        self._set_buy_options(game, you)
        self.widget.layout.display = ""

    def _no_build(self, label: str | None = None) -> None:
        self.buy.options = [(tr("—") if label is None else label, NO_BUILD)]
        self.buy.value = NO_BUILD
        self.buy.disabled = True
        self.build_button.disabled = True

    def _set_buy_options(self, game: CapeToCairoGame, you: str) -> None:
        """The purchases the engine allows now (``legal_actions``), with what each costs and spends."""
        builds = [a for a in game.legal_actions(you) if isinstance(a, Build)]
        numbers = game.build_numbers(you)
        if not builds:
            self._no_build(tr("nothing: you cannot build now (see the count above)"))
            return
        options = []
        for i, action in enumerate(builds):
            n = action.buy if action.buy is not None else 0
            spent = numbers.bonus_spent(n)
            label = tr("{pieces} for {cost}", pieces=pieces_count(n), cost=pounds(n * TRACK_PRICE))
            if spent:
                label += trn(", using {k} bonus track", ", using {k} bonus tracks", spent, k=spent)
            if i == 0 and len(builds) > 1:
                label += tr(" (fewest)")
            options.append((label, n))
        self.buy.options = options
        self.buy.value = builds[0].buy
        self.buy.disabled = len(builds) == 1
        self.build_button.disabled = False
