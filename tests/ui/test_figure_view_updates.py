"""FigureView's fast path, headless: a full render first; updates (changed traces whole,
unchanged ones by uid, the layout) only once the template's script has answered for the render on
screen; a full render again whenever the browser cannot be trusted to hold the base."""

import json
import re

import plotly.graph_objects as go
import pytest

from railkit.ui import figure_view
from railkit.ui.figure_view import ACK_CLASS, MIME, UPDATE_CLASS, FigureView, script_html, with_uids
from railkit.ui.unionpacific.board_map import band_sections, building_map
from railkit.unionpacific import load_board


def figure(selected_x=1.0, title="t"):
    return go.Figure([go.Scatter(x=[0, 1, 2], y=[0, 1, 0], name="basemap"),
                      go.Scatter(x=[selected_x], y=[1], name="selected")], layout=dict(title=title))


def message(view):
    """The update the hidden HTML widget carries, parsed."""
    match = re.fullmatch(r'<script type="application/json">(.*)</script>', view.channel.value, re.S)
    assert match, view.channel.value[:200]
    return json.loads(match.group(1))


def on_screen(view):
    return view.output.outputs[0]["data"][MIME]


def answer(view, kind="ready", render=None, n=1):
    view.ack.value = f"{kind}|{render or on_screen(view)['layout']['meta']['railkit_render']}|{n}"


def test_the_first_show_is_a_full_render_with_uids_and_the_render_id():
    view = FigureView()
    fig = figure()
    view.show(fig)
    shown = on_screen(view)
    assert view.figure is fig and (view.renders, view.full_renders, view.updates) == (1, 1, 0)
    assert [t["name"] for t in shown["data"]] == ["basemap", "selected"]
    assert all(t["uid"] for t in shown["data"]) and shown["layout"]["meta"]["railkit_render"] == "r1"
    assert shown["config"]["displaylogo"] is False and view.channel.value == ""
    assert "railkit-figure" in view.widget._dom_classes and view.output in view.widget.children
    assert UPDATE_CLASS in view.channel._dom_classes and ACK_CLASS in view.ack._dom_classes
    assert view.channel.layout.display == "none" and view.ack.layout.display == "none"


def test_without_an_answer_every_show_renders_in_full():
    """JupyterLab, headless runs, a static page without railkit's template: nobody answers."""
    view = FigureView()
    view.show(figure())
    view.show(figure(2.0))
    assert (view.full_renders, view.updates) == (2, 0) and view.channel.value == ""
    assert on_screen(view)["data"][1]["x"] == [2.0]


def test_once_the_script_answers_a_show_sends_only_what_changed():
    view = FigureView()
    view.show(figure())
    outputs = view.output.outputs
    base_uids = [t["uid"] for t in on_screen(view)["data"]]
    answer(view)
    assert view.live
    fig = figure(2.0, title="now")
    view.show(fig)
    assert view.output.outputs is outputs  # the Output is not touched: no full render
    assert (view.renders, view.full_renders, view.updates) == (2, 1, 1) and view.figure is fig
    msg = message(view)
    assert msg["render"] == "r1" and msg["seq"] == 1
    basemap, selected = msg["data"]
    assert basemap == base_uids[0]  # unchanged: named by uid only
    assert selected["x"] == [2.0] and selected["uid"] != base_uids[1]  # changed: sent whole
    assert msg["layout"]["title"]["text"] == "now" and "meta" in msg["keep"]  # meta: unchanged, kept
    view.show(figure(1.0, title="back"))  # the first selected trace is still in the browser's cache
    msg = message(view)
    assert msg["seq"] == 2 and msg["data"] == base_uids


def test_an_update_carries_only_the_layout_keys_that_changed():
    """Unchanged keys are named in ``keep``: the script hands plotly the objects it already holds, so
    ``Plotly.react`` does not replot every trace for a fresh but equal template or axis."""
    view = FigureView()
    view.show(go.Figure(layout=dict(title="a", xaxis=dict(range=[0, 1]), shapes=[dict(type="line", x0=0)])))
    answer(view)
    view.show(go.Figure(layout=dict(title="a", xaxis=dict(range=[0, 1]), shapes=[dict(type="line", x0=1)])))
    msg = message(view)
    assert list(msg["layout"]) == ["shapes"] and msg["layout"]["shapes"][0]["x0"] == 1
    assert {"title", "xaxis", "meta", "template"} <= set(msg["keep"])
    view.show(go.Figure(layout=dict(title="b", shapes=[dict(type="line", x0=1)])))  # against the last update
    msg = message(view)
    assert list(msg["layout"]) == ["title"] and "xaxis" not in msg["keep"] and "shapes" in msg["keep"]


def test_an_answer_for_an_older_render_does_not_count():
    view = FigureView()
    view.show(figure())
    view.show(figure(2.0))  # r2, not answered yet
    answer(view, render="r1")
    assert not view.live
    view.show(figure(3.0))
    assert (view.full_renders, view.updates) == (3, 0)


def test_a_miss_renders_the_last_figure_in_full():
    view = FigureView()
    view.show(figure())
    answer(view)
    view.show(figure(5.0))
    assert view.updates == 1
    answer(view, "miss", "r1", 2)
    assert view.full_renders == 2 and not view.live
    assert on_screen(view)["data"][1]["x"] == [5.0] and on_screen(view)["layout"]["meta"]["railkit_render"] == "r2"


def test_the_environment_switch_forces_full_renders(monkeypatch):
    monkeypatch.setenv("RAILKIT_FULL_REDRAW", "1")
    view = FigureView()
    view.show(figure())
    answer(view)
    view.show(figure(2.0))
    assert (view.full_renders, view.updates) == (2, 0)


def test_the_browser_cache_is_bounded_by_a_full_render(monkeypatch):
    monkeypatch.setattr(figure_view, "MAX_KNOWN_TRACES", 4)
    view = FigureView()
    view.show(figure())
    answer(view)
    view.show(figure(2.0))  # 2 known + 2 → 4: an update
    view.show(figure(3.0))  # 3 known + 2 > 4: a full render starts afresh
    assert (view.full_renders, view.updates) == (2, 1)


def test_uids_follow_the_content_and_stay_unique():
    same = {"type": "scatter", "x": [1], "y": [2]}
    (a, _), (b, _), (c, text) = with_uids([same, dict(same), {"type": "scatter", "x": [1], "y": [3], "uid": "old"}])
    assert a != b and b.startswith(a) and c not in (a, b)
    assert json.loads(text)["uid"] == c
    assert with_uids([dict(same)])[0][0] == a  # the same content, the same uid, in another figure


def test_update_text_cannot_close_its_script_element():
    hostile = "</script><img src=x onerror=alert(1)>"
    view = FigureView()
    view.show(figure(title="a"))
    answer(view)
    view.show(figure(title=hostile))
    assert view.channel.value.count("</script>") == 1 and "<img" not in view.channel.value
    assert message(view)["layout"]["title"]["text"] == hostile
    assert script_html('{"a":"<"}') == '<script type="application/json">{"a":"\\u003c"}</script>'


@pytest.fixture(scope="module")
def board():
    return load_board()


def test_a_new_selection_on_the_up_map_sends_a_small_update(board):
    legal = list(board.sections)[:3]
    view = FigureView()
    view.show(building_map(board, {}, highlight=legal, clickable=True, title="pick"))
    full = len(json.dumps(on_screen(view)))
    answer(view)
    view.show(building_map(board, {}, highlight=legal, selected=legal[1], clickable=True, title="pick"))
    msg = message(view)
    whole = [t["name"] for t in msg["data"] if isinstance(t, dict)]
    assert whole == ["selected section"]  # its legend entry, new; sections, spaces, hit areas: by uid
    assert list(msg["layout"]) == ["shapes"]  # the bands; the basemap image, title and axes are kept
    assert {"images", "title", "xaxis", "yaxis", "annotations"} <= set(msg["keep"])
    assert len(view.channel.value) < full / 20
    assert [t.name for t in view.figure.data][:2] == ["selected section", "legal sections"]
    assert band_sections(board, view.figure.layout, "selected section") == [legal[1]]
    view.show(building_map(board, {}, highlight=legal, selected=legal[2], clickable=True, title="pick"))
    msg = message(view)  # another selection: the traces all by uid, only the shapes sent
    assert all(isinstance(t, str) for t in msg["data"]) and list(msg["layout"]) == ["shapes"]
    assert len(view.channel.value) < 1500  # uids, the two band paths and the kept keys


def test_up_map_trace_dicts_are_shared_but_figures_are_independent(board):
    one = building_map(board, {}, clickable=True)
    two = building_map(board, {}, clickable=True)
    one.data[0].name = "changed"
    assert two.data[0].name != "changed" and building_map(board, {}).data[0].name != "changed"
