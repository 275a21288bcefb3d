"""Fixtures for the PayApp, Lien/CertPayroll/Tax and estimating apps.

``fixture_golden`` builds a golden file from a small hand-made book (fixture_book.sql) with
hh2 and every app of this brief, exactly as build_golden does (cfab_internal + book + each
app's seed), so the tools, views, rules and guard run end to end without the generator.
``generated_golden`` uses the real book generator when it is available (else skips).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import duckdb
import pytest
from cfab.apps.registry import load_all
from cfab.apps.world.environment import Environment
from cfab.apps.world.golden import BLOCK_SIZE
from cfab.schema.catalog import run_script, schema_ddl
from cfab.seeds.determinism import BuildInputs

HERE = Path(__file__).parent
MY_APPS = ["gcpay", "levelset", "lcptracker", "avalara", "track1099", "corpay", "hcss_heavybid"]


def build_fixture_golden(out: Path, apps: list[str] | None = None) -> Path:
    registry = load_all()
    inputs = BuildInputs()
    con = duckdb.connect()
    try:
        # small blocks, as build_golden does: a ~150-table file stays a few MB (fast to copy per attempt)
        con.execute(f"ATTACH '{out}' AS golden (BLOCK_SIZE {BLOCK_SIZE})")
        con.execute("USE golden")
        run_script(con, schema_ddl("cfab_internal"))
        con.executemany("INSERT INTO cfab_internal.meta VALUES (?, ?)",
                        [("seed", str(inputs.seed)), ("clock", inputs.clock.isoformat()), ("scale", "1")])
        run_script(con, schema_ddl("book"))
        run_script(con, (HERE / "fixture_book.sql").read_text(encoding="utf-8"))
        for name in [a for a in ["hh2", *(apps or MY_APPS)] if a in registry]:
            registry[name].seed(con, inputs)
        con.execute("CHECKPOINT golden")
        con.execute("USE memory")
        con.execute("DETACH golden")
    finally:
        con.close()
    return out


@pytest.fixture(scope="session")
def fixture_golden(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_fixture_golden(tmp_path_factory.mktemp("compliance") / "golden.duckdb")


@pytest.fixture
def open_env(fixture_golden: Path) -> Iterator[Callable[..., Environment]]:
    opened: list[Environment] = []

    def make(apps: list[str]) -> Environment:
        env = Environment.open(apps=apps, golden=fixture_golden)
        opened.append(env)
        return env

    yield make
    for env in opened:
        env.close()


@pytest.fixture(scope="session")
def generated_golden(golden_for: Callable[..., Path]) -> Path:
    return golden_for(["hh2", *MY_APPS])

