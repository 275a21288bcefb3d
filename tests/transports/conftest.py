"""Fixtures for the transport tests: one golden file over hh2 + vista_erp, the hand-built tasks."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.transports.transport_tasks import APPS, all_tasks


@pytest.fixture(scope="session")
def golden(golden_for) -> Path:
    """A scale-1 golden file with only hh2 and vista_erp (what the hand-built tasks use)."""
    return golden_for(APPS)


@pytest.fixture(scope="session")
def tasks(golden: Path) -> dict:
    """The hand-built tasks, keyed "single", "multi", "guarded" (keys read from the golden file)."""
    return all_tasks(golden)
