"""Every notebook executes headless, top to bottom, without errors (widget state not stored)."""

import pytest
from conftest import NOTEBOOKS_DIR, notebook_ids

from railkit.ui.headless import execute_notebook


@pytest.mark.kernel
@pytest.mark.parametrize("nb", notebook_ids())
def test_notebook_executes_headless(nb):
    notebook = execute_notebook(NOTEBOOKS_DIR / nb)  # raises CellExecutionError on any failing cell
    assert "widgets" not in notebook.metadata
    for cell in notebook.cells:
        for out in cell.get("outputs", []):
            assert out.get("output_type") != "error", f"{nb}: {out.get('ename')}: {out.get('evalue')}"
            if out.get("output_type") == "stream":
                assert out.get("name") != "stderr", f"{nb} wrote to stderr: {out.get('text', '')[:300]}"
