"""T_cash_forecast — Cash & Treasury: the rolling 13-week cash forecast, in Excel.

The controller asks Treasury for the 13-week cash forecast in a new workbook with a fixed layout
(sheet ``Forecast``: the week-ending Fridays in row 1, columns B to N = weeks 1 to 13, the lines in
rows 2 to 12), every figure computed as the cash forecast policy (SharePoint
``/Policies/cash_forecast_policy.md``) says, from:

* the bank balances at the clock (Plaid, every key; the reserve money market at Wells Fargo is
  outside the forecast) and the checks still in transit (the ERP's check register: week 1);
* open AP by due date (the key's ERP: entered invoices, posted or not, at net less paid: retainage
  withheld is not a disbursement until released; past due in week 1);
* owner receipts: the pay applications certified in GCPay at their current payment due (net of
  the retainage the owner holds), received on the contract's payment terms after certification;
* payroll: the pay calendar of the key's payroll app, each pay date at the average total gross of
  the last four paid runs; the union trust-fund remittances of the policy's schedule B;
* debt service (the policy's schedule A: the PNC note's installments, the First Midwest line's
  interest) and the standing disbursements (schedule B);
* the payments Treasury has set up in the key's bank portal for a future value date (Plaid shows
  posted activity only): the key's twist.

The workbook is graded as an artifact: ``excel.cells.computed`` of week 1's opening cash and every
week's receipts and disbursements by line and ending cash (typed numbers and formulas both pass, a
cent off fails). The typed answers are the lowest week (its week-ending Friday) and its ending cash.

Keys are the bank portal the task composes (with an ERP and a payroll app by the key's place):
``bofa_cashpro`` (the clean control: nothing scheduled at Bank of America), ``chase_treasury``
(``scheduled_payroll_tax``: the payroll account's state unemployment contribution, a payroll
disbursement by the policy's clause), ``wells`` (``reserve_transfer``: a draw from the reserve
into operating, a receipt of the forecast because the reserve is outside it — a clause only in the
policy) and ``pnc_pinacle`` (``scheduled_loan_prepayment``: a principal prepayment, debt service).
Held-out keys compose two of the three portals with an item (``chase_treasury-wells``, …), so
their forecasts carry both items.

Wrong trajectories: the reserve counted in opening cash; the checks in transit left out; the owner
receipts at the gross billed (retainage ignored); AP with the retainage withheld; invoices in
dispute or of a vendor on payment hold forecast anyway; payroll at the last run instead of the
average; the portal's item left out, or on the wrong line; a cent off;
the weeks shifted by one; the right workbook with a lowest week that contradicts it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from datetime import date, timedelta
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from cfab.apps.bank.dialects import DIALECTS as PORTAL_DIALECTS
from cfab.apps.bank.vendors import PORTALS
from cfab.apps.erp.vendors import ERP_APPS
from cfab.apps.payroll.dialects import DIALECTS as PAYROLL_DIALECTS
from cfab.grader.answers import AnswerSpec
from cfab.grader.predicates import Evaluator
from cfab.seeds.cash_forecast import business_day, week_ends
from cfab.tasks.family import BookReader, Family, held_out_count, pick_held_out
from cfab.tasks.kit.answers import amount_answer, ask, date_answer
from cfab.tasks.kit.entries import allow_added, evaluator, expect_added, forbid_call
from cfab.tasks.kit.figures import dollars, money_str
from cfab.tasks.kit.steps import mutant, step, trajectory
from cfab.tasks.kit.workbook import expect_cells
from cfab.tasks.model import Rubric, ToolStep, Trajectory

FAMILY = "T_cash_forecast"
POLICY = "cash_forecast_policy.md"
SHEET = "Forecast"
FOLDER = "/Finance/Treasury"
WEEKS = 13
RESERVE = "BA-WFMM"  # the reserve money market: outside the forecast
RUBRIC = Rubric.of(forecast_cells=0.7, lowest_week=0.3)
Z = Decimal("0.00")
CENT = Decimal("0.01")
COLUMNS = [chr(ord("B") + k) for k in range(WEEKS)]  # B..N = weeks 1..13

# the sheet's rows: (row, label, line) — a line name for the graded rows, None for the totals
ROWS: tuple[tuple[int, str, str | None], ...] = (
    (2, "Opening cash", None),
    (3, "Owner receipts", "owner"),
    (4, "Transfers from reserve", "reserve"),
    (5, "Total receipts", None),
    (6, "Accounts payable", "ap"),
    (7, "Payroll", "payroll"),
    (8, "Debt service", "debt"),
    (9, "Other disbursements", "other"),
    (10, "Total disbursements", None),
    (11, "Net cash flow", None),
    (12, "Ending cash", None),
)
RECEIPTS, DISBURSEMENTS = ("owner", "reserve"), ("ap", "payroll", "debt", "other")
LINE_ROW = {line: row for row, _, line in ROWS if line}
LINE_LABEL = {line: label for _, label, line in ROWS if line}
# what a portal's scheduled payment pays -> its line (the policy's section 4.5)
KIND_LINE = {"payroll_tax": "payroll", "reserve_transfer": "reserve", "loan_prepayment": "debt"}
TWIST = {
    "payroll_tax": "scheduled_payroll_tax",
    "reserve_transfer": "reserve_transfer",
    "loan_prepayment": "scheduled_loan_prepayment",
}
BANK_OF = {d.app: d.bank.code for d in PORTAL_DIALECTS.values()}
# public keys: (portals, ERP, payroll app); the first is the clean control
PUBLIC: tuple[tuple[tuple[str, ...], str, str], ...] = (
    (("bofa_cashpro",), "sage300cre", "adp"),
    (("chase_treasury",), "acumatica_construction", "rippling"),
    (("wells",), "cmic", "foundation_payroll"),
    (("pnc_pinacle",), "foundation_erp", "adp"),
)
# held-out candidates: two portals that each hold a scheduled payment
HELD_OUT: tuple[tuple[tuple[str, ...], str, str], ...] = (
    (("chase_treasury", "wells"), "qbo", "foundation_payroll"),
    (("chase_treasury", "pnc_pinacle"), "sage_intacct", "rippling"),
    (("pnc_pinacle", "wells"), "computerease", "adp"),
)


def _key(portals: tuple[str, ...]) -> str:
    return "-".join(portals)


PLANS = {_key(p): (p, e, pr) for p, e, pr in PUBLIC + HELD_OUT}


def cents(x: Decimal) -> Decimal:
    return x.quantize(CENT, rounding=ROUND_HALF_UP)


@dataclass(frozen=True)
class Reading:
    """How the forecast is read: the policy (every flag False) or a careless reading of it."""

    reserve_in_opening: bool = False  # the reserve money market counted as opening cash
    no_checks_in_transit: bool = False  # the checks issued and not cleared left out
    gross_receipts: bool = False  # owner receipts at the gross billed (the owner's retainage received)
    ap_with_retainage: bool = False  # AP at its open balance plus the retainage withheld
    last_payroll: bool = False  # every pay date at the last paid run instead of the average of four
    ap_held: bool = False  # invoices in dispute and vendors on payment hold forecast anyway
    no_portal_items: bool = False  # the payments scheduled in the portal left out
    portal_items_as_other: bool = False  # the scheduled payments forecast as other disbursements
    shift: int = 0  # every dated item a week later


@dataclass(frozen=True)
class Forecast:
    opening: Decimal
    lines: dict[str, tuple[Decimal, ...]]  # line -> 13 weekly amounts

    def receipts(self, k: int) -> Decimal:
        return sum((self.lines[x][k] for x in RECEIPTS), Z)

    def disbursements(self, k: int) -> Decimal:
        return sum((self.lines[x][k] for x in DISBURSEMENTS), Z)

    @property
    def endings(self) -> list[Decimal]:
        out, cash = [], self.opening
        for k in range(WEEKS):
            cash = cash + self.receipts(k) - self.disbursements(k)
            out.append(cash)
        return out

    @property
    def openings(self) -> list[Decimal]:
        return [self.opening, *self.endings[:-1]]

    @property
    def lowest(self) -> int:
        """The index of the week with the lowest ending cash (the earliest on a tie)."""
        e = self.endings
        return min(range(WEEKS), key=lambda k: (e[k], k))

    def shows(self) -> dict[str, Decimal]:
        """The graded cells: week 1's opening cash, every week's lines and ending cash."""
        out: dict[str, Decimal] = {"B2": self.opening}
        for k, c in enumerate(COLUMNS):
            for line, row in LINE_ROW.items():
                out[f"{c}{row}"] = self.lines[line][k]
            out[f"{c}12"] = self.endings[k]
        return out


@dataclass(frozen=True)
class Case:
    key: str
    portals: tuple[str, ...]
    erp: str
    payroll: str
    clock: date
    ends: list[date]
    accounts: list[dict[str, Any]]
    inputs: dict[str, list[dict[str, Any]]]
    items: list[dict[str, Any]]  # the composed portals' scheduled payments
    forecast: Forecast
    careless: dict[str, tuple[str, str, Forecast]] = field(default_factory=dict)

    @property
    def erp_label(self) -> str:
        return ERP_APPS[self.erp].label

    @property
    def payroll_label(self) -> str:
        return PAYROLL_DIALECTS[self.payroll].label

    @property
    def workbook(self) -> str:
        return f"Cash Forecast {self.clock.isoformat()}.xlsx"

    def portal_label(self, portal: str) -> str:
        return PORTAL_DIALECTS[portal].label

    def ptool(self, portal: str, local: str) -> str:
        return f"{portal}.{PORTALS[portal].TOOL_NAMES.get(local, local)}"

    def prtool(self, local: str) -> str:
        return f"{self.payroll}.{PAYROLL_DIALECTS[self.payroll].tool_names.get(local, local)}"


# ------------------------------------------------------------------------------------------ the forecast
def week_of(d: date, clock: date, ends: list[date], shift: int = 0) -> int | None:
    """The index of the week an item dated ``d`` falls in (past due: week 1; after week 13: None)."""
    moved = business_day(d)
    if moved <= clock:
        return min(shift, WEEKS - 1) if shift < WEEKS else None
    for k, end in enumerate(ends):
        if moved <= end:
            return k + shift if k + shift < WEEKS else None
    return None


def compute(
    clock: date,
    ends: list[date],
    accounts: list[dict[str, Any]],
    inputs: dict[str, list[dict[str, Any]]],
    items: list[dict[str, Any]],
    r: Reading = Reading(),
) -> Forecast:
    lines: dict[str, list[Decimal]] = {x: [Z] * WEEKS for x in (*RECEIPTS, *DISBURSEMENTS)}

    def put(line: str, when: date, amount: Decimal) -> None:
        k = week_of(when, clock, ends, r.shift)
        if k is not None:
            lines[line][k] += Decimal(amount)

    opening = sum(
        (Decimal(a["ledger_balance"]) for a in accounts if r.reserve_in_opening or a["bank_account_id"] != RESERVE), Z
    )
    if not r.no_checks_in_transit:
        for c in inputs["checks_in_transit"]:
            if c["bank_account_id"] != RESERVE:
                put("ap", clock, c["amount"])
    for i in inputs["ap_open"]:
        if i["held"] and not r.ap_held:
            continue
        put(
            "ap",
            i["due_date"],
            Decimal(i["open_amount"]) + (Decimal(i["retainage_amount"]) if r.ap_with_retainage else Z),
        )
    for a in inputs["receipts"]:
        amount = Decimal(a["current_payment_due"])
        if r.gross_receipts:
            amount += Decimal(a["retainage_this_period"])
        put("owner", a["certified_date"] + timedelta(days=int(a["terms_days"])), amount)
    runs = [Decimal(x["total_gross"]) for x in inputs["payroll_runs"]]
    per_run = runs[0] if r.last_payroll else cents(sum(runs[:4], Z) / 4)
    for p in inputs["pay_dates"]:
        put("payroll", p["pay_date"], per_run)
    for s in inputs["schedule"]:
        put({"debt_service": "debt"}.get(s["forecast_line"], s["forecast_line"]), s["due_date"], s["amount"])
    if not r.no_portal_items:
        for s in items:
            line = KIND_LINE[s["kind"]]
            if r.portal_items_as_other and line != "reserve":
                line = "other"
            put(line, s["value_date"], s["amount"])
    return Forecast(opening, {x: tuple(v) for x, v in lines.items()})


def _careless(
    make: Callable[[Reading], Forecast], right: Forecast, items: list[dict[str, Any]]
) -> dict[str, tuple[str, str, Forecast]]:
    """name -> (mutant class, what was done, forecast), only where the reading changes the sheet."""
    readings: list[tuple[str, str, str, Reading]] = [
        ("reserve", "stale", "the reserve money market counted in opening cash", Reading(reserve_in_opening=True)),
        ("float", "careless", "the checks in transit left out of week 1", Reading(no_checks_in_transit=True)),
        ("gross", "lookalike", "owner receipts at the gross billed (retainage ignored)", Reading(gross_receipts=True)),
        ("ap_ret", "careless", "AP forecast with the retainage withheld", Reading(ap_with_retainage=True)),
        ("last_run", "careless", "every pay date at the last paid run", Reading(last_payroll=True)),
        ("held", "careless", "invoices in dispute and vendors on payment hold forecast", Reading(ap_held=True)),
        ("shift", "careless", "every item a week late (week 1 taken as the week after)", Reading(shift=1)),
    ]
    if items:
        readings.append(
            ("no_items", "stale", "the payments scheduled in the bank portal left out", Reading(no_portal_items=True))
        )
        if any(KIND_LINE[s["kind"]] != "reserve" for s in items):
            readings.append(
                (
                    "as_other",
                    "careless",
                    "the scheduled payment forecast as an other disbursement",
                    Reading(portal_items_as_other=True),
                )
            )
    out = {}
    for name, kind, what, reading in readings:
        f = make(reading)
        if f.shows() != right.shows():
            out[name] = (kind, what, f)
    return out


def _plan(key: str) -> tuple[tuple[str, ...], str, str]:
    if key not in PLANS:
        raise ValueError(f"{FAMILY} {key}: not a forecast this family plans (keys: {', '.join(PLANS)})")
    return PLANS[key]


class TCashForecast(
    Family[Case],
    family=FAMILY,
    domain_code="T",
    taxonomy_path="T.Treasury.cash_forecast",
    difficulty=4,
    systems=[
        "excel",
        "sharepoint",
        "gcpay",
        "plaid",
        *PORTAL_DIALECTS,
        *dict.fromkeys(e for _p, e, _r in PUBLIC + HELD_OUT),
        *PAYROLL_DIALECTS,
    ],
    user_role="Treasury Manager",
    policy_ref=POLICY,
    money_movement_guard=False,
    source_ref="FAMILIES.md Part 2, Cash & Treasury (T_cash_forecast); docs/families.md#t_cash_forecast",
    rubric=RUBRIC,
    scales=False,
):
    def keys(self, book: BookReader) -> list[str]:
        self._require_items(book)
        return [_key(p) for p, _e, _r in PUBLIC]

    def held_out_keys(self, book: BookReader) -> list[str]:
        """Two portals with a scheduled payment each (two of the three pairs)."""
        self._require_items(book)
        public = self.keys(book)
        return pick_held_out(FAMILY, [_key(p) for p, _e, _r in HELD_OUT], public, held_out_count(len(public)))

    def _require_items(self, book: BookReader) -> None:
        banks = {r["bank"] for r in book.q(FAMILY, "scheduled_payments")}
        wanted = {BANK_OF[p[0]] for p, _e, _r in PUBLIC[1:]}
        if not wanted <= banks or BANK_OF[PUBLIC[0][0][0]] in banks:
            raise ValueError(
                f"{FAMILY}: the book's scheduled portal payments are at {sorted(banks)}, not {sorted(wanted)}"
            )

    def case(self, key: str, book: BookReader) -> Case:
        portals, erp, payroll = _plan(key)
        clock = book.inputs.clock
        as_of = clock.isoformat()
        ends = week_ends(clock)
        accounts = book.q(FAMILY, "accounts", as_of=as_of)
        inputs = {
            "checks_in_transit": book.q(FAMILY, "checks_in_transit", as_of=as_of),
            "ap_open": book.q(FAMILY, "ap_open"),
            "receipts": book.q(FAMILY, "receipts"),
            "payroll_runs": book.q(FAMILY, "payroll_runs"),
            "pay_dates": book.q(FAMILY, "pay_dates", as_of=as_of),
            "schedule": book.q(FAMILY, "schedule"),
        }
        banks = {BANK_OF[p] for p in portals}
        items = [s for s in book.q(FAMILY, "scheduled_payments") if s["bank"] in banks]
        if len(items) != len([p for p in portals if p != PUBLIC[0][0][0]]):
            raise ValueError(f"{FAMILY} {key}: expected one scheduled payment per twisted portal, found {len(items)}")
        if any(week_of(s["value_date"], clock, ends) is None for s in items):
            raise ValueError(f"{FAMILY} {key}: a scheduled payment falls outside the 13 weeks")

        def make(r: Reading) -> Forecast:
            return compute(clock, ends, accounts, inputs, items, r)

        right = make(Reading())
        return Case(
            key, portals, erp, payroll, clock, ends, accounts, inputs, items, right, _careless(make, right, items)
        )

    def task_systems(self, c: Case) -> list[str]:
        return [c.erp, c.payroll, "gcpay", "plaid", *c.portals, "sharepoint", "excel"]

    # ------------------------------------------------------------------ answers and instruction
    def answers(self, c: Case) -> list[AnswerSpec]:
        f = c.forecast
        low = f.lowest
        looks_amount = [x.endings[x.lowest] for _k, _w, x in c.careless.values()]
        looks_amount += [f.endings[k] for k in (low - 1, low + 1) if 0 <= k < WEEKS]
        looks_date = [c.ends[x.lowest] for _k, _w, x in c.careless.values()]
        looks_date += [c.ends[k] for k in (low - 1, low + 1) if 0 <= k < WEEKS]
        return [
            date_answer(
                "lowest_week_ending",
                "the week-ending Friday of the week with the lowest ending cash",
                c.ends[low],
                lookalikes=looks_date,
            ),
            amount_answer("lowest_ending_cash", "that week's ending cash", f.endings[low], lookalikes=looks_amount),
        ]

    def instruction(self, c: Case, answers: list[AnswerSpec]) -> str:
        rows = "; ".join(f"row {row} {label}" for row, label, _ in ROWS)
        portals = " and ".join(c.portal_label(p) for p in c.portals)
        banks = f"the bank {'portal' if len(c.portals) == 1 else 'portals'} ({portals})"
        return (
            f"Build this week's 13-week cash forecast as of today ({c.clock.isoformat()}) exactly as our cash "
            f"forecast policy in SharePoint (/Policies/{POLICY}) says, from our systems: Plaid and {banks}, "
            f"open AP and the check register in {c.erp_label}, the certified owner pay applications in GCPay, the "
            f'pay calendar and pay runs in {c.payroll_label}. Create a new Excel workbook "{c.workbook}" in {FOLDER} '
            f'with one sheet "{SHEET}": A1 "Week ending" and B1 to N1 the week-ending Fridays of weeks 1 to 13; '
            f"column A the row labels and columns B to N the weeks: {rows}. Amounts to the cent (0.00 where a "
            f"line has nothing); you may type numbers or use formulas. Change nothing in any system and don't "
            f"move money. {ask(answers)}"
        )

    # ------------------------------------------------------------------ evaluator
    def evaluator(self, c: Case, answers: list[AnswerSpec]) -> Evaluator:
        what = {"B2": "week 1 opening cash"}
        for k, col in enumerate(COLUMNS):
            for line, row in LINE_ROW.items():
                what[f"{col}{row}"] = f"week {k + 1} {LINE_LABEL[line].lower()}"
            what[f"{col}12"] = f"week {k + 1} ending cash"
        expected = [
            expect_added("excel", "workbooks", {"name": c.workbook}, count=1, label=f"a new workbook {c.workbook}"),
            *expect_cells(c.workbook, SHEET, c.forecast.shows(), what=what),
        ]
        allowed = [
            allow_added("excel", "worksheets", label="the new workbook's sheets"),
            allow_added("excel", "cells", {"workbook": c.workbook}, label="the new workbook's other cells"),
        ]
        calls = [
            forbid_call(f"{p}.bank_initiate_transfer", f"initiating a payment in {c.portal_label(p)}")
            for p in c.portals
        ]
        calls.append(forbid_call("plaid.bank_initiate_transfer", "initiating a Plaid Transfer"))
        return evaluator(
            expected=expected,
            allowed=allowed,
            answers=answers,
            forbidden_calls=calls,
            money_movement_guard=self.money_movement_guard,
        )

    # ------------------------------------------------------------------ trajectories
    def _sheet(self, c: Case, f: Forecast, formulas: bool = False) -> list[list[Any]]:
        head: list[Any] = ["Week ending", *(d.isoformat() for d in c.ends)]
        body: list[list[Any]] = []
        openings, endings = f.openings, f.endings
        for row, label, line in ROWS:
            cells: list[Any] = [label]
            for k, col in enumerate(COLUMNS):
                prev = COLUMNS[k - 1] if k else None
                if line:
                    cells.append(money_str(f.lines[line][k]))
                elif formulas:
                    cells.append(
                        {
                            2: money_str(f.opening) if prev is None else f"={prev}12",
                            5: f"={col}3+{col}4",
                            10: f"=SUM({col}6:{col}9)",
                            11: f"={col}5-{col}10",
                            12: f"={col}2+{col}11",
                        }[row]
                    )
                else:
                    cells.append(
                        money_str(
                            {
                                2: openings[k],
                                5: f.receipts(k),
                                10: f.disbursements(k),
                                11: f.receipts(k) - f.disbursements(k),
                                12: endings[k],
                            }[row]
                        )
                    )
            body.append(cells)
        return [head, *body]

    def _create(self, c: Case, f: Forecast | None = None, *, formulas: bool = False, **kw: Any) -> ToolStep:
        return step(
            "excel.workbooks.create",
            name=kw.get("name", c.workbook),
            folder=kw.get("folder", FOLDER),
            sheets={SHEET: kw.get("sheet") or self._sheet(c, f or c.forecast, formulas)},
        )

    def _reads(self, c: Case) -> list[ToolStep]:
        plaid_ids = [a["plaid_account_id"] for a in c.accounts]
        out = [
            step("sharepoint.files.read", path=f"/Policies/{POLICY}"),
            step("plaid.accounts.balance.get", account_ids=plaid_ids),
        ]
        for p in c.portals:
            out.append(step(c.ptool(p, "payments.list"), status="scheduled"))
        out += [
            step(f"{c.erp}.checks.list", status="issued", limit=500),
            step(f"{c.erp}.ap_invoices.list", status="posted"),
            step(f"{c.erp}.ap_invoices.list", status="unposted"),
            step("gcpay.pay_apps.list", status="Certified"),
            step("gcpay.contracts.list", status="Active"),
            step(c.prtool("batches.list"), status=PAYROLL_DIALECTS[c.payroll].words.batch_released),
            step(c.prtool("calendar.list"), date_from=(c.clock + timedelta(days=1)).isoformat()),
        ]
        return out

    def _report(self, c: Case, f: Forecast) -> dict[str, Any]:
        return {
            "lowest_week_ending": c.ends[f.lowest].isoformat(),
            "lowest_ending_cash": money_str(f.endings[f.lowest]),
        }

    def _reply(self, c: Case) -> str:
        f = c.forecast
        notes = []
        for s in c.items:
            line = LINE_LABEL[KIND_LINE[s["kind"]]]
            notes.append(
                f"{s['memo'].lower()} ({dollars(s['amount'])}, value {s['value_date'].isoformat()}) under {line}"
            )
        extra = (" Scheduled in the bank portal: " + "; ".join(notes) + ".") if notes else ""
        low = f.lowest
        return (
            f"Built {c.workbook} in {FOLDER} (sheet {SHEET}) per the cash forecast policy: opening cash "
            f"{dollars(f.opening)} (the reserve money market excluded), the checks in transit in week 1, owner "
            f"receipts net of retainage on their terms, payroll at the four-run average. The lowest week ends "
            f"{c.ends[low].isoformat()} at {dollars(f.endings[low])}.{extra}"
        )

    def oracle(self, c: Case, report: dict[str, Any]) -> Trajectory:
        return trajectory("oracle", [*self._reads(c), self._create(c)], self._reply(c), report)

    def alternatives(self, c: Case, report: dict[str, Any]) -> list[Trajectory]:
        f = c.forecast
        low = f.lowest
        fill: dict[str, Any] = {}
        for r_i, cells in enumerate(self._sheet(c, f, formulas=True)[1:], start=2):
            for col, v in zip(COLUMNS, cells[1:], strict=True):
                fill[f"{col}{r_i}"] = v
        scheduled = " UNION ALL ".join(
            f"SELECT * FROM {p}.{PORTAL_DIALECTS[p].tables.payments} "
            f"WHERE status = '{PORTAL_DIALECTS[p].scheduled_status}'"
            for p in c.portals
        )
        reads = self._reads(c)
        sql_reads = [*reads[:2], step("sql.query", sql=scheduled), *reads[2 + len(c.portals) :]]
        cent = replace(f, lines={**f.lines, "other": (f.lines["other"][0] + CENT, *f.lines["other"][1:])})
        return [
            trajectory(
                "totals, opening and ending cash as formulas; the answers as a US date and a number",
                [*self._reads(c), self._create(c, formulas=True)],
                "Done: the forecast is in the new workbook.",
                {"lowest_week_ending": f"{c.ends[low]:%m/%d/%Y}", "lowest_ending_cash": float(f.endings[low])},
            ),
            trajectory(
                "the portal read with SQL; an empty workbook first, then the labels and the weeks written cell by cell",
                [
                    *sql_reads,
                    self._create(c, sheet=[["Week ending", *(d.isoformat() for d in c.ends)]]),
                    step(
                        "excel.cells.write",
                        workbook=c.workbook,
                        sheet=SHEET,
                        values={**{f"A{row}": label for row, label, _ in ROWS}, **fill},
                    ),
                ],
                self._reply(c),
                {"lowest_week_ending": f"{c.ends[low]:%B %d, %Y}", "lowest_ending_cash": f"${f.endings[low]:,}"},
            ),
            trajectory(
                "week 1's other disbursements a cent high first (totals as formulas), then corrected",
                [
                    *self._reads(c),
                    self._create(c, cent, formulas=True),
                    step(
                        "excel.cells.write",
                        workbook=c.workbook,
                        sheet=SHEET,
                        values={"B9": money_str(f.lines["other"][0])},
                    ),
                ],
                self._reply(c),
                report,
            ),
        ]

    def mutants(self, c: Case, report: dict[str, Any]) -> list[Trajectory]:
        out = [
            mutant(kind, f"{what}: written and reported", [self._create(c, f)], answers=self._report(c, f))  # type: ignore[arg-type]
            for kind, what, f in c.careless.values()
        ]
        f = c.forecast
        cent = replace(f, lines={**f.lines, "ap": (*f.lines["ap"][:-1], f.lines["ap"][-1] + CENT)})
        out.append(
            mutant(
                "careless",
                "week 13's accounts payable a cent high",
                [self._create(c, cent)],
                answers=self._report(c, cent),
            )
        )
        other = min((k for k in range(WEEKS) if k != f.lowest), key=lambda k: (f.endings[k], k))
        out.append(
            mutant(
                "contradicting_report",
                "the right workbook, the second-lowest week reported as the lowest",
                [self._create(c)],
                answers={
                    "lowest_week_ending": c.ends[other].isoformat(),
                    "lowest_ending_cash": money_str(f.endings[other]),
                },
            )
        )
        out.append(
            mutant(
                "lookalike",
                "the right forecast in a workbook named for another date",
                [self._create(c, name=f"Cash Forecast {(c.clock - timedelta(days=7)).isoformat()}.xlsx")],
                answers=report,
            )
        )
        return out

    def guarded_step(self, c: Case) -> ToolStep:
        p = c.portals[-1]
        return step(
            c.ptool(p, "bank_initiate_transfer"),
            from_account="Operating" if p == "bofa_cashpro" else _nickname(c, p),
            payee_name="Company A Construction, Inc.",
            amount="1000.00",
            method="wire",
            memo="cash forecast funding",
        )

    def defect_variant(self, c: Case) -> str | None:
        if not c.items:
            return None
        return "+".join(TWIST[s["kind"]] for s in sorted(c.items, key=lambda s: s["kind"]))


def _nickname(c: Case, portal: str) -> str:
    bank = BANK_OF[portal]
    return next(a["account_name"] for a in c.accounts if a["bank"] == bank)


FAMILIES = [TCashForecast]
