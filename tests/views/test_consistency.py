"""The consistency check: every pair of apps agrees except for registered divergences,
and an injected difference in one app is reported naming the row."""

from __future__ import annotations

import shutil
from pathlib import Path

import duckdb
import pytest

from cfab.apps.world.golden import ensure_golden
from cfab.views import check_consistency, divergence_kinds, parse_entity_file


@pytest.fixture(scope="module")
def golden() -> Path:
    return ensure_golden()


def test_golden_book_is_consistent(golden: Path) -> None:
    con = duckdb.connect(str(golden), read_only=True)
    try:
        report = check_consistency(con)
    finally:
        con.close()
    assert report.ok, report.summary()
    assert report.compared_pairs > 100 and report.compared_values > 10_000
    assert {q.entity for q in report.queries} >= {"vendor", "job", "commitment", "invoice", "employee", "check"}
    assert any(d.registered for d in report.differences), "the planted divergences should show up as registered"


def test_injected_difference_is_reported_naming_the_row(golden: Path, tmp_path: Path) -> None:
    copy = tmp_path / "tampered.duckdb"
    shutil.copyfile(golden, copy)
    copy.chmod(0o644)
    con = duckdb.connect(str(copy))
    con.execute("UPDATE procore.commitments SET grand_total = grand_total + 1 WHERE contract_code = 'SC-1042-0'")
    try:
        report = check_consistency(con)
    finally:
        con.close()
    assert not report.ok
    bad = report.unregistered
    assert bad and all(d.entity == "commitment" and d.entity_key == "SC-1042-0" and d.field == "amount" for d in bad)
    assert "procore" in {d.app_a for d in bad} | {d.app_b for d in bad}
    assert "SC-1042-0" in report.summary() and "NOT registered" in report.summary()


def test_registry_kinds_are_complete() -> None:
    kinds = divergence_kinds()
    for name, spec in kinds.items():
        assert {"entity", "field", "apps", "family", "reason"} <= set(spec), name
        assert spec["apps"], name


def test_entity_file_parsing_names_unknown_entities() -> None:
    with pytest.raises(ValueError, match="unknown entity 'widget'"):
        parse_entity_file("x", "-- entity: widget\nSELECT 1 AS entity_key")
    queries = parse_entity_file("x", "-- entity: vendor\n-- scope: all\nSELECT 'V1' AS entity_key, 'A' AS name;\n")
    assert [(q.entity, q.scope) for q in queries] == [("vendor", "all")]
