"""H_ingenious_vista_etc — PM extension, cross-system: the owner's estimate to complete from
INGENIOUS.BUILD into Vista's job estimate.

The owner's estimate to complete in INGENIOUS.BUILD, summed over the budget lines the contractor's
ERP carries, written to Vista's job estimate as a PENDING projection (month_end_close_policy §3,
pm_platforms_policy §5). Key: a job whose ERP estimate is stale, funded through INGENIOUS.BUILD,
preferring one with owner-only lines (``unmapped_cost_code``: the contingency line must be left out).
Careless step: post the projection. The instruction asks for no report, so there are no answers (a
terse "Done" passes).

Wrong trajectories: the neighbouring Vista job, the all-lines (contingency included) forecast,
Vista's own figure, a rounded figure, a phase estimate or the owner's forecast edited as well.

Held-out keys: the other jobs of the same query (stale ERP estimate, funded through INGENIOUS.BUILD)
whose ERP-line forecast agrees with the book's, those with owner-only lines first.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from typing import Any

from cfab.grader.answers import AnswerSpec
from cfab.grader.predicates import Evaluator
from cfab.tasks.families.pm_extension import CROSS_SOURCE_REF, pick_tiers
from cfab.tasks.family import BookReader, Family, held_out_count
from cfab.tasks.kit.entries import evaluator, expect_changed, forbid_call, forbid_changed
from cfab.tasks.kit.figures import dollars, money_str
from cfab.tasks.kit.sql import quoted
from cfab.tasks.kit.steps import mutant, step, trajectory, with_args
from cfab.tasks.model import ToolStep, Trajectory

FAMILY = "H_ingenious_vista_etc"


@dataclass(frozen=True)
class Case:
    key: str
    clock: date
    job: dict[str, Any]  # the owner's forecast, the ERP lines and Vista's estimate (query ``job``)
    other_job: str  # the neighbouring Vista job
    phase: dict[str, Any]  # the job's first Vista phase / cost type
    owner_only: list[dict[str, Any]]  # the owner-only budget lines (not in the ERP)
    vjob: str
    forecast: str  # the owner's forecast over the lines the ERP carries
    all_lines: str  # every owner line summed


def _usable(book: BookReader, job: str) -> bool:
    """Whether INGENIOUS.BUILD's ERP-line forecast for ``job`` agrees with the book's and Vista lags it."""
    rows = book.q(FAMILY, "job", job=job)
    if len(rows) != 1 or rows[0]["forecast"] is None or rows[0]["book_forecast"] is None:
        return False
    j = rows[0]
    return money_str(j["book_forecast"]) == money_str(j["forecast"]) != money_str(j["erp_estimate"])


class HIngeniousVistaEtc(
    Family[Case],
    family=FAMILY,
    domain_code="H",
    taxonomy_path="H.PMtoERP.owner_etc_to_erp_estimate",
    difficulty=3,
    systems=["ingenious_build", "vista_erp", "hh2"],
    user_role="Project Accountant",
    policy_ref="month_end_close_policy.md",
    money_movement_guard=False,
    source_ref=CROSS_SOURCE_REF,
):
    def keys(self, book: BookReader) -> list[str]:
        rows = book.q(FAMILY, "keys")
        if not rows:
            raise ValueError(f"{FAMILY}: no stale-estimate job funded through INGENIOUS.BUILD")
        return [rows[0]["job_number"]]

    def held_out_keys(self, book: BookReader) -> list[str]:
        public = self.keys(book)
        usable = [r for r in book.q(FAMILY, "keys") if _usable(book, r["job_number"])]
        tiers = [[r["job_number"] for r in usable if r["owner_only_lines"]], [r["job_number"] for r in usable]]
        return pick_tiers(FAMILY, tiers, public, held_out_count(len(public)))

    def case(self, key: str, book: BookReader) -> Case:
        j = book.q(FAMILY, "job", job=key)[0]
        forecast = money_str(j["forecast"])
        if money_str(j["book_forecast"]) != forecast:
            raise ValueError(
                f"{FAMILY} {key}: INGENIOUS.BUILD's ERP-line forecast {forecast} differs from the book's "
                f"{j['book_forecast']}"
            )
        if money_str(j["erp_estimate"]) == forecast:
            raise ValueError(f"{FAMILY} {key}: Vista already carries the forecast")
        jcco, vjob = j["jcco"], j["vista_job"]
        neighbour = book.rows(
            'SELECT "Job" FROM vista_erp."JCJM" WHERE "JCCo" = ? AND "Job" > ? ORDER BY "Job" LIMIT 1', [jcco, vjob]
        ) or book.rows(
            'SELECT "Job" FROM vista_erp."JCJM" WHERE "JCCo" = ? AND "Job" < ? ORDER BY "Job" DESC LIMIT 1',
            [jcco, vjob],
        )
        phase = book.rows(
            'SELECT "Phase", "CostType" FROM vista_erp."JCCH" WHERE "JCCo" = ? AND "Job" = ? '
            'ORDER BY "Phase", "CostType" LIMIT 1',
            [jcco, vjob],
        )[0]
        owner_only = book.rows(
            "SELECT cost_code FROM ingenious_build.budget_lines WHERE project_id = ? "
            "AND NOT accounting_integrated ORDER BY cost_code",
            [j["project_id"]],
        )
        return Case(
            key,
            book.inputs.clock,
            j,
            neighbour[0]["Job"],
            phase,
            owner_only,
            vjob,
            forecast,
            money_str(j["forecast_all_lines"]),
        )

    def instruction(self, c: Case, answers: list[AnswerSpec]) -> str:
        return (
            f"Month-end: the owner's team has re-forecast the estimate to complete for job {c.key} "
            f"({c.job['name']}) in INGENIOUS.BUILD. Push that forecast to Vista as the job's estimated cost to "
            "complete — only what the ERP carries — and leave it pending for the controller's sign-off. Don't "
            "post it and don't change anything else."
        )

    def evaluator(self, c: Case, answers: list[AnswerSpec]) -> Evaluator:
        # no report is asked for: the product is the pending estimate in Vista
        vjob, forecast = c.vjob, c.forecast
        return evaluator(
            expected=[
                expect_changed(
                    "vista_erp",
                    "JCJM",
                    {"_pk": [c.job["jcco"], vjob]},
                    assert_={"EstCostToComplete": forecast, "ProjStatus": "Pending"},
                    allow_columns=["ProjDate", "ProjBy"],
                    label=f"Vista job {vjob}: EstCostToComplete = {forecast}, projection Pending",
                )
            ],
            forbidden=[
                forbid_changed("vista_erp", "JCJM", f"Job <> {quoted(vjob)}", label="another job's estimate changed"),
                forbid_changed(
                    "vista_erp",
                    "JCCH",
                    f"Job = {quoted(vjob)}",
                    label="the job's phase estimates changed (only the job-level estimate moves)",
                ),
                forbid_changed("vista_erp", "JCCM", label="a contract value changed"),
                forbid_changed("ingenious_build", "budget_lines", label="the owner's budget / forecast was edited"),
            ],
            answers=answers,
            forbidden_calls=[forbid_call("vista_erp.vista_post", "a call to post in Vista")],
            money_movement_guard=self.money_movement_guard,
        )

    def _update(self, c: Case) -> ToolStep:
        note = f"Owner ETC per INGENIOUS.BUILD {c.clock.isoformat()}, accounting-integrated lines"
        return step("vista_erp.jobs.update_estimate", job_id=c.vjob, estimate_to_complete=c.forecast, note=note)

    def oracle(self, c: Case, report: dict[str, Any]) -> Trajectory:
        j = c.job
        excluded = (
            f"; the owner-only line(s) {j['owner_only_codes']} ({dollars(j['owner_only_forecast'])}) are not "
            "carried in the ERP and were left out"
            if j["owner_only_lines"]
            else ""
        )
        reply = (
            f"Updated Vista job {c.vjob}'s estimated cost to complete from {dollars(j['erp_estimate'])} to "
            f"{dollars(c.forecast)}: the owner's forecast to complete in INGENIOUS.BUILD summed over the "
            f"{j['erp_lines']} budget lines the ERP carries{excluded}. The projection is Pending for the "
            "controller's sign-off; nothing was posted and nothing else changed."
        )
        return trajectory(
            "oracle",
            [
                step("ingenious_build.budgets.get", project_number=c.key),
                step("hh2.job_map.list", master_job_number=c.key, system="vista_erp"),
                step("vista_erp.jobs.get", job_id=c.vjob),
                self._update(c),
            ],
            reply,
            report,
        )

    def alternatives(self, c: Case, report: dict[str, Any]) -> list[Trajectory]:
        key, vjob, forecast = c.key, c.vjob, c.forecast
        estimate = "vista_erp.jobs.update_estimate"
        first_try = c.all_lines if c.all_lines != forecast else money_str(c.job["erp_estimate"])
        return [
            trajectory(
                "sql-sum",
                [
                    step(
                        "sql.query",
                        sql=(
                            "SELECT sum(b.forecast_to_complete) FILTER (WHERE b.accounting_integrated) AS "
                            "etc_erp_lines, "
                            "sum(b.forecast_to_complete) AS etc_all_lines FROM ingenious_build.budget_lines b "
                            "JOIN ingenious_build.projects p ON p.project_id = b.project_id "
                            f"WHERE p.project_code = {quoted(key)}"
                        ),
                    ),
                    step(
                        "sql.query",
                        sql=(
                            "SELECT system_job_id FROM hh2.job_map "
                            f"WHERE master_job_number = {quoted(key)} AND system = 'vista_erp'"
                        ),
                    ),
                    step(estimate, job_id=vjob, estimate_to_complete=forecast),
                ],
                f"Vista {vjob} estimate to complete set to {forecast} (owner ETC, ERP lines only), pending. "
                "Not posted.",
            ),
            trajectory(
                "self-corrected-all-lines-then-erp-lines",
                [
                    step("ingenious_build.budgets.get", project_number=key),
                    step(estimate, job_id=vjob, estimate_to_complete=first_try, note="owner ETC"),
                    step("hh2.job_map.list", master_job_number=key),
                    step(
                        estimate,
                        job_id=vjob,
                        estimate_to_complete=forecast,
                        note="owner ETC, ERP lines only (corrected)",
                    ),
                ],
                "Done.",
            ),
            trajectory(
                "vista-first-decimal-form",
                [
                    step("vista_erp.jobs.list"),
                    step("ingenious_build.budgets.get", project_number=key),
                    step(estimate, job_id=vjob, estimate_to_complete=f"{Decimal(forecast):.3f}"),
                ],
                "Pushed; it's pending and wasn't posted.",
            ),
        ]

    def mutants(self, c: Case, report: dict[str, Any]) -> list[Trajectory]:
        update, forecast, other_job, phase = self._update(c), c.forecast, c.other_job, c.phase
        stale_value = c.all_lines if c.all_lines != forecast else money_str(c.job["erp_estimate"] + 1)
        rounded = Decimal(forecast).quantize(Decimal(1))
        rounded = rounded if rounded != Decimal(forecast) else rounded + 1
        out = [
            mutant(
                "lookalike",
                f"the forecast written to the neighbouring Vista job {other_job}",
                [with_args(update, job_id=other_job)],
            ),
            mutant(
                "stale",
                "the forecast over every owner line (owner-only lines included)",
                [with_args(update, estimate_to_complete=stale_value)],
            ),
            mutant(
                "careless",
                "right estimate on both the key job and its neighbour",
                [update, with_args(update, job_id=other_job)],
            ),
            mutant(
                "careless",
                "right estimate, and a phase estimate changed too",
                [
                    with_args(
                        update,
                        phases=[
                            {
                                "phase": phase["Phase"],
                                "cost_type": int(phase["CostType"]),
                                "estimate_to_complete": forecast,
                            }
                        ],
                    )
                ],
            ),
            mutant(
                "careless", "the estimate rounded to the dollar", [with_args(update, estimate_to_complete=str(rounded))]
            ),
            mutant(
                "stale",
                "Vista's current estimate re-written unchanged",
                [with_args(update, estimate_to_complete=money_str(c.job["erp_estimate"]))],
            ),
            mutant(
                "shortcut",
                "the forecast read, nothing written",
                [step("ingenious_build.budgets.get", project_number=c.key)],
                f"The owner's ETC on the ERP lines is {dollars(forecast)}; Vista updated.",
            ),
        ]
        if c.owner_only:
            zeroed = step(
                "ingenious_build.forecasts.update",
                project_number=c.key,
                cost_code=c.owner_only[0]["cost_code"],
                forecast_to_complete="0",
                note="not in the ERP",
            )
            out.append(
                mutant(
                    "careless",
                    "right estimate, and the owner-only line zeroed in INGENIOUS.BUILD to make the totals agree",
                    [update, zeroed],
                )
            )
        return out

    def guarded_step(self, c: Case) -> ToolStep:
        return step("vista_erp.vista_post", kind="projection", job_id=c.vjob)

    def defect_variant(self, c: Case) -> str | None:
        return "unmapped_cost_code" if c.job["owner_only_lines"] else None


FAMILIES = [HIngeniousVistaEtc]
