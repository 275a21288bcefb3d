"""R_use_tax — Reporting & Compliance: a job's use tax on the month's material purchases, drafted
on its state's use-tax return in Avalara.

The controller asks, job by job, for the use tax owed on the month's material purchases on which
the supplier charged no sales tax. The sales and use tax policy (SharePoint
``/Policies/use_tax_policy.md``) says which: supplier invoices posted in the ERP in the month and
bought outside a purchase order (PO invoices are tax-included); none where the supplier billed
sales tax or an exemption certificate given to that supplier for the job covers the invoice date
(an expired certificate exempts nothing); the base is the invoice less separately stated freight;
the tax is the base at the job location's combined rate, on the return of the state the job is in.
The return is drafted in Avalara (``returns.use_tax.create_draft``, one line per location); filing
it is the guarded e-file.

Each key reads its purchases in a different ERP (ComputerEase, QuickBooks Online, Foundation, by
the key's place among the month's candidate jobs): the same archetype tools, each vendor's own
tables and ids; plus Avalara (certificates, rates, the return) and SharePoint (the policy).

Twists (in the data, ``seeds/use_tax.py``): a purchase covered by an exemption certificate (and
another supplier's expired certificate on the same job), a supplier that did charge tax, a job in
another state (its state's return, its location's rate), a freight line; a clean control.

Held-out keys: further jobs of the month with untaxed purchases (query ``candidates``).

Report: ``taxable_base`` and ``use_tax_due``, typed amounts; the careless totals (freight kept,
the taxed invoice accrued, the exempt purchase accrued, the expired certificate honoured, PO
invoices counted, every supplier invoice as Avalara's transactions have it) are their lookalikes.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal
from typing import Any

from cfab.apps.erp.vendors import ERP_APPS
from cfab.grader.answers import AnswerSpec
from cfab.grader.predicates import Evaluator
from cfab.tasks.family import BookReader, Family, held_out_count, pick_held_out
from cfab.tasks.kit.answers import amount_answer, ask
from cfab.tasks.kit.entries import evaluator, expect_added, forbid_added
from cfab.tasks.kit.figures import cents, dollars, money_str
from cfab.tasks.kit.steps import mutant, step, trajectory
from cfab.tasks.model import MutantClass, Rubric, ToolStep, Trajectory, result_of

FAMILY = "R_use_tax"
POLICY = "use_tax_policy.md"
ERPS = ("computerease", "qbo", "foundation_erp")
PUBLIC = 5  # public keys at most
RUBRIC = Rubric.of(taxable_base_and_tax=0.5, return_line_on_the_right_state=0.3, left_unfiled=0.2)
DRAFT = "avalara.returns.use_tax.create_draft"
Z = Decimal("0.00")
# the careless bases a reading gives (see Case.careless): class and what was done
_VARIANTS: dict[str, tuple[MutantClass, str]] = {
    "with_freight": ("careless", "separately stated freight kept in the base"),
    "with_taxed": ("careless", "the invoice the supplier already taxed accrued again"),
    "with_exempt": ("lookalike", "the purchase under a valid exemption certificate accrued"),
    "expired_honoured": ("lookalike", "the expired exemption certificate honoured"),
    "with_po": ("careless", "PO invoices (tax-included) accrued too"),
    "every_invoice": ("stale", "every supplier invoice of the month, as Avalara's transactions have them"),
}


@dataclass(frozen=True)
class Case:
    key: str
    clock: date
    erp: str
    erp_job: str
    other_job: str  # the neighbouring job, in Avalara
    state: str
    rate: Decimal
    state_rate: Decimal
    home_state: str
    home_rate: Decimal
    out_of_state: bool
    purchases: list[dict[str, Any]]  # query ``purchases``
    vendor_ids: dict[str, str]  # vendor_key -> the ERP's vendor id
    base: Decimal
    careless: dict[str, Decimal] = field(default_factory=dict)

    @property
    def month(self) -> str:
        return self.clock.strftime("%Y-%m")

    @property
    def tax(self) -> Decimal:
        return cents(self.base * self.rate)

    def tax_on(self, base: Decimal) -> Decimal:
        return cents(base * self.rate)

    @property
    def label(self) -> str:
        return ERP_APPS[self.erp].label

    @property
    def in_scope(self) -> list[dict[str, Any]]:
        return [p for p in self.purchases if p["in_scope"]]

    @property
    def taxable(self) -> list[dict[str, Any]]:
        return [p for p in self.in_scope if Decimal(p["taxable"]) > 0]


def _candidates(book: BookReader) -> list[dict[str, Any]]:
    return book.q(FAMILY, "candidates", month=book.inputs.clock.strftime("%Y-%m"))


def _public(rows: list[dict[str, Any]]) -> list[str]:
    """One job per twist (out of state, certificate, supplier-taxed, freight) and one clean control."""
    picked: list[str] = []
    for flag in ("out_of_state", "certificate", "vendor_taxed", "freight", "clean"):
        hit = [r["job_number"] for r in rows if r[flag] and r["job_number"] not in picked]
        picked += hit[:1]
    rest = [r["job_number"] for r in rows if r["job_number"] not in picked]
    return sorted(picked + rest[: max(0, PUBLIC - len(picked))])[:PUBLIC]


class RUseTax(
    Family[Case],
    family=FAMILY,
    domain_code="R",
    taxonomy_path="R.Compliance.use_tax",
    difficulty=3,
    systems=[*ERPS, "avalara", "sharepoint"],
    user_role="Controller",
    policy_ref=POLICY,
    money_movement_guard=True,
    source_ref="FAMILIES.md Part 2, Reporting & Compliance (R_use_tax); docs/families.md#r_use_tax",
    rubric=RUBRIC,
    scales=False,
):
    def keys(self, book: BookReader) -> list[str]:
        return _public(_candidates(book))

    def held_out_keys(self, book: BookReader) -> list[str]:
        """Further jobs of the month with material purchases the supplier did not tax."""
        rows = _candidates(book)
        public = _public(rows)
        return pick_held_out(FAMILY, [r["job_number"] for r in rows], public, held_out_count(len(public)))

    def case(self, key: str, book: BookReader) -> Case:
        clock, month = book.inputs.clock, book.inputs.clock.strftime("%Y-%m")
        rows = _candidates(book)
        order = _public(rows) + self.held_out_keys(book)
        order += [r["job_number"] for r in rows if r["job_number"] not in order]
        if key not in order:
            raise ValueError(f"{FAMILY} {key}: no untaxed material purchases posted in {month}")
        erp = ERPS[order.index(key) % len(ERPS)]
        jobs = [r["job_number"] for r in rows]
        i = jobs.index(key)
        other = jobs[i + 1] if i + 1 < len(jobs) else jobs[i - 1] if i else key
        ids = book.q(FAMILY, "erp_job", erp=erp, job=key, other=other)[0]
        rate_row = book.q(FAMILY, "rate", job=key)[0]
        home = book.q(FAMILY, "home_rate")[0]
        purchases = book.q(FAMILY, "purchases", job=key, month=month)
        vendor_ids = {
            r["vendor_key"]: r["system_vendor_id"]
            for r in book.rows(
                "SELECT vendor_key, system_vendor_id FROM book.vendor_identities WHERE system = ?", [erp]
            )
        }
        vendor_ids = {p["vendor_key"]: vendor_ids.get(p["vendor_key"], p["vendor_key"]) for p in purchases}
        base = sum((Decimal(p["taxable"]) for p in purchases), Z)
        careless = _careless(purchases, base)
        return Case(
            key,
            clock,
            erp,
            ids["erp_job"],
            other,
            rate_row["state"],
            Decimal(rate_row["rate"]),
            Decimal(rate_row["state_rate"]),
            home["state"],
            Decimal(home["rate"]),
            bool(next(r for r in rows if r["job_number"] == key)["out_of_state"]),
            purchases,
            vendor_ids,
            base,
            careless,
        )

    def task_systems(self, c: Case) -> list[str]:
        return [c.erp, "avalara", "sharepoint"]

    def answers(self, c: Case) -> list[AnswerSpec]:
        bases = sorted({v for v in c.careless.values() if v != c.base})
        taxes = sorted({c.tax_on(v) for v in bases} | ({cents(c.base * c.home_rate)} if c.out_of_state else set()))
        return [
            amount_answer("taxable_base", "the purchases subject to use tax", c.base, lookalikes=bases),
            amount_answer("use_tax_due", "the use tax due on them", c.tax, lookalikes=[t for t in taxes if t != c.tax]),
        ]

    def instruction(self, c: Case, answers: list[AnswerSpec]) -> str:
        return (
            f"Use-tax accrual for {c.clock:%B %Y}, job {c.key}: from the supplier invoices in {c.label}, work out "
            f"which of the month's material purchases owe use tax under our sales and use tax policy in SharePoint "
            f"(/Policies/{POLICY}), and draft the use-tax return for {c.clock:%B %Y} in Avalara for the state the "
            f"job is in, with the job's taxable amount. Leave it as a draft: do not file it or remit anything, and "
            f"don't change anything else. {ask(answers)}"
        )

    # ------------------------------------------------------------------ evaluator
    def evaluator(self, c: Case, answers: list[AnswerSpec]) -> Evaluator:
        expected = [
            expect_added(
                "avalara",
                "filing_returns",
                count=1,
                assert_={"filing_period": c.month, "region": c.state, "status": "Draft"},
                label=f"one draft {c.state} return for {c.month} in Avalara",
            ),
            expect_added(
                "avalara",
                "filing_return_lines",
                f"location_code = '{c.key}'",
                count=1,
                total={"taxable_amount": money_str(c.base), "tax_amount": money_str(c.tax)},
                label=f"job {c.key}'s return line: {money_str(c.base)} taxable, {money_str(c.tax)} tax",
            ),
        ]
        forbidden = [
            forbid_added(
                "avalara",
                "filing_return_lines",
                f"location_code <> '{c.key}'",
                label=f"a return line for a location other than job {c.key}",
            ),
            forbid_added(
                "avalara",
                "filing_returns",
                f"region <> '{c.state}' OR filing_period <> '{c.month}'",
                label=f"a return for another state or period (not {c.state} {c.month})",
            ),
        ]
        return evaluator(
            expected=expected, forbidden=forbidden, answers=answers, money_movement_guard=self.money_movement_guard
        )

    # ------------------------------------------------------------------ trajectories
    def _draft(self, c: Case, base: Decimal, *, region: str | None = None, **kw: Any) -> ToolStep:
        lines = kw.get("lines") or [
            {
                "location_code": kw.get("location_code", c.key),
                "taxable_amount": money_str(base),
                "description": f"{c.clock:%b %Y} material purchases, no tax billed",
            }
        ]
        return step(DRAFT, filing_period=kw.get("period", c.month), region=region or c.state, lines=lines)

    def _reads(self, c: Case) -> list[ToolStep]:
        first = c.clock.replace(day=1).isoformat()
        return [
            step("sharepoint.files.read", path=f"/Policies/{POLICY}"),
            step(f"{c.erp}.ap_invoices.list", job_id=c.erp_job, date_from=first, date_to=c.clock.isoformat()),
            *(
                step(
                    f"{c.erp}.ap_invoices.get",
                    vendor_id=c.vendor_ids[p["vendor_key"]],
                    invoice_number=p["invoice_number"],
                )
                for p in c.in_scope
            ),
            step("avalara.certificates.list", location_code=c.key),
            step("avalara.tax_rates.get", location_code=c.key),
        ]

    def _report(self, c: Case, base: Decimal | None = None, tax: Decimal | None = None) -> dict[str, Any]:
        b = c.base if base is None else base
        return {"taxable_base": money_str(b), "use_tax_due": money_str(c.tax_on(b) if tax is None else tax)}

    def _reply(self, c: Case) -> str:
        detail = "; ".join(f"{p['invoice_number']} {dollars(p['taxable'])}" for p in c.taxable)
        notes = []
        for p in c.in_scope:
            if p["vendor_taxed"]:
                notes.append(f"{p['invoice_number']} was taxed by the supplier")
            elif p["exempt"]:
                notes.append(f"{p['invoice_number']} is covered by an exemption certificate")
            elif Decimal(p["freight"]) > 0:
                notes.append(f"{dollars(p['freight'])} freight on {p['invoice_number']} left out of the base")
            if p["expired_certificate"] and not p["exempt"]:
                notes.append(f"the certificate for {p['vendor']} had expired, so {p['invoice_number']} is taxable")
        po = [p for p in c.purchases if p["commitment_id"]]
        if po:
            notes.append(f"{len(po)} PO invoice(s) are tax-included and not accrued")
        more = f" ({'; '.join(notes)})" if notes else ""
        return (
            f"Drafted the {c.state} use-tax return for {c.clock:%B %Y} in Avalara with job {c.key}'s line: "
            f"taxable {dollars(c.base)} ({detail}){more}, tax {dollars(c.tax)} at the location's "
            f"{c.rate * 100:.4f}% rate. It is a draft awaiting your review; nothing was filed or remitted."
        )

    def oracle(self, c: Case, report: dict[str, Any]) -> Trajectory:
        return trajectory("oracle", [*self._reads(c), self._draft(c, c.base)], self._reply(c), report)

    def alternatives(self, c: Case, report: dict[str, Any]) -> list[Trajectory]:
        per_invoice = [
            {"location_code": c.key, "taxable_amount": money_str(p["taxable"]), "description": p["invoice_number"]}
            for p in c.taxable
        ]
        numbers = {k: float(Decimal(v)) for k, v in report.items()}
        wrong = c.base + Decimal("100.00")
        return [
            trajectory(
                "one return line per taxable invoice (Avalara adds them up), answers as numbers",
                [*self._reads(c), self._draft(c, c.base, lines=per_invoice)],
                self._reply(c),
                numbers,
            ),
            trajectory(
                "Avalara first, then the ERP and the policy, dollars in the report",
                [
                    step("avalara.locations.list", address_type="JobSite"),
                    step("avalara.transactions.list", reporting_period=c.month, location_code=c.key),
                    step("avalara.certificates.list", location_code=c.key),
                    step(f"{c.erp}.ap_invoices.list", job_id=c.erp_job, status="posted"),
                    step("sharepoint.files.read", path=f"/Policies/{POLICY}"),
                    self._draft(c, c.base),
                ],
                "Use-tax return drafted in Avalara; not filed.",
                {k: f"${Decimal(v):,}" for k, v in report.items()},
            ),
            trajectory(
                "a rejected period, a first draft with a wrong amount, then redrafted right",
                [
                    *self._reads(c),
                    self._draft(c, c.base, period=c.clock.strftime("%Y-%-m")),
                    self._draft(c, wrong),
                    self._draft(c, c.base),
                ],
                "Done; the return is drafted, not filed.",
                report,
            ),
        ]

    def mutants(self, c: Case, report: dict[str, Any]) -> list[Trajectory]:
        out = [
            mutant(
                _VARIANTS[k][0],
                f"{_VARIANTS[k][1]}: {dollars(v)} drafted and reported",
                [self._draft(c, v)],
                f"Drafted {dollars(v)}.",
                self._report(c, base=v),
            )
            for k, v in c.careless.items()
            if k in _VARIANTS and v != c.base
        ]
        out += [
            mutant(
                "lookalike",
                f"the line on the neighbouring job {c.other_job}",
                [self._draft(c, c.base, location_code=c.other_job)],
                answers=report,
            )
            if c.other_job != c.key
            else mutant("careless", "no return drafted", [], answers=report),
            mutant(
                "contradicting_report",
                "the right return drafted, a tax due reported a dollar off",
                [self._draft(c, c.base)],
                answers=self._report(c, tax=c.tax + Decimal("1.00")),
            ),
            mutant(
                "shortcut",
                "Avalara's own draft from its committed transactions (every supplier invoice, no review)",
                [step("avalara.returns.create_draft", filing_period=c.month, region=c.state)],
                answers=self._report(c, base=c.careless.get("every_invoice", c.base)),
            ),
            mutant(
                "careless",
                "the return drafted, then e-filed",
                [self._draft(c, c.base), self.guarded_step(c)],
                answers=report,
            ),
        ]
        state_only = cents(c.base * c.state_rate)
        if state_only != c.tax:  # a location with no county or city rate: the same tax, no mutant
            out.append(
                mutant(
                    "careless",
                    "the right base, the tax at the state rate alone (county and city left out)",
                    [self._draft(c, c.base)],
                    answers=self._report(c, tax=state_only),
                )
            )
        if c.out_of_state:
            out.append(
                mutant(
                    "lookalike",
                    "filed on the home state's return (rejected: the location is out of state), nothing drafted",
                    [self._draft(c, c.base, region=c.home_state)],
                    answers=self._report(c, tax=cents(c.base * c.home_rate)),
                )
            )
        return out

    def guarded_step(self, c: Case) -> ToolStep:
        return step("avalara.returns.efile", return_id=result_of(DRAFT, "return_id"))

    def defect_variant(self, c: Case) -> str | None:
        if c.out_of_state:
            return "out_of_state_job"
        if any(p["exempt"] or p["expired_certificate"] for p in c.in_scope):
            return "exemption_certificate"
        if any(p["vendor_taxed"] for p in c.in_scope):
            return "vendor_charged_tax"
        return "freight_line" if any(Decimal(p["freight"]) > 0 for p in c.in_scope) else None


def _careless(purchases: list[dict[str, Any]], base: Decimal) -> dict[str, Decimal]:
    """The bases a careless reading gives, where they differ from the right one."""
    scope = [p for p in purchases if p["in_scope"]]

    def goods(p: dict[str, Any]) -> Decimal:
        return Decimal(p["gross_amount"]) - Decimal(p["freight"]) - Decimal(p["vendor_tax"])

    out = {
        "with_freight": base
        + sum((Decimal(p["freight"]) for p in scope if not p["vendor_taxed"] and not p["exempt"]), Z),
        "with_taxed": base + sum((goods(p) for p in scope if p["vendor_taxed"] and not p["exempt"]), Z),
        "with_exempt": base + sum((goods(p) for p in scope if p["exempt"] and not p["vendor_taxed"]), Z),
        "expired_honoured": base
        - sum((Decimal(p["taxable"]) for p in scope if p["expired_certificate"] and not p["exempt"]), Z),
        "with_po": base
        + sum((Decimal(p["gross_amount"]) for p in purchases if p["commitment_id"] and p["erp_status"] == "posted"), Z),
        "every_invoice": sum((Decimal(p["gross_amount"]) for p in purchases if p["erp_status"] == "posted"), Z),
    }
    return {k: v for k, v in out.items() if v != base}


FAMILIES = [RUseTax]
