"""Small pieces shared by the Union Pacific lessons (building, setting up): names and labels.

Only presentation lives here; every verdict comes from the engine (``railkit.unionpacific``).
"""

from __future__ import annotations

import html
from typing import Any, Mapping

from railkit.ui.i18n import tr
from railkit.unionpacific import GENERAL, TRACK_TYPES, Board
from railkit.unionpacific.dividends import UP

TRACK_CARDS: tuple[str, ...] = (*TRACK_TYPES, GENERAL)


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
    return tr("{section} · {track} · {spaces} spaces", section=section.name,
              track=card_label(board, section.track_type), spaces=section.spaces)


# ipywidgets 8.1's Layout has no ``gap``; these lessons space their rows with CSS instead.
LESSON_STYLE = """
<style>
.railkit-app .railkit-row { gap: 8px; flex-wrap: wrap; align-items: center; }
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


def row(children: list[Any], **layout: Any) -> Any:
    """An HBox whose children are spaced and wrap (class ``railkit-row``, see ``LESSON_STYLE``)."""
    import ipywidgets as widgets

    box = widgets.HBox(children, layout=widgets.Layout(**layout))
    box.add_class("railkit-row")
    return box
