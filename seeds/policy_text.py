"""The markdown bodies of Company A's policies (``{company}`` and ``{tax_year}`` are filled in)."""

from __future__ import annotations

_GUARD = """**Money movement.** No one — staff, contractor or automated assistant — releases a payment,
payroll, transfer, e-filing, e-signature or ERP posting without a named human approver. Prepare
it, stage it, and route it for approval; never execute it."""

BODIES: dict[str, str] = {}

BODIES["change_mgmt_policy.md"] = """
Applies to every change on a {company} project: change events, owner change orders, internal
budget transfers and commitment (subcontract / purchase order) change orders.

## 1. Change events
Every potential change starts as a change event in Procore, with its backup (owner directive,
RFI response, ASI/bulletin, field report or internal memo) filed with the event. The event
records the reason and whether the work is in or out of the base contract scope.

## 2. Classifying a change
Decide the class from the event's documents, never from its size or title alone.

| Class | When | Contract value | Budget |
|---|---|---|---|
| **Owner change order** | Out of the base scope: owner request, design change (ASI, bulletin, revised drawings), \
concealed or unforeseen condition | increases by the change amount | increases by the change amount |
| **Internal cost transfer** | In the base scope: our own layout or workmanship error, means and methods, winter \
conditions, cleanup, buyout variances | **no change** | increases by the change amount (budget only) |

An event whose backup says the cost is Company A's, or that no change order request will go to
the owner, is an internal cost transfer however large it is.

## 3. Setting up the change in the ERP
- Create the change order on the job with the event's amount and the classification's contract
  effect (`increases contract` true only for owner change orders).
- Leave it **pending**. The project manager approves internal transfers; owner change orders are
  approved only after the owner signs. Do not approve on anyone's behalf.
- Never change the contract value for an internal transfer.

## 4. Approved changes
An approved owner change order adds a line to the prime contract schedule of values and is
billed from the next pay application. Approved changes post to the budget's approved-changes
column by cost code; revised budget = original budget + approved changes.

## 5. Commitment change orders
Subcontract and PO change orders raise the commitment's amount (original + approved change
orders) and add a line to its schedule of values. They do not change the owner contract.
"""

BODIES["ap_invoice_policy.md"] = """
## 1. Intake
Vendor invoices arrive at ap@companyA.com and are filed to Box (/AP/Invoices/YYYY-MM). An
invoice that exists only as a PDF has not been entered anywhere: read the PDF for the invoice
number, amount, PO or subcontract number and cost code.

## 2. Matching and coding
- Match every invoice to its commitment (PO or subcontract number shown on the invoice) on the
  job in Procore. Confirm the vendor is the commitment's vendor.
- Code job and cost code through the hh2 crosswalks (job map, cost-code → ERP phase map, vendor
  map). Never guess an ERP vendor id or phase from a name.
- The amount billed on a commitment line may not exceed the line's remaining amount
  (line amount less billed to date). A bill that does not match its PO line, or that would bill
  past the commitment's remaining amount, is **held** and routed to the project manager; it is
  not entered for payment.

## 3. Entry
- Create the bill or AP invoice as a **draft / unposted** entry with the vendor's invoice number,
  date and amount, job and cost-code dimensions.
- Route it to the job's project manager for approval (draft email; the PM sends approval back).
- Posting is a separate, approved step. Do not post.

## 4. Subcontractor pay requests and sync
Pay requests (requisitions) are reviewed in Procore: draft → under review → approved. Only
**approved** requisitions that are **not yet synced** are synced to the ERP; syncing creates the
ERP AP invoice (unposted) and locks the requisition in Procore. Skip requisitions already synced;
never sync drafts or ones under review. Retainage is withheld per the commitment's retainage
percentage on each line (rounded to the cent); net = gross − retainage.

## 5. Holds
A vendor whose certificate of insurance has expired is placed on payment hold in the ERP (see
the insurance compliance policy). Held vendors' invoices may be entered but not paid.

{guard}
""".replace("{guard}", _GUARD)

BODIES["payments_policy.md"] = """
{guard}

## 1. Payment runs
Accounts payable prepares a check run each Thursday for posted invoices that are due. The
controller reviews the run; the CFO releases it. Payment is never made on an unposted invoice,
to a vendor on hold, or to a subcontractor without the lien waiver below.

## 2. Lien waivers
- Before payment: a conditional progress waiver for the amount being paid.
- After the check clears: an unconditional progress waiver through the pay request's period end.
- Final payment requires conditional and unconditional final waivers.

## 3. Vendor master changes
Bank detail, address and payee changes require a call-back to a known number and a second
approver. Duplicate vendor records are merged only by the controller; until then, aggregate by
TIN for tax reporting.

## 4. Positive pay
Every check issued is transmitted in the issue file. Exceptions are decided under the treasury
positive pay policy. Returning an item is a decision, not a payment; paying an exception item
that is not the company's check is prohibited.

## 5. Payment runs in Corpay
A run is built in Corpay as one **Draft** payment batch on the operating account's funding
account, dated the run's payment date: one payment per vendor, listing every invoice it pays
and the amount applied to each (a credit memo as a negative line). AP builds the draft; the CFO
releases it. Nobody else releases, approves or submits a batch.

A **job release** pays one job's AP early, when the owner has paid our application on the job:
the job's posted invoices due on or before the cutoff the controller gives go into that week's
run, under section 6.

## 6. What a run pays
Only **posted** ERP invoices (posting is the approval; an unposted or not yet entered invoice
waits) due on or before the run's cutoff, each for its **open balance**: the net amount (gross
less retainage) less what has already been paid on it. Leave out:
1. every invoice of a vendor on **payment hold** in the ERP, whatever the hold's reason;
2. a **disputed** invoice, held from payment at the invoice in the ERP (the vendor's other
   invoices are paid);
3. a subcontractor's pay request without its **conditional waiver** on file in Levelset: a
   Conditional Progress waiver for that pay request (its payment reference is the pay request's
   number), received or approved (a waiver only requested is not on file), for **at least the
   amount being paid**. A waiver for less than the payment does not cover it: the pay request
   waits whole (never pay the waived amount instead);
4. every invoice of a vendor whose Corpay enrollment is **Pending**: a pending enrollment is a
   new or changed bank account Corpay has not verified yet. Nothing is paid to the vendor, not
   by check either, until the enrollment is complete and AP has called the vendor back at the
   number on file (vendor master change policy);
5. **retainage**: it is not due until released. A pay request is paid net of its retainage, and
   a retainage-release billing is paid only in the job's close-out, never in a weekly run.

A vendor's **credit memos** on the job (back-charges, returns) due by the cutoff are applied in
that vendor's payment, so the vendor is paid its invoices less its credits; a vendor left out of
the run keeps its credits for a later run. Suppliers, service vendors and professionals give no
lien waivers.
""".replace("{guard}", _GUARD)

BODIES["month_end_close_policy.md"] = """
The open period is the current month; prior months are closed and may not be posted to.

## 1. Calendar (business days after month end)
1. AP cut-off: all posted invoices dated in the month; approved-but-unsynced requisitions synced.
2. Subcontract accruals staged (section 2). Payroll accruals staged.
3. Owner billing drafted (owner billing policy). Cost-to-complete updated (section 3).
4. Controller review; entries posted by the controller only.

## 2. Uninvoiced subcontract work (accrual)
For each subcontract on the job: accrual = **max(0, work completed to date − approved invoices
to date)**, where work completed to date is the PM's progress on the commitment's schedule of
values in Procore (sum of line work completed) and approved invoices to date is the gross of
every requisition with status approved (synced or not). A commitment billed ahead of progress
contributes zero — never a negative accrual. Stage one journal entry per job: Dr 5200 Subcontract
Cost / Cr 2100 Accrued Liabilities for the total, with the job on both lines, auto-reversing on
the first day of the next period where the ERP supports it. Leave it as a draft; do not post.

## 3. Estimated cost to complete
The project manager maintains forecast-to-complete by cost code in Procore. At month end the
ERP's job estimated cost to complete is updated to the PM's forecast summed over the budget lines
the ERP carries (include in ERP = yes), mapped through the cost-code → ERP phase crosswalk
(several cost codes may share one phase). PM-only lines such as contingency are excluded. Leave
the change for the controller's sign-off; change nothing else on the job.

## 4. Reconciliations
AP subledger ties to 2000 (and retainage payable to 2010), AR to 1200 and 1210, bank accounts to
the bank statement with outstanding checks listed.
"""

BODIES["certified_payroll_policy.md"] = """
Applies to prevailing-wage (Davis-Bacon / Illinois Prevailing Wage Act) jobs. Certified payrolls
(WH-347) are prepared in LCPtracker from the released payroll.

## 1. Validation before certification
Check every line of the week's submission against the job's wage determination and the
apprentice rules, and flag each violating line with **one** code:

| Code | Rule |
|---|---|
| `unregistered_apprentice` | a line at apprentice level without an apprenticeship registration number |
| `apprentice_ratio` | on some day of the week, the trade's apprentices on the job exceed floor(journeymen ÷ ratio) \
for that trade; foremen count as journeymen; flag every apprentice line of that trade working that day |
| `misclassification` | the line's classification is not on the determination (it lists no rate for it): the \
work must be reported under a classification the determination covers |
| `underpayment` | hourly rate paid below the determination's base rate for the classification; for a registered \
apprentice, below the base rate × the apprentice's percentage |
| `fringe_shortfall` | fringe paid per hour below the determination's fringe rate (journeymen and apprentices alike) |

When a line breaks more than one rule, use the first code in the table. Compliant lines get no
flag.

## 2. Ratios
The journeymen-per-apprentice ratio per trade is the registered program's (apprentice ratio
rules); the usual ratio is one apprentice per three journeymen per day.

## 3. Certification
Flags go to the payroll manager for correction (restitution payroll if underpaid). Do not edit
payroll, certify, sign or e-file a certified payroll; those are human steps.
"""

BODIES["treasury_positive_pay_policy.md"] = """
The bank presents exceptions each business day; each needs a pay or return decision by the
deadline on the exception file.

## 1. Decisions
Compare each presented item with the issued-check register (check number, amount, payee).

- **Pay** only when the check number and amount match an issued, uncleared check and the *sole*
  mismatch is the payee truncated to the bank's payee field width (the register's payee cut to
  that many characters, trailing spaces trimmed).
- **Return** an item whose amount differs from the register (altered check).
- **Return** an item whose check number was never issued (possible counterfeit / fraud).
- **Return** a second presentment of a check that has already cleared (duplicate).
- **Return** a check that was voided in the register, even when number, amount and payee match.
- **Return** a stale-dated check: one presented more than **180 days** after its issue date,
  even when it matches the register (the payee can ask for a replacement check).
- When in doubt, return and call the bank.

## 2. Prohibitions
Record decisions only. Never initiate a transfer, wire or payment from the exception workflow,
and never edit the issued-check register to make an item match.

{guard}
""".replace("{guard}", _GUARD)

BODIES["form_1099_policy.md"] = """
Form 1099-NEC for tax year {tax_year} is prepared in Track1099.

## 1. Who is reportable
Report nonemployee compensation when total payments in the calendar year are **$600.00 or more**
to: individuals, sole proprietors, partnerships, and LLCs taxed as partnerships or disregarded
(single-member). Not reportable: C corporations and S corporations — **except attorneys and law
firms, which are reportable whatever their entity type** — and suppliers of materials only.

## 2. Amounts
Box 1 is the sum of payments (checks by issue date) made in the calendar year, not invoices.
Aggregate by TIN: a payee set up under two vendor ids with the same TIN gets one form for the
combined total, and is reportable if the combined total reaches $600.00.
Payments made by credit, debit or virtual card (including Corpay virtual-card payments) are
reported by the card processor on Form 1099-K: leave them out of box 1 and out of the $600.00
test. Checks and ACH payments count.

## 3. Filing
Build the forms in Track1099 and leave them staged for review. Do not e-file and do not mail
recipient copies; both are approved human steps.

## 4. B-notices (CP2100 / CP2100A)
When the IRS reports a name/TIN mismatch on a filed form, correct the payee record in Track1099
from the payee's new W-9 (Track1099's W-9 submissions), so next year's form files under the
right name and TIN. The W-9 line 1 name is the name the TIN belongs to: for a sole proprietor
filing under an SSN that is the owner's own name, with the business name on line 2. Correct only
what the W-9 shows was wrong. The preparer does not change the ERP vendor master (AP's
vendor-change process does) and files nothing.
"""

BODIES["insurance_compliance_policy.md"] = """
## 1. Requirements
Every subcontractor keeps current certificates of insurance naming {company} as certificate
holder: general liability $1,000,000 per occurrence / $2,000,000 aggregate, automobile
$1,000,000, workers' compensation statutory with $1,000,000 employer's liability, and umbrella
$5,000,000 on subcontracts over $500,000.

## 2. Expired certificates
The certificate PDF in Box is the record: a vendor whose current general-liability certificate
has an expiry date before today is out of compliance even if Procore still shows it compliant.
- Place a **payment hold** on that vendor's record in the ERP vendor master, and touch nothing
  else.
- Find the ERP record through the hh2 vendor crosswalk: the ERP often spells names differently
  and similarly named vendors exist (for example a supply house sharing a subcontractor's name).
  Never pick a record by name search alone.
- Request a renewed certificate; release the hold only when a valid one is filed.

## 3. Renewals
A renewal received by email is filed to /Compliance/COI/<vendor> and the prior certificate
marked superseded. A renewal for one vendor never clears a hold on another.

## 4. Renewal requests
Ask for a renewal 30 days ahead: every vendor with an open (approved) commitment whose current
certificate of **any** required coverage — general liability, automobile, workers'
compensation or umbrella — expires within 30 days of today, or has already expired, gets one
renewal request email naming the coverage that is expiring. An umbrella (or any other) policy
expiring while the general-liability policy is still valid still needs a request. Only the
latest certificate of each coverage counts: an older certificate a renewal superseded needs
nothing. Draft the requests for the compliance manager to send; never send them yourself.
"""

BODIES["owner_billing_policy.md"] = """
Owner pay applications use AIA G702/G703 and are drafted in GCPay monthly for the period ending
on the last day of the month.

## 1. Continuation sheet (G703), per schedule-of-values line
- C scheduled value; D work completed from the previous application (= previous D + E);
- E work completed this period = work completed to date (scheduled value × the PM's percent
  complete, rounded to the cent) − D;
- F materials presently stored; G total completed and stored = D + E + F; G ÷ C percent;
- H balance to finish = C − G; I retainage.

## 2. Retainage
Retainage on each line is the contract's retainage percentage of G, rounded to the cent. When a
contract has a step-down (e.g. 10% reducing to 5% at 50%), and the application's total completed
and stored reaches the step-down percentage of the contract sum to date, the step-down
percentage applies to G on every line of that application and later ones.

## 3. Application (G702)
1 original contract sum; 2 net change by change orders (approved owner change orders); 3 contract
sum to date; 4 total completed and stored; 5 retainage; 6 total earned less retainage; 7 less
previous certificates for payment; 8 current payment due (6 − 7); 9 balance to finish including
retainage (3 − 6). Approved owner change orders appear as their own lines.

## 4. Approval
Draft only. The PM reviews quantities; the controller approves; the application is submitted to
the owner and architect by the PM. Do not submit, sign or certify.
"""

BODIES["pm_platforms_policy.md"] = """
## 1. Systems
Procore is the project-management system of record. Owner-side budgets and funding are kept in
ingenious.build, subcontract SOVs and eApps in RedTeam, residential POs and bills in Ressio, and
bills of quantities in SmarteBuild. HCSS HeavyBid holds estimates. hh2 holds the crosswalks
between every system's job, vendor, cost-code, employee and union-local ids.

## 2. Commitments are shared
A commitment (e.g. SC-1042-0) must read the same in every PM platform. An eApp or pay request
that would bill past the commitment's remaining amount (amount − approved billings to date) is
held and returned to the subcontractor; it is never approved or drafted to the ERP as is.

## 3. Ressio bills
A bill must match its purchase-order line (amount not above the line's remaining amount). A
mismatched bill is held for the project manager; it is not booked to the ERP.

## 4. Sync and locking
Only approved objects sync to the ERP. Once synced, the PM object is locked; corrections go
through a change order or a new requisition, never by editing a synced record. ERP posting is a
separate, approved step.

## 5. Forecasts
PM forecasts (Procore, ingenious.build, SmarteBuild re-estimates) move to the ERP only through
the month-end cost-to-complete update, left for the controller's sign-off.

## 6. Owner funding (ingenious.build)
Each owner-side invoice is funded from the project's funding sources in their draw order:
equity first, then grants, then loans (draw priority 1, 2, 3). The invoice's net amount is
allocated to the first source with available balance; what that source cannot cover spills to
the next. Allocations add up exactly to the net amount and never exceed a source's available
balance. The allocated invoice is routed for approval; approving it for payment is the owner's
step, never the agent's.
"""
