"""The identity side of a scale-N replica, generated in Python: for replica r (1 … N-1) new job
numbers, owners, vendors (names, TINs, addresses, ids in every system) and employees.

Keys never collide with the scale-1 universe: jobs are five digits and up (10000 + 100·r + i),
owners ``O``+6 digits, vendors ``V2``+5 digits (``V200000 + 100·r + i``), employees ``E``+6 digits.
Names come from the same pools with per-replica seeded streams; a replica keeps its base entity's
role (the lookalike still shares its subcontractor's stem, the split payee's two keys still share
one TIN).
"""

from __future__ import annotations

from dataclasses import dataclass

from cfab.seeds import names
from cfab.seeds.context import Ctx
from cfab.seeds.identities import employee_identity_rows, vendor_identity_rows
from cfab.seeds.jobs import _FACILITIES
from cfab.seeds.vendors import company_domain


@dataclass
class ReplicaMaps:
    jobs: list[tuple[str, int, str, str, str]]  # base job, r, new job, name, address
    owners: list[tuple[str, int, str, str, str, str, str]]  # base owner, r, new id, name, contact, email, address
    # base key, r, new key, legal, dba, tin, address, city, state, zip, email, phone
    vendors: list[tuple]
    employees: list[tuple[str, int, str, str, str, str]]  # base id, r, new id, first, last, ssn4
    vendor_identities: list[tuple[str, str, str, str]]
    employee_identities: list[tuple[str, str, str]]


def job_key(r: int, i: int) -> str:
    return str(10000 + 100 * r + i)


def build_maps(ctx: Ctx, scale: int) -> ReplicaMaps:
    base_jobs = sorted(ctx.jobs)
    base_vendors = sorted(ctx.vendors)
    base_emps = sorted(ctx.notes["workers"]) + sorted(
        e["employee_id"] for e in ctx.rows("employees") if e["employee_id"] not in ctx.notes["workers"]
    )
    owners = {o["owner_id"]: o for o in ctx.rows("owners")}
    vrows = {v["vendor_key"]: v for v in ctx.rows("vendors")}
    maps = ReplicaMaps([], [], [], [], [], [])
    codes = ctx.notes["sage300_codes"]
    taken_tins = {v["tin"] for v in vrows.values()}
    domains = set(ctx.notes.get("vendor_domains", set()))
    for r in range(1, scale):
        rr = ctx.rng("replica", r)
        for i, job in enumerate(base_jobs):
            plan = ctx.jobs[job]
            fac = rr.choice(_FACILITIES[plan.job_type])
            maps.jobs.append((job, r, job_key(r, i), f"{plan.city} {fac}", names.street_address(rr)))
        for i, oid in enumerate(sorted(owners)):
            o = owners[oid]
            first, last = names.person(rr)
            if o["owner_type"] == "public":
                name = (
                    f"{rr.choice(names.CITIES)[0]} "
                    f"{rr.choice(('Park District', 'Library District', 'Township', 'Fire Protection District'))}"
                )
            else:
                name = (
                    f"{rr.choice(names.PLACE_STEMS)} "
                    f"{rr.choice(('Development', 'Holdings', 'Properties', 'Partners'))}, LLC"
                )
            dom = names.slug(name, 20) + (".org" if o["owner_type"] == "public" else ".com")
            maps.owners.append(
                (
                    oid,
                    r,
                    f"O{100000 + 1000 * r + i}",
                    name,
                    f"{first} {last}",
                    f"{first[0].lower()}{names.slug(last)}@{dom}",
                    o["address"],
                )
            )
        stems: dict[str, str] = {}
        tins: dict[str, str] = {}
        for i, key in enumerate(base_vendors):
            vplan, v = ctx.vendors[key], vrows[key]
            first, last = names.person(rr)
            stem = stems.setdefault(vplan.lookalike_of or key, rr.choice(names.LAST_NAMES + names.PLACE_STEMS))
            if vplan.lookalike_of:
                stem = stems[vplan.lookalike_of]
            if vplan.entity_type in ("individual", "sole_proprietor") or vplan.role == "split":
                legal = f"{first} {last}"
                dba = f"{last} {vplan.trade}" if vplan.entity_type == "sole_proprietor" else None
            else:
                legal = v["legal_name"].replace(vplan.stem, stem, 1) if vplan.stem else f"{stem} {vplan.trade}"
                dba = None
            if v["tin"] not in tins:
                while True:
                    tin = (
                        f"{rr.randint(1, 899):03d}-{rr.randint(1, 99):02d}-{rr.randint(1, 9999):04d}"
                        if v["tin_type"] == "SSN"
                        else f"{rr.choice((20, 26, 27, 36, 37, 45, 46, 47, 81, 82, 84)):02d}-"
                        f"{rr.randint(1000000, 9999999)}"
                    )
                    if tin not in taken_tins:
                        taken_tins.add(tin)
                        tins[v["tin"]] = tin
                        break
            city, _county, state, zp, area = names.city(rr, ("IL", "IL", "WI", "IN"))
            local = v["email"].split("@")[0]
            email = (
                f"{local}@{company_domain(dba or legal, domains)}"
                if "@gmail" not in v["email"]
                else f"{names.slug(legal, 20)}@gmail.com"
            )
            maps.vendors.append(
                (
                    key,
                    r,
                    f"V{200000 + 100 * r + i}",
                    legal,
                    dba,
                    tins[v["tin"]],
                    names.street_address(rr),
                    city,
                    state,
                    names.zip_code(rr, zp),
                    email,
                    names.phone(rr, area),
                )
            )
        for i, emp in enumerate(base_emps):
            first, last = names.person(rr)
            maps.employees.append((emp, r, f"E{100000 + 1000 * r + i}", first, last, f"{rr.randint(1, 9999):04d}"))
    n_v, n_e = len(base_vendors), len(base_emps)
    maps.vendor_identities = vendor_identity_rows(
        ((n_v * r + base_vendors.index(key), new, legal) for key, r, new, legal, *_ in maps.vendors), {}, codes
    )
    maps.employee_identities = employee_identity_rows(
        (n_e * r + base_emps.index(emp), new) for emp, r, new, *_ in maps.employees
    )
    return maps
