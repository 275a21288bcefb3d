"""Stateful property: the diff is exactly the net change, in fast and full mode alike.

Random inserts, updates (including no-op updates), deletes and delete-then-reinsert
(identical or modified) across three tables with int, composite and VARCHAR keys, written
gate-style (every written key recorded in ``cfab_internal.written_rows``). At each check the
writer checkpoints and closes; the diff golden → now and last-snapshot → now must equal the
net changes computed independently from a Python model of the rows.
"""

from __future__ import annotations

import hashlib
import json
import shutil
import tempfile
from datetime import date, datetime
from decimal import Decimal
from pathlib import Path
from typing import Any

import duckdb
import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, precondition, rule

from cfab.grader import StateDiff, state_diff
from tests.fixtures.tiers import examples
from tests.grader.grader_helpers import DDL, PKS, Writer

Model = dict[str, dict[tuple[Any, ...], dict[str, Any]]]

COLUMNS = {
    "vista_erp.APVM": ["Vendor", "Name", "PayHold", "Bal", "Since", "Doc", "Meta", "Active"],
    "procore.commitment_lines": ["commitment_id", "line_no", "amount", "status"],
    "sage_intacct.APBILL": ["RECORDNO", "TOTALDUE", "WHENCREATED", "STATE"],
}
CASTS = {
    "Bal": "DECIMAL(18,2)",
    "amount": "DECIMAL(18,2)",
    "TOTALDUE": "DECIMAL(18,2)",
    "Since": "DATE",
    "WHENCREATED": "TIMESTAMP",
    "Meta": "JSON",
}
TABLES = sorted(PKS)

money = st.integers(-(10**9), 10**9).map(lambda c: (Decimal(c) / 100).quantize(Decimal("0.01")))
blob = st.one_of(st.none(), st.binary(max_size=8))
meta = st.one_of(st.none(), st.dictionaries(st.sampled_from("abc"), st.integers(0, 3), max_size=2))
day = st.dates(min_value=date(1901, 1, 1), max_value=date(2099, 12, 31))
stamp = st.datetimes(min_value=datetime(1901, 1, 1), max_value=datetime(2099, 12, 31)).map(
    lambda d: d.replace(microsecond=0)
)
VALUES = {
    "vista_erp.APVM": {
        "Name": st.sampled_from(["Walsh", "Acme", "O'Brien & Sons", None]),
        "PayHold": st.sampled_from(["Y", "N"]),
        "Bal": money,
        "Since": day,
        "Doc": blob,
        "Meta": meta,
        "Active": st.booleans(),
    },
    "procore.commitment_lines": {"amount": money, "status": st.sampled_from(["draft", "approved"])},
    "sage_intacct.APBILL": {"TOTALDUE": money, "WHENCREATED": stamp, "STATE": st.sampled_from(["Draft", "Posted"])},
}
KEYS = {
    "vista_erp.APVM": st.tuples(st.integers(20140, 20160)),
    "procore.commitment_lines": st.tuples(st.sampled_from(["SC-1042-0", "SC-3100-1"]), st.integers(1, 6)),
    "sage_intacct.APBILL": st.tuples(st.sampled_from([f"B-{i}" for i in range(1, 9)])),
}


def _norm(column: str, value: Any) -> Any:
    """The normalised form the diff reports for a value written by this test."""
    if value is None:
        return None
    if isinstance(value, Decimal):
        return format(value, "f")
    if isinstance(value, bytes):
        return {"sha256": hashlib.sha256(value).hexdigest(), "size": len(value)}
    if column in ("Since", "WHENCREATED"):
        return value.isoformat()
    return value


def _raw(column: str, value: Any) -> Any:
    if column == "Meta" and value is not None:
        return json.dumps(value, sort_keys=True, separators=(",", ":"))
    if isinstance(value, Decimal) or column in ("Since", "WHENCREATED"):
        return None if value is None else str(value)
    return value


GOLDEN_ROWS: list[tuple[str, tuple[Any, ...], dict[str, Any]]] = [
    (
        "vista_erp.APVM",
        (20147,),
        {
            "Name": "Walsh",
            "PayHold": "N",
            "Bal": Decimal("632000.00"),
            "Since": date(2019, 4, 1),
            "Doc": b"%PDF",
            "Meta": {"a": 1},
            "Active": True,
        },
    ),
    (
        "vista_erp.APVM",
        (20148,),
        {
            "Name": "Acme",
            "PayHold": "N",
            "Bal": Decimal("0.00"),
            "Since": None,
            "Doc": None,
            "Meta": None,
            "Active": False,
        },
    ),
    ("procore.commitment_lines", ("SC-1042-0", 1), {"amount": Decimal("100000.00"), "status": "approved"}),
    ("procore.commitment_lines", ("SC-1042-0", 2), {"amount": Decimal("25000.50"), "status": "draft"}),
    (
        "sage_intacct.APBILL",
        ("B-1",),
        {"TOTALDUE": Decimal("1200.00"), "WHENCREATED": datetime(2026, 1, 15, 9, 30), "STATE": "Draft"},
    ),
]


def _full_row(table: str, pk: tuple[Any, ...], values: dict[str, Any]) -> dict[str, Any]:
    row = dict(zip(PKS[table], pk, strict=False))
    row.update(values)
    return {c: row.get(c) for c in COLUMNS[table]}


def _build_golden(path: Path) -> None:
    con = duckdb.connect(str(path))
    con.execute(DDL)
    con.close()
    w = Writer(path, record=False)
    for table, pk, values in GOLDEN_ROWS:
        row = _full_row(table, pk, values)
        w.insert(table, {c: _raw(c, v) for c, v in row.items()}, casts=CASTS)
    w.close()


_GOLDEN: list[Path] = []


def _golden() -> Path:
    if not _GOLDEN:
        path = Path(tempfile.mkdtemp(prefix="cfab-grader-")) / "golden.duckdb"
        _build_golden(path)
        _GOLDEN.append(path)
    return _GOLDEN[0]


def _expected(before: Model, after: Model) -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    for table in TABLES:
        b, a = before[table], after[table]
        added = {k: a[k] for k in a.keys() - b.keys()}
        removed = {k: b[k] for k in b.keys() - a.keys()}
        changed = {
            k: (b[k], a[k], {c for c in COLUMNS[table] if b[k][c] != a[k][c]})
            for k in a.keys() & b.keys()
            if a[k] != b[k]
        }
        if added or removed or changed:
            out[table] = {"added": added, "removed": removed, "changed": changed}
    return out


def _observed(d: StateDiff) -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    for name in d.tables():
        added, removed, changed = d[name]
        out[name] = {
            "added": {r.pk: r.values for r in added},
            "removed": {r.pk: r.values for r in removed},
            "changed": {c.pk: (c.before, c.after, set(c.columns)) for c in changed},
        }
    return out


class DiffMachine(RuleBasedStateMachine):
    @initialize()
    def setup(self) -> None:
        self.dir = Path(tempfile.mkdtemp(prefix="cfab-grader-sm-"))
        self.golden = self.dir / "golden.duckdb"
        shutil.copyfile(_golden(), self.golden)
        self.path = self.dir / "attempt.duckdb"
        shutil.copyfile(self.golden, self.path)
        self.model: Model = {t: {} for t in TABLES}
        for table, pk, values in GOLDEN_ROWS:
            self.model[table][pk] = {c: _norm(c, v) for c, v in _full_row(table, pk, values).items()}
        self.snap: tuple[Path, Model] | None = None
        self.base = {t: {k: dict(v) for k, v in rows.items()} for t, rows in self.model.items()}
        self.writer = Writer(self.path)
        self.n_checks = 0

    # ------------------------------------------------------------------ writes
    def _values(self, data: st.DataObject, table: str, partial: bool) -> dict[str, Any]:
        cols = list(VALUES[table])
        if partial:
            cols = data.draw(st.lists(st.sampled_from(cols), min_size=1, unique=True))
        return {c: data.draw(VALUES[table][c]) for c in cols}

    def _pick(self, data: st.DataObject, table: str) -> tuple[Any, ...] | None:
        keys = sorted(self.model[table])
        return data.draw(st.sampled_from(keys)) if keys else None

    @rule(data=st.data(), table=st.sampled_from(TABLES))
    def insert(self, data: st.DataObject, table: str) -> None:
        pk = data.draw(KEYS[table])
        if pk in self.model[table]:
            return
        row = _full_row(table, pk, self._values(data, table, partial=False))
        self.writer.insert(table, {c: _raw(c, v) for c, v in row.items()}, casts=CASTS)
        self.model[table][pk] = {c: _norm(c, v) for c, v in row.items()}

    @rule(data=st.data(), table=st.sampled_from(TABLES))
    def update(self, data: st.DataObject, table: str) -> None:
        pk = self._pick(data, table)
        if pk is None:
            return
        values = self._values(data, table, partial=True)
        self.writer.update(table, pk, {c: _raw(c, v) for c, v in values.items()}, casts=CASTS)
        self.model[table][pk].update({c: _norm(c, v) for c, v in values.items()})

    @rule(data=st.data(), table=st.sampled_from(TABLES))
    def delete(self, data: st.DataObject, table: str) -> None:
        pk = self._pick(data, table)
        if pk is None:
            return
        self.writer.delete(table, pk)
        del self.model[table][pk]

    @rule(data=st.data(), table=st.sampled_from(TABLES), same=st.booleans())
    def delete_then_reinsert(self, data: st.DataObject, table: str, same: bool) -> None:
        pk = self._pick(data, table)
        if pk is None:
            return
        where = " AND ".join(f'"{c}" = ?' for c in PKS[table])
        cols = ", ".join(f'"{c}"' for c in COLUMNS[table])
        raw = self.writer.con.execute(f"SELECT {cols} FROM {table} WHERE {where}", list(pk)).fetchall()[0]
        self.writer.delete(table, pk)
        if same:  # the identical row, re-inserted from the values just read
            self.writer.insert(table, dict(zip(COLUMNS[table], raw, strict=False)), casts=CASTS)
        else:
            row = _full_row(table, pk, self._values(data, table, partial=False))
            self.writer.insert(table, {c: _raw(c, v) for c, v in row.items()}, casts=CASTS)
            self.model[table][pk] = {c: _norm(c, v) for c, v in row.items()}

    # ------------------------------------------------------------------ checks
    @precondition(lambda self: self.n_checks < 3)
    @rule(snapshot=st.booleans())
    def check(self, snapshot: bool) -> None:
        self.n_checks += 1
        self.writer.close()
        try:
            if self.n_checks == 1:
                assert state_diff(self.golden, self.golden).is_empty()
                assert state_diff(self.path, self.path, full=True).is_empty()
            self._assert_diff(self.golden, self.base)
            if self.snap is not None:
                self._assert_diff(*self.snap)
            if snapshot:
                dest = self.dir / f"snap-{self.n_checks}.duckdb"
                shutil.copyfile(self.path, dest)
                self.snap = (dest, {t: {k: dict(v) for k, v in rows.items()} for t, rows in self.model.items()})
        finally:
            self.writer = Writer(self.path)

    def _assert_diff(self, before: Path, before_model: Model) -> None:
        fast = state_diff(before, self.path)
        full = state_diff(before, self.path, full=True)
        assert fast.mode == "fast" and full.mode == "full"
        assert _observed(fast) == _expected(before_model, self.model)
        assert fast.diffs == full.diffs
        assert StateDiff.from_json(fast.to_json()) == fast

    def teardown(self) -> None:
        if hasattr(self, "writer"):
            self.writer.close()
            self._assert_diff(self.golden, self.base)
            shutil.rmtree(self.dir, ignore_errors=True)


DiffMachine.TestCase.settings = settings(
    max_examples=examples(10),
    stateful_step_count=12,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
TestDiffMachine = pytest.mark.fuzz(DiffMachine.TestCase)
