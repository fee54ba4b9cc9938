"""The notebooks as files, and the serving/Binder configuration they rely on."""

import json
import re

import nbformat
import pytest
from conftest import NOTEBOOKS_DIR, ROOT, notebook_ids

from railkit.lessons import LAB_NOTEBOOKS
from railkit.lessons import LESSONS as REGISTRY

NOTEBOOKS = notebook_ids()
LESSONS = ["index"] + [x.id for x in REGISTRY]  # the index, then every lesson of railkit/lessons.py


def load(nb):
    return nbformat.read(NOTEBOOKS_DIR / nb, as_version=4)


def test_the_suite_has_its_index_and_first_lesson():
    assert {"index.ipynb", "up_dividends.ipynb", "rulings.ipynb"} <= set(NOTEBOOKS)


@pytest.mark.parametrize("nb", NOTEBOOKS)
def test_notebook_is_valid_and_stored_without_outputs(nb):
    notebook = load(nb)
    nbformat.validate(notebook)
    for cell in notebook.cells:
        if cell.cell_type == "code":
            assert cell.outputs == [], f"{nb}: a code cell has stored outputs (strip them before committing)"
            assert cell.execution_count is None, f"{nb}: a code cell has an execution count"
    assert "widgets" not in notebook.metadata, f"{nb}: stored widget state (strip it)"
    assert notebook.metadata.get("kernelspec", {}).get("name") == "python3"


def test_index_links_every_lesson_with_relative_links():
    text = "".join(c.source for c in load("index.ipynb").cells if c.cell_type == "markdown")
    links = set(re.findall(r"\]\(([^)#?]+\.ipynb)\)", text))
    assert all(not link.startswith(("/", "http")) for link in links), "links must be relative (Voila and JupyterLab)"
    for lesson in LESSONS[1:] + ["rulings", *LAB_NOTEBOOKS]:
        assert f"{lesson}.ipynb" in links, f"index.ipynb does not link {lesson}.ipynb"
    unlinked = [nb for nb in NOTEBOOKS if nb != "index.ipynb" and nb not in links]
    assert not unlinked, f"add these notebooks to index.ipynb: {unlinked}"


@pytest.mark.parametrize("nb", [n for n in NOTEBOOKS if n != "index.ipynb"])
def test_every_lesson_links_back_to_the_index(nb):
    text = "".join(c.source for c in load(nb).cells if c.cell_type == "markdown")
    assert "(index.ipynb)" in text


def test_dividends_lesson_states_goals_and_rule_ids():
    text = "".join(c.source for c in load("up_dividends.ipynb").cells if c.cell_type == "markdown")
    assert "Goals" in text
    for n in range(2, 12):
        assert f"UP-D{n}" in text
    code = [c.source for c in load("up_dividends.ipynb").cells if c.cell_type == "code"]
    assert code == ["from railkit.ui.unionpacific.dividends import DividendsApp; DividendsApp()"]


def test_voila_json_keeps_sources_and_tracebacks_hidden_preheats_and_culls():
    conf = json.loads((NOTEBOOKS_DIR / "voila.json").read_text())
    vc = conf["VoilaConfiguration"]
    assert vc["template"] == "railkit"
    assert vc["strip_sources"] is True and vc["show_tracebacks"] is False
    assert vc["preheat_kernel"] is True and vc["default_pool_size"] >= 1
    cull = conf["MappingKernelManager"]
    # A closed lesson's kernel goes after a few minutes; an open one stays (cull_connected false). railkit's
    # kernel manager keeps a preheated kernel just handed to a page from being culled before it connects.
    assert 120 <= cull["cull_idle_timeout"] <= 600 and 0 < cull["cull_interval"] <= 120
    assert cull["cull_connected"] is False and cull["cull_busy"] is False
    assert vc["multi_kernel_manager_class"] == "railkit.ui.voila_template.kernels.RailkitKernelManager"


def test_voila_template_has_no_cdn_links_and_says_when_a_lesson_went_to_sleep():
    from railkit.ui.voila_template import SOURCE

    assert "This lesson went to sleep after a few minutes without use" in (SOURCE / "index.html.j2").read_text()
    for path in SOURCE.iterdir():
        text = path.read_text()
        assert not re.search(r"https?://", text.split("-#}", 1)[-1]), f"{path.name} links an external URL"


def _pins(path):
    return sorted(line.strip() for line in path.read_text().splitlines() if line.strip() and not line.startswith("#"))


def test_binder_installs_exactly_the_lock():
    assert _pins(ROOT / "binder" / "requirements.txt") == _pins(ROOT / "requirements.lock")


def test_binder_post_build_is_strict_and_installs_railkit_without_deps():
    text = (ROOT / "binder" / "postBuild").read_text()
    lines = [line for line in text.splitlines() if line.strip() and not line.startswith("#")]
    assert lines[0] == "set -e"
    assert "pip install --no-deps -e ." in text


def test_readme_has_both_binder_badges():
    readme = (ROOT / "README.md").read_text()
    assert "urlpath=voila/render/notebooks/index.ipynb" in readme
    assert "urlpath=lab/tree/notebooks/index.ipynb" in readme
