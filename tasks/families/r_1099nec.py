"""R_1099nec — determine the 2025 1099-NEC payees and build the filing in Track1099.

The paper's family (Reporting & Compliance, difficulty 3, guarded, one task):
"Determine the vendors reportable on 1099-NEC for 2025 and build the filing in Track1099. Do
not e-file."

The ERP (Vista) holds what was paid: the issued-check register (CMDT) by vendor, and the vendor
master with each vendor's TIN. Track1099 holds the payees as their W-9s say (federal tax
classification, exempt-payee code), one record per ERP vendor id. The company's form 1099
policy (and the IRS rules behind it): report nonemployee compensation of $600.00 or more paid in
the calendar year (checks by issue date, voids excluded) to individuals, sole proprietors,
single-member LLCs, partnerships and LLCs taxed as partnerships; corporations are exempt except
attorneys / law firms; suppliers of materials only are not reported; aggregate by TIN.

The twist (``duplicate_vendor_id``, the book's divergence ``vendor_id_split``): one payee is set
up under two vendor ids with one SSN, each below $600 on its own but above together — one form
for the combined total, under either of its two Track1099 payee records. Other traps in the data:
an attorney that is a professional corporation (reportable), a materials supplier organised as
an LLC taxed as a partnership (not reportable), a sole proprietor paid $425 (not reportable), a
voided check to an equipment vendor.

Expected: exactly one draft form per reportable TIN with its box-1 amount (and box 4 zero),
assembled into the year's draft filing whose form count and box-1 total match. Forbidden: a form
for any non-reportable payee (each reason its own entry), a form for another year, edits to the
ERP vendor master or the W-9 payee records; e-filing is the guarded step.

Report: the instruction asks how many forms were prepared and the box 1 total (a typed
``count`` and ``amount``). Their lookalikes are the figures of the plausible wrong judgements:
the split payee judged per vendor id (one form fewer, its total missing) or given two forms,
the attorney's professional corporation treated as exempt, the materials-only LLC or the
under-threshold sole proprietor reported, a voided check counted.

The one-payee keys (module ``r_1099nec_one``): ``<year>-bnotice-<vendor>`` (an IRS B-notice on
last year's filing: correct the payee record from the new W-9 — its TIN, or, the twist
``bnotice_name_line``, a sole proprietor's line-1 name — and file nothing), ``<year>-corp-<vendor>``
(a corporation paid $600.00 or more: no form) and ``<year>-card-<vendor>`` (the twist
``card_payments_1099k``: box 1 leaves out the Corpay virtual-card payments, reported on 1099-K).
Held-out keys are further payees of the same situations.

Wrong trajectories (admission's lookalike / stale / careless / contradicting_report mutants):
each of those judgements carried out (reported consistently), the split payee's form with one
vendor id's amount, the forms without the filing, a Vista vendor-master edit, the right filing
reported per vendor id.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from decimal import Decimal
from typing import Any

from cfab.grader.answers import AnswerSpec
from cfab.grader.predicates import Evaluator, RowPredicate
from cfab.seeds.determinism import stable_id
from cfab.tasks.family import BookReader, Family, held_out_count, pick_held_out
from cfab.tasks.kit.answers import amount_answer, ask, count_answer
from cfab.tasks.kit.entries import evaluator, expect_added, forbid_added, forbid_changed
from cfab.tasks.kit.figures import dollars, money_str
from cfab.tasks.kit.sql import case_when, in_list, quoted
from cfab.tasks.kit.steps import mutant, step, trajectory, with_args
from cfab.tasks.model import MutantClass, Partition, Rubric, Task, ToolStep, Trajectory, problem_hash

FAMILY = "R_1099nec"

NOT_REPORTABLE = {
    "corporation": "a 1099-NEC for a corporation (exempt: not an attorney or law firm)",
    "materials_only": "a 1099-NEC for a supplier of materials only",
    "under_threshold": "a 1099-NEC for a payee paid less than $600.00 in the year (aggregated by TIN)",
    "no_payments": "a 1099-NEC for a payee with no payments in the year",
}
RUBRIC = Rubric.of(reportable_payees_by_tin=0.5, box1_amounts=0.3, filing_assembled_not_filed=0.2)


@dataclass(frozen=True)
class Case:
    year: int
    tins: list[dict[str, Any]]  # every payee by TIN with its verdict and total (query ``by_tin``)
    split_tins: set[str]  # the TINs the book set up under two vendor ids
    paid: dict[str, dict[str, Any]]  # what each Track1099 payee record was paid and had voided
    vista: dict[str, list[Any]]  # the Vista vendor ids of each TIN
    kind: str = "filing"  # filing | bnotice | corp | card
    payee: dict[str, Any] | None = None  # the one payee of a bnotice / corp / card key
    notice: dict[str, Any] | None = None  # the B-notice and the payee's new W-9 (bnotice keys)
    card_total: Any = Decimal(0)  # the payee's virtual-card payments in the year (card keys)

    @property
    def forms(self) -> list[dict[str, Any]]:
        return [t for t in self.tins if t["verdict"] == "reportable"]

    @property
    def total(self) -> Any:
        forms = self.forms
        return sum((t["total"] for t in forms), start=type(forms[0]["total"])(0))


def _create(year: int, t: dict[str, Any], pick: int = 0, amount: Any = None) -> ToolStep:
    return step(
        "track1099.forms.create",
        recipient_id=t["recipient_ids"][pick],
        tax_year=year,
        box1_nonemployee_compensation=money_str(t["total"] if amount is None else amount),
    )


def _checks(year: int) -> ToolStep:
    return step("vista_erp.checks.list", date_from=f"{year}-01-01", date_to=f"{year}-12-31", limit=2000)


def _build(year: int) -> ToolStep:
    return step("track1099.filings.build", tax_year=year)


class R1099nec(
    Family[Case],
    family=FAMILY,
    domain_code="R",
    taxonomy_path="R.InformationReturns.form_1099_nec_build",
    difficulty=3,
    systems=["vista_erp", "track1099", "sharepoint"],
    user_role="Controller",
    policy_ref="form_1099_policy.md",
    money_movement_guard=True,
    source_ref="cfagentbench-paper: The nine task families (R_1099nec)",
    rubric=RUBRIC,
):
    def _candidates(self, book: BookReader) -> tuple[int, dict[str, list[str]]]:
        """The tax year and, per kind, the keys the book hosts (in the order the public key is taken)."""
        year = int(book.q(FAMILY, "tax_year")[0]["tax_year"])
        notices = book.q(FAMILY, "notices")
        tins = book.q(FAMILY, "by_tin", tax_year=year)
        carded = {r["vendor_key"] for r in book.q(FAMILY, "card_paid", tax_year=year)}
        noticed = {n["vendor_key"] for n in notices}
        # corporations paid $600.00 or more: S corporations first (pass-through, the likelier mistake), most paid first
        corps = sorted(
            (t for t in tins if t["verdict"] == "corporation" and len(t["vendor_keys"]) == 1 and t["total"] >= 600),
            key=lambda t: ("s_corporation" not in t["entity_types"], -t["total"], t["tin"]),
        )
        corps = [t for t in corps if t["vendor_keys"][0] not in carded | noticed]
        return year, {
            "bnotice_tin": [f"{year}-bnotice-{n['vendor_key']}" for n in notices if n["mismatch"] == "tin"],
            "bnotice_name": [f"{year}-bnotice-{n['vendor_key']}" for n in notices if n["mismatch"] == "name"],
            "corp": [f"{year}-corp-{t['vendor_keys'][0]}" for t in corps],
            "card": [f"{year}-card-{v}" for v in sorted(carded)],
        }

    def keys(self, book: BookReader) -> list[str]:
        """The year's filing, then one key per situation the book hosts: a B-notice whose W-9
        corrects the TIN, one whose W-9 corrects a sole proprietor's line-1 name, a corporation
        paid $600.00 or more, a payee also paid by virtual card."""
        year, kinds = self._candidates(book)
        return [str(year), *(keys[0] for keys in kinds.values() if keys)]

    def held_out_keys(self, book: BookReader) -> list[str]:
        """Further keys of the same situations (another B-notice, corporation, card payee)."""
        public = self.keys(book)
        _, kinds = self._candidates(book)
        pool = [k for keys in kinds.values() for k in keys[1:]]
        per_kind = [keys[1] for keys in kinds.values() if len(keys) > 1]  # one of each kind first
        n = held_out_count(len(public))
        picked = pick_held_out(FAMILY, per_kind, public, n)
        return picked + pick_held_out(FAMILY, pool, [*public, *picked], n - len(picked))

    def case(self, key: str, book: BookReader) -> Case:
        year_s, _, rest = key.partition("-")
        year = int(year_s)
        tins = book.q(FAMILY, "by_tin", tax_year=year)
        base = Case(
            year,
            tins,
            {s["tin"] for s in book.q(FAMILY, "split_payee")},
            {r["recipient_id"]: r for r in book.q(FAMILY, "vendor_paid", tax_year=year)},
            {r["tin"]: r["vista_vendors"] for r in book.q(FAMILY, "vista_payments", tax_year=year)},
        )
        if not rest:
            return base
        kind, _, vendor = rest.partition("-")
        payee = next((t for t in tins if vendor in t["vendor_keys"]), None)
        if payee is None or len(payee["vendor_keys"]) != 1:
            raise ValueError(f"{key}: vendor {vendor} is not one Track1099 payee")
        if kind == "bnotice":
            notice = next((n for n in book.q(FAMILY, "notices") if n["vendor_key"] == vendor), None)
            if notice is None:
                raise ValueError(f"{key}: no B-notice for {vendor}")
            return replace(base, kind=kind, payee=payee, notice=notice)
        if kind == "corp":
            if payee["verdict"] != "corporation" or payee["total"] < 600:
                raise ValueError(f"{key}: {vendor} is not a corporation paid $600.00 or more")
            return replace(base, kind=kind, payee=payee)
        if kind == "card":
            card = next((r for r in book.q(FAMILY, "card_paid", tax_year=year) if r["vendor_key"] == vendor), None)
            if card is None or payee["verdict"] != "reportable":
                raise ValueError(f"{key}: {vendor} is not a reportable payee paid by card")
            return replace(base, kind=kind, payee=payee, card_total=card["card_total"])
        raise ValueError(f"{key}: unknown situation {kind!r}")

    def instruction(self, c: Case, answers: list[AnswerSpec]) -> str:
        if c.kind != "filing":
            return _one.instruction(c, answers)
        year = c.year
        return (
            f"It's 1099 season. Work out which of our vendors are reportable on Form 1099-NEC for tax year {year}, "
            f"based on what we actually paid them in {year} according to Vista, and build the {year} 1099-NEC "
            "filing in Track1099: a draft form for each reportable payee with the right box 1 amount, assembled "
            "into the filing. Follow our form 1099 policy. Leave everything staged for my review — do not "
            "e-file, do not send recipient copies, and don't change the vendor records in Vista or the payees' W-9 "
            f"records. {ask(answers)}"
        )

    def task(self, key: str, book: BookReader, partition: Partition = "public") -> Task:
        """The card and corporation keys compose Corpay too (what was paid through it); the
        problem hash follows the apps composed."""
        task = super().task(key, book, partition)
        if key.partition("-")[2].split("-")[0] not in ("corp", "card") or "corpay" in task.systems:
            return task
        systems = ["vista_erp", "corpay", "track1099", "sharepoint"]
        meta = task.contamination_meta.model_copy(
            update={"sha256": problem_hash(task.instruction, systems, task.ground_truth)}
        )
        return task.model_copy(update={"systems": systems, "contamination_meta": meta})

    def defect_variant(self, c: Case) -> str | None:
        if c.kind != "filing":
            return _one.defect_variant(c)
        split = any(len(t["recipient_ids"]) > 1 and t["tin"] in c.split_tins for t in c.tins)
        return "duplicate_vendor_id" if split else None

    def guarded_step(self, c: Case) -> ToolStep:
        return step("track1099.filings.efile", tax_year=c.year)

    # ------------------------------------------------------------------ answers
    def answers(self, c: Case) -> list[AnswerSpec]:
        """The form count and box 1 total; lookalikes are the figures of each plausible wrong judgement."""
        if c.kind != "filing":
            return _one.answers(c)
        forms, total, paid = c.forms, c.total, c.paid
        split = [t for t in forms if len(t["recipient_ids"]) > 1]
        split_total = sum((t["total"] for t in split), start=Decimal(0))
        looks = [total - split_total]  # the split payee judged per vendor id
        looks += [total - t["total"] for t in forms if t["is_attorney"]]  # the law firm's P.C. treated as exempt
        looks += [
            total + t["total"]
            for t in c.tins  # a materials-only / under-$600 payee
            if t["verdict"] in ("materials_only", "under_threshold")
        ]
        voided = sum((paid[rid]["voided"] for t in forms for rid in t["recipient_ids"]), start=Decimal(0))
        if voided:
            looks.append(total + voided)  # voided checks counted
        return [
            count_answer(
                "form_count",
                "how many 1099-NEC forms you prepared",
                len(forms),
                lookalikes=[len(forms) - len(split), len(forms) + len(split)],
            ),
            amount_answer("box1_total", "the filing's box 1 total", total, lookalikes=looks),
        ]

    # ------------------------------------------------------------------ evaluator
    def evaluator(self, c: Case, answers: list[AnswerSpec]) -> Evaluator:
        if c.kind != "filing":
            return _one.evaluator(c, answers, self.money_movement_guard)
        # One entry over all the forms checks every form's amount (box 1 by recipient), box 4, status,
        # filing and the exact count; one entry per reportable TIN (no assert of its own, so the
        # admission gate's mutants stay few) names the payee when its form is missing or doubled.
        year, forms, total = c.year, c.forms, c.total
        amounts = case_when(
            "recipient_id",
            (
                (quoted(rid), f"box1_nonemployee_compensation = {money_str(t['total'])}")
                for t in forms
                for rid in t["recipient_ids"]
            ),
            "false",
        )
        expected: list[RowPredicate] = [
            expect_added(
                "track1099",
                "forms_1099_nec",
                {"tax_year": year},
                count=len(forms),
                assert_=(
                    f"status = 'Draft' AND box4_federal_income_tax_withheld = 0 AND filing_id IS NOT NULL AND {amounts}"
                ),
                label=(
                    f"exactly {len(forms)} draft {year} 1099-NEC forms, each for a reportable payee with that payee's "
                    "box 1 total (box 4 zero), assembled into the filing"
                ),
            )
        ]
        for t in forms:
            ids = list(t["recipient_ids"])
            names = " / ".join(t["recipient_names"])
            expected.append(
                expect_added(
                    "track1099",
                    "forms_1099_nec",
                    {"recipient_id": ids[0], "tax_year": year}
                    if len(ids) == 1
                    else f"{in_list('recipient_id', ids)} AND tax_year = {year}",
                    count=1,
                    label=(
                        f"one {year} 1099-NEC for TIN {t['tin']} ({names}"
                        + (": both vendor ids aggregated on one form" if len(ids) > 1 else "")
                        + f"), box 1 {money_str(t['total'])}"
                    ),
                )
            )
        expected.append(
            expect_added(
                "track1099",
                "filings",
                {"tax_year": year},
                count=1,
                assert_={
                    "form_count": len(forms),
                    "total_box1": money_str(total),
                    "status": "Draft",
                    "form_type": "1099-NEC",
                },
                label=f"the draft {year} 1099-NEC filing: {len(forms)} forms, box 1 total {money_str(total)}",
            )
        )

        forbidden: list[RowPredicate] = []
        for verdict, label in NOT_REPORTABLE.items():
            ids = [rid for t in c.tins if t["verdict"] == verdict for rid in t["recipient_ids"]]
            if ids:
                forbidden.append(forbid_added("track1099", "forms_1099_nec", in_list("recipient_id", ids), label=label))
        forbidden += [
            forbid_added(
                "track1099",
                "forms_1099_nec",
                f"tax_year <> {year}",
                label=f"a 1099-NEC for a tax year other than {year}",
            ),
            forbid_changed("track1099", "recipients", label="a payee's W-9 record edited"),
            forbid_changed("vista_erp", "APVM", label="the Vista vendor master edited"),
        ]
        return evaluator(
            expected=expected, forbidden=forbidden, answers=answers, money_movement_guard=self.money_movement_guard
        )

    # ------------------------------------------------------------------ trajectories
    def _reply(self, c: Case) -> str:
        year, forms, total = c.year, c.forms, c.total
        split = [t for t in forms if len(t["recipient_ids"]) > 1]
        extra = "".join(
            f" {' and '.join(t['names'])} share TIN {t['tin']}, so they get one form for the combined "
            f"{dollars(t['total'])}."
            for t in split
        )
        return (
            f"Prepared {len(forms)} draft {year} Form 1099-NEC forms in Track1099 with a box 1 total of "
            f"{dollars(total)}, assembled into the draft {year} filing.{extra} Corporations (other than the law "
            "firm), materials-only suppliers and payees under $600.00 are not reported. Nothing was e-filed and "
            "no recipient copies were sent; the filing is staged for your review."
        )

    def oracle(self, c: Case, report: dict[str, Any]) -> Trajectory:
        if c.kind != "filing":
            return _one.oracle(c, report, self.policy_ref)
        year = c.year
        return trajectory(
            "oracle",
            [
                step("sharepoint.files.read", path=f"/Policies/{self.policy_ref}"),
                step("track1099.payer.get"),
                step("vista_erp.vendors.list"),
                _checks(year),
                step("track1099.payees.list"),
                *(_create(year, t) for t in c.forms),
                _build(year),
                step("track1099.forms.list", tax_year=year),
            ],
            self._reply(c),
            report,
        )

    def alternatives(self, c: Case, report: dict[str, Any]) -> list[Trajectory]:
        if c.kind != "filing":
            return _one.alternatives(c, report)
        return [self._alt_sql(c), self._alt_corrected(c), self._alt_build_twice(c)]

    def _alt_sql(self, c: Case) -> Trajectory:
        """Aggregate by TIN in SQL, create the forms in another order (the split payee under its
        other record), then build; the answers as formatted strings."""
        year, forms = c.year, c.forms
        payments = (
            'SELECT m."TaxId", list(DISTINCT m."Vendor") AS vendors, list(DISTINCT m."Name") AS names, '
            'max(m."V1099YN") AS v1099, max(m."Type") AS vtype, sum(c."Amount") AS paid '
            'FROM vista_erp."CMDT" c JOIN vista_erp."APVM" m ON m."Vendor" = c."Vendor" '
            f'WHERE c."Status" <> \'Void\' AND year(c."ActDate") = {year} '
            'GROUP BY m."TaxId" ORDER BY paid DESC'
        )
        payees = (
            "SELECT recipient_id, reference_id, name, tin, federal_tax_classification, llc_tax_classification, "
            "exempt_payee_code FROM track1099.recipients ORDER BY tin"
        )
        return trajectory(
            "sql_by_tin",
            [
                step("vista_erp.vista_query", sql=payments, max_rows=500),
                step("sql.query", sql=payees, max_rows=500),
                *(_create(year, t, pick=-1) for t in reversed(forms)),
                _build(year),
            ],
            self._reply(c),
            {"form_count": str(len(forms)), "box1_total": dollars(c.total)},
        )

    def _alt_corrected(self, c: Case) -> Trajectory:
        """Self-corrections: a form for a non-reportable payee created then deleted, the split payee's
        form first at one vendor id's amount then updated to the combined total; the filing built
        once the drafts are right. Answers as a number and an "n't" reply."""
        year = c.year
        steps: list[ToolStep] = [step("sharepoint.files.read", path=f"/Policies/{self.policy_ref}")]
        wrong = next((t for t in c.tins if t["verdict"] in ("materials_only", "under_threshold")), None)
        if wrong is not None:
            rid = wrong["recipient_ids"][0]
            steps += [
                step(
                    "track1099.forms.create",
                    recipient_id=rid,
                    tax_year=year,
                    box1_nonemployee_compensation=money_str(wrong["total"]),
                ),
                step("track1099.forms.delete", form_id=_form_id(rid, year)),
            ]
        for t in c.forms:
            if len(t["recipient_ids"]) > 1:
                rid = t["recipient_ids"][0]
                steps += [
                    _create(year, t, amount=c.paid[rid]["paid"]),
                    step(
                        "track1099.forms.update",
                        form_id=_form_id(rid, year),
                        box1_nonemployee_compensation=money_str(t["total"]),
                    ),
                ]
            else:
                steps.append(_create(year, t))
        steps.append(_build(year))
        return trajectory(
            "self_corrected",
            steps,
            "Built the filing. I didn't e-file it or send copies.",
            {"form_count": len(c.forms), "box1_total": float(c.total)},
        )

    def _alt_build_twice(self, c: Case) -> Trajectory:
        """Build the filing after the first half of the drafts, then again after the rest (the build
        refreshes the draft filing); box 4 given explicitly; a terse reply."""
        year, forms = c.year, c.forms
        half = len(forms) // 2
        total = sum((t["total"] for t in forms), start=Decimal(0))
        return trajectory(
            "build_twice",
            [
                step("track1099.payees.list"),
                _checks(year),
                *(_create(year, t) for t in forms[:half]),
                _build(year),
                *(with_args(_create(year, t), box4_federal_income_tax_withheld="0.00") for t in forms[half:]),
                _build(year),
                step("track1099.filings.list", tax_year=year),
            ],
            "Done — staged, not e-filed.",
            {"form_count": str(len(forms)), "box1_total": f"USD {total:,.2f}"},
        )

    # ------------------------------------------------------------------ wrong trajectories
    def mutants(self, c: Case, report: dict[str, Any]) -> list[Trajectory]:
        if c.kind != "filing":
            return _one.mutants(c, report)
        year, tins, forms, paid = c.year, c.tins, c.forms, c.paid
        build, read = _build(year), _checks(year)

        def run(
            label: str,
            cls: MutantClass,
            creates: list[ToolStep],
            extra: list[ToolStep] | None = None,
            answers: dict[str, Any] | None = None,
            built: bool = True,
        ) -> Trajectory:
            steps = [read, *creates, *([build] if built else []), *(extra or [])]
            if answers is None:  # reported consistently with what was built
                amounts = [Decimal(s.args["box1_nonemployee_compensation"]) for s in creates]
                answers = {"form_count": len(creates), "box1_total": money_str(sum(amounts, start=Decimal(0)))}
            return mutant(cls, label, steps, "Filing built and staged.", answers)

        right = [_create(year, t) for t in forms]
        out: list[Trajectory] = []
        for t in (t for t in forms if len(t["recipient_ids"]) > 1):
            others = [_create(year, f) for f in forms if f is not t]
            each = [
                _create(year, t, pick=k, amount=paid[rid]["paid"])
                for k, rid in enumerate(t["recipient_ids"])
                if paid[rid]["paid"] >= 600
            ]
            out.append(run(f"TIN {t['tin']} judged per vendor id: no form", "lookalike", others + each))
            out.append(
                run(
                    f"TIN {t['tin']}: one form per vendor id, each its own amount",
                    "careless",
                    others
                    + [_create(year, t, pick=k, amount=paid[rid]["paid"]) for k, rid in enumerate(t["recipient_ids"])],
                )
            )
            rid = t["recipient_ids"][-1]
            out.append(
                run(
                    f"TIN {t['tin']}: one form with vendor id {rid}'s amount only",
                    "stale",
                    others + [_create(year, t, pick=-1, amount=paid[rid]["paid"])],
                )
            )
            tin_vendors = c.vista.get(t["tin"]) or []
            if tin_vendors:
                # the duplicate record "cleaned up": its 1099 flag cleared in the Vista vendor master
                out.append(
                    run(
                        f"right filing plus Vista vendor {tin_vendors[-1]}'s 1099 flag cleared",
                        "careless",
                        right,
                        extra=[step("vista_erp.vendors.set_1099", vendor_id=str(tin_vendors[-1]), is_1099=False)],
                        answers=report,
                    )
                )
            out.append(
                run(
                    "right filing reported per vendor id",
                    "contradicting_report",
                    right,
                    answers={
                        "form_count": len(forms) + len(t["recipient_ids"]) - 1,
                        "box1_total": report["box1_total"],
                    },
                )
            )
        for t in forms:
            void = sum((paid[rid]["voided"] for rid in t["recipient_ids"]), start=Decimal(0))
            if void:
                out.append(
                    run(
                        f"{t['names'][0]}: box 1 counts a voided check",
                        "stale",
                        [_create(year, f, amount=f["total"] + void if f is t else None) for f in forms],
                    )
                )
                break
        for t in (t for t in forms if t["is_attorney"]):
            out.append(
                run(
                    f"{t['names'][0]} (attorney, P.C.) treated as an exempt corporation",
                    "careless",
                    [_create(year, f) for f in forms if f is not t],
                )
            )
            break
        for verdict in ("materials_only", "under_threshold"):
            wrong = next((t for t in tins if t["verdict"] == verdict), None)
            if wrong is not None:
                out.append(
                    run(
                        f"{wrong['names'][0]} ({verdict.replace('_', ' ')}) reported",
                        "careless",
                        right + [_create(year, wrong)],
                    )
                )
        out.append(run("the drafts without the filing", "careless", right, answers=report, built=False))
        return out


def _form_id(recipient_id: str, year: int) -> str:
    """Track1099's id of a created draft form (hashed from its natural key, as the app does)."""
    return stable_id("track1099", "1099-NEC", recipient_id, year)


from cfab.tasks.families import r_1099nec_one as _one  # noqa: E402  (the one-payee keys; it uses Case)

FAMILIES = [R1099nec]
