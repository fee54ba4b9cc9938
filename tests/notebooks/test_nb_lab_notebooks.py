"""The strategy-lab notebooks run top to bottom in a kernel, as JupyterLab runs them, in a translated copy (the English
ones run in test_nb_execute.py): the ladder rates every player, the charts and the replay are there."""

import json

import nbformat
import pytest
from conftest import NOTEBOOKS_DIR

from railkit.ui.headless import execute_notebook

CHECK = """
import json
from railkit.ui.i18n import get_language
assert {r.name for r in run.table} == set(run.spec.bots) and len(run.records) == GAMES
assert all(r.ci95[0] < r.mu < r.ci95[1] for r in run.table)
assert set(ratings_figure.traces[0]["y"]) == set(run.spec.bots) and "error_x" in ratings_figure.traces[0]
assert {t["name"] for t in seats_figure.traces} == set(run.spec.bots)
assert replay.steps[-1].view.is_over and replay.board.figure is not None
print(json.dumps({"rated": sorted(r.name for r in run.table), "language": get_language(), "yours": run.yours}))
"""


@pytest.mark.kernel
@pytest.mark.parametrize("nb, language, yours", [("fi/kk_lab.ipynb", "fi", "mine:one_under_the_coin"),
                                                 ("es/up_lab.ipynb", "es", "mine:most_trains")])
def test_a_lab_notebook_rates_the_learners_player_and_draws_its_charts(nb, language, yours, tmp_path):
    notebook = nbformat.read(NOTEBOOKS_DIR / nb, as_version=4)
    notebook.cells.append(nbformat.v4.new_code_cell(CHECK))
    path = tmp_path / nb.split("/")[1]
    nbformat.write(notebook, path)
    done = execute_notebook(path)
    outputs = [out for cell in done.cells for out in cell.get("outputs", [])]
    assert not [o for o in outputs if o.get("output_type") == "error" or o.get("name") == "stderr"]
    played = next(c for c in done.cells if "run = play(" in c.source)
    assert any("application/vnd.jupyter.widget-view+json" in o.get("data", {}) for o in played.outputs)  # tqdm's bar
    last = json.loads(done.cells[-1].outputs[-1]["text"])
    assert last["language"] == language and last["yours"] == yours and len(last["rated"]) == 4
