"""Real browser, offline (issue 10 item 4): after the first full render, a click on the map updates the
plot in place through the fast path (``figure_view`` + the template's "fast figure updates" script):
the plot element stays the same node, no new plot is created, and the update shows the right state
(the clicked section as the selected band, the legal sections still highlighted)."""

import pytest
from conftest import ARTIFACTS, open_app, page_errors, wait_text, wait_until_idle

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("voila")]

MAP = ".railkit-figure .js-plotly-plot"
# Page position of the middle hit area of a section (plotly's own axis conversions).
POINT_JS = """([sid]) => {
  const gd = document.querySelector('.railkit-figure .js-plotly-plot');
  const trace = gd.data.find(t => t.name === 'section hit areas');
  const i = trace.customdata.indexOf(sid) + 1;
  const fl = gd._fullLayout, box = gd.getBoundingClientRect();
  return [box.left + fl._size.l + fl.xaxis.l2p(trace.x[i]), box.top + fl._size.t + fl.yaxis.l2p(trace.y[i])];
}"""
SECTION_JS = """(label) => {
  const gd = document.querySelector('.railkit-figure .js-plotly-plot');
  const t = gd.data.find(t => t.name === 'section hit areas');
  return t.customdata[t.text.findIndex(s => s.startsWith(label))];
}"""


def test_a_click_updates_the_map_in_place(voila_server, offline_page):
    page = offline_page.page
    page.set_viewport_size({"width": 1366, "height": 768})
    wait_until_idle(voila_server)
    open_app(page, voila_server.url("up_building.ipynb"))
    page.wait_for_selector(MAP, timeout=30000)
    page.select_option(".railkit-company select", label="Billings Northern Lights (red)")
    page.click(".railkit-card button:text-is('Mountain')")
    wait_text(page, ".railkit-legal", "legal sections for the Billings Northern Lights")
    wait_text(page, ".railkit-figure", "legal sections")
    # The template's script holds the plot on screen (it has answered the kernel).
    page.wait_for_function("() => { const gd = document.querySelector('.railkit-figure .js-plotly-plot');"
                           " return gd && gd._railkitFast && gd._railkitFast.render === gd.layout.meta.railkit_render; }",
                           timeout=30000)
    page.wait_for_timeout(500)  # the kernel hears the answer
    page.evaluate("() => { window.railkitPlot = document.querySelector('.railkit-figure .js-plotly-plot');"
                  " window.railkitPlots = document.querySelectorAll('.js-plotly-plot').length; }")
    render = page.evaluate("() => window.railkitPlot.layout.meta.railkit_render")

    section_id = page.evaluate(SECTION_JS, "Helena–Salt Lake City")
    x, y = page.evaluate(POINT_JS, [section_id])
    page.mouse.move(x, y)
    page.wait_for_timeout(300)
    page.mouse.click(x, y)
    page.wait_for_function("() => window.railkitPlot.data.some(t => t.name === 'selected section')",
                           timeout=15000, polling="raf")
    state = page.evaluate("""() => {
      const gd = window.railkitPlot;
      return {same: document.querySelector('.railkit-figure .js-plotly-plot') === gd, connected: gd.isConnected,
              plots: document.querySelectorAll('.js-plotly-plot').length, seq: gd._railkitFast.seq,
              render: gd.layout.meta.railkit_render, names: gd.data.map(t => t.name),
              selected: gd.data.find(t => t.name === 'selected section'),
              legal: gd.data.find(t => t.name === 'legal sections'),
              drawn: gd.querySelectorAll('.scatterlayer .trace').length};
    }""")
    # The same plot element, updated in place: no full render happened.
    assert state["same"] and state["connected"] and state["render"] == render and state["seq"] >= 1
    assert state["plots"] == page.evaluate("() => window.railkitPlots")
    # The state shown is right: the clicked section is the selected band, the legal band stays.
    assert state["names"][:2] == ["basemap", "selected section"] and state["legal"] is not None
    hits = page.evaluate("() => window.railkitPlot.data.find(t => t.name === 'section hit areas')")
    i = hits["customdata"].index(section_id)
    sx, sy = state["selected"]["x"], state["selected"]["y"]
    mx, my = hits["x"][i + 1], hits["y"][i + 1]  # the section's middle lies on the band
    assert min(sx) - 1 <= mx <= max(sx) + 1 and min(sy) - 1 <= my <= max(sy) + 1
    assert state["drawn"] == len(state["names"])  # plotly drew every trace of the update
    wait_text(page, ".railkit-checklist-box", "UP-B2e")
    chosen = page.eval_on_selector(".railkit-section select", "s => s.options[s.selectedIndex].textContent")
    assert chosen.replace("\xa0", " ").startswith("✔ Helena–Salt Lake City"), chosen
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.wait_for_timeout(500)
    page.screenshot(path=str(ARTIFACTS / "map_redraw_fast_1366.png"))
    assert page_errors(page) == []
