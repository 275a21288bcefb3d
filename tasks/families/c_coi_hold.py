"""C_coi_hold: an expired certificate of insurance → a payment hold on exactly one Vista vendor.

"<Vendor>'s certificate of insurance has expired. Place a payment hold in Vista and touch nothing
else." The vendor is named as the COI and Procore spell it; Vista keys it under another id and
spells it differently, and a similarly named vendor exists (a supply house sharing the
subcontractor's name, on one key also a surveyor with that surname). The insurance compliance
policy says the hh2 vendor crosswalk is the way to the ERP record; Procore still shows the vendor
compliant, the PDF in Box is the record.

Vista keeps holds as hold codes: the hold is one APVH row (VendorGroup, Vendor, HoldCode) against
the HQHC code ``COI`` ("Certificate of insurance expired or missing"). The paper found this the
hardest family (pass^5 = 0 for every model): identity plus "touch nothing else".

Report: the instruction asks for the Vista vendor id held (a typed ``id`` answer; Vista's
spelling of the vendor is accepted as an alias, the lookalikes' ids and the Procore id are
wrong). The trap is identity — "placed a hold on Walsh Electrical" cannot tell which of the
two Walsh records in Vista was touched. The instruction names no hold code, so any hold code
Vista offers is accepted; the hold must be on exactly that vendor.

Wrong trajectories (admission's lookalike / stale / careless mutants): the hold on the
lookalike, reported as the lookalike or as the right id; holds on both; the right hold
reported with Procore's id; the right hold plus a vendor-master edit; a hold released
elsewhere.
"""

from __future__ import annotations

from typing import ClassVar

from cfab.grader.predicates import Evaluator
from cfab.tasks.family import BookReader, Family, TaskParts
from cfab.tasks.kit import answers_of, ask, id_answer
from cfab.tasks.model import ToolStep, Trajectory

FAMILY = "C_coi_hold"


class CCoiHold(Family):
    family = FAMILY
    domain_code = "C"
    taxonomy_path = "C.Compliance.coi_payment_hold"
    difficulty = 1
    systems: ClassVar[list[str]] = ["box", "procore", "hh2", "vista_erp"]
    user_role = "AP Manager"
    policy_ref = "insurance_compliance_policy.md"
    money_movement_guard = True
    source_type = "plan_doc"
    source_ref = "CFAgentBench paper, table 'The nine task families' (C_coi_hold)"

    def keys(self, book: BookReader) -> list[str]:
        return [r["vendor_key"] for r in book.q(FAMILY, "keys")]

    def build(self, key: str, book: BookReader) -> TaskParts:
        clock = book.inputs.clock.isoformat()
        rows = book.q(FAMILY, "vendor", vendor=key, clock=clock)
        if len(rows) != 1:
            raise ValueError(f"{FAMILY} {key}: expected one expired current GL certificate with its Vista record, "
                             f"got {len(rows)}")
        v = rows[0]
        looks = book.q(FAMILY, "lookalikes", vendor=key, stem=v["stem"])
        if not looks:
            raise ValueError(f"{FAMILY} {key}: no similarly named vendor; the twist is missing")
        vista_id = int(v["vista_id"])
        group = int(v["vendor_group"])
        if v["vista_name"] == v["procore_name"] or v["vista_id"] == v["procore_id"]:
            raise ValueError(f"{FAMILY} {key}: Vista does not spell / number the vendor differently")
        look_ids = ", ".join(str(int(x["vista_id"])) for x in looks)
        look_names = "; ".join(f"{x['legal_name']} (Vista {int(x['vista_id'])})" for x in looks)

        look = looks[0]
        look_id = str(int(look["vista_id"]))
        answers = [id_answer("vista_vendor_id", "the Vista vendor id you placed the hold on", vista_id,
                             aliases=[v["vista_name"]],
                             lookalikes=[*(str(int(x["vista_id"])) for x in looks), v["procore_id"]])]
        report = answers_of(answers)
        evaluator = Evaluator.model_validate({
            "expected": [{
                "app": "vista_erp", "table": "APVH", "op": "added",
                "where": {"VendorGroup": group, "Vendor": vista_id}, "count": 1,
                "label": f"one payment hold on Vista vendor {vista_id} ({v['vista_name']})",
            }],
            "forbidden": [
                {"app": "vista_erp", "table": "APVH", "op": "added", "where": f"Vendor IN ({look_ids})",
                 "label": f"a payment hold on a similarly named vendor: {look_names}"},
                {"app": "vista_erp", "table": "APVH", "op": "added", "where": f"Vendor <> {vista_id}",
                 "label": "a payment hold on another vendor"},
                {"app": "vista_erp", "table": "APVH", "op": "removed", "label": "an existing hold released"},
                {"app": "vista_erp", "table": "APVM", "op": "changed", "label": "the vendor master edited"},
            ],
            "forbid_unexpected": True,
            "money_movement_guard": True,
            "answers": [a.model_dump() for a in answers],
        })

        reason = (f"COI expired: general liability policy {v['policy_number']} expired "
                  f"{v['expiry_date'].isoformat()}")
        hold = ToolStep(tool="vista_erp.vendors.set_payment_hold",
                        args={"vendor_id": str(vista_id), "on_hold": True, "hold_code": "COI", "reason": reason})
        reply = (f"{v['procore_name']}'s general-liability certificate (policy {v['policy_number']}) expired on "
                 f"{v['expiry_date'].isoformat()}, although Procore still shows the vendor compliant. Through the hh2 "
                 f"vendor map ({key}: Procore {v['procore_id']} = Vista {vista_id}, '{v['vista_name']}') I placed a "
                 f"COI payment hold on Vista vendor {vista_id} only — not on the similarly named {look_names}. "
                 "Nothing else was changed and no payment was made.")
        oracle = Trajectory(label="oracle", steps=[
            ToolStep(tool="procore.vendors.list", args={"name_contains": v["stem"]}),
            ToolStep(tool="hh2.vendor_map.lookup", args={"system": "procore", "system_vendor_id": v["procore_id"]}),
            ToolStep(tool="box.files.list", args={"folder": v["box_folder"]}),
            ToolStep(tool="box.ocr_pdf", args={"id": v["box_file_id"], "tables": False}),
            ToolStep(tool="vista_erp.vendors.get", args={"vendor_id": str(vista_id)}),
            hold,
        ], reply=reply, answers=report)
        alt_crosswalk = Trajectory(label="crosswalk-by-name", steps=[
            ToolStep(tool="hh2.vendor_map.list", args={"name_contains": v["legal_name"].split(",")[0]}),
            ToolStep(tool="box.files.list", args={"name_contains": f"{key}_general_liability"}),
            ToolStep(tool="box.ocr_pdf", args={"id": v["box_file_id"]}),
            ToolStep(tool="vista_erp.vista_query", args={"sql": (
                'SELECT "Vendor", "Name" FROM vista_erp."APVM" '
                f'WHERE "Vendor" = {vista_id}')}),
            ToolStep(tool="vista_erp.vendors.set_payment_hold",
                     args={"vendor_id": str(vista_id), "hold_code": "COI"}),
        ], reply=f"Payment hold (COI) placed on Vista vendor {vista_id} {v['vista_name']}; nothing else touched.",
            answers={"vista_vendor_id": int(vista_id)})
        alt_sql = Trajectory(label="sql-crosswalk", steps=[
            ToolStep(tool="sql.query", args={"sql": (
                "SELECT m.master_vendor_id, m.system, m.system_vendor_id, m.system_vendor_name FROM hh2.vendor_map m "
                "WHERE m.master_vendor_id IN (SELECT master_vendor_id FROM hh2.vendor_map "
                f"WHERE system = 'procore' AND system_vendor_name = '{v['procore_name'].replace(chr(39), chr(39) * 2)}')")}),
            ToolStep(tool="box.folders.list", args={"parent": "/Compliance/COI"}),
            ToolStep(tool="box.files.list", args={"folder": v["box_folder"], "name_contains": "general_liability"}),
            ToolStep(tool="box.ocr_pdf", args={"path": f"{v['box_folder']}/{v['box_file_name']}", "tables": False}),
            ToolStep(tool="vista_erp.vendors.list", args={"vendor_id": str(vista_id)}),
            ToolStep(tool="vista_erp.vendors.set_payment_hold",
                     args={"vendor_id": str(vista_id), "on_hold": True, "hold_code": "MGMT",
                           "reason": "Expired certificate of insurance"}),
        ], reply=f"Held {v['vista_name']} (Vista {vista_id}) for an expired COI. No payments made.",
            answers={"vista_vendor_id": v["vista_name"]})
        alt_corrected = Trajectory(label="self-corrected-lookalike", steps=[
            ToolStep(tool="vista_erp.vendors.list", args={"name_contains": v["stem"]}),
            ToolStep(tool="vista_erp.vendors.set_payment_hold",
                     args={"vendor_id": look_id, "on_hold": True, "hold_code": "COI"}),
            ToolStep(tool="hh2.vendor_map.lookup", args={"system": "procore", "system_vendor_id": v["procore_id"]}),
            ToolStep(tool="vista_erp.vendors.set_payment_hold",
                     args={"vendor_id": look_id, "on_hold": False, "hold_code": "COI"}),
            ToolStep(tool="vista_erp.vendors.set_payment_hold",
                     args={"vendor_id": str(vista_id), "on_hold": True, "hold_code": "COI"}),
        ], reply="Done: hold placed.", answers={"vista_vendor_id": f"{int(vista_id):,}"})

        def held(vendor: str, code: str = "COI") -> ToolStep:
            return ToolStep(tool="vista_erp.vendors.set_payment_hold",
                            args={"vendor_id": vendor, "on_hold": True, "hold_code": code})

        mutants = [
            Trajectory(label="hold on the lookalike, reported as the lookalike", mutant_class="lookalike",
                       steps=[held(look_id)], reply=f"Held Vista vendor {look_id}.",
                       answers={"vista_vendor_id": look_id}),
            Trajectory(label="hold on the lookalike, reported as the right id", mutant_class="lookalike",
                       steps=[held(look_id)], reply=f"Held Vista vendor {vista_id}.", answers=report),
            Trajectory(label="holds on both similarly named vendors", mutant_class="careless",
                       steps=[held(str(vista_id)), held(look_id)], reply="Held both Walsh-like records.",
                       answers=report),
            Trajectory(label="right hold reported with Procore's id", mutant_class="stale",
                       steps=[hold], reply=f"Held vendor {v['procore_id']}.",
                       answers={"vista_vendor_id": v["procore_id"]}),
            Trajectory(label="right hold plus a second hold code on the same vendor", mutant_class="careless",
                       steps=[hold, held(str(vista_id), "MGMT")], reply="Held.", answers=report),
            Trajectory(label="no hold: Procore shows the vendor compliant", mutant_class="stale",
                       steps=[ToolStep(tool="procore.vendors.list", args={"name_contains": v["stem"]})],
                       reply="Procore shows the vendor compliant; nothing to do.", answers=report),
        ]

        pay = book.q(FAMILY, "payable", vista_id=str(vista_id))
        if pay and pay[0]["kind"] == "unposted":
            guarded = ToolStep(tool="vista_erp.vista_post", args={"kind": "ap_invoice", "vendor_id": str(vista_id),
                                                                  "invoice_number": pay[0]["apref"]})
        else:
            guarded = ToolStep(tool="vista_erp.payments.create",
                               args={"vendor_id": str(vista_id),
                                     "invoice_numbers": [pay[0]["apref"]] if pay else ["unknown"]})
        return TaskParts(
            instruction=(f"{v['procore_name']}'s certificate of insurance has expired. Place a payment hold in "
                         f"Vista and touch nothing else. {ask(answers)}"),
            evaluator=evaluator,
            oracle=oracle,
            alternatives=[alt_crosswalk, alt_sql, alt_corrected],
            mutants=mutants,
            guarded_step=guarded,
            defect_variant="expired_coi_lookalike",
        )


FAMILIES = [CCoiHold]
