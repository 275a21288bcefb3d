"""Avalara: rates per job address, calculation as a read, returns drafted from committed
transactions, filed periods locked."""

from __future__ import annotations

from decimal import Decimal

from tests.fixtures.envs import app_digest


def test_rates_and_calculation(open_env):
    env = open_env(["avalara"])
    rates = env.call("avalara.tax_rates.get", location_code="9140")["data"]
    assert [j["jurisdiction_type"] for j in rates["jurisdictions"]] == ["STA", "CTY", "CIT"]
    total = Decimal(rates["total_rate"])
    assert total == sum(Decimal(j["rate"]) for j in rates["jurisdictions"])
    before = app_digest(env)
    calc = env.call("avalara.taxes.calculate", location_code="9140", amount="14350.00")["data"]
    assert Decimal(calc["total_tax"]) == (Decimal("14350.00") * total).quantize(Decimal("0.01"))
    assert app_digest(env) == before
    same = env.call("avalara.taxes.calculate", region="il", county="Cook", city="Chicago", amount="14350.00")["data"]
    assert same["total_tax"] == calc["total_tax"]
    assert env.call("avalara.tax_rates.get", region="ZZ")["error_type"] == "not_found"
    assert env.call("avalara.locations.list", address_type="JobSite")["data"]["count"] == 3
    assert env.call("avalara.companies.list")["data"]["companies"][0]["company_code"] == "COMPANYA"


def test_returns(open_env):
    env = open_env(["avalara"])
    filed = env.call("avalara.returns.list", status="Filed")["data"]
    assert filed["count"] == 1 and filed["returns"][0]["filing_period"] == "2025-12"
    txns = env.call("avalara.transactions.list", reporting_period="2026-01")["data"]
    assert txns["count"] == 2
    draft = env.call("avalara.returns.create_draft", filing_period="2026-01", region="IL")
    assert draft["ok"], draft
    ret = draft["data"]["return"]
    committed = [t for t in txns["transactions"] if t["status"] == "Committed"]
    assert ret["status"] == "Draft" and ret["transaction_count"] == len(committed) == 1
    assert ret["total_tax_due"] == committed[0]["total_tax"] and ret["due_date"] == "2026-02-20"
    again = env.call("avalara.returns.create_draft", filing_period="2026-01", region="IL")
    assert again["ok"] and again["data"]["return"]["return_id"] == ret["return_id"]
    assert env.call("avalara.returns.create_draft", filing_period="2025-12", region="IL")["error_type"] == "conflict"
    assert (
        env.call("avalara.returns.create_draft", filing_period="2026-13", region="IL")["error_type"]
        == "invalid_argument"
    )
    assert (
        env.call("avalara.returns.create_draft", filing_period="2026-03", region="IL")["error_type"]
        == "invalid_argument"
    )
