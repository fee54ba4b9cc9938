"""Pieces every Union Pacific lesson shares: names and labels, the share-deck options, the payout
steps and the UP-B2a–f checklist as HTML, and the lessons' style.

Only presentation lives here; every verdict comes from the engine (``railkit.unionpacific``).
"""

from __future__ import annotations

import html
from collections.abc import Mapping
from typing import Any

from railkit.ui.i18n import get_language, render, tr, trn
from railkit.ui.records.learner import second_person
from railkit.unionpacific import GENERAL, TRACK_TYPES, UP, Board, PayoutExplanation, PlacementExplanation

TRACK_CARDS: tuple[str, ...] = (*TRACK_TYPES, GENERAL)
DECKS = ("standard", "finnish", "dividend_cards")
DECK_RULE = {"standard": "UP-S7", "finnish": "UP-S7-FI", "dividend_cards": "UP-V1"}


def card_label(board: Board, card: str) -> str:
    """A track card as learners read it: “Plains”, “River valley”, “General”."""
    if card == GENERAL:
        return tr("General")
    return tr(board.track_labels.get(card, card))


def company_name(board: Board, key: str) -> str:
    if key == UP:
        return tr("Union Pacific")
    try:
        return board.company(key).name
    except KeyError:
        return key


def swatch(hex_colour: str) -> str:
    """A small coloured square (company colour) for HTML text."""
    return (f"<span style='display:inline-block;width:0.9em;height:0.9em;background:{html.escape(hex_colour)};"
            "border:1px solid #444;vertical-align:-0.1em;margin-right:4px'></span>")


def company_html(board: Board, key: str) -> str:
    """Colour swatch + name of a company (or Union Pacific)."""
    if key == UP:
        return swatch("#f5f5f5") + html.escape(tr("Union Pacific"))
    company = board.company(key)
    return swatch(company.hex) + html.escape(company.name)


def counts_html(board: Board, counts: Mapping[str, int], empty: str | None = None) -> str:
    """``{"BNL": 2, "UP": 1}`` as “2 × Billings Northern Lights, 1 × Union Pacific”."""
    if not counts:
        return html.escape(empty if empty is not None else tr("none"))
    return ", ".join(f"{n}&nbsp;×&nbsp;{company_html(board, k)}" for k, n in counts.items())


def section_label(board: Board, section: Any) -> str:
    """“Denver–El Paso · Mountain · 2 spaces” (parallel sections differ in track type)."""
    return trn("{section} · {track} · {n} space", "{section} · {track} · {n} spaces", section.spaces,
               section=section.name, track=card_label(board, section.track_type))


# -- the share-deck options (UP-S7, UP-S7-FI, UP-V1, UP-V2) --------------------------------------
def deck_name(deck: str, in_sentence: bool = False) -> str:
    if in_sentence:
        return {"standard": tr("the standard deck"), "finnish": tr("the Finnish deck"),
                "dividend_cards": tr("the dividend-card variant")}[deck]
    return {"standard": tr("Standard deck"), "finnish": tr("Finnish deck"),
            "dividend_cards": tr("Dividend-card variant")}[deck]


def option_name(deck: str, safe_round: bool, in_sentence: bool = False) -> str:
    """“Standard deck (UP-S7)”, “the Finnish deck (UP-S7-FI) + safe round (UP-V2)”, ..."""
    name = f"{deck_name(deck, in_sentence)} ({DECK_RULE[deck]})"
    return tr("{deck} + safe round (UP-V2)", deck=name) if safe_round else name


# -- the engine's explanations as HTML ------------------------------------------------------------
def engine_text(line: str, you: str | None = None) -> str:
    """An engine sentence (a ``railkit.messages.Message``) in the lesson's language; a sentence about the
    learner ``you`` is its own second-person message (``railkit.messages.addressed``). English also rewrites
    what has no such message yet (``second_person`` knows English grammar only)."""
    text = render(line, you)
    return second_person(text, you) if you and get_language() == "en" else text


def steps_html(explanation: PayoutExplanation[str], you: str | None = None) -> str:
    """One payout worked out step by step (UP-D2..UP-D11), in the engine's words (sentences about the
    learner ``you`` in the second person)."""
    items = "".join(f"<li>{html.escape(engine_text(step, you))}</li>" for step in explanation.steps)
    return (f"<div class='railkit-explanation'><b>{html.escape(render(explanation.title))}</b>"
            f"<ol class='railkit-steps'>{items}</ol></div>")


def checklist_html(explanation: PlacementExplanation) -> str:
    """The six conditions of UP-B2 as a table: pass/fail, rule, the engine's sentence."""
    verdict = (f"<span class='railkit-right'>{tr('allowed')}</span>" if explanation.legal
               else f"<span class='railkit-wrong'>{tr('not allowed')}</span>")
    rows = "".join(
        f"<tr class='{'pass' if c.passed else 'fail'}'>"
        f"<td class='{'railkit-right' if c.passed else 'railkit-wrong'}'>{'✔' if c.passed else '✘'}</td>"
        f"<td class='name nowrap'>{c.rule}</td><td class='name'>{html.escape(render(c.sentence))}</td></tr>"
        for c in explanation.checks
    )
    return (f"<div class='railkit-checklist'><b>{html.escape(render(explanation.title))}</b>: {verdict}"
            f"<table class='railkit-table'><tr><th>{tr('passed')}</th><th class='name'>{tr('rule')}</th>"
            f"<th class='name'>{tr('what the engine checked')}</th></tr>{rows}</table></div>")


# The lessons' look (rows are spaced by the framework's STYLE).
LESSON_STYLE = """
<style>
.railkit-app .railkit-checklist table.railkit-table td, .railkit-app .railkit-answers td { vertical-align: top; }
.railkit-app .railkit-checklist table.railkit-table { margin-top: 4px; }
.railkit-app .railkit-checklist table.railkit-table td { padding: 2px 10px; line-height: 1.35; }
.railkit-app .railkit-checklist tr.fail td { background: #fdecea; }
.railkit-app td.nowrap, .railkit-app th.nowrap { white-space: nowrap; }
.railkit-app ol.railkit-chips { display: flex; flex-wrap: wrap; gap: 4px; list-style: none; padding: 0;
  margin: 4px 0 6px 0; }
.railkit-app ol.railkit-chips li { border: 1px solid #c8c8c8; border-radius: 14px; padding: 1px 10px;
  font-size: 14px; color: #444; background: #fafafa; }
.railkit-app ol.railkit-chips li.done { background: #e6f4ea; border-color: #9ccaa6; color: #14461b; }
.railkit-app ol.railkit-chips li.current { background: #1e63c4; border-color: #1e63c4; color: white;
  font-weight: bold; }
.railkit-app table.railkit-piles tr.dividend td { background: #fff3c4; }
.railkit-app .railkit-deck-tables { display: flex; flex-wrap: wrap; gap: 6px 24px; }
.railkit-app .railkit-step h4 { margin: 6px 0 4px 0; font-size: 18px; }
.railkit-app .widget-toggle-buttons .widget-toggle-button { font-size: 15px; }
.railkit-app .widget-radio-box label { font-size: 16px; }
</style>
"""
