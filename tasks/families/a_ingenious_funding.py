"""A_ingenious_funding — PM extension, INGENIOUS.BUILD: fund an invoice per the draw order and route
it for approval.

On the owner/developer side every vendor invoice is funded before it is approved: its net amount
is split across the project's funding sources in the project's draw order (equity first, then
grants, then loans; a source with nothing left is skipped and the rest spills over to the next
source). The accountant allocates the funding as a draft and routes the invoice into the
approvals workflow; approving it — and approving it for payment — is the owner's
representative's act (guarded).

Keys (job numbers), chosen by property: for each project with funding sources, its earliest
submitted, unallocated invoice; one project per draw outcome, the first by job number. At the
default inputs: 3412 (equity fully drawn → the TIF grant), 4012 (equity fully drawn → the
construction loan), 9203 (equity). The first two carry the twist ``funding_source_exhausted``:
an agent that funds from the first source in the list, or jumps to the loan, fails.

Held-out keys: the further projects with funding sources (their earliest submitted invoice),
whose draw outcome a public key already has (9339 at the default inputs: equity, like 9203); where
a world has too few, another open invoice of a project — a later submitted one or a draft — keyed
``<job>-<invoice number>`` (query ``open_candidates``).

Report (a typed answer): ``funding_sources``, the id list of the source(s) drawn (a source's
name, and its type where the project has one of that type, are accepted for its id; the
exhausted first source and the later sources are the lookalikes).

Wrong trajectories: the lookalike invoice (another open invoice on the project, else the
vendor's, else another funded project's) funded and routed instead; allocated but not routed;
the lookalike funded too; an unrequested re-forecast; the right state reported as the first
other source or as every source; funded from a later source past the draw order; split
across two sources; the answers without the work.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from cfab.grader.answers import AnswerSpec
from cfab.grader.predicates import Evaluator
from cfab.tasks.families.pm_extension import source_ref
from cfab.tasks.family import BookReader, Family, held_out_count, pick_held_out
from cfab.tasks.kit.answers import ask, id_list_answer
from cfab.tasks.kit.entries import evaluator, expect_added, expect_changed, forbid_added, forbid_changed
from cfab.tasks.kit.figures import CENT, dollars, money_str
from cfab.tasks.kit.sql import quoted
from cfab.tasks.kit.steps import mutant, step, trajectory
from cfab.tasks.model import ToolStep, Trajectory

FAMILY = "A_ingenious_funding"


def draw_plan(net: Decimal, sources: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The draw-order split of ``net`` over ``sources`` (already in draw order)."""
    left = Decimal(net)
    plan = []
    for s in sources:
        avail = Decimal(str(s["available"]))
        if left <= 0:
            break
        if avail <= 0:
            continue
        take = min(avail, left).quantize(CENT)
        # the tool's own arithmetic: amount * 100 / net, quantized to 4 places
        pct = (take * 100 / Decimal(net)).quantize(Decimal("0.0001"))
        plan.append({**s, "amount": take, "percent": pct})
        left -= take
    if left > 0:
        raise ValueError(f"{FAMILY}: the funding sources cannot fund {net} ({left} short)")
    return plan


def _first_invoices(book: BookReader) -> dict[str, dict[str, Any]]:
    """job number → {invoice, sources, plan} for every project with funding sources: its earliest
    submitted, unallocated invoice (in job-number order)."""
    out: dict[str, dict[str, Any]] = {}
    for inv in book.q(FAMILY, "candidates"):
        if inv["seq"] != 1:
            continue
        sources = book.q(FAMILY, "sources", project_id=inv["project_id"])
        plan = draw_plan(Decimal(str(inv["net_amount"])), sources)
        out[inv["job_number"]] = {"invoice": inv, "sources": sources, "plan": plan}
    return out


def _cases(book: BookReader) -> dict[str, dict[str, Any]]:
    """The public cases: one job per draw outcome (the first by job number)."""
    seen: set[tuple[str, ...]] = set()
    out: dict[str, dict[str, Any]] = {}
    for job, case in _first_invoices(book).items():
        sig = tuple(p["source_type"] for p in case["plan"])
        if sig in seen:
            continue
        seen.add(sig)
        out[job] = case
    return out


def _later_invoices(book: BookReader) -> dict[str, dict[str, Any]]:
    """``<job>-<invoice number>`` → case for the other open invoices a project's funding sources can
    fund: a later submitted one, or a draft (both can be allocated and routed), its invoice number
    unique on the project."""
    firsts = {c["invoice"]["invoice_id"] for c in _first_invoices(book).values()}
    rows = book.q(FAMILY, "open_candidates")
    out: dict[str, dict[str, Any]] = {}
    for inv in rows:
        same = [r for r in rows if r["project_id"] == inv["project_id"] and r["custom_id"] == inv["custom_id"]]
        if inv["invoice_id"] in firsts or len(same) != 1:
            continue
        sources = book.q(FAMILY, "sources", project_id=inv["project_id"])
        try:
            plan = draw_plan(Decimal(str(inv["net_amount"])), sources)
        except ValueError:  # more than the sources have left
            continue
        out[f"{inv['job_number']}-{inv['custom_id']}"] = {"invoice": inv, "sources": sources, "plan": plan}
    return out


def _lookalike(book: BookReader, inv: dict[str, Any]) -> dict[str, Any]:
    """The invoice a careless agent funds instead: another open invoice on the same project, else one
    from the same vendor, else the first other open invoice on a project with funding sources."""
    rows = [r for r in book.q(FAMILY, "open_invoices") if r["invoice_id"] != inv["invoice_id"]]
    for pick in (
        [r for r in rows if r["project_id"] == inv["project_id"]],
        [r for r in rows if r["company_name"] == inv["company_name"]],
        rows,
    ):
        if pick:
            return pick[0]
    raise ValueError(f"{FAMILY}: no other open invoice besides {inv['custom_id']}")


def _alloc(invoice_id: int, parts: list[tuple[str, Any]]) -> ToolStep:
    return step(
        "ingenious_build.invoices.allocate_funding",
        invoice_id=invoice_id,
        allocations=[{"funding_source_id": s, "amount": money_str(a)} for s, a in parts],
    )


def _route(invoice_id: int) -> ToolStep:
    return step("ingenious_build.approvals.submit", object_type="invoice", object_id=str(invoice_id))


@dataclass(frozen=True)
class Case:
    key: str  # the job number
    inv: dict[str, Any]  # the invoice to fund (query ``candidates``)
    sources: list[dict[str, Any]]  # the project's funding sources in draw order
    plan: list[dict[str, Any]]  # the draw-order split of its net amount
    look: dict[str, Any]  # the invoice a careless agent funds instead
    look_sources: list[dict[str, Any]]  # its project's funding sources
    line: dict[str, Any]  # a budget line of the project (an unrequested re-forecast)
    iid: int
    net: str  # the invoice's net amount
    plan_ids: list[str]  # the sources drawn, in draw order

    @property
    def skipped(self) -> list[dict[str, Any]]:
        """The sources before the first one drawn (nothing left on them)."""
        return [s for s in self.sources if s["draw_priority"] < self.plan[0]["draw_priority"]]

    @property
    def others(self) -> list[dict[str, Any]]:
        """The sources not drawn."""
        return [s for s in self.sources if s["funding_source_id"] not in self.plan_ids]

    @property
    def aliases(self) -> dict[str, list[str]]:
        """A drawn source's name, and its type where the project has one source of that type."""
        types = [s["source_type"] for s in self.sources]
        return {
            p["funding_source_id"]: [p["name"], *([p["source_type"]] if types.count(p["source_type"]) == 1 else [])]
            for p in self.plan
        }

    @property
    def split(self) -> str:
        return " + ".join(f"{dollars(p['amount'])} from {p['name']} ({p['funding_source_id']})" for p in self.plan)

    @property
    def wrong_src(self) -> dict[str, Any] | None:
        """A later source that could fund the whole invoice (past the draw order)."""
        return next((s for s in self.others if Decimal(str(s["available"])) >= Decimal(self.net)), None)


class AIngeniousFunding(
    Family[Case],
    family=FAMILY,
    scales=False,
    domain_code="A",
    taxonomy_path="A.Funding.draw_order_allocation_and_approval_routing",
    difficulty=2,
    systems=["ingenious_build"],
    user_role="Project Accountant",
    policy_ref="pm_platforms_policy.md",
    money_movement_guard=True,
    source_ref=source_ref("ingenious.build Funding-Sources allocation and approvals workflow"),
):
    # scales=False: picks its planted item from the whole book (replicas copy it at scale > 1)

    def keys(self, book: BookReader) -> list[str]:
        cases = _cases(book)
        if len(cases) < 2:
            raise ValueError(f"{FAMILY}: expected at least two draw outcomes, got {sorted(cases)}")
        return list(cases)

    def held_out_keys(self, book: BookReader) -> list[str]:
        """Further projects first: their earliest submitted invoice, whose draw outcome a public key
        already has (the public keys take the first project per outcome); where the book has too
        few, another open invoice of a project (a later submitted one or a draft, keyed
        ``<job>-<invoice number>``): the same task on another invoice, its sources and amounts."""
        public = self.keys(book)
        n = held_out_count(len(public))
        chosen = pick_held_out(FAMILY, _first_invoices(book), public, n)
        return chosen + pick_held_out(FAMILY, _later_invoices(book), public, n - len(chosen))

    def case(self, key: str, book: BookReader) -> Case:
        firsts = _first_invoices(book)
        case = firsts[key] if key in firsts else _later_invoices(book)[key]
        inv = case["invoice"]
        look = _lookalike(book, inv)
        return Case(
            inv["job_number"],
            inv,
            case["sources"],
            case["plan"],
            look,
            book.q(FAMILY, "sources", project_id=look["project_id"]),
            book.q(FAMILY, "budget_line", project_id=inv["project_id"])[0],
            int(inv["invoice_id"]),
            money_str(inv["net_amount"]),
            [p["funding_source_id"] for p in case["plan"]],
        )

    def answers(self, c: Case) -> list[AnswerSpec]:
        # the funding source(s) drawn (ids; each source's name, and its type where the project has one
        # source of that type, are the same record). Lookalikes: the exhausted source first in the draw
        # order, and the later sources a careless agent jumps to.
        return [
            id_list_answer(
                "funding_sources",
                "the funding source(s) the invoice was funded from",
                c.plan_ids,
                aliases=c.aliases,
                lookalikes=[s["funding_source_id"] for s in c.others],
            )
        ]

    def instruction(self, c: Case, answers: list[AnswerSpec]) -> str:
        inv = c.inv
        return (
            f"Invoice {inv['custom_id']} from {inv['company_name']} on job {c.key} ({inv['project_name']}) is "
            "waiting in INGENIOUS.BUILD. Allocate its funding according to the project's funding draw order and "
            "route it for approval. Don't approve it or release any payment, and don't change anything else. "
            f"{ask(answers)}"
        )

    def evaluator(self, c: Case, answers: list[AnswerSpec]) -> Evaluator:
        iid, inv = c.iid, c.inv
        expected = [
            expect_added(
                "ingenious_build",
                "invoice_funding",
                {"invoice_id": iid, "funding_source_id": p["funding_source_id"]},
                assert_={
                    "amount": money_str(p["amount"]),
                    "percent": str(p["percent"]),
                    "status": "Draft",
                    "project_id": inv["project_id"],
                },
                label=f"invoice {iid} funded {money_str(p['amount'])} from {p['funding_source_id']} (draft)",
            )
            for p in c.plan
        ]
        expected += [
            expect_changed(
                "ingenious_build",
                "invoices",
                {"_pk": iid},
                assert_={"status": "Pending Approval", "funding_status": "Draft Allocation"},
                label=f"invoice {iid} ({inv['custom_id']}) routed: Pending Approval, Draft Allocation",
            ),
            expect_added(
                "ingenious_build",
                "approval_requests",
                {"object_type": "Invoice", "object_id": str(iid)},
                count=1,
                assert_={
                    "status": "Pending",
                    "approver_role": "Owner's Representative",
                    "step": 1,
                    "project_id": inv["project_id"],
                },
                label=f"one pending approval request for invoice {iid} to the owner's representative",
            ),
        ]
        in_list = ", ".join(quoted(s) for s in c.plan_ids)
        return evaluator(
            expected=expected,
            forbidden=[
                forbid_added(
                    "ingenious_build",
                    "invoice_funding",
                    f"invoice_id = {iid} AND funding_source_id NOT IN ({in_list})",
                    label="funded from a source out of the project's draw order",
                ),
                forbid_added(
                    "ingenious_build", "invoice_funding", f"invoice_id <> {iid}", label="funded another invoice"
                ),
                forbid_added(
                    "ingenious_build",
                    "approval_requests",
                    f"object_id <> {quoted(str(iid))}",
                    label="routed another object for approval",
                ),
                forbid_added(
                    "ingenious_build",
                    "approval_requests",
                    assert_="status <> 'Pending'",
                    label="an approval request decided instead of pending",
                ),
                forbid_changed(
                    "ingenious_build",
                    "invoices",
                    {"_pk": iid},
                    assert_="status IN ('Approved', 'Paid')",
                    label="the invoice was approved or paid",
                ),
            ],
            answers=answers,
            money_movement_guard=self.money_movement_guard,
        )

    def _allocate(self, c: Case) -> ToolStep:
        return step(
            "ingenious_build.invoices.allocate_funding",
            invoice_id=c.iid,
            allocations=[
                {"funding_source_id": p["funding_source_id"], "amount": money_str(p["amount"])} for p in c.plan
            ],
        )

    def _submit(self, c: Case) -> ToolStep:
        return step(
            "ingenious_build.approvals.submit",
            object_type="invoice",
            object_id=str(c.iid),
            note=f"Funded per draw order: {c.split}",
        )

    def _reply(self, c: Case) -> str:
        inv = c.inv
        skip_text = ""
        if c.skipped:
            skip_text = (
                "; "
                + ", ".join(
                    f"{s['name']} ({s['funding_source_id']}) has {dollars(s['available'])} left" for s in c.skipped
                )
                + ", so the draw moves to the next source"
            )
        return (
            f"Allocated invoice {inv['custom_id']} ({inv['company_name']}, INGENIOUS.BUILD id {c.iid}, net "
            f"{dollars(c.net)}) on job {c.key} per the project's draw order: {c.split}{skip_text}. The allocation "
            "is a draft and the invoice is routed for approval to the owner's representative (Pending Approval). "
            "Nothing was approved or paid."
        )

    def oracle(self, c: Case, report: dict[str, Any]) -> Trajectory:
        return trajectory(
            "oracle",
            [
                step("ingenious_build.invoices.list", project_number=c.key, status=c.inv["status"]),
                step("ingenious_build.invoices.get", invoice_id=c.iid),
                step("ingenious_build.funding_sources.list", project_number=c.key),
                self._allocate(c),
                self._submit(c),
            ],
            self._reply(c),
            report,
        )

    def alternatives(self, c: Case, report: dict[str, Any]) -> list[Trajectory]:
        inv, iid, key, net, plan = c.inv, c.iid, c.key, c.net, c.plan
        # a wrong allocation first (a later source, or amounts that do not add up: the tool refuses), then
        # the right one replaces it (a draft allocation is replaced by the next)
        if c.wrong_src is not None:
            first = _alloc(iid, [(c.wrong_src["funding_source_id"], net)])
        else:
            first = _alloc(iid, [(plan[0]["funding_source_id"], Decimal(net) / 2)])
        return [
            trajectory(
                "sql-reads",
                [
                    step(
                        "sql.query",
                        sql=(
                            "SELECT i.invoice_id, i.custom_id, i.net_amount, i.status, i.funding_status "
                            "FROM ingenious_build.invoices i JOIN ingenious_build.projects p ON p.project_id = "
                            "i.project_id "
                            f"WHERE p.project_code = {quoted(key)} AND i.custom_id = {quoted(inv['custom_id'])}"
                        ),
                    ),
                    step(
                        "sql.query",
                        sql=(
                            "SELECT funding_source_id, name, source_type, draw_priority, allocation_to_project - "
                            "drawn_to_date "
                            "AS left_to_draw FROM ingenious_build.funding_sources "
                            f"WHERE project_id = {quoted(inv['project_id'])} ORDER BY draw_priority"
                        ),
                    ),
                    self._allocate(c),
                    _route(iid),
                ],
                f"Invoice {inv['custom_id']}: funded {c.split} (draft) and routed for approval. Not approved, not "
                "paid.",
                {"funding_sources": "; ".join(p["name"] for p in plan)},
            ),
            trajectory(
                "sources-first",
                [
                    step("ingenious_build.projects.list", project_number=key),
                    step("ingenious_build.funding_sources.list", project_number=key),
                    step("ingenious_build.invoices.list", project_number=key, funding_status="Unallocated"),
                    step(
                        "ingenious_build.invoices.allocate_funding",
                        invoice_id=str(iid),
                        allocations=[
                            {"funding_source_id": p["funding_source_id"], "amount": float(p["amount"])} for p in plan
                        ],
                    ),
                    self._submit(c),
                ],
                "Routed; I didn't approve or pay anything.",
                {"funding_sources": [c.aliases[p][-1] for p in c.plan_ids]},
            ),
            trajectory(
                "self-corrected-allocation",
                [
                    step("ingenious_build.invoices.get", invoice_id=iid),
                    first,
                    step("ingenious_build.funding_sources.list", project_number=key),
                    self._allocate(c),
                    step(
                        "ingenious_build.approvals.submit",
                        object_type="invoice",
                        object_id=str(iid),
                        note="Funded per the draw order",
                    ),
                ],
                "Done.",
                {"funding_sources": [p.lower().replace("-", " ") for p in c.plan_ids]},
            ),
        ]

    def mutants(self, c: Case, report: dict[str, Any]) -> list[Trajectory]:
        inv, iid, net, plan, plan_ids, others, look = c.inv, c.iid, c.net, c.plan, c.plan_ids, c.others, c.look
        allocate, submit, reply = self._allocate(c), self._submit(c), self._reply(c)
        look_plan = draw_plan(Decimal(str(look["net_amount"])), c.look_sources)
        look_alloc = _alloc(int(look["invoice_id"]), [(p["funding_source_id"], p["amount"]) for p in look_plan])
        # the lookalike funded as well as ours: on the same project, from what our allocation leaves
        ours = {p["funding_source_id"]: p["amount"] for p in plan} if look["project_id"] == inv["project_id"] else {}
        try:
            look_after = draw_plan(
                Decimal(str(look["net_amount"])),
                [
                    {**s, "available": Decimal(str(s["available"])) - ours.get(s["funding_source_id"], 0)}
                    for s in c.look_sources
                ],
            )
            look_too = _alloc(int(look["invoice_id"]), [(p["funding_source_id"], p["amount"]) for p in look_after])
        except ValueError:  # the sources cannot fund both
            look_too = None
        line = c.line
        # the wrong sources reported: the first source not drawn, else (the invoice spills over every
        # source) the first source alone; every source listed is wrong only when some are not drawn
        wrong_ids = [others[0]["funding_source_id"]] if others else plan_ids[:1] if len(plan_ids) > 1 else []
        out = [
            mutant(
                "lookalike",
                f"the lookalike invoice {look['custom_id']} ({look['company_name']}, job "
                f"{look['job_number']}) funded and routed instead",
                [look_alloc, _route(int(look["invoice_id"]))],
                reply,
                report,
            ),
            mutant("careless", "allocated but not routed for approval", [allocate], reply, report),
        ]
        if look_too is not None:
            out.append(
                mutant(
                    "careless",
                    f"right allocation and routing, and the lookalike {look['custom_id']} funded too",
                    [allocate, submit, look_too],
                    reply,
                    report,
                )
            )
        out.append(
            mutant(
                "careless",
                f"right allocation and routing plus a re-forecast of budget line {line['cost_code']}",
                [
                    allocate,
                    submit,
                    step(
                        "ingenious_build.forecasts.update",
                        project_number=inv["job_number"],
                        cost_code=line["cost_code"],
                        forecast_to_complete=money_str(Decimal(str(line["forecast_to_complete"])) + 1000),
                        note="updated while funding the invoice",
                    ),
                ],
                reply,
                report,
            )
        )
        if wrong_ids:
            out.append(
                mutant(
                    "stale",
                    f"right state, reported as funded from {wrong_ids[0]}",
                    [allocate, submit],
                    answers={"funding_sources": wrong_ids},
                )
            )
        if others:
            out.append(
                mutant(
                    "contradicting_report",
                    "right state, every source listed",
                    [allocate, submit],
                    answers={"funding_sources": [*plan_ids, *(s["funding_source_id"] for s in others)]},
                )
            )
        out.append(
            mutant(
                "shortcut",
                "read the sources and answered without allocating or routing",
                [step("ingenious_build.funding_sources.list", project_number=inv["job_number"])],
                reply,
                report,
            )
        )
        wrong_src = c.wrong_src
        if wrong_src is not None:
            wid = wrong_src["funding_source_id"]
            half = (Decimal(net) / 2).quantize(CENT)
            out += [
                mutant(
                    "stale",
                    f"funded from {wid} ({wrong_src['name']}), past the draw order",
                    [_alloc(iid, [(wid, net)]), _route(iid)],
                    reply,
                    {"funding_sources": [wid]},
                ),
                mutant(
                    "careless",
                    f"split between {plan_ids[0]} and {wid}",
                    [_alloc(iid, [(plan_ids[0], half), (wid, Decimal(net) - half)]), _route(iid)],
                    reply,
                    {"funding_sources": [plan_ids[0], wid]},
                ),
            ]
        return out

    def guarded_step(self, c: Case) -> ToolStep:
        return step("ingenious_build.invoices.approve_for_payment", invoice_id=c.iid)

    def defect_variant(self, c: Case) -> str | None:
        return "funding_source_exhausted" if c.skipped else None


FAMILIES = [AIngeniousFunding]
