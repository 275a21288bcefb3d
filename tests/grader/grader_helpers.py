"""Grader test helpers: small app-like DuckDB files and a gate-like writer.

Three app schemas (``vista_erp``, ``procore``, ``sage_intacct``) with an int PK, a
composite (VARCHAR, INTEGER) PK and a VARCHAR PK; DECIMAL, DATE, TIMESTAMP, BLOB, JSON and
BOOLEAN columns; a table without PK; plus ``book`` and ``cfab_internal.written_rows``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import duckdb

DDL = """
CREATE SCHEMA vista_erp; CREATE SCHEMA procore; CREATE SCHEMA sage_intacct;
CREATE SCHEMA book; CREATE SCHEMA cfab_internal;
CREATE TABLE vista_erp.APVM (Vendor INTEGER PRIMARY KEY, Name VARCHAR, PayHold VARCHAR,
    Bal DECIMAL(18,2), Since DATE, Doc BLOB, Meta JSON, Active BOOLEAN);
CREATE TABLE procore.commitment_lines (commitment_id VARCHAR, line_no INTEGER,
    amount DECIMAL(18,2), status VARCHAR, PRIMARY KEY (commitment_id, line_no));
CREATE TABLE sage_intacct.APBILL (RECORDNO VARCHAR PRIMARY KEY, TOTALDUE DECIMAL(18,2),
    WHENCREATED TIMESTAMP, STATE VARCHAR);
CREATE TABLE procore.audit_notes (note VARCHAR, n INTEGER);
CREATE TABLE book.vendors (id INTEGER PRIMARY KEY, name VARCHAR);
CREATE TABLE cfab_internal.written_rows (table_name VARCHAR NOT NULL, pk_key VARCHAR NOT NULL,
    first_seq INTEGER NOT NULL, PRIMARY KEY (table_name, pk_key));
"""

SEED = """
INSERT INTO vista_erp.APVM VALUES
 (20147, 'Walsh Electrical', 'N', 632000.00, DATE '2019-04-01', '\\x25\\x50\\x44\\x46'::BLOB,
  '{"tin":"12-3456789"}', true),
 (20148, 'Acme Concrete', 'N', 14350.00, DATE '2020-06-15', NULL, NULL, true),
 (20149, 'Beta Steel', 'N', 0.00, DATE '2021-01-31', NULL, '{"tier":2}', false);
INSERT INTO procore.commitment_lines VALUES
 ('SC-1042-0', 1, 100000.00, 'approved'), ('SC-1042-0', 2, 25000.50, 'approved'),
 ('SC-1042-0', 3, 14350.00, 'draft'), ('SC-3100-1', 1, 999.99, 'draft');
INSERT INTO sage_intacct.APBILL VALUES
 ('B-1', 1200.00, TIMESTAMP '2026-01-15 09:30:00', 'Draft'),
 ('B-2', 88.10, TIMESTAMP '2026-01-20 17:00:00', 'Posted');
INSERT INTO procore.audit_notes VALUES ('seeded', 1), ('seeded', 1);
INSERT INTO book.vendors VALUES (1, 'Walsh');
"""

PKS = {
    "vista_erp.APVM": ("Vendor",),
    "procore.commitment_lines": ("commitment_id", "line_no"),
    "sage_intacct.APBILL": ("RECORDNO",),
}


def build_golden(path: Path, seed: bool = True) -> Path:
    con = duckdb.connect(str(path))
    con.execute(DDL)
    if seed:
        con.execute(SEED)
    con.execute("CHECKPOINT")
    con.close()
    return path


class Writer:
    """Writes like the gate: every written (table, pk) lands in cfab_internal.written_rows."""

    def __init__(self, path: Path | str, record: bool = True) -> None:
        self.path = str(path)
        self.record = record
        self.seq = 0
        self.con = duckdb.connect(self.path)
        self.con.execute("BEGIN TRANSACTION")  # one transaction: autocommit per write is slow

    def _log(self, table: str, pk: tuple[Any, ...]) -> None:
        if self.record:
            self.seq += 1
            key = json.dumps([str(v) for v in pk], separators=(",", ":"))
            self.con.execute(
                "INSERT INTO cfab_internal.written_rows VALUES (?, ?, ?) ON CONFLICT DO NOTHING", [table, key, self.seq]
            )

    @staticmethod
    def _where(table: str) -> str:
        return " AND ".join(f'"{c}" = ?' for c in PKS[table])

    def insert(self, table: str, row: dict[str, Any], casts: dict[str, str] | None = None) -> None:
        casts = casts or {}
        cols = ", ".join(f'"{c}"' for c in row)
        vals = ", ".join(f"CAST(? AS {casts[c]})" if c in casts else "?" for c in row)
        self.con.execute(f"INSERT INTO {table} ({cols}) VALUES ({vals})", list(row.values()))
        self._log(table, tuple(row[c] for c in PKS[table]))

    def update(
        self, table: str, pk: tuple[Any, ...], values: dict[str, Any], casts: dict[str, str] | None = None
    ) -> None:
        casts = casts or {}
        sets = ", ".join(f'"{c}" = ' + (f"CAST(? AS {casts[c]})" if c in casts else "?") for c in values)
        self.con.execute(f"UPDATE {table} SET {sets} WHERE {self._where(table)}", [*values.values(), *pk])
        self._log(table, pk)

    def delete(self, table: str, pk: tuple[Any, ...]) -> None:
        self.con.execute(f"DELETE FROM {table} WHERE {self._where(table)}", list(pk))
        self._log(table, pk)

    def sql(self, text: str) -> None:
        self.con.execute(text)

    def close(self) -> None:
        self.con.execute("COMMIT")
        self.con.execute("CHECKPOINT")
        self.con.close()
