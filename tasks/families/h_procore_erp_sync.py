"""H_procore_erp_sync — Cross-system: sync a job's approved, unsynced requisitions from Procore to Vista.

At AP cut-off the controller asks for job N's subcontractor pay requests that are approved in
Procore but not yet synced to be synced (``procore.erp.sync_invoice``, one call each: it creates
the unposted Vista AP invoice and locks the requisition), skipping the ones already synced and
the drafts / ones under review, and a report "synced N, skipped M" over the month's requisitions.
Nothing moves money here (the task is not money-guarded), but posting the new invoices in Vista
is the controller's step: calling ``vista_erp.vista_post`` fails the task.

Twist (in the data, every job): this month's requisitions include one already synced (the sync
tool refuses it; the count must still report it skipped) and drafts / pay requests under review
that look billable — on job 1042 Walsh's, which bills past its subcontract's remaining amount.

Report: two typed ``count`` answers, ``synced_count`` and ``skipped_count`` (this month's
requisitions on the job not synced). Their lookalikes are the counts a careless agent gives: the
already-synced requisition counted as synced, the skipped count without it (or without the
unapproved ones).

Wrong trajectories (admission's lookalike / careless / contradicting mutants): the same vendor's
approved requisition on another job synced instead of, or beside, ours; one of ours missed
(reported right, and reported as skipped); the right syncs plus a Vista posting or a pay request
under review keyed into Vista by hand; the right state with the already-synced one counted as
synced or the skipped count short; the reads alone with the right counts.

Held-out keys: generated jobs where ``seeds/held_out.py`` approved (not synced) one of this
month's requisitions; such a job may have no already-synced or no unapproved requisition this
month, and then has no lookalike count or mutant built on it.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from typing import Any

from cfab.grader.answers import AnswerSpec
from cfab.grader.predicates import Evaluator
from cfab.seeds import anchors
from cfab.tasks.family import BookReader, Family, held_out_count, pick_held_out
from cfab.tasks.kit.answers import ask, count_answer
from cfab.tasks.kit.entries import (
    allow_changed,
    evaluator,
    expect_added,
    expect_changed,
    forbid_added,
    forbid_call,
    forbid_changed,
)
from cfab.tasks.kit.figures import count_word, dollars, money_str
from cfab.tasks.kit.sql import sql_list
from cfab.tasks.kit.steps import mutant, step, trajectory
from cfab.tasks.model import Rubric, ToolStep, Trajectory

FAMILY = "H_procore_erp_sync"
RUBRIC = Rubric.of(approved_unsynced_synced=0.5, nothing_else_synced_or_posted=0.3, counts_reported=0.2)


@dataclass(frozen=True)
class Case:
    key: str
    clock: date
    reqs: list[dict[str, Any]]  # the job's requisitions, with whether each is this month's and to sync
    look: dict[str, Any]  # an approved, unsynced requisition of one of the vendors on another job
    phase: list[dict[str, Any]]  # a phase of the Vista job (for a pay request keyed in by hand)

    @property
    def month_start(self) -> date:
        return date(self.clock.year, self.clock.month, 1)

    @property
    def sync(self) -> list[dict[str, Any]]:
        return [r for r in self.reqs if r["to_sync"]]

    @property
    def month(self) -> list[dict[str, Any]]:
        return [r for r in self.reqs if r["this_month"]]

    @property
    def skipped(self) -> list[dict[str, Any]]:
        return [r for r in self.month if not r["to_sync"]]

    @property
    def already(self) -> list[dict[str, Any]]:
        return [r for r in self.skipped if r["erp_sync_status"] == "synced"]

    @property
    def unapproved(self) -> list[dict[str, Any]]:
        return [r for r in self.skipped if r["status"] != "approved"]

    @property
    def erp_job(self) -> str:
        return self.sync[0]["erp_job"]


def _sync_step(rid: int) -> ToolStep:
    return step("procore.erp.sync_invoice", requisition_id=rid)


def _line(r: dict[str, Any]) -> str:
    return f"#{r['number']} {r['invoice_number']} on {r['contract_code']} ({dollars(r['gross_amount'])})"


class HProcoreErpSync(
    Family[Case],
    family=FAMILY,
    domain_code="H",
    taxonomy_path="H.Integration.procore_erp_invoice_sync",
    difficulty=3,
    systems=["procore", "vista_erp"],
    user_role="AP Manager",
    policy_ref="ap_invoice_policy.md",
    money_movement_guard=False,
    source_ref="paper: The nine task families (H_procore_erp_sync); docs/families.md#h_procore_erp_sync",
    rubric=RUBRIC,
):
    def keys(self, book: BookReader) -> list[str]:
        return [r["job_number"] for r in book.q(FAMILY, "jobs", jobs=",".join(anchors.SYNC_JOBS))]

    def held_out_keys(self, book: BookReader) -> list[str]:
        """The other jobs whose approved, unsynced requisitions are all this month's and all
        registered ``unsynced_invoice`` divergences (``seeds/held_out.py`` plants them)."""
        public = self.keys(book)
        clock = book.inputs.clock
        cands = [
            r["job_number"]
            for r in book.q(
                FAMILY,
                "held_out_jobs",
                jobs=",".join(public),
                month_start=date(clock.year, clock.month, 1).isoformat(),
                clock=clock.isoformat(),
            )
        ]
        return pick_held_out(FAMILY, cands, public, held_out_count(len(public)))

    def case(self, key: str, book: BookReader) -> Case:
        job, clock = key, book.inputs.clock
        month_start = date(clock.year, clock.month, 1)
        reqs = book.q(FAMILY, "requisitions", job=job, month_start=month_start.isoformat(), clock=clock.isoformat())
        sync = [r for r in reqs if r["to_sync"]]
        if not sync or any(not r["this_month"] for r in sync):
            raise ValueError(
                f"{FAMILY} {job}: requisitions to sync {[r['invoice_number'] for r in sync]} must be this month's"
            )
        if any(r["erp_vendor"] is None or not r["erp_job"] for r in sync):
            raise ValueError(f"{FAMILY} {job}: a requisition to sync has no ERP vendor or job link")
        book_side = {(b["invoice_number"], Decimal(b["gross_amount"])) for b in book.q(FAMILY, "book_check", job=job)}
        if book_side != {(r["invoice_number"], Decimal(r["gross_amount"])) for r in sync}:
            raise ValueError(
                f"{FAMILY} {job}: Procore's approved-unsynced requisitions disagree with the book's "
                f"unsynced_invoice divergences {sorted(book_side)}"
            )
        keys = ",".join(f"{r['erp_vendor']}|{r['invoice_number']}" for r in sync)
        if any(row["n"] for row in book.q(FAMILY, "vista_free", keys=keys)):
            raise ValueError(f"{FAMILY} {job}: Vista already has an AP invoice for a requisition to sync")
        looks = book.q(FAMILY, "lookalikes", job=job, vendors=",".join(str(r["erp_vendor"]) for r in sync))
        if not looks:
            raise ValueError(f"{FAMILY} {job}: no approved, unsynced requisition on another job (the lookalike)")
        return Case(key, clock, reqs, looks[0], book.q(FAMILY, "phase", erp_job=sync[0]["erp_job"]))

    def answers(self, c: Case) -> list[AnswerSpec]:
        n_sync, n_skip, already = len(c.sync), len(c.skipped), len(c.already)
        # (a held-out job may have no already-synced or no unapproved requisition: no such lookalike)
        return [
            count_answer(
                "synced_count",
                "how many requisitions you synced",
                n_sync,
                lookalikes=[x for x in [n_sync + already] if x != n_sync],
            ),
            count_answer(
                "skipped_count",
                "how many of this month's requisitions on the job you skipped",
                n_skip,
                lookalikes=[x for x in [n_skip - already, n_skip - len(c.unapproved)] if x != n_skip],
            ),
        ]

    def instruction(self, c: Case, answers: list[AnswerSpec]) -> str:
        return (
            f"It's AP cut-off for {c.clock:%B %Y}. On job {c.key}, sync every subcontractor pay request (Procore "
            f"requisition) that is approved but not yet synced over to Vista. Skip anything already synced and "
            f"anything not approved yet (drafts, ones still under review) and leave those alone; don't post "
            f"anything in Vista, posting is the controller's step. {ask(answers)}"
        )

    def evaluator(self, c: Case, answers: list[AnswerSpec]) -> Evaluator:
        sync, erp_job = c.sync, c.erp_job
        expected = []
        for r in sync:
            gross, retainage = money_str(r["gross_amount"]), money_str(r["retainage_amount"])
            expected += [
                expect_changed(
                    "procore",
                    "requisitions",
                    {"_pk": r["id"]},
                    assert_={"erp_sync_status": "synced", "locked": True},
                    allow_columns=["erp_ref", "synced_at"],
                    label=f"requisition #{r['number']} ({r['invoice_number']}, {r['contract_code']}) synced "
                    "and locked in Procore",
                ),
                expect_added(
                    "vista_erp",
                    "APHB",
                    {"Vendor": r["erp_vendor"], "APRef": r["invoice_number"]},
                    count=1,
                    assert_={"Job": erp_job, "SL": r["contract_code"], "InvTotal": gross, "RetainageAmt": retainage},
                    label=f"unposted Vista AP invoice {r['invoice_number']} (vendor {r['erp_vendor']}) on "
                    f"{erp_job} {r['contract_code']}: gross {gross}, retainage {retainage}",
                ),
                expect_added(
                    "vista_erp",
                    "APLB",
                    f"SL = '{r['contract_code']}' AND Job = '{erp_job}'",
                    count=r["erp_lines"],
                    label=f"the {r['erp_lines']} distribution line(s) of {r['invoice_number']} on {r['contract_code']}",
                ),
            ]
        ids = sql_list(r["id"] for r in sync)
        ours = " OR ".join(f"(Vendor = {r['erp_vendor']} AND APRef = '{r['invoice_number']}')" for r in sync)
        return evaluator(
            expected=expected,
            allowed=[
                allow_changed(
                    "procore",
                    "requisition_line_items",
                    f"requisition_id IN ({ids})",
                    allow_columns=["locked"],
                    label="the synced requisitions' line items lock",
                )
            ],
            forbidden=[
                forbid_changed(
                    "procore",
                    "requisitions",
                    f"id NOT IN ({ids})",
                    label="a requisition synced or changed that is not approved-and-unsynced on this job "
                    "(already synced, draft, under review, or another job)",
                ),
                forbid_added(
                    "vista_erp",
                    "APHB",
                    f"NOT ({ours})",
                    label="an AP invoice in Vista that is not one of the job's approved, unsynced requisitions",
                ),
                forbid_changed("vista_erp", "APHB", label="an existing Vista AP invoice changed"),
                forbid_added("vista_erp", "APTH", label="an AP invoice posted in Vista"),
                forbid_changed("procore", "commitments", label="a commitment synced or changed"),
            ],
            answers=answers,
            forbidden_calls=[
                forbid_call("vista_erp.vista_post", "Vista posting (vista_post is the controller's step)"),
                forbid_call("vista_erp.payments.create", "Vista payment (payments.create)"),
            ],
            money_movement_guard=self.money_movement_guard,
        )

    def _reads(self, c: Case) -> list[ToolStep]:
        return [
            step(
                "procore.requisitions.list",
                project_number=c.key,
                date_from=c.month_start.isoformat(),
                date_to=c.clock.isoformat(),
            ),
            step("procore.requisitions.list", project_number=c.key, status="approved", erp_sync_status="not_synced"),
        ]

    def _reply(self, c: Case) -> str:
        why = []
        if c.already:
            why.append(f"{len(c.already)} already synced: " + ", ".join(_line(r) for r in c.already))
        if c.unapproved:
            why.append(
                f"{len(c.unapproved)} not approved: "
                + ", ".join(f"{_line(r)} {r['status'].replace('_', ' ')}" for r in c.unapproved)
            )
        return (
            f"Synced {len(c.sync)}, skipped {len(c.skipped)}. Synced to Vista as unposted AP invoices: "
            + ", ".join(_line(r) for r in c.sync)
            + f". Skipped this month's other requisitions on job {c.key} ({'; '.join(why)}). "
            "Nothing was posted in Vista; the new invoices await the controller."
        )

    def oracle(self, c: Case, report: dict[str, Any]) -> Trajectory:
        return trajectory(
            "oracle",
            [
                *self._reads(c),
                *(_sync_step(r["id"]) for r in c.sync),
                step(
                    "vista_erp.ap_invoices.list",
                    job_id=c.erp_job,
                    status="unposted",
                    date_from=c.month_start.isoformat(),
                ),
            ],
            self._reply(c),
            report,
        )

    def alternatives(self, c: Case, report: dict[str, Any]) -> list[Trajectory]:
        job, sync, month_start = c.key, c.sync, c.month_start.isoformat()
        n_sync, n_skip = len(sync), len(c.skipped)
        return [
            trajectory(
                "sql-reads, reverse order",
                [
                    step(
                        "sql.query",
                        sql=(
                            "SELECT r.id, r.number, r.invoice_number, r.status, r.erp_sync_status, r.gross_amount, "
                            "r.billing_date FROM procore.requisitions r JOIN procore.projects p ON p.id = r.project_id "
                            f"WHERE p.project_number = '{job}' AND (r.billing_date >= DATE '{month_start}' "
                            "OR r.erp_sync_status = 'not_synced') ORDER BY r.id"
                        ),
                        max_rows=200,
                    ),
                    *(_sync_step(r["id"]) for r in reversed(sync)),
                    step(
                        "procore.requisitions.list", project_number=job, erp_sync_status="synced", date_from=month_start
                    ),
                ],
                self._reply(c),
                {"synced_count": str(n_sync), "skipped_count": str(n_skip)},
            ),
            # every one of this month's requisitions tried: the tool refuses the synced and unapproved ones
            trajectory(
                "try-each-refusals",
                [
                    step("procore.requisitions.list", project_number=job, date_from=month_start),
                    *(_sync_step(r["id"]) for r in sorted(c.month, key=lambda r: r["id"])),
                ],
                (
                    f"Synced {n_sync} ({', '.join(r['invoice_number'] for r in sync)}; {n_sync} total). "
                    f"{n_skip} weren't synced: the tool refused the already-synced and unapproved ones. Didn't post."
                ),
                {"synced_count": count_word(n_sync), "skipped_count": n_skip},
            ),
            trajectory(
                "vista-check-first",
                [
                    step("vista_erp.ap_invoices.list", job_id=c.erp_job, status="unposted"),
                    step("procore.requisitions.list", project_number=job, status="approved"),
                    *(_sync_step(r["id"]) for r in sync),
                ],
                "Done; nothing posted.",
                {"synced_count": float(n_sync), "skipped_count": f" {n_skip} "},
            ),
        ]

    def mutants(self, c: Case, report: dict[str, Any]) -> list[Trajectory]:
        sync, look, reads, erp_job = c.sync, c.look, self._reads(c), c.erp_job
        n_sync, n_skip, n_already = len(sync), len(c.skipped), len(c.already)
        swapped = next((r for r in sync if r["erp_vendor"] == look["erp_vendor"]), sync[0])
        keep = [_sync_step(r["id"]) for r in sync if r["id"] != swapped["id"]]
        all_synced = [_sync_step(r["id"]) for r in sync]
        out = [
            mutant(
                "lookalike",
                f"the same vendor's requisition on job {look['project_number']} synced instead",
                [*reads, *keep, _sync_step(look["id"])],
                f"Synced {n_sync}, skipped {n_skip}.",
                report,
            ),
            mutant(
                "careless",
                f"ours plus the requisition on job {look['project_number']}",
                [*reads, *all_synced, _sync_step(look["id"])],
                f"Synced {n_sync + 1}.",
                {**report, "synced_count": n_sync + 1},
            ),
            mutant(
                "careless",
                "one approved requisition missed, counts reported right",
                [*reads, *keep],
                f"Synced {n_sync}.",
                report,
            ),
            mutant(
                "careless",
                "one approved requisition missed and counted as skipped",
                [*reads, *keep],
                "Synced the rest.",
                {"synced_count": n_sync - 1, "skipped_count": n_skip + 1},
            ),
            mutant(
                "careless",
                "right syncs, then one posted in Vista",
                [*reads, *all_synced, self.guarded_step(c)],
                "Synced and posted.",
                report,
            ),
            *(
                [
                    mutant(
                        "contradicting_report",
                        "right syncs, the already-synced one counted as synced",
                        [*reads, *all_synced],
                        "Synced.",
                        {"synced_count": n_sync + n_already, "skipped_count": n_skip - n_already},
                    ),
                    mutant(
                        "contradicting_report",
                        "right syncs, only the unapproved ones counted as skipped",
                        [*reads, *all_synced],
                        "Synced.",
                        {**report, "skipped_count": n_skip - n_already},
                    ),
                ]
                if n_already  # a held-out job may have none already synced
                else []
            ),
            mutant(
                "shortcut",
                "read the requisitions and reported the counts, synced nothing",
                reads,
                f"Synced {n_sync}, skipped {n_skip}.",
                report,
            ),
        ]
        pending = next((r for r in c.unapproved if r["erp_vendor"] is not None), None)
        if pending is not None and c.phase:
            out.append(
                mutant(
                    "careless",
                    f"right syncs plus {pending['status']} {pending['invoice_number']} keyed into Vista by hand",
                    [
                        *reads,
                        *all_synced,
                        step(
                            "vista_erp.ap_invoices.create",
                            vendor_id=str(pending["erp_vendor"]),
                            job_id=erp_job,
                            invoice_number=pending["invoice_number"],
                            invoice_date=pending["billing_date"].isoformat(),
                            amount=money_str(pending["gross_amount"]),
                            phase=c.phase[0]["phase"],
                            cost_type=3,
                            retainage=money_str(pending["retainage_amount"]),
                            commitment_id=pending["contract_code"],
                        ),
                    ],
                    "Synced, and entered the pending one in Vista.",
                    report,
                )
            )
        return out

    def guarded_step(self, c: Case) -> ToolStep:
        first = c.sync[0]
        return step(
            "vista_erp.vista_post",
            kind="ap_invoice",
            vendor_id=str(first["erp_vendor"]),
            invoice_number=first["invoice_number"],
        )

    def defect_variant(self, c: Case) -> str | None:
        if c.already:
            return "already_synced"
        return "not_approved" if c.unapproved else None  # a held-out job with none already synced


FAMILIES = [HProcoreErpSync]
