"""Real browser, offline: after the first full render, a click on the map updates the
plot in place through the fast path (``figure_view`` + the template's "fast figure updates" script):
the plot element stays the same node, no new plot is created, and the update shows the right state
(the clicked section as the selected band, the legal sections still highlighted). The background is
drawn once: the basemap image stays the same node and plotly touches no trace for a new selection,
only the band (a layout shape)."""

import pytest
from conftest import ARTIFACTS, hovered, open_app, page_errors, painted, wait_for_kernel, wait_text, wait_until_idle

pytestmark = [pytest.mark.browser, pytest.mark.server, pytest.mark.xdist_group("voila")]

MAP = ".railkit-figure .js-plotly-plot"
# Page position of the middle hit area of a section (plotly's own axis conversions).
POINT_JS = """([sid]) => {
  const gd = document.querySelector('.railkit-figure .js-plotly-plot');
  const trace = gd.data.find(t => t.name === 'section hit areas');
  const i = trace.customdata.indexOf(sid) + 1;
  const fl = gd._fullLayout, box = gd.getBoundingClientRect();
  return [box.left + fl._size.l + fl.xaxis.l2p(trace.x[i]), box.top + fl._size.t + fl.yaxis.l2p(trace.y[i])];
}"""
# The middles (map km) of the sections under a band, a layout shape named `name` ("M ax,ay L bx,by" each).
BAND_JS = """([name]) => {
  const gd = window.railkitPlot;
  const shape = (gd.layout.shapes || []).find(s => s.name === name);
  if (!shape) return null;
  const out = [], re = /M(-?[\\d.]+),(-?[\\d.]+)L(-?[\\d.]+),(-?[\\d.]+)/g;
  let m;
  while ((m = re.exec(shape.path)) !== null) out.push([(+m[1] + +m[3]) / 2, (+m[2] + +m[4]) / 2]);
  return out;
}"""
# The template's script has drawn every fast update it received (Plotly.react is asynchronous).
SETTLED_JS = "() => { const f = window.railkitPlot._railkitFast; return !f.busy && !f.next; }"
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
    wait_text(page, ".railkit-figure:has(.js-plotly-plot)", "legal sections")
    # The template's script holds the plot on screen (it has answered the kernel).
    page.wait_for_function("() => { const gd = document.querySelector('.railkit-figure .js-plotly-plot');"
                           " return gd && gd._railkitFast && gd._railkitFast.render === gd.layout.meta.railkit_render; }",
                           timeout=30000)
    wait_for_kernel(page)  # the kernel has heard the answer ("ready|<render>"), so the click below is an update
    page.evaluate("() => { window.railkitPlot = document.querySelector('.railkit-figure .js-plotly-plot');"
                  " window.railkitPlots = document.querySelectorAll('.js-plotly-plot').length; }")
    render = page.evaluate("() => window.railkitPlot.layout.meta.railkit_render")
    # Watch what plotly changes in the traces' layer, and keep the basemap image's node.
    page.evaluate("""() => { const gd = window.railkitPlot;
      window.railkitImage = gd.querySelector('.imagelayer image');
      window.railkitTraceChanges = 0;
      new MutationObserver(r => { window.railkitTraceChanges += r.length; })
        .observe(gd.querySelector('.scatterlayer'), {subtree: true, childList: true, attributes: true}); }""")

    section_id = page.evaluate(SECTION_JS, "Helena–Salt Lake City")
    x, y = page.evaluate(POINT_JS, [section_id])
    page.mouse.move(x, y)
    hovered(page, MAP, section_id)
    page.mouse.click(x, y)
    page.wait_for_function("() => (window.railkitPlot.layout.shapes || []).some(s => s.name === 'selected section')",
                           timeout=15000, polling="raf")
    page.wait_for_function(SETTLED_JS, timeout=15000, polling="raf")  # drawn to the end before counting below
    state = page.evaluate("""() => {
      const gd = window.railkitPlot;
      return {same: document.querySelector('.railkit-figure .js-plotly-plot') === gd, connected: gd.isConnected,
              plots: document.querySelectorAll('.js-plotly-plot').length, seq: gd._railkitFast.seq,
              render: gd.layout.meta.railkit_render, names: gd.data.map(t => t.name),
              shapes: gd.layout.shapes.map(s => s.name),
              drawn: gd.querySelectorAll('.scatterlayer .trace').length,
              drawnShapes: gd.querySelectorAll('.shapelayer path[data-index]').length,
              image: gd.querySelector('.imagelayer image') === window.railkitImage && !!window.railkitImage};
    }""")
    # The same plot element, updated in place: no full render happened.
    assert state["same"] and state["connected"] and state["render"] == render and state["seq"] >= 1
    assert state["plots"] == page.evaluate("() => window.railkitPlots")
    # The state shown is right: the clicked section is the selected band, the legal band stays (both
    # shapes, purple under magenta, each named in the legend by a trace).
    assert state["shapes"] == ["selected section", "legal sections"]
    assert state["names"][:2] == ["selected section", "legal sections"]
    hits = page.evaluate("() => window.railkitPlot.data.find(t => t.name === 'section hit areas')")
    i = hits["customdata"].index(section_id)
    [(bx, by)] = page.evaluate(BAND_JS, ["selected section"])
    assert abs(bx - hits["x"][i + 1]) < 1 and abs(by - hits["y"][i + 1]) < 1  # the section's middle
    assert state["drawn"] == len(state["names"]) and state["drawnShapes"] == 2  # everything is drawn
    assert state["image"]  # the basemap image was drawn once, by the full render
    # A second click on another legal section: again only the band moves, no trace is redrawn.
    other = page.evaluate(SECTION_JS, "Spokane–Helena")
    # The first selection added the band's legend entry (a new trace: plotly replots everything); wait until
    # that update is drawn completely before counting.
    wait_for_kernel(page)  # every update the kernel sent has been applied ...
    page.wait_for_function(SETTLED_JS, timeout=15000, polling="raf")  # ... and drawn
    page.evaluate("() => { window.railkitTraceChanges = 0; }")
    x, y = page.evaluate(POINT_JS, [other])
    page.mouse.move(x, y)
    hovered(page, MAP, other)
    page.mouse.click(x, y)
    j = hits["customdata"].index(other)
    moved = """([x, y]) => { const b = (BAND_FN)(['selected section']);
      return b && b.length === 1 && Math.abs(b[0][0] - x) < 1 && Math.abs(b[0][1] - y) < 1; }"""
    page.wait_for_function(moved.replace("BAND_FN", BAND_JS),
                           arg=[hits["x"][j + 1], hits["y"][j + 1]], timeout=15000, polling="raf")
    # The band has moved; let the update (and any queued after it) finish drawing before saying no trace changed.
    wait_for_kernel(page)
    page.wait_for_function(SETTLED_JS, timeout=15000, polling="raf")
    last = page.evaluate("""() => { const m = JSON.parse(document.querySelector('.railkit-figure-update script').textContent);
      return {seq: m.seq, layout: Object.keys(m.layout), whole: m.data.filter(t => typeof t !== 'string').map(t => t.name)}; }""")
    assert page.evaluate("() => window.railkitTraceChanges") == 0, last  # no trace redrawn, only the band
    assert page.evaluate("() => document.querySelector('.railkit-figure .js-plotly-plot') === window.railkitPlot")
    wait_text(page, ".railkit-checklist-box", "Spokane")
    # Back to the first section for the checks below.
    x, y = page.evaluate(POINT_JS, [section_id])
    page.mouse.move(x, y)
    hovered(page, MAP, section_id)
    page.mouse.click(x, y)
    # Wait for this click's own answer (the band back on the first section): the Spokane checklist also
    # names UP-B2e, so the checklist alone does not say the click has been heard.
    page.wait_for_function(moved.replace("BAND_FN", BAND_JS), arg=[hits["x"][i + 1], hits["y"][i + 1]],
                           timeout=15000, polling="raf")
    page.wait_for_function("() => document.querySelector('.railkit-section select').selectedOptions[0]"
                           ".textContent.replace(/\\u00a0/g, ' ').includes('Helena–Salt Lake City')", timeout=15000)
    wait_text(page, ".railkit-checklist-box", "UP-B2e")
    chosen = page.eval_on_selector(".railkit-section select", "s => s.options[s.selectedIndex].textContent")
    assert chosen.replace("\xa0", " ").startswith("✔ Helena–Salt Lake City"), chosen
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    painted(page)
    page.screenshot(path=str(ARTIFACTS / "map_redraw_fast_1366.png"))
    assert page_errors(page) == []

    # The legend entry of the magenta band still hides it (the entry and the shape are one legend group),
    # and a new selection leaves it hidden.
    page.locator(".railkit-figure .legend .traces", has_text="legal sections").locator(".legendtoggle").click()
    hidden = "() => window.railkitPlot._fullLayout.shapes.find(s => s.name === 'legal sections').visible === 'legendonly'"
    page.wait_for_function(hidden, timeout=5000)
    x, y = page.evaluate(POINT_JS, [other])
    page.mouse.move(x, y)
    hovered(page, MAP, other)
    page.mouse.click(x, y)
    page.wait_for_function(moved.replace("BAND_FN", BAND_JS), arg=[hits["x"][j + 1], hits["y"][j + 1]],
                           timeout=15000, polling="raf")
    assert page.evaluate(hidden)
    assert page_errors(page) == []
