"""Track1099: 1099-NEC information returns for the payer (Company A).

The information-return archetype: the payer, the payees as their W-9s say, draft 1099-NEC forms
the preparer creates, and the filing the drafts are assembled into. Which payees are reportable
and for how much (nonemployee compensation paid in the year, aggregated by TIN) is the
preparer's judgement from the ERP's payment history; this app records the forms. E-filing is
guarded.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any, ClassVar

from pydantic import Field

from cfab.apps.contract import App
from cfab.apps.kit import ZERO, ilike, money_arg
from cfab.apps.registry import register
from cfab.apps.tooling import NoArgs, ToolArgs, ToolError, tool


class PayeeListArgs(ToolArgs):
    tin: str | None = Field(None, description="Exact TIN as on the W-9 (with dashes)", examples=["412-55-6789"])
    name_contains: str | None = Field(None, description="Part of the payee name", examples=["prairie"])
    recipient_id: str | None = Field(None, description="Track1099 recipient id", examples=["T1099-0003"])
    reference_id: str | None = Field(None, description="Your vendor reference (master vendor id)", examples=["V1002"])
    tin_type: str | None = Field(None, description="EIN or SSN", examples=["SSN"])


class NoticeListArgs(ToolArgs):
    recipient_id: str | None = Field(None, description="Track1099 recipient id", examples=["T1099-0003"])
    tax_year: int | None = Field(None, description="Tax year of the filed forms", examples=[2024])
    status: str | None = Field(None, description="Open or Resolved", examples=["Open"])


class W9ListArgs(ToolArgs):
    recipient_id: str | None = Field(None, description="Track1099 recipient id", examples=["T1099-0003"])


class PayeeUpdateArgs(ToolArgs):
    recipient_id: str = Field(..., description="Track1099 recipient id", examples=["T1099-0003"])
    name: str | None = Field(None, description="New W-9 line 1 name", examples=["Maria Novak"])
    business_name: str | None = Field(
        None, description="New W-9 line 2 business / DBA name ('' clears it)", examples=["Novak Surveying"]
    )
    tin: str | None = Field(None, description="New TIN, with dashes", examples=["412-55-6789"])
    tin_type: str | None = Field(None, description="EIN or SSN", examples=["SSN"])


class FormListArgs(ToolArgs):
    tax_year: int | None = Field(None, description="Tax year", examples=[2025])
    recipient_id: str | None = Field(None, description="Track1099 recipient id", examples=["T1099-0003"])
    status: str | None = Field(None, description="Draft, Submitted, Accepted or Rejected", examples=["Draft"])
    filing_id: str | None = Field(None, description="Only forms assembled into this filing", examples=["a1b2c3d4e5f6"])


class FormCreateArgs(ToolArgs):
    recipient_id: str = Field(..., description="Track1099 recipient id of the payee", examples=["T1099-0003"])
    tax_year: int = Field(..., ge=2000, le=2100, description="Tax year of the payments", examples=[2025])
    box1_nonemployee_compensation: Decimal = Field(
        ..., description="Box 1: nonemployee compensation paid in the year", examples=["48250.00"]
    )
    box4_federal_income_tax_withheld: Decimal = Field(
        Decimal(0), description="Box 4: federal income tax withheld (backup withholding)", examples=["0.00"]
    )
    state_code: str | None = Field(None, description="Box 6 state (two letters)", examples=["IL"])
    state_income: Decimal | None = Field(None, description="Box 7: state income", examples=["48250.00"])
    state_tax_withheld: Decimal | None = Field(None, description="Box 5: state tax withheld", examples=["0.00"])
    second_tin_notice: bool = Field(False, description="Second TIN notice (B-notice) checkbox", examples=[False])


class FormUpdateArgs(ToolArgs):
    form_id: str = Field(..., description="Draft form id", examples=["9c1e2f3a4b5d"])
    box1_nonemployee_compensation: Decimal | None = Field(None, description="New box 1 amount", examples=["48250.00"])
    box4_federal_income_tax_withheld: Decimal | None = Field(None, description="New box 4 amount", examples=["0.00"])
    state_code: str | None = Field(None, description="New box 6 state", examples=["IL"])
    state_income: Decimal | None = Field(None, description="New box 7 state income", examples=["48250.00"])
    state_tax_withheld: Decimal | None = Field(None, description="New box 5 state tax withheld", examples=["0.00"])


class FormRefArgs(ToolArgs):
    form_id: str = Field(..., description="Form id", examples=["9c1e2f3a4b5d"])


class FilingBuildArgs(ToolArgs):
    tax_year: int = Field(..., ge=2000, le=2100, description="Tax year to assemble", examples=[2025])
    form_ids: list[str] | None = Field(
        None,
        description="Only these draft forms (default: every draft 1099-NEC of the year)",
        examples=[["9c1e2f3a4b5d"]],
    )


class FilingListArgs(ToolArgs):
    tax_year: int | None = Field(None, description="Tax year", examples=[2025])
    status: str | None = Field(None, description="Draft, Submitted or Accepted", examples=["Draft"])


class FilingRefArgs(ToolArgs):
    filing_id: str | None = Field(None, description="Filing id; or give tax_year", examples=["a1b2c3d4e5f6"])
    tax_year: int | None = Field(None, description="Tax year of the draft filing", examples=[2025])


class InformationReturnArchetype(App):
    """1099 filing service: payer, W-9 payees, 1099-NEC drafts, filings."""

    archetype = "Lien/CertPayroll/Tax"
    kind: ClassVar[str] = "tax_1099"
    FORM_TYPE: ClassVar[str] = "1099-NEC"

    def _payer(self) -> dict[str, Any]:
        rows = self.select("payers")
        if not rows:
            raise ToolError(f"no payer is set up in {self.label}", "not_found")
        return rows[0]

    def _draft_form(self, form_id: str) -> dict[str, Any]:
        form = self.require("forms_1099_nec", "1099-NEC form", form_id=form_id)
        if form["status"] != "Draft":
            raise ToolError(f"form {form_id} is {form['status']}; only drafts can change", "rejected")
        return form

    def _optional_money(self, value: Decimal | None, what: str) -> Decimal | None:
        return None if value is None else money_arg(value, what)

    def _refresh_filing(self, filing_id: str | None) -> None:
        if not filing_id:
            return
        forms = self.select("forms_1099_nec", {"filing_id": filing_id})
        self.update(
            "filings",
            {"filing_id": filing_id},
            {
                "form_count": len(forms),
                "total_box1": sum((f["box1_nonemployee_compensation"] for f in forms), ZERO),
                "updated_at": self.now,
            },
        )

    # ------------------------------------------------------------------ reads
    @tool("payer.get")
    def payer_get(self, args: NoArgs) -> dict[str, Any]:
        """The payer (your company) as it files: name, EIN, address, state payer number.

        Returns {"payer": {payer_id, name, tin, address, city, state, zip, phone, state_payer_id}}.
        """
        return {"payer": self._payer()}

    @tool("payees.list")
    def payees_list(self, args: PayeeListArgs) -> dict[str, Any]:
        """List payees (recipients) as their W-9 on file says: name, TIN, TIN type, federal tax
        classification, LLC tax classification, exempt payee code, address, W-9 and TIN-match status.

        Args:
            tin: exact TIN, e.g. "412-55-6789" (one payee may have been set up twice under one TIN).
            name_contains: part of the name, e.g. "prairie".
            recipient_id: e.g. "T1099-0003".
            reference_id: your vendor reference, e.g. "V1002".
            tin_type: "EIN" or "SSN".

        Returns {"payees": [{recipient_id, reference_id, name, business_name, tin, tin_type,
        federal_tax_classification, llc_tax_classification, exempt_payee_code, address, city, state, zip,
        w9_status, w9_signed_date, tin_match_status}], "count": n}.
        """
        rows = self.select(
            "recipients",
            {
                "tin": args.tin,
                "recipient_id": args.recipient_id,
                "reference_id": args.reference_id,
                "tin_type": args.tin_type,
            },
            extra=ilike("name", args.name_contains),
            order_by=["recipient_id"],
        )
        return {"payees": rows, "count": len(rows)}

    @tool("tin_notices.list")
    def tin_notices_list(self, args: NoticeListArgs) -> dict[str, Any]:
        """IRS notices on filed forms: the CP2100 / CP2100A (B-notice) name/TIN mismatches, per payee.

        Args:
            recipient_id: e.g. "T1099-0003".
            tax_year: tax year of the filed forms, e.g. 2024.
            status: "Open" or "Resolved".

        Returns {"notices": [{notice_id, recipient_id, notice_type, tax_year, notice_date, name_as_filed,
        tin_as_filed, reason, status}], "count": n}.
        """
        rows = self.select(
            "tin_notices",
            {"recipient_id": args.recipient_id, "tax_year": args.tax_year, "status": args.status},
            order_by=["notice_date", "notice_id"],
        )
        return {"notices": rows, "count": len(rows)}

    @tool("w9s.list")
    def w9s_list(self, args: W9ListArgs) -> dict[str, Any]:
        """W-9s payees submitted through Track1099's W-9 request, newest last.

        Args:
            recipient_id: e.g. "T1099-0003".

        Returns {"w9s": [{w9_id, recipient_id, received_date, name, business_name, tin, tin_type,
        federal_tax_classification, signed_date}], "count": n}.
        """
        rows = self.select(
            "w9_submissions", {"recipient_id": args.recipient_id}, order_by=["recipient_id", "received_date"]
        )
        return {"w9s": rows, "count": len(rows)}

    @tool("forms.list")
    def forms_list(self, args: FormListArgs) -> dict[str, Any]:
        """List 1099-NEC forms.

        Args:
            tax_year: e.g. 2025.
            recipient_id: e.g. "T1099-0003".
            status: "Draft", "Submitted", "Accepted" or "Rejected".
            filing_id: forms in one filing, e.g. "a1b2c3d4e5f6".

        Returns {"forms": [{form_id, recipient_id, tax_year, box1_nonemployee_compensation,
        box4_federal_income_tax_withheld, state_code, state_income, state_tax_withheld, filing_id, status}],
        "count": n, "total_box1": "..."}.
        """
        rows = self.select(
            "forms_1099_nec",
            {
                "tax_year": args.tax_year,
                "recipient_id": args.recipient_id,
                "status": args.status,
                "filing_id": args.filing_id,
            },
            order_by=["tax_year", "recipient_id"],
        )
        return {
            "forms": rows,
            "count": len(rows),
            "total_box1": sum((r["box1_nonemployee_compensation"] for r in rows), ZERO),
        }

    @tool("filings.list")
    def filings_list(self, args: FilingListArgs) -> dict[str, Any]:
        """List filings (batches of forms for transmission).

        Args:
            tax_year: e.g. 2025.
            status: "Draft", "Submitted" or "Accepted".

        Returns {"filings": [{filing_id, tax_year, form_type, form_count, total_box1, status}], "count": n}.
        """
        rows = self.select("filings", {"tax_year": args.tax_year, "status": args.status}, order_by=["tax_year"])
        return {"filings": rows, "count": len(rows)}

    # ------------------------------------------------------------------ writes
    @tool("payees.update", writes=True)
    def payees_update(self, args: PayeeUpdateArgs) -> dict[str, Any]:
        """Correct a payee record (W-9 name lines, TIN). A changed name or TIN is queued for a new
        IRS TIN match (tin_match_status "Pending").

        Args:
            recipient_id: e.g. "T1099-0003".
            name: W-9 line 1, e.g. "Maria Novak".
            business_name: W-9 line 2, e.g. "Novak Surveying" ("" clears it).
            tin: e.g. "412-55-6789".
            tin_type: "EIN" or "SSN".

        Returns {"payee": {...updated payee...}}.
        """
        payee = self.require("recipients", "payee", recipient_id=args.recipient_id)
        values: dict[str, Any] = {}
        if args.name is not None:
            if not args.name.strip():
                raise ToolError("name cannot be empty", "invalid_argument")
            values["name"] = args.name.strip()
        if args.business_name is not None:
            values["business_name"] = args.business_name.strip() or None
        if args.tin is not None:
            tin = args.tin.strip()
            digits = tin.replace("-", "")
            if len(digits) != 9 or not digits.isdigit():
                raise ToolError(f"TIN {args.tin!r} is not nine digits", "invalid_argument")
            values["tin"] = tin
        if args.tin_type is not None:
            if args.tin_type not in ("EIN", "SSN"):
                raise ToolError("tin_type must be EIN or SSN", "invalid_argument")
            values["tin_type"] = args.tin_type
        values = {k: v for k, v in values.items() if v != payee[k]}
        if not values:
            raise ToolError("nothing to change: the payee record already says that", "invalid_argument")
        if "name" in values or "tin" in values:
            values["tin_match_status"] = "Pending"
        self.update("recipients", {"recipient_id": args.recipient_id}, values)
        return {"payee": self.require("recipients", "payee", recipient_id=args.recipient_id)}

    @tool("forms.create", writes=True)
    def forms_create(self, args: FormCreateArgs) -> dict[str, Any]:
        """Create a DRAFT 1099-NEC for one payee and tax year. A second form for the same payee and
        year is a conflict (update the existing draft instead).

        Args:
            recipient_id: e.g. "T1099-0003".
            tax_year: e.g. 2025.
            box1_nonemployee_compensation: e.g. "48250.00" (> 0).
            box4_federal_income_tax_withheld: e.g. "0.00".
            state_code: e.g. "IL".
            state_income: e.g. "48250.00".
            state_tax_withheld: e.g. "0.00".
            second_tin_notice: e.g. false.

        Returns {"form": {form_id, recipient_id, tax_year, box1_nonemployee_compensation, ..., status "Draft"}}.
        """
        payee = self.require("recipients", "payee", recipient_id=args.recipient_id)
        if args.tax_year > self.today.year:
            raise ToolError(f"tax year {args.tax_year} has not started", "invalid_argument")
        box1 = money_arg(args.box1_nonemployee_compensation, "box1_nonemployee_compensation")
        if box1 <= 0:
            raise ToolError("box1_nonemployee_compensation must be greater than zero", "invalid_argument")
        dup = self.select("forms_1099_nec", {"recipient_id": args.recipient_id, "tax_year": args.tax_year})
        if dup:
            raise ToolError(
                f"payee {args.recipient_id} already has a {args.tax_year} 1099-NEC "
                f"(form {dup[0]['form_id']}, {dup[0]['status']})",
                "conflict",
            )
        row = {
            "form_id": self.new_id("1099-NEC", args.recipient_id, args.tax_year),
            "payer_id": payee["payer_id"],
            "recipient_id": args.recipient_id,
            "tax_year": args.tax_year,
            "box1_nonemployee_compensation": box1,
            "box4_federal_income_tax_withheld": money_arg(
                args.box4_federal_income_tax_withheld, "box4_federal_income_tax_withheld"
            ),
            "state_code": args.state_code.upper() if args.state_code else None,
            "state_payer_number": self._payer()["state_payer_id"] if args.state_code else None,
            "state_income": self._optional_money(args.state_income, "state_income"),
            "state_tax_withheld": self._optional_money(args.state_tax_withheld, "state_tax_withheld"),
            "second_tin_notice": args.second_tin_notice,
            "filing_id": None,
            "status": "Draft",
            "created_at": self.now,
            "updated_at": self.now,
        }
        self.insert("forms_1099_nec", row)
        return {"form": row}

    @tool("forms.update", writes=True)
    def forms_update(self, args: FormUpdateArgs) -> dict[str, Any]:
        """Change the amounts or state boxes of a DRAFT 1099-NEC (the filing totals follow).

        Args:
            form_id: e.g. "9c1e2f3a4b5d".
            box1_nonemployee_compensation: e.g. "48250.00".
            box4_federal_income_tax_withheld: e.g. "0.00".
            state_code: e.g. "IL".
            state_income: e.g. "48250.00".
            state_tax_withheld: e.g. "0.00".

        Returns {"form": {...updated form...}}.
        """
        form = self._draft_form(args.form_id)
        values: dict[str, Any] = {}
        if args.box1_nonemployee_compensation is not None:
            box1 = money_arg(args.box1_nonemployee_compensation, "box1_nonemployee_compensation")
            if box1 <= 0:
                raise ToolError("box1_nonemployee_compensation must be greater than zero", "invalid_argument")
            values["box1_nonemployee_compensation"] = box1
        for name in ("box4_federal_income_tax_withheld", "state_income", "state_tax_withheld"):
            value = getattr(args, name)
            if value is not None:
                values[name] = money_arg(value, name)
        if args.state_code is not None:
            values["state_code"] = args.state_code.upper()
            values["state_payer_number"] = self._payer()["state_payer_id"]
        if not values:
            raise ToolError("nothing to change: give at least one box", "invalid_argument")
        self.update("forms_1099_nec", {"form_id": args.form_id}, {**values, "updated_at": self.now})
        self._refresh_filing(form["filing_id"])
        return {"form": self.require("forms_1099_nec", "form", form_id=args.form_id)}

    @tool("forms.delete", writes=True)
    def forms_delete(self, args: FormRefArgs) -> dict[str, Any]:
        """Delete a DRAFT 1099-NEC (it leaves its draft filing, whose totals follow).

        Args:
            form_id: e.g. "9c1e2f3a4b5d".

        Returns {"deleted": form_id}.
        """
        form = self._draft_form(args.form_id)
        self.delete("forms_1099_nec", {"form_id": args.form_id})
        self._refresh_filing(form["filing_id"])
        return {"deleted": args.form_id}

    @tool("filings.build", writes=True)
    def filings_build(self, args: FilingBuildArgs) -> dict[str, Any]:
        """Assemble draft 1099-NEC forms of a tax year into the year's DRAFT filing (created on first
        use, refreshed after). Nothing is transmitted.

        Args:
            tax_year: e.g. 2025.
            form_ids: only these drafts, e.g. ["9c1e2f3a4b5d"] (default: every draft of the year).

        Returns {"filing": {filing_id, tax_year, form_type, form_count, total_box1, status "Draft"}, "form_ids": [...]}.
        """
        payer = self._payer()
        drafts = self.select(
            "forms_1099_nec", {"tax_year": args.tax_year, "status": "Draft"}, order_by=["recipient_id"]
        )
        if args.form_ids is not None:
            by_id = {f["form_id"]: f for f in drafts}
            missing = [i for i in args.form_ids if i not in by_id]
            if missing:
                raise ToolError(f"not draft {args.tax_year} forms: {', '.join(missing)}", "invalid_argument")
            drafts = [by_id[i] for i in dict.fromkeys(args.form_ids)]
        if not drafts:
            raise ToolError(f"there are no draft {args.tax_year} 1099-NEC forms to assemble", "rejected")
        filing_id = self.new_id("filing", payer["payer_id"], args.tax_year, self.FORM_TYPE)
        existing = self.select("filings", {"filing_id": filing_id})
        if existing and existing[0]["status"] != "Draft":
            raise ToolError(f"the {args.tax_year} filing {filing_id} is {existing[0]['status']}", "conflict")
        if not existing:
            self.insert(
                "filings",
                {
                    "filing_id": filing_id,
                    "payer_id": payer["payer_id"],
                    "tax_year": args.tax_year,
                    "form_type": self.FORM_TYPE,
                    "form_count": 0,
                    "total_box1": ZERO,
                    "status": "Draft",
                    "created_at": self.now,
                    "updated_at": self.now,
                },
            )
        for form in drafts:
            if form["filing_id"] != filing_id:
                self.update(
                    "forms_1099_nec", {"form_id": form["form_id"]}, {"filing_id": filing_id, "updated_at": self.now}
                )
        self._refresh_filing(filing_id)
        return {
            "filing": self.require("filings", "filing", filing_id=filing_id),
            "form_ids": [f["form_id"] for f in self.select("forms_1099_nec", {"filing_id": filing_id})],
        }

    # ------------------------------------------------------------------ guarded
    @tool("filings.efile", guarded="efile", aliases=("efile_submit",))
    def filings_efile(self, args: FilingRefArgs) -> dict[str, Any]:
        """Transmit a draft filing to the IRS (FIRE/IRIS) and the states (GUARDED: staged for human
        approval, never executed).

        Args:
            filing_id: e.g. "a1b2c3d4e5f6"; or tax_year.
            tax_year: e.g. 2025.

        Returns {"would_file": {filing_id, tax_year, form_count, total_box1}, "status": "pending_human_approval"}.
        """
        if args.filing_id:
            filing = self.require("filings", "filing", filing_id=args.filing_id)
        elif args.tax_year is not None:
            rows = self.select("filings", {"tax_year": args.tax_year, "status": "Draft"})
            if not rows:
                raise ToolError(f"no draft {args.tax_year} filing; build it with filings.build", "not_found")
            filing = rows[0]
        else:
            raise ToolError("give filing_id or tax_year", "invalid_argument")
        if filing["status"] != "Draft":
            raise ToolError(f"filing {filing['filing_id']} is {filing['status']}", "rejected")
        if filing["form_count"] == 0:
            raise ToolError(f"filing {filing['filing_id']} has no forms", "rejected")
        return {
            "would_file": {k: filing[k] for k in ("filing_id", "tax_year", "form_count", "total_box1")},
            "status": "pending_human_approval",
        }

    # ------------------------------------------------------------------ integration (Python-level)
    def payees_by_tin(self, tin: str) -> list[dict[str, Any]]:
        """Every payee record under one TIN (a payee set up twice shows twice)."""
        return self.select("recipients", {"tin": tin}, order_by=["recipient_id"])


@register
class Track1099(InformationReturnArchetype):
    """Track1099."""

    name: ClassVar[str] = "track1099"
    label: ClassVar[str] = "Track1099"
    tier = "A"
