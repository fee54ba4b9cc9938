"""Voila serves every notebook as an app, with the project's voila.json really in effect."""

import json
import shutil

import nbformat
import pytest
from conftest import ARTIFACTS, ERROR_PAGE_TEXT, NOTEBOOKS_DIR, http_get, notebook_ids, start_voila, wait_for_pools
from nbformat.v4 import new_code_cell, new_notebook

pytestmark = [pytest.mark.server, pytest.mark.xdist_group("voila")]
CDN_HINTS = ("cdn.jsdelivr.net", "cdnjs.cloudflare.com", "unpkg.com", "cdn.plot.ly")


@pytest.mark.parametrize("nb", notebook_ids())
def test_voila_renders_notebook_without_error_sources_or_cdn(voila_server, nb):
    status, body = http_get(voila_server.url(nb), timeout=120)
    assert status == 200
    assert ERROR_PAGE_TEXT not in body, f"{nb} failed in Voila"
    for hint in CDN_HINTS:
        assert hint not in body, f"{nb}: page links {hint}"
    notebook = nbformat.read(NOTEBOOKS_DIR / nb, as_version=4)
    for cell in notebook.cells:
        if cell.cell_type == "code" and cell.source.strip():
            assert cell.source.strip() not in body, f"{nb}: code is shown (strip_sources not in effect)"


def test_voila_tree_page_lists_notebooks_without_cdn(voila_server):
    status, body = http_get(voila_server.base + "/voila/tree", timeout=60)
    assert status == 200  # the listing itself is drawn by Voila's tree page script
    for hint in CDN_HINTS:
        assert hint not in body


def test_voila_preheats_kernels_and_culls_idle_ones(voila_server):
    log = voila_server.log()
    culler = json.loads((NOTEBOOKS_DIR / "voila.json").read_text())["MappingKernelManager"]
    assert (f"Culling kernels with idle durations > {culler['cull_idle_timeout']} seconds "
            f"at {culler['cull_interval']} second intervals") in log
    for nb in notebook_ids():
        assert f"Kernel pool of {nb} is filled" in log


def test_voila_hides_tracebacks_with_the_project_config(tmp_path):
    shutil.copy(NOTEBOOKS_DIR / "voila.json", tmp_path / "voila.json")
    nb = new_notebook(cells=[new_code_cell("secret_marker = 1\nraise RuntimeError('boom-detail')")],
                      metadata={"kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}})
    nbformat.write(nb, tmp_path / "broken.ipynb")
    server = start_voila(tmp_path, ARTIFACTS / "voila_broken.log")
    try:
        wait_for_pools(server, ["broken.ipynb"], timeout=60)
        status, body = http_get(server.url("broken.ipynb"), timeout=120)
    finally:
        server.stop()
    assert status == 200
    assert ERROR_PAGE_TEXT in body  # the error is reported ...
    assert "boom-detail" not in body and "Traceback" not in body  # ... without the traceback
    assert "secret_marker" not in body  # and without the source


def test_kernels_talk_over_unix_sockets_so_a_class_never_collides_on_a_port(voila_server):
    # With TCP, jupyter_client picks each kernel's five ports before the kernel binds them; 70 kernels
    # starting at once (`make run CLASS=60`) once drew a port twice: that kernel died, its pool slot was
    # refilled and one learner of 60 got a page with no kernel (benchmarks/apps.py, docs/benchmarks.md).
    import json
    import re
    from pathlib import Path

    status, _ = http_get(voila_server.url("up_play.ipynb"), timeout=120)
    assert status == 200
    log = voila_server.log()
    folder = Path(re.search(r"Storing connection files in (\S+?)\.?$", log, re.M).group(1))
    files = list(folder.glob("kernel-*.json"))
    assert files, log
    for file in files:
        info = json.loads(file.read_text())
        assert info["transport"] == "ipc" and info["ip"].startswith(str(folder)), info
    assert "running over TCP" not in log
