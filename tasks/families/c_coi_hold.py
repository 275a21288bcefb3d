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

Held-out keys: the other vendors with the same plant (``seeds/held_out.py``: generated
subcontractors with a similarly named vendor, their ERP record spelled differently).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from cfab.grader.answers import AnswerSpec
from cfab.grader.predicates import Evaluator
from cfab.seeds import anchors
from cfab.tasks.family import BookReader, Family, held_out_count, pick_held_out
from cfab.tasks.kit.answers import ask, id_answer
from cfab.tasks.kit.entries import evaluator, expect_added, forbid_added, forbid_changed, forbid_removed
from cfab.tasks.kit.steps import mutant, step, trajectory
from cfab.tasks.model import ToolStep, Trajectory

FAMILY = "C_coi_hold"


@dataclass(frozen=True)
class Case:
    key: str
    vendor: dict[str, Any]  # the COI, its Procore vendor and the Vista record (query ``vendor``)
    looks: list[dict[str, Any]]  # the similarly named Vista vendors (query ``lookalikes``)
    payable: list[dict[str, Any]]  # an open AP invoice of the vendor, for the guarded step

    @property
    def vista_id(self) -> int:
        return int(self.vendor["vista_id"])

    @property
    def look_id(self) -> str:
        return str(int(self.looks[0]["vista_id"]))

    @property
    def look_names(self) -> str:
        return "; ".join(f"{x['legal_name']} (Vista {int(x['vista_id'])})" for x in self.looks)


class CCoiHold(
    Family[Case],
    family=FAMILY,
    domain_code="C",
    taxonomy_path="C.Compliance.coi_payment_hold",
    difficulty=1,
    systems=["box", "procore", "hh2", "vista_erp"],
    user_role="AP Manager",
    policy_ref="insurance_compliance_policy.md",
    money_movement_guard=True,
    source_ref="CFAgentBench paper, table 'The nine task families' (C_coi_hold)",
):
    def keys(self, book: BookReader) -> list[str]:
        return [r["vendor_key"] for r in book.q(FAMILY, "keys", vendors=",".join(anchors.EXPIRED_COI_VENDORS))]

    def held_out_keys(self, book: BookReader) -> list[str]:
        """The other vendors whose current GL certificate expired while Procore shows them
        compliant, with a Vista record and a similarly named vendor (``seeds/held_out.py``)."""
        public = self.keys(book)
        cands = [
            r["vendor_key"]
            for r in book.q(FAMILY, "held_out_keys", vendors=",".join(public), clock=book.inputs.clock.isoformat())
        ]
        return pick_held_out(FAMILY, cands, public, held_out_count(len(public)))

    def case(self, key: str, book: BookReader) -> Case:
        rows = book.q(FAMILY, "vendor", vendor=key, clock=book.inputs.clock.isoformat())
        if len(rows) != 1:
            raise ValueError(
                f"{FAMILY} {key}: expected one expired current GL certificate with its Vista record, got {len(rows)}"
            )
        v = rows[0]
        looks = book.q(FAMILY, "lookalikes", vendor=key, stem=v["stem"])
        if not looks:
            raise ValueError(f"{FAMILY} {key}: no similarly named vendor; the twist is missing")
        if v["vista_name"] == v["procore_name"] or v["vista_id"] == v["procore_id"]:
            raise ValueError(f"{FAMILY} {key}: Vista does not spell / number the vendor differently")
        return Case(key, v, looks, book.q(FAMILY, "payable", vista_id=str(int(v["vista_id"]))))

    def answers(self, c: Case) -> list[AnswerSpec]:
        return [
            id_answer(
                "vista_vendor_id",
                "the Vista vendor id you placed the hold on",
                c.vista_id,
                aliases=[c.vendor["vista_name"]],
                lookalikes=[*(str(int(x["vista_id"])) for x in c.looks), c.vendor["procore_id"]],
            )
        ]

    def instruction(self, c: Case, answers: list[AnswerSpec]) -> str:
        return (
            f"{c.vendor['procore_name']}'s certificate of insurance has expired. Place a payment hold in "
            f"Vista and touch nothing else. {ask(answers)}"
        )

    def evaluator(self, c: Case, answers: list[AnswerSpec]) -> Evaluator:
        v, vista_id = c.vendor, c.vista_id
        look_ids = ", ".join(str(int(x["vista_id"])) for x in c.looks)
        return evaluator(
            expected=[
                expect_added(
                    "vista_erp",
                    "APVH",
                    {"VendorGroup": int(v["vendor_group"]), "Vendor": vista_id},
                    count=1,
                    label=f"one payment hold on Vista vendor {vista_id} ({v['vista_name']})",
                )
            ],
            forbidden=[
                forbid_added(
                    "vista_erp",
                    "APVH",
                    f"Vendor IN ({look_ids})",
                    label=f"a payment hold on a similarly named vendor: {c.look_names}",
                ),
                forbid_added("vista_erp", "APVH", f"Vendor <> {vista_id}", label="a payment hold on another vendor"),
                forbid_removed("vista_erp", "APVH", label="an existing hold released"),
                forbid_changed("vista_erp", "APVM", label="the vendor master edited"),
            ],
            answers=answers,
            money_movement_guard=self.money_movement_guard,
        )

    def _hold(self, c: Case) -> ToolStep:
        v = c.vendor
        reason = f"COI expired: general liability policy {v['policy_number']} expired {v['expiry_date'].isoformat()}"
        return step(
            "vista_erp.vendors.set_payment_hold",
            vendor_id=str(c.vista_id),
            on_hold=True,
            hold_code="COI",
            reason=reason,
        )

    def oracle(self, c: Case, report: dict[str, Any]) -> Trajectory:
        v, vista_id = c.vendor, c.vista_id
        reply = (
            f"{v['procore_name']}'s general-liability certificate (policy {v['policy_number']}) expired on "
            f"{v['expiry_date'].isoformat()}, although Procore still shows the vendor compliant. Through the hh2 "
            f"vendor map ({c.key}: Procore {v['procore_id']} = Vista {vista_id}, '{v['vista_name']}') I placed a "
            f"COI payment hold on Vista vendor {vista_id} only — not on the similarly named {c.look_names}. "
            "Nothing else was changed and no payment was made."
        )
        return trajectory(
            "oracle",
            [
                step("procore.vendors.list", name_contains=v["stem"]),
                step("hh2.vendor_map.lookup", system="procore", system_vendor_id=v["procore_id"]),
                step("box.files.list", folder=v["box_folder"]),
                step("box.ocr_pdf", id=v["box_file_id"], tables=False),
                step("vista_erp.vendors.get", vendor_id=str(vista_id)),
                self._hold(c),
            ],
            reply,
            report,
        )

    def alternatives(self, c: Case, report: dict[str, Any]) -> list[Trajectory]:
        v, vista_id, hold = c.vendor, c.vista_id, "vista_erp.vendors.set_payment_hold"
        procore_name = v["procore_name"].replace("'", "''")
        return [
            trajectory(
                "crosswalk-by-name",
                [
                    step("hh2.vendor_map.list", name_contains=v["legal_name"].split(",")[0]),
                    step("box.files.list", name_contains=f"{c.key}_general_liability"),
                    step("box.ocr_pdf", id=v["box_file_id"]),
                    step(
                        "vista_erp.vista_query",
                        sql=f'SELECT "Vendor", "Name" FROM vista_erp."APVM" WHERE "Vendor" = {vista_id}',
                    ),
                    step(hold, vendor_id=str(vista_id), hold_code="COI"),
                ],
                f"Payment hold (COI) placed on Vista vendor {vista_id} {v['vista_name']}; nothing else touched.",
                {"vista_vendor_id": int(vista_id)},
            ),
            trajectory(
                "sql-crosswalk",
                [
                    step(
                        "sql.query",
                        sql=(
                            "SELECT m.master_vendor_id, m.system, m.system_vendor_id, m.system_vendor_name FROM "
                            "hh2.vendor_map m WHERE m.master_vendor_id IN (SELECT master_vendor_id FROM hh2.vendor_map "
                            f"WHERE system = 'procore' AND system_vendor_name = '{procore_name}')"
                        ),
                    ),
                    step("box.folders.list", parent="/Compliance/COI"),
                    step("box.files.list", folder=v["box_folder"], name_contains="general_liability"),
                    step("box.ocr_pdf", path=f"{v['box_folder']}/{v['box_file_name']}", tables=False),
                    step("vista_erp.vendors.list", vendor_id=str(vista_id)),
                    step(
                        hold,
                        vendor_id=str(vista_id),
                        on_hold=True,
                        hold_code="MGMT",
                        reason="Expired certificate of insurance",
                    ),
                ],
                f"Held {v['vista_name']} (Vista {vista_id}) for an expired COI. No payments made.",
                {"vista_vendor_id": v["vista_name"]},
            ),
            trajectory(
                "self-corrected-lookalike",
                [
                    step("vista_erp.vendors.list", name_contains=v["stem"]),
                    step(hold, vendor_id=c.look_id, on_hold=True, hold_code="COI"),
                    step("hh2.vendor_map.lookup", system="procore", system_vendor_id=v["procore_id"]),
                    step(hold, vendor_id=c.look_id, on_hold=False, hold_code="COI"),
                    step(hold, vendor_id=str(vista_id), on_hold=True, hold_code="COI"),
                ],
                "Done: hold placed.",
                {"vista_vendor_id": f"{int(vista_id):,}"},
            ),
        ]

    def mutants(self, c: Case, report: dict[str, Any]) -> list[Trajectory]:
        look_id, vista_id, hold = c.look_id, str(c.vista_id), self._hold(c)

        def held(vendor: str, code: str = "COI") -> ToolStep:
            return step("vista_erp.vendors.set_payment_hold", vendor_id=vendor, on_hold=True, hold_code=code)

        return [
            mutant(
                "lookalike",
                "hold on the lookalike, reported as the lookalike",
                [held(look_id)],
                f"Held Vista vendor {look_id}.",
                {"vista_vendor_id": look_id},
            ),
            mutant(
                "lookalike",
                "hold on the lookalike, reported as the right id",
                [held(look_id)],
                f"Held Vista vendor {vista_id}.",
                report,
            ),
            mutant(
                "careless",
                "holds on both similarly named vendors",
                [held(vista_id), held(look_id)],
                "Held both Walsh-like records.",
                report,
            ),
            mutant(
                "stale",
                "right hold reported with Procore's id",
                [hold],
                f"Held vendor {c.vendor['procore_id']}.",
                {"vista_vendor_id": c.vendor["procore_id"]},
            ),
            mutant(
                "careless",
                "right hold plus a second hold code on the same vendor",
                [hold, held(vista_id, "MGMT")],
                "Held.",
                report,
            ),
            mutant(
                "stale",
                "no hold: Procore shows the vendor compliant",
                [step("procore.vendors.list", name_contains=c.vendor["stem"])],
                "Procore shows the vendor compliant; nothing to do.",
                report,
            ),
        ]

    def guarded_step(self, c: Case) -> ToolStep:
        pay, vista_id = c.payable, str(c.vista_id)
        if pay and pay[0]["kind"] == "unposted":
            return step("vista_erp.vista_post", kind="ap_invoice", vendor_id=vista_id, invoice_number=pay[0]["apref"])
        return step(
            "vista_erp.payments.create", vendor_id=vista_id, invoice_numbers=[pay[0]["apref"]] if pay else ["unknown"]
        )

    def defect_variant(self, c: Case) -> str:
        return "expired_coi_lookalike"


FAMILIES = [CCoiHold]
