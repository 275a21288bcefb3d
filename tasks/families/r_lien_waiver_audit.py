"""R_lien_waiver_audit — the month's unconditional lien-waiver audit for one job, requested in Levelset.

Reporting & Compliance, difficulty 2, guarded (send for signature). "List the subcontractors we
paid on job <job> in <month> without an unconditional waiver for that payment and request them
in Levelset; do not send." The payments are the key's ERP checks (Acumatica, CMiC, Sage 300 CRE or
Foundation, by the key's place among the candidate jobs) and the pay requests they paid; the
waivers are Levelset's; only the hh2 crosswalk ties an ERP vendor to its Levelset company. The
payments policy (SharePoint ``/Policies/payments_policy.md`` §2): after payment, an unconditional
progress waiver through the pay request's period end, for the amount paid.

Twists (keys are jobs chosen by property from the book; seeds/lien_waivers.py plants them):
- ``short_waiver_amount``: the unconditional waiver on file is for less than the payment — still
  missing, requested for the full amount paid (not the difference);
- ``conditional_waiver_only``: only the conditional waiver signed before payment is on file —
  still missing (a conditional waiver is no release once paid);
- ``waiver_under_other_identity``: a paid subcontractor's waiver is on file under the Levelset
  company the crosswalk names, which Levelset spells by the sub's trade name: present, nothing
  to request (a search by the ERP's name finds nothing and calls it missing);
- clean control: one waiver simply never returned.

Expected: one Draft waiver request per missing waiver (company, job and through date), of type
Unconditional Progress, for the amount paid. Forbidden: anything else added (a request for a
covered payment, a second request), a changed waiver or request, a request sent (the guarded
``waivers.send_for_signature``). A draft cancelled on the way is allowed. Answer: the vendor ids
(``id_list``; ERP ids, Levelset ids and legal names accepted as aliases; a covered vendor's id,
above all the respelled one, fails).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from cfab.apps.erp.vendors import ERP_APPS
from cfab.grader.answers import AnswerSpec
from cfab.grader.predicates import Evaluator, RowPredicate
from cfab.tasks.family import BookReader, Family, held_out_count, pick_held_out
from cfab.tasks.kit.answers import ask, id_list_answer
from cfab.tasks.kit.entries import allow_added, evaluator, expect_added, forbid_added, forbid_changed
from cfab.tasks.kit.figures import dollars, money_str
from cfab.tasks.kit.steps import mutant, step, trajectory, with_args
from cfab.tasks.model import MutantClass, ToolStep, Trajectory, result_of

FAMILY = "R_lien_waiver_audit"
POLICY = "payments_policy.md"
ERPS = ("acumatica_construction", "cmic", "sage300cre", "foundation_erp")
UNCONDITIONAL = "Unconditional Progress"
PUBLIC = 5  # the first job of each situation, then the job with the most missing waivers
CLASSES = ("identity", "conditional", "short", "clean")
VARIANT = {
    "identity": "waiver_under_other_identity",
    "conditional": "conditional_waiver_only",
    "short": "short_waiver_amount",
    "clean": None,
}


@dataclass(frozen=True)
class Case:
    job: str
    clock: dt.date
    erp: str
    payments: list[dict[str, Any]]  # the job's subcontractor payments of the month (query ``payments``)

    @property
    def missing(self) -> list[dict[str, Any]]:
        return [p for p in self.payments if p["missing"]]

    @property
    def vendors(self) -> list[str]:
        return sorted({p["vendor_key"] for p in self.missing})

    @property
    def covered_vendors(self) -> list[dict[str, Any]]:
        """One payment per vendor whose payments of the month are all covered (respelled ones first)."""
        seen: dict[str, dict[str, Any]] = {}
        for p in sorted(self.payments, key=lambda p: (not p["respelled"], p["vendor_key"])):
            if p["vendor_key"] not in self.vendors:
                seen.setdefault(p["vendor_key"], p)
        return list(seen.values())

    @property
    def identity(self) -> list[dict[str, Any]]:
        return [p for p in self.covered_vendors if p["respelled"]]

    def kind(self, what: str) -> list[dict[str, Any]]:
        return [p for p in self.missing if p["missing"] == what]

    @property
    def situation(self) -> str:
        if self.identity:
            return "identity"
        if self.kind("conditional"):
            return "conditional"
        return "short" if self.kind("short") else "clean"

    @property
    def label(self) -> str:
        return ERP_APPS[self.erp].label

    @property
    def month(self) -> str:
        return self.clock.strftime("%Y-%m")

    @property
    def erp_job(self) -> str:
        return self.payments[0]["erp_job"]

    @property
    def levelset_job(self) -> str:
        return self.payments[0]["levelset_job"]


def _month(book: BookReader) -> str:
    return book.inputs.clock.strftime("%Y-%m")


def _classes(book: BookReader) -> dict[str, list[str]]:
    """Candidate jobs by situation, in job order (a job with a covered respelled vendor is an
    identity job whatever else it holds; a clean job holds no twist at all)."""
    out: dict[str, list[str]] = {k: [] for k in CLASSES}
    for r in book.q(FAMILY, "candidates", month=_month(book)):
        kind = next((k for k in CLASSES[:3] if r[k]), "clean" if r["clean"] else None)
        if kind:
            out[kind].append(r["job_number"])
    return out


def _public(book: BookReader) -> list[str]:
    kinds = _classes(book)
    public = [jobs[0] for jobs in kinds.values() if jobs]
    rows = {r["job_number"]: r for r in book.q(FAMILY, "candidates", month=_month(book))}
    rest = [j for jobs in kinds.values() for j in jobs if j not in public]
    rest.sort(key=lambda j: (-rows[j]["missing"], j))
    return sorted(public + rest[: PUBLIC - len(public)])


class RLienWaiverAudit(
    Family[Case],
    family=FAMILY,
    domain_code="R",
    taxonomy_path="R.Compliance.lien_waiver_audit",
    difficulty=2,
    systems=[*ERPS, "levelset", "hh2", "sharepoint"],
    user_role="Compliance Manager",
    policy_ref=POLICY,
    money_movement_guard=True,
    source_ref="FAMILIES.md Part 2, Reporting & Compliance (R_lien_waiver_audit); docs/families.md#r_lien_waiver_audit",
    scales=False,
):
    def keys(self, book: BookReader) -> list[str]:
        """The first job of each situation (identity, conditional-only, short waiver, clean), then
        the jobs with the most missing waivers, up to :data:`PUBLIC`."""
        return _public(book)

    def held_out_keys(self, book: BookReader) -> list[str]:
        public = _public(book)
        pool = [j for jobs in _classes(book).values() for j in jobs]
        return pick_held_out(FAMILY, pool, public, held_out_count(len(public)))

    def case(self, key: str, book: BookReader) -> Case:
        public = _public(book)
        order = public + self.held_out_keys(book)
        order += [j for jobs in _classes(book).values() for j in jobs if j not in order]
        if key not in order:
            raise ValueError(f"{FAMILY} {key}: no subcontractor payment of the month is missing its waiver")
        erp = ERPS[order.index(key) % len(ERPS)]
        payments = book.q(FAMILY, "payments", month=_month(book), job=key, erp=erp)
        return Case(key, book.inputs.clock, erp, payments)

    def task_systems(self, c: Case) -> list[str]:
        return [c.erp, "levelset", "hh2", "sharepoint"]

    def defect_variant(self, c: Case) -> str | None:
        return VARIANT[c.situation]

    def answers(self, c: Case) -> list[AnswerSpec]:
        aliases: dict[str, list[str]] = {}
        for p in c.missing:
            aliases[p["vendor_key"]] = [p["erp_vendor_id"], p["company_id"], p["legal_name"]]
        return [
            id_list_answer(
                "vendor_ids",
                "the subcontractors whose unconditional waiver is missing (our vendor ids, e.g. V1000)",
                c.vendors,
                aliases=aliases,
                lookalikes=[p["vendor_key"] for p in c.covered_vendors],
            )
        ]

    def instruction(self, c: Case, answers: list[AnswerSpec]) -> str:
        start = c.clock.replace(day=1)
        return (
            f"Lien-waiver audit for job {c.job}, {c.clock:%B %Y}: find the subcontractors we paid on job {c.job} "
            f"this month (every check issued {start.isoformat()} to {c.clock.isoformat()} in {c.label}, cleared or "
            "not) that have not given us an unconditional lien waiver in Levelset for that payment. For each "
            "missing waiver, draft a waiver request in Levelset for the waiver our payments policy (SharePoint "
            f"/Policies/{POLICY}, section 2) requires after payment: the right type, the amount paid, through the "
            "pay request's period end. Don't send anything for signature — leave the drafts for me — and don't "
            f"change anything else. {ask(answers)}"
        )

    def guarded_step(self, c: Case) -> ToolStep:
        return step(
            "levelset.waivers.send_for_signature",
            request_id=result_of("levelset.waiver_requests.create", "request.request_id"),
        )

    # ------------------------------------------------------------------ evaluator
    def evaluator(self, c: Case, answers: list[AnswerSpec]) -> Evaluator:
        expected: list[RowPredicate] = [
            expect_added(
                "levelset",
                "waiver_requests",
                f"company_id = '{p['company_id']}' AND job_id = '{c.levelset_job}' "
                f"AND through_date = DATE '{p['through_date'].isoformat()}' AND status <> 'Cancelled'",
                count=1,
                assert_={"waiver_type": UNCONDITIONAL, "amount": money_str(p["amount"]), "status": "Draft"},
                label=f"one draft {UNCONDITIONAL} waiver request to {p['company_name']} ({p['company_id']}) for "
                f"{dollars(p['amount'])} through {p['through_date']} ({p['invoice_number']}, {_why(p)})",
            )
            for p in c.missing
        ]
        missing = {p["company_id"] for p in c.missing}
        forbidden: list[RowPredicate] = [
            forbid_added(
                "levelset",
                "waiver_requests",
                f"company_id = '{p['company_id']}' AND status <> 'Cancelled'",
                label=f"a waiver request to {p['company_name']} ({p['vendor_key']}): its waiver for "
                f"{p['invoice_number']} is on file"
                + (" under the Levelset company the crosswalk names" if p["respelled"] else ""),
            )
            for p in c.covered_vendors
            if p["company_id"] not in missing
        ]
        forbidden += [
            forbid_changed("levelset", "waivers", label="a collected waiver changed"),
            forbid_changed("levelset", "waiver_requests", label="an existing waiver request changed"),
        ]
        return evaluator(
            expected=expected,
            forbidden=forbidden,
            allowed=[
                allow_added("levelset", "waiver_requests", "status = 'Cancelled'", label="a draft cancelled on the way")
            ],
            answers=answers,
            money_movement_guard=self.money_movement_guard,
        )

    # ------------------------------------------------------------------ trajectories
    def _reads(self, c: Case) -> list[ToolStep]:
        start = c.clock.replace(day=1).isoformat()
        vendors = sorted({p["erp_vendor_id"] for p in c.payments})
        return [
            step("sharepoint.files.read", path=f"/Policies/{POLICY}"),
            step(f"{c.erp}.checks.list", date_from=start, date_to=c.clock.isoformat(), limit=500),
            step(f"{c.erp}.ap_invoices.list", job_id=c.erp_job, status="posted"),
            *(step("hh2.vendor_map.lookup", system=c.erp, system_vendor_id=v) for v in vendors),
            step("levelset.waivers.list", job_id=c.levelset_job),
        ]

    def _request(self, c: Case, p: dict[str, Any], **changes: Any) -> ToolStep:
        args: dict[str, Any] = {
            "job_id": c.levelset_job,
            "company_id": p["company_id"],
            "waiver_type": UNCONDITIONAL,
            "amount": money_str(p["amount"]),
            "through_date": p["through_date"].isoformat(),
            "payment_reference": p["invoice_number"],
            "note": f"Unconditional progress waiver for our payment of {dollars(p['amount'])} on "
            f"{p['invoice_number']} (work through {p['through_date']:%m/%d/%Y}), job {c.job}",
        }
        args.update(changes)
        return step("levelset.waiver_requests.create", **args)

    def _requests(self, c: Case, **changes: Any) -> list[ToolStep]:
        return [self._request(c, p, **changes) for p in c.missing]

    def _reply(self, c: Case) -> str:
        rows = "; ".join(
            f"{p['vendor_key']} {p['legal_name']} - {p['invoice_number']} {dollars(p['amount'])} through "
            f"{p['through_date']} ({_why(p)})"
            for p in c.missing
        )
        present = "; ".join(
            f"{p['vendor_key']} is on file under Levelset's {p['company_name']} ({p['company_id']})" for p in c.identity
        )
        return (
            f"Drafted {len(c.missing)} {UNCONDITIONAL} waiver request(s) in Levelset for job {c.job}, not sent: "
            f"{rows}." + (f" {present}." if present else "")
        )

    def oracle(self, c: Case, report: dict[str, Any]) -> Trajectory:
        return trajectory("oracle", [*self._reads(c), *self._requests(c)], self._reply(c), report)

    def alternatives(self, c: Case, report: dict[str, Any]) -> list[Trajectory]:
        due = (c.clock + dt.timedelta(days=10)).isoformat()
        first = c.missing[0]
        return [
            trajectory(
                "crosswalk listed, requests in reverse order with a due date, Levelset ids reported",
                [
                    step("hh2.vendor_map.list", system="levelset"),
                    step(f"{c.erp}.checks.list", date_from=c.clock.replace(day=1).isoformat(), limit=300),
                    step("levelset.waiver_requests.list", job_id=c.levelset_job),
                    *reversed(self._requests(c, due_date=due, note=None)),
                ],
                "Requests drafted, nothing sent.",
                {"vendor_ids": sorted({p["company_id"] for p in c.missing})},
            ),
            trajectory(
                "by company, amounts as numbers, no payment reference, ERP vendor ids reported",
                [
                    *(step("levelset.companies.list", company_id=p["company_id"]) for p in c.missing),
                    *(
                        step("levelset.waivers.list", company_id=p["company_id"], job_id=c.levelset_job)
                        for p in c.missing
                    ),
                    *(
                        with_args(self._request(c, p), amount=float(Decimal(p["amount"])), payment_reference=None)
                        for p in c.missing
                    ),
                ],
                "Done; drafts only.",
                {"vendor_ids": ", ".join(sorted({p["erp_vendor_id"] for p in c.missing}))},
            ),
            trajectory(
                "a request through today drafted by mistake, cancelled, then the right ones",
                [
                    *self._reads(c),
                    self._request(c, first, through_date=c.clock.isoformat()),
                    step(
                        "levelset.waiver_requests.cancel",
                        request_id=result_of("levelset.waiver_requests.create", "request.request_id"),
                    ),
                    *self._requests(c),
                ],
                self._reply(c),
                {"vendor_ids": sorted({p["legal_name"] for p in c.missing})},
            ),
        ]

    def mutants(self, c: Case, report: dict[str, Any]) -> list[Trajectory]:
        reads, reqs, ids = self._reads(c), self._requests(c), report["vendor_ids"]
        out: list[Trajectory] = []
        for p in c.identity[:1]:
            out.append(
                mutant(
                    "lookalike",
                    f"{p['vendor_key']} judged missing: Levelset searched by the ERP's name, not through the crosswalk",
                    [*reads, *reqs, self._request(c, p)],
                    "Drafted.",
                    {"vendor_ids": sorted([*ids, p["vendor_key"]])},
                )
            )
        judged: list[tuple[str, str, MutantClass]] = [
            ("short", "an unconditional waiver for less than the payment taken as covering it", "careless"),
            ("conditional", "the conditional waiver signed before payment taken for the unconditional", "stale"),
        ]
        for what, label, cls in judged:
            for p in c.kind(what)[:1]:
                left = [q for q in c.missing if q is not p]
                out.append(
                    mutant(
                        cls,
                        f"{p['vendor_key']} {p['invoice_number']}: {label}",
                        [*reads, *(self._request(c, q) for q in left)],
                        "Drafted.",
                        {"vendor_ids": sorted({q["vendor_key"] for q in left}) or ["V0000"]},
                    )
                )
        for p in c.kind("short")[:1]:
            diff = Decimal(p["amount"]) - Decimal(p["unconditional_amount"])
            out.append(
                mutant(
                    "careless",
                    f"{p['vendor_key']}'s request for the shortfall {dollars(diff)} only, not the payment",
                    [
                        *reads,
                        *(
                            self._request(c, q, amount=money_str(diff)) if q is p else self._request(c, q)
                            for q in c.missing
                        ),
                    ],
                    "Drafted.",
                    report,
                )
            )
        out += [
            mutant(
                "careless",
                "conditional progress waivers requested instead of unconditional ones",
                [*reads, *self._requests(c, waiver_type="Conditional Progress")],
                "Drafted.",
                report,
            ),
            mutant(
                "careless",
                "final waivers requested for progress payments",
                [*reads, *self._requests(c, waiver_type="Unconditional Final")],
                "Drafted.",
                report,
            ),
            mutant(
                "stale",
                f"through today ({c.clock}) instead of the pay request's period end",
                [*reads, *self._requests(c, through_date=c.clock.isoformat())],
                "Drafted.",
                report,
            ),
        ]
        gross = [p for p in c.missing if Decimal(p["gross_amount"]) != Decimal(p["amount"])]
        if gross:
            out.append(
                mutant(
                    "careless",
                    "the pay requests' gross (before retainage) requested instead of the amount paid",
                    [
                        *reads,
                        *(
                            self._request(c, p, amount=money_str(p["gross_amount"]))
                            if p in gross
                            else self._request(c, p)
                            for p in c.missing
                        ),
                    ],
                    "Drafted.",
                    report,
                )
            )
        if len(c.missing) > 1:
            out.append(
                mutant(
                    "careless",
                    f"{c.missing[-1]['vendor_key']} {c.missing[-1]['invoice_number']} left out",
                    [*reads, *reqs[:-1]],
                    "Drafted.",
                    {"vendor_ids": sorted({p["vendor_key"] for p in c.missing[:-1]})},
                )
            )
        plain = next((p for p in c.covered_vendors if not p["respelled"]), None)
        if plain is not None:
            out.append(
                mutant(
                    "lookalike",
                    f"a request to {plain['vendor_key']}, whose waiver for {plain['invoice_number']} is on file",
                    [*reads, *reqs, self._request(c, plain)],
                    "Drafted.",
                    {"vendor_ids": sorted([*ids, plain["vendor_key"]])},
                )
            )
        out += [
            mutant(
                "contradicting_report",
                "the right drafts, reported without one vendor",
                [*reads, *reqs],
                "Drafted.",
                {"vendor_ids": ids[1:] or ["V0000"]},
            ),
            mutant("shortcut", "nothing drafted, the list reported", reads, "Listed.", report),
        ]
        return out


def _why(p: dict[str, Any]) -> str:
    if p["missing"] == "short":
        return f"the unconditional waiver on file is for {dollars(p['unconditional_amount'])} only"
    if p["missing"] == "conditional":
        return "only the conditional waiver is on file"
    return "no unconditional waiver on file"


FAMILIES = [RLienWaiverAudit]
