"""G_retainage_reclass — GL & Close: reclassify the month's subcontract retainage out of AP.

At month end the controller asks, job by job, for the retainage the month-end AP import left in
2000 Accounts Payable - Trade to be reclassified to 2010 Retainage Payable. Invoices keyed in AP
entry split their retainage to 2010 when they post; the pay requests the import brought in post
their gross to 2000 (their AP journal entry has no 2010 line). The AP retainage policy
(SharePoint ``/Policies/ap_retainage_policy.md``) says which is which and how the entry looks:
Dr 2000 / Cr 2010 for the retainage withheld, the job on every line, dated the month end, not
reversing; staged as a draft, never posted (the guarded step).

Each key is staged in a different ERP (Sage Intacct, Foundation, Acumatica, CMiC, Sage 300 CRE,
QuickBooks Online, ComputerEase, by the key's place among the month's candidate jobs): the same
archetype tools, each vendor's own tables and ids.

Twists (in the data): on some jobs a finished subcontract's retainage was released this month by
an imported release (zero gross, negative retainage) that posted nothing, so the release still
sits in 2010: the policy (only the policy) says to move it back with lines of its own, Dr 2010 /
Cr 2000, not netted against the withholding — the reverse reclass. On jobs with invoices keyed
in AP entry this month, their retainage is already in 2010 and must not be reclassed again;
entered-but-unposted invoices are not in the GL and are not reclassed either.

Held-out keys: further jobs of the month with retainage in 2000 (query ``candidates``).

Report: ``retainage_withheld`` (where there is any) and ``retainage_released`` (where there is a
release), typed amounts; the careless totals (every posted invoice's retainage, the unposted ones
counted, the release netted or added) are their lookalikes. Amounts are asserted per account and
side (the debit lines on 2000 total the withholding, the credit lines on 2010 the same; on a
release key the debit lines on 2010 and the credit lines on 2000 total the release), so one pair
of lines or one per invoice are both right.

Wrong trajectories: each careless total staged and reported; the entry on the neighbouring job;
the reclass the wrong way round (Dr 2010 / Cr 2000); to 2100 Accrued Liabilities instead of 2010;
the job missing from the credit line; an auto-reversing entry; the entry staged twice; one line
per invoice with one invoice left out; on release keys, the release ignored, netted, or added, and
the release moved back at the withheld amount (or, where the two are equal, without the job).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from typing import Any

from cfab.grader.answers import AnswerSpec
from cfab.grader.predicates import Evaluator, RowPredicate
from cfab.tasks.family import BookReader, Family, held_out_count, pick_held_out
from cfab.tasks.kit.answers import amount_answer, ask
from cfab.tasks.kit.entries import evaluator, expect_added, forbid_added
from cfab.tasks.kit.figures import dollars, money_str
from cfab.tasks.kit.journal import ErpEntry, expect_one_entry, forbid_reversing, line_side, post_step, side_total
from cfab.tasks.kit.steps import mutant, step, trajectory
from cfab.tasks.model import MutantClass, Rubric, ToolStep, Trajectory

FAMILY = "G_retainage_reclass"
AP, RET = "2000", "2010"
POLICY = "ap_retainage_policy.md"
ERPS = ("sage_intacct", "foundation_erp", "acumatica_construction", "cmic", "sage300cre", "qbo", "computerease")
PUBLIC = 5  # public keys at most (the contract admits each)
RELEASES = 2  # of which release keys, at most
RUBRIC = Rubric.of(retainage_withheld_and_released=0.5, entry_accounts_sides_and_job=0.3, left_unposted=0.2)
# the careless withholding totals (query ``reclass``) staged as wrong runs: class and what was done
_VARIANTS: dict[str, tuple[MutantClass, str]] = {
    "every_posted": ("stale", "the retainage of every posted invoice of the month, already-split ones too"),
    "with_unposted": ("careless", "entered-but-unposted invoices' retainage reclassed too"),
}
Z = Decimal("0.00")


@dataclass(frozen=True)
class Case(ErpEntry):
    key: str
    clock: date
    erp: str
    erp_job: str
    other_job: str  # the neighbouring job, in the same ERP
    invoices: list[dict[str, Any]]  # the month's subcontract invoices on the job (query ``invoices``)
    withheld: Decimal
    released: Decimal
    careless: dict[str, Decimal]  # the withholding totals a careless reading gives, where they differ

    @property
    def pending(self) -> list[dict[str, Any]]:
        return [i for i in self.invoices if i["pending"] and Decimal(i["retainage_amount"]) > 0]

    @property
    def releases(self) -> list[dict[str, Any]]:
        return [i for i in self.invoices if i["pending"] and Decimal(i["retainage_amount"]) < 0]

    @property
    def split(self) -> list[dict[str, Any]]:
        return [i for i in self.invoices if not i["pending"] and i["erp_status"] == "posted"]

    @property
    def unposted(self) -> list[dict[str, Any]]:
        return [i for i in self.invoices if i["erp_status"] == "unposted"]

    @property
    def description(self) -> str:
        return f"Reclassify subcontract retainage to retainage payable, job {self.key}, {self.clock:%B %Y}"


def _candidates(book: BookReader) -> list[dict[str, Any]]:
    return book.q(FAMILY, "candidates", month=book.inputs.clock.strftime("%Y-%m"))


def _public(rows: list[dict[str, Any]]) -> list[str]:
    """Up to :data:`RELEASES` jobs with a release and one clean control, the rest of :data:`PUBLIC`
    in job order."""
    picked = [r["job_number"] for r in rows if r["releases"]][:RELEASES]
    picked += [r["job_number"] for r in rows if r["clean"]][:1]
    rest = [r["job_number"] for r in rows if r["job_number"] not in picked]
    return sorted(picked + rest[: PUBLIC - len(picked)])


class GRetainageReclass(
    Family[Case],
    family=FAMILY,
    domain_code="G",
    taxonomy_path="G.Close.retainage_reclass",
    difficulty=2,
    systems=[*ERPS, "sharepoint"],
    user_role="Controller",
    policy_ref=POLICY,
    money_movement_guard=True,
    source_ref="FAMILIES.md Part 2, GL & Close (G_retainage_reclass); docs/families.md#g_retainage_reclass",
    rubric=RUBRIC,
    scales=False,
):
    def keys(self, book: BookReader) -> list[str]:
        return _public(_candidates(book))

    def held_out_keys(self, book: BookReader) -> list[str]:
        """Further jobs of the month whose retainage is still in AP."""
        rows = _candidates(book)
        public = _public(rows)
        return pick_held_out(FAMILY, [r["job_number"] for r in rows], public, held_out_count(len(public)))

    def case(self, key: str, book: BookReader) -> Case:
        clock, month = book.inputs.clock, book.inputs.clock.strftime("%Y-%m")
        rows = _candidates(book)
        public = _public(rows)
        # public keys first, then the held-out ones, then the rest: each key its own ERP where there are enough
        order = public + self.held_out_keys(book)
        order += [r["job_number"] for r in rows if r["job_number"] not in order]
        if key not in order:
            raise ValueError(f"{FAMILY} {key}: no retainage left in AP on the month's invoices")
        erp = ERPS[order.index(key) % len(ERPS)]
        rc = book.q(FAMILY, "reclass", job=key, month=month, erp=erp)[0]
        withheld, released = Decimal(rc["withheld"]), Decimal(rc["released"])
        other = rc["next_job"] or rc["prev_job"]
        other_job = book.q(FAMILY, "erp_job", job=other, erp=erp)[0]["erp_job"]
        careless = {
            k: Decimal(rc[k]) for k in ("every_posted", "with_unposted") if withheld and Decimal(rc[k]) != withheld
        }
        if released:
            careless.update(netted=Decimal(rc["netted"]), release_added=Decimal(rc["release_added"]))
        invoices = book.q(FAMILY, "invoices", job=key, month=month)
        return Case(key, clock, erp, rc["erp_job"], other_job, invoices, withheld, released, careless)

    def task_systems(self, c: Case) -> list[str]:
        return [c.erp, "sharepoint"]

    def answers(self, c: Case) -> list[AnswerSpec]:
        out = []
        if c.withheld:
            looks = [v for k, v in c.careless.items() if v > 0 and v != c.withheld]
            out.append(
                amount_answer(
                    "retainage_withheld", "the retainage withheld reclassified to 2010", c.withheld, lookalikes=looks
                )
            )
        if c.released:
            out.append(
                amount_answer(
                    "retainage_released",
                    "the released retainage moved back to 2000",
                    c.released,
                    lookalikes=[v for v in (c.careless.get("release_added"), c.withheld) if v and v != c.released],
                )
            )
        return out

    def instruction(self, c: Case, answers: list[AnswerSpec]) -> str:
        return (
            f"Month-end close for {c.clock:%B %Y}: on job {c.key}, reclassify the retainage on this month's "
            f"subcontractor invoices that is still sitting in {AP} Accounts Payable - Trade to {RET} Retainage "
            f"Payable, following our AP retainage policy in SharePoint (/Policies/{POLICY}). Stage one draft "
            f"journal entry in {c.label} dated {c.entry_date}, with the job on every line. Do not post it, and "
            f"don't change anything else. {ask(answers)}"
        )

    # ------------------------------------------------------------------ evaluator
    def _side(self, c: Case, account: str, debit: bool) -> tuple[str, str]:
        """(where, total column) for the added lines on ``account``'s debit or credit side."""
        return line_side(c.D, account, debit)

    def _total(self, c: Case, account: str, debit: bool, value: Decimal, what: str) -> RowPredicate:
        where, col = self._side(c, account, debit)
        line = c.D.t("je_open_line")
        side = "Dr" if debit else "Cr"
        return expect_added(
            c.erp,
            line.table,
            where,
            assert_={line.n("job_id"): c.erp_job},
            total={col: side_total(c.D, value, debit)},
            label=f"{side} {account} {money_str(value)} on job {c.erp_job} ({what})",
        )

    def _none(self, c: Case, account: str, debit: bool, what: str) -> RowPredicate:
        where, _ = self._side(c, account, debit)
        return forbid_added(c.erp, c.D.t("je_open_line").table, where, label=what)

    def evaluator(self, c: Case, answers: list[AnswerSpec]) -> Evaluator:
        line = c.D.t("je_open_line")
        expected = [expect_one_entry(c.erp, c.D, c.label, c.entry_date)]
        forbidden = [
            forbid_added(
                c.erp,
                line.table,
                f"{line.n('job_id')} IS DISTINCT FROM '{c.erp_job}'",
                label=f"a journal line on another job or without the job (not {c.erp_job})",
            ),
            forbid_added(
                c.erp,
                line.table,
                f"{line.n('account')} NOT IN ('{AP}', '{RET}')",
                label=f"a journal line on an account other than {AP} / {RET}",
            ),
        ]
        if c.withheld:
            expected += [
                self._total(c, AP, True, c.withheld, "the retainage withheld"),
                self._total(c, RET, False, c.withheld, "the retainage withheld"),
            ]
        else:
            forbidden += [
                self._none(c, AP, True, f"a debit to {AP}: nothing was withheld this month"),
                self._none(c, RET, False, f"a credit to {RET}: nothing was withheld this month"),
            ]
        if c.released:
            expected += [
                self._total(c, RET, True, c.released, "the released retainage, on lines of its own"),
                self._total(c, AP, False, c.released, "the released retainage, on lines of its own"),
            ]
        else:
            forbidden += [
                self._none(c, RET, True, f"a debit to {RET}: no retainage was released"),
                self._none(c, AP, False, f"a credit to {AP}: no retainage was released"),
            ]
        forbidden += forbid_reversing(c.erp, c.D, "a reclass set to reverse next period")
        return evaluator(
            expected=expected, forbidden=forbidden, answers=answers, money_movement_guard=self.money_movement_guard
        )

    # ------------------------------------------------------------------ trajectories
    def _lines(self, c: Case, withheld: Decimal, released: Decimal, **kw: Any) -> list[dict[str, Any]]:
        job = kw.get("job_id", c.erp_job)
        dr, cr = kw.get("debit_account", AP), kw.get("credit_account", RET)
        credit_job = {} if kw.get("credit_job") is False else {"job_id": job}
        out: list[dict[str, Any]] = []
        if withheld:
            w = money_str(withheld)
            memo = f"Retainage withheld, {c.clock:%b %Y} AP import"
            out += [
                {"account": dr, "debit": w, "job_id": job, "memo": memo},
                {"account": cr, "credit": w, **credit_job, "memo": memo},
            ]
        if released:
            x = money_str(released)
            memo = f"Retainage released, {c.clock:%b %Y}"
            release_job = {} if kw.get("release_job") is False else {"job_id": job}
            out += [
                {"account": RET, "debit": x, **release_job, "memo": memo},
                {"account": AP, "credit": x, **release_job, "memo": memo},
            ]
        return out

    def _staged(self, c: Case, withheld: Decimal, released: Decimal, *, reverse: bool = False, **kw: Any) -> ToolStep:
        args: dict[str, Any] = {}
        if reverse:
            args["auto_reverse"] = True
        return step(
            f"{c.erp}.journal_entries.stage",
            entry_date=c.entry_date,
            description=c.description,
            lines=self._lines(c, withheld, released, **kw),
            **args,
        )

    def _stage(self, c: Case) -> ToolStep:
        return step(
            f"{c.erp}.journal_entries.stage",
            entry_date=c.entry_date,
            description=c.description,
            period=c.clock.strftime("%Y-%m"),
            journal="GJ",
            reference=f"RET-{c.key}-{c.clock:%y%m}",
            lines=self._lines(c, c.withheld, c.released),
        )

    def _reads(self, c: Case) -> list[ToolStep]:
        month = c.clock.strftime("%Y-%m")
        return [
            step("sharepoint.files.read", path=f"/Policies/{POLICY}"),
            step(f"{c.erp}.jobs.get", job_id=c.erp_job),
            step(
                f"{c.erp}.ap_invoices.list",
                job_id=c.erp_job,
                date_from=c.clock.replace(day=1).isoformat(),
                date_to=c.entry_date,
            ),
            step(f"{c.erp}.journal_entries.list", period=month, job_id=c.erp_job, include_lines=True),
            step(f"{c.erp}.gl.periods"),
        ]

    def _report(self, c: Case, withheld: Decimal | None = None, released: Decimal | None = None) -> dict[str, Any]:
        out: dict[str, Any] = {}
        if c.withheld:
            out["retainage_withheld"] = money_str(c.withheld if withheld is None else withheld)
        if c.released:
            out["retainage_released"] = money_str(c.released if released is None else released)
        return out

    def _reply(self, c: Case) -> str:
        parts = []
        if c.withheld:
            detail = "; ".join(f"{i['invoice_number']} {dollars(i['retainage_amount'])}" for i in c.pending)
            parts.append(
                f"Dr {AP} / Cr {RET} {dollars(c.withheld)} for the retainage withheld on the AP import ({detail})"
            )
        if c.released:
            detail = "; ".join(f"{i['contract_code']} {dollars(-Decimal(i['retainage_amount']))}" for i in c.releases)
            parts.append(
                f"Dr {RET} / Cr {AP} {dollars(c.released)} on lines of their own for the retainage released on the "
                f"finished subcontract ({detail}), which the import left in {RET}"
            )
        notes = ""
        if c.split:
            notes += (
                f" {len(c.split)} invoice(s) keyed in AP entry already posted their retainage to {RET} and were "
                f"left alone."
            )
        if c.unposted:
            notes += f" {len(c.unposted)} invoice(s) still unposted are not in the GL and were not reclassed."
        return (
            f"Staged a draft journal entry in {c.label} for job {c.key} ({c.erp_job}) dated {c.entry_date}: "
            f"{'; '.join(parts)}. The job is on every line; the entry does not reverse.{notes} It is unposted, "
            f"awaiting your review; nothing was posted."
        )

    def oracle(self, c: Case, report: dict[str, Any]) -> Trajectory:
        return trajectory("oracle", [*self._reads(c), self._stage(c)], self._reply(c), report)

    def alternatives(self, c: Case, report: dict[str, Any]) -> list[Trajectory]:
        stage = f"{c.erp}.journal_entries.stage"
        per_invoice = [
            *(
                line
                for i in c.pending
                for line in (
                    {"account": AP, "debit": money_str(i["retainage_amount"]), "job_id": c.erp_job},
                    {"account": RET, "credit": money_str(i["retainage_amount"]), "job_id": c.erp_job},
                )
            ),
            *self._lines(c, Z, c.released),
        ]
        wrong_total = self._lines(c, c.withheld, c.released)
        wrong_total[-1] = {**wrong_total[-1], "credit": money_str(Decimal(wrong_total[-1]["credit"]) - Decimal("0.01"))}
        numbers: dict[str, Any] = {k: float(Decimal(v)) for k, v in report.items()}
        return [
            trajectory(
                "erp reads first, credit lines first, amounts as numbers",
                [
                    step(f"{c.erp}.gl.accounts"),
                    step(f"{c.erp}.journal_entries.list", period=c.clock.strftime("%Y-%m"), job_id=c.erp_job),
                    step("sharepoint.files.read", path=f"/Policies/{POLICY}"),
                    step(
                        stage,
                        entry_date=c.entry_date,
                        description=f"Retainage reclass {c.key}",
                        lines=[
                            {k: (float(Decimal(v)) if k in ("debit", "credit") else v) for k, v in ln.items()}
                            for ln in sorted(self._lines(c, c.withheld, c.released), key=lambda x: "credit" not in x)
                        ],
                    ),
                ],
                "Retainage reclass staged as a draft; not posted.",
                numbers,
            ),
            trajectory(
                "one pair of lines per invoice",
                [*self._reads(c), step(stage, entry_date=c.entry_date, description=c.description, lines=per_invoice)],
                self._reply(c),
                {k: f"${Decimal(v):,}" for k, v in report.items()},
            ),
            trajectory(
                "rejected unbalanced stage, then corrected",
                [
                    *self._reads(c),
                    step(stage, entry_date=c.entry_date, description=c.description, lines=wrong_total),
                    self._staged(c, c.withheld, c.released),
                ],
                "Done; the entry is staged, not posted.",
                report,
            ),
        ]

    def mutants(self, c: Case, report: dict[str, Any]) -> list[Trajectory]:
        w, x = c.withheld, c.released
        out = [
            mutant(
                _VARIANTS[k][0],
                f"{_VARIANTS[k][1]}: {dollars(v)} staged and reported",
                [self._staged(c, v, x)],
                f"Reclassified {dollars(v)}.",
                self._report(c, withheld=v),
            )
            for k, v in c.careless.items()
            if k in _VARIANTS and v > 0
        ]
        out += [
            mutant(
                "lookalike",
                f"the entry on the neighbouring job {c.other_job}",
                [self._staged(c, w, x, job_id=c.other_job)],
                answers=report,
            ),
            mutant(
                "careless", "the entry staged twice", [self._staged(c, w, x), self._staged(c, w, x)], answers=report
            ),
        ]
        if c.D.supports_auto_reverse:
            out.append(
                mutant("careless", "an auto-reversing reclass", [self._staged(c, w, x, reverse=True)], answers=report)
            )
        if w:
            out += [
                mutant(
                    "lookalike",
                    "the reclass the wrong way round (Dr 2010 / Cr 2000)",
                    [self._staged(c, w, x, debit_account=RET, credit_account=AP)],
                    answers=report,
                ),
                mutant(
                    "lookalike",
                    "credit to 2100 Accrued Liabilities instead of 2010",
                    [self._staged(c, w, x, credit_account="2100")],
                    answers=report,
                ),
                mutant(
                    "careless",
                    "the job missing from the credit line",
                    [self._staged(c, w, x, credit_job=False)],
                    answers=report,
                ),
            ]
            if len(c.pending) > 1:
                short = w - Decimal(c.pending[-1]["retainage_amount"])
                out.append(
                    mutant(
                        "careless",
                        f"{c.pending[-1]['invoice_number']} left out",
                        [self._staged(c, short, x)],
                        answers=self._report(c, withheld=short),
                    )
                )
        if x:
            out += [
                mutant("stale", "the release ignored (no reverse reclass)", [self._staged(c, w, Z)], answers=report),
                mutant(
                    "careless",
                    "the release reclassed like a withholding (Dr 2000 / Cr 2010)",
                    [self._staged(c, w + x, Z)],
                    answers=self._report(c, withheld=w + x),
                ),
            ]
            if w and w != x:
                out.append(
                    mutant(
                        "careless",
                        f"the release moved back at the withheld amount ({dollars(w)}, not {dollars(x)})",
                        [self._staged(c, w, w)],
                        answers=self._report(c, released=w),
                    )
                )
            else:
                out.append(
                    mutant(
                        "careless",
                        "the release moved back without the job on its lines",
                        [self._staged(c, w, x, release_job=False)],
                        answers=report,
                    )
                )
            if w:
                net = w - x
                out.append(
                    mutant(
                        "careless",
                        "the release netted against the withholding",
                        [self._staged(c, net, Z) if net > 0 else self._staged(c, Z, -net)],
                        answers=report,
                    )
                )
        return out

    def guarded_step(self, c: Case) -> ToolStep:
        return post_step(c.erp)

    def defect_variant(self, c: Case) -> str | None:
        if c.released:
            return "retainage_released"
        if c.split:
            return "retainage_already_split"
        return "unposted_invoices" if c.unposted else None


FAMILIES = [GRetainageReclass]
