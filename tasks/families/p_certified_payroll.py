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

from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from typing import Any

from cfab.grader.answers import AnswerSpec
from cfab.grader.predicates import Evaluator
from cfab.seeds.determinism import stable_id
from cfab.tasks.family import BookReader, Family, held_out_count, pick_held_out
from cfab.tasks.kit.answers import ask, choice_answer, count_answer, id_answer, id_list_answer
from cfab.tasks.kit.entries import evaluator, expect_added, forbid_added, forbid_changed
from cfab.tasks.kit.figures import count_word, dollars
from cfab.tasks.kit.sql import quoted
from cfab.tasks.kit.steps import mutant, step, trajectory
from cfab.tasks.model import Rubric, ToolStep, Trajectory

FAMILY = "P_certified_payroll"

# The paper's keys, in its order; each must have a draft WH-347 for the review week in the book.
JOBS = ("1042", "2041", "2014", "2200", "1990", "3100")
EXTRA_PUBLIC = 1  # further public keys from seeds/cert_extra.py's WH-347s (the rest are held out)

# The book's exception kinds (the policy's codes) → LCPtracker's flag codes (the defect variants).
BOOK_KIND_TO_CODE = {
    "apprentice_unregistered": "unregistered_apprentice",
    "apprentice_over_ratio": "apprentice_ratio",
    "underpaid_rate": "underpayment",
    "fringe_short": "fringe_shortfall",
    "misclassification": "misclassification",  # seeds/cert_extra.py: a classification not on the determination
}

# The finding answer's options: compliant, or the policy's code (in the policy's order); the book's
# kind names and plain wordings are accepted spellings.
FINDINGS = (
    "compliant",
    "unregistered_apprentice",
    "apprentice_ratio",
    "misclassification",
    "underpayment",
    "fringe_shortfall",
)
FINDING_ALIASES = {
    "compliant": ["clean", "no exceptions", "no violations", "no issues", "none"],
    **{code: [kind] for kind, code in BOOK_KIND_TO_CODE.items()},
}
BOOK_KIND_TO_CODE_INV = {code: kind for kind, code in BOOK_KIND_TO_CODE.items()}

# The code a careless reviewer gives each violation instead (an unregistered apprentice is also paid
# below the journeyman rate, though the policy says its own code comes first; an apprentice over the
# ratio looks underpaid against the journeyman rate).
PLAUSIBLE_WRONG_CODE = {
    "underpayment": "fringe_shortfall",
    "fringe_shortfall": "underpayment",
    "apprentice_ratio": "underpayment",
    "unregistered_apprentice": "underpayment",
    "misclassification": "underpayment",
}

RUBRIC = Rubric.of(
    violating_lines_flagged_with_policy_code=0.6,
    no_flag_on_compliant_lines=0.2,
    determination_lines_and_finding_reported=0.2,
)


def _rate(value: Any) -> str:
    """An hourly rate for a note: $52.25, $36.421."""
    d = Decimal(str(value)).normalize()
    exponent = d.as_tuple().exponent
    if d == d.to_integral() or (isinstance(exponent, int) and -exponent <= 2):
        return dollars(d)
    return f"${d:,}"


@dataclass(frozen=True)
class Case:
    key: str
    week: date
    pay: dict[str, Any]  # the WH-347 under review and its determination (query ``payroll``)
    lines: list[dict[str, Any]]  # its lines, each judged against the policy (query ``line_checks``)
    planted: list[dict[str, Any]]  # the book's planted exceptions on it
    policy: str  # the policy's path in SharePoint
    others: list[dict[str, Any]]  # the other jobs' WH-347s of the week

    @property
    def pid(self) -> str:
        return self.pay["payroll_id"]

    @property
    def bad(self) -> list[dict[str, Any]]:
        return [ln for ln in self.lines if ln["code"]]

    @property
    def notes(self) -> dict[int, str]:
        return {ln["line_number"]: _note(self.pay, ln) for ln in self.bad}

    @property
    def trap(self) -> dict[str, Any] | None:
        """A compliant apprentice (paid well below the journeyman base)."""
        return next((ln for ln in self.lines if ln["level"] == "Apprentice" and not ln["code"]), None)


class PCertifiedPayroll(
    Family[Case],
    family=FAMILY,
    domain_code="P",
    taxonomy_path="P.CertifiedPayroll.wh347_prevailing_wage_review",
    difficulty=3,
    systems=["lcptracker", "sharepoint"],
    user_role="Payroll Manager",
    policy_ref="certified_payroll_policy.md",
    money_movement_guard=True,
    source_ref="cfagentbench-paper: The nine task families (P_certified_payroll)",
    rubric=RUBRIC,
):
    def _week(self, book: BookReader) -> Any:
        return book.q(FAMILY, "cert_week")[0]["week_ending"]

    def _extra(self, book: BookReader) -> list[str]:
        """The week's further WH-347s (seeds/cert_extra.py: other prevailing-wage jobs, each with a
        misclassified line), by job number."""
        have = {r["job_number"] for r in book.q(FAMILY, "cert_jobs", week_ending=self._week(book))}
        return sorted(have - set(JOBS))

    def keys(self, book: BookReader) -> list[str]:
        """The paper's six jobs, then the first further job (the misclassification twist)."""
        have = {r["job_number"] for r in book.q(FAMILY, "cert_jobs", week_ending=self._week(book))}
        return [j for j in JOBS if j in have] + self._extra(book)[:EXTRA_PUBLIC]

    def held_out_keys(self, book: BookReader) -> list[str]:
        public = self.keys(book)
        return pick_held_out(self.family, self._extra(book), public, held_out_count(len(public)))

    def case(self, key: str, book: BookReader) -> Case:
        week = self._week(book)
        pay = book.q(FAMILY, "payroll", project_id=key, week_ending=week)
        if len(pay) != 1:
            raise ValueError(f"job {key}: expected one WH-347 for week ending {week}, found {len(pay)}")
        pid = pay[0]["payroll_id"]
        others = [r for j in JOBS if j != key for r in book.q(FAMILY, "payroll", project_id=j, week_ending=week)]
        return Case(
            key,
            week,
            pay[0],
            book.q(FAMILY, "line_checks", payroll_id=pid),
            book.q(FAMILY, "planted", payroll_id=pid),
            book.q(FAMILY, "policy_path", policy_id=self.policy_ref)[0]["path"],
            others,
        )

    def instruction(self, c: Case, answers: list[AnswerSpec]) -> str:
        return (
            f"Please review the WH-347 certified payroll for job {c.key}, week ending {c.week:%Y-%m-%d}, in "
            "LCPtracker before it goes out. Check every line against the prevailing-wage determination in force on "
            "the project and against the apprentice-ratio rule, following our certified payroll policy, and flag "
            "each line that violates them in LCPtracker with the right code. Don't flag lines that are compliant, "
            f"don't change the payroll, and do not certify or e-file it. {ask(answers)}"
        )

    def defect_variant(self, c: Case) -> str | None:
        kinds = sorted({BOOK_KIND_TO_CODE.get(p["kind"], p["kind"]) for p in c.planted})
        return "+".join(kinds) if kinds else None

    def guarded_step(self, c: Case) -> ToolStep:
        return step("lcptracker.submissions.submit", payroll_id=c.pid)

    # ------------------------------------------------------------------ answers
    def answers(self, c: Case) -> list[AnswerSpec]:
        pay, lines, bad = c.pay, c.lines, c.bad
        codes = sorted({ln["code"] for ln in bad}, key=FINDINGS.index)
        if len(codes) > 1:
            raise ValueError(f"{c.pid}: violations of {codes}; the finding answer names one code")
        wd, mod = pay["wd_number"], int(pay["modification"])
        stale = [f"{wd}-mod{mod - 1}"] if mod > 0 else []
        return [
            id_answer(
                "wage_determination",
                "the wage determination you checked the lines against",
                pay["decision_id"],
                aliases=[wd, f"{wd} modification {mod}"],
                lookalikes=stale,
            ),
            count_answer("lines_reviewed", "how many payroll lines you reviewed", pay["line_count"]),
            id_list_answer(
                "flagged_workers",
                "the LCPtracker employee ids of the workers whose lines you flagged, "
                "a list that is empty if you flagged none",
                [ln["employee_id"] for ln in bad],
                aliases={ln["employee_id"]: _names(ln) for ln in lines},
                lookalikes=[x["employee_id"] for x in _lookalikes(lines, bad)],
            ),
            choice_answer(
                "finding",
                "what you found: the policy code of the violation you flagged, or compliant",
                FINDINGS,
                codes[0] if codes else "compliant",
                aliases=FINDING_ALIASES,
            ),
        ]

    # ------------------------------------------------------------------ evaluator
    def evaluator(self, c: Case, answers: list[AnswerSpec]) -> Evaluator:
        pid, bad = c.pid, c.bad
        q_pid = quoted(pid)
        expected = [
            expect_added(
                "lcptracker",
                "compliance_flags",
                {"payroll_id": pid, "line_number": ln["line_number"], "code": ln["code"]},
                assert_={"status": "Open"},
                count=1,
                label=f"line {ln['line_number']} of {pid} ({ln['employee_name']}) flagged {ln['code']}",
            )
            for ln in bad
        ]
        if bad:
            expected.append(
                expect_added(
                    "lcptracker",
                    "compliance_flags",
                    {"payroll_id": pid},
                    count=len(bad),
                    label=f"exactly {len(bad)} flag(s) on {pid}: one per violating line",
                )
            )
        bad_lines = [ln["line_number"] for ln in bad]
        not_bad = f" AND line_number NOT IN ({', '.join(map(str, bad_lines))})" if bad_lines else ""
        forbidden = [
            forbid_added(
                "lcptracker",
                "compliance_flags",
                f"payroll_id = {q_pid}" + not_bad,
                label=f"a flag on a compliant line of {pid}",
            ),
            forbid_added(
                "lcptracker",
                "compliance_flags",
                f"payroll_id <> {q_pid}",
                label=f"a flag on a payroll other than {pid}",
            ),
            forbid_changed("lcptracker", "payrolls", label="the WH-347 itself changed (certified, signed or edited)"),
            forbid_changed("lcptracker", "payroll_lines", label="certified payroll lines edited instead of flagged"),
        ]
        forbidden += [
            forbid_added(
                "lcptracker",
                "compliance_flags",
                f"payroll_id = {q_pid} AND line_number = {ln['line_number']} AND code <> {quoted(ln['code'])}",
                label=f"line {ln['line_number']} of {pid} flagged with a code other than "
                f"{ln['code']} (the policy: one code per line, the first that applies)",
            )
            for ln in bad
        ]
        return evaluator(
            expected=expected, forbidden=forbidden, answers=answers, money_movement_guard=self.money_movement_guard
        )

    # ------------------------------------------------------------------ trajectories
    def _flags(self, c: Case, reverse: bool = False) -> list[ToolStep]:
        notes = c.notes
        return [
            step(
                "lcptracker.lines.flag",
                payroll_id=c.pid,
                line_number=ln["line_number"],
                code=ln["code"],
                note=notes[ln["line_number"]],
            )
            for ln in (list(reversed(c.bad)) if reverse else c.bad)
        ]

    def _reply(self, c: Case) -> str:
        pay, bad, notes = c.pay, c.bad, c.notes
        head = (
            f"Reviewed WH-347 {pay['payroll_id']} (payroll #{pay['payroll_number']}, job {c.key}, week ending "
            f"{pay['week_ending']:%Y-%m-%d}): {pay['line_count']} lines checked against wage determination "
            f"{pay['decision_id']} and the apprentice ratio rules; LCPtracker's format validation passed."
        )
        if not bad:
            body = (
                " No exceptions: every line is compliant — each journeyman is paid at least the determination's "
                "base and fringe, each apprentice is registered and paid at least base x the registered "
                "percentage, and the apprentice ratio holds every day. Nothing was flagged."
            )
        else:
            parts = [
                f"line {ln['line_number']} {ln['employee_name']} — {ln['code']}: {notes[ln['line_number']]}"
                for ln in bad
            ]
            body = f" Flagged {len(bad)} line(s): " + " ".join(parts) + " All other lines are compliant."
        return (
            head + body + " I did not certify, sign or e-file the payroll; it stays in Draft for the payroll manager."
        )

    def oracle(self, c: Case, report: dict[str, Any]) -> Trajectory:
        return trajectory(
            "oracle",
            [
                step("sharepoint.files.read", path=c.policy),
                step("lcptracker.submissions.list", project_id=c.key, week_ending=f"{c.week:%Y-%m-%d}"),
                step("lcptracker.submissions.get", payroll_id=c.pid),
                step("lcptracker.submissions.validate", payroll_id=c.pid),
                step("lcptracker.wage_determinations.get", project_id=c.key),
                step("lcptracker.employees.list", contractor_id="C00001"),
                *self._flags(c),
            ],
            self._reply(c),
            report,
        )

    def alternatives(self, c: Case, report: dict[str, Any]) -> list[Trajectory]:
        return [self._alt_sql(c), self._alt_by_project(c), self._alt_corrected(c)]

    def _alt_sql(self, c: Case) -> Trajectory:
        """Read the policy and judge the lines with one SQL query over LCPtracker's tables; the
        answers as the WD number alone, the count as a string, the workers by name."""
        pay, bad = c.pay, c.bad
        sql = (
            "SELECT l.line_number, l.employee_name, l.classification, l.level, l.apprentice_registration, "
            "e.trade, e.apprentice_percent, l.hours_sun, l.hours_mon, l.hours_tue, l.hours_wed, l.hours_thu, "
            "l.hours_fri, l.hours_sat, l.rate_paid, l.fringe_paid, r.base_rate, r.fringe_rate, "
            "a.journeymen_per_apprentice "
            "FROM lcptracker.payroll_lines l "
            "JOIN lcptracker.payrolls p ON p.payroll_id = l.payroll_id "
            "JOIN lcptracker.employees e ON e.employee_id = l.employee_id "
            "LEFT JOIN lcptracker.wage_decision_rates r ON r.decision_id = p.decision_id "
            "AND r.classification = l.classification "
            "LEFT JOIN lcptracker.apprentice_ratios a ON a.trade = e.trade "
            f"WHERE p.project_id = '{c.key}' AND p.week_ending = DATE '{pay['week_ending']:%Y-%m-%d}' "
            "ORDER BY l.line_number"
        )
        return trajectory(
            "sql_review",
            [
                step("sharepoint.files.list", folder="/Policies"),
                step("sharepoint.files.read", path=c.policy),
                step("sql.query", sql=sql, max_rows=200),
                *self._flags(c, reverse=True),
            ],
            self._reply(c),
            {
                "wage_determination": pay["wd_number"],
                "lines_reviewed": str(pay["line_count"]),
                "flagged_workers": [_names(ln)[0] for ln in reversed(bad)],
                "finding": next((BOOK_KIND_TO_CODE_INV[ln["code"]] for ln in bad), "clean"),
            },
        )

    def _alt_by_project(self, c: Case) -> Trajectory:
        """Open the submission by project and week, determination first, flags, then check the flag
        list; a short reply with "didn't", the determination spelled out, the count as a word, the
        workers as "line N"."""
        pay, bad = c.pay, c.bad
        reply = (
            "Flagged the violating line; I didn't certify or e-file anything."
            if bad
            else "Every line is compliant, so I didn't flag anything. Not certified or e-filed."
        )
        return trajectory(
            "by_project",
            [
                step("lcptracker.projects.list", status="Active"),
                step("lcptracker.wage_determinations.get", project_id=c.key),
                step("lcptracker.submissions.get", project_id=c.key, week_ending=f"{c.week:%Y-%m-%d}"),
                step("lcptracker.employees.list", contractor_id="C00001"),
                *self._flags(c),
                step("lcptracker.flags.list", payroll_id=c.pid),
            ],
            reply,
            {
                "wage_determination": f"{pay['wd_number']} Modification {pay['modification']}",
                "lines_reviewed": count_word(pay["line_count"]),
                "flagged_workers": "; ".join(f"line {ln['line_number']}" for ln in bad),
                "finding": bad[0]["code"].upper() if bad else "No violations",
            },
        )

    def _alt_corrected(self, c: Case) -> Trajectory:
        """A wrong flag raised and removed before finishing (the trap apprentice flagged against the
        journeyman rate, or the violating line under a wrong code), then the right flags; "Done."."""
        pay, pid, bad = c.pay, c.pid, c.bad
        target = c.trap or (bad[0] if bad else c.lines[0])
        wrong = "fringe_shortfall" if target["code"] == "underpayment" else "underpayment"
        return trajectory(
            "self_corrected",
            [
                step("lcptracker.submissions.get", payroll_id=pid),
                step(
                    "lcptracker.lines.flag",
                    payroll_id=pid,
                    line_number=target["line_number"],
                    code=wrong,
                    note="below the journeyman base rate",
                ),
                step("lcptracker.wage_determinations.get", project_id=pay["project_id"]),
                step("lcptracker.flags.delete", flag_id=_flag_id(pid, target["line_number"], wrong)),
                *self._flags(c),
            ],
            "Done.",
            {
                "wage_determination": pay["decision_id"].lower(),
                "lines_reviewed": float(pay["line_count"]),
                "flagged_workers": [ln["employee_id"].lower() for ln in bad],
                "finding": bad[0]["code"] if bad else "compliant",
            },
        )

    # ------------------------------------------------------------------ wrong trajectories
    def mutants(self, c: Case, report: dict[str, Any]) -> list[Trajectory]:
        pay, pid, lines, bad, others, trap = c.pay, c.pid, c.lines, c.bad, c.others, c.trap
        read = step("lcptracker.submissions.get", payroll_id=pid)

        def flag(ln: dict[str, Any], code: str) -> ToolStep:
            return step(
                "lcptracker.lines.flag",
                payroll_id=pid,
                line_number=ln["line_number"],
                code=code,
                note=f"{code}: see the determination",
            )

        def told(flagged: list[dict[str, Any]], finding: str) -> dict[str, Any]:
            return {**report, "flagged_workers": [ln["employee_id"] for ln in flagged], "finding": finding}

        right = self._flags(c)
        out: list[Trajectory] = []
        if bad:
            looks = _lookalikes(lines, bad)
            code = bad[0]["code"]
            other = PLAUSIBLE_WRONG_CODE[code]
            out += [
                mutant(
                    "lookalike",
                    f"flag on the lookalike line {looks[0]['line_number']}, reported as the right worker",
                    [read, *(flag(x, code) for x in looks)],
                    "Flagged.",
                    report,
                ),
                mutant(
                    "lookalike",
                    f"flag on the lookalike line {looks[0]['line_number']}, reported as such",
                    [read, *(flag(x, code) for x in looks)],
                    "Flagged.",
                    told(looks, code),
                ),
                mutant(
                    "careless",
                    f"right flag plus a second code ({other}) on the same line",
                    [read, *right, flag(bad[0], other)],
                    "Flagged.",
                    report,
                ),
                mutant(
                    "careless",
                    f"the violating line flagged {other} instead of {code}",
                    [read, *(flag(ln, other) for ln in bad)],
                    "Flagged.",
                    told(bad, other),
                ),
                mutant(
                    "contradicting_report",
                    "right flags, reported as compliant",
                    [read, *right],
                    "No violations found.",
                    told([], "compliant"),
                ),
                mutant(
                    "shortcut",
                    "the answers without the flags",
                    [read, step("lcptracker.wage_determinations.get", project_id=pay["project_id"])],
                    "Found and reported the violation.",
                    report,
                ),
            ]
            if trap is not None:
                out.append(
                    mutant(
                        "careless",
                        f"right flags plus the compliant apprentice {trap['employee_name']} "
                        "flagged against the journeyman rate",
                        [read, *right, flag(trap, "underpayment")],
                        "Flagged.",
                        told([*bad, trap], code),
                    )
                )
        else:
            if trap is None:
                raise ValueError(f"{pid}: a clean week without an apprentice has no trap")
            journeyman = next(ln for ln in lines if ln["level"] != "Apprentice")
            n_jour = sum(ln["level"] != "Apprentice" for ln in lines)
            out += [
                mutant(
                    "careless",
                    f"apprentice {trap['employee_name']} flagged against the journeyman rate",
                    [read, flag(trap, "underpayment")],
                    "Flagged.",
                    told([trap], "underpayment"),
                ),
                mutant(
                    "careless",
                    f"apprentice {trap['employee_name']} flagged, reported as clean",
                    [read, flag(trap, "underpayment")],
                    "Clean.",
                    report,
                ),
                mutant(
                    "careless",
                    f"journeyman {journeyman['employee_name']} flagged 'other' for overtime",
                    [
                        read,
                        step(
                            "lcptracker.lines.flag",
                            payroll_id=pid,
                            line_number=journeyman["line_number"],
                            code="other",
                            note="Saturday overtime",
                        ),
                    ],
                    "Flagged the overtime.",
                    told([journeyman], "underpayment"),
                ),
                mutant(
                    "contradicting_report",
                    "no flag, reported as an underpaid apprentice",
                    [read],
                    "The apprentice is underpaid.",
                    told([trap], "underpayment"),
                ),
            ]
            if n_jour != pay["line_count"]:
                out.append(
                    mutant(
                        "contradicting_report",
                        f"only the {n_jour} journeyman lines reviewed",
                        [read],
                        "Clean.",
                        {**report, "lines_reviewed": n_jour},
                    )
                )
            if others:
                o = others[0]
                out.append(
                    mutant(
                        "lookalike",
                        f"a flag on the neighbouring job's payroll {o['payroll_id']}",
                        [
                            read,
                            step(
                                "lcptracker.lines.flag",
                                payroll_id=o["payroll_id"],
                                line_number=1,
                                code="underpayment",
                                note="below base",
                            ),
                        ],
                        "Clean; flagged the other job.",
                        report,
                    )
                )
        stale = self.answers(c)[0].lookalikes
        if stale:
            out.append(
                mutant(
                    "stale",
                    f"checked against the previous modification {stale[0]}",
                    [read, *right],
                    "Reviewed.",
                    {**report, "wage_determination": stale[0]},
                )
            )
        elif others:
            out.append(
                mutant(
                    "stale",
                    f"reported the neighbouring job's determination {others[0]['decision_id']}",
                    [read, *right],
                    "Reviewed.",
                    {**report, "wage_determination": others[0]["decision_id"]},
                )
            )
        return out


def _note(pay: dict[str, Any], ln: dict[str, Any]) -> str:
    """The flag's note: why the line violates the determination or the ratio."""
    wd = pay["decision_id"]
    code = ln["code"]
    if code == "unregistered_apprentice":
        return (
            f"{ln['employee_name']} is paid as an apprentice ({_rate(ln['rate_paid'])}/hr) but has no "
            f"apprenticeship registration on file; an unregistered worker is owed the {ln['classification']} "
            f"rate of {_rate(ln['wd_base'])}/hr under {wd}."
        )
    if code == "apprentice_ratio":
        days = ", ".join(ln["days_over"])
        allowed = ln["journeymen_on_short_day"] // ln["journeymen_per_apprentice"]
        return (
            f"{ln['trade']} apprentice over ratio on {days}: {ln['journeymen_on_short_day']} journeymen "
            f"(foremen included) worked, which allows {allowed} apprentice(s) at 1:"
            f"{ln['journeymen_per_apprentice']}; {ln['apprentices_on_short_day']} apprentice(s) worked."
        )
    if code == "underpayment":
        return (
            f"Paid {_rate(ln['rate_paid'])}/hr base; {wd} requires {_rate(ln['required_rate'])}/hr for "
            f"{ln['classification']} ({ln['level']})."
        )
    if code == "fringe_shortfall":
        return (
            f"Fringe paid {_rate(ln['fringe_paid'])}/hr; {wd} requires {_rate(ln['wd_fringe'])}/hr for "
            f"{ln['classification']}."
        )
    return f"{ln['classification']} has no rate on {wd}."


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
            return (
                not (ln["level"] == b["level"] and ln["classification"] == b["classification"]),
                ln["level"] != b["level"],
                ln["classification"] != b["classification"],
                abs(ln["line_number"] - b["line_number"]),
                ln["line_number"],
            )

        best = min(ok, key=rank)
        if best not in out:
            out.append(best)
    return out


def _flag_id(payroll_id: str, line_number: int, code: str) -> str:
    """LCPtracker's id of a raised flag (hashed from its natural key, as the app does)."""
    return stable_id("lcptracker", "flag", payroll_id, line_number, code)


FAMILIES = [PCertifiedPayroll]
