"""Conformance checks for a vendor defined as data (a dialect in a test, rendered by its archetype's
generator and registered for a while): what the suite's fixtures read from the full golden file,
read from any golden file instead, so the suite's check functions can be called on that vendor."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import duckdb


def golden_tables(golden: Path) -> tuple[dict[str, set[str]], dict[str, tuple[str, ...]]]:
    """(schema -> its qualified tables, qualified table -> primary-key columns) of a golden file: the
    arguments of ``test_conformance_registry.test_state_tables_equal_the_golden_file``."""
    con = duckdb.connect(str(golden), read_only=True)
    try:
        tables: dict[str, set[str]] = {}
        for schema, table in con.execute(
            "SELECT schema_name, table_name FROM duckdb_tables() WHERE database_name = current_database()"
        ).fetchall():
            tables.setdefault(schema, set()).add(f"{schema}.{table}")
        pks = {
            f"{s}.{t}": tuple(c)
            for s, t, c in con.execute(
                "SELECT schema_name, table_name, constraint_column_names FROM duckdb_constraints() "
                "WHERE database_name = current_database() AND constraint_type = 'PRIMARY KEY'"
            ).fetchall()
        }
    finally:
        con.close()
    return tables, pks


def foreign_ids(golden: Path, most: int = 150) -> list[Any]:
    """Primary-key values of the apps' records in a golden file (another system's id is an unknown
    or wrong id here): hostile values for the fuzzer, as ``test_conformance_fuzz.foreign_ids``."""
    con = duckdb.connect(str(golden), read_only=True)
    try:
        pks = con.execute(
            "SELECT schema_name, table_name, constraint_column_names[1] FROM duckdb_constraints() "
            "WHERE constraint_type = 'PRIMARY KEY' AND schema_name NOT IN ('book', 'cfab_internal') "
            "ORDER BY 1, 2"
        ).fetchall()
        parts = [f'(SELECT CAST("{c}" AS VARCHAR) FROM "{s}"."{t}" ORDER BY 1 LIMIT 2)' for s, t, c in pks]
        values = sorted({r[0] for r in con.execute(" UNION ".join(parts)).fetchall() if r[0] is not None})
    finally:
        con.close()
    out: list[Any] = values[::3][:most] if len(values) > most else values
    return out + [int(v) for v in out if v.isdigit()][:20]
