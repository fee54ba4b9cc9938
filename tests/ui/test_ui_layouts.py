"""No two widgets of an app share one Layout object.

ipywidgets hides a widget through its layout (``layout.display = "none"``); two widgets sharing a
layout therefore hide and show together. The play app once hid its Company and Section pickers
whenever the invest picker was hidden (a learner with no shares could not build from the screen).
"""

import collections

import ipywidgets as widgets
import pytest

from railkit.ui.capecairo.auction import KkAuctionApp
from railkit.ui.capecairo.play import KkPlayApp
from railkit.ui.unionpacific.building import BuildingApp
from railkit.ui.unionpacific.dividends import DividendsApp
from railkit.ui.unionpacific.play import PlayApp
from railkit.ui.unionpacific.setup import SetupApp


def _widgets(root, seen=None):
    seen = set() if seen is None else seen
    if id(root) in seen:
        return
    seen.add(id(root))
    yield root
    for child in getattr(root, "children", ()) or ():
        yield from _widgets(child, seen)


@pytest.mark.parametrize("app_class", [PlayApp, BuildingApp, SetupApp, DividendsApp, KkAuctionApp, KkPlayApp])
def test_no_layout_is_shared_between_widgets(app_class):
    app = app_class()
    owners = collections.defaultdict(list)
    for w in _widgets(app.widget):
        if isinstance(w, widgets.DOMWidget):
            owners[id(w.layout)].append(w)
    shared = [[type(w).__name__ for w in ws] for ws in owners.values() if len(ws) > 1]
    assert not shared, f"widgets sharing one Layout (they hide together): {shared}"


def test_play_app_build_pickers_stay_visible_when_the_invest_picker_hides():
    app = PlayApp()
    app.moves.invest_pick.layout.display = "none"
    assert app.moves.build.company.layout.display != "none"
    assert app.moves.build.section.layout.display != "none"
