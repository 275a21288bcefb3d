"""Fixtures for the Docs (box, sharepoint) and Office (excel, outlook) app tests.

``docs_golden``: a golden file built from the fixture book (tests/fixtures/book.sql) with the
four apps. ``real_golden``: the generated scale-1 book with the four apps. ``open_env`` opens
Environments on either and closes them afterwards.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from tests.apps.docs.docs_helpers import DOC_APPS
from tests.fixtures.envs import environments
from tests.fixtures.golden import build_fixture_golden


@pytest.fixture(scope="session")
def docs_golden(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_fixture_golden(tmp_path_factory.mktemp("docs") / "golden.duckdb", DOC_APPS)


@pytest.fixture(scope="session")
def real_golden(golden_for: Callable[..., Path]) -> Path:
    return golden_for(DOC_APPS)


@pytest.fixture
def open_env():
    """``open_env(golden, apps=DOC_APPS, sql_write=False)`` → an Environment (closed after the test)."""
    with environments() as make:
        yield lambda golden, apps=None, sql_write=False: make(golden, apps or DOC_APPS, sql_write)
