"""The play lesson's layout puts the map beside the move controls, so a 1366×768 screen shows both (``screen.play_columns``)."""

import ipywidgets as widgets

from railkit.ui.unionpacific.play.screen import play_columns


def test_the_map_sits_beside_the_controls_and_the_tables_below():
    hand, moves, board_map, table, events = (widgets.HTML(name) for name in ("hand", "moves", "map", "table", "events"))
    layout = play_columns(hand, moves, board_map, table, events)
    top, below = layout.children
    left, right = top.children
    assert list(left.children) == [hand, moves] and right is board_map
    assert list(below.children) == [table, events]
    assert top.layout.flex_flow == "row wrap"  # on a narrow screen the map goes below the controls
