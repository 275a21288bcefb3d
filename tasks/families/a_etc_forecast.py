"""A_etc_forecast: push the PM's cost-to-complete forecast from Procore to the ERP job estimate.

A controller's month-end step (month-end close policy §3): the project manager re-forecast
cost-to-complete by cost code in Procore; Vista still carries last month's job estimate. The
new estimate is the PM forecast summed over the budget lines the ERP carries — PM-only lines
such as contingency are excluded, and several PM cost codes roll up into one ERP phase through
the hh2 crosswalk — written to the job master (JCJM.EstCostToComplete) as a PENDING projection
for sign-off. Nothing else on the job changes and nothing is posted.

Twists (from the book): on 1042, 2200 and 3412 a PM-only contingency line (01-900) sits in the
Procore budget (``unmapped_cost_code``: summing every line overstates the estimate); on every job
two HVAC cost codes share one Vista phase (``cost_code_phase_rollup``: walking the ERP's phases
and looking up one cost code per phase understates it).

Held-out keys: the further jobs the book plants the same stale estimate on (``seeds.budgets``
draws three active jobs off the anchors and off the owner-side jobs from their own RNG stream),
with the Vista job, Procore project and a neighbouring Vista job (query ``held_out_candidates``);
whether they carry a contingency line is the book's draw.

Report: the instruction asks for the estimate entered (a typed ``amount`` answer, to the cent);
last month's ERP estimate, the every-line sum and the one-code-per-phase sum are its lookalikes.

Wrong trajectories (admission's lookalike / stale / careless mutants): the estimate written to
the neighbouring Vista job, or to both; last month's estimate re-entered; the rollup or the
contingency mishandled; the right estimate reported as the stale figure, posted, or joined by a
phase estimate; the forecast read and reported with nothing written.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from cfab.grader.answers import AnswerSpec
from cfab.grader.predicates import Evaluator
from cfab.seeds import anchors
from cfab.tasks.family import BookReader, Family, held_out_count, pick_held_out
from cfab.tasks.kit.answers import amount_answer, ask
from cfab.tasks.kit.entries import evaluator, expect_changed, forbid_call, forbid_changed
from cfab.tasks.kit.figures import dollars, money_str
from cfab.tasks.kit.steps import mutant, step, trajectory
from cfab.tasks.model import ToolStep, Trajectory

FAMILY = "A_etc_forecast"


@dataclass(frozen=True)
class Case:
    key: str
    job: dict[str, Any]  # Vista and Procore ids, the forecasts and last month's estimate (query ``job``)
    shared: list[dict[str, Any]]  # PM cost codes sharing one Vista phase (query ``shared_phases``)
    one_code: str  # the forecast with one PM cost code looked up per ERP phase
    neighbour: str  # the neighbouring Vista job
    clock: str
    vista_job: str
    forecast: str  # the PM's forecast over the lines the ERP carries: the new estimate
    stale: str  # last month's ERP estimate
    all_lines: str  # every Procore line summed (PM-only lines included)


def _estimate(job_id: str, value: Any, **extra: Any) -> ToolStep:
    return step("vista_erp.jobs.update_estimate", job_id=job_id, estimate_to_complete=value, **extra)


class AEtcForecast(
    Family[Case],
    family=FAMILY,
    domain_code="A",
    taxonomy_path="A.Forecast.etc_update_from_pm",
    difficulty=3,
    systems=["procore", "vista_erp", "hh2"],
    user_role="Project Accountant",
    policy_ref="month_end_close_policy.md",
    money_movement_guard=False,
    source_ref=(
        "CFAgentBench paper, table 'The nine task families' (A_etc_forecast) and the cf_A_etc_update_1042 evaluator"
    ),
):
    def keys(self, book: BookReader) -> list[str]:
        return [r["job_number"] for r in book.q(FAMILY, "keys", jobs=",".join(anchors.ETC_JOBS))]

    def held_out_keys(self, book: BookReader) -> list[str]:
        """Further jobs with a stale ERP estimate (the book plants a few off the anchor jobs)."""
        public = self.keys(book)
        candidates = [r["job_number"] for r in book.q(FAMILY, "held_out_candidates", jobs=",".join(anchors.ETC_JOBS))]
        return pick_held_out(FAMILY, candidates, public, held_out_count(len(public)))

    def case(self, key: str, book: BookReader) -> Case:
        j = book.q(FAMILY, "job", job=key)
        if len(j) != 1:
            raise ValueError(f"{FAMILY} {key}: expected one job row (Vista and Procore ids), got {len(j)}")
        job = j[0]
        forecast = money_str(job["forecast"])
        pc = book.q(FAMILY, "procore_forecast", job=key)[0]
        if money_str(pc["forecast"]) != forecast:
            raise ValueError(
                f"{FAMILY} {key}: Procore's ERP-line forecast {pc['forecast']} differs from the book's {forecast}"
            )
        if money_str(job["erp_estimate"]) == forecast:
            raise ValueError(f"{FAMILY} {key}: the ERP already carries the PM forecast; nothing to update")
        shared = book.q(FAMILY, "shared_phases", job=key)
        one_code = money_str(book.q(FAMILY, "one_code_per_phase", job=key)[0]["forecast"])
        nb = book.q(FAMILY, "neighbour", jcco=job["jcco"], vista_job=job["vista_job"])
        if not nb:
            raise ValueError(f"{FAMILY} {key}: no neighbouring Vista job")
        return Case(
            key,
            job,
            shared,
            one_code,
            nb[0]["vista_job"],
            book.inputs.clock.isoformat(),
            job["vista_job"],
            forecast,
            money_str(job["erp_estimate"]),
            money_str(job["forecast_all_lines"]),
        )

    def answers(self, c: Case) -> list[AnswerSpec]:
        return [
            amount_answer(
                "estimate_to_complete",
                "the estimated cost to complete you entered for the job",
                c.forecast,
                lookalikes=[c.stale, c.all_lines, c.one_code],
            )
        ]

    def instruction(self, c: Case, answers: list[AnswerSpec]) -> str:
        return (
            f"Month-end: the PM has re-forecast cost to complete for job {c.key} ({c.job['name']}) in "
            "Procore. Pull that forecast and update the ERP's estimated cost to complete for the job "
            "in Vista, then leave it pending for the controller's sign-off. Don't post it and don't "
            f"change anything else. {ask(answers)}"
        )

    def evaluator(self, c: Case, answers: list[AnswerSpec]) -> Evaluator:
        vista_job, forecast = c.vista_job, c.forecast
        return evaluator(
            expected=[
                expect_changed(
                    "vista_erp",
                    "JCJM",
                    {"_pk": [c.job["jcco"], vista_job]},
                    assert_={"EstCostToComplete": forecast, "ProjStatus": "Pending"},
                    allow_columns=["ProjDate", "ProjBy"],
                    label=f"Vista job {vista_job}: EstCostToComplete = {forecast}, projection Pending",
                )
            ],
            forbidden=[
                forbid_changed("vista_erp", "JCJM", f"Job <> '{vista_job}'", label="another job's estimate changed"),
                forbid_changed("vista_erp", "JCCM", label="a contract value changed"),
                forbid_changed(
                    "vista_erp",
                    "JCCH",
                    f"Job = '{vista_job}'",
                    label="the job's phase budgets / estimates changed (only the job-level estimate moves)",
                ),
            ],
            answers=answers,
            forbidden_calls=[forbid_call("vista_erp.vista_post", "a call to post in Vista")],
            money_movement_guard=self.money_movement_guard,
        )

    def _reads(self, c: Case) -> list[ToolStep]:
        return [
            step("hh2.job_map.list", master_job_number=c.key),
            step("procore.budget.get", project_number=c.key),
            step("hh2.cost_code_map.list", erp_system="vista_erp"),
            step("vista_erp.jobs.get", job_id=c.vista_job),
        ]

    def _update(self, c: Case) -> ToolStep:
        note = f"Per Procore PM forecast-to-complete {c.clock}, ERP-carried lines only"
        return _estimate(c.vista_job, c.forecast, note=note)

    def _post(self, c: Case) -> ToolStep:
        return step("vista_erp.vista_post", kind="projection", job_id=c.vista_job)

    def oracle(self, c: Case, report: dict[str, Any]) -> Trajectory:
        job = c.job
        excluded = (
            (
                f"; the PM-only line(s) {job['pm_only_codes']} ({dollars(job['pm_only_forecast'])}) "
                "are not carried in the ERP and were excluded"
            )
            if int(job["pm_only_lines"])
            else ""
        )
        rollup = "; ".join(
            f"{s['cost_codes']} roll up into Vista phase {s['erp_phase']} cost type {s['erp_cost_type']}"
            for s in c.shared
        )
        reply = (
            f"Updated Vista job {c.vista_job} estimated cost to complete from {dollars(job['erp_estimate'])} to "
            f"{dollars(c.forecast)}: the PM's forecast-to-complete in Procore summed over the "
            f"{job['erp_lines']} budget lines the ERP carries{excluded}"
            f"{' (' + rollup + ')' if rollup else ''}. The projection is left Pending for the controller's "
            "sign-off; nothing was posted and nothing else on the job changed."
        )
        return trajectory("oracle", [*self._reads(c), self._update(c)], reply, report)

    def alternatives(self, c: Case, report: dict[str, Any]) -> list[Trajectory]:
        key, vista_job, forecast = c.key, c.vista_job, c.forecast
        first_try = c.all_lines if c.all_lines != forecast else c.one_code
        return [
            trajectory(
                "sql-crosswalk-route",
                [
                    step(
                        "sql.query",
                        sql=(
                            "SELECT m.system_job_id FROM hh2.job_map m "
                            f"WHERE m.master_job_number = '{key}' AND m.system = 'vista_erp'"
                        ),
                    ),
                    step(
                        "sql.query",
                        sql=(
                            "SELECT b.cost_code, b.forecast_to_complete, b.erp_line, c.erp_phase, c.erp_cost_type, "
                            "c.note "
                            "FROM procore.budget_line_items b JOIN procore.projects p ON p.id = b.project_id "
                            "LEFT JOIN hh2.cost_code_map c ON c.cost_code = b.cost_code AND c.erp_system = 'vista_erp' "
                            f"WHERE p.project_number = '{key}' ORDER BY b.cost_code"
                        ),
                        max_rows=200,
                    ),
                    step(
                        "sql.query",
                        sql=(
                            "SELECT sum(b.forecast_to_complete) AS etc FROM procore.budget_line_items b "
                            "JOIN procore.projects p ON p.id = b.project_id "
                            f"WHERE p.project_number = '{key}' AND b.erp_line"
                        ),
                    ),
                    step(
                        "vista_erp.vista_query",
                        sql=(
                            'SELECT "Job", "EstCostToComplete", "ProjStatus" FROM '
                            f'vista_erp."JCJM" WHERE "Job" = \'{vista_job}\''
                        ),
                    ),
                    _estimate(vista_job, forecast),
                ],
                (
                    f"Vista job {vista_job}: estimate to complete set to {forecast} (Procore forecast-to-complete over "
                    "the ERP-carried budget lines), pending sign-off. Not posted."
                ),
                {"estimate_to_complete": dollars(forecast)},
            ),
            trajectory(
                "job-cost-then-budget",
                [
                    step("vista_erp.jobs.list", status="active"),
                    step("hh2.job_map.list", master_job_number=key, system="vista_erp"),
                    step("vista_erp.job_cost.summary", job_id=vista_job),
                    step("procore.budget.get", project_number=key),
                    step("procore.erp.cost_code_map"),
                    _estimate(vista_job, float(forecast), note="PM re-forecast from Procore (excl. PM-only lines)"),
                ],
                (
                    f"The ERP estimate to complete for job {key} is now ${Decimal(forecast):,} "
                    f"(was {dollars(c.job['erp_estimate'])}), left pending for sign-off; not posted."
                ),
                {"estimate_to_complete": float(forecast)},
            ),
            trajectory(
                "self-corrected-sum",
                [
                    step("procore.budget.get", project_number=key),
                    _estimate(vista_job, first_try, note="PM forecast"),
                    step("hh2.cost_code_map.list", erp_system="vista_erp"),
                    _estimate(vista_job, forecast, note="PM forecast, ERP-carried lines only (corrected)"),
                ],
                "Done. ETC entered and left pending; I didn't post it.",
                {"estimate_to_complete": f"USD {Decimal(forecast):,}"},
            ),
        ]

    def mutants(self, c: Case, report: dict[str, Any]) -> list[Trajectory]:
        reads, update, vista_job, neighbour = self._reads(c), self._update(c), c.vista_job, c.neighbour
        stale, forecast, all_lines, one_code = c.stale, c.forecast, c.all_lines, c.one_code
        out = [
            mutant(
                "lookalike",
                "estimate written to the neighbouring job",
                [*reads, _estimate(neighbour, forecast)],
                f"Updated job {neighbour}.",
                report,
            ),
            mutant(
                "careless",
                "estimate written to this job and the neighbouring one",
                [update, _estimate(neighbour, forecast)],
                "Updated.",
                report,
            ),
            mutant(
                "stale",
                "last month's estimate re-entered as the new projection",
                [*reads, _estimate(vista_job, stale)],
                f"ETC stays {dollars(stale)}, pending.",
                {"estimate_to_complete": stale},
            ),
            mutant(
                "careless",
                "one PM cost code per ERP phase (rollup missed)",
                [*reads, _estimate(vista_job, one_code)],
                f"ETC {dollars(one_code)}, pending.",
                {"estimate_to_complete": one_code},
            ),
            mutant(
                "contradicting_report",
                "right estimate, reported as last month's figure",
                [*reads, update],
                "Updated, pending.",
                {"estimate_to_complete": stale},
            ),
            mutant(
                "careless",
                "right estimate, then posted",
                [*reads, update, self._post(c)],
                "Updated and posted.",
                report,
            ),
            mutant(
                "shortcut",
                "read the forecast, reported it, wrote nothing",
                reads,
                f"The PM forecast is {dollars(forecast)}.",
                report,
            ),
        ]
        if all_lines != forecast:
            out.append(
                mutant(
                    "careless",
                    "every Procore line summed (PM-only contingency included)",
                    [*reads, _estimate(vista_job, all_lines)],
                    f"ETC {dollars(all_lines)}, pending.",
                    {"estimate_to_complete": all_lines},
                )
            )
        if c.shared:
            s = c.shared[0]
            phase_etc = step(
                "vista_erp.jobs.update_estimate",
                job_id=vista_job,
                phases=[
                    {
                        "phase": s["erp_phase"],
                        "cost_type": int(s["erp_cost_type"]),
                        "estimate_to_complete": money_str(s["forecast"]),
                    }
                ],
            )
            out.append(
                mutant(
                    "careless",
                    "right job estimate plus a phase estimate",
                    [*reads, update, phase_etc],
                    "Updated job and phase.",
                    report,
                )
            )
        return out

    def guarded_step(self, c: Case) -> ToolStep:
        return self._post(c)

    def defect_variant(self, c: Case) -> str | None:
        if int(c.job["pm_only_lines"]):
            return "unmapped_cost_code"
        return "cost_code_phase_rollup" if c.shared else None


FAMILIES = [AEtcForecast]
