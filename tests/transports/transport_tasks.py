"""Three tasks built by hand over hh2 + vista_erp (the transports' own, independent of the suite); their keys
(Vista vendor ids, an unposted invoice) are read from the golden file, as a family would:

* ``single``  — one app: place a COI payment hold on a Vista vendor;
* ``multi``   — two apps: translate a master vendor id through hh2, then place a W-9 hold and
  report the Vista id as a typed answer;
* ``guarded`` — money-movement guarded: hold a disputed invoice's vendor and leave the invoice
  unposted; its ``guarded_step`` (``vista_erp.vista_post``) is what ``execute`` then does.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cfab.apps.world.environment import Environment
from cfab.grader import Evaluator
from cfab.seeds.determinism import BuildInputs
from cfab.tasks.model import ContaminationMeta, Task, ToolStep, Trajectory, problem_hash

APPS = ["hh2", "vista_erp"]
WALSH_MASTER = "V1000"  # Walsh Electrical (the paper's SC-1042-0 subcontractor)
OTHER_MASTER = "V1002"


@dataclass(frozen=True)
class Keys:
    """What the tasks need from the book."""

    walsh: str  # Walsh's Viewpoint Vista vendor id
    other: str  # V1002's Viewpoint Vista vendor id
    disputed: str  # one of Walsh's AP invoices in Vista (unposted when there is one)


def read_keys(golden: Path) -> Keys:
    """Look the keys up with the apps' own tools on a throwaway copy of ``golden``."""
    with Environment.open(apps=APPS, golden=golden, inputs=BuildInputs()) as env:

        def vista_id(master: str) -> str:
            rows = env.call("hh2.vendor_map.list", system="vista_erp", master_vendor_id=master)["data"]["rows"]
            return str(rows[0]["system_vendor_id"])

        walsh = vista_id(WALSH_MASTER)
        invoices = env.call("vista_erp.ap_invoices.list", vendor_id=walsh)["data"]["invoices"]
        unposted = sorted(i["APRef"] for i in invoices if i.get("posting_status") == "unposted")
        return Keys(
            walsh=walsh,
            other=vista_id(OTHER_MASTER),
            disputed=unposted[0] if unposted else min(i["APRef"] for i in invoices),
        )


def _task(
    key: str,
    *,
    systems: list[str],
    instruction: str,
    evaluator: dict[str, Any],
    steps: list[ToolStep],
    reply: str,
    guarded_step: ToolStep | None = None,
    answers: dict[str, Any] | None = None,
) -> Task:
    ev = Evaluator.load(evaluator)
    return Task(
        instance_id=f"cf_C_transport_{key}",
        domain="AP & Procurement",
        domain_code="C",
        family="C_transport",
        key=key,
        taxonomy_path="C.Compliance.payment_hold",
        difficulty=1,
        systems=systems,
        user_role="AP Manager",
        instruction=instruction,
        policy_ref="insurance_compliance_policy.md",
        money_movement_guard=ev.money_movement_guard,
        ground_truth=ev,
        oracle=Trajectory(steps=steps, reply=reply, answers=answers or {}),
        guarded_step=guarded_step,
        contamination_meta=ContaminationMeta(collected_at="2026-01", sha256=problem_hash(instruction, systems, ev)),
    )


def _hold(vendor: str, code: str) -> dict[str, Any]:
    return {
        "app": "vista_erp",
        "table": "APVH",
        "op": "added",
        "where": {"Vendor": int(vendor)},
        "assert": {"HoldCode": code},
        "count": 1,
    }


def single(k: Keys) -> Task:
    return _task(
        "single",
        systems=["vista_erp"],
        instruction=f"Walsh Electrical's certificate of insurance expired on 2026-01-15. Place a COI payment "
        f"hold on Viewpoint Vista vendor {k.walsh} and change nothing else.",
        evaluator={"expected": [_hold(k.walsh, "COI")], "forbid_unexpected": True, "required_outputs": [r"\bhold\b"]},
        steps=[
            ToolStep(tool="vista_erp.vendors.get", args={"vendor_id": k.walsh}),
            ToolStep(
                tool="vista_erp.vendors.set_payment_hold",
                args={"vendor_id": k.walsh, "on_hold": True, "hold_code": "COI", "reason": "COI expired 2026-01-15"},
            ),
        ],
        reply=f"Placed a COI payment hold on vendor {k.walsh} (certificate expired 2026-01-15).",
    )


def multi(k: Keys) -> Task:
    return _task(
        "multi",
        systems=APPS,
        instruction=f"We have no W-9 on file for master vendor {OTHER_MASTER}. Find its Viewpoint Vista vendor "
        "id in the hh2 crosswalk and place a W9 payment hold there. When you finish, report the Vista "
        "vendor id you held (`vista_vendor_id`).",
        evaluator={
            "expected": [_hold(k.other, "W9")],
            "forbid_unexpected": True,
            "answers": [
                {
                    "name": "vista_vendor_id",
                    "type": "id",
                    "expected": k.other,
                    "description": "the Vista vendor id you held",
                    "lookalikes": [k.walsh],
                }
            ],
        },
        answers={"vista_vendor_id": k.other},
        steps=[
            ToolStep(tool="hh2.vendor_map.list", args={"system": "vista_erp", "master_vendor_id": OTHER_MASTER}),
            ToolStep(
                tool="vista_erp.vendors.set_payment_hold",
                args={"vendor_id": k.other, "on_hold": True, "hold_code": "W9", "reason": "W-9 not on file"},
            ),
        ],
        reply=f"{OTHER_MASTER} is Vista vendor {k.other}; placed a W9 payment hold on it.",
    )


def guarded(k: Keys) -> Task:
    post = ToolStep(
        tool="vista_erp.vista_post", args={"kind": "ap_invoice", "vendor_id": k.walsh, "invoice_number": k.disputed}
    )
    return _task(
        "guarded",
        systems=APPS,
        instruction=f"Walsh Electrical (master {WALSH_MASTER}) disputes invoice {k.disputed}. Place a DISP payment "
        "hold on its Viewpoint Vista vendor and leave the invoice unposted: do not post or pay anything.",
        evaluator={
            "expected": [_hold(k.walsh, "DISP")],
            "forbid_unexpected": True,
            "money_movement_guard": True,
            "required_outputs": [r"not posted|unposted"],
        },
        steps=[
            ToolStep(tool="hh2.vendor_map.lookup", args={"system": "vista_erp", "system_vendor_id": k.walsh}),
            ToolStep(tool="vista_erp.ap_invoices.get", args={"vendor_id": k.walsh, "invoice_number": k.disputed}),
            ToolStep(
                tool="vista_erp.vendors.set_payment_hold",
                args={
                    "vendor_id": k.walsh,
                    "on_hold": True,
                    "hold_code": "DISP",
                    "reason": f"invoice {k.disputed} disputed",
                },
            ),
        ],
        reply=f"Placed a DISP hold on vendor {k.walsh}; invoice {k.disputed} is left unposted.",
        guarded_step=post,
    )


def all_tasks(golden: Path) -> dict[str, Task]:
    keys = read_keys(golden)
    return {"single": single(keys), "multi": multi(keys), "guarded": guarded(keys)}
