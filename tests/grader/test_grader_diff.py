"""state_diff: values, modes, fallbacks, and the StateDiff result surface."""

from __future__ import annotations

import hashlib
import json
import shutil
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import duckdb
import polars as pl
import pyarrow as pa
import pytest

from cfab.grader import StateDiff, TableDiff, state_diff
from tests.grader.grader_helpers import Writer


def _scenario(attempt: Path, record: bool = True) -> None:
    w = Writer(attempt, record=record)
    w.update("vista_erp.APVM", (20147,), {"PayHold": "Y", "Meta": '{"tin":"12-3456789","hold":true}'})
    w.insert(
        "vista_erp.APVM",
        {
            "Vendor": 20150,
            "Name": "Gamma Glass",
            "PayHold": "N",
            "Bal": "14350",
            "Since": "2026-01-31",
            "Doc": b"\x00\x01PDF",
            "Meta": '{"a":[1,2]}',
            "Active": True,
        },
        casts={"Bal": "DECIMAL(18,2)", "Since": "DATE"},
    )
    w.delete("procore.commitment_lines", ("SC-1042-0", 3))
    w.insert(
        "procore.commitment_lines",
        {"commitment_id": "SC-1042-0", "line_no": 4, "amount": "14350.00", "status": "draft"},
    )
    # delete and re-insert an identical row: no change
    w.delete("sage_intacct.APBILL", ("B-1",))
    w.sql("INSERT INTO sage_intacct.APBILL VALUES ('B-1', 1200.00, TIMESTAMP '2026-01-15 09:30:00', 'Draft')")
    w._log("sage_intacct.APBILL", ("B-1",))
    w.update(
        "sage_intacct.APBILL", ("B-2",), {"WHENCREATED": "2026-01-21 08:00:00"}, casts={"WHENCREATED": "TIMESTAMP"}
    )
    # never diffed
    w.sql(
        "INSERT INTO book.vendors VALUES (2, 'x'); INSERT INTO cfab_internal.written_rows "
        "VALUES ('book.vendors', '[\"2\"]', 99)"
    )
    w.close()


@pytest.mark.parametrize("full", [False, True])
def test_values_and_ops(golden: Path, attempt: Path, full: bool) -> None:
    _scenario(attempt)
    d = state_diff(golden, attempt, full=full)
    assert d.mode == ("full" if full else "fast")
    assert d.tables() == ["procore.commitment_lines", "sage_intacct.APBILL", "vista_erp.APVM"]
    assert d.summary() == {
        "procore.commitment_lines": {"added": 1, "removed": 1, "changed": 0},
        "sage_intacct.APBILL": {"added": 0, "removed": 0, "changed": 1},
        "vista_erp.APVM": {"added": 1, "removed": 0, "changed": 1},
    }
    added, removed, changed = d["vista_erp.APVM"]
    assert removed == ()
    row = added[0]
    assert row.pk == (20150,)
    assert row.values == {
        "Vendor": 20150,
        "Name": "Gamma Glass",
        "PayHold": "N",
        "Bal": "14350.00",
        "Since": "2026-01-31",
        "Doc": {"sha256": hashlib.sha256(b"\x00\x01PDF").hexdigest(), "size": 5},
        "Meta": {"a": [1, 2]},
        "Active": True,
    }
    ch = changed[0]
    assert ch.pk == (20147,) and ch.columns == ("PayHold", "Meta")
    assert ch.changes == {"PayHold": ("N", "Y"), "Meta": ({"tin": "12-3456789"}, {"tin": "12-3456789", "hold": True})}
    assert ch.before["Bal"] == "632000.00" and ch.after["Since"] == "2019-04-01"
    lines = d["procore.commitment_lines"]
    assert lines.removed[0].pk == ("SC-1042-0", 3) and lines.added[0].pk == ("SC-1042-0", 4)
    bill = d["sage_intacct.APBILL"].changed[0]
    assert bill.pk == ("B-2",) and bill.changes == {"WHENCREATED": ("2026-01-20T17:00:00", "2026-01-21T08:00:00")}
    assert d["vista_erp.APVM"].types["Bal"] == "DECIMAL(18,2)"
    assert d["vista_erp.APVM"].pk == ("Vendor",)


def test_fast_and_full_agree(golden: Path, attempt: Path) -> None:
    _scenario(attempt)
    assert state_diff(golden, attempt).diffs == state_diff(golden, attempt, full=True).diffs


def test_empty_diffs(golden: Path, attempt: Path, tmp_path: Path) -> None:
    assert state_diff(golden, golden).is_empty()
    assert state_diff(golden, attempt).is_empty()  # an identical copy
    assert state_diff(golden, attempt, full=True).is_empty()
    # written but net-unchanged rows (update to the same value, delete + identical insert)
    w = Writer(attempt)
    w.update("vista_erp.APVM", (20148,), {"Name": "Acme Concrete"})
    w.delete("procore.commitment_lines", ("SC-3100-1", 1))
    w.insert(
        "procore.commitment_lines", {"commitment_id": "SC-3100-1", "line_no": 1, "amount": "999.99", "status": "draft"}
    )
    w.close()
    for full in (False, True):
        d = state_diff(golden, attempt, full=full)
        assert d.is_empty() and d.tables() == [] and len(d) == 0 and d.summary() == {}


def test_missing_written_rows_falls_back_to_full(golden: Path, attempt: Path) -> None:
    _scenario(attempt, record=False)
    con = duckdb.connect(str(attempt))
    con.execute("DROP TABLE cfab_internal.written_rows")
    con.close()
    d = state_diff(golden, attempt)
    assert d.mode == "full"
    assert set(d.tables()) == {"procore.commitment_lines", "sage_intacct.APBILL", "vista_erp.APVM"}


def test_unrecorded_writes_are_invisible_to_fast_mode_only(golden: Path, attempt: Path) -> None:
    w = Writer(attempt, record=False)
    w.update("vista_erp.APVM", (20148,), {"PayHold": "Y"})
    w.close()
    assert state_diff(golden, attempt).is_empty()
    assert state_diff(golden, attempt, full=True).tables() == ["vista_erp.APVM"]


def test_malformed_written_keys_fall_back_to_the_whole_table(golden: Path, attempt: Path) -> None:
    w = Writer(attempt, record=False)
    w.update("vista_erp.APVM", (20148,), {"PayHold": "Y"})
    w.update("procore.commitment_lines", ("SC-1042-0", 1), {"status": "void"})
    w.sql("""INSERT INTO cfab_internal.written_rows VALUES ('vista_erp.apvm', '["not-an-int"]', 1),
             ('procore.commitment_lines', 'not json', 2)""")
    w.close()
    d = state_diff(golden, attempt)
    assert d.mode == "fast"
    assert [c.pk for c in d["vista_erp.APVM"].changed] == [(20148,)]
    assert [c.pk for c in d["procore.commitment_lines"].changed] == [("SC-1042-0", 1)]


def test_table_without_pk_uses_multiset(golden: Path, attempt: Path) -> None:
    w = Writer(attempt)
    w.sql(
        "DELETE FROM procore.audit_notes; INSERT INTO procore.audit_notes VALUES ('seeded', 1), "
        "('seeded', 1), ('seeded', 1), ('new', 2); INSERT INTO cfab_internal.written_rows "
        "VALUES ('procore.audit_notes', '[]', 1)"
    )
    w.close()
    for full in (False, True):
        td = state_diff(golden, attempt, full=full)["procore.audit_notes"]
        assert [r.values for r in td.added] == [{"note": "seeded", "n": 1}, {"note": "new", "n": 2}]
        assert td.removed == () and td.pk == () and td.added[0].pk == ()


def test_schemas_filter_and_only(golden: Path, attempt: Path) -> None:
    _scenario(attempt)
    assert state_diff(golden, attempt, schemas=["procore"]).tables() == ["procore.commitment_lines"]
    assert state_diff(golden, attempt, full=True, schemas=["book"]).tables() == ["book.vendors"]
    assert state_diff(golden, attempt).only(["vista_erp"]).tables() == ["vista_erp.APVM"]


def test_result_surface(golden: Path, attempt: Path) -> None:
    _scenario(attempt)
    d = state_diff(golden, attempt)
    assert StateDiff.from_json(d.to_json()) == d
    assert StateDiff.from_json(d.to_json(indent=2)).diffs == d.diffs
    assert d["VISTA_ERP.apvm"] is d["vista_erp.APVM"] and "vista_erp.apvm" in d
    with pytest.raises(KeyError):
        d["vista_erp.JCCO"]
    assert isinstance(d.get("vista_erp.JCCO"), TableDiff) and d.get("vista_erp.JCCO").is_empty()
    table = d.to_arrow()
    assert isinstance(table, pa.Table)
    assert table.column_names == ["app", "table", "pk", "op", "column", "before", "after"]
    df = d.to_polars()
    assert isinstance(df, pl.DataFrame) and df.height == 6  # 2 changed cols + 2 + 1 + 1
    hold = df.filter(pl.col("column") == "PayHold").row(0, named=True)
    assert hold == {
        "app": "vista_erp",
        "table": "APVM",
        "pk": '["20147"]',
        "op": "changed",
        "column": "PayHold",
        "before": '"N"',
        "after": '"Y"',
    }
    added = df.filter(pl.col("op") == "added").filter(pl.col("table") == "APVM").row(0, named=True)
    assert added["column"] is None and added["before"] is None
    assert json.loads(added["after"])["Bal"] == "14350.00"
    text = repr(d)
    assert "vista_erp.APVM: +1 -0 ~1" in text and "PayHold: 'N' → 'Y'" in text
    assert "<table>" in d._repr_html_()
    assert StateDiff().to_polars().height == 0


def test_connection_reuse_and_threads(golden: Path, attempt: Path) -> None:
    _scenario(attempt)
    con = duckdb.connect()
    first = state_diff(golden, attempt, con=con)
    assert [
        r[0] for r in con.execute("SELECT database_name FROM duckdb_databases() WHERE NOT internal").fetchall()
    ] == ["memory"]
    with ThreadPoolExecutor(4) as pool:
        results = list(pool.map(lambda _: state_diff(golden, attempt), range(8)))
    assert all(r == first for r in results)


def test_missing_file(golden: Path, tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError):
        state_diff(golden, tmp_path / "nope.duckdb")


def test_copy_of_attempt_diffs_from_snapshot(golden: Path, attempt: Path, tmp_path: Path) -> None:
    w = Writer(attempt)
    w.update("vista_erp.APVM", (20148,), {"PayHold": "Y"})
    w.close()
    snap = tmp_path / "snap.duckdb"
    shutil.copyfile(attempt, snap)
    w = Writer(attempt)
    w.update("vista_erp.APVM", (20149,), {"PayHold": "Y"})
    w.close()
    d = state_diff(snap, attempt)
    assert [c.pk for c in d["vista_erp.APVM"].changed] == [(20149,)]
    back = state_diff(attempt, golden)  # reversed: the golden file has no written rows
    assert [c.pk for c in back["vista_erp.APVM"].changed] == [(20148,), (20149,)]
    assert back["vista_erp.APVM"].changed[0].changes == {"PayHold": ("Y", "N")}
