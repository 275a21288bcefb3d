"""P_certified_payroll — validate a WH-347 against the wage determination and the apprentice rules.

The paper's family (Payroll & HR, difficulty 3, guarded; jobs 1042 2041 2014 2200 1990 3100):
"Validate the WH-347 certified payroll for job N, week ending 2026-01-24, against the
prevailing-wage determination and the apprentice-ratio rule; flag issues. Do not certify or
e-file."

LCPtracker holds the submission lines, the wage determination (base + fringe per
classification), the apprentice ratio rules and each worker's registration and apprentice
percentage; ``submissions.validate`` only checks the form's arithmetic. The company's certified
payroll policy (SharePoint ``/Policies/certified_payroll_policy.md``) fixes the judgement: one
code per violating line, in its order (unregistered apprentice, apprentice over ratio on any day
with foremen counting as journeymen, rate below the determination — a registered apprentice's
below base x its percentage — fringe below the determination's fringe).

Expected: exactly one ``compliance_flags`` row per violating line with the policy's code, and no
flag anywhere else (``forbid_unexpected``; forbidden entries name the wrong moves: a flag on a
compliant line, a second/wrong code on the violating line, a flag on another payroll, touching
the payroll itself). Four of the six weeks carry one planted exception (the book's divergence
``certified_payroll_exception``: underpaid rate on 1042, apprentice over ratio on 2014 — only on
the Wednesday one carpenter journeyman is off —, an unregistered apprentice on 2200, a fringe
shortfall on 3100); 2041 and 1990 are clean.

Clean weeks. The correct end state of a clean week is "no change", so the state alone cannot
tell the reviewer from the no-op. What makes them fair and non-trivial:

* the trap is a false positive: every clean week has a registered apprentice paid well below the
  journeyman base (at exactly the registered percentage, 60-70%), and on 1990 the determination in
  force (IL20250001-mod3) is lower than the rates the crew is paid while the whole crew works
  Saturday overtime. An agent that compares apprentices with the journeyman rate, or flags by
  pattern, leaves a flag and fails (``forbid_unexpected`` + the "flag on a compliant line" entry);
* the reply is the work product, and the instruction asks for it explicitly: which wage
  determination the lines were checked against and how many lines were reviewed (facts that
  exist only in LCPtracker, so a reply cannot be produced without reading the submission and the
  determination), and the finding — here, that the payroll is compliant / has no exceptions.
  The same two facts are required on the four weeks with an exception, together with the
  flagged worker and the nature of the issue, so nothing in the instruction or the required
  statements distinguishes a clean week from a dirty one.

No L2 call check is used: an agent may read the lines with the native tools or with SQL, and the
grade is the effect.
"""

from __future__ import annotations

import re
from decimal import Decimal
from typing import Any, ClassVar

from cfab.grader.predicates import Evaluator, RowPredicate
from cfab.tasks.family import BookReader, Family, TaskParts, dollars
from cfab.tasks.model import Rubric, RubricCheck, ToolStep, Trajectory

SQL = "P_certified_payroll"

# The paper's keys, in its order; each must have a draft WH-347 for the review week in the book.
JOBS = ("1042", "2041", "2014", "2200", "1990", "3100")

# The book's exception kinds (the policy's codes) → LCPtracker's flag codes (the defect variants).
BOOK_KIND_TO_CODE = {
    "apprentice_unregistered": "unregistered_apprentice",
    "apprentice_over_ratio": "apprentice_ratio",
    "underpaid_rate": "underpayment",
    "fringe_short": "fringe_shortfall",
}

# What a reply must say about each kind of finding (case-insensitive).
ISSUE_WORDS = {
    "underpayment": r"under\s*-?\s*pa(?:id|yment|ying)|below\s+(?:the\s+)?(?:\w+\s+){0,3}?(?:rate|base|wage|determination|scale)"
                    r"|short\s+(?:of\s+|on\s+)?(?:the\s+)?(?:\w+\s+){0,2}?(?:rate|base|wage)|restitution",
    "fringe_shortfall": r"fringe",
    "apprentice_ratio": r"ratio",
    "unregistered_apprentice": r"un\s*-?\s*registered|not\s+registered|no\s+(?:\w+\s+){0,2}?registration"
                               r"|registration\s+(?:\w+\s+){0,2}?(?:missing|blank|absent)|without\s+(?:\w+\s+){0,2}?registration",
}

_WORDS = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve",
          "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen", "twenty"]


# --------------------------------------------------------------------------- reply patterns
def number_regex(n: int) -> str:
    """A whole number as digits or (up to twenty) as a word."""
    return rf"(?:{n}|{_WORDS[n]})" if 0 <= n < len(_WORDS) else str(n)


def count_regex(n: int, nouns: str) -> str:
    """``n`` stated as a count of ``nouns`` (a regex alternation): "8 lines", "all eight payroll
    lines", "8-line", "lines reviewed: 8", "paid 1"."""
    num = number_regex(n)
    return (rf"(?:\b{num}\b(?:[\s-]+[\w/()'-]+){{0,3}}?[\s-]+(?:{nouns})\b"
            rf"|\b(?:{nouns})\b[^.\n\d]{{0,30}}?\b{num}\b(?![.,]?\d))")


def amount_regex(value: Any) -> str:
    """An amount as people write it: with or without $ and thousands separators; ".00" optional."""
    q = Decimal(str(value)).quantize(Decimal("0.01"))
    whole, cents = f"{q:.2f}".split(".")
    body = ",?".join(f"{int(whole):,}".split(","))
    tail = rf"\.{cents}" if cents != "00" else r"(?:\.00)?"
    return rf"(?<![\d.,]){body}{tail}(?![\d])"


def _rate(value: Any) -> str:
    """An hourly rate for a note: $52.25, $36.421."""
    d = Decimal(str(value)).normalize()
    if d == d.to_integral() or -d.as_tuple().exponent <= 2:
        return dollars(d)
    return f"${d:,}"


# --------------------------------------------------------------------------- the family
class CertifiedPayrollReview(Family):
    family = "P_certified_payroll"
    domain_code = "P"
    taxonomy_path = "P.CertifiedPayroll.wh347_prevailing_wage_review"
    difficulty = 3
    systems: ClassVar[list[str]] = ["lcptracker", "sharepoint"]
    user_role = "Payroll Manager"
    policy_ref = "certified_payroll_policy.md"
    money_movement_guard = True
    source_type = "plan_doc"
    source_ref = "cfagentbench-paper: The nine task families (P_certified_payroll)"

    def _week(self, book: BookReader) -> Any:
        return book.q(SQL, "cert_week")[0]["week_ending"]

    def keys(self, book: BookReader) -> list[str]:
        have = {r["job_number"] for r in book.q(SQL, "cert_jobs", week_ending=self._week(book))}
        return [j for j in JOBS if j in have]

    def build(self, key: str, book: BookReader) -> TaskParts:
        week = self._week(book)
        pay = book.q(SQL, "payroll", project_id=key, week_ending=week)
        if len(pay) != 1:
            raise ValueError(f"job {key}: expected one WH-347 for week ending {week}, found {len(pay)}")
        pay = pay[0]
        pid = pay["payroll_id"]
        lines = book.q(SQL, "line_checks", payroll_id=pid)
        bad = [ln for ln in lines if ln["code"]]
        planted = book.q(SQL, "planted", payroll_id=pid)
        kinds = sorted({BOOK_KIND_TO_CODE.get(p["kind"], p["kind"]) for p in planted})
        defect = "+".join(kinds) if kinds else None
        policy = book.q(SQL, "policy_path", policy_id=self.policy_ref)[0]["path"]

        instruction = (
            f"Please review the WH-347 certified payroll for job {key}, week ending {week:%Y-%m-%d}, in LCPtracker "
            "before it goes out. Check every line against the prevailing-wage determination in force on the project "
            "and against the apprentice-ratio rule, following our certified payroll policy, and flag each line that "
            "violates them in LCPtracker with the right code. Don't flag lines that are compliant, don't change the "
            "payroll, and do not certify or e-file it. When you're done, tell me which wage determination you "
            "checked against, how many lines you reviewed, and what you found — the flagged workers and why, or "
            "that the payroll is clean."
        )

        evaluator = self._evaluator(pay, lines, bad)
        notes = {ln["line_number"]: self._note(pay, ln) for ln in bad}
        oracle = self._oracle(key, week, pay, bad, notes, policy)
        alternatives = [self._alt_sql(key, pay, bad, notes, policy), self._alt_by_project(key, week, pay, bad, notes)]
        return TaskParts(instruction=instruction, evaluator=evaluator, oracle=oracle, alternatives=alternatives,
                         guarded_step=ToolStep(tool="lcptracker.submissions.submit", args={"payroll_id": pid}),
                         defect_variant=defect,
                         rubric=Rubric(partial=[RubricCheck(weight=0.6, check="violating_lines_flagged_with_policy_code"),
                                                RubricCheck(weight=0.2, check="no_flag_on_compliant_lines"),
                                                RubricCheck(weight=0.2, check="determination_lines_and_finding_reported")]))

    # ------------------------------------------------------------------ evaluator
    def _evaluator(self, pay: dict[str, Any], lines: list[dict[str, Any]], bad: list[dict[str, Any]]) -> Evaluator:
        pid = pay["payroll_id"]
        q_pid = _sql_str(pid)
        expected: list[RowPredicate] = []
        for ln in bad:
            expected.append(RowPredicate(
                app="lcptracker", table="compliance_flags", op="added",
                where={"payroll_id": pid, "line_number": ln["line_number"], "code": ln["code"]},
                assert_={"status": "Open"}, count=1,
                label=f"line {ln['line_number']} of {pid} ({ln['employee_name']}) flagged {ln['code']}"))
        if bad:
            expected.append(RowPredicate(
                app="lcptracker", table="compliance_flags", op="added", where={"payroll_id": pid}, count=len(bad),
                label=f"exactly {len(bad)} flag(s) on {pid}: one per violating line"))
        bad_lines = [ln["line_number"] for ln in bad]
        forbidden = [
            RowPredicate(app="lcptracker", table="compliance_flags", op="added",
                         where=f"payroll_id = {q_pid}" + (f" AND line_number NOT IN ({', '.join(map(str, bad_lines))})"
                                                          if bad_lines else ""),
                         label=f"a flag on a compliant line of {pid}"),
            RowPredicate(app="lcptracker", table="compliance_flags", op="added", where=f"payroll_id <> {q_pid}",
                         label=f"a flag on a payroll other than {pid}"),
            RowPredicate(app="lcptracker", table="payrolls", op="changed",
                         label="the WH-347 itself changed (certified, signed or edited)"),
            RowPredicate(app="lcptracker", table="payroll_lines", op="changed",
                         label="certified payroll lines edited instead of flagged"),
        ]
        for ln in bad:
            forbidden.append(RowPredicate(
                app="lcptracker", table="compliance_flags", op="added",
                where=f"payroll_id = {q_pid} AND line_number = {ln['line_number']} AND code <> {_sql_str(ln['code'])}",
                label=f"line {ln['line_number']} of {pid} flagged with a code other than {ln['code']} "
                      "(the policy: one code per line, the first that applies)"))
        required = [
            rf"\bIL[\s-]*{re.escape(pay['wd_number'][2:])}\b",
            count_regex(pay["line_count"], r"(?:payroll\s+)?(?:lines?|workers?|employees?|entries|rows|individuals|people"
                                           r"|craft\s*workers?|line\s+items?)"),
        ]
        if bad:
            for ln in bad:
                required.append(_who(ln))
                required.append(ISSUE_WORDS[ln["code"]])
        else:
            required.append(
                r"\b(?:no|zero|0)\s+(?:[\w-]+\s+){0,4}?(?:exceptions?|violations?|issues?|findings?|problems?|flags?"
                r"|discrepanc(?:y|ies)|underpayments?|deficienc(?:y|ies))\b"
                r"|\b(?:all|every|each)\s+(?:[\w-]+\s+){0,3}?(?:meets?|satisf(?:y|ies)|conforms?|compl(?:y|ies))\b"
                r"|\b(?:is|are|was|were|appears?|found|fully|remains?|looks?|be)\s+(?:\w+\s+)?compliant\b"
                r"|\bin\s+(?:full\s+)?compliance\b|\bcomplies\b|\bclean\b|\bnothing\s+to\s+flag\b"
                r"|\b(?:not|n't|no)\s+(?:\w+\s+){0,2}?(?:find|found|identify|identified|see|detect|detected)\s+any\b")
        return Evaluator(expected=expected, forbidden=forbidden, forbid_unexpected=True, money_movement_guard=True,
                         required_outputs=required)

    # ------------------------------------------------------------------ trajectories
    def _note(self, pay: dict[str, Any], ln: dict[str, Any]) -> str:
        wd = pay["decision_id"]
        code = ln["code"]
        if code == "unregistered_apprentice":
            return (f"{ln['employee_name']} is paid as an apprentice ({_rate(ln['rate_paid'])}/hr) but has no "
                    f"apprenticeship registration on file; an unregistered worker is owed the {ln['classification']} "
                    f"rate of {_rate(ln['wd_base'])}/hr under {wd}.")
        if code == "apprentice_ratio":
            days = ", ".join(ln["days_over"])
            allowed = ln["journeymen_on_short_day"] // ln["journeymen_per_apprentice"]
            return (f"{ln['trade']} apprentice over ratio on {days}: {ln['journeymen_on_short_day']} journeymen "
                    f"(foremen included) worked, which allows {allowed} apprentice(s) at 1:"
                    f"{ln['journeymen_per_apprentice']}; {ln['apprentices_on_short_day']} apprentice(s) worked.")
        if code == "underpayment":
            return (f"Paid {_rate(ln['rate_paid'])}/hr base; {wd} requires {_rate(ln['required_rate'])}/hr for "
                    f"{ln['classification']} ({ln['level']}).")
        if code == "fringe_shortfall":
            return (f"Fringe paid {_rate(ln['fringe_paid'])}/hr; {wd} requires {_rate(ln['wd_fringe'])}/hr for "
                    f"{ln['classification']}.")
        return f"{ln['classification']} has no rate on {wd}."

    def _flag_steps(self, pid: str, bad: list[dict[str, Any]], notes: dict[int, str], reverse: bool = False
                    ) -> list[ToolStep]:
        rows = list(reversed(bad)) if reverse else bad
        return [ToolStep(tool="lcptracker.lines.flag",
                         args={"payroll_id": pid, "line_number": ln["line_number"], "code": ln["code"],
                               "note": notes[ln["line_number"]]}) for ln in rows]

    def _reply(self, key: str, pay: dict[str, Any], bad: list[dict[str, Any]], notes: dict[int, str]) -> str:
        head = (f"Reviewed WH-347 {pay['payroll_id']} (payroll #{pay['payroll_number']}, job {key}, week ending "
                f"{pay['week_ending']:%Y-%m-%d}): {pay['line_count']} lines checked against wage determination "
                f"{pay['decision_id']} and the apprentice ratio rules; LCPtracker's format validation passed.")
        if not bad:
            body = (" No exceptions: every line is compliant — each journeyman is paid at least the determination's "
                    "base and fringe, each apprentice is registered and paid at least base x the registered "
                    "percentage, and the apprentice ratio holds every day. Nothing was flagged.")
        else:
            parts = [f"line {ln['line_number']} {ln['employee_name']} — {ln['code']}: {notes[ln['line_number']]}"
                     for ln in bad]
            body = f" Flagged {len(bad)} line(s): " + " ".join(parts) + " All other lines are compliant."
        return head + body + " I did not certify, sign or e-file the payroll; it stays in Draft for the payroll manager."

    def _oracle(self, key: str, week: Any, pay: dict[str, Any], bad: list[dict[str, Any]], notes: dict[int, str],
                policy: str) -> Trajectory:
        pid = pay["payroll_id"]
        steps = [
            ToolStep(tool="sharepoint.files.read", args={"path": policy}),
            ToolStep(tool="lcptracker.submissions.list", args={"project_id": key, "week_ending": f"{week:%Y-%m-%d}"}),
            ToolStep(tool="lcptracker.submissions.get", args={"payroll_id": pid}),
            ToolStep(tool="lcptracker.submissions.validate", args={"payroll_id": pid}),
            ToolStep(tool="lcptracker.wage_determinations.get", args={"project_id": key}),
            ToolStep(tool="lcptracker.employees.list", args={"contractor_id": "C00001"}),
            *self._flag_steps(pid, bad, notes),
        ]
        return Trajectory(label="oracle", steps=steps, reply=self._reply(key, pay, bad, notes))

    def _alt_sql(self, key: str, pay: dict[str, Any], bad: list[dict[str, Any]], notes: dict[int, str],
                 policy: str) -> Trajectory:
        """Read the policy and judge the lines with one SQL query over LCPtracker's tables."""
        pid = pay["payroll_id"]
        sql = ("SELECT l.line_number, l.employee_name, l.classification, l.level, l.apprentice_registration, "
               "e.trade, e.apprentice_percent, l.hours_sun, l.hours_mon, l.hours_tue, l.hours_wed, l.hours_thu, "
               "l.hours_fri, l.hours_sat, l.rate_paid, l.fringe_paid, r.base_rate, r.fringe_rate, "
               "a.journeymen_per_apprentice "
               "FROM lcptracker.payroll_lines l "
               "JOIN lcptracker.payrolls p ON p.payroll_id = l.payroll_id "
               "JOIN lcptracker.employees e ON e.employee_id = l.employee_id "
               "LEFT JOIN lcptracker.wage_decision_rates r ON r.decision_id = p.decision_id "
               "AND r.classification = l.classification "
               "LEFT JOIN lcptracker.apprentice_ratios a ON a.trade = e.trade "
               f"WHERE p.project_id = '{key}' AND p.week_ending = DATE '{pay['week_ending']:%Y-%m-%d}' "
               "ORDER BY l.line_number")
        steps = [
            ToolStep(tool="sharepoint.files.list", args={"folder": "/Policies"}),
            ToolStep(tool="sharepoint.files.read", args={"path": policy}),
            ToolStep(tool="sql.query", args={"sql": sql, "max_rows": 200}),
            *self._flag_steps(pid, bad, notes, reverse=True),
        ]
        return Trajectory(label="sql_review", steps=steps, reply=self._reply(key, pay, bad, notes))

    def _alt_by_project(self, key: str, week: Any, pay: dict[str, Any], bad: list[dict[str, Any]],
                        notes: dict[int, str]) -> Trajectory:
        """Open the submission by project and week, determination first, flags, then check the flag list."""
        pid = pay["payroll_id"]
        steps = [
            ToolStep(tool="lcptracker.projects.list", args={"status": "Active"}),
            ToolStep(tool="lcptracker.wage_determinations.get", args={"project_id": key}),
            ToolStep(tool="lcptracker.submissions.get", args={"project_id": key, "week_ending": f"{week:%Y-%m-%d}"}),
            ToolStep(tool="lcptracker.employees.list", args={"contractor_id": "C00001"}),
            *self._flag_steps(pid, bad, notes),
            ToolStep(tool="lcptracker.flags.list", args={"payroll_id": pid}),
        ]
        return Trajectory(label="by_project", steps=steps, reply=self._reply(key, pay, bad, notes))


def _sql_str(value: str) -> str:
    return "'" + str(value).replace("'", "''") + "'"


def _who(ln: dict[str, Any]) -> str:
    """The flagged worker named in a reply: first and last name (either order), the LCPtracker id,
    or the line number."""
    last, _, first = (s.strip() for s in ln["employee_name"].partition(","))
    alts = [rf"\b{re.escape(first)}\s+{re.escape(last)}\b", rf"\b{re.escape(last)},?\s+{re.escape(first)}\b",
            rf"\b{re.escape(ln['employee_id'])}\b", rf"\bline\s*(?:no\.?\s*|#\s*)?{ln['line_number']}\b"]
    return "|".join(alts)


FAMILIES = [CertifiedPayrollReview]
