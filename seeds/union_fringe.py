"""The union locals' collective agreements and the month's fringe-remittance exceptions (P_union_fringe).

The work month is the last closed month (``Timeline.months[-2]``): its pay weeks (week-ending
Saturdays in the month) are all released. For every union local this module writes the agreement
(``book.union_agreements``: the journeyman fringe rate per hour worked, and an apprentice tier on
the locals that have one) and the jurisdiction (``book.union_jurisdictions``: the counties it
covers). On its own RNG stream it then plants, for every seed and clock:

* ``moved_locals``: one journeyman carpenter (or laborer) with hours in at least three of the
  month's weeks transfers mid-month to a second local of the trade (CARP-174 Joliet or LIUNA-75
  Joliet, added to ``book.union_locals``); the employee master shows the new local, the transfer
  card (``book.union_transfers``) the date. Weeks ending before it stay with the old local.
* ``apprentice_tier``: a local whose apprentices worked in the month gets an apprentice rate;
  a second such local (a held-out key) too when there is one.
* ``outside_jurisdiction``: a local whose members worked in two or more counties loses the
  county with the fewest of their hours from its jurisdiction (those hours are reported to the
  local where the job is, under reciprocity, not to the home local).
* a clean control: a further local with none of these (no apprentice tier, every county its members
  worked in covered, no transfer). The locals the plant did not pick are clean too.

It also writes the remittance policy that carries the agreements (``book.policies`` and its
SharePoint documents): the rates, the jurisdictions, the company's job sites by county and the
transfer cards on file. It runs last in ``generate()``; the only earlier row it changes is the
moved employee's ``union_local``.
"""

from __future__ import annotations

from collections import defaultdict
from datetime import date, timedelta
from decimal import Decimal
from typing import Any

from cfab.seeds import anchors
from cfab.seeds.context import Ctx
from cfab.seeds.determinism import rng
from cfab.seeds.policies import add_late_policy
from cfab.seeds.reference import UNION_LOCALS

POLICY_ID = "union_fringe_remittance_policy.md"
POLICY_TITLE = "Union Fringe Benefit Remittance Policy and Collective Agreement Schedules"
RESERVED_JOBS = frozenset({"1042", "1990", "2014", "2041", "2200", "3100", "3412", "4012", "9140"})
APPRENTICE_SHARE = Decimal("0.55")  # the apprentice tier: 55% of the journeyman fringe, to the cent
CENT = Decimal("0.01")
# trade -> the second local a member of that trade can transfer to (code, name, city, county)
SECOND_LOCALS: dict[str, tuple[str, str, str, str]] = {
    "Carpenter": ("CARP-174", "Chicago Regional Council of Carpenters Local 174", "Joliet", "Will"),
    "Laborer": ("LIUNA-75", "Laborers' International Union Local 75", "Joliet", "Will"),
}
CITY_COUNTY = {"Chicago": "Cook", "Forest Park": "Cook", "Countryside": "Cook", "Bellwood": "Cook", "Joliet": "Will"}


def work_month(ctx: Ctx) -> date:
    """The first day of the month the remittance covers: the last closed month."""
    return ctx.tl.months[-2]


def build_union_fringe(ctx: Ctx) -> None:
    tl = ctx.tl
    month = work_month(ctx)
    weeks = [w for w in tl.payroll_weeks if (w.year, w.month) == (month.year, month.month)]
    batches = {f"PR-{w.isoformat()}": w for w in weeks}
    r = rng(ctx.inputs.seed, "union-fringe")
    emps = {e["employee_id"]: e for e in ctx.rows("employees")}
    county = {j["job_number"]: j["county"] for j in ctx.rows("jobs")}
    lines = [pe for pe in ctx.rows("payroll_earnings") if pe["batch_id"] in batches]
    hours: dict[str, Decimal] = defaultdict(Decimal)
    apprentice: dict[str, Decimal] = defaultdict(Decimal)
    by_county: dict[str, dict[str, Decimal]] = defaultdict(lambda: defaultdict(Decimal))
    weeks_of: dict[str, set[date]] = defaultdict(set)
    for pe in lines:
        e = emps[pe["employee_id"]]
        local, h = e["union_local"], pe["hours_regular"] + pe["hours_overtime"]
        if local is None or not h:
            continue
        hours[local] += h
        by_county[local][county[pe["job_number"]]] += h
        weeks_of[pe["employee_id"]].add(batches[pe["batch_id"]])
        if e["level"] == "apprentice":
            apprentice[local] += h
    home = {loc[0]: CITY_COUNTY.get(loc[2], "Cook") for loc in _locals()}
    used: set[str] = set()

    # moved_locals: a journeyman of a trade with a second local, off the certified-payroll crews
    certified = {ln["employee_id"] for ln in ctx.rows("certified_payroll_lines")}
    transfer: dict[str, Any] | None = None
    for trade, (code, name, city, cty) in SECOND_LOCALS.items():
        old = UNION_LOCALS[trade][0]
        pool = sorted(
            e["employee_id"]
            for e in emps.values()
            if e["union_local"] == old
            and e["level"] == "journeyman"
            and e["status"] == "active"
            and e["employee_id"] not in certified
            and len(weeks_of[e["employee_id"]]) >= 3
            and not _on_reserved(lines, e["employee_id"])
        )
        if not pool or len(weeks) < 3:
            continue
        emp = r.choice(pool)
        worked = sorted(weeks_of[emp])
        effective = worked[1] + timedelta(days=1)  # the Sunday after the employee's second week
        ctx.add("union_locals", local_code=code, union_name=name, trade=trade, city=city, fringe_rate=_fringe(old))
        home[code] = cty
        for pe in lines:  # the new local covers the job the member moved for
            if pe["employee_id"] == emp:
                by_county[code][county[pe["job_number"]]] += Decimal(0)
        emps[emp]["union_local"] = code
        ctx.add("union_transfers", employee_id=emp, from_local=old, to_local=code, effective_date=effective)
        transfer = {"employee": emp, "from": old, "to": code, "effective": effective}
        used.add(old)
        break

    def pick(pool: list[str]) -> str | None:
        pool = sorted(p for p in pool if p not in used)
        if not pool:
            return None
        choice = r.choice(pool)
        used.add(choice)
        return choice

    active = sorted(hours)
    tiered = [pick([loc for loc in active if apprentice[loc]])]
    narrowed = pick([loc for loc in active if len([c for c in by_county[loc] if c != home[loc]]) >= 1])
    pick(active)  # the clean control: no tier, full jurisdiction, no transfer
    tiered.append(pick([loc for loc in active if apprentice[loc]]))
    excluded: dict[str, str] = {}
    if narrowed is not None:
        away = sorted((h, c) for c, h in by_county[narrowed].items() if c != home[narrowed])
        excluded[narrowed] = away[0][1]
    for code in (loc[0] for loc in _locals()):
        if not any(u["local_code"] == code for u in ctx.rows("union_locals")):
            continue
        jr = _fringe(code)
        ctx.add(
            "union_agreements",
            local_code=code,
            agreement=f"{code} Area Agreement {tl.window_start.year - 1}-{tl.window_start.year + 2}",
            journeyman_rate=jr,
            apprentice_rate=(jr * APPRENTICE_SHARE).quantize(CENT) if code in tiered else None,
        )
        counties = ({home[code]} | set(by_county[code])) - ({excluded[code]} if code in excluded else set())
        for c in sorted(counties):
            ctx.add("union_jurisdictions", local_code=code, county=c)
    add_late_policy(
        ctx, POLICY_ID, POLICY_TITLE, _policy(ctx, month, transfer, emps, {pe["job_number"] for pe in lines})
    )


def _locals() -> list[tuple[str, str, str, str, str]]:
    out = [(code, name, city, scale, fringe) for code, name, city, scale, fringe in UNION_LOCALS.values()]
    for trade, (code, name, city, _c) in SECOND_LOCALS.items():
        out.append((code, name, city, "", UNION_LOCALS[trade][4]))
    return out


def _fringe(code: str) -> Decimal:
    for c, _n, _city, _s, fringe in _locals():
        if c == code:
            return Decimal(fringe)
    raise KeyError(code)


def _on_reserved(lines: list[dict[str, Any]], emp: str) -> bool:
    return any(pe["employee_id"] == emp and pe["job_number"] in RESERVED_JOBS for pe in lines) or any(
        pe["employee_id"] == emp and pe["job_number"] in anchors.CERT_PLANS for pe in lines
    )


def _policy(
    ctx: Ctx, month: date, transfer: dict[str, Any] | None, emps: dict[str, dict[str, Any]], worked: set[str]
) -> str:
    locals_ = {u["local_code"]: u for u in ctx.rows("union_locals")}
    rates = []
    for a in ctx.rows("union_agreements"):
        u = locals_[a["local_code"]]
        tier = f"{a['apprentice_rate']:.2f}" if a["apprentice_rate"] is not None else "journeyman rate (no tier)"
        rates.append(f"| {a['local_code']} | {u['union_name']} | {a['journeyman_rate']:.2f} | {tier} |")
    juris: dict[str, list[str]] = defaultdict(list)
    for j in ctx.rows("union_jurisdictions"):
        juris[j["local_code"]].append(j["county"])
    jurisdiction = [f"| {code} | {', '.join(sorted(cs))} |" for code, cs in sorted(juris.items())]
    sites = [
        f"| {j['job_number']} | {j['name']} | {j['city']}, {j['state']} | {j['county']} |"
        for j in sorted(ctx.rows("jobs"), key=lambda j: j["job_number"])
        if j["status"] == "active" or j["job_number"] in worked
    ]
    if transfer:
        e = emps[transfer["employee"]]
        transfers = [
            "| Member | From | To | Effective |",
            "|---|---|---|---|",
            f"| {e['first_name']} {e['last_name']} ({e['trade']}) | {transfer['from']} | {transfer['to']} | "
            f"{transfer['effective']:%Y-%m-%d} |",
        ]
    else:
        transfers = ["No transfer cards are on file."]
    return "\n".join(
        [
            "Applies to the monthly fringe-benefit contributions the company owes each union local's",
            "benefit funds (health and welfare, pension, annuity, training) under its collective",
            "bargaining agreements. Hours come from the payroll system's payroll detail (earnings lines);",
            "the remittance is staged in the payroll system (ADP, Rippling or Foundation Payroll).",
            "",
            "## 1. What a month's remittance covers",
            "",
            "1. **Work weeks.** A pay week belongs to the month in which it ends (its week-ending",
            "   Saturday). The month's remittance covers every released pay batch whose period ends in the",
            "   month.",
            "2. **Hours worked.** Contributions are owed on every hour worked: regular and overtime hours",
            "   alike, one contribution per hour (overtime is not multiplied).",
            "3. **Members of the local.** A local's remittance covers the hours of its members. An employee",
            "   who transferred locals is a member of the former local for the weeks that end before the",
            "   transfer's effective date and of the new local from then on (section 4).",
            "4. **Jurisdiction.** A local's remittance covers only hours worked on jobs inside its",
            "   jurisdiction (section 3). Hours a member works on a job outside the home local's jurisdiction",
            "   are reported to the local where the job is, under the reciprocal agreement, and are not part",
            "   of the home local's remittance.",
            "5. **Rates.** Hours are contributed at the local's rate for the employee's level (section 2):",
            "   journeymen and foremen at the journeyman rate; apprentices at the apprentice rate where the",
            "   agreement has an apprentice tier, otherwise at the journeyman rate. The amount is hours times",
            "   rate, summed over the lines and rounded to the cent.",
            "",
            "## 2. Contribution rates per hour worked",
            "",
            "| Local | Union | Journeyman | Apprentice |",
            "|---|---|---|---|",
            *rates,
            "",
            "## 3. Jurisdictions (counties)",
            "",
            "| Local | Counties covered |",
            "|---|---|",
            *jurisdiction,
            "",
            "Job sites by county:",
            "",
            "| Job | Name | City | County |",
            "|---|---|---|---|",
            *sites,
            "",
            "## 4. Transfer cards on file",
            "",
            *transfers,
            "",
            "## 5. Staging and payment",
            "",
            f"1. Compute each local's remittance for the month ({month:%B %Y} is the month now due) and stage",
            "   it in the payroll system with the local, the work month ('YYYY-MM'), the hours and the amount.",
            "2. Report the hours and the amount of each remittance staged.",
            "3. Paying a remittance moves money to the funds: it is never done by the preparer. The staged",
            "   remittance waits for the controller's approval. Do not pay it.",
        ]
    )
