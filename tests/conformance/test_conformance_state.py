"""State: a Hypothesis state machine on one Environment per run. Random writes through
``env.con`` (inserts, updates, deletes on app tables with different key shapes: a BIGINT id, a
composite VARCHAR key, a composite key with a DATE, a table that starts empty) and through tools
(a write, a read, guarded calls), ``snapshot()`` at random points and ``reset()`` to random
earlier snapshots. Checked: after each reset the digest equals the one recorded at that snapshot;
the digest changes exactly when content changed and not for a guarded call;
``state_diff(full=True)`` equals the net changes the model tracked; the golden file's bytes are
never modified; ``close()`` removes the temporary files.

Marked ``fuzz``: 4 runs of 16 steps, derandomized, in the default tier; ten times as many
random runs under ``--hypothesis-profile fuzz``.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Any

import duckdb
import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    Bundle,
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
)

from cfab.apps.world.environment import Environment
from cfab.apps.world.golden import ensure_composed
from tests.conformance.conformance_helpers import file_sha256
from tests.fixtures.tiers import examples

APPS = ["procore", "vista_erp", "hh2"]
ORIGINAL = object()  # "set the column back to its golden value"


@dataclass(frozen=True)
class TableSpec:
    name: str  # schema.table
    pk: tuple[str, ...]
    text: str  # a VARCHAR column the machine rewrites
    new_keys: tuple[tuple, ...]
    template: dict[str, Any] | None = None  # values for inserts when the table starts empty


def make_tables(v1: int, v2: int) -> tuple[TableSpec, ...]:
    """The tables the machine writes; v1/v2 are two real Vista vendor numbers."""
    return (
        TableSpec("procore.commitments", ("id",), "title", ((9_000_001,), (9_000_002,))),
        TableSpec(
            "hh2.vendor_map",
            ("master_vendor_id", "system"),
            "system_vendor_name",
            (("V9001", "vista_erp"), ("V9001", "procore")),
        ),
        TableSpec("vista_erp.GLFP", ("GLCo", "Mth"), "Status", ((1, date(2031, 1, 1)), (1, date(2031, 2, 1)))),
        TableSpec(
            "vista_erp.APVH",
            ("VendorGroup", "Vendor", "HoldCode"),
            "Notes",
            ((1, v1, "COI"), (1, v1, "LIEN"), (1, v2, "W9")),
            template={"VendorGroup": 1, "Vendor": 0, "HoldCode": "", "Notes": "hold", "DateAdded": date(2026, 1, 31)},
        ),
    )


def _q(name: str) -> str:
    schema, table = name.split(".")
    return f'"{schema}"."{table}"'


def _where(spec: TableSpec) -> str:
    return " AND ".join(f'"{c}" = ?' for c in spec.pk)


@pytest.fixture(scope="module")
def state_golden(full_golden: Path) -> Path:
    return ensure_composed(full_golden, APPS)


@pytest.fixture(scope="module")
def vendors(state_golden: Path) -> tuple[int, int]:
    con = duckdb.connect(str(state_golden), read_only=True)
    try:
        rows = con.execute('SELECT "Vendor" FROM vista_erp."APVM" ORDER BY 1 LIMIT 2').fetchall()
    finally:
        con.close()
    assert len(rows) == 2, "the book has fewer than two Vista vendors"
    return rows[0][0], rows[1][0]


@pytest.fixture(scope="module")
def tables(vendors: tuple[int, int]) -> tuple[TableSpec, ...]:
    return make_tables(*vendors)


@pytest.fixture(scope="module")
def golden_rows(state_golden: Path, tables) -> dict[str, dict[tuple, dict[str, Any]]]:
    """The golden rows the machine may touch: a few existing keys per table (plus none for the
    table that starts empty)."""
    con = duckdb.connect(str(state_golden), read_only=True)
    try:
        out: dict[str, dict[tuple, dict[str, Any]]] = {}
        for spec in tables:
            order = ", ".join(f'"{c}"' for c in spec.pk)
            cur = con.execute(f"SELECT * FROM {_q(spec.name)} ORDER BY {order} LIMIT 3")
            cols = [d[0] for d in cur.description]
            out[spec.name] = {
                tuple(r[cols.index(c)] for c in spec.pk): dict(zip(cols, r, strict=False)) for r in cur.fetchall()
            }
    finally:
        con.close()
    return out


def _norm_key(key: tuple) -> tuple[str, ...]:
    return tuple(str(v) for v in key)


@pytest.mark.fuzz
def test_state_machine(state_golden: Path, full_golden: Path, golden_rows, tables, vendors) -> None:
    by_name = {t.name: t for t in tables}
    vendor_ids = [str(v) for v in vendors]
    guarded_calls = (
        ("vista_erp.vista_post", {"kind": "projection", "job_id": "1042-"}),
        ("vista_erp.payments.create", {"vendor_id": vendor_ids[0], "invoice_numbers": ["NOPE-1"]}),
        ("vista_erp.vista_post", {"kind": "journal_entry", "batch_id": "not-a-batch"}),
        ("vista_erp.vista_post", {"kind": "wrong kind"}),
    )
    golden_sha = (file_sha256(state_golden), file_sha256(full_golden))
    existing = {name: list(rows) for name, rows in golden_rows.items()}
    assert existing["procore.commitments"] and existing["vista_erp.GLFP"], "the book has no rows to work on"

    class StateMachine(RuleBasedStateMachine):
        snapshots = Bundle("snapshots")

        def __init__(self) -> None:
            super().__init__()
            self.env = Environment.open(apps=APPS, golden=state_golden)
            self.workdir = self.env.workdir
            self.model: dict[str, dict[tuple, dict[str, Any]]] = copy.deepcopy(golden_rows)
            self.touched: dict[str, set[tuple]] = {t.name: set() for t in tables}
            self.digest = self.env.digest()
            self.start_digest = self.digest
            self.guards = 0
            self.since_snapshot = self.since_reset = self.since_diff = 0  # content changes since ...

        # ------------------------------------------------------------------ env.con writes
        def _after_write(self, changed: bool, what: str) -> None:
            if changed:
                self.since_snapshot += 1
                self.since_reset += 1
                self.since_diff += 1
            new = self.env.digest()
            if changed:
                assert new != self.digest, f"{what}: content changed but the digest did not"
            else:
                assert new == self.digest, f"{what}: content unchanged but the digest changed"
            self.digest = new

        def _keys(self, spec: TableSpec) -> list[tuple]:
            return [*existing[spec.name], *spec.new_keys]

        @rule(
            data=st.data(), op=st.sampled_from(["update", "update", "insert", "delete"]), table=st.sampled_from(tables)
        )
        def write(self, data, op: str, table: TableSpec) -> None:
            """One raw write through env.con (no gate): the model follows it exactly."""
            if op == "update":
                value = data.draw(st.sampled_from(["approved by agent", "Ünïcode ✓", "", ORIGINAL]), label="value")
                self.update_text(data, table, value)
            elif op == "insert":
                self.insert_row(data, table)
            else:
                self.delete_row(data, table)

        def update_text(self, data, table: TableSpec, value: Any) -> None:
            key = data.draw(st.sampled_from(self._keys(table)), label="key")
            row = self.model[table.name].get(key)
            if value is ORIGINAL:
                original = golden_rows[table.name].get(key)
                value = original[table.text] if original else "restored"
            self.env.con.execute(f'UPDATE {_q(table.name)} SET "{table.text}" = ? WHERE {_where(table)}', [value, *key])
            changed = row is not None and row[table.text] != value
            if row is not None:
                row[table.text] = value
                self.touched[table.name].add(key)
            self._after_write(changed, f"update {table.name} {key}")

        def insert_row(self, data, table: TableSpec) -> None:
            free = [k for k in self._keys(table) if k not in self.model[table.name]]
            if not free:
                return
            key = data.draw(st.sampled_from(free), label="key")
            source = next(iter(golden_rows[table.name].values()), None) or table.template
            assert source is not None
            row = {**source, **dict(zip(table.pk, key, strict=False)), table.text: "inserted by test"}
            cols = list(row)
            self.env.con.execute(
                f"INSERT INTO {_q(table.name)} ({', '.join(chr(34) + c + chr(34) for c in cols)}) "
                f"VALUES ({', '.join('?' for _ in cols)})",
                [row[c] for c in cols],
            )
            self.model[table.name][key] = row
            self.touched[table.name].add(key)
            self._after_write(True, f"insert {table.name} {key}")

        def delete_row(self, data, table: TableSpec) -> None:
            present = [k for k in self._keys(table) if k in self.model[table.name]]
            if not present:
                return
            key = data.draw(st.sampled_from(present), label="key")
            self.env.con.execute(f"DELETE FROM {_q(table.name)} WHERE {_where(table)}", list(key))
            del self.model[table.name][key]
            self.touched[table.name].add(key)
            self._after_write(True, f"delete {table.name} {key}")

        # ------------------------------------------------------------------ tool calls
        @rule(data=st.data(), kind=st.sampled_from(["write", "guarded", "read"]))
        def tool(self, data, kind: str) -> None:
            """A tool call: a gated write, a guarded call (recorded, never executed) or a read."""
            if kind == "write":
                self.tool_payment_hold(
                    data.draw(st.sampled_from(vendor_ids), label="vendor"), data.draw(st.booleans(), label="on_hold")
                )
            elif kind == "guarded":
                self.guarded_call(data.draw(st.sampled_from(guarded_calls), label="call"))
            else:
                self.read_tool()

        def tool_payment_hold(self, vendor: str, on_hold: bool) -> None:
            """vendors.set_payment_hold through the gate; Vista keeps a hold as an APVH row, so the
            model follows it: placing adds (1, vendor, MGMT), releasing removes it."""
            result = self.env.call(
                "vista_erp.vendors.set_payment_hold",
                vendor_id=vendor,
                on_hold=on_hold,
                reason="COI expired",
                hold_code="MGMT",
            )
            assert result["ok"] is True, result
            table, key = "vista_erp.APVH", (1, int(vendor), "MGMT")
            present = key in self.model[table]
            if on_hold and not present:
                self.model[table][key] = {
                    "VendorGroup": 1,
                    "Vendor": int(vendor),
                    "HoldCode": "MGMT",
                    "Notes": "COI expired",
                    "DateAdded": self.env.clock,
                }
            elif not on_hold and present:
                del self.model[table][key]
            changed = on_hold != present
            self.touched[table].add(key)
            assert bool(result["data"]["changed"]) == changed, (result, present)
            self._after_write(changed, f"set_payment_hold {vendor} {on_hold}")

        def guarded_call(self, call) -> None:
            name, args = call
            result = self.env.call(name, **args)
            assert result.get("status") == "pending_human_approval" or result["ok"] is False, result
            self.guards += 1
            calls = self.env.guarded_calls()
            assert calls[-1].tool == name and calls[-1].executed is False
            assert self.env.digest() == self.digest, f"guarded {name} changed the digest"

        def read_tool(self) -> None:
            assert self.env.call("vista_erp.gl.periods", status="closed")["ok"] is True
            assert self.env.call("sql.query", sql="SELECT count(*) FROM procore.commitments")["ok"] is True
            assert self.env.digest() == self.digest

        # ------------------------------------------------------------------ snapshots
        @initialize(target=snapshots)
        def opening_snapshot(self):
            return self.snapshot()

        @precondition(lambda self: self.since_snapshot > 0)
        @rule(target=snapshots)
        def snapshot(self):
            self.since_snapshot = 0
            snap = self.env.snapshot()
            assert Path(snap.path).is_file() and Path(snap.path).parent == self.workdir
            return snap, self.digest, copy.deepcopy(self.model), copy.deepcopy(self.touched)

        @precondition(lambda self: self.since_reset > 0)
        @rule(saved=snapshots)
        def reset(self, saved) -> None:
            snap, digest, model, touched = saved
            self.since_reset = 0
            self.since_diff = self.since_snapshot = 1  # the state moved (maybe back)
            self.env.reset(snap)
            self.digest = self.env.digest()
            assert self.digest == digest, "reset did not restore the snapshot's digest"
            self.model, self.touched = copy.deepcopy(model), copy.deepcopy(touched)

        # ------------------------------------------------------------------ the diff
        @precondition(lambda self: self.since_diff > 0)
        @rule()
        def diff_matches_the_model(self) -> None:
            self.since_diff = 0
            diff = self.env.state_diff(full=True)
            expected: dict[str, dict[str, set]] = {}
            for spec in tables:
                ops: dict[str, set] = {"added": set(), "removed": set(), "changed": set()}
                for key in self.touched[spec.name]:
                    before = golden_rows[spec.name].get(key)
                    after = self.model[spec.name].get(key)
                    if before is None and after is not None:
                        ops["added"].add(_norm_key(key))
                    elif before is not None and after is None:
                        ops["removed"].add(_norm_key(key))
                    elif before is not None and after is not None and before != after:
                        ops["changed"].add(_norm_key(key))
                if any(ops.values()):
                    expected[spec.name.lower()] = ops
            actual = {}
            for name in diff.tables():
                td = diff[name]
                actual[name.lower()] = {
                    "added": {_norm_key(r.pk) for r in td.added},
                    "removed": {_norm_key(r.pk) for r in td.removed},
                    "changed": {_norm_key(r.pk) for r in td.changed},
                }
                for r in td.changed:
                    spec = by_name[f"{td.app}.{td.table}"]
                    assert set(r.columns) == {spec.text}, r.columns
            assert actual == expected
            assert self.env.digest() == self.digest  # a diff (closing and reopening) changes nothing

        @invariant()
        def connection_usable(self) -> None:
            assert self.env.con.execute("SELECT 1").fetchone() == (1,)

        def teardown(self) -> None:
            path = self.env.path
            self.env.close()
            assert not self.workdir.exists(), "close() left the attempt's temporary files"
            assert not path.exists()

    StateMachine.TestCase.settings = settings(
        max_examples=examples(4), stateful_step_count=16, deadline=None, suppress_health_check=list(HealthCheck)
    )
    StateMachine.TestCase().runTest()
    assert (file_sha256(state_golden), file_sha256(full_golden)) == golden_sha, "the golden file's bytes changed"
