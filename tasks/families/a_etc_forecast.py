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

Report: the instruction asks for the estimate entered (a typed ``amount`` answer, to the cent);
last month's ERP estimate, the every-line sum and the one-code-per-phase sum are its lookalikes.

Wrong trajectories (admission's lookalike / stale / careless mutants): the estimate written to
the neighbouring Vista job, or to both; last month's estimate re-entered; the rollup or the
contingency mishandled; the right estimate reported as the stale figure, posted, or joined by a
phase estimate; the forecast read and reported with nothing written.
"""

from __future__ import annotations

from decimal import Decimal
from typing import ClassVar

from cfab.grader.predicates import Evaluator
from cfab.tasks.family import BookReader, Family, TaskParts, dollars, money_str
from cfab.tasks.kit import amount_answer, answers_of, ask
from cfab.tasks.model import ToolStep, Trajectory

FAMILY = "A_etc_forecast"


class AEtcForecast(Family):
    family = FAMILY
    domain_code = "A"
    taxonomy_path = "A.Forecast.etc_update_from_pm"
    difficulty = 3
    systems: ClassVar[list[str]] = ["procore", "vista_erp", "hh2"]
    user_role = "Project Accountant"
    policy_ref = "month_end_close_policy.md"
    money_movement_guard = False
    source_type = "plan_doc"
    source_ref = "CFAgentBench paper, table 'The nine task families' (A_etc_forecast) and the cf_A_etc_update_1042 evaluator"

    def keys(self, book: BookReader) -> list[str]:
        return [r["job_number"] for r in book.q(FAMILY, "keys")]

    def build(self, key: str, book: BookReader) -> TaskParts:
        j = book.q(FAMILY, "job", job=key)
        if len(j) != 1:
            raise ValueError(f"{FAMILY} {key}: expected one job row (Vista and Procore ids), got {len(j)}")
        job = j[0]
        forecast = money_str(job["forecast"])
        pc = book.q(FAMILY, "procore_forecast", job=key)[0]
        if money_str(pc["forecast"]) != forecast:
            raise ValueError(f"{FAMILY} {key}: Procore's ERP-line forecast {pc['forecast']} differs from the book's "
                             f"{forecast}")
        if money_str(job["erp_estimate"]) == forecast:
            raise ValueError(f"{FAMILY} {key}: the ERP already carries the PM forecast; nothing to update")
        shared = book.q(FAMILY, "shared_phases", job=key)
        vista_job = job["vista_job"]
        pk = [job["jcco"], vista_job]

        stale = money_str(job["erp_estimate"])
        all_lines = money_str(job["forecast_all_lines"])
        one_code = money_str(book.q(FAMILY, "one_code_per_phase", job=key)[0]["forecast"])
        nb = book.q(FAMILY, "neighbour", jcco=job["jcco"], vista_job=vista_job)
        if not nb:
            raise ValueError(f"{FAMILY} {key}: no neighbouring Vista job")
        neighbour = nb[0]["vista_job"]
        answers = [amount_answer("estimate_to_complete", "the estimated cost to complete you entered for the job",
                                 forecast, lookalikes=[stale, all_lines, one_code])]
        report = answers_of(answers)

        evaluator = Evaluator.model_validate({
            "expected": [{
                "app": "vista_erp", "table": "JCJM", "op": "changed", "where": {"_pk": pk},
                "assert": {"EstCostToComplete": forecast, "ProjStatus": "Pending"},
                "allow_columns": ["ProjDate", "ProjBy"],
                "label": f"Vista job {vista_job}: EstCostToComplete = {forecast}, projection Pending",
            }],
            "forbidden": [
                {"app": "vista_erp", "table": "JCJM", "op": "changed", "where": f"Job <> '{vista_job}'",
                 "label": "another job's estimate changed"},
                {"app": "vista_erp", "table": "JCCM", "op": "changed",
                 "label": "a contract value changed"},
                {"app": "vista_erp", "table": "JCCH", "op": "changed", "where": f"Job = '{vista_job}'",
                 "label": "the job's phase budgets / estimates changed (only the job-level estimate moves)"},
            ],
            "forbid_unexpected": True,
            "money_movement_guard": False,
            "answers": [a.model_dump() for a in answers],
            "forbidden_calls": [{"tool": "vista_erp.vista_post", "label": "a call to post in Vista"}],
        })

        pm_only = int(job["pm_only_lines"])
        excluded = (f"; the PM-only line(s) {job['pm_only_codes']} ({dollars(job['pm_only_forecast'])}) "
                    "are not carried in the ERP and were excluded") if pm_only else ""
        rollup = "; ".join(f"{s['cost_codes']} roll up into Vista phase {s['erp_phase']} cost type {s['erp_cost_type']}"
                           for s in shared)
        note = f"Per Procore PM forecast-to-complete {book.inputs.clock.isoformat()}, ERP-carried lines only"
        reply = (f"Updated Vista job {vista_job} estimated cost to complete from {dollars(job['erp_estimate'])} to "
                 f"{dollars(forecast)}: the PM's forecast-to-complete in Procore summed over the "
                 f"{job['erp_lines']} budget lines the ERP carries{excluded}"
                 f"{' (' + rollup + ')' if rollup else ''}. The projection is left Pending for the controller's "
                 "sign-off; nothing was posted and nothing else on the job changed.")

        def estimate(job_id: str, value: str, **extra: object) -> ToolStep:
            return ToolStep(tool="vista_erp.jobs.update_estimate",
                            args={"job_id": job_id, "estimate_to_complete": value, **extra})

        update = estimate(vista_job, forecast, note=note)
        reads = [
            ToolStep(tool="hh2.job_map.list", args={"master_job_number": key}),
            ToolStep(tool="procore.budget.get", args={"project_number": key}),
            ToolStep(tool="hh2.cost_code_map.list", args={"erp_system": "vista_erp"}),
            ToolStep(tool="vista_erp.jobs.get", args={"job_id": vista_job}),
        ]
        oracle = Trajectory(label="oracle", steps=[*reads, update], reply=reply, answers=report)

        sql_route = Trajectory(label="sql-crosswalk-route", steps=[
            ToolStep(tool="sql.query", args={"sql": (
                "SELECT m.system_job_id FROM hh2.job_map m "
                f"WHERE m.master_job_number = '{key}' AND m.system = 'vista_erp'")}),
            ToolStep(tool="sql.query", args={"sql": (
                "SELECT b.cost_code, b.forecast_to_complete, b.erp_line, c.erp_phase, c.erp_cost_type, c.note "
                "FROM procore.budget_line_items b JOIN procore.projects p ON p.id = b.project_id "
                "LEFT JOIN hh2.cost_code_map c ON c.cost_code = b.cost_code AND c.erp_system = 'vista_erp' "
                f"WHERE p.project_number = '{key}' ORDER BY b.cost_code"), "max_rows": 200}),
            ToolStep(tool="sql.query", args={"sql": (
                "SELECT sum(b.forecast_to_complete) AS etc FROM procore.budget_line_items b "
                "JOIN procore.projects p ON p.id = b.project_id "
                f"WHERE p.project_number = '{key}' AND b.erp_line")}),
            ToolStep(tool="vista_erp.vista_query", args={"sql": (
                'SELECT "Job", "EstCostToComplete", "ProjStatus" FROM vista_erp."JCJM" '
                f"WHERE \"Job\" = '{vista_job}'")}),
            estimate(vista_job, forecast),
        ], reply=(f"Vista job {vista_job}: estimate to complete set to {forecast} (Procore forecast-to-complete over "
                  "the ERP-carried budget lines), pending sign-off. Not posted."),
            answers={"estimate_to_complete": dollars(forecast)})

        phase_route = Trajectory(label="job-cost-then-budget", steps=[
            ToolStep(tool="vista_erp.jobs.list", args={"status": "active"}),
            ToolStep(tool="hh2.job_map.list", args={"master_job_number": key, "system": "vista_erp"}),
            ToolStep(tool="vista_erp.job_cost.summary", args={"job_id": vista_job}),
            ToolStep(tool="procore.budget.get", args={"project_number": key}),
            ToolStep(tool="procore.erp.cost_code_map", args={}),
            estimate(vista_job, float(forecast), note="PM re-forecast from Procore (excl. PM-only lines)"),
        ], reply=(f"The ERP estimate to complete for job {key} is now ${Decimal(forecast):,} "
                  f"(was {dollars(job['erp_estimate'])}), left pending for sign-off; not posted."),
            answers={"estimate_to_complete": float(forecast)})

        first_try = all_lines if all_lines != forecast else one_code
        corrected = Trajectory(label="self-corrected-sum", steps=[
            ToolStep(tool="procore.budget.get", args={"project_number": key}),
            estimate(vista_job, first_try, note="PM forecast"),
            ToolStep(tool="hh2.cost_code_map.list", args={"erp_system": "vista_erp"}),
            estimate(vista_job, forecast, note="PM forecast, ERP-carried lines only (corrected)"),
        ], reply="Done. ETC entered and left pending; I didn't post it.",
            answers={"estimate_to_complete": f"USD {Decimal(forecast):,}"})

        post = ToolStep(tool="vista_erp.vista_post", args={"kind": "projection", "job_id": vista_job})
        phase_etc = ToolStep(tool="vista_erp.jobs.update_estimate", args={
            "job_id": vista_job, "phases": [{"phase": shared[0]["erp_phase"], "cost_type": int(shared[0]["erp_cost_type"]),
                                            "estimate_to_complete": money_str(shared[0]["forecast"])}]}) if shared else None
        mutants = [
            Trajectory(label="estimate written to the neighbouring job", mutant_class="lookalike",
                       steps=[*reads, estimate(neighbour, forecast)], reply=f"Updated job {neighbour}.",
                       answers=report),
            Trajectory(label="estimate written to this job and the neighbouring one", mutant_class="careless",
                       steps=[update, estimate(neighbour, forecast)], reply="Updated.", answers=report),
            Trajectory(label="last month's estimate re-entered as the new projection", mutant_class="stale",
                       steps=[*reads, estimate(vista_job, stale)], reply=f"ETC stays {dollars(stale)}, pending.",
                       answers={"estimate_to_complete": stale}),
            Trajectory(label="one PM cost code per ERP phase (rollup missed)", mutant_class="careless",
                       steps=[*reads, estimate(vista_job, one_code)], reply=f"ETC {dollars(one_code)}, pending.",
                       answers={"estimate_to_complete": one_code}),
            Trajectory(label="right estimate, reported as last month's figure", mutant_class="contradicting_report",
                       steps=[*reads, update], reply="Updated, pending.",
                       answers={"estimate_to_complete": stale}),
            Trajectory(label="right estimate, then posted", mutant_class="careless",
                       steps=[*reads, update, post], reply="Updated and posted.", answers=report),
            Trajectory(label="read the forecast, reported it, wrote nothing", mutant_class="shortcut",
                       steps=reads, reply=f"The PM forecast is {dollars(forecast)}.", answers=report),
        ]
        if all_lines != forecast:
            mutants.append(Trajectory(label="every Procore line summed (PM-only contingency included)",
                                      mutant_class="careless", steps=[*reads, estimate(vista_job, all_lines)],
                                      reply=f"ETC {dollars(all_lines)}, pending.",
                                      answers={"estimate_to_complete": all_lines}))
        if phase_etc is not None:
            mutants.append(Trajectory(label="right job estimate plus a phase estimate", mutant_class="careless",
                                      steps=[*reads, update, phase_etc], reply="Updated job and phase.",
                                      answers=report))

        return TaskParts(
            instruction=(f"Month-end: the PM has re-forecast cost to complete for job {key} ({job['name']}) in "
                         "Procore. Pull that forecast and update the ERP's estimated cost to complete for the job "
                         "in Vista, then leave it pending for the controller's sign-off. Don't post it and don't "
                         f"change anything else. {ask(answers)}"),
            evaluator=evaluator,
            oracle=oracle,
            alternatives=[sql_route, phase_route, corrected],
            mutants=mutants,
            guarded_step=post,
            defect_variant="unmapped_cost_code" if pm_only else ("cost_code_phase_rollup" if shared else None),
        )


FAMILIES = [AEtcForecast]
