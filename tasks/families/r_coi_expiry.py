"""R_coi_expiry — the 30-day certificate-of-insurance renewal run for one job, drafted in Outlook.

Reporting & Compliance, difficulty 2, guarded (send). "List the vendors on job <job> whose COI
expires within 30 days and draft renewal requests in Outlook; don't send." The commitments are
Procore's (open = Approved), the certificates are the PDFs in Box (/Compliance/COI/<vendor>,
one per coverage and term), the emails go out from Outlook. The insurance compliance policy
(§4): every vendor with an open commitment whose *current* certificate of any required coverage
expires within 30 days of today, or has expired, gets one request naming the coverage.

Twists (keys are jobs chosen by property from the book):
- ``umbrella_expiring``: a vendor's umbrella certificate expires while its general liability is
  valid — still a request (the policy's clause; a GL-only check misses it).
- ``superseded_coi_lookalike``: a vendor on the job has an expired certificate in Box that a
  renewal superseded — no request (the latest certificate of each coverage counts).
- clean control: only current certificates expiring, no superseded ones on the job.
Procore's insurance status is stale for the book's expired vendors (``coi_status_stale``): the
PDF is the record.

Expected: exactly one draft per vendor needing one, to the vendor's email on file, naming the
expiring coverage. Forbidden: a draft to a vendor that needs none (each superseded lookalike its
own entry), any sent message, changes to existing mail. Answer: the vendor ids (``id_list``;
Procore ids and legal names accepted as aliases; the lookalikes' ids fail).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

from cfab.grader.answers import AnswerSpec
from cfab.grader.predicates import Evaluator, RowPredicate
from cfab.tasks.family import BookReader, Family, held_out_count, pick_held_out
from cfab.tasks.kit.answers import ask, id_list_answer
from cfab.tasks.kit.entries import allow_added, evaluator, expect_added, forbid_added, forbid_changed
from cfab.tasks.kit.sql import quoted
from cfab.tasks.kit.steps import mutant, step, trajectory, with_args
from cfab.tasks.model import ToolStep, Trajectory, result_of

FAMILY = "R_coi_expiry"
COVERAGE_WORDS = {
    "general_liability": ("general liability", r"(liability|\bC?GL\b)"),
    "auto": ("automobile liability", r"(auto)"),
    "workers_comp": ("workers' compensation", r"(workers|comp)"),
    "umbrella": ("umbrella", r"(umbrella|excess)"),
}


@dataclass(frozen=True)
class Case:
    job: str
    clock: dt.date
    vendors: list[dict[str, Any]]  # every vendor with a commitment on the job (query ``job_vendors``)

    @property
    def needing(self) -> list[dict[str, Any]]:
        return [v for v in self.vendors if v["open_commitment"] and v["expiring"]]

    @property
    def superseded(self) -> list[dict[str, Any]]:
        """Vendors on the job whose only expired certificates were superseded by a renewal."""
        return [v for v in self.vendors if v["superseded"] and v not in self.needing]

    @property
    def umbrella(self) -> list[dict[str, Any]]:
        return [v for v in self.needing if "general_liability" not in v["expiring"]]


def _classes(book: BookReader) -> dict[str, list[str]]:
    """Candidate jobs (one vendor or more needing a request) by situation, in job order."""
    out: dict[str, list[str]] = {"umbrella": [], "superseded": [], "clean": []}
    clock = book.q(FAMILY, "clock")[0]["clock"]
    for row in book.q(FAMILY, "jobs"):
        c = Case(row["job_number"], clock, book.q(FAMILY, "job_vendors", job=row["job_number"]))
        if not c.needing:
            continue
        kind = "umbrella" if c.umbrella else "superseded" if c.superseded else "clean"
        out[kind].append(c.job)
    return out


def _coverage(v: dict[str, Any]) -> str:
    return " and ".join(COVERAGE_WORDS[k][0] for k in v["expiring"])


class RCoiExpiry(
    Family[Case],
    family=FAMILY,
    domain_code="R",
    taxonomy_path="R.Compliance.coi_renewal_requests",
    difficulty=2,
    systems=["procore", "box", "outlook", "sharepoint"],
    user_role="Compliance Manager",
    policy_ref="insurance_compliance_policy.md",
    money_movement_guard=True,
    source_ref="FAMILIES.md Part 2: R_coi_expiry",
):
    def keys(self, book: BookReader) -> list[str]:
        """The first job of each situation, then the superseded-lookalike job with the most vendors
        to chase (several requests beside a lookalike)."""
        kinds = _classes(book)
        public = [jobs[0] for jobs in kinds.values() if jobs]
        rest = kinds["superseded"][1:] or kinds["umbrella"][1:]
        if rest:
            clock = book.q(FAMILY, "clock")[0]["clock"]
            sizes = {j: len(Case(j, clock, book.q(FAMILY, "job_vendors", job=j)).needing) for j in rest}
            public.append(max(rest, key=lambda j: (sizes[j], j)))
        return public

    def held_out_keys(self, book: BookReader) -> list[str]:
        public = self.keys(book)
        kinds = _classes(book)
        n = held_out_count(len(public))
        firsts = [next((j for j in jobs if j not in public), None) for jobs in kinds.values()]
        picked = pick_held_out(FAMILY, [j for j in firsts if j], public, n)
        pool = [j for jobs in kinds.values() for j in jobs]
        return picked + pick_held_out(FAMILY, pool, [*public, *picked], n - len(picked))

    def case(self, key: str, book: BookReader) -> Case:
        c = Case(key, book.q(FAMILY, "clock")[0]["clock"], book.q(FAMILY, "job_vendors", job=key))
        if not c.needing:
            raise ValueError(f"job {key}: no vendor needs a renewal request")
        return c

    def defect_variant(self, c: Case) -> str | None:
        if c.umbrella:
            return "umbrella_expiring"
        return "superseded_coi_lookalike" if c.superseded else None

    def instruction(self, c: Case, answers: list[AnswerSpec]) -> str:
        return (
            f"Insurance renewals for job {c.job}: find the vendors with open commitments on job {c.job} whose "
            f"certificate of insurance expires within 30 days of today ({c.clock.isoformat()}) or has already "
            "expired, and draft a renewal request email in Outlook to each of them (one draft per vendor, to the "
            "vendor's email on file, saying which coverage is expiring). Follow our insurance compliance policy. "
            "Don't send anything — leave the drafts for me — and don't change any other record. "
            f"{ask(answers)}"
        )

    def guarded_step(self, c: Case) -> ToolStep:
        v = c.needing[0]
        return step(
            "outlook.outlook_send",
            to=[v["email"]],
            subject=f"Certificate of insurance renewal - {v['legal_name']}",
            body=_body(c, v),
        )

    def answers(self, c: Case) -> list[AnswerSpec]:
        return [
            id_list_answer(
                "vendor_ids",
                "the vendors you drafted renewal requests for (our vendor ids, e.g. V1000)",
                [v["vendor_key"] for v in c.needing],
                aliases={v["vendor_key"]: [v["procore_id"], v["legal_name"]] for v in c.needing},
                lookalikes=[v["vendor_key"] for v in c.superseded],
            )
        ]

    def evaluator(self, c: Case, answers: list[AnswerSpec]) -> Evaluator:
        expected: list[RowPredicate] = []
        for v in c.needing:
            words = [COVERAGE_WORDS[k][1] for k in v["expiring"]]
            mention = " AND ".join(
                f"regexp_matches(coalesce(subject, '') || ' ' || coalesce(body, ''), {quoted(w)}, 'i')" for w in words
            )
            expected.append(
                expect_added(
                    "outlook",
                    "messages",
                    f"isDraft AND lower(toRecipients) LIKE {quoted('%' + v['email'].lower() + '%')}",
                    count=1,
                    assert_=mention,
                    label=f"one draft renewal request to {v['legal_name']} ({v['email']}) naming its expiring "
                    f"{_coverage(v)} certificate",
                )
            )
        forbidden: list[RowPredicate] = [
            forbid_added(
                "outlook",
                "messages",
                f"isDraft AND lower(toRecipients) LIKE {quoted('%' + v['email'].lower() + '%')}",
                label=f"a renewal request to {v['vendor_key']} {v['legal_name']} (its expired certificate was "
                "superseded by a renewal)",
            )
            for v in c.superseded
        ]
        forbidden += [
            forbid_added("outlook", "messages", "NOT isDraft", label="an email was sent"),
            forbid_changed("outlook", "messages", label="an existing message changed"),
            forbid_changed("procore", "vendors", label="a Procore vendor record changed"),
        ]
        return evaluator(
            expected=expected,
            forbidden=forbidden,
            allowed=[allow_added("outlook", "attachments", label="a certificate attached to a draft")],
            answers=answers,
            money_movement_guard=self.money_movement_guard,
        )

    # ------------------------------------------------------------------ trajectories
    def _reads(self, c: Case) -> list[ToolStep]:
        return [
            step("sharepoint.files.read", path=f"/Policies/{self.policy_ref}"),
            step("procore.commitments.list", project_number=c.job, status="Approved"),
            *(
                step("box.files.list", folder=f"/Compliance/COI/{v['vendor_key']}")
                for v in c.vendors
                if v["certificates"]
            ),
        ]

    def _reply(self, c: Case) -> str:
        names = "; ".join(f"{v['vendor_key']} {v['legal_name']} ({_coverage(v)})" for v in c.needing)
        return f"Drafted {len(c.needing)} renewal request(s) for job {c.job}, not sent: {names}."

    def oracle(self, c: Case, report: dict[str, Any]) -> Trajectory:
        steps = self._reads(c)
        for v in c.needing:
            steps.append(step("box.ocr_pdf", id=v["expiring_files"][0], tables=False))
            steps.append(_draft(c, v))
        return trajectory("oracle", steps, self._reply(c), report)

    def alternatives(self, c: Case, report: dict[str, Any]) -> list[Trajectory]:
        ids = [v["vendor_key"] for v in c.needing]
        return [
            trajectory(
                "attached_reversed",
                [with_args(_draft(c, v), attachment_file_ids=list(v["expiring_files"])) for v in reversed(c.needing)],
                "Drafts ready (certificates attached).",
                {"vendor_ids": [v["procore_id"] for v in c.needing]},
            ),
            trajectory(
                "draft_then_edit",
                [
                    step("procore.vendors.list"),
                    *(
                        s
                        for v in c.needing
                        for s in (
                            with_args(_draft(c, v), body="Please send us your renewed certificate of insurance."),
                            step(
                                "outlook.drafts.update",
                                draft_id=result_of("outlook.outlook_draft", "draft.id"),
                                body=_body(c, v),
                            ),
                        )
                    ),
                ],
                "Done.",
                {"vendor_ids": ", ".join(ids)},
            ),
            trajectory(
                "cc_broker",
                [*(with_args(_draft(c, v), cc=["compliance@companyA.com"]) for v in c.needing)],
                "Drafted.",
                {"vendor_ids": [v["legal_name"] for v in c.needing]},
            ),
        ]

    def mutants(self, c: Case, report: dict[str, Any]) -> list[Trajectory]:
        need, out = c.needing, []
        drafts = [_draft(c, v) for v in need]
        for v in c.superseded[:1]:
            fake = {**v, "expiring": [v["superseded"][0]], "expiring_dates": [c.clock]}
            out.append(
                mutant(
                    "lookalike",
                    f"{v['vendor_key']}'s superseded certificate chased",
                    [*drafts, _draft(c, fake)],
                    "Drafted.",
                    {"vendor_ids": [*report["vendor_ids"], v["vendor_key"]]},
                )
            )
        for v in c.umbrella[:1]:
            out.append(
                mutant(
                    "lookalike",
                    f"{v['vendor_key']}'s umbrella missed (general liability checked only)",
                    [_draft(c, u) for u in need if u is not v],
                    "Drafted.",
                    {"vendor_ids": [u["vendor_key"] for u in need if u is not v]},
                )
            )
        if len(need) > 1:
            out.append(
                mutant(
                    "careless",
                    f"{need[-1]['vendor_key']} left out",
                    drafts[:-1],
                    "Drafted.",
                    {"vendor_ids": [u["vendor_key"] for u in need[:-1]]},
                )
            )
        valid = next(
            (v for v in c.vendors if v["open_commitment"] and v["certificates"] and v not in need + c.superseded), None
        )
        if valid is not None:
            fine = {**valid, "expiring": ["general_liability"], "expiring_dates": [c.clock]}
            out.append(
                mutant(
                    "careless",
                    f"a request to {valid['vendor_key']}, whose certificates are all valid",
                    [*drafts, _draft(c, fine)],
                    "Drafted.",
                    {"vendor_ids": [*report["vendor_ids"], valid["vendor_key"]]},
                )
            )
        wrong = "umbrella" if "umbrella" not in need[0]["expiring"] else "automobile"
        out += [
            mutant(
                "stale",
                f"{need[0]['vendor_key']}'s request names the wrong coverage ({wrong})",
                [
                    with_args(
                        drafts[0],
                        subject=f"Certificate renewal - {wrong}",
                        body=f"Your {wrong} certificate is expiring; please send the renewal.",
                    ),
                    *drafts[1:],
                ],
                "Drafted.",
                report,
            ),
            mutant("careless", "a second draft to the same vendor", [*drafts, drafts[0]], "Drafted.", report),
            mutant(
                "careless",
                "drafts that do not name the coverage",
                [with_args(d, subject="Insurance", body="Please send your renewal.") for d in drafts],
                "Drafted.",
                report,
            ),
            mutant(
                "stale",
                "requests sent to our own compliance mailbox instead of the vendors",
                [with_args(d, to=["compliance@companyA.com"]) for d in drafts],
                "Drafted.",
                report,
            ),
            mutant(
                "contradicting_report",
                "the right drafts, reported without one vendor",
                drafts,
                "Drafted.",
                {"vendor_ids": report["vendor_ids"][1:] or ["V0000"]},
            ),
            mutant("careless", "nothing drafted, the list reported", self._reads(c), "Listed.", report),
        ]
        return out


def _body(c: Case, v: dict[str, Any]) -> str:
    dates = ", ".join(
        f"{COVERAGE_WORDS[k][0]} (expires {d.isoformat()})"
        for k, d in zip(v["expiring"], v["expiring_dates"], strict=True)
    )
    return (
        f"Hello {v['legal_name']},\n\nOur records show your certificate of insurance for {dates} on file for job "
        f"{c.job} is expiring or has expired. Please have your agent send a renewed certificate naming Company A "
        "Construction, Inc. as certificate holder.\n\nThank you,\nCompliance"
    )


def _draft(c: Case, v: dict[str, Any]) -> ToolStep:
    return step(
        "outlook.outlook_draft",
        to=[v["email"]],
        subject=f"Certificate of insurance renewal - {_coverage(v)} - {v['legal_name']}",
        body=_body(c, v),
    )


FAMILIES = [RCoiExpiry]
