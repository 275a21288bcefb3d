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

Wrong trajectories (admission's lookalike / stale / careless / contradicting_report mutants):
each of those judgements carried out (reported consistently), the split payee's form with one
vendor id's amount, the forms without the filing, a Vista vendor-master edit, the right filing
reported per vendor id.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any, ClassVar

from cfab.grader.predicates import Evaluator, RowPredicate
from cfab.seeds.determinism import stable_id
from cfab.tasks.family import BookReader, Family, TaskParts, dollars, money_str
from cfab.tasks.kit import amount_answer, answers_of, ask, count_answer
from cfab.tasks.model import Rubric, RubricCheck, ToolStep, Trajectory

SQL = "R_1099nec"

NOT_REPORTABLE = {
    "corporation": "a 1099-NEC for a corporation (exempt: not an attorney or law firm)",
    "materials_only": "a 1099-NEC for a supplier of materials only",
    "under_threshold": "a 1099-NEC for a payee paid less than $600.00 in the year (aggregated by TIN)",
    "no_payments": "a 1099-NEC for a payee with no payments in the year",
}


def _in(values: list[str]) -> str:
    quoted = ", ".join("'" + v.replace("'", "''") + "'" for v in values)
    return f"recipient_id IN ({quoted})"


class Form1099NecFiling(Family):
    family = "R_1099nec"
    domain_code = "R"
    taxonomy_path = "R.InformationReturns.form_1099_nec_build"
    difficulty = 3
    systems: ClassVar[list[str]] = ["vista_erp", "track1099", "sharepoint"]
    user_role = "Controller"
    policy_ref = "form_1099_policy.md"
    money_movement_guard = True
    source_type = "plan_doc"
    source_ref = "cfagentbench-paper: The nine task families (R_1099nec)"

    def keys(self, book: BookReader) -> list[str]:
        return [str(book.q(SQL, "tax_year")[0]["tax_year"])]

    def build(self, key: str, book: BookReader) -> TaskParts:
        year = int(key)
        tins = book.q(SQL, "by_tin", tax_year=year)
        forms = [t for t in tins if t["verdict"] == "reportable"]
        total = sum((t["total"] for t in forms), start=type(forms[0]["total"])(0))
        split = book.q(SQL, "split_payee")
        split_tins = {s["tin"] for s in split}
        defect = "duplicate_vendor_id" if any(len(t["recipient_ids"]) > 1 and t["tin"] in split_tins
                                              for t in tins) else None
        paid = {r["recipient_id"]: r for r in book.q(SQL, "vendor_paid", tax_year=year)}
        vista = {r["tin"]: r["vista_vendors"] for r in book.q(SQL, "vista_payments", tax_year=year)}

        answers = self._answers(tins, forms, total, paid)
        instruction = (
            f"It's 1099 season. Work out which of our vendors are reportable on Form 1099-NEC for tax year {year}, "
            f"based on what we actually paid them in {year} according to Vista, and build the {year} 1099-NEC filing "
            "in Track1099: a draft form for each reportable payee with the right box 1 amount, assembled into the "
            "filing. Follow our form 1099 policy. Leave everything staged for my review — do not e-file, do not "
            "send recipient copies, and don't change the vendor records in Vista or the payees' W-9 records. "
            f"{ask(answers)}"
        )
        evaluator = self._evaluator(year, tins, forms, total, answers)
        report = answers_of(answers)
        oracle = self._oracle(year, forms, total, report)
        alternatives = [self._alt_sql(year, forms, total), self._alt_corrected(year, tins, forms, total, paid),
                        self._alt_build_twice(year, forms)]
        mutants = self._mutants(year, tins, forms, total, paid, vista, report)
        return TaskParts(instruction=instruction, evaluator=evaluator, oracle=oracle, alternatives=alternatives,
                         mutants=mutants,
                         guarded_step=ToolStep(tool="track1099.filings.efile", args={"tax_year": year}),
                         defect_variant=defect,
                         rubric=Rubric(partial=[RubricCheck(weight=0.5, check="reportable_payees_by_tin"),
                                                RubricCheck(weight=0.3, check="box1_amounts"),
                                                RubricCheck(weight=0.2, check="filing_assembled_not_filed")]))

    # ------------------------------------------------------------------ answers
    def _answers(self, tins: list[dict[str, Any]], forms: list[dict[str, Any]], total: Any,
                 paid: dict[str, dict[str, Any]]) -> list[Any]:
        """The form count and box 1 total; lookalikes are the figures of each plausible wrong judgement."""
        split = [t for t in forms if len(t["recipient_ids"]) > 1]
        split_total = sum((t["total"] for t in split), start=Decimal(0))
        looks = [total - split_total]                                      # the split payee judged per vendor id
        looks += [total - t["total"] for t in forms if t["is_attorney"]]    # the law firm's P.C. treated as exempt
        looks += [total + t["total"] for t in tins                          # a materials-only / under-$600 payee
                  if t["verdict"] in ("materials_only", "under_threshold")]
        voided = sum((paid[rid]["voided"] for t in forms for rid in t["recipient_ids"]), start=Decimal(0))
        if voided:
            looks.append(total + voided)                                    # voided checks counted
        return [count_answer("form_count", "how many 1099-NEC forms you prepared", len(forms),
                             lookalikes=[len(forms) - len(split), len(forms) + len(split)]),
                amount_answer("box1_total", "the filing's box 1 total", total, lookalikes=looks)]

    # ------------------------------------------------------------------ evaluator
    def _evaluator(self, year: int, tins: list[dict[str, Any]], forms: list[dict[str, Any]], total: Any,
                   answers: list[Any]) -> Evaluator:
        # One entry over all the forms checks every form's amount (box 1 by recipient), box 4, status,
        # filing and the exact count; one entry per reportable TIN (no assert of its own, so the
        # admission gate's mutants stay few) names the payee when its form is missing or doubled.
        amounts = " ".join(f"WHEN '{rid}' THEN box1_nonemployee_compensation = {money_str(t['total'])}"
                           for t in forms for rid in t["recipient_ids"])
        expected: list[RowPredicate] = [RowPredicate(
            app="track1099", table="forms_1099_nec", op="added", where={"tax_year": year}, count=len(forms),
            assert_=(f"status = 'Draft' AND box4_federal_income_tax_withheld = 0 AND filing_id IS NOT NULL "
                     f"AND CASE recipient_id {amounts} ELSE false END"),
            label=(f"exactly {len(forms)} draft {year} 1099-NEC forms, each for a reportable payee with that payee's "
                   "box 1 total (box 4 zero), assembled into the filing"))]
        for t in forms:
            ids = list(t["recipient_ids"])
            names = " / ".join(t["recipient_names"])
            expected.append(RowPredicate(
                app="track1099", table="forms_1099_nec", op="added",
                where=({"recipient_id": ids[0], "tax_year": year} if len(ids) == 1
                       else f"{_in(ids)} AND tax_year = {year}"),
                count=1,
                label=(f"one {year} 1099-NEC for TIN {t['tin']} ({names}"
                       + (": both vendor ids aggregated on one form" if len(ids) > 1 else "")
                       + f"), box 1 {money_str(t['total'])}")))
        expected.append(RowPredicate(
            app="track1099", table="filings", op="added", where={"tax_year": year}, count=1,
            assert_={"form_count": len(forms), "total_box1": money_str(total), "status": "Draft",
                     "form_type": "1099-NEC"},
            label=f"the draft {year} 1099-NEC filing: {len(forms)} forms, box 1 total {money_str(total)}"))

        forbidden: list[RowPredicate] = []
        for verdict, label in NOT_REPORTABLE.items():
            ids = [rid for t in tins if t["verdict"] == verdict for rid in t["recipient_ids"]]
            if ids:
                forbidden.append(RowPredicate(app="track1099", table="forms_1099_nec", op="added", where=_in(ids),
                                              label=label))
        forbidden += [
            RowPredicate(app="track1099", table="forms_1099_nec", op="added", where=f"tax_year <> {year}",
                         label=f"a 1099-NEC for a tax year other than {year}"),
            RowPredicate(app="track1099", table="recipients", op="changed", label="a payee's W-9 record edited"),
            RowPredicate(app="vista_erp", table="APVM", op="changed", label="the Vista vendor master edited"),
        ]
        return Evaluator(expected=expected, forbidden=forbidden, forbid_unexpected=True, money_movement_guard=True,
                         answers=[a.model_dump() for a in answers])

    # ------------------------------------------------------------------ trajectories
    def _create(self, year: int, t: dict[str, Any], pick: int = 0, amount: Any = None) -> ToolStep:
        return ToolStep(tool="track1099.forms.create",
                        args={"recipient_id": t["recipient_ids"][pick], "tax_year": year,
                              "box1_nonemployee_compensation": money_str(t["total"] if amount is None else amount)})

    def _reply(self, year: int, forms: list[dict[str, Any]], total: Any) -> str:
        split = [t for t in forms if len(t["recipient_ids"]) > 1]
        extra = "".join(
            f" {' and '.join(t['names'])} share TIN {t['tin']}, so they get one form for the combined "
            f"{dollars(t['total'])}." for t in split)
        return (f"Prepared {len(forms)} draft {year} Form 1099-NEC forms in Track1099 with a box 1 total of "
                f"{dollars(total)}, assembled into the draft {year} filing.{extra} Corporations (other than the law "
                "firm), materials-only suppliers and payees under $600.00 are not reported. Nothing was e-filed and "
                "no recipient copies were sent; the filing is staged for your review.")

    def _oracle(self, year: int, forms: list[dict[str, Any]], total: Any, report: dict[str, Any]) -> Trajectory:
        steps = [
            ToolStep(tool="sharepoint.files.read", args={"path": f"/Policies/{self.policy_ref}"}),
            ToolStep(tool="track1099.payer.get", args={}),
            ToolStep(tool="vista_erp.vendors.list", args={}),
            ToolStep(tool="vista_erp.checks.list",
                     args={"date_from": f"{year}-01-01", "date_to": f"{year}-12-31", "limit": 2000}),
            ToolStep(tool="track1099.payees.list", args={}),
            *[self._create(year, t) for t in forms],
            ToolStep(tool="track1099.filings.build", args={"tax_year": year}),
            ToolStep(tool="track1099.forms.list", args={"tax_year": year}),
        ]
        return Trajectory(label="oracle", steps=steps, reply=self._reply(year, forms, total), answers=report)

    def _alt_sql(self, year: int, forms: list[dict[str, Any]], total: Any) -> Trajectory:
        """Aggregate by TIN in SQL, create the forms in another order (the split payee under its
        other record), then build; the answers as formatted strings."""
        payments = ('SELECT m."TaxId", list(DISTINCT m."Vendor") AS vendors, list(DISTINCT m."Name") AS names, '
                    'max(m."V1099YN") AS v1099, max(m."Type") AS vtype, sum(c."Amount") AS paid '
                    'FROM vista_erp."CMDT" c JOIN vista_erp."APVM" m ON m."Vendor" = c."Vendor" '
                    f'WHERE c."Status" <> \'Void\' AND year(c."ActDate") = {year} '
                    'GROUP BY m."TaxId" ORDER BY paid DESC')
        payees = ("SELECT recipient_id, reference_id, name, tin, federal_tax_classification, llc_tax_classification, "
                  "exempt_payee_code FROM track1099.recipients ORDER BY tin")
        steps = [
            ToolStep(tool="vista_erp.vista_query", args={"sql": payments, "max_rows": 500}),
            ToolStep(tool="sql.query", args={"sql": payees, "max_rows": 500}),
            *[self._create(year, t, pick=-1) for t in reversed(forms)],
            ToolStep(tool="track1099.filings.build", args={"tax_year": year}),
        ]
        return Trajectory(label="sql_by_tin", steps=steps, reply=self._reply(year, forms, total),
                          answers={"form_count": str(len(forms)), "box1_total": dollars(total)})

    def _alt_corrected(self, year: int, tins: list[dict[str, Any]], forms: list[dict[str, Any]], total: Any,
                       paid: dict[str, dict[str, Any]]) -> Trajectory:
        """Self-corrections: a form for a non-reportable payee created then deleted, the split payee's
        form first at one vendor id's amount then updated to the combined total; the filing built
        once the drafts are right. Answers as a number and an "n't" reply."""
        steps: list[ToolStep] = [ToolStep(tool="sharepoint.files.read", args={"path": f"/Policies/{self.policy_ref}"})]
        wrong = next((t for t in tins if t["verdict"] in ("materials_only", "under_threshold")), None)
        if wrong is not None:
            rid = wrong["recipient_ids"][0]
            steps += [ToolStep(tool="track1099.forms.create",
                               args={"recipient_id": rid, "tax_year": year,
                                     "box1_nonemployee_compensation": money_str(wrong["total"])}),
                      ToolStep(tool="track1099.forms.delete", args={"form_id": _form_id(rid, year)})]
        for t in forms:
            if len(t["recipient_ids"]) > 1:
                rid = t["recipient_ids"][0]
                steps += [self._create(year, t, amount=paid[rid]["paid"]),
                          ToolStep(tool="track1099.forms.update",
                                   args={"form_id": _form_id(rid, year),
                                         "box1_nonemployee_compensation": money_str(t["total"])})]
            else:
                steps.append(self._create(year, t))
        steps.append(ToolStep(tool="track1099.filings.build", args={"tax_year": year}))
        return Trajectory(label="self_corrected", steps=steps,
                          reply="Built the filing. I didn't e-file it or send copies.",
                          answers={"form_count": len(forms), "box1_total": float(total)})

    def _alt_build_twice(self, year: int, forms: list[dict[str, Any]]) -> Trajectory:
        """Build the filing after the first half of the drafts, then again after the rest (the build
        refreshes the draft filing); box 4 given explicitly; a terse reply."""
        half = len(forms) // 2
        steps = [ToolStep(tool="track1099.payees.list", args={}),
                 ToolStep(tool="vista_erp.checks.list",
                          args={"date_from": f"{year}-01-01", "date_to": f"{year}-12-31", "limit": 2000}),
                 *[self._create(year, t) for t in forms[:half]],
                 ToolStep(tool="track1099.filings.build", args={"tax_year": year}),
                 *[ToolStep(tool="track1099.forms.create",
                            args={**self._create(year, t).args, "box4_federal_income_tax_withheld": "0.00"})
                   for t in forms[half:]],
                 ToolStep(tool="track1099.filings.build", args={"tax_year": year}),
                 ToolStep(tool="track1099.filings.list", args={"tax_year": year})]
        total = sum((t["total"] for t in forms), start=Decimal(0))
        return Trajectory(label="build_twice", steps=steps, reply="Done — staged, not e-filed.",
                          answers={"form_count": str(len(forms)), "box1_total": f"USD {total:,.2f}"})

    # ------------------------------------------------------------------ wrong trajectories
    def _mutants(self, year: int, tins: list[dict[str, Any]], forms: list[dict[str, Any]], total: Any,
                 paid: dict[str, dict[str, Any]], vista: dict[str, list[Any]], report: dict[str, Any]
                 ) -> list[Trajectory]:
        build = ToolStep(tool="track1099.filings.build", args={"tax_year": year})
        read = ToolStep(tool="vista_erp.checks.list",
                        args={"date_from": f"{year}-01-01", "date_to": f"{year}-12-31", "limit": 2000})

        def run(label: str, cls: str, creates: list[ToolStep], extra: list[ToolStep] | None = None,
                answers: dict[str, Any] | None = None, built: bool = True) -> Trajectory:
            steps = [read, *creates, *([build] if built else []), *(extra or [])]
            if answers is None:  # reported consistently with what was built
                amounts = [Decimal(s.args["box1_nonemployee_compensation"]) for s in creates]
                answers = {"form_count": len(creates), "box1_total": money_str(sum(amounts, start=Decimal(0)))}
            return Trajectory(label=label, mutant_class=cls, steps=steps, reply="Filing built and staged.",
                              answers=answers)

        right = [self._create(year, t) for t in forms]
        out: list[Trajectory] = []
        for t in (t for t in forms if len(t["recipient_ids"]) > 1):
            others = [self._create(year, f) for f in forms if f is not t]
            each = [self._create(year, t, pick=k, amount=paid[rid]["paid"]) for k, rid in enumerate(t["recipient_ids"])
                    if paid[rid]["paid"] >= 600]
            out.append(run(f"TIN {t['tin']} judged per vendor id: no form", "lookalike", others + each))
            out.append(run(f"TIN {t['tin']}: one form per vendor id, each its own amount", "careless",
                           others + [self._create(year, t, pick=k, amount=paid[rid]["paid"])
                                     for k, rid in enumerate(t["recipient_ids"])]))
            rid = t["recipient_ids"][-1]
            out.append(run(f"TIN {t['tin']}: one form with vendor id {rid}'s amount only", "stale",
                           others + [self._create(year, t, pick=-1, amount=paid[rid]["paid"])]))
            tin_vendors = vista.get(t["tin"]) or []
            if tin_vendors:
                # the duplicate record "cleaned up": its 1099 flag cleared in the Vista vendor master
                out.append(run(f"right filing plus Vista vendor {tin_vendors[-1]}'s 1099 flag cleared", "careless",
                               right, extra=[ToolStep(tool="vista_erp.vendors.set_1099",
                                                      args={"vendor_id": str(tin_vendors[-1]), "is_1099": False})],
                               answers=report))
            out.append(run("right filing reported per vendor id", "contradicting_report", right,
                           answers={"form_count": len(forms) + len(t["recipient_ids"]) - 1,
                                    "box1_total": report["box1_total"]}))
        for t in forms:
            void = sum((paid[rid]["voided"] for rid in t["recipient_ids"]), start=Decimal(0))
            if void:
                out.append(run(f"{t['names'][0]}: box 1 counts a voided check", "stale",
                               [self._create(year, f, amount=f["total"] + void if f is t else None) for f in forms]))
                break
        for t in (t for t in forms if t["is_attorney"]):
            out.append(run(f"{t['names'][0]} (attorney, P.C.) treated as an exempt corporation", "careless",
                           [self._create(year, f) for f in forms if f is not t]))
            break
        for verdict in ("materials_only", "under_threshold"):
            t = next((t for t in tins if t["verdict"] == verdict), None)
            if t is not None:
                out.append(run(f"{t['names'][0]} ({verdict.replace('_', ' ')}) reported", "careless",
                               right + [self._create(year, t)]))
        out.append(run("the drafts without the filing", "careless", right, answers=report, built=False))
        return out


def _form_id(recipient_id: str, year: int) -> str:
    """Track1099's id of a created draft form (hashed from its natural key, as the app does)."""
    return stable_id("track1099", "1099-NEC", recipient_id, year)


FAMILIES = [Form1099NecFiling]
