"""Fixtures for the Docs (box, sharepoint) and Office (excel, outlook) app tests.

``docs_golden``: a golden file built from the hand-made fixture book (docs_fixture.py) with
the four apps. ``real_golden``: the generated scale-1 book with the four apps (skipped, with
the reason, until ``cfab.seeds.build_book`` can build it). ``open_env`` opens Environments
on either and closes them afterwards.
"""

from __future__ import annotations

import sys
import traceback
from pathlib import Path
from typing import Callable, Iterator

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from docs_fixture import DOC_APPS, build_fixture_golden  # noqa: E402

from cfab.apps.world.environment import Environment  # noqa: E402


@pytest.fixture(scope="session")
def docs_golden(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_fixture_golden(tmp_path_factory.mktemp("docs") / "golden.duckdb", DOC_APPS)


@pytest.fixture(scope="session")
def real_golden(golden_for: Callable[..., Path]) -> Path:
    try:
        from cfab.seeds import build_book  # noqa: F401
    except ImportError as exc:
        pytest.skip(f"cfab.seeds.build_book is not available yet ({exc})")
    try:
        return golden_for(DOC_APPS)
    except Exception as exc:
        # a failure inside our own apps is a failure; one inside the generator (still landing) is a skip
        frames = traceback.extract_tb(exc.__traceback__)
        if any(("/apps/docs/" in f.filename or "/apps/office/" in f.filename) for f in frames):
            raise
        pytest.skip(f"the real scale-1 golden could not be built ({type(exc).__name__}: {exc})")


@pytest.fixture
def open_env() -> Iterator[Callable[..., Environment]]:
    opened: list[Environment] = []

    def make(golden: Path, apps: list[str] | None = None, sql_write: bool = False) -> Environment:
        env = Environment.open(apps=apps or DOC_APPS, golden=golden, sql_write=sql_write)
        opened.append(env)
        return env

    yield make
    for env in opened:
        env.close()
