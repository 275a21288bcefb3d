"""LCPtracker: reads, FORMAT-only validation (never a wage or ratio finding), one row per flag,
duplicate flag conflict, own-flag deletion, locked payroll lines."""

from __future__ import annotations

import json

PAYROLL = "CP-1042-2026-01-24"


def test_reads(open_env):
    env = open_env(["lcptracker"])
    assert env.call("lcptracker.projects.list")["data"]["count"] == 1
    wd = env.call("lcptracker.wage_determinations.get", project_id="1042")["data"]
    assert wd["decision"]["decision_id"] == "IL20250012-mod3"
    assert wd["rates"] == [
        {
            "decision_id": "IL20250012-mod3",
            "classification": "Electrician",
            "base_rate": "48.5000",
            "fringe_rate": "31.2000",
        }
    ]
    assert wd["apprentice_ratios"][0]["journeymen_per_apprentice"] == 3
    subs = env.call("lcptracker.submissions.list", project_id="1042", week_ending_from="2026-01-01")["data"]
    assert subs["count"] == 1 and subs["submissions"][0]["line_count"] == 3
    got = env.call("lcptracker.submissions.get", project_id="1042", week_ending="2026-01-24")["data"]
    assert [ln["employee_id"] for ln in got["lines"]] == ["LCP-88001", "LCP-88002", "LCP-88003"]
    assert got["lines"][2]["rate_paid"] == "45.0000"
    assert env.call("lcptracker.contractors.list", project_id="1042")["data"]["count"] == 2
    assert env.call("lcptracker.employees.list", name_contains="costa")["data"]["count"] == 1
    assert env.call("lcptracker.wage_determinations.get", project_id="9999")["error_type"] == "not_found"


def test_validate_is_format_only(open_env):
    env = open_env(["lcptracker"])
    out = env.call("lcptracker.submissions.validate", payroll_id=PAYROLL)
    assert out["ok"], out
    data = out["data"]
    # the fixture carries an underpaid journeyman and an unregistered apprentice over no ratio
    # problem; format validation passes and says nothing about wages or apprentices
    assert data["format_valid"] is True and data["errors"] == [] and data["scope"] == "format only"
    text = json.dumps(data).lower()
    for word in ("underpay", "prevailing", "apprentice", "ratio", "48.5", "determination", "registration"):
        assert word not in text, word


def test_validate_catches_format_errors(open_env):
    env = open_env(["lcptracker"])
    # a broken line, written outside the gate to simulate a bad upload
    env.con.execute(
        f"UPDATE lcptracker.payroll_lines SET total_hours = 41 WHERE payroll_id = '{PAYROLL}' AND line_number = 1"
    )
    data = env.call("lcptracker.submissions.validate", payroll_id=PAYROLL)["data"]
    assert data["format_valid"] is False
    assert {(e["line_number"], e["field"]) for e in data["errors"]} == {(1, "total_hours"), (1, "overtime_hours")}


def test_flags_one_row_each_conflict_and_delete(open_env):
    env = open_env(["lcptracker"])
    a = env.call(
        "lcptracker.lines.flag",
        payroll_id=PAYROLL,
        line_number=3,
        code="underpayment",
        note="Paid 45.00; WD requires 48.50",
    )
    b = env.call(
        "lcptracker.lines.flag",
        payroll_id=PAYROLL,
        line_number=2,
        code="unregistered_apprentice",
        note="No apprenticeship registration on file",
    )
    c = env.call("lcptracker.lines.flag", payroll_id=PAYROLL, line_number=3, code="fringe_shortfall", note="x")
    assert a["ok"] and b["ok"] and c["ok"], (a, b, c)
    rows = env.con.execute(
        "SELECT payroll_id, line_number, code FROM lcptracker.compliance_flags ORDER BY line_number, code"
    ).fetchall()
    assert rows == [
        (PAYROLL, 2, "unregistered_apprentice"),
        (PAYROLL, 3, "fringe_shortfall"),
        (PAYROLL, 3, "underpayment"),
    ]
    dup = env.call("lcptracker.lines.flag", payroll_id=PAYROLL, line_number=3, code="underpayment", note="again")
    assert not dup["ok"] and dup["error_type"] == "conflict"
    bad = env.call("lcptracker.lines.flag", payroll_id=PAYROLL, line_number=3, code="late", note="x")
    assert not bad["ok"] and bad["error_type"] == "invalid_argument"
    missing = env.call("lcptracker.lines.flag", payroll_id=PAYROLL, line_number=99, code="other", note="x")
    assert missing["error_type"] == "not_found"
    listed = env.call("lcptracker.flags.list", project_id="1042")["data"]
    assert listed["count"] == 3
    deleted = env.call("lcptracker.flags.delete", flag_id=c["data"]["flag"]["flag_id"])
    assert deleted["ok"]
    assert env.call("lcptracker.flags.list", payroll_id=PAYROLL)["data"]["count"] == 2
    # the flag id is deterministic from (payroll, line, code)
    assert a["data"]["flag"]["flag_id"] == env.apps["lcptracker"].new_id("flag", PAYROLL, 3, "underpayment")


def test_flags_delete_refuses_others(open_env):
    env = open_env(["lcptracker"])
    env.con.execute(
        "INSERT INTO lcptracker.compliance_flags VALUES ('x1', ?, 1, 'other', 'agency note', 'Open', "
        "'agency.reviewer', TIMESTAMP '2026-01-29 10:00:00')",
        [PAYROLL],
    )
    out = env.call("lcptracker.flags.delete", flag_id="x1")
    assert not out["ok"] and out["error_type"] == "rejected"
