"""Avalara AvaTax (with Avalara Returns): sales and use tax for the company's locations.

The tax archetype: the company, its locations (office, job sites), the jurisdiction rates that
apply there, a tax calculation (a read: nothing is recorded), the use-tax transactions on file and
the periodic returns. Drafting a return is a normal write; filing it is a guarded e-file.
"""

from __future__ import annotations

import re
from datetime import date
from decimal import Decimal
from typing import Any, ClassVar

from pydantic import Field

from cfab.apps.contract import App
from cfab.apps.kit import ZERO, cents, money_arg
from cfab.apps.registry import register
from cfab.apps.tooling import NoArgs, ToolArgs, ToolError, tool

_PERIOD = re.compile(r"^\d{4}-(0[1-9]|1[0-2])$")


class LocationListArgs(ToolArgs):
    region: str | None = Field(None, description="State (two letters)", examples=["IL"])
    address_type: str | None = Field(None, description="Headquarters or JobSite", examples=["JobSite"])


class RateArgs(ToolArgs):
    location_code: str | None = Field(
        None, description="Location code (the job number, or HQ); or give an address", examples=["1042"]
    )
    region: str | None = Field(None, description="State of the address", examples=["IL"])
    county: str | None = Field(None, description="County of the address", examples=["Sangamon"])
    city: str | None = Field(None, description="City of the address", examples=["Springfield"])


class CalculateArgs(RateArgs):
    amount: Decimal = Field(..., description="Taxable amount of the transaction", examples=["14350.00"])
    doc_date: date | None = Field(None, description="Transaction date (default: today)", examples=["2026-01-12"])


class TransactionListArgs(ToolArgs):
    reporting_period: str | None = Field(None, description="Period 'YYYY-MM'", examples=["2026-01"])
    location_code: str | None = Field(None, description="Location (job number)", examples=["9140"])
    status: str | None = Field(None, description="Committed or Saved", examples=["Committed"])
    vendor_code: str | None = Field(None, description="Vendor code (master vendor id)", examples=["V1001"])


class ReturnListArgs(ToolArgs):
    filing_period: str | None = Field(None, description="Period 'YYYY-MM'", examples=["2025-12"])
    region: str | None = Field(None, description="State", examples=["IL"])
    status: str | None = Field(None, description="Draft, Approved or Filed", examples=["Filed"])


class ReturnDraftArgs(ToolArgs):
    filing_period: str = Field(..., description="Period to file, 'YYYY-MM'", examples=["2026-01"])
    region: str = Field(..., description="State to file in", examples=["IL"])


class CertificateListArgs(ToolArgs):
    vendor_code: str | None = Field(None, description="Vendor code (master vendor id)", examples=["V1041"])
    location_code: str | None = Field(None, description="Location (job number)", examples=["3578"])
    exposure_zone: str | None = Field(None, description="State the certificate is good in", examples=["IL"])
    status: str | None = Field(None, description="Valid or Expired", examples=["Valid"])


class UseTaxLine(ToolArgs):
    location_code: str = Field(..., description="Location the goods were delivered to (job number)", examples=["3578"])
    taxable_amount: Decimal = Field(..., description="Purchase price subject to use tax", examples=["18250.00"])
    description: str | None = Field(None, description="What the line covers", examples=["Jan materials, no tax billed"])


class UseTaxDraftArgs(ReturnDraftArgs):
    lines: list[UseTaxLine] = Field(
        ...,
        min_length=1,
        description="The purchases subject to use tax, by location; lines of one location are added together",
        examples=[[{"location_code": "3578", "taxable_amount": "18250.00", "description": "Jan materials"}]],
    )


class ReturnRefArgs(ToolArgs):
    return_id: str = Field(..., description="Return id", examples=["5be0c1d2e3f4"])


class SalesTaxArchetype(App):
    """Sales/use tax engine with returns: locations, jurisdiction rates, transactions, returns."""

    archetype = "Lien/CertPayroll/Tax"
    kind: ClassVar[str] = "tax"

    def _company(self) -> dict[str, Any]:
        rows = self.select("companies")
        if not rows:
            raise ToolError(f"no company is set up in {self.label}", "not_found")
        return rows[0]

    def _jurisdictions(self, args: RateArgs) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        if args.location_code:
            loc = self.require("locations", "location", location_code=args.location_code)
            region, county, city = loc["region"], loc["county"], loc["city"]
            where = {
                "location_code": loc["location_code"],
                "line1": loc["line1"],
                "city": city,
                "county": county,
                "region": region,
            }
        elif args.region:
            region, county, city = args.region.upper(), args.county, args.city
            where = {"location_code": None, "city": city, "county": county, "region": region}
        else:
            raise ToolError("give location_code, or an address (region, county, city)", "invalid_argument")
        out = []
        state = self.select("jurisdiction_rates", {"jurisdiction_type": "STA", "region": region})
        if not state:
            raise ToolError(f"{self.label} has no nexus / rates for region {region}", "not_found")
        out += state
        if county:
            out += [
                r
                for r in self.select("jurisdiction_rates", {"jurisdiction_type": "CTY", "region": region})
                if (r["county"] or "").lower() == county.lower()
            ]
        if city:
            out += [
                r
                for r in self.select("jurisdiction_rates", {"jurisdiction_type": "CIT", "region": region})
                if (r["city"] or "").lower() == city.lower()
            ]
        return where, out

    # ------------------------------------------------------------------ reads
    @tool("companies.list")
    def companies_list(self, args: NoArgs) -> dict[str, Any]:
        """List the companies set up in $label.

        Returns {"companies": [{company_code, company_name, tax_id, default_country, is_active}], "count": n}.
        """
        rows = self.select("companies")
        return {"companies": rows, "count": len(rows)}

    @tool("locations.list")
    def locations_list(self, args: LocationListArgs) -> dict[str, Any]:
        """List company locations (headquarters and job sites) with their addresses.

        Args:
            region: state, e.g. "IL".
            address_type: "Headquarters" or "JobSite".

        Returns {"locations": [{location_code, description, address_type, line1, city, county, region, country}], "count": n}.
        """  # noqa: E501 - the docstring is the tool description, kept as it is
        rows = self.select(
            "locations", {"region": args.region.upper() if args.region else None, "address_type": args.address_type}
        )
        return {"locations": rows, "count": len(rows)}

    @tool("tax_rates.get")
    def tax_rates_get(self, args: RateArgs) -> dict[str, Any]:
        """Sales and use tax rates by jurisdiction (state, county, city) for a location or an address.

        Args:
            location_code: e.g. "1042" (a job site) or "HQ"; or give region/county/city.
            region: e.g. "IL".
            county: e.g. "Sangamon".
            city: e.g. "Springfield".

        Returns {"address": {...}, "jurisdictions": [{jurisdiction_code, jurisdiction_type, jurisdiction_name, rate}],
        "total_rate": "0.080000"}.
        """
        where, rates = self._jurisdictions(args)
        return {
            "address": where,
            "jurisdictions": rates,
            "total_rate": sum((r["rate"] for r in rates), Decimal("0.000000")),
        }

    @tool("taxes.calculate")
    def taxes_calculate(self, args: CalculateArgs) -> dict[str, Any]:
        """Calculate sales/use tax on an amount at a location or address (a quote: nothing is recorded).

        Args:
            location_code: e.g. "9140"; or region/county/city.
            region: e.g. "IL".
            county: e.g. "Cook".
            city: e.g. "Chicago".
            amount: taxable amount, e.g. "14350.00".
            doc_date: e.g. "2026-01-12".

        Returns {"amount", "total_rate", "total_tax", "details": [{jurisdiction_code, jurisdiction_type, rate, tax}],
        "doc_date"}.
        """
        amount = money_arg(args.amount, "amount", allow_negative=True)
        where, rates = self._jurisdictions(args)
        details = [
            {
                "jurisdiction_code": r["jurisdiction_code"],
                "jurisdiction_type": r["jurisdiction_type"],
                "jurisdiction_name": r["jurisdiction_name"],
                "rate": r["rate"],
                "tax": cents(amount * r["rate"]),
            }
            for r in rates
        ]
        total_rate = sum((r["rate"] for r in rates), Decimal("0.000000"))
        return {
            "address": where,
            "amount": amount,
            "doc_date": args.doc_date or self.today,
            "total_rate": total_rate,
            "total_tax": cents(amount * total_rate),
            "details": details,
        }

    @tool("transactions.list")
    def transactions_list(self, args: TransactionListArgs) -> dict[str, Any]:
        """List use-tax transactions (purchase invoices delivered to a location).

        Args:
            reporting_period: e.g. "2026-01".
            location_code: e.g. "9140".
            status: "Committed" or "Saved".
            vendor_code: e.g. "V1001".

        Returns {"transactions": [{transaction_code, doc_type, doc_date, reporting_period, vendor_code,
        vendor_invoice_number, location_code, region, total_amount, total_taxable, total_tax, status}], "count": n}.
        """
        rows = self.select(
            "transactions",
            {
                "reporting_period": args.reporting_period,
                "location_code": args.location_code,
                "status": args.status,
                "vendor_code": args.vendor_code,
            },
            order_by=["doc_date", "transaction_code"],
        )
        return {"transactions": rows, "count": len(rows)}

    @tool("returns.list")
    def returns_list(self, args: ReturnListArgs) -> dict[str, Any]:
        """List sales/use tax returns.

        Args:
            filing_period: e.g. "2025-12".
            region: e.g. "IL".
            status: "Draft", "Approved" or "Filed".

        Returns {"returns": [{return_id, filing_period, region, form_name, transaction_count, total_taxable,
        total_tax_due, due_date, status, filed_date}], "count": n}.
        """
        rows = self.select(
            "filing_returns",
            {
                "filing_period": args.filing_period,
                "region": args.region.upper() if args.region else None,
                "status": args.status,
            },
            order_by=["filing_period", "region"],
        )
        return {"returns": rows, "count": len(rows)}

    @tool("certificates.list")
    def certificates_list(self, args: CertificateListArgs) -> dict[str, Any]:
        """List the exemption certificates on file: certificates the company gave a supplier for a tax-exempt
        project, so purchases from that vendor delivered to that location during the certificate's term are exempt.

        Args:
            vendor_code: e.g. "V1041".
            location_code: e.g. "3578".
            exposure_zone: state, e.g. "IL".
            status: "Valid" or "Expired".

        Returns {"certificates": [{certificate_id, exposure_zone, vendor_code, vendor_name, location_code,
        exempt_reason, exemption_number, signed_date, expiration_date, status}], "count": n}.
        """
        rows = self.select(
            "exemption_certificates",
            {
                "vendor_code": args.vendor_code,
                "location_code": args.location_code,
                "exposure_zone": args.exposure_zone.upper() if args.exposure_zone else None,
                "status": args.status,
            },
            order_by=["location_code", "vendor_code", "certificate_id"],
        )
        return {"certificates": rows, "count": len(rows)}

    # ------------------------------------------------------------------ writes
    @tool("returns.create_draft", writes=True)
    def returns_create_draft(self, args: ReturnDraftArgs) -> dict[str, Any]:
        """Draft the sales/use tax return of one period and state from the Committed transactions (drafting
        again refreshes the draft). Nothing is filed.

        Args:
            filing_period: e.g. "2026-01".
            region: e.g. "IL".

        Returns {"return": {return_id, filing_period, region, form_name, transaction_count, total_taxable,
        total_tax_due, due_date, status "Draft"}}.
        """
        if not _PERIOD.match(args.filing_period):
            raise ToolError(f"filing_period must look like 'YYYY-MM', got {args.filing_period!r}", "invalid_argument")
        if args.filing_period > self.today.strftime("%Y-%m"):
            raise ToolError(f"period {args.filing_period} has not started", "invalid_argument")
        region = args.region.upper()
        if not self.select("jurisdiction_rates", {"jurisdiction_type": "STA", "region": region}):
            raise ToolError(f"{self.label} has no nexus in {region}", "not_found")
        company = self._company()
        return_id = self.new_id("return", company["company_code"], args.filing_period, region)
        existing = self.select("filing_returns", {"filing_period": args.filing_period, "region": region})
        if existing and existing[0]["status"] != "Draft":
            raise ToolError(
                f"the {region} return for {args.filing_period} is already {existing[0]['status']}", "conflict"
            )
        txns = self.select(
            "transactions", {"reporting_period": args.filing_period, "region": region, "status": "Committed"}
        )
        year, month = (int(x) for x in args.filing_period.split("-"))
        due = date(year + (month == 12), month % 12 + 1, 20)
        values = {
            "transaction_count": len(txns),
            "total_taxable": sum((t["total_taxable"] for t in txns), ZERO),
            "total_tax_due": sum((t["total_tax"] for t in txns), ZERO),
        }
        if existing:
            self.update("filing_returns", {"return_id": existing[0]["return_id"]}, values)
            return_id = existing[0]["return_id"]
        else:
            self.insert(
                "filing_returns",
                {
                    "return_id": return_id,
                    "company_code": company["company_code"],
                    "filing_period": args.filing_period,
                    "region": region,
                    "form_name": "ST-1" if region == "IL" else f"{region}-SUT",
                    **values,
                    "due_date": due,
                    "status": "Draft",
                    "filed_date": None,
                    "created_at": self.now,
                },
            )
        return {"return": self.require("filing_returns", "return", return_id=return_id)}

    @tool("returns.use_tax.create_draft", writes=True)
    def returns_use_tax_create_draft(self, args: UseTaxDraftArgs) -> dict[str, Any]:
        """Draft the use-tax return of one period and state from the purchases you reviewed: one return line per
        location, its tax at the location's combined rate (drafting again replaces the draft's lines). Nothing is
        filed.

        Args:
            filing_period: e.g. "2026-01".
            region: e.g. "IL".
            lines: [{location_code, taxable_amount, description}], e.g.
                [{"location_code": "3578", "taxable_amount": "18250.00", "description": "Jan materials"}];
                every location must be in the region.

        Returns {"return_id", "return": {return_id, filing_period, region, form_name, transaction_count, total_taxable,
        total_tax_due, due_date, status "Draft"}, "lines": [{line_no, location_code, taxable_amount, tax_rate,
        tax_amount}]}.
        """  # noqa: E501 - the docstring is the tool description, kept as it is
        if not _PERIOD.match(args.filing_period):
            raise ToolError(f"filing_period must look like 'YYYY-MM', got {args.filing_period!r}", "invalid_argument")
        if args.filing_period > self.today.strftime("%Y-%m"):
            raise ToolError(f"period {args.filing_period} has not started", "invalid_argument")
        region = args.region.upper()
        if not self.select("jurisdiction_rates", {"jurisdiction_type": "STA", "region": region}):
            raise ToolError(f"{self.label} has no nexus in {region}", "not_found")
        by_location: dict[str, tuple[Decimal, list[str]]] = {}
        for ln in args.lines:
            loc = self.require("locations", "location", location_code=ln.location_code)
            if loc["region"] != region:
                raise ToolError(
                    f"location {ln.location_code} is in {loc['region']}, not {region}: it belongs on the "
                    f"{loc['region']} return",
                    "invalid_argument",
                )
            amount = money_arg(ln.taxable_amount, "taxable_amount")
            total, notes = by_location.get(loc["location_code"], (ZERO, []))
            by_location[loc["location_code"]] = (
                total + amount,
                [*notes, *([ln.description] if ln.description else [])],
            )
        existing = self.select("filing_returns", {"filing_period": args.filing_period, "region": region})
        if existing and existing[0]["status"] != "Draft":
            raise ToolError(
                f"the {region} return for {args.filing_period} is already {existing[0]['status']}", "conflict"
            )
        lines: list[dict[str, Any]] = []
        for n, (code, (taxable, notes)) in enumerate(sorted(by_location.items()), start=1):
            rate = self.combined_rate(code)
            lines.append(
                {
                    "line_no": n,
                    "location_code": code,
                    "description": "; ".join(notes)[:200] or None,
                    "taxable_amount": taxable,
                    "tax_rate": rate,
                    "tax_amount": cents(taxable * rate),
                }
            )
        company = self._company()
        year, month = (int(x) for x in args.filing_period.split("-"))
        values: dict[str, Any] = {
            "transaction_count": len(lines),
            "total_taxable": sum((ln["taxable_amount"] for ln in lines), ZERO),
            "total_tax_due": sum((ln["tax_amount"] for ln in lines), ZERO),
        }
        if existing:
            return_id = existing[0]["return_id"]
            self.update("filing_returns", {"return_id": return_id}, values)
            for old in self.select("filing_return_lines", {"return_id": return_id}):
                self.delete("filing_return_lines", {"return_id": return_id, "line_no": old["line_no"]})
        else:
            return_id = self.new_id("return", company["company_code"], args.filing_period, region)
            self.insert(
                "filing_returns",
                {
                    "return_id": return_id,
                    "company_code": company["company_code"],
                    "filing_period": args.filing_period,
                    "region": region,
                    "form_name": "ST-1" if region == "IL" else f"{region}-SUT",
                    **values,
                    "due_date": date(year + (month == 12), month % 12 + 1, 20),
                    "status": "Draft",
                    "filed_date": None,
                    "created_at": self.now,
                },
            )
        for row in lines:
            self.insert("filing_return_lines", {"return_id": return_id, **row})
        return {
            "return_id": return_id,
            "return": self.require("filing_returns", "return", return_id=return_id),
            "lines": self.select("filing_return_lines", {"return_id": return_id}, order_by=["line_no"]),
        }

    # ------------------------------------------------------------------ guarded
    @tool("returns.efile", guarded="efile", aliases=("efile_submit",))
    def returns_efile(self, args: ReturnRefArgs) -> dict[str, Any]:
        """File a draft return with the state and remit the tax (GUARDED: staged for human approval,
        never executed).

        Args:
            return_id: e.g. "5be0c1d2e3f4".

        Returns {"would_file": {return_id, filing_period, region, form_name, total_tax_due}, "status": "pending_human_approval"}.
        """  # noqa: E501 - the docstring is the tool description, kept as it is
        ret = self.require("filing_returns", "return", return_id=args.return_id)
        if ret["status"] == "Filed":
            raise ToolError(f"return {args.return_id} is already filed", "rejected")
        shown = ("return_id", "filing_period", "region", "form_name", "total_tax_due")
        return {"would_file": {k: ret[k] for k in shown}, "status": "pending_human_approval"}

    # ------------------------------------------------------------------ integration (Python-level)
    def combined_rate(self, location_code: str) -> Decimal:
        """The combined sales/use tax rate at a location (for ERP/AP apps that accrue use tax)."""
        _, rates = self._jurisdictions(RateArgs(location_code=location_code))
        return sum((r["rate"] for r in rates), Decimal("0.000000"))


@register
class AvalaraAvaTax(SalesTaxArchetype):
    """Avalara AvaTax."""

    name: ClassVar[str] = "avalara"
    label: ClassVar[str] = "Avalara AvaTax"
    tier = "B"
