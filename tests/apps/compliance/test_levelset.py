"""Levelset: companies/jobs/waivers as the book has them with Levelset's ids and spellings; a
waiver request is a normal draft write; signed waivers are locked."""

from __future__ import annotations


def test_reads(open_env):
    env = open_env(["levelset"])
    cos = env.call("levelset.companies.list", name_contains="walsh")["data"]
    assert cos["count"] == 1 and cos["companies"][0]["company_id"] == "LS-20417"
    assert cos["companies"][0]["company_name"] == "Walsh Electric"
    assert env.call("levelset.jobs.list")["data"]["count"] == 3
    w = env.call("levelset.waivers.list", job_id="1042")["data"]
    assert w["count"] == 2 and {x["company_name"] for x in w["waivers"]} == {"Walsh Electric"}
    assert env.call("levelset.waivers.list", status="Requested")["data"]["waivers"][0]["payment_reference"] == "PD-5521"
    reqs = env.call("levelset.waiver_requests.list", status="Sent")["data"]
    assert reqs["count"] == 1 and reqs["requests"][0]["waiver_id"] == "LW-V1002-2"
    assert env.call("levelset.notices.list", job_id="1042")["data"]["count"] == 1


def test_request_create_conflict_cancel(open_env):
    env = open_env(["levelset"])
    args = dict(
        job_id="1042",
        company_id="LS-20417",
        waiver_type="Conditional Progress",
        amount="41000.00",
        through_date="2026-01-31",
        payment_reference="WEC-2026-004",
    )
    out = env.call("levelset.waiver_requests.create", **args)
    assert out["ok"], out
    req = out["data"]["request"]
    assert req["status"] == "Draft" and req["due_date"] == "2026-02-14"
    assert env.call("levelset.waiver_requests.create", **args)["error_type"] == "conflict"
    assert (
        env.call("levelset.waiver_requests.create", **{**args, "amount": "-1.00"})["error_type"] == "invalid_argument"
    )
    assert env.call("levelset.waiver_requests.create", **{**args, "company_id": "LS-0"})["error_type"] == "not_found"
    assert (
        env.call("levelset.waiver_requests.create", **{**args, "waiver_type": "Partial"})["error_type"]
        == "invalid_argument"
    )
    cancelled = env.call("levelset.waiver_requests.cancel", request_id=req["request_id"])
    assert cancelled["ok"] and cancelled["data"]["request"]["status"] == "Cancelled"
    again = env.call("levelset.waiver_requests.create", **args)
    assert again["ok"] and again["data"]["request"]["request_id"] != req["request_id"]
    sent = env.call("levelset.waiver_requests.list", status="Sent")["data"]["requests"][0]
    assert env.call("levelset.waiver_requests.cancel", request_id=sent["request_id"])["error_type"] == "rejected"
