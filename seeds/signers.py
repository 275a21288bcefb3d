"""Who signs: Company A's officers, the architect on each prime contract, each vendor's signer.

- ``company_officers``: the finance office (the same people who sign the mailbox's letters: the
  ``office-staff`` stream) and the president. The controller certifies the WH-347 Statement of
  Compliance and signs the contractor's certification on the G702 (the owner-billing policy has
  the controller approve each application).
- ``prime_contract_architects``: the architect of record on each prime contract, from a pool of
  Chicago-area firms (a firm serves several jobs); its contact signs the architect's certificate.
- ``vendor_signers``: each vendor's authorized signer — the person whose name is already on the
  vendor's signed lien waivers (the ``signer`` stream) — with a title that fits the entity type;
  sole proprietors and individuals sign for themselves as owner.
"""

from __future__ import annotations

from cfab.seeds import names
from cfab.seeds.context import Ctx
from cfab.seeds.reference import COMPANY, DOMAIN

# the mailbox's office staff, in the order its stream draws them
OFFICE_STAFF: tuple[tuple[str, str], ...] = (
    ("controller", "Controller"),
    ("ap", "Accounts Payable Manager"),
    ("payroll", "Payroll Manager"),
    ("cfo", "Chief Financial Officer"),
)
_FIRM_SUFFIXES = (
    "Architects",
    "Architects, Ltd.",
    "Design Group",
    "Architecture + Planning",
    "& Associates, Architects",
    "Studio",
)
_ARCHITECT_TITLES = ("Project Architect", "Principal", "Associate Principal", "Project Manager, AIA")
_CORP_TITLES = (
    "President",
    "President",
    "Vice President",
    "Chief Financial Officer",
    "Controller",
    "Secretary-Treasurer",
)
_PARTNERSHIP_TITLES = ("Managing Member", "Managing Member", "Member", "General Manager")


def office_staff(ctx: Ctx) -> dict[str, tuple[str, str]]:
    """role -> (name, email) for the finance office (the mailbox signs with the same people)."""
    r = ctx.rng("office-staff")
    out = {}
    for role, _title in OFFICE_STAFF:
        first, last = names.person(r)
        out[role] = (f"{first} {last}", f"{first[0].lower()}{names.slug(last)}@{DOMAIN}")
    return out


def build_officers(ctx: Ctx) -> None:
    staff = office_staff(ctx)
    first, last = names.person(ctx.rng("officer", "president"))
    people = [("president", f"{first} {last}", "President", f"{first[0].lower()}{names.slug(last)}@{DOMAIN}")]
    people += [(role, staff[role][0], title, staff[role][1]) for role, title in OFFICE_STAFF]
    for ext, (officer, name, title, email) in enumerate(people, start=201):
        ctx.add(
            "company_officers",
            officer_id=officer,
            company_id=COMPANY["company_id"],
            name=name,
            title=title,
            email=email,
            phone=f"{COMPANY['phone']} x{ext}",
            signs_certified_payroll=officer == "controller",
            signs_pay_applications=officer == "controller",
        )


def _firms(ctx: Ctx) -> list[dict[str, str]]:
    r = ctx.rng("architect-firms")
    firms: list[dict[str, str]] = []
    while len(firms) < 8:
        a, b = r.sample(names.LAST_NAMES, 2)
        style = r.randrange(3)
        stem = f"{a} {b}" if style == 0 else a if style == 1 else r.choice(names.PLACE_STEMS)
        name = f"{stem} {r.choice(_FIRM_SUFFIXES)}"
        if any(f["name"].split()[0] == name.split()[0] for f in firms):
            continue
        city, _county, state, zp, area = names.city(r, ("IL",))
        firms.append(
            {
                "name": name,
                "address": names.street_address(r),
                "city": city,
                "state": state,
                "zip": names.zip_code(r, zp),
                "phone": names.phone(r, area),
                "domain": names.slug(stem, 16) + ("design.com" if "Design" in name else "arch.com"),
                "initials": "".join(w[0] for w in stem.replace("-", " ").split())[:3].upper(),
            }
        )
    return firms


def build_architects(ctx: Ctx) -> None:
    firms = _firms(ctx)
    for pc in sorted(ctx.rows("prime_contracts"), key=lambda p: p["job_number"]):
        job = pc["job_number"]
        r = ctx.rng("architect", job)
        firm = r.choice(firms)
        first, last = names.person(r)
        ctx.add(
            "prime_contract_architects",
            job_number=job,
            firm_name=firm["name"],
            address=firm["address"],
            city=firm["city"],
            state=firm["state"],
            zip=firm["zip"],
            phone=firm["phone"],
            contact_name=f"{first} {last}",
            contact_title=r.choice(_ARCHITECT_TITLES),
            contact_email=f"{first[0].lower()}{names.slug(last)}@{firm['domain']}",
            architect_project_number=f"{firm['initials']}-{pc['executed_date']:%y}{r.randint(10, 99)}{r.randint(0, 9)}",
        )


def build_vendor_signers(ctx: Ctx) -> None:
    vendors = sorted(ctx.rows("vendors"), key=lambda x: x["vendor_key"])
    person_by_tin = {v["tin"]: v["legal_name"] for v in vendors if v["entity_type"] == "individual"}
    for v in vendors:
        key = v["vendor_key"]
        r = ctx.rng("signer-title", key)
        if v["entity_type"] in ("individual", "sole_proprietor"):  # the person behind the SSN signs
            name, title = person_by_tin.get(v["tin"], v["legal_name"]), "Owner"
            ctx.add("vendor_signers", vendor_key=key, signer_name=name, signer_title=title, signer_email=v["email"])
            continue
        first, last = names.person(ctx.rng("signer", key))  # the name on the vendor's lien waivers
        title = r.choice(_PARTNERSHIP_TITLES if v["entity_type"].startswith(("llc", "partnership")) else _CORP_TITLES)
        ctx.add(
            "vendor_signers",
            vendor_key=key,
            signer_name=f"{first} {last}",
            signer_title=title,
            signer_email=f"{first[0].lower()}{names.slug(last)}@{v['email'].split('@', 1)[1]}",
        )
