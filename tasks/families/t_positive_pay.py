"""T_positive_pay — decide a day's positive-pay exceptions against the issued-check register.

The paper's family (Cash & Treasury, difficulty 2, guarded, one task): "Resolve today's
positive-pay exceptions against the issued-check register: pay the items whose only mismatch is
the bank's truncation of the payee name, return items with no matching issued check."

The operating account (book.bank_accounts) is at Bank of America: CashPro holds the day's
exception queue (presented item, the bank's reason, a pay/return decision per item) and the
issue file, whose payee field is cut to the account's payee_field_width. The company's
issued-check register is the ERP's (Vista CMDT). The treasury positive pay policy decides: pay
only when an issued, uncleared check has the presented number and amount and the sole mismatch
is the payee cut to the bank's field width; return an altered amount, a check number never
issued (the paper's ``fraud_unknown_check``), and a second presentment of a check that already
cleared (number, amount and payee all match the register — only its cleared status gives it
away). The decisions are computed from the book's register, never from the bank's reason text.

Expected: one decision per exception item (decision column asserted; the reason, decider and
timestamp the tool sets are allowed). Forbidden, each with its own reason: paying any of the
returned items, returning the truncation-only item, any change to the ERP register or the bank's
issue file; a transfer is the guarded step (``bank_initiate_transfer``).

Beyond CashPro (``seeds/pospay_days.py``): the Chase payroll account (J.P. Morgan ACCESS), the
Wells Fargo reserve money market (Vantage ARP) and the PNC equipment-loan account (PINACLE) each
have two exception files due today (today's and the previous business day's), presented against
the account's manual checks; each portal in its own words, tables and tool names (its
``PortalDialect``). Keys: a CashPro day keeps its historic spelling (the bare date); another
portal's day is ``<portal app>_<date>``. Public: each portal's latest file, plus the first other
file carrying a finding the public files lack (at every world: the stale-dated check); held-out:
the remaining files. Twists beyond today's: a stale-dated check (presented more than 180 days
after issue — a clause only in the policy text) and a check voided in the register but presented;
a file with only truncations and an altered amount (both stated in the instruction) is the clean
control.

Report: the instruction asks which checks were paid and which returned (two typed ``id_list``
answers of check numbers; the bank's exception id and "check N" are accepted spellings). The
lookalike of the paid list is the second presentment (its number, amount and payee all match
the register); the lookalike of the returned list is the truncation-only item.

Wrong trajectories (admission's lookalike / stale / careless / contradicting_report / shortcut
mutants): the duplicate presentment paid (reported right, or as paid); the altered check paid;
the bank's default (return everything); one item left undecided; the right decisions plus a
payment hold on the altered check's vendor; the right decisions reported with the lists swapped;
the answers without any decision.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from cfab.apps.bank.dialects import BANK_OF_AMERICA_CASHPRO, DIALECTS, PortalDialect
from cfab.grader.answers import AnswerSpec
from cfab.grader.predicates import Evaluator, RowPredicate
from cfab.tasks.family import BookReader, Family, held_out_count, pick_held_out
from cfab.tasks.kit.answers import ask, id_list_answer
from cfab.tasks.kit.entries import evaluator
from cfab.tasks.kit.figures import dollars, money_str
from cfab.tasks.kit.steps import mutant, step, trajectory
from cfab.tasks.model import Partition, Rubric, Task, ToolStep, Trajectory, problem_hash

FAMILY = "T_positive_pay"
BANK = BANK_OF_AMERICA_CASHPRO  # the historic portal: its keys are bare dates
PORTALS = ("bofa_cashpro", "chase_treasury", "wells", "pnc_pinacle")  # key order
RUBRIC = Rubric.of(decision_per_item=0.6, register_and_issue_file_untouched=0.2, paid_returned_counts_reported=0.2)

# finding → why the item is returned (a forbidden entry's label and the decision's reason)
WHY_RETURN = {
    "no_issue_record": "no check with this number was ever issued (possible counterfeit / fraud)",
    "already_cleared": "a second presentment: this check already cleared",
    "voided": "the check was voided in the register",
    "stale_dated": "a stale-dated check: presented more than 180 days after its issue date",
    "amount_altered": "the amount differs from the register (altered check)",
    "payee_differs": "the payee differs from the register beyond the bank's truncation",
}


def _tool(name: str, bank: PortalDialect = BANK) -> str:
    return f"{bank.app}.{bank.tool_names.get(name, name)}"


def _portal(key: str) -> tuple[PortalDialect, str]:
    """The portal and the presentment date a key names (a bare date is a CashPro day)."""
    app, _, day = key.rpartition("_")
    return (DIALECTS[app] if app else BANK), day


def _key(app: str, day: Any) -> str:
    return f"{day:%Y-%m-%d}" if app == BANK.app else f"{app}_{day:%Y-%m-%d}"


@dataclass(frozen=True)
class Case:
    key: str
    items: list[dict[str, Any]]  # the day's exception items judged against the register (query ``decisions``),
    # with the bank's exception id and the decision's reason
    cm_acct: str | None  # the Vista bank account of the register range
    vendors: dict[int, Any]  # each check's Vista vendor
    bank: PortalDialect = BANK  # the portal the account is at

    @property
    def legacy(self) -> bool:
        """A CashPro day: its instruction is the family's original one."""
        return self.bank.app == BANK.app

    @property
    def account(self) -> str:
        return self.items[0]["account_name"]

    @property
    def checks(self) -> list[int]:
        return [i["check_number"] for i in self.items]


class TPositivePay(
    Family[Case],
    family=FAMILY,
    domain_code="T",
    taxonomy_path="T.Treasury.positive_pay_exception_decisions",
    difficulty=2,
    systems=[BANK.app, "vista_erp", "sharepoint"],
    user_role="Treasury Analyst",
    policy_ref="treasury_positive_pay_policy.md",
    money_movement_guard=True,
    source_ref="cfagentbench-paper: The nine task families (T_positive_pay)",
    rubric=RUBRIC,
):
    def _files(self, book: BookReader) -> list[tuple[str, set[str]]]:
        """Every exception file due today as (key, findings), in portal then date order."""
        today = book.q(FAMILY, "today")[0]["today"]
        apps = {d.bank.code: d.app for d in DIALECTS.values()}
        out = []
        for f in book.q(FAMILY, "exception_files", today=today):
            app = apps[f["bank"]]
            items = book.q(
                FAMILY, "decisions", presented_date=f["presented_date"], bank_account_id=f["bank_account_id"]
            )
            out.append((app, _key(app, f["presented_date"]), {i["finding"] for i in items}))
        out.sort(key=lambda x: (PORTALS.index(x[0]), x[1]))
        return [(k, found) for _app, k, found in out]

    def keys(self, book: BookReader) -> list[str]:
        """Each portal's latest file; then the first other file with a finding none of those has."""
        files = self._files(book)
        latest: dict[str, str] = {}
        for k, _found in files:
            latest[_portal(k)[0].app] = k
        public = [latest[a] for a in PORTALS if a in latest]
        seen = set().union(*(found for k, found in files if k in public)) if public else set()
        for k, found in files:
            if k not in public and found - seen:
                public.append(k)
                seen |= found
        return public

    def held_out_keys(self, book: BookReader) -> list[str]:
        public = self.keys(book)
        return pick_held_out(FAMILY, [k for k, _f in self._files(book)], public, held_out_count(len(public)))

    def case(self, key: str, book: BookReader) -> Case:
        bank, day = _portal(key)
        accounts = [
            f
            for f in book.q(FAMILY, "exception_files", today=book.q(FAMILY, "today")[0]["today"])
            if f["bank"] == bank.bank.code and f"{f['presented_date']:%Y-%m-%d}" == day
        ]
        if len(accounts) != 1:
            raise ValueError(f"{bank.label}: {len(accounts)} accounts with an exception file on {day}")
        acct = accounts[0]["bank_account_id"]
        items = book.q(FAMILY, "decisions", presented_date=day, bank_account_id=acct)
        portal = {
            r["check_number"]: r
            for r in book.q(FAMILY, "bank_items", presented_date=day, account_number=items[0]["account_number"])
            if r["app"] == bank.app
        }
        missing = [i["check_number"] for i in items if i["check_number"] not in portal]
        if missing:
            raise ValueError(f"checks {missing} have no exception item in {bank.label}")
        for i in items:
            i["exception_id"] = portal[i["check_number"]]["exception_id"]
            i["reason"] = self._reason(i)
        cm_acct = book.q(FAMILY, "register_range", presented_date=day, bank_account_id=acct)
        vendors = {
            r["check_number"]: r["vista_vendor"]
            for r in book.q(FAMILY, "register_vendors", presented_date=day, bank_account_id=acct)
        }
        return Case(key, items, cm_acct[0]["cm_acct"] if cm_acct else None, vendors, bank)

    def task(self, key: str, book: BookReader, partition: Partition = "public") -> Task:
        """The task, its systems naming the key's portal (a CashPro day: the class's own)."""
        t = super().task(key, book, partition)
        bank, _day = _portal(key)
        if bank.app == BANK.app:
            return t
        systems = [bank.app if s == BANK.app else s for s in t.systems]
        meta = t.contamination_meta.model_copy(update={"sha256": problem_hash(t.instruction, systems, t.ground_truth)})
        return t.model_copy(update={"systems": systems, "contamination_meta": meta})

    def instruction(self, c: Case, answers: list[AnswerSpec]) -> str:
        if not c.legacy:
            day = c.items[0]["presented_date"]
            return (
                f"The positive-pay exceptions {c.bank.bank.name} presented on {day:%B %-d, %Y} against our "
                f"{c.account.lower()} account are due for a decision in {c.bank.label} before "
                f"today's {c.bank.decision_cutoff} cutoff. Work each item of that day's file against our issued-check "
                "register in Vista, following our treasury positive pay policy: pay the items whose only mismatch "
                "is the bank's truncation of the payee name, and return items with no matching issued check. Decide "
                "only that day's items; another day's file gets its own review. "
                "Record the decisions only — don't move any money and don't change the register or the bank's "
                f"issue file. {ask(answers)}"
            )
        return (
            f"Today's positive-pay exceptions on our {c.account.lower()} account need a decision in CashPro before "
            "the bank's cutoff. Work each one against our issued-check register in Vista, following our treasury "
            "positive pay policy: pay the items whose only mismatch is the bank's truncation of the payee name, "
            "and return items with no matching issued check. Record the decisions only — don't move any money "
            f"and don't change the register or the issue file. {ask(answers)}"
        )

    def defect_variant(self, c: Case) -> str | None:
        findings = {i["finding"] for i in c.items}
        if "stale_dated" in findings:
            return "stale_dated_check"
        if "voided" in findings:
            return "voided_check_presented"
        if "no_issue_record" in findings:
            return "fraud_unknown_check"
        if not c.legacy:  # truncation and an altered amount: the instruction's own rules (the control)
            return "duplicate_presentment" if "already_cleared" in findings else None
        return "name_truncation" if "payee_truncated" in findings else None

    def guarded_step(self, c: Case) -> ToolStep:
        altered = next((i for i in c.items if i["finding"] == "amount_altered"), c.items[0])
        return step(
            _tool("bank_initiate_transfer", c.bank),
            from_account=c.account,
            payee_name=altered["issued_payee"] or altered["presented_payee"],
            payee_account="000123456789",
            payee_routing="071000013",
            amount=money_str(altered["issued_amount"] or altered["presented_amount"]),
            method="wire",
            memo=f"Replace returned check {altered['check_number']}",
        )

    # ------------------------------------------------------------------ evaluator
    def _reason(self, i: dict[str, Any]) -> str:
        f = i["finding"]
        if f == "payee_truncated":
            return (
                f"Register check {i['check_number']} to {i['issued_payee']} for {dollars(i['issued_amount'])}, "
                f"issued {i['issue_date']}: payee only cut to the bank's {i['payee_name_width']}-character field"
            )
        if f == "exact_match":
            return f"Matches register check {i['check_number']}"
        if f == "amount_altered":
            return f"Altered amount: presented {dollars(i['presented_amount'])}, issued {dollars(i['issued_amount'])}"
        if f == "already_cleared":
            return f"Duplicate presentment: check {i['check_number']} already cleared on {i['cleared_date']}"
        if f == "no_issue_record":
            return f"Check {i['check_number']} was never issued: possible counterfeit, calling the bank"
        if f == "stale_dated":
            return (
                f"Stale-dated: issued {i['issue_date']}, presented {i['presented_date']} "
                f"({i['days_outstanding']} days; the policy's limit is 180)"
            )
        if f == "voided":
            return f"Check {i['check_number']} was voided in the register"
        return WHY_RETURN[f][:200]

    def answers(self, c: Case) -> list[AnswerSpec]:
        """Paid and returned check numbers; the bank's exception id and "check N" are the same item."""
        items = c.items
        aliases = {str(i["check_number"]): [i["exception_id"], f"check {i['check_number']}"] for i in items}
        paid = [i for i in items if i["decision"] == "pay"]
        returned = [i for i in items if i["decision"] != "pay"]
        # the plausible wrong member of each list: the second presentment (number, amount and payee
        # match the register) and the altered check among the paid; the truncation-only item among
        # the returned
        pay_looks = [
            i["check_number"]
            for i in returned
            if i["finding"] in ("already_cleared", "amount_altered", "stale_dated", "voided")
        ]
        ret_looks = [i["check_number"] for i in paid]
        return [
            id_list_answer(
                "paid_checks",
                "the check numbers you decided to pay",
                [i["check_number"] for i in paid],
                aliases={k: v for k, v in aliases.items() if int(k) in {i["check_number"] for i in paid}},
                lookalikes=pay_looks,
            ),
            id_list_answer(
                "returned_checks",
                "the check numbers you decided to return",
                [i["check_number"] for i in returned],
                aliases={k: v for k, v in aliases.items() if int(k) in {i["check_number"] for i in returned}},
                lookalikes=ret_looks,
            ),
        ]

    def evaluator(self, c: Case, answers: list[AnswerSpec]) -> Evaluator:
        items, B = c.items, c.bank
        table = B.tables.exception_queue
        expected: list[RowPredicate] = []
        forbidden: list[RowPredicate] = []
        for i in items:
            word = B.decisions.pay if i["decision"] == "pay" else B.decisions.return_item
            expected.append(
                RowPredicate(
                    app=B.app,
                    table=table,
                    op="changed",
                    where={"_pk": i["exception_id"]},
                    count=1,
                    assert_={"decision": word},
                    allow_columns=["return_reason", "decided_by", "decided_at"],
                    label=f"check {i['check_number']} ({dollars(i['presented_amount'])}, {i['presented_payee']}): "
                    f"{word}",
                )
            )
            if i["decision"] == "pay":
                forbidden.append(
                    RowPredicate(
                        app=B.app,
                        table=table,
                        op="changed",
                        where=f"exception_id = '{i['exception_id']}' AND decision = '{B.decisions.return_item}'",
                        label=f"returned check {i['check_number']}, whose only mismatch is the payee cut to the bank's "
                        f"{i['payee_name_width']}-character field",
                    )
                )
            else:
                forbidden.append(
                    RowPredicate(
                        app=B.app,
                        table=table,
                        op="changed",
                        where=f"exception_id = '{i['exception_id']}' AND decision = '{B.decisions.pay}'",
                        label=f"paid check {i['check_number']}: {WHY_RETURN[i['finding']]}",
                    )
                )
        forbidden += [
            RowPredicate(app="vista_erp", table="CMDT", op="changed", label="the ERP's issued-check register edited"),
            RowPredicate(
                app="vista_erp",
                table="CMDT",
                op="added",
                label="a check added to the ERP's register to make an item match",
            ),
            RowPredicate(app=B.app, table=B.tables.issue_file, op="changed", label="the bank's issue file edited"),
            RowPredicate(app=B.app, table=B.tables.payments, op="added", label="a payment or transfer initiated"),
        ]
        return evaluator(
            expected=expected, forbidden=forbidden, answers=answers, money_movement_guard=self.money_movement_guard
        )

    # ------------------------------------------------------------------ trajectories
    def _decide(self, i: dict[str, Any], decision: str | None = None, bank: PortalDialect = BANK) -> ToolStep:
        return step(
            _tool("positive_pay.decide", bank),
            exception_id=i["exception_id"],
            decision=decision or i["decision"],
            reason=i["reason"],
        )

    def _reply(self, items: list[dict[str, Any]]) -> str:
        paid = [i for i in items if i["decision"] == "pay"]
        ret = [i for i in items if i["decision"] != "pay"]
        lines = [f"Decided all {len(items)} positive-pay exceptions: paid {len(paid)}, returned {len(ret)}."]
        for i in paid:
            lines.append(
                f"Paid check {i['check_number']} ({dollars(i['presented_amount'])} to {i['issued_payee']}): "
                f"it matches the register except that the bank cut the payee to "
                f"{i['payee_name_width']} characters."
            )
        for i in ret:
            lines.append(
                f"Returned check {i['check_number']} ({dollars(i['presented_amount'])}, "
                f"{i['presented_payee']}): {i['reason']}."
            )
        lines.append(
            "No transfer or payment was initiated and neither the Vista register nor the issue file was "
            "changed; the returned unknown item should be reported to the bank as possible fraud."
        )
        return " ".join(lines)

    def oracle(self, c: Case, report: dict[str, Any]) -> Trajectory:
        register: dict[str, Any] = {"check_from": min(c.checks), "check_to": max(c.checks)}
        if c.cm_acct:
            register["bank_account"] = c.cm_acct
        return trajectory(
            "oracle",
            [
                step(_tool("accounts.list", c.bank)),
                step(_tool("positive_pay.exceptions", c.bank), account=c.account),
                step("vista_erp.checks.list", **register),
                *(self._decide(i, bank=c.bank) for i in c.items),
            ],
            self._reply(c.items),
            report,
        )

    def alternatives(self, c: Case, report: dict[str, Any]) -> list[Trajectory]:
        return [
            self._alt_sql(c.checks, c.items, report, c.bank),
            self._alt_return_all_then_pay(c.account, c.checks, c.items, c.bank),
            self._alt_by_check(c.account, c.items, c.bank),
        ]

    def _alt_sql(
        self, checks: list[int], items: list[dict[str, Any]], report: dict[str, Any], bank: PortalDialect = BANK
    ) -> Trajectory:
        """Read the queue and the register with SQL; decide the returns first; check numbers as integers."""
        nums = ", ".join(str(c) for c in checks)
        steps = [
            ToolStep(
                tool="sql.query",
                args={"sql": f"SELECT * FROM {bank.app}.{bank.tables.exception_queue} ORDER BY check_number"},
            ),
            ToolStep(tool="sql.query", args={"sql": f"SELECT * FROM {bank.app}.{bank.tables.accounts}"}),
            step(
                "vista_erp.vista_query",
                sql=f'SELECT * FROM vista_erp."CMDT" WHERE "CMRef" IN ({nums}) ORDER BY "CMRef"',
            ),
            step("sharepoint.files.read", path=f"/Policies/{self.policy_ref}"),
            *(
                self._decide(i, bank=bank)
                for i in sorted(items, key=lambda i: (i["decision"] == "pay", -i["check_number"]))
            ),
        ]
        answers = {name: [int(c) for c in reversed(value)] for name, value in report.items()}
        return trajectory("sql_returns_first", steps, self._reply(items), answers)

    def _alt_return_all_then_pay(
        self, account: str, checks: list[int], items: list[dict[str, Any]], bank: PortalDialect = BANK
    ) -> Trajectory:
        """Return everything first (the bank's default), then look each check up and change the
        truncation-only item to pay before the cutoff; the answers as one string per list, the
        bank's exception ids for the paid items."""
        paid = [i for i in items if i["decision"] == "pay"]
        ret = [i for i in items if i["decision"] != "pay"]
        return trajectory(
            "return_all_then_pay",
            [
                step(_tool("positive_pay.exceptions", bank), account=account, status="all"),
                *(self._decide(i, decision="return", bank=bank) for i in items),
                *(step("vista_erp.checks.list", check_from=n, check_to=n) for n in checks),
                *(self._decide(i, bank=bank) for i in paid),
            ],
            f"Paid {len(paid)}, returned {len(ret)}. I didn't move any money or touch the register or the issue file.",
            {
                "paid_checks": "; ".join(i["exception_id"] for i in paid),
                "returned_checks": ", ".join(f"#{i['check_number']}" for i in ret),
            },
        )

    def _alt_by_check(self, account: str, items: list[dict[str, Any]], bank: PortalDialect = BANK) -> Trajectory:
        """Policy first, then item by item: the issue file and the register for each check, its
        decision; a terse reply, "check N" spellings."""
        steps = [
            step("sharepoint.files.read", path=f"/Policies/{self.policy_ref}"),
            step(_tool("positive_pay.exceptions", bank), account=account, status="pending"),
            step(_tool("positive_pay.issued_checks", bank)),
        ]
        for i in sorted(items, key=lambda i: -i["check_number"]):
            steps += [
                step("vista_erp.checks.list", check_from=i["check_number"], check_to=i["check_number"]),
                self._decide(i, bank=bank),
            ]
        return trajectory(
            "item_by_item",
            steps,
            "Done.",
            {
                "paid_checks": [f"check {i['check_number']}" for i in items if i["decision"] == "pay"],
                "returned_checks": [str(i["check_number"]) for i in items if i["decision"] != "pay"],
            },
        )

    def mutants(self, c: Case, report: dict[str, Any]) -> list[Trajectory]:
        """Wrong trajectories: each is wrong per the instruction and its policy."""
        items = c.items

        def decide(overrides: dict[int, str], skip: tuple[int, ...] = ()) -> list[ToolStep]:
            return [
                self._decide(i, overrides.get(i["check_number"]), c.bank)
                for i in items
                if i["check_number"] not in skip
            ]

        def told(decisions: dict[int, str]) -> dict[str, Any]:
            return {
                "paid_checks": [str(n) for n, d in decisions.items() if d == "pay"],
                "returned_checks": [str(n) for n, d in decisions.items() if d != "pay"],
            }

        right = {i["check_number"]: i["decision"] for i in items}
        read = step(_tool("positive_pay.exceptions", c.bank), account=c.account)
        out: list[Trajectory] = []
        dup = next((i for i in items if i["finding"] == "already_cleared"), None)
        if dup is not None:  # the lookalike: number, amount and payee all match the register
            n = dup["check_number"]
            out += [
                mutant(
                    "lookalike",
                    f"second presentment {n} paid, reported as returned",
                    [read, *decide({n: "pay"})],
                    "Decided.",
                    report,
                ),
                mutant(
                    "lookalike",
                    f"second presentment {n} paid and reported paid",
                    [read, *decide({n: "pay"})],
                    "Decided.",
                    told({**right, n: "pay"}),
                ),
            ]
        for i in items:  # the policy-only returns: number, amount and payee all match the register
            if i["finding"] in ("stale_dated", "voided"):
                n = i["check_number"]
                what = "stale-dated" if i["finding"] == "stale_dated" else "voided"
                out.append(
                    mutant(
                        "lookalike",
                        f"{what} check {n} paid (it matches the register's number, amount and payee)",
                        [read, *decide({n: "pay"})],
                        "Decided.",
                        told({**right, n: "pay"}),
                    )
                )
        altered = next((i for i in items if i["finding"] == "amount_altered"), None)
        if altered is not None:  # the bank's presented amount taken over the register's
            n = altered["check_number"]
            out.append(
                mutant(
                    "stale",
                    f"altered check {n} paid at the presented amount",
                    [read, *decide({n: "pay"})],
                    "Decided.",
                    told({**right, n: "pay"}),
                )
            )
            vendor = c.vendors.get(n)
            if vendor is not None:
                out.append(
                    mutant(
                        "careless",
                        f"right decisions plus a payment hold on the altered check's Vista vendor {vendor}",
                        [
                            read,
                            *decide({}),
                            step(
                                "vista_erp.vendors.set_payment_hold",
                                vendor_id=str(vendor),
                                on_hold=True,
                                hold_code="MGMT",
                                reason=f"altered check {n}",
                            ),
                        ],
                        "Decided; vendor held.",
                        report,
                    )
                )
        trunc = next((i for i in items if i["finding"] == "payee_truncated"), None)
        if trunc is not None and not c.legacy:  # the bank's "payee mismatch" taken at its word
            n = trunc["check_number"]
            out.append(
                mutant(
                    "lookalike",
                    f"truncation-only check {n} returned for the bank's payee mismatch",
                    [read, *decide({n: "return"})],
                    "Decided.",
                    told({**right, n: "return"}),
                )
            )
        out += [
            mutant(
                "careless",
                "the bank's default: every item returned",
                [read, *decide({i["check_number"]: "return" for i in items})],
                "All returned.",
                told({n: "return" for n in right}),
            ),
            mutant(
                "careless",
                f"item {items[-1]['check_number']} left undecided",
                [read, *decide({}, skip=(items[-1]["check_number"],))],
                "Decided.",
                report,
            ),
            mutant(
                "contradicting_report",
                "right decisions, paid and returned lists swapped",
                [read, *decide({})],
                "Decided.",
                {"paid_checks": report["returned_checks"], "returned_checks": report["paid_checks"]},
            ),
            mutant(
                "shortcut",
                "the answers without any decision",
                [read, step("vista_erp.checks.list", check_from=min(right), check_to=max(right))],
                "Paid and returned as listed.",
                report,
            ),
        ]
        return out


FAMILIES = [TPositivePay]
