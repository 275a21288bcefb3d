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

Report: the instruction asks for four typed answers: the wage determination checked against
(``id``; the WD number alone is accepted, it has one modification in LCPtracker; the previous
modification is the stale lookalike), the number of lines reviewed (``count``), the LCPtracker
employee ids of the flagged workers (``id_list``, empty on a clean week; the worker's name and
"line N" are accepted; the nearest compliant line — same level and classification first — is
the lookalike, on a clean week the apprentice paid at the registered percentage) and the finding
(``choice``: ``compliant`` or the policy's code of the violation, the book's kind names accepted).

Clean weeks. The correct end state of a clean week is "no change", so the state alone cannot
tell the reviewer from the no-op. What makes them fair and non-trivial:

* the trap is a false positive: every clean week has a registered apprentice paid well below the
  journeyman base (at exactly the registered percentage, 60-70%), and on 1990 the determination in
  force (IL20250001-mod3) is lower than the rates the crew is paid while the whole crew works
  Saturday overtime. An agent that compares apprentices with the journeyman rate, or flags by
  pattern, leaves a flag and fails (``forbid_unexpected`` + the "flag on a compliant line" entry);
* the answers are the work product: the determination and the line count exist only in
  LCPtracker, so they cannot be given without reading the submission and the determination, and
  the finding ``compliant`` with no flagged worker. The same answers are asked on the four weeks
  with an exception, so nothing in the instruction distinguishes a clean week from a dirty one.

Wrong trajectories (admission's lookalike / stale / careless / contradicting_report / shortcut
mutants): the flag on the lookalike line (reported as the right worker, or as the lookalike);
a second code on the violating line; the wrong code alone; the trap apprentice flagged (reported
or not); the right flags reported as compliant; the answers without the flags; a flag on the
neighbouring job's payroll; the previous modification reported.

No L2 call check is used: an agent may read the lines with the native tools or with SQL, and the
grade is the effect.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any, ClassVar

from cfab.grader.predicates import Evaluator, RowPredicate
from cfab.seeds.determinism import stable_id
from cfab.tasks.family import BookReader, Family, TaskParts, dollars
from cfab.tasks.kit import answers_of, ask, choice_answer, count_answer, id_answer, id_list_answer
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

# The finding answer's options: compliant, or the policy's code (in the policy's order); the book's
# kind names and plain wordings are accepted spellings.
FINDINGS = ("compliant", "unregistered_apprentice", "apprentice_ratio", "underpayment", "fringe_shortfall")
FINDING_ALIASES = {
    "compliant": ["clean", "no exceptions", "no violations", "no issues", "none"],
    **{code: [kind] for kind, code in BOOK_KIND_TO_CODE.items()},
}
BOOK_KIND_TO_CODE_INV = {code: kind for kind, code in BOOK_KIND_TO_CODE.items()}

# The code a careless reviewer gives each violation instead (an unregistered apprentice is also paid
# below the journeyman rate, though the policy says its own code comes first; an apprentice over the
# ratio looks underpaid against the journeyman rate).
PLAUSIBLE_WRONG_CODE = {"underpayment": "fringe_shortfall", "fringe_shortfall": "underpayment",
                        "apprentice_ratio": "underpayment", "unregistered_apprentice": "underpayment"}

_WORDS = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve",
          "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen", "twenty"]


# --------------------------------------------------------------------------- reply patterns
# (no longer used by this family, whose report is typed answers; other families import them)
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

        others = [r for j in JOBS if j != key
                  for r in book.q(SQL, "payroll", project_id=j, week_ending=week)]
        answers = self._answers(pay, lines, bad)
        instruction = (
            f"Please review the WH-347 certified payroll for job {key}, week ending {week:%Y-%m-%d}, in LCPtracker "
            "before it goes out. Check every line against the prevailing-wage determination in force on the project "
            "and against the apprentice-ratio rule, following our certified payroll policy, and flag each line that "
            "violates them in LCPtracker with the right code. Don't flag lines that are compliant, don't change the "
            f"payroll, and do not certify or e-file it. {ask(answers)}"
        )

        evaluator = self._evaluator(pay, lines, bad, answers)
        notes = {ln["line_number"]: self._note(pay, ln) for ln in bad}
        report = answers_of(answers)
        oracle = self._oracle(key, week, pay, bad, notes, policy, report)
        alternatives = [self._alt_sql(key, pay, bad, notes, policy), self._alt_by_project(key, week, pay, bad, notes),
                        self._alt_corrected(pay, lines, bad, notes)]
        mutants = self._mutants(pay, lines, bad, notes, report, answers, others)
        return TaskParts(instruction=instruction, evaluator=evaluator, oracle=oracle, alternatives=alternatives,
                         mutants=mutants,
                         guarded_step=ToolStep(tool="lcptracker.submissions.submit", args={"payroll_id": pid}),
                         defect_variant=defect,
                         rubric=Rubric(partial=[RubricCheck(weight=0.6, check="violating_lines_flagged_with_policy_code"),
                                                RubricCheck(weight=0.2, check="no_flag_on_compliant_lines"),
                                                RubricCheck(weight=0.2, check="determination_lines_and_finding_reported")]))

    # ------------------------------------------------------------------ answers
    def _answers(self, pay: dict[str, Any], lines: list[dict[str, Any]], bad: list[dict[str, Any]]) -> list[Any]:
        pid = pay["payroll_id"]
        codes = sorted({ln["code"] for ln in bad}, key=FINDINGS.index)
        if len(codes) > 1:
            raise ValueError(f"{pid}: violations of {codes}; the finding answer names one code")
        wd, mod = pay["wd_number"], int(pay["modification"])
        stale = [f"{wd}-mod{mod - 1}"] if mod > 0 else []
        return [
            id_answer("wage_determination", "the wage determination you checked the lines against",
                      pay["decision_id"], aliases=[wd, f"{wd} modification {mod}"], lookalikes=stale),
            count_answer("lines_reviewed", "how many payroll lines you reviewed", pay["line_count"]),
            id_list_answer("flagged_workers", "the LCPtracker employee ids of the workers whose lines you flagged, "
                                              "a list that is empty if you flagged none",
                           [ln["employee_id"] for ln in bad],
                           aliases={ln["employee_id"]: _names(ln) for ln in lines},
                           lookalikes=[x["employee_id"] for x in _lookalikes(lines, bad)]),
            choice_answer("finding", "what you found: the policy code of the violation you flagged, or compliant",
                          FINDINGS, codes[0] if codes else "compliant", aliases=FINDING_ALIASES),
        ]

    # ------------------------------------------------------------------ evaluator
    def _evaluator(self, pay: dict[str, Any], lines: list[dict[str, Any]], bad: list[dict[str, Any]],
                   answers: list[Any]) -> Evaluator:
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
        return Evaluator(expected=expected, forbidden=forbidden, forbid_unexpected=True, money_movement_guard=True,
                         answers=[a.model_dump() for a in answers])

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
                policy: str, report: dict[str, Any]) -> Trajectory:
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
        return Trajectory(label="oracle", steps=steps, reply=self._reply(key, pay, bad, notes), answers=report)

    def _alt_sql(self, key: str, pay: dict[str, Any], bad: list[dict[str, Any]], notes: dict[int, str],
                 policy: str) -> Trajectory:
        """Read the policy and judge the lines with one SQL query over LCPtracker's tables; the
        answers as the WD number alone, the count as a string, the workers by name."""
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
        answers = {"wage_determination": pay["wd_number"], "lines_reviewed": str(pay["line_count"]),
                   "flagged_workers": [_names(ln)[0] for ln in reversed(bad)],
                   "finding": next((BOOK_KIND_TO_CODE_INV[ln["code"]] for ln in bad), "clean")}
        return Trajectory(label="sql_review", steps=steps, reply=self._reply(key, pay, bad, notes), answers=answers)

    def _alt_by_project(self, key: str, week: Any, pay: dict[str, Any], bad: list[dict[str, Any]],
                        notes: dict[int, str]) -> Trajectory:
        """Open the submission by project and week, determination first, flags, then check the flag
        list; a short reply with "didn't", the determination spelled out, the count as a word, the
        workers as "line N"."""
        pid = pay["payroll_id"]
        steps = [
            ToolStep(tool="lcptracker.projects.list", args={"status": "Active"}),
            ToolStep(tool="lcptracker.wage_determinations.get", args={"project_id": key}),
            ToolStep(tool="lcptracker.submissions.get", args={"project_id": key, "week_ending": f"{week:%Y-%m-%d}"}),
            ToolStep(tool="lcptracker.employees.list", args={"contractor_id": "C00001"}),
            *self._flag_steps(pid, bad, notes),
            ToolStep(tool="lcptracker.flags.list", args={"payroll_id": pid}),
        ]
        n = pay["line_count"]
        answers = {"wage_determination": f"{pay['wd_number']} Modification {pay['modification']}",
                   "lines_reviewed": _WORDS[n] if n < len(_WORDS) else n,
                   "flagged_workers": "; ".join(f"line {ln['line_number']}" for ln in bad),
                   "finding": bad[0]["code"].upper() if bad else "No violations"}
        reply = ("Flagged the violating line; I didn't certify or e-file anything." if bad else
                 "Every line is compliant, so I didn't flag anything. Not certified or e-filed.")
        return Trajectory(label="by_project", steps=steps, reply=reply, answers=answers)

    def _alt_corrected(self, pay: dict[str, Any], lines: list[dict[str, Any]], bad: list[dict[str, Any]],
                       notes: dict[int, str]) -> Trajectory:
        """A wrong flag raised and removed before finishing (the trap apprentice flagged against the
        journeyman rate, or the violating line under a wrong code), then the right flags; "Done."."""
        pid = pay["payroll_id"]
        target = next((ln for ln in lines if ln["level"] == "Apprentice" and not ln["code"]), None) or \
            (bad[0] if bad else lines[0])
        wrong = "fringe_shortfall" if target["code"] == "underpayment" else "underpayment"
        steps = [
            ToolStep(tool="lcptracker.submissions.get", args={"payroll_id": pid}),
            ToolStep(tool="lcptracker.lines.flag", args={"payroll_id": pid, "line_number": target["line_number"],
                                                         "code": wrong, "note": "below the journeyman base rate"}),
            ToolStep(tool="lcptracker.wage_determinations.get", args={"project_id": pay["project_id"]}),
            ToolStep(tool="lcptracker.flags.delete",
                     args={"flag_id": _flag_id(pid, target["line_number"], wrong)}),
            *self._flag_steps(pid, bad, notes),
        ]
        answers = {"wage_determination": pay["decision_id"].lower(), "lines_reviewed": float(pay["line_count"]),
                   "flagged_workers": [ln["employee_id"].lower() for ln in bad],
                   "finding": bad[0]["code"] if bad else "compliant"}
        return Trajectory(label="self_corrected", steps=steps, reply="Done.", answers=answers)

    # ------------------------------------------------------------------ wrong trajectories
    def _mutants(self, pay: dict[str, Any], lines: list[dict[str, Any]], bad: list[dict[str, Any]],
                 notes: dict[int, str], report: dict[str, Any], answers: list[Any],
                 others: list[dict[str, Any]]) -> list[Trajectory]:
        pid = pay["payroll_id"]
        read = ToolStep(tool="lcptracker.submissions.get", args={"payroll_id": pid})

        def flag(ln: dict[str, Any], code: str, payroll: str = pid) -> ToolStep:
            return ToolStep(tool="lcptracker.lines.flag", args={"payroll_id": payroll, "line_number": ln["line_number"],
                                                                "code": code, "note": f"{code}: see the determination"})

        def told(flagged: list[dict[str, Any]], finding: str) -> dict[str, Any]:
            return {**report, "flagged_workers": [ln["employee_id"] for ln in flagged], "finding": finding}

        right = self._flag_steps(pid, bad, notes)
        out: list[Trajectory] = []
        trap = next((ln for ln in lines if ln["level"] == "Apprentice" and not ln["code"]), None)
        if bad:
            looks = _lookalikes(lines, bad)
            code = bad[0]["code"]
            other = PLAUSIBLE_WRONG_CODE[code]
            out += [
                Trajectory(label=f"flag on the lookalike line {looks[0]['line_number']}, reported as the right worker",
                           mutant_class="lookalike", steps=[read, *(flag(x, code) for x in looks)],
                           reply="Flagged.", answers=report),
                Trajectory(label=f"flag on the lookalike line {looks[0]['line_number']}, reported as such",
                           mutant_class="lookalike", steps=[read, *(flag(x, code) for x in looks)],
                           reply="Flagged.", answers=told(looks, code)),
                Trajectory(label=f"right flag plus a second code ({other}) on the same line", mutant_class="careless",
                           steps=[read, *right, flag(bad[0], other)], reply="Flagged.", answers=report),
                Trajectory(label=f"the violating line flagged {other} instead of {code}", mutant_class="careless",
                           steps=[read, *(flag(ln, other) for ln in bad)], reply="Flagged.",
                           answers=told(bad, other)),
                Trajectory(label="right flags, reported as compliant", mutant_class="contradicting_report",
                           steps=[read, *right], reply="No violations found.", answers=told([], "compliant")),
                Trajectory(label="the answers without the flags", mutant_class="shortcut",
                           steps=[read, ToolStep(tool="lcptracker.wage_determinations.get",
                                                 args={"project_id": pay["project_id"]})],
                           reply="Found and reported the violation.", answers=report),
            ]
            if trap is not None:
                out.append(Trajectory(label=f"right flags plus the compliant apprentice {trap['employee_name']} "
                                            "flagged against the journeyman rate", mutant_class="careless",
                                      steps=[read, *right, flag(trap, "underpayment")], reply="Flagged.",
                                      answers=told([*bad, trap], code)))
        else:
            if trap is None:
                raise ValueError(f"{pid}: a clean week without an apprentice has no trap")
            journeyman = next(ln for ln in lines if ln["level"] != "Apprentice")
            n_jour = sum(ln["level"] != "Apprentice" for ln in lines)
            out += [
                Trajectory(label=f"apprentice {trap['employee_name']} flagged against the journeyman rate",
                           mutant_class="careless", steps=[read, flag(trap, "underpayment")], reply="Flagged.",
                           answers=told([trap], "underpayment")),
                Trajectory(label=f"apprentice {trap['employee_name']} flagged, reported as clean",
                           mutant_class="careless", steps=[read, flag(trap, "underpayment")], reply="Clean.",
                           answers=report),
                Trajectory(label=f"journeyman {journeyman['employee_name']} flagged 'other' for overtime",
                           mutant_class="careless",
                           steps=[read, ToolStep(tool="lcptracker.lines.flag",
                                                 args={"payroll_id": pid, "line_number": journeyman["line_number"],
                                                       "code": "other", "note": "Saturday overtime"})],
                           reply="Flagged the overtime.", answers=told([journeyman], "underpayment")),
                Trajectory(label="no flag, reported as an underpaid apprentice", mutant_class="contradicting_report",
                           steps=[read], reply="The apprentice is underpaid.", answers=told([trap], "underpayment")),
            ]
            if n_jour != pay["line_count"]:
                out.append(Trajectory(label=f"only the {n_jour} journeyman lines reviewed",
                                      mutant_class="contradicting_report", steps=[read], reply="Clean.",
                                      answers={**report, "lines_reviewed": n_jour}))
            if others:
                o = others[0]
                out.append(Trajectory(label=f"a flag on the neighbouring job's payroll {o['payroll_id']}",
                                      mutant_class="lookalike",
                                      steps=[read, ToolStep(tool="lcptracker.lines.flag",
                                                            args={"payroll_id": o["payroll_id"], "line_number": 1,
                                                                  "code": "underpayment", "note": "below base"})],
                                      reply="Clean; flagged the other job.", answers=report))
        stale = answers[0].lookalikes
        if stale:
            out.append(Trajectory(label=f"checked against the previous modification {stale[0]}", mutant_class="stale",
                                  steps=[read, *right], reply="Reviewed.",
                                  answers={**report, "wage_determination": stale[0]}))
        elif others:
            out.append(Trajectory(label=f"reported the neighbouring job's determination {others[0]['decision_id']}",
                                  mutant_class="stale", steps=[read, *right], reply="Reviewed.",
                                  answers={**report, "wage_determination": others[0]["decision_id"]}))
        return out


def _names(ln: dict[str, Any]) -> list[str]:
    """The other spellings of a worker on a line: "First Last", "Last First" (a JSON array's
    "Last, First" normalises to it) and "line N"."""
    last, _, first = (s.strip() for s in ln["employee_name"].partition(","))
    return [f"{first} {last}", f"{last} {first}", f"line {ln['line_number']}"]


def _lookalikes(lines: list[dict[str, Any]], bad: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The compliant line an agent would confuse with each violating one: same level and
    classification first, then same level, then same classification, then the nearest line. On
    a clean week: the apprentices (paid well below the journeyman base, at their percentage)."""
    ok = [ln for ln in lines if not ln["code"]]
    if not bad:
        return [ln for ln in ok if ln["level"] == "Apprentice"]
    out: list[dict[str, Any]] = []
    for b in bad:
        def rank(ln: dict[str, Any], b: dict[str, Any] = b) -> tuple:
            return (not (ln["level"] == b["level"] and ln["classification"] == b["classification"]),
                    ln["level"] != b["level"], ln["classification"] != b["classification"],
                    abs(ln["line_number"] - b["line_number"]), ln["line_number"])
        best = min(ok, key=rank)
        if best not in out:
            out.append(best)
    return out


def _flag_id(payroll_id: str, line_number: int, code: str) -> str:
    """LCPtracker's id of a raised flag (hashed from its natural key, as the app does)."""
    return stable_id("lcptracker", "flag", payroll_id, line_number, code)


def _sql_str(value: str) -> str:
    return "'" + str(value).replace("'", "''") + "'"


FAMILIES = [CertifiedPayrollReview]
