"""G_prepaid_amortization — GL & Close: amortize the month's prepaid insurance, one program at a time.

At month end the controller asks for each insurance program's prepaid premiums (1400 Prepaid
Expenses) to be amortized to 6200 Insurance for the month. The premiums and policy periods are on
the policies' declarations pages in Box (``/Insurance/Policies``); the convention is the prepaid
insurance policy (SharePoint ``/Policies/prepaid_insurance_policy.md``): premium / 12 a whole
month, a partial month (bound or cancelled mid-month) prorated by days in force, an expired policy
nothing, the return premium of a cancelled policy never expense. One draft journal entry per
program, Dr 6200 / Cr 1400, dated the month end, not reversing, no job; staged, never posted (the
guarded step).

Each key (a program of the register) is staged in a different ERP (Acumatica, CMiC, Sage 300 CRE,
QuickBooks Online, ComputerEase, Foundation), the same archetype tools, each vendor's own tables.

Twists (in the data, at every seed and clock): a policy bound mid-month in the clock's month
(prorated by days: the policy clause), a policy cancelled mid-month with its return premium
already received (amortized through the day before the cancellation; the return premium is not
expense: the policy clause), a renewal whose premium on the declarations page differs from the
broker's proposal figure on the register (the PDF governs; the expiring term must not be carried
on). The clean control is a program of whole months only.

Held-out keys: the programs left after the public ones (query ``programs``).

Report: each policy's amortization (typed amounts named by coverage) and the program's total;
the careless readings (every policy a full month, the register's premium, premium x days / 365,
last month's entry copied) are the total's lookalikes. Amounts are asserted per account and side
(the debit lines on 6200 total the amortization, the credit lines on 1400 the same), so one line
per policy or one pair are both right.

Wrong trajectories: each careless total staged and reported; the entry the wrong way round
(Dr 1400 / Cr 6200); to 5500 Other Job Cost instead of 6200; an auto-reversing entry; the entry
staged twice; one policy left out; on cancellation keys the return premium credited to 6200; on
bind keys the bound policy left out; on stale keys the expired term carried on.
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

FAMILY = "G_prepaid_amortization"
PREPAID, EXPENSE = "1400", "6200"
POLICY = "prepaid_insurance_policy.md"
FOLDER = "/Insurance/Policies"
# each program's ERP (none of them Vista): every key a different one
ERPS = {
    "casualty": "acumatica_construction",
    "equipment": "cmic",
    "management": "sage300cre",
    "fleet": "qbo",
    "professional": "computerease",
    "property": "foundation_erp",
}
TWISTS = ("bound_mid_month", "cancelled", "stale_register")  # one public key each, then the clean control
DEFECTS = {
    "cancelled": "cancelled_return_premium",
    "bound_mid_month": "mid_month_bind",
    "stale_register": "amount_mismatch_pdf",
}
RUBRIC = Rubric.of(amortization_per_policy_and_total=0.5, entry_accounts_and_sides=0.3, left_unposted=0.2)
# the careless totals staged as wrong runs: class and what was done
_VARIANTS: dict[str, tuple[MutantClass, str]] = {
    "full_month": ("careless", "every policy amortized a full month (no proration)"),
    "register": ("lookalike", "the register's proposal premium instead of the declarations page's"),
    "daily": ("lookalike", "a daily convention (premium x days / 365) instead of twelfths"),
    "prior": ("stale", "last month's posted entry copied"),
}
Z = Decimal("0.00")


@dataclass(frozen=True)
class Case(ErpEntry):
    key: str
    clock: date
    erp: str
    flags: dict[str, bool]
    policies: list[dict[str, Any]]  # in force in the month (query ``policies``)
    prior: list[dict[str, Any]]  # last month's posted lines (query ``prior``)
    total: Decimal
    careless: dict[str, Decimal]  # the totals a careless reading gives, where they differ

    @property
    def month(self) -> str:
        return f"{self.clock:%B %Y}"

    @property
    def description(self) -> str:
        return f"Prepaid insurance amortization - {self.key} program - {self.clock:%b %Y}"

    @property
    def amounts(self) -> dict[str, Decimal]:
        return {p["coverage"]: Decimal(p["amount"]) for p in self.policies}

    def of(self, flag: str) -> list[dict[str, Any]]:
        if flag == "bound_mid_month":
            return [p for p in self.policies if p["effective_date"] > self.clock.replace(day=1)]
        if flag == "cancelled":
            return [p for p in self.policies if p["cancelled_date"] is not None]
        return [p for p in self.policies if Decimal(p["scheduled_premium"]) != Decimal(p["premium"])]


def _programs(book: BookReader) -> list[dict[str, Any]]:
    return book.q(FAMILY, "programs", month=book.inputs.clock.strftime("%Y-%m"))


def _public(rows: list[dict[str, Any]]) -> list[str]:
    """For each twist the first program with that twist alone, and the first clean program."""
    picked: list[str] = []
    for t in TWISTS:
        alone = [r["program"] for r in rows if r[t] and sum(bool(r[x]) for x in TWISTS) == 1]
        picked += [p for p in alone if p not in picked][:1]
    picked += [r["program"] for r in rows if r["clean"]][:1]
    return sorted(picked)


class GPrepaidAmortization(
    Family[Case],
    family=FAMILY,
    domain_code="G",
    taxonomy_path="G.Close.prepaid_amortization",
    difficulty=2,
    systems=[*dict.fromkeys(ERPS.values()), "box", "sharepoint"],
    user_role="Controller",
    policy_ref=POLICY,
    money_movement_guard=True,
    source_ref="FAMILIES.md Part 2, GL & Close (G_prepaid_amortization); docs/families.md#g_prepaid_amortization",
    rubric=RUBRIC,
    scales=False,
):
    def keys(self, book: BookReader) -> list[str]:
        return _public(_programs(book))

    def held_out_keys(self, book: BookReader) -> list[str]:
        """The programs of the month left after the public ones."""
        rows = _programs(book)
        public = _public(rows)
        return pick_held_out(FAMILY, [r["program"] for r in rows], public, held_out_count(len(public)))

    def case(self, key: str, book: BookReader) -> Case:
        clock, month = book.inputs.clock, book.inputs.clock.strftime("%Y-%m")
        flags = {r["program"]: r for r in _programs(book)}
        if key not in flags or key not in ERPS:
            raise ValueError(f"{FAMILY} {key}: no program with a policy in force in {month}")
        policies = book.q(FAMILY, "policies", month=month, program=key)
        prior = book.q(FAMILY, "prior", month=month, program=key)
        total = sum((Decimal(p["amount"]) for p in policies), Z)
        careless = {
            "full_month": sum((Decimal(p["monthly"]) for p in policies), Z),
            "register": sum((Decimal(p["register_amount"]) for p in policies), Z),
            "daily": sum((Decimal(p["daily_amount"]) for p in policies), Z),
            "prior": sum((Decimal(x["amount"]) for x in prior), Z),
        }
        careless = {k: v for k, v in careless.items() if v and v != total}
        row = flags[key]
        return Case(key, clock, ERPS[key], {t: bool(row[t]) for t in TWISTS}, policies, prior, total, careless)

    def task_systems(self, c: Case) -> list[str]:
        return [c.erp, "box", "sharepoint"]

    def answers(self, c: Case) -> list[AnswerSpec]:
        out = []
        for p in c.policies:
            looks = {Decimal(p[k]) for k in ("monthly", "register_amount", "daily_amount")}
            if p["prior_month"] is not None:
                looks.add(Decimal(p["prior_month"]))
            out.append(
                amount_answer(
                    p["coverage"],
                    f"the {p['coverage_name']} policy's {c.month} amortization",
                    p["amount"],
                    lookalikes=[v for v in looks if v != Decimal(p["amount"])],
                )
            )
        out.append(
            amount_answer(
                "total_amortization",
                "the entry's total",
                c.total,
                lookalikes=[v for v in c.careless.values() if v != c.total],
            )
        )
        return out

    def instruction(self, c: Case, answers: list[AnswerSpec]) -> str:
        return (
            f"Month-end close for {c.month}: amortize the prepaid insurance of our {c.key} insurance program "
            f"for the month, following our prepaid insurance policy in SharePoint (/Policies/{POLICY}); the "
            f"policies' declarations pages are in Box under {FOLDER}. Stage one draft journal entry in "
            f"{c.label} dated {c.entry_date}. Do not post it, and don't change anything else. {ask(answers)}"
        )

    # ------------------------------------------------------------------ evaluator
    def _side(self, c: Case, account: str, debit: bool) -> tuple[str, str]:
        """(where, total column) for the added lines on ``account``'s debit or credit side."""
        return line_side(c.D, account, debit)

    def _total(self, c: Case, account: str, debit: bool) -> RowPredicate:
        where, col = self._side(c, account, debit)
        return expect_added(
            c.erp,
            c.D.t("je_open_line").table,
            where,
            total={col: side_total(c.D, c.total, debit)},
            label=f"{'Dr' if debit else 'Cr'} {account} {money_str(c.total)} (the month's amortization)",
        )

    def _none(self, c: Case, account: str, debit: bool, what: str) -> RowPredicate:
        where, _ = self._side(c, account, debit)
        return forbid_added(c.erp, c.D.t("je_open_line").table, where, label=what)

    def evaluator(self, c: Case, answers: list[AnswerSpec]) -> Evaluator:
        line = c.D.t("je_open_line")
        expected = [
            expect_one_entry(c.erp, c.D, c.label, c.entry_date),
            self._total(c, EXPENSE, True),
            self._total(c, PREPAID, False),
        ]
        forbidden = [
            forbid_added(
                c.erp,
                line.table,
                f"{line.n('account')} NOT IN ('{PREPAID}', '{EXPENSE}')",
                label=f"a journal line on an account other than {EXPENSE} / {PREPAID}",
            ),
            self._none(c, EXPENSE, False, f"a credit to {EXPENSE}: a return premium is not expense"),
            self._none(c, PREPAID, True, f"a debit to {PREPAID}: nothing is capitalized this month"),
        ]
        forbidden += forbid_reversing(c.erp, c.D, "an amortization set to reverse")
        return evaluator(
            expected=expected, forbidden=forbidden, answers=answers, money_movement_guard=self.money_movement_guard
        )

    # ------------------------------------------------------------------ trajectories
    def _lines(self, c: Case, amounts: dict[str, Decimal], **kw: Any) -> list[dict[str, Any]]:
        dr, cr = kw.get("debit_account", EXPENSE), kw.get("credit_account", PREPAID)
        numbers = {p["coverage"]: p["policy_number"] for p in c.policies}
        out: list[dict[str, Any]] = [
            {"account": dr, "debit": money_str(x), "memo": numbers.get(k, k)} for k, x in amounts.items() if x
        ]
        total = sum(amounts.values(), Z)
        out.append({"account": cr, "credit": money_str(total), "memo": f"Prepaid insurance - {c.key}"})
        return out

    def _staged(self, c: Case, amounts: dict[str, Decimal], *, reverse: bool = False, **kw: Any) -> ToolStep:
        args: dict[str, Any] = {"auto_reverse": True} if reverse else {}
        return step(
            f"{c.erp}.journal_entries.stage",
            entry_date=c.entry_date,
            description=c.description,
            lines=kw.pop("lines", None) or self._lines(c, amounts, **kw),
            **args,
        )

    def _stage(self, c: Case) -> ToolStep:
        return step(
            f"{c.erp}.journal_entries.stage",
            entry_date=c.entry_date,
            description=c.description,
            period=c.clock.strftime("%Y-%m"),
            journal="GJ",
            reference=f"PPD-{c.key[:4].upper()}-{c.clock:%y%m}",
            lines=self._lines(c, c.amounts),
        )

    def _reads(self, c: Case) -> list[ToolStep]:
        prior = c.clock.replace(day=1).toordinal() - 1
        out = [
            step("sharepoint.files.read", path=f"/Policies/{POLICY}"),
            step("box.files.list", folder=FOLDER),
        ]
        for p in c.policies:
            out.append(step("box.ocr_pdf", path=p["pdf"], tables=False))
            if p["cancel_pdf"]:
                out.append(step("box.ocr_pdf", path=p["cancel_pdf"], tables=False))
        out += [
            step(f"{c.erp}.journal_entries.list", period=f"{date.fromordinal(prior):%Y-%m}", include_lines=True),
            step(f"{c.erp}.gl.periods"),
        ]
        return out

    def _report(self, c: Case, amounts: dict[str, Decimal] | None = None) -> dict[str, Any]:
        got = c.amounts if amounts is None else amounts
        out: dict[str, Any] = {k: money_str(got.get(k, Z)) for k in c.amounts}
        out["total_amortization"] = money_str(sum(got.values(), Z))
        return out

    def _reply(self, c: Case) -> str:
        parts = []
        for p in c.policies:
            note = ""
            if p["cancelled_date"] is not None:
                note = (
                    f", cancelled {p['cancelled_date']:%m/%d/%Y}: {p['days']} of {p['dim']} days; the return premium "
                    f"{dollars(p['return_premium'])} is not expense"
                )
            elif p["effective_date"] > c.clock.replace(day=1):
                note = f", bound {p['effective_date']:%m/%d/%Y}: {p['days']} of {p['dim']} days"
            elif Decimal(p["scheduled_premium"]) != Decimal(p["premium"]):
                note = (
                    f", premium {dollars(p['premium'])} per the declarations page (the register says "
                    f"{dollars(p['scheduled_premium'])})"
                )
            parts.append(f"{p['policy_number']} {p['coverage_name']} {dollars(p['amount'])}{note}")
        return (
            f"Staged a draft journal entry in {c.label} dated {c.entry_date}: Dr {EXPENSE} / Cr {PREPAID} "
            f"{dollars(c.total)} for the {c.key} program's {c.month} amortization ({'; '.join(parts)}). It does not "
            f"reverse; it is unposted, awaiting your review; nothing was posted."
        )

    def oracle(self, c: Case, report: dict[str, Any]) -> Trajectory:
        return trajectory("oracle", [*self._reads(c), self._stage(c)], self._reply(c), report)

    def alternatives(self, c: Case, report: dict[str, Any]) -> list[Trajectory]:
        stage = f"{c.erp}.journal_entries.stage"
        pair = [
            {"account": EXPENSE, "debit": money_str(c.total)},
            {"account": PREPAID, "credit": money_str(c.total)},
        ]
        wrong = self._lines(c, c.amounts)
        wrong[-1] = {**wrong[-1], "credit": money_str(Decimal(wrong[-1]["credit"]) - Decimal("0.01"))}
        numbers: dict[str, Any] = {k: float(Decimal(v)) for k, v in report.items()}
        return [
            trajectory(
                "register and erp first, credit line first, amounts as numbers",
                [
                    step(f"{c.erp}.gl.accounts"),
                    step("sharepoint.files.read", path=f"/Policies/{POLICY}"),
                    *(step("box.ocr_pdf", path=p["pdf"]) for p in c.policies),
                    step(
                        stage,
                        entry_date=c.entry_date,
                        description=f"Insurance amortization {c.clock:%m/%Y}",
                        lines=[
                            {k: (float(Decimal(v)) if k in ("debit", "credit") else v) for k, v in ln.items()}
                            for ln in sorted(self._lines(c, c.amounts), key=lambda x: "credit" not in x)
                        ],
                    ),
                ],
                "Insurance amortization staged as a draft; not posted.",
                numbers,
            ),
            trajectory(
                "one pair of lines for the program",
                [*self._reads(c), step(stage, entry_date=c.entry_date, description=c.description, lines=pair)],
                self._reply(c),
                {k: f"${Decimal(v):,}" for k, v in report.items()},
            ),
            trajectory(
                "rejected unbalanced stage, then corrected",
                [
                    *self._reads(c),
                    step(stage, entry_date=c.entry_date, description=c.description, lines=wrong),
                    self._staged(c, c.amounts),
                ],
                "Done; the entry is staged, not posted.",
                report,
            ),
        ]

    def _careless_amounts(self, c: Case, kind: str) -> dict[str, Decimal]:
        if kind == "prior":
            numbers = {p["policy_number"]: p["coverage"] for p in c.policies}
            return {numbers.get(x["policy_number"], x["policy_number"]): Decimal(x["amount"]) for x in c.prior}
        col = {"full_month": "monthly", "register": "register_amount", "daily": "daily_amount"}[kind]
        return {p["coverage"]: Decimal(p[col]) for p in c.policies}

    def mutants(self, c: Case, report: dict[str, Any]) -> list[Trajectory]:
        a = c.amounts
        out = []
        for k in c.careless:
            wrong = self._careless_amounts(c, k)
            out.append(
                mutant(
                    _VARIANTS[k][0],
                    f"{_VARIANTS[k][1]}: {dollars(sum(wrong.values(), Z))} staged and reported",
                    [self._staged(c, wrong)],
                    f"Amortized {dollars(sum(wrong.values(), Z))}.",
                    self._report(c, {x: v for x, v in wrong.items() if x in a}),
                )
            )
        out += [
            mutant(
                "lookalike",
                f"the entry the wrong way round (Dr {PREPAID} / Cr {EXPENSE})",
                [self._staged(c, a, debit_account=PREPAID, credit_account=EXPENSE)],
                answers=report,
            ),
            mutant(
                "lookalike",
                "debit to 5500 Other Job Cost instead of 6200 Insurance",
                [self._staged(c, a, debit_account="5500")],
                answers=report,
            ),
            mutant("careless", "the entry staged twice", [self._staged(c, a), self._staged(c, a)], answers=report),
        ]
        if c.D.supports_auto_reverse:
            out.append(
                mutant("careless", "an auto-reversing amortization", [self._staged(c, a, reverse=True)], answers=report)
            )
        rest = {
            p["coverage"]: Decimal(p["premium"]) - Decimal(p["amortized"]) - Decimal(p["return_premium"] or 0)
            for p in c.policies
        }
        if sum(rest.values(), Z) != c.total:
            out.append(
                mutant(
                    "careless",
                    "each policy's whole remaining prepaid balance expensed",
                    [self._staged(c, rest)],
                    answers=self._report(c, rest),
                )
            )
        last = c.policies[-1]["coverage"]
        short = {k: v for k, v in a.items() if k != last}
        out.append(
            mutant(
                "careless",
                f"the {last} policy left out",
                [self._staged(c, short)],
                answers=self._report(c, short),
            )
        )
        for p in c.of("cancelled"):
            ret = Decimal(p["return_premium"])
            lines = [
                *self._lines(c, a),
                {"account": PREPAID, "debit": money_str(ret)},
                {"account": EXPENSE, "credit": money_str(ret)},
            ]
            out.append(
                mutant(
                    "careless",
                    f"the return premium {dollars(ret)} credited to {EXPENSE}",
                    [self._staged(c, a, lines=lines)],
                    answers=report,
                )
            )
            gone = {k: v for k, v in a.items() if k != p["coverage"]}
            out.append(
                mutant(
                    "careless",
                    f"the cancelled {p['coverage']} policy not amortized at all",
                    [self._staged(c, gone)],
                    answers=self._report(c, gone),
                )
            )
        for p in c.of("bound_mid_month"):
            gone = {k: v for k, v in a.items() if k != p["coverage"]}
            out.append(
                mutant(
                    "stale",
                    f"the {p['coverage']} policy bound {p['effective_date']:%m/%d} left for next month",
                    [self._staged(c, gone)],
                    answers=self._report(c, gone),
                )
            )
        expired = [x for x in c.prior if x["expired"]]
        if c.of("stale_register") and expired:
            more = {**a, **{x["policy_number"]: Decimal(x["amount"]) for x in expired}}
            out.append(
                mutant(
                    "stale",
                    "the expired term carried on beside its renewal",
                    [self._staged(c, more)],
                    answers={**report, "total_amortization": money_str(sum(more.values(), Z))},
                )
            )
        return out

    def guarded_step(self, c: Case) -> ToolStep:
        return post_step(c.erp)

    def defect_variant(self, c: Case) -> str | None:
        for flag in ("cancelled", "bound_mid_month", "stale_register"):
            if c.flags[flag]:
                return DEFECTS[flag]
        return None


FAMILIES = [GPrepaidAmortization]
