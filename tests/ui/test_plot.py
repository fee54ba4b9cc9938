"""``railkit.ui.plot.Plot``: a figure as plotly.js reads it, built without plotly's objects."""

from __future__ import annotations

import pytest

from railkit.ui.plot import NO_TEMPLATE, Plot, merged


def test_layout_updates_merge_nested_settings_as_plotly_does():
    plot = Plot(layout={"title": {"text": "Map", "x": 0.01}, "height": 300})
    plot.update_layout(title=dict(font=dict(size=16)), height=400)
    assert plot.layout_spec == {"title": {"text": "Map", "x": 0.01, "font": {"size": 16}}, "height": 400}
    assert merged({"a": {"b": 1}}, {"a": 2}) == {"a": 2}  # a value replaces a dict


def test_traces_and_annotations_are_appended_in_order():
    plot = Plot().add_trace({"x": [1], "y": [2], "name": "a"}).add_trace({"x": ["p"], "y": [3]}, kind="bar")
    plot.add_annotation(text="one").add_annotation(text="two")
    assert [t["type"] for t in plot.traces] == ["scatter", "bar"]
    assert [a["text"] for a in plot.layout_spec["annotations"]] == ["one", "two"]
    assert plot.to_plotly_json() == {"data": plot.traces, "layout": plot.layout_spec}


def test_read_the_plotly_way_it_is_validated_by_plotly():
    plot = Plot([{"type": "scatter", "x": [1, 2], "y": [3, 4], "name": "trains"}], {"template": NO_TEMPLATE})
    assert list(plot.data[0].y) == [3, 4] and plot.data[0].name == "trains"
    bad = Plot([{"type": "scatter", "x": [1], "colour": "red"}])  # no such property
    with pytest.raises(ValueError, match="colour"):
        _ = bad.data


def test_a_change_after_reading_is_seen_by_the_next_read():
    plot = Plot([{"type": "scatter", "x": [1]}])
    assert plot.layout.height is None
    plot.update_layout(height=250)
    assert plot.layout.height == 250


def test_private_names_are_not_looked_up_in_plotly():
    with pytest.raises(AttributeError):
        _ = Plot()._repr_html_missing
