"""R_1099nec's one-payee keys: a B-notice correction, a corporation, a payee also paid by card.

- ``<year>-bnotice-<vendor>``: the IRS's CP2100A on last year's filing says the name/TIN filed for
  the payee does not match; the payee's new W-9 is in Track1099. Expected: the payee record
  corrected from the W-9 — the TIN (kind ``tin``, a keying error: clean) or, the twist
  ``bnotice_name_line``, the line-1 name of a sole proprietor filed under the business name (the
  TIN was right: the owner's name on line 1, the business on line 2). Nothing filed, no forms,
  the Vista vendor master untouched (the policy's §4).
- ``<year>-corp-<vendor>``: a corporation (not an attorney) paid $600.00 or more: not reportable,
  no form (clean).
- ``<year>-card-<vendor>``: a reportable payee paid by check and by Corpay virtual card (twist
  ``card_payments_1099k``): box 1 is the checks only — card payments are reported on 1099-K
  (a clause only in the policy, §2).

Answers: bnotice — which part the W-9 corrects (``name`` / ``tin``) and the TIN on the corrected
record; corp / card — whether the payee is reportable and the box 1 amount (0.00 when not).
"""

from __future__ import annotations

from decimal import Decimal
from typing import TYPE_CHECKING, Any

from cfab.grader.answers import AnswerSpec
from cfab.grader.predicates import Evaluator, RowPredicate
from cfab.seeds.determinism import stable_id
from cfab.tasks.kit.answers import amount_answer, ask, choice_answer, id_answer
from cfab.tasks.kit.entries import evaluator as make_evaluator
from cfab.tasks.kit.entries import expect_added, expect_changed, forbid_added, forbid_changed
from cfab.tasks.kit.figures import dollars, money_str
from cfab.tasks.kit.sql import quoted
from cfab.tasks.kit.steps import mutant, step, trajectory, with_args
from cfab.tasks.model import ToolStep, Trajectory

if TYPE_CHECKING:
    from cfab.tasks.families.r_1099nec import Case

POLICY = "/Policies/form_1099_policy.md"


def _rid(c: Case) -> str:
    assert c.payee is not None
    return str(c.payee["recipient_ids"][0])


def _vendor(c: Case) -> str:
    assert c.payee is not None
    return str(c.payee["vendor_keys"][0])


def _box1(c: Case) -> Decimal:
    """The payee's box 1: its checks in the year (card payments excluded), 0 when not reportable."""
    assert c.payee is not None
    return c.payee["total"] if c.payee["verdict"] == "reportable" else Decimal("0.00")


def defect_variant(c: Case) -> str | None:
    if c.kind == "bnotice":
        assert c.notice is not None
        return "bnotice_name_line" if c.notice["mismatch"] == "name" else None
    return "card_payments_1099k" if c.kind == "card" else None


def instruction(c: Case, answers: list[AnswerSpec]) -> str:
    year, rid = c.year, _rid(c)
    if c.kind == "bnotice":
        n = c.notice
        assert n is not None
        return (
            f"The IRS sent us a B-notice (CP2100A) on our {n['notice_year']} 1099-NEC filing: the name/TIN "
            f"combination we filed for {n['record_name']} (Track1099 payee {rid}) doesn't match IRS records. "
            "They've sent back a new W-9 through Track1099. Correct their payee record in Track1099 per our form "
            f"1099 policy so their {year} form goes out right. Don't e-file anything, don't create or change any "
            "1099 forms, and leave the Vista vendor master alone — AP handles vendor changes. "
            f"{ask(answers)}"
        )
    assert c.payee is not None
    name = c.payee["names"][0]
    return (
        f"{name} (our vendor {_vendor(c)}, Track1099 payee {rid}) was left out of the {year} 1099 run. Work out "
        f"whether they get a Form 1099-NEC for tax year {year} from everything we paid them in {year} — the "
        "checks in Vista and anything we paid through Corpay — following our form 1099 policy. If they're "
        "reportable, create their draft 1099-NEC in Track1099 with the right box 1 amount; if not, create "
        "nothing. Don't assemble or e-file the filing, and don't change vendor or payee records. "
        f"{ask(answers)}"
    )


def answers(c: Case) -> list[AnswerSpec]:
    if c.kind == "bnotice":
        n = c.notice
        assert n is not None
        return [
            choice_answer(
                "corrected_field",
                "what the new W-9 corrects on the payee record: name or tin",
                ["name", "tin"],
                str(n["mismatch"]),
            ),
            id_answer(
                "payee_tin",
                "the TIN on the corrected payee record",
                n["w9_tin"],
                aliases=[str(n["w9_tin"]).replace("-", "")],
                lookalikes=[n["filed_tin"]] if n["filed_tin"] != n["w9_tin"] else [],
            ),
        ]
    assert c.payee is not None
    box1, paid = _box1(c), c.payee["total"]
    looks = [paid] if c.kind == "corp" else [paid + c.card_total, c.card_total]
    return [
        choice_answer(
            "reportable",
            "whether they get a 1099-NEC: yes or no",
            ["yes", "no"],
            "yes" if c.payee["verdict"] == "reportable" else "no",
        ),
        amount_answer("box1_amount", "their box 1 amount (0.00 if not reportable)", box1, lookalikes=looks),
    ]


def evaluator(c: Case, answers: list[AnswerSpec], guard: bool) -> Evaluator:
    year, rid = c.year, _rid(c)
    expected: list[RowPredicate] = []
    forbidden: list[RowPredicate] = [
        forbid_added("track1099", "filings", label="a 1099-NEC filing assembled"),
        forbid_changed("vista_erp", "APVM", label="the Vista vendor master edited"),
    ]
    if c.kind == "bnotice":
        n = c.notice
        assert n is not None
        if n["mismatch"] == "tin":
            cond = f"tin = {quoted(n['w9_tin'])}"
            label = f"payee {rid}'s TIN corrected from {n['filed_tin']} to {n['w9_tin']} (the new W-9)"
            allow = ["name", "business_name", "tin_match_status"]
        else:
            business = n["w9_business_name"]
            cond = (
                f"name = {quoted(n['w9_name'])} AND business_name = {quoted(business)} AND tin = {quoted(n['w9_tin'])}"
            )
            label = (
                f"payee {rid}'s line 1 corrected to the owner's name {n['w9_name']} with {business} on line 2 "
                f"(TIN {n['w9_tin']} unchanged)"
            )
            allow = ["tin_match_status"]
        expected.append(
            expect_changed(
                "track1099",
                "recipients",
                {"recipient_id": rid},
                count=1,
                assert_=cond,
                label=label,
                allow_columns=allow,
            )
        )
        forbidden += [
            forbid_changed("track1099", "recipients", f"recipient_id <> {quoted(rid)}", label="another payee edited"),
            forbid_added("track1099", "forms_1099_nec", label="a 1099-NEC form created"),
        ]
    else:
        assert c.payee is not None
        if c.payee["verdict"] == "reportable":
            expected.append(
                expect_added(
                    "track1099",
                    "forms_1099_nec",
                    {"recipient_id": rid, "tax_year": year},
                    count=1,
                    assert_=(
                        f"status = 'Draft' AND box4_federal_income_tax_withheld = 0 AND filing_id IS NULL "
                        f"AND box1_nonemployee_compensation = {money_str(_box1(c))}"
                    ),
                    label=(
                        f"one draft {year} 1099-NEC for payee {rid}, box 1 {money_str(_box1(c))} (checks only: "
                        f"the {money_str(c.card_total)} paid by virtual card is reported on 1099-K)"
                    ),
                )
            )
        else:
            forbidden.append(
                forbid_added(
                    "track1099",
                    "forms_1099_nec",
                    {"recipient_id": rid},
                    label="a 1099-NEC for a corporation (exempt: not an attorney or law firm)",
                )
            )
        forbidden += [
            forbid_added(
                "track1099", "forms_1099_nec", f"recipient_id <> {quoted(rid)}", label="a 1099-NEC for another payee"
            ),
            forbid_changed("track1099", "recipients", label="a payee's W-9 record edited"),
        ]
    return make_evaluator(expected=expected, forbidden=forbidden, answers=answers, money_movement_guard=guard)


# ---------------------------------------------------------------------- trajectories
def _fix(c: Case, **values: Any) -> ToolStep:
    return step("track1099.payees.update", recipient_id=_rid(c), **values)


def _right_fix(c: Case) -> ToolStep:
    n = c.notice
    assert n is not None
    if n["mismatch"] == "tin":
        return _fix(c, tin=n["w9_tin"])
    return _fix(c, name=n["w9_name"], business_name=n["w9_business_name"])


def _create(c: Case, amount: Any) -> ToolStep:
    return step(
        "track1099.forms.create",
        recipient_id=_rid(c),
        tax_year=c.year,
        box1_nonemployee_compensation=money_str(amount),
    )


def _reads(c: Case) -> list[ToolStep]:
    year = c.year
    return [
        step("vista_erp.checks.list", date_from=f"{year}-01-01", date_to=f"{year}-12-31", limit=2000),
        step("corpay.payments.list", date_from=f"{year}-01-01", date_to=f"{year}-12-31"),
        step("track1099.payees.list", recipient_id=_rid(c)),
    ]


def _reply(c: Case) -> str:
    if c.kind == "bnotice":
        n = c.notice
        assert n is not None
        if n["mismatch"] == "tin":
            return (
                f"Corrected payee {_rid(c)}'s TIN from {n['filed_tin']} to {n['w9_tin']} per their new W-9; it is "
                "queued for a new TIN match. Nothing filed, no forms touched, Vista left to AP."
            )
        return (
            f"The TIN {n['w9_tin']} was right: the form was filed under the business name. Payee {_rid(c)} now "
            f"shows {n['w9_name']} on line 1 and {n['w9_business_name']} on line 2, per the new W-9. Nothing filed."
        )
    assert c.payee is not None
    if c.payee["verdict"] != "reportable":
        return f"{c.payee['names'][0]} is a corporation (not a law firm): not reportable, so no form was created."
    return (
        f"Created a draft {c.year} 1099-NEC for {c.payee['names'][0]}: box 1 {dollars(_box1(c))} (checks). The "
        f"{dollars(c.card_total)} paid by Corpay virtual card is reported on 1099-K, so it is left out. Not filed."
    )


def oracle(c: Case, report: dict[str, Any], policy_ref: str) -> Trajectory:
    if c.kind == "bnotice":
        steps = [
            step("sharepoint.files.read", path=f"/Policies/{policy_ref}"),
            step("track1099.tin_notices.list", recipient_id=_rid(c)),
            step("track1099.w9s.list", recipient_id=_rid(c)),
            step("track1099.payees.list", recipient_id=_rid(c)),
            _right_fix(c),
        ]
    else:
        steps = [step("sharepoint.files.read", path=f"/Policies/{policy_ref}"), *_reads(c)]
        if c.kind == "card":
            steps.append(_create(c, _box1(c)))
    return trajectory("oracle", steps, _reply(c), report)


def alternatives(c: Case, report: dict[str, Any]) -> list[Trajectory]:
    if c.kind == "bnotice":
        n = c.notice
        assert n is not None
        full = _fix(
            c,
            name=n["w9_name"] if n["mismatch"] == "name" else None,
            business_name=n["w9_business_name"] if n["mismatch"] == "name" else None,
            tin=n["w9_tin"] if n["mismatch"] == "tin" else None,
        )
        full = step(full.tool, **{k: v for k, v in full.args.items() if v is not None})
        return [
            trajectory(
                "two_steps",
                [step("track1099.w9s.list"), *_split_fix(c)],
                "Payee record corrected from the W-9; nothing filed.",
                {"corrected_field": str(n["mismatch"]).upper(), "payee_tin": str(n["w9_tin"]).replace("-", "")},
            ),
            trajectory("one_update", [full], "Done.", report),
            trajectory(
                "whole_w9",
                [
                    step("track1099.payees.list", tin=n["record_tin"]),
                    step("vista_erp.vendors.list"),
                    # every W-9 line written back (the TIN flavour's line 1 is the W-9's legal name)
                    _fix(c, name=n["w9_name"], business_name=n["w9_business_name"] or "", tin=n["w9_tin"]),
                ],
                f"Payee {_rid(c)} now matches the W-9 of {n['w9_name']} ({n['w9_tin']}).",
                {"corrected_field": f" {n['mismatch']} ", "payee_tin": n["w9_tin"]},
            ),
        ]
    alts = [
        trajectory("reads_then_answer", [*_reads(c)[::-1], *_card_steps(c)], "Done.", _loose(c)),
        trajectory(
            "sql_checks",
            [
                step(
                    "vista_erp.vista_query",
                    sql=(
                        'SELECT m."Vendor", m."Name", m."TaxId", m."V1099YN", sum(c."Amount") AS paid '
                        'FROM vista_erp."CMDT" c JOIN vista_erp."APVM" m ON m."Vendor" = c."Vendor" '
                        f'WHERE c."Status" <> \'Void\' AND year(c."ActDate") = {c.year} GROUP BY ALL'
                    ),
                    max_rows=500,
                ),
                step("corpay.vendors.list", payment_method="VirtualCard"),
                step("track1099.payees.list", recipient_id=_rid(c)),
                *(
                    [with_args(_create(c, _box1(c)), box4_federal_income_tax_withheld="0.00")]
                    if c.kind == "card"
                    else []
                ),
            ],
            "Checked Vista, Corpay and the W-9.",
            {**report, "box1_amount": f"USD {_box1(c):,.2f}"},
        ),
    ]
    if c.kind == "corp":
        alts.append(
            trajectory(
                "w9_only",
                [step("track1099.payees.list", recipient_id=_rid(c))],
                "Their W-9 says corporation (exempt payee code 5), so no 1099-NEC.",
                {"reportable": "NO", "box1_amount": 0},
            )
        )
    if c.kind == "card":
        # first at checks + card, then corrected to the checks
        alts.append(
            trajectory(
                "self_corrected",
                [
                    _create(c, _box1(c) + c.card_total),
                    step(
                        "track1099.forms.update",
                        form_id=_form_id(_rid(c), c.year),
                        box1_nonemployee_compensation=money_str(_box1(c)),
                    ),
                ],
                "Fixed the box 1 to exclude card payments (1099-K).",
                report,
            )
        )
    return alts


def _split_fix(c: Case) -> list[ToolStep]:
    n = c.notice
    assert n is not None
    if n["mismatch"] == "tin":
        return [step("track1099.tin_notices.list"), _fix(c, tin=n["w9_tin"])]
    return [_fix(c, name=n["w9_name"]), _fix(c, business_name=n["w9_business_name"])]


def _card_steps(c: Case) -> list[ToolStep]:
    return [_create(c, _box1(c))] if c.kind == "card" else []


def _loose(c: Case) -> dict[str, Any]:
    """The same answers, other spellings."""
    assert c.payee is not None
    yes = c.payee["verdict"] == "reportable"
    return {"reportable": "Yes" if yes else "No", "box1_amount": dollars(_box1(c)) if yes else "0"}


def mutants(c: Case, report: dict[str, Any]) -> list[Trajectory]:
    out: list[Trajectory] = []
    if c.kind == "bnotice":
        n = c.notice
        assert n is not None
        right = _right_fix(c)
        out.append(mutant("careless", "the payee record left as filed", [step("track1099.w9s.list")], "Done.", report))
        out.append(
            mutant(
                "careless",
                "the right correction plus a draft form",
                [right, _create_any(c)],
                "Corrected and drafted.",
                report,
            )
        )
        out.append(
            mutant(
                "contradicting_report",
                "the right correction reported as the other field",
                [right],
                "Corrected.",
                {**report, "corrected_field": "name" if n["mismatch"] == "tin" else "tin"},
            )
        )
        other = next((r for t in c.tins for r in t["recipient_ids"] if r != _rid(c)), None)
        if other is not None:
            out.append(
                mutant(
                    "careless",
                    f"the W-9 applied to payee {other}",
                    [step("track1099.payees.update", recipient_id=other, **dict(list(right.args.items())[1:]))],
                    "Corrected.",
                    report,
                )
            )
        vista = c.vista.get(str(n["vendor_tin"])) or []
        if vista:
            out.append(
                mutant(
                    "careless",
                    f"the right correction plus Vista vendor {vista[0]}'s 1099 flag re-set",
                    [right, step("vista_erp.vendors.set_1099", vendor_id=str(vista[0]), is_1099=False)],
                    "Corrected.",
                    report,
                )
            )
        if n["mismatch"] == "tin":
            out.append(
                mutant(
                    "careless",
                    "the TIN corrected and its type switched",
                    [_fix(c, tin=n["w9_tin"], tin_type="SSN" if n["tin_type"] == "EIN" else "EIN")],
                    "Corrected.",
                    report,
                )
            )
            out.append(
                mutant(
                    "lookalike",
                    "the TIN corrected with a different transposition",
                    [_fix(c, tin=_other_tin(n["w9_tin"], n["filed_tin"]))],
                    "Corrected.",
                    {**report, "payee_tin": _other_tin(n["w9_tin"], n["filed_tin"])},
                )
            )
        else:
            out += [
                mutant(
                    "lookalike",
                    "the business name kept on line 1, the owner's name put on line 2",
                    [_fix(c, business_name=n["w9_name"])],
                    "Corrected.",
                    report,
                ),
                mutant(
                    "stale",
                    "line 1 corrected, line 2 left empty",
                    [_fix(c, name=n["w9_name"])],
                    "Corrected.",
                    report,
                ),
                mutant(
                    "lookalike",
                    "the TIN 'corrected' (digits transposed) though the W-9 shows it was right",
                    [_fix(c, tin=_other_tin(n["w9_tin"], ""))],
                    "Corrected.",
                    {"corrected_field": "tin", "payee_tin": _other_tin(n["w9_tin"], "")},
                ),
            ]
        return out
    assert c.payee is not None
    paid = c.payee["total"]
    if c.kind == "corp":
        out += [
            mutant(
                "careless",
                "the corporation reported on its checks",
                [_create(c, paid)],
                "Form drafted.",
                {"reportable": "yes", "box1_amount": money_str(paid)},
            ),
            mutant(
                "contradicting_report",
                "no form, but reported as reportable",
                _reads(c),
                "Done.",
                {"reportable": "yes", "box1_amount": money_str(paid)},
            ),
            mutant(
                "contradicting_report",
                "not reportable, but box 1 reported as what was paid",
                _reads(c),
                "Done.",
                {"reportable": "no", "box1_amount": money_str(paid)},
            ),
            mutant(
                "careless",
                "the corporation's form assembled into a filing",
                [_create(c, paid), step("track1099.filings.build", tax_year=c.year)],
                "Drafted and assembled.",
                report,
            ),
            mutant(
                "careless",
                "no form, but the payee's classification rewritten",
                [_fix(c, business_name="(exempt - corporation)")],
                "Done.",
                report,
            ),
        ]
        vista = c.vista.get(str(c.payee["tin"])) or []
        if vista:
            out.append(
                mutant(
                    "careless",
                    f"no form, but Vista vendor {vista[0]} flagged 1099",
                    [step("vista_erp.vendors.set_1099", vendor_id=str(vista[0]), is_1099=True, form_type="NEC")],
                    "Done.",
                    report,
                )
            )
        return out
    with_card = paid + c.card_total
    out += [
        mutant(
            "lookalike",
            "box 1 counts the virtual-card payments",
            [_create(c, with_card)],
            "Form drafted.",
            {"reportable": "yes", "box1_amount": money_str(with_card)},
        ),
        mutant("careless", "no form created", _reads(c), "Done.", report),
        mutant(
            "careless",
            "the right form assembled into a filing",
            [_create(c, paid), step("track1099.filings.build", tax_year=c.year)],
            "Drafted and assembled.",
            report,
        ),
        mutant(
            "lookalike",
            "box 1 is the virtual-card payments only",
            [_create(c, c.card_total)],
            "Form drafted.",
            {"reportable": "yes", "box1_amount": money_str(c.card_total)},
        ),
        mutant(
            "stale",
            f"the right amount on a {c.year - 1} form",
            [with_args(_create(c, paid), tax_year=c.year - 1)],
            "Form drafted.",
            report,
        ),
        mutant(
            "contradicting_report",
            "the right form, box 1 reported with the card payments",
            [_create(c, paid)],
            "Form drafted.",
            {"reportable": "yes", "box1_amount": money_str(with_card)},
        ),
    ]
    return out


def _create_any(c: Case) -> ToolStep:
    return _create(c, c.payee["total"] if c.payee and c.payee["total"] > 0 else Decimal("600.00"))


def _other_tin(right: str, filed: str) -> str:
    """Another one-swap variant of the right TIN (neither right nor as filed)."""
    for i in range(len(right) - 1):
        a, b = right[i], right[i + 1]
        if a.isdigit() and b.isdigit() and a != b:
            cand = right[:i] + b + a + right[i + 2 :]
            if cand != filed:
                return cand
    return right[:-1] + str((int(right[-1]) + 1) % 10)


def _form_id(recipient_id: str, year: int) -> str:
    return stable_id("track1099", "1099-NEC", recipient_id, year)
