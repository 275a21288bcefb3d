"""T_bank_rec — Cash & Treasury: reconcile a bank account to its GL cash account for a month.

The controller asks for one account's reconciliation at a statement date: the bank side from
the bank's own portal (its monthly statement, ``statements.get`` in the portal's words, or the
BAI2 file / transaction search), the book side from an ERP (the GL cash account's balance, the
check register, the month's deposits). The bank reconciliation policy (SharePoint
``/Policies/bank_reconciliation_policy.md``) says how: bank + deposits in transit - outstanding
checks + bank errors = GL + interest - fees - returned items - book errors; one adjusting entry
dated the statement date for what the bank booked and we did not (fees to 6600, interest to 4110,
an NSF owner check back to 1200 with its job, book errors at their own accounts), staged as a
draft and never posted (the guarded step); timing items are never booked, and a closed period's
reconciliation books nothing.

Keys (``<portal>_<YYYY-MM>``, seeds/bank_rec.py plants the items for every seed and clock), each
in its own ERP:

- ``bofa_cashpro`` the month before the clock (clean control, Foundation): outstanding checks and
  a deposit in transit only; the period is closed and nothing is booked;
- ``bofa_cashpro`` the clock month (Sage 300 CRE): an owner's check returned NSF (back to 1200 on
  the job), its returned-item fee and a stop-payment fee, a deposit in transit;
- ``wells`` the clock month (Acumatica; Plaid also lists the transactions): a wire fee charged
  twice (book one, dispute the other: it is added back on the bank side) and a maintenance fee;
- ``pnc_pinacle`` the clock month (CMiC): a deposit booked today that is last month's deposit
  booked again (not in transit: reverse it, Dr 4100 / Cr 1030), a real deposit in transit, and
  interest the GL does not have;
- held out: ``chase_treasury`` the clock month (Sage Intacct): a manual check the bank paid for
  the amount written on it, keyed in the register and GL with two digits transposed (correct the
  check's entry at 2200, not a fee), and an ACH fee; ``wells`` the month before (QuickBooks
  Online): outstanding checks only, nothing to book.

Answers: ``bank_ending_balance``, ``outstanding_checks_count``, ``outstanding_checks_total``,
``deposits_in_transit_total`` and ``adjusted_balance`` (adjusted bank = adjusted book). The entry is
asserted per non-cash account and side (so one cash line or one per item both pass; the stage
tool rejects an unbalanced entry); nothing on any other account.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, timedelta
from decimal import Decimal
from typing import Any

from cfab.apps.bank.dialects import DIALECTS, PortalDialect
from cfab.apps.bank.vendors import PORTALS
from cfab.apps.erp.dialects import Dialect
from cfab.apps.erp.vendors import ERP_APPS
from cfab.grader.answers import AnswerSpec
from cfab.grader.predicates import Evaluator, RowPredicate
from cfab.tasks.family import BookReader, Family
from cfab.tasks.kit.answers import amount_answer, ask, count_answer
from cfab.tasks.kit.entries import allow_added, evaluator, expect_added, forbid_added
from cfab.tasks.kit.figures import dollars, money_str
from cfab.tasks.kit.journal import forbid_reversing, line_side, post_step, side_total
from cfab.tasks.kit.steps import mutant, step, trajectory, with_args
from cfab.tasks.model import Rubric, ToolStep, Trajectory

FAMILY = "T_bank_rec"
POLICY = "bank_reconciliation_policy.md"
FEES, INTEREST, AR = "6600", "4110", "1200"
Z = Decimal("0.00")
RUBRIC = Rubric.of(reconciliation_figures=0.5, adjusting_entry=0.3, left_unposted=0.2)
# (bank account, months before the clock month, ERP); the first four are public, the rest held out
PLAN: tuple[tuple[str, int, str], ...] = (
    ("BA-OPER", 1, "foundation_erp"),
    ("BA-OPER", 0, "sage300cre"),
    ("BA-WFMM", 0, "acumatica_construction"),
    ("BA-PNCEQ", 0, "cmic"),
    ("BA-PAYR", 0, "sage_intacct"),
    ("BA-WFMM", 1, "qbo"),
)
PUBLIC = 4
PLAID_ACCOUNT = "BA-WFMM"  # the key whose bank transactions Plaid also lists (an alternative reads them)


@dataclass(frozen=True)
class Case:
    key: str
    account: str  # book bank_account_id
    portal: str
    erp: str
    account_number: str
    nickname: str
    gl: str
    as_of: date
    open_period: bool
    rec: dict[str, Decimal]
    items: list[dict[str, Any]]
    offsets: dict[str, tuple[str, str | None]]  # field -> (account, ERP job id)
    lines: list[tuple[str, bool, Decimal, str | None, str]] = field(default_factory=list)

    @property
    def D(self) -> PortalDialect:
        return DIALECTS[self.portal]

    @property
    def E(self) -> Dialect:
        return ERP_APPS[self.erp].D

    @property
    def erp_label(self) -> str:
        return ERP_APPS[self.erp].label

    @property
    def month(self) -> str:
        return self.as_of.strftime("%Y-%m")

    @property
    def entry_needed(self) -> bool:
        return self.open_period and bool(self.lines)

    def ptool(self, local: str) -> str:
        return f"{self.portal}.{PORTALS[self.portal].TOOL_NAMES.get(local, local)}"

    def figures(self) -> dict[str, Any]:
        r = self.rec
        return {
            "bank_ending_balance": money_str(r["bank_ending"]),
            "outstanding_checks_count": int(r["outstanding_count"]),
            "outstanding_checks_total": money_str(r["outstanding_total"]),
            "deposits_in_transit_total": money_str(r["dit_total"]),
            "adjusted_balance": money_str(r["adjusted_bank"]),
        }


def _keys(book: BookReader) -> list[tuple[str, str, int, str]]:
    """(key, account, months back, ERP) of every planned key, in plan order."""
    accts = {a["bank_account_id"]: a for a in book.q(FAMILY, "accounts")}
    portal_of = {d.bank.code: d.app for d in DIALECTS.values()}
    clock = book.inputs.clock
    out = []
    for acct, back, erp in PLAN:
        if acct not in accts:
            continue
        month = clock.replace(day=1)
        for _ in range(back):
            month = (month - timedelta(days=1)).replace(day=1)
        out.append((f"{portal_of[accts[acct]['bank']]}_{month:%Y-%m}", acct, back, erp))
    return out


def _lines(
    rec: dict[str, Decimal], offsets: dict[str, tuple[str, str | None]]
) -> list[tuple[str, bool, Decimal, str | None, str]]:
    """The adjusting entry's non-cash lines: (account, debit?, amount, job, what)."""
    out: list[tuple[str, bool, Decimal, str | None, str]] = []
    if rec["fees"]:
        out.append((FEES, True, rec["fees"], None, "bank service charges and fees"))
    if rec["interest"]:
        out.append((INTEREST, False, rec["interest"], None, "interest credited by the bank"))
    if rec["returned_items"]:
        acct, job = offsets["returned_item"]
        out.append((acct, True, rec["returned_items"], job, "owner check returned NSF, receivable reopened"))
    if rec["duplicate_deposits"]:
        acct, _ = offsets["duplicate_deposit"]
        out.append((acct, True, rec["duplicate_deposits"], None, "reverse the deposit booked twice"))
    diff = rec["check_difference"]
    if diff:
        acct, _ = offsets["check_difference"]
        out.append((acct, diff > 0, abs(diff), None, "correct the check's mis-keyed amount"))
    return out


class TBankRec(
    Family[Case],
    family=FAMILY,
    domain_code="T",
    taxonomy_path="T.Treasury.bank_reconciliation",
    difficulty=3,
    systems=[*DIALECTS, *(e for _a, _b, e in PLAN), "plaid", "sharepoint"],
    user_role="Controller",
    policy_ref=POLICY,
    money_movement_guard=True,
    source_ref="FAMILIES.md Part 2, Cash & Treasury (T_bank_rec); docs/families.md#t_bank_rec",
    rubric=RUBRIC,
    scales=False,
):
    def keys(self, book: BookReader) -> list[str]:
        return [k for k, *_ in _keys(book)[:PUBLIC]]

    def held_out_keys(self, book: BookReader) -> list[str]:
        """The Chase payroll account this month (the mis-keyed check) and the money market last month."""
        return [k for k, *_ in _keys(book)[PUBLIC:]]

    def case(self, key: str, book: BookReader) -> Case:
        found = {k: (a, back, erp) for k, a, back, erp in _keys(book)}
        if key not in found:
            raise ValueError(f"{FAMILY} {key}: not a reconciliation this world plans")
        acct, back, erp = found[key]
        clock = book.inputs.clock
        as_of = clock if back == 0 else clock.replace(day=1) - timedelta(days=1)
        row = book.q(FAMILY, "rec", account=acct, as_of=as_of.isoformat())[0]
        rec = {k: Decimal(str(v)) for k, v in row.items()}  # the count too (an exact integer)
        if rec["adjusted_bank"] != rec["adjusted_book"]:
            raise RuntimeError(f"{FAMILY} {key}: the reconciliation does not tie: {row}")
        offsets: dict[str, tuple[str, str | None]] = {}
        for o in book.q(FAMILY, "offsets", account=acct, as_of=as_of.isoformat()):
            job = book.q(FAMILY, "erp_job", erp=erp, job=o["job_number"])[0]["erp_job"] if o["job_number"] else None
            offsets[o["field"]] = (o["account"], job)
        items = book.q(FAMILY, "items", account=acct, as_of=as_of.isoformat())
        a = next(x for x in book.q(FAMILY, "accounts") if x["bank_account_id"] == acct)
        portal = key.rsplit("_", 1)[0]
        return Case(
            key,
            acct,
            portal,
            erp,
            a["account_number"],
            a["account_name"],
            a["gl_account"],
            as_of,
            back == 0,
            rec,
            items,
            offsets,
            _lines(rec, offsets),
        )

    def task_systems(self, c: Case) -> list[str]:
        extra = ["plaid"] if c.account == PLAID_ACCOUNT and c.open_period else []
        return [c.portal, c.erp, *extra, "sharepoint"]

    def answers(self, c: Case) -> list[AnswerSpec]:
        r = c.rec
        dit_looks = [r["dit_total"] + r["duplicate_deposits"]] if r["duplicate_deposits"] else []
        adj_looks = [r["gl_balance"], r["bank_ending"]]
        if r["duplicate_charges"]:
            adj_looks.append(r["adjusted_bank"] - r["duplicate_charges"])
        if r["duplicate_deposits"]:
            adj_looks.append(r["adjusted_bank"] + r["duplicate_deposits"])
        if r["check_difference"]:
            adj_looks.append(r["adjusted_bank"] + r["check_difference"])
        return [
            amount_answer(
                "bank_ending_balance",
                f"the bank's ending ledger balance on {c.as_of}",
                r["bank_ending"],
                lookalikes=[r["gl_balance"]],
            ),
            count_answer(
                "outstanding_checks_count",
                f"how many checks were outstanding on {c.as_of}",
                int(r["outstanding_count"]),
            ),
            amount_answer("outstanding_checks_total", "the outstanding checks' total", r["outstanding_total"]),
            amount_answer(
                "deposits_in_transit_total",
                f"the deposits in transit on {c.as_of}",
                r["dit_total"],
                lookalikes=dit_looks,
            ),
            amount_answer(
                "adjusted_balance",
                "the adjusted balance (adjusted bank = adjusted book)",
                r["adjusted_bank"],
                lookalikes=[v for v in adj_looks if v != r["adjusted_bank"]],
            ),
        ]

    def instruction(self, c: Case, answers: list[AnswerSpec]) -> str:
        month = f"{c.as_of:%B %Y}"
        return (
            f"Reconcile our {c.D.label} account {c.account_number} ({c.nickname}) to GL {c.gl} for {month} "
            f"(key {c.key}), as of {c.as_of}, following the bank reconciliation policy in SharePoint "
            f"(/Policies/{POLICY}). The book side is in {c.erp_label}. If the bank recorded anything we did not, "
            f"stage one draft adjusting journal entry in {c.erp_label} dated {c.as_of}; do not post anything and "
            f"don't change anything else. {ask(answers)}"
        )

    # ------------------------------------------------------------------ evaluator
    def _side(self, c: Case, account: str, debit: bool) -> tuple[str, str]:
        """(where, total column) for the added lines on ``account``'s debit or credit side."""
        return line_side(c.E, account, debit)

    def _total(self, c: Case, account: str, debit: bool, value: Decimal, job: str | None, what: str) -> RowPredicate:
        where, col = self._side(c, account, debit)
        line = c.E.t("je_open_line")
        side = "Dr" if debit else "Cr"
        return expect_added(
            c.erp,
            line.table,
            where,
            assert_={line.n("job_id"): job} if job else None,
            total={col: side_total(c.E, value, debit)},
            label=f"{side} {account} {money_str(value)} ({what})",
        )

    def evaluator(self, c: Case, answers: list[AnswerSpec]) -> Evaluator:
        hdr, line = c.E.t("je_open_hdr"), c.E.t("je_open_line")
        if not c.entry_needed:
            why = "the period is closed" if not c.open_period else "nothing the bank recorded is missing"
            return evaluator(
                expected=[],
                forbidden=[forbid_added(c.erp, hdr.table, label=f"an adjusting entry ({why}: timing items only)")],
                answers=answers,
                money_movement_guard=self.money_movement_guard,
            )
        expected = [
            expect_added(
                c.erp,
                hdr.table,
                count=1,
                assert_={hdr.n("act_date"): c.as_of.isoformat()},
                label=f"one draft journal entry in {c.erp_label} dated {c.as_of}",
            )
        ]
        forbidden = []
        allowed = {c.gl}
        for acct, debit, amount, job, what in c.lines:
            allowed.add(acct)
            expected.append(self._total(c, acct, debit, amount, job, what))
            where, _ = self._side(c, acct, not debit)
            forbidden.append(
                forbid_added(c.erp, line.table, where, label=f"a {'credit' if debit else 'debit'} to {acct}")
            )
        listed = ", ".join(f"'{a}'" for a in sorted(allowed))
        forbidden.append(
            forbid_added(
                c.erp,
                line.table,
                f"{line.n('account')} NOT IN ({listed})",
                label=f"a journal line on an account other than {', '.join(sorted(allowed))}",
            )
        )
        forbidden += forbid_reversing(c.erp, c.E, "an adjusting entry set to reverse")
        cash = allow_added(
            c.erp,
            line.table,
            f"{line.n('account')} = '{c.gl}'",
            label=f"the cash side on {c.gl} (one line or one per item; the entry balances)",
        )
        return evaluator(
            expected=expected,
            forbidden=forbidden,
            allowed=[cash],
            answers=answers,
            money_movement_guard=self.money_movement_guard,
        )

    # ------------------------------------------------------------------ trajectories
    def _entry_lines(
        self,
        c: Case,
        lines: list[tuple[str, bool, Decimal, str | None, str]] | None = None,
        *,
        split_cash: bool = False,
    ) -> list[dict[str, Any]]:
        lines = c.lines if lines is None else lines
        out: list[dict[str, Any]] = []
        net = Z
        for acct, debit, amount, job, what in lines:
            ln: dict[str, Any] = {"account": acct, ("debit" if debit else "credit"): money_str(amount), "memo": what}
            if job:
                ln["job_id"] = job
            out.append(ln)
            if split_cash:
                out.append({"account": c.gl, ("credit" if debit else "debit"): money_str(amount), "memo": what})
            net += -amount if debit else amount
        if not split_cash and net:
            out.append(
                {
                    "account": c.gl,
                    ("debit" if net > 0 else "credit"): money_str(abs(net)),
                    "memo": "bank reconciliation",
                }
            )
        return out

    def _staged(self, c: Case, lines: list[dict[str, Any]], **kw: Any) -> ToolStep:
        return step(
            f"{c.erp}.journal_entries.stage",
            entry_date=kw.pop("entry_date", c.as_of.isoformat()),
            description=f"Bank reconciliation adjustments - {c.nickname} {c.as_of:%b %Y}",
            lines=lines,
            **kw,
        )

    def _reads(self, c: Case, *, bai2: bool = False) -> list[ToolStep]:
        bank = (
            [
                step(
                    c.ptool("statements.bai2"),
                    account=c.account_number,
                    date_from=c.as_of.replace(day=1).isoformat(),
                    date_to=c.as_of.isoformat(),
                ),
                step(c.ptool("balances.get"), account=c.account_number, as_of_date=c.as_of.isoformat()),
            ]
            if bai2
            else [step(c.ptool("statements.get"), account=c.account_number, month=c.month)]
        )
        return [
            step("sharepoint.files.read", path=f"/Policies/{POLICY}"),
            *bank,
            step(f"{c.erp}.gl.balance", account=c.gl, through_period=c.month),
            step(f"{c.erp}.checks.list", bank_account=c.account, date_to=c.as_of.isoformat(), limit=500),
            step(f"{c.erp}.journal_entries.list", period=c.month, status="posted", limit=500),
            step(f"{c.erp}.gl.periods"),
        ]

    def _reply(self, c: Case) -> str:
        r = c.rec
        parts = [
            f"Bank ending balance {dollars(r['bank_ending'])}; {r['outstanding_count']} outstanding checks "
            f"{dollars(r['outstanding_total'])}; deposits in transit {dollars(r['dit_total'])}"
        ]
        if r["duplicate_charges"]:
            parts.append(
                f"the duplicate charge {dollars(r['duplicate_charges'])} is added back on the bank side and "
                "disputed with the bank, not booked"
            )
        if r["duplicate_deposits"]:
            parts.append(
                f"the deposit of {dollars(r['duplicate_deposits'])} booked today is last month's deposit booked "
                "twice: reversed, not in transit"
            )
        if r["check_difference"]:
            parts.append(
                f"a check the bank paid for {dollars(abs(r['check_difference']))} more than the register carries "
                "is corrected at its own entry"
            )
        parts.append(f"adjusted bank = adjusted book = {dollars(r['adjusted_bank'])}")
        if c.entry_needed:
            detail = "; ".join(f"{'Dr' if d else 'Cr'} {a} {dollars(v)} ({w})" for a, d, v, _j, w in c.lines)
            tail = (
                f"Staged one draft adjusting entry in {c.erp_label} dated {c.as_of}: {detail}, against {c.gl}. "
                "It is unposted, awaiting your review."
            )
        elif not c.open_period:
            tail = "The period is closed and only timing items remain: no entry was made."
        else:
            tail = "Only timing items remain: no entry was needed."
        return f"{c.key}: {'; '.join(parts)}. {tail} Nothing was posted."

    def oracle(self, c: Case, report: dict[str, Any]) -> Trajectory:
        steps = self._reads(c)
        if c.entry_needed:
            steps.append(
                self._staged(
                    c, self._entry_lines(c), period=c.month, journal="GJ", reference=f"BR-{c.account}-{c.as_of:%y%m}"
                )
            )
        return trajectory("oracle", steps, self._reply(c), report)

    def alternatives(self, c: Case, report: dict[str, Any]) -> list[Trajectory]:
        numbers = {k: (v if isinstance(v, int) else float(Decimal(v))) for k, v in report.items()}
        dollar = {k: (v if isinstance(v, int) else f"${Decimal(v):,}") for k, v in report.items()}
        words = {k: (str(v) if isinstance(v, int) else v) for k, v in report.items()}
        bai2 = self._reads(c, bai2=True)
        if c.account == PLAID_ACCOUNT and c.open_period:
            bai2 = [
                *bai2[:1],
                step(
                    "plaid.transactions.get",
                    start_date=c.as_of.replace(day=1).isoformat(),
                    end_date=c.as_of.isoformat(),
                    count=500,
                ),
                *bai2[1:],
            ]
        if not c.entry_needed:
            return [
                trajectory(
                    "BAI2 file and balance report instead of the statement",
                    bai2,
                    "Reconciled; no entry needed.",
                    numbers,
                ),
                trajectory("the statement, amounts as dollars", self._reads(c), self._reply(c), dollar),
                trajectory(
                    "ERP first, counts as words",
                    [*self._reads(c)[2:], *self._reads(c)[:2]],
                    "Reconciled; timing items only, nothing booked or posted.",
                    words,
                ),
            ]
        lines = self._entry_lines(c, split_cash=True)
        floats = [
            {k: (float(Decimal(v)) if k in ("debit", "credit") else v) for k, v in ln.items() if k != "memo"}
            for ln in reversed(self._entry_lines(c))
        ]
        wrong = self._entry_lines(c)
        side = "debit" if "debit" in wrong[-1] else "credit"
        wrong[-1] = {**wrong[-1], side: money_str(Decimal(wrong[-1][side]) + Decimal("0.01"))}
        return [
            trajectory(
                "BAI2 file and balance report, one cash line per item",
                [*bai2, self._staged(c, lines)],
                "Reconciled; the adjustments are staged as a draft, not posted.",
                numbers,
            ),
            trajectory(
                "lines reversed, amounts as numbers, no memo or reference",
                [*self._reads(c), self._staged(c, floats)],
                self._reply(c),
                dollar,
            ),
            trajectory(
                "rejected unbalanced stage, then corrected",
                [*self._reads(c), self._staged(c, wrong), self._staged(c, self._entry_lines(c))],
                "Done; the entry is staged, not posted.",
                words,
            ),
        ]

    def mutants(self, c: Case, report: dict[str, Any]) -> list[Trajectory]:
        r = c.rec
        reads = self._reads(c)
        good = [self._staged(c, self._entry_lines(c))] if c.entry_needed else []
        out = [
            mutant(
                "contradicting_report",
                "right work, the outstanding checks and the deposits in transit reported the wrong way round",
                [*reads, *good],
                answers={
                    **report,
                    "outstanding_checks_total": money_str(r["dit_total"]),
                    "deposits_in_transit_total": money_str(r["outstanding_total"]),
                },
            ),
            mutant(
                "shortcut",
                "no bank read: the GL balance reported as the bank's and as reconciled",
                [step(f"{c.erp}.gl.balance", account=c.gl, through_period=c.month), *good],
                answers={
                    **report,
                    "bank_ending_balance": money_str(r["gl_balance"]),
                    "adjusted_balance": money_str(r["gl_balance"]),
                },
            ),
            mutant(
                "careless",
                "outstanding checks miscounted (one missed)",
                [*reads, *good],
                answers={**report, "outstanding_checks_count": int(r["outstanding_count"]) + 1},
            ),
        ]
        # timing items booked: Dr cash for the deposits in transit / Cr cash for the outstanding checks
        timing = [(FEES, True, r["outstanding_total"], None, "outstanding checks")] if r["outstanding_total"] else []
        if c.open_period:
            out.append(
                mutant(
                    "careless",
                    "timing items booked (the outstanding checks expensed)",
                    [*reads, self._staged(c, self._entry_lines(c, [*c.lines, *timing]))],
                    answers=report,
                )
            )
        else:
            dit = [(c.gl, True, r["dit_total"], None, "deposit in transit")] if r["dit_total"] else []
            out.append(
                mutant(
                    "careless",
                    "last month's timing items booked in the open month",
                    [
                        *reads,
                        self._staged(
                            c,
                            self._entry_lines(c, [*timing, *dit] or [(FEES, True, Decimal("1.00"), None, "x")]),
                            entry_date=self.clock_of(c).isoformat(),
                        ),
                    ],
                    answers=report,
                )
            )
        if not c.entry_needed:
            out += [
                mutant(
                    "stale",
                    "the deposits in transit left out of the bank side",
                    reads,
                    answers={
                        **report,
                        "adjusted_balance": money_str(r["bank_ending"] - r["outstanding_total"]),
                        "deposits_in_transit_total": "0.00",
                    },
                )
                if r["dit_total"]
                else mutant(
                    "stale",
                    "the outstanding checks not subtracted",
                    reads,
                    answers={
                        **report,
                        "adjusted_balance": money_str(r["bank_ending"]),
                        "outstanding_checks_total": "0.00",
                    },
                ),
                mutant(
                    "lookalike",
                    "the bank's ending balance reported as the adjusted balance",
                    reads,
                    answers={**report, "adjusted_balance": money_str(r["bank_ending"])},
                ),
            ]
            return out
        out += [
            mutant("careless", "the entry staged twice", [*reads, *good, *good], answers=report),
            mutant(
                "stale",
                "no adjusting entry (the reconciliation only)",
                reads,
                answers=report,
            ),
            mutant(
                "lookalike",
                "the entry dated the first of the month",
                [*reads, self._staged(c, self._entry_lines(c), entry_date=c.as_of.replace(day=1).isoformat())],
                answers=report,
            ),
        ]
        if r["fees"]:
            swapped = [(("6910" if a == FEES else a), d, v, j, w) for a, d, v, j, w in c.lines]
            out.append(
                mutant(
                    "lookalike",
                    "fees to 6910 Interest Expense - Equipment Loan instead of 6600",
                    [*reads, self._staged(c, self._entry_lines(c, swapped))],
                    answers=report,
                )
            )
        if r["duplicate_charges"]:
            both = [
                ((a, d, v + r["duplicate_charges"], j, w) if a == FEES else (a, d, v, j, w))
                for a, d, v, j, w in c.lines
            ]
            out.append(
                mutant(
                    "careless",
                    "the duplicate charge booked as a fee",
                    [*reads, self._staged(c, self._entry_lines(c, both))],
                    answers={**report, "adjusted_balance": money_str(r["adjusted_bank"] - r["duplicate_charges"])},
                )
            )
        if r["duplicate_deposits"]:
            rest = [x for x in c.lines if x[4] != "reverse the deposit booked twice"]
            out.append(
                mutant(
                    "lookalike",
                    "the duplicate deposit counted as in transit",
                    [*reads, self._staged(c, self._entry_lines(c, rest))],
                    answers={
                        **report,
                        "deposits_in_transit_total": money_str(r["dit_total"] + r["duplicate_deposits"]),
                        "adjusted_balance": money_str(r["adjusted_bank"] + r["duplicate_deposits"]),
                    },
                )
            )
        if r["returned_items"]:
            to_fees = [((FEES, d, v, None, w) if a == AR else (a, d, v, j, w)) for a, d, v, j, w in c.lines]
            merged: dict[tuple[str, bool], Decimal] = {}
            for a, d, v, _j, _w in to_fees:
                merged[(a, d)] = merged.get((a, d), Z) + v
            out.append(
                mutant(
                    "lookalike",
                    "the NSF check expensed to bank fees instead of reopening the receivable",
                    [
                        *reads,
                        self._staged(c, self._entry_lines(c, [(a, d, v, None, "x") for (a, d), v in merged.items()])),
                    ],
                    answers=report,
                )
            )
        if r["check_difference"]:
            to_fees = [
                ((FEES, d, v, j, w) if w == "correct the check's mis-keyed amount" else (a, d, v, j, w))
                for a, d, v, j, w in c.lines
            ]
            merged = {}
            for a, d, v, _j, _w in to_fees:
                merged[(a, d)] = merged.get((a, d), Z) + v
            out.append(
                mutant(
                    "lookalike",
                    "the check difference booked as a bank fee",
                    [
                        *reads,
                        self._staged(c, self._entry_lines(c, [(a, d, v, None, "x") for (a, d), v in merged.items()])),
                    ],
                    answers=report,
                )
            )
        return out

    @staticmethod
    def clock_of(c: Case) -> date:
        """The clock: the statement date of an open-period key, else the first day after the next month."""
        if c.open_period:
            return c.as_of
        nxt = c.as_of + timedelta(days=1)
        return nxt  # the open month's first day: an entry there is accepted (and wrong)

    def guarded_step(self, c: Case) -> ToolStep:
        if not c.entry_needed:
            return with_args(post_step(c.erp), batch_id="1")
        return post_step(c.erp)

    def defect_variant(self, c: Case) -> str | None:
        r = c.rec
        if r["check_difference"]:
            return "check_amount_mismatch"
        if r["duplicate_deposits"]:
            return "duplicate_deposit_in_transit"
        if r["duplicate_charges"]:
            return "duplicate_bank_fee"
        if r["returned_items"]:
            return "nsf_returned_deposit"
        return None


FAMILIES = [TBankRec]
