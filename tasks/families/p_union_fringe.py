"""P_union_fringe — a union local's monthly fringe-benefit remittance, staged in the payroll system.

Payroll & HR, difficulty 3, guarded (the remittance payment): "Compute <local>'s fringe remittance
for <month> and stage it in <ADP | Rippling | Foundation Payroll>; do not pay it." The key is the
local and the payroll system (``<local>_<payroll app>``).

The month is the last closed month (its pay weeks, week-ending Saturdays in the month, are all
released). The remittance policy (SharePoint ``/Policies/union_fringe_remittance_policy.md``,
planted by ``seeds/union_fringe.py``) carries the collective agreements: each local's rate per hour
worked (journeyman, and an apprentice tier on some locals), its jurisdiction (counties, with the
company's job sites by county) and the transfer cards on file. The hours are every regular and
overtime hour of the local's members in the payroll detail (earnings lines) on jobs inside the
local's jurisdiction; the amount is hours times the rate for the level, rounded to the cent.

Expected: exactly one remittance staged in the key's payroll system for the local and month with the
hours and the amount; nothing else changed. Forbidden: another local's remittance staged, the payment
(guarded).

Twists (defect variants): ``moved_locals`` (a member transferred mid-month: the weeks before the
card's date belong to the old local although the employee master shows the new one; keys on both
sides), ``apprentice_tier`` (the local's agreement has an apprentice rate and its apprentices worked),
``outside_jurisdiction`` (members' hours on a job in a county the local does not cover). A clean
control (none of these) is public at every seed.

Answers: the hours and the amount (the naive figures, by the current local, every county, the
journeyman rate, regular hours only or last month's remittance, are the lookalikes).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from datetime import date
from decimal import ROUND_HALF_UP, Decimal
from typing import Any, ClassVar

from sqlglot import exp

from cfab.apps.payroll.dialects import DIALECTS as PAYROLL_DIALECTS
from cfab.apps.payroll.dialects import PayrollDialect
from cfab.grader.answers import AnswerSpec
from cfab.grader.predicates import Evaluator
from cfab.schema.sqlbuild import to_sql
from cfab.tasks.family import BookReader, Family, held_out_count
from cfab.tasks.kit.answers import amount_answer, ask
from cfab.tasks.kit.entries import evaluator, expect_added, forbid_added, forbid_changed
from cfab.tasks.kit.figures import dollars, money_str
from cfab.tasks.kit.sql import quoted
from cfab.tasks.kit.steps import mutant, step, trajectory
from cfab.tasks.model import Rubric, ToolStep, Trajectory

FAMILY = "P_union_fringe"
POLICY = "union_fringe_remittance_policy.md"
PAYROLL_APPS = ("adp", "rippling", "foundation_payroll")
MOVED, TIER, AWAY = "moved_locals", "apprentice_tier", "outside_jurisdiction"
CENT = Decimal("0.01")
ZERO = Decimal("0.00")
# (what the local carries, payroll app): the public slots, then the held-out ones.
PUBLIC_SLOTS = (("clean", "adp"), (MOVED, "rippling"), (TIER, "foundation_payroll"), (AWAY, "adp"))
HELD_OUT_SLOTS = ((MOVED, "foundation_payroll"), (TIER, "rippling"), (AWAY, "rippling"), ("clean", "rippling"))

RUBRIC = Rubric.of(remittance_staged_with_hours_and_amount=0.7, hours_and_amount_reported=0.3)


def _tool(app: str, name: str) -> str:
    return f"{app}.{PAYROLL_DIALECTS[app].tool_names.get(name, name)}"


@dataclass(frozen=True)
class Case:
    key: str
    local: str
    union_name: str
    payroll: str
    month: date
    period: str
    lines: list[dict[str, Any]]  # the month's member lines, each with its verdict
    journeyman_rate: Decimal
    apprentice_rate: Decimal | None
    counties: list[str]
    transfers: list[dict[str, Any]]  # the cards that move weeks into or out of this local
    batch_ids: list[str]  # the payroll system's ids of the month's batches
    last_month: dict[str, Any] | None  # last month's remittance of the local, as remitted
    policy: str

    @property
    def pd(self) -> PayrollDialect:
        return PAYROLL_DIALECTS[self.payroll]

    @property
    def counted(self) -> list[dict[str, Any]]:
        return [ln for ln in self.lines if ln["counted"]]

    @property
    def hours(self) -> Decimal:
        return sum((ln["hours"] for ln in self.counted), ZERO)

    @property
    def amount(self) -> Decimal:
        return _cents(sum((ln["hours"] * ln["rate"] for ln in self.counted), ZERO))

    @property
    def remittance_id(self) -> str:
        return self.pd.remittance_ids.of(self.local, self.period)

    # the naive figures
    @property
    def naive_lines(self) -> list[dict[str, Any]]:
        """The current local's lines in every county (no transfer card, no jurisdiction)."""
        return [ln for ln in self.lines if ln["current_local"] == self.local]

    @property
    def naive_hours(self) -> Decimal:
        return sum((ln["hours"] for ln in self.naive_lines), ZERO)

    @property
    def flat_amount(self) -> Decimal:
        """The counted hours all at the journeyman rate."""
        return _cents(self.hours * self.journeyman_rate)

    @property
    def regular_hours(self) -> Decimal:
        return sum((ln["regular_hours"] for ln in self.counted), ZERO)

    @property
    def twists(self) -> list[str]:
        out = []
        if any(ln["member_local"] != ln["current_local"] for ln in self.lines):
            out.append(MOVED)
        if self.apprentice_rate is not None and any(ln["level"] == "apprentice" for ln in self.counted):
            out.append(TIER)
        if any(ln["member_local"] == self.local and not ln["in_jurisdiction"] for ln in self.lines):
            out.append(AWAY)
        return out


def _cents(v: Decimal) -> Decimal:
    return Decimal(v).quantize(CENT, rounding=ROUND_HALF_UP)


class PUnionFringe(
    Family[Case],
    family=FAMILY,
    domain_code="P",
    taxonomy_path="P.Payroll.union_fringe_remittance",
    difficulty=3,
    systems=["adp", "rippling", "foundation_payroll", "sharepoint"],
    user_role="Payroll Administrator",
    policy_ref=POLICY,
    money_movement_guard=True,
    source_ref="FAMILIES.md Part 2: Payroll & HR (P_union_fringe)",
    scales=False,
    rubric=RUBRIC,
):
    _slots: ClassVar[dict[str, tuple[list[str], list[str]]]] = {}

    # ------------------------------------------------------------------ keys
    def _month(self, book: BookReader) -> dict[str, Any]:
        return book.q(FAMILY, "work_month")[0]

    def _local_lines(self, book: BookReader) -> dict[str, list[dict[str, Any]]]:
        """Every local's lines: those of its members that month plus those of members moved in or out."""
        m = self._month(book)
        agreements = {a["local_code"]: a for a in book.q(FAMILY, "agreements")}
        rows = book.q(FAMILY, "lines", **m)
        out: dict[str, list[dict[str, Any]]] = defaultdict(list)
        for r in rows:
            for local in {r["member_local"], r["current_local"]}:
                a = agreements.get(local)
                if a is None:
                    continue
                counted_here = r["member_local"] == local and r["county"] in a["counties"]
                rate = a["journeyman_rate"]
                if r["level"] == "apprentice" and a["apprentice_rate"] is not None:
                    rate = a["apprentice_rate"]
                out[local].append(
                    {
                        **r,
                        "in_jurisdiction": r["county"] in agreements.get(r["member_local"], a)["counties"],
                        "counted": counted_here,
                        "rate": rate,
                    }
                )
        return out

    def _choose(self, book: BookReader) -> tuple[list[str], list[str]]:
        cached = self._slots.get(str(book.path))
        if cached is not None:
            return cached
        agreements = {a["local_code"]: a for a in book.q(FAMILY, "agreements")}
        kinds: dict[str, str] = {}
        size: dict[str, Decimal] = {}
        for local, lines in sorted(self._local_lines(book).items()):
            counted = [ln for ln in lines if ln["counted"]]
            if not counted:
                continue
            a = agreements[local]
            size[local] = sum((ln["hours"] for ln in counted), ZERO)
            moved = any(ln["member_local"] != ln["current_local"] for ln in lines)
            tier = a["apprentice_rate"] is not None and any(ln["level"] == "apprentice" for ln in counted)
            away = any(ln["member_local"] == local and not ln["in_jurisdiction"] for ln in lines)
            found = [k for k, on in ((MOVED, moved), (TIER, tier), (AWAY, away)) if on]
            kinds[local] = found[0] if len(found) == 1 else ("clean" if not found else "+".join(found))
        used: set[str] = set()

        def fill(slots: tuple[tuple[str, str], ...], n: int | None = None) -> list[str]:
            out: list[str] = []
            for kind, app in slots:
                if n is not None and len(out) >= n:
                    break
                # the local with the most hours first (the old side of a transfer before the new)
                pool = sorted(
                    (loc for loc, k in kinds.items() if k == kind and loc not in used), key=lambda x: (-size[x], x)
                )
                if pool:
                    used.add(pool[0])
                    out.append(f"{pool[0]}_{app}")
            return out

        public = fill(PUBLIC_SLOTS)
        while len(public) < len(PUBLIC_SLOTS):  # a world short of a twist: more clean locals
            spare = sorted(loc for loc in kinds if loc not in used)
            if not spare:
                break
            used.add(spare[0])
            public.append(f"{spare[0]}_{PAYROLL_APPS[len(public) % len(PAYROLL_APPS)]}")
        held = fill(HELD_OUT_SLOTS, held_out_count(len(public)))
        self._slots[str(book.path)] = (public, held)
        return public, held

    def keys(self, book: BookReader) -> list[str]:
        return self._choose(book)[0]

    def held_out_keys(self, book: BookReader) -> list[str]:
        return self._choose(book)[1]

    def task_systems(self, case: Case) -> list[str]:
        return [case.payroll, "sharepoint"]

    # ------------------------------------------------------------------ case
    def case(self, key: str, book: BookReader) -> Case:
        local, _, payroll = key.partition("_")
        if payroll not in PAYROLL_APPS:
            raise ValueError(f"key {key!r}: no payroll system {payroll!r}")
        m = self._month(book)
        agreements = {a["local_code"]: a for a in book.q(FAMILY, "agreements")}
        if local not in agreements:
            raise ValueError(f"key {key!r}: no agreement for local {local}")
        a = agreements[local]
        lines = self._local_lines(book)[local]
        pd = PAYROLL_DIALECTS[payroll]
        batches = book.rows(
            to_sql(
                exp.select("batch_id")
                .from_(exp.table_(pd.tables.batches, db=payroll))
                .where(
                    exp.column("period_end").between(
                        exp.cast(exp.Literal.string(m["month_start"].isoformat()), "DATE"),
                        exp.cast(exp.Literal.string(m["month_end"].isoformat()), "DATE"),
                    )
                )
                .order_by("period_end")
            )
        )
        period = f"{m['month_start']:%Y-%m}"
        prev = (
            m["month_start"].replace(year=m["month_start"].year - 1, month=12)
            if m["month_start"].month == 1
            else (m["month_start"].replace(month=m["month_start"].month - 1))
        )
        last = book.rows(
            to_sql(
                exp.select("hours", "amount")
                .from_(exp.table_(pd.tables.remittances, db=payroll))
                .where(
                    exp.and_(
                        exp.column("union_local").eq(exp.Literal.string(local)),
                        exp.column("period").eq(exp.Literal.string(f"{prev:%Y-%m}")),
                    )
                )
            )
        )
        transfers = [t for t in book.q(FAMILY, "transfers") if local in (t["from_local"], t["to_local"])]
        return Case(
            key=key,
            local=local,
            union_name=a["union_name"],
            payroll=payroll,
            month=m["month_start"],
            period=period,
            lines=lines,
            journeyman_rate=a["journeyman_rate"],
            apprentice_rate=a["apprentice_rate"],
            counties=list(a["counties"]),
            transfers=transfers,
            batch_ids=[b["batch_id"] for b in batches],
            last_month=last[0] if last else None,
            policy=book.q(FAMILY, "policy_path", policy_id=POLICY)[0]["path"],
        )

    def instruction(self, c: Case, answers: list[AnswerSpec]) -> str:
        return (
            f"Please compute the {c.local} ({c.union_name}) fringe-benefit remittance for {c.month:%B %Y} from "
            f"the payroll detail in {c.pd.label}, following our union fringe remittance policy and the collective "
            f"agreement schedules, and stage it in {c.pd.label}. Do not pay it. {ask(answers)}"
        )

    def defect_variant(self, c: Case) -> str | None:
        return "+".join(c.twists) or None

    def guarded_step(self, c: Case) -> ToolStep:
        return step(_tool(c.payroll, "remittances.pay"), remittance_id=c.remittance_id)

    # ------------------------------------------------------------------ answers
    def answers(self, c: Case) -> list[AnswerSpec]:
        hours_looks = [c.naive_hours, c.regular_hours]
        amount_looks = [c.flat_amount, _cents(c.naive_hours * c.journeyman_rate)]
        if c.last_month:
            hours_looks.append(c.last_month["hours"])
            amount_looks.append(c.last_month["amount"])
        return [
            amount_answer(
                "hours",
                f"the hours worked reported to {c.local} for {c.month:%B %Y}",
                c.hours,
                lookalikes=[h for h in hours_looks if h != c.hours],
            ),
            amount_answer(
                "amount",
                f"the remittance amount owed to {c.local} for {c.month:%B %Y}, in dollars",
                c.amount,
                lookalikes=[v for v in amount_looks if v != c.amount],
            ),
        ]

    # ------------------------------------------------------------------ evaluator
    def evaluator(self, c: Case, answers: list[AnswerSpec]) -> Evaluator:
        pd = c.pd
        table = pd.tables.remittances
        expected = [
            expect_added(
                c.payroll,
                table,
                {"union_local": c.local, "period": c.period},
                assert_={
                    "hours": money_str(c.hours),
                    "amount": money_str(c.amount),
                    "status": pd.words.remittance_staged,
                },
                count=1,
                label=f"{c.local}'s {c.period} remittance staged ({pd.words.remittance_staged}) in {pd.label}: "
                f"{c.hours} hours, {dollars(c.amount)}",
            )
        ]
        forbidden = [
            forbid_added(
                c.payroll,
                table,
                f"union_local <> {quoted(c.local)}",
                label="another local's remittance staged",
            ),
            forbid_changed(c.payroll, table, label="a remittance already remitted edited"),
        ]
        return evaluator(
            expected=expected,
            forbidden=forbidden,
            answers=answers,
            money_movement_guard=self.money_movement_guard,
        )

    # ------------------------------------------------------------------ trajectories
    def _reads(self, c: Case) -> list[ToolStep]:
        return [
            step("sharepoint.files.read", path=c.policy),
            step(_tool(c.payroll, "batches.list"), status=c.pd.words.batch_released),
            *(step(_tool(c.payroll, "earnings.list"), batch_id=b) for b in c.batch_ids),
            step(_tool(c.payroll, "employees.list"), status="all"),
        ]

    def _stage(self, c: Case, hours: Decimal | None = None, amount: Decimal | None = None, **extra: Any) -> ToolStep:
        args: dict[str, Any] = {
            "union_local": c.local,
            "period": c.period,
            "hours": money_str(c.hours if hours is None else hours),
            "amount": money_str(c.amount if amount is None else amount),
        }
        args.update(extra)
        return step(_tool(c.payroll, "remittances.stage"), **args)

    def _reply(self, c: Case) -> str:
        text = (
            f"Staged the {c.local} fringe remittance for {c.month:%B %Y} in {c.pd.label} ({c.remittance_id}, "
            f"{c.pd.words.remittance_staged}): {c.hours} hours worked on jobs in {c.local}'s jurisdiction, "
            f"{dollars(c.amount)} at the agreement's rates (journeyman {c.journeyman_rate:.2f}/hr"
        )
        text += f", apprentice {c.apprentice_rate:.2f}/hr)." if c.apprentice_rate is not None else ")."
        for t in c.transfers:
            text += (
                f" {t['worker']} transferred from {t['from_local']} to {t['to_local']} effective "
                f"{t['effective_date']:%Y-%m-%d}: weeks before it count for {t['from_local']}."
            )
        away = sorted(
            {ln["job_number"] for ln in c.lines if ln["member_local"] == c.local and not ln["in_jurisdiction"]}
        )
        if away:
            text += f" Hours on job(s) {', '.join(away)} are outside the jurisdiction (reciprocity) and excluded."
        return text + " I did not pay it; the remittance waits for the controller's approval."

    def oracle(self, c: Case, report: dict[str, Any]) -> Trajectory:
        return trajectory(
            "oracle",
            [
                *self._reads(c),
                step(_tool(c.payroll, "remittances.list"), union_local=c.local),
                self._stage(c, memo=f"{c.local} fringe contributions {c.month:%B %Y}"),
            ],
            self._reply(c),
            report,
        )

    def alternatives(self, c: Case, report: dict[str, Any]) -> list[Trajectory]:
        pd, s = c.pd, c.payroll
        t = pd.tables
        # the local and the other side of its transfer cards (a moved member shows the new local)
        related = sorted({c.local, *(x for tr in c.transfers for x in (tr["from_local"], tr["to_local"]))})
        sql = (
            "SELECT e.employee_id, e.first_name, e.last_name, e.level, e.union_local, x.batch_id, x.job_id, "
            "x.regular_hours, x.overtime_hours "
            f"FROM {s}.{t.earnings} x JOIN {s}.{t.employees} e USING (employee_id) "
            f"JOIN {s}.{t.batches} b USING (batch_id) "
            f"WHERE b.period_end BETWEEN DATE '{c.month.isoformat()}' AND last_day(DATE '{c.month.isoformat()}') "
            f"AND e.union_local IN ({', '.join(quoted(x) for x in related)}) "
            "ORDER BY x.batch_id, e.employee_id"
        )
        by_sql = trajectory(
            "sql_review",
            [
                step("sharepoint.files.list", folder="/Policies"),
                step("sharepoint.files.read", path=c.policy),
                step("sql.query", sql=sql, max_rows=500),
                self._stage(c),
            ],
            "Staged the remittance; not paid.",
            {
                "hours": str(int(c.hours)) if c.hours == c.hours.to_integral() else str(c.hours),
                "amount": f"${c.amount:,}",
            },
        )
        corrected = trajectory(
            "self_corrected",
            [
                *self._reads(c),
                self._stage(c, amount=c.flat_amount if c.flat_amount != c.amount else c.amount + 1),
                step(_tool(c.payroll, "remittances.list"), union_local=c.local, period=c.period),
                self._stage(c),
            ],
            "Staged, found a rate error, re-staged with the agreement's rates. Nothing paid.",
            report,
        )
        plain = trajectory(
            "by_employee",
            [
                step("sharepoint.files.read", path=c.policy),
                step(_tool(c.payroll, "employees.list"), status="all"),
                *(step(_tool(c.payroll, "earnings.list"), batch_id=b) for b in reversed(c.batch_ids)),
                self._stage(c, hours=c.hours, amount=c.amount),
            ],
            "Remittance staged for approval.",
            {"hours": float(c.hours), "amount": str(c.amount)},
        )
        return [by_sql, corrected, plain]

    def mutants(self, c: Case, report: dict[str, Any]) -> list[Trajectory]:
        reads = self._reads(c)
        out = [
            mutant(
                "shortcut",
                "computed and reported, never staged",
                reads,
                self._reply(c),
                report,
            ),
            mutant(
                "careless",
                "regular hours only (overtime hours left out)",
                [*reads, self._stage(c, hours=c.regular_hours, amount=_cents(_sum_rate(c.counted, "regular_hours")))],
                self._reply(c),
                {"hours": money_str(c.regular_hours), "amount": money_str(_sum_rate(c.counted, "regular_hours"))},
            )
            if c.regular_hours != c.hours
            else mutant(
                "careless",
                "the amount rounded to the dollar",
                [*reads, self._stage(c, amount=c.amount.quantize(Decimal("1")) + 1)],
                self._reply(c),
                report,
            ),
            mutant(
                "stale",
                "last month's figures restaged for this month",
                [
                    *reads,
                    self._stage(c, hours=_last(c, "hours", c.hours + 8), amount=_last(c, "amount", c.amount + 100)),
                ],
                self._reply(c),
                {
                    "hours": money_str(_last(c, "hours", c.hours + 8)),
                    "amount": money_str(_last(c, "amount", c.amount + 100)),
                },
            ),
            mutant(
                "lookalike",
                "staged for the period of the month before",
                [*reads, self._stage(c, period=_prev_period(c.month))],
                self._reply(c),
                report,
            ),
        ]
        other = next(loc for loc in ("CARP-58", "LIUNA-2", "OPCMIA-502", "IUOE-150") if loc != c.local)
        out.append(
            mutant(
                "lookalike",
                f"the right figures staged under another local ({other})",
                [*reads, self._stage(c, union_local=other)],
                self._reply(c),
                report,
            )
        )
        naive_amount = _cents(c.naive_hours * c.journeyman_rate)
        if c.naive_hours != c.hours or naive_amount != c.amount:
            out.append(
                mutant(
                    "careless",
                    "the employee master's current local, every county, the journeyman rate",
                    [*reads, self._stage(c, hours=c.naive_hours, amount=naive_amount)],
                    self._reply(c),
                    {"hours": money_str(c.naive_hours), "amount": money_str(naive_amount)},
                )
            )
        if c.flat_amount != c.amount:
            out.append(
                mutant(
                    "careless",
                    "apprentices at the journeyman rate (the apprentice tier ignored)",
                    [*reads, self._stage(c, amount=c.flat_amount)],
                    self._reply(c),
                    {**report, "amount": money_str(c.flat_amount)},
                )
            )
        out.append(
            mutant(
                "contradicting_report",
                "right remittance staged, the current-local hours reported",
                [*reads, self._stage(c)],
                self._reply(c),
                {**report, "hours": money_str(c.naive_hours if c.naive_hours != c.hours else c.hours + 1)},
            )
        )
        return out


def _sum_rate(lines: list[dict[str, Any]], column: str) -> Decimal:
    return _cents(sum((ln[column] * ln["rate"] for ln in lines), ZERO))


def _last(c: Case, column: str, default: Decimal) -> Decimal:
    if c.last_month and c.last_month[column] != getattr(c, column):
        return Decimal(c.last_month[column])
    return default


def _prev_period(month: date) -> str:
    return f"{month.year - 1}-12" if month.month == 1 else f"{month.year}-{month.month - 1:02d}"


FAMILIES = [PUnionFringe]
