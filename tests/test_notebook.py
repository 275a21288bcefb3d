"""The example notebook runs top to bottom (so it never rots)."""

from __future__ import annotations

from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

NOTEBOOK = Path(__file__).resolve().parents[1] / "examples" / "inspect_attempt.ipynb"


def test_inspect_attempt_notebook_runs(tmp_path: Path) -> None:
    nb = nbformat.read(NOTEBOOK, as_version=4)
    try:
        NotebookClient(
            nb, timeout=900, kernel_name="python3", resources={"metadata": {"path": str(tmp_path)}}
        ).execute()
    except Exception as exc:  # show the failing cell's output, not just the kernel error
        pytest.fail(f"notebook failed: {exc}")
    outputs = "\n".join(
        str(o.get("text", "")) + str(o.get("data", {}).get("text/plain", ""))
        for c in nb.cells
        if c.cell_type == "code"
        for o in c.get("outputs", [])
    )
    assert "crossed the money-movement line" in outputs or "guard" in outputs.lower()
    assert "re-graded: False" in outputs
