"""Name pools for a Midwest general contractor's world, and seeded pickers over them.

Every picker takes a ``random.Random`` (one of the book's seeded streams) so a name depends only on
the seed and the entity's natural key.
"""

from __future__ import annotations

import random

FIRST_NAMES = (
    "James", "Michael", "Robert", "John", "David", "William", "Richard", "Joseph", "Thomas",
    "Christopher", "Charles", "Daniel", "Matthew", "Anthony", "Mark", "Steven", "Paul", "Andrew",
    "Joshua", "Kevin", "Brian", "Timothy", "Ryan", "Jason", "Jeffrey", "Gary", "Eric", "Nicholas",
    "Jonathan", "Justin", "Scott", "Brandon", "Gregory", "Samuel", "Patrick", "Raymond", "Dennis",
    "Tyler", "Aaron", "Adam", "Nathan", "Zachary", "Kyle", "Jose", "Luis", "Carlos", "Miguel",
    "Juan", "Javier", "Alejandro", "Marcus", "Darnell", "Andre", "Terrence", "Dmitri", "Tomasz",
    "Piotr", "Marek", "Stanislaw", "Sean", "Connor", "Liam", "Brendan", "Dale", "Wayne", "Randy",
    "Troy", "Travis", "Cody", "Dustin", "Derek", "Mitchell", "Ahmed", "Omar", "Hassan", "Kwame",
    "Mary", "Patricia", "Jennifer", "Linda", "Elizabeth", "Barbara", "Susan", "Jessica", "Sarah",
    "Karen", "Lisa", "Nancy", "Sandra", "Ashley", "Emily", "Michelle", "Amanda", "Melissa",
    "Stephanie", "Rebecca", "Laura", "Angela", "Nicole", "Katherine", "Megan", "Rachel", "Heather",
    "Maria", "Ana", "Guadalupe", "Rosa", "Monica", "Tanya", "Keisha", "Latoya", "Agnieszka", "Katarzyna",
    "Colleen", "Brianna", "Kelsey", "Erin", "Shannon", "Priya", "Mei", "Grace", "Hannah", "Olivia",
)

LAST_NAMES = (
    "Anderson", "Bauer", "Becker", "Brennan", "Brooks", "Callahan", "Carlson", "Castillo", "Cole",
    "Collins", "Costa", "Cruz", "Daley", "Dombrowski", "Doyle", "Dunn", "Erickson", "Fischer",
    "Flanagan", "Garcia", "Gallagher", "Gonzalez", "Grabowski", "Gustafson", "Hale", "Hansen",
    "Harrington", "Hartmann", "Hayes", "Hendricks", "Hernandez", "Hoffman", "Holmberg", "Horvath",
    "Jablonski", "Jensen", "Johnson", "Kaminski", "Kelly", "Kessler", "Klein", "Koch", "Kowalczyk",
    "Kowalski", "Kramer", "Krueger", "Larsen", "Lindgren", "Lopez", "Lundquist", "Mahoney", "Majewski",
    "Martinez", "McCarthy", "McGuire", "Meyer", "Moreno", "Morrison", "Murphy", "Nguyen", "Nielsen",
    "Novak", "Nowicki", "O'Brien", "O'Connor", "Olson", "Ortiz", "Patel", "Pedersen", "Peterson",
    "Quinn", "Ramirez", "Reilly", "Reyes", "Richter", "Rivera", "Rossi", "Russo", "Ryan", "Sanchez",
    "Schaefer", "Schmidt", "Schneider", "Schultz", "Sorensen", "Stanton", "Sullivan", "Svoboda",
    "Thompson", "Torres", "Vasquez", "Wagner", "Walsh", "Washington", "Weber", "Whitfield", "Williams",
    "Wojcik", "Wright", "Zielinski", "Ziegler", "Banks", "Jackson", "Okafor", "Adeyemi", "Kim", "Chen",
)

# Company-name stems that are not surnames: regional and descriptive words.
PLACE_STEMS = (
    "Prairie State", "Great Lakes", "Midwest", "Heartland", "Fox Valley", "DuPage", "Lakeshore",
    "Northern Illinois", "Tri-County", "Rock River", "Illini", "Kankakee Valley", "Des Plaines",
    "North Shore", "Lincolnland", "Chicagoland", "Riverbend", "Blackhawk", "Keystone", "Summit",
    "Pinnacle", "Cornerstone", "Ironwood", "Bluestem", "Meridian", "Sterling", "Anchor", "Centennial",
)

# (city, county, state, zip prefix, phone area code) — real Midwest places.
CITIES = (
    ("Chicago", "Cook", "IL", "606", "312"), ("Evanston", "Cook", "IL", "602", "847"),
    ("Schaumburg", "Cook", "IL", "601", "847"), ("Oak Lawn", "Cook", "IL", "604", "708"),
    ("Naperville", "DuPage", "IL", "605", "630"), ("Wheaton", "DuPage", "IL", "601", "630"),
    ("Downers Grove", "DuPage", "IL", "605", "630"), ("Elmhurst", "DuPage", "IL", "601", "630"),
    ("Aurora", "Kane", "IL", "605", "630"), ("Elgin", "Kane", "IL", "601", "847"),
    ("St. Charles", "Kane", "IL", "601", "630"), ("Joliet", "Will", "IL", "604", "815"),
    ("Bolingbrook", "Will", "IL", "604", "630"), ("Waukegan", "Lake", "IL", "600", "847"),
    ("Libertyville", "Lake", "IL", "600", "847"), ("Crystal Lake", "McHenry", "IL", "600", "815"),
    ("Rockford", "Winnebago", "IL", "611", "815"), ("Peoria", "Peoria", "IL", "616", "309"),
    ("Champaign", "Champaign", "IL", "618", "217"), ("Springfield", "Sangamon", "IL", "627", "217"),
    ("Yorkville", "Kendall", "IL", "605", "630"), ("DeKalb", "DeKalb", "IL", "601", "815"),
    ("Kenosha", "Kenosha", "WI", "531", "262"), ("Milwaukee", "Milwaukee", "WI", "532", "414"),
    ("Gary", "Lake", "IN", "464", "219"), ("Merrillville", "Lake", "IN", "464", "219"),
)

STREETS = (
    "Main St", "Oak St", "Maple Ave", "Washington St", "Lincoln Hwy", "Roosevelt Rd", "Ogden Ave",
    "Cermak Rd", "Butterfield Rd", "Diehl Rd", "Warrenville Rd", "Army Trail Rd", "Lake St",
    "North Ave", "Irving Park Rd", "Higgins Rd", "Golf Rd", "Touhy Ave", "Dempster St", "Route 59",
    "Randall Rd", "Orchard Rd", "Eola Rd", "Ferry Rd", "Industrial Dr", "Commerce Dr",
    "Enterprise Dr", "Technology Dr", "Corporate Blvd", "Park Blvd", "River Rd", "Mill St",
    "Elm St", "Chestnut St", "Division St", "Jefferson St", "Madison St", "Adams St", "State St",
    "Prairie Ave", "Wolf Rd", "Mannheim Rd", "Harlem Ave", "Cicero Ave", "Pulaski Rd", "Kedzie Ave",
)

INSURERS = (
    "Travelers Property Casualty Co. of America", "The Cincinnati Insurance Company",
    "Zurich American Insurance Company", "Liberty Mutual Fire Insurance Company",
    "West Bend Mutual Insurance Company", "Acuity, A Mutual Insurance Company",
    "Westfield Insurance Company", "Auto-Owners Insurance Company", "Hartford Fire Insurance Company",
    "Selective Insurance Company of America", "Erie Insurance Exchange", "Society Insurance",
    "Old Republic General Insurance Corporation", "Federated Mutual Insurance Company",
)


def person(r: random.Random) -> tuple[str, str]:
    return r.choice(FIRST_NAMES), r.choice(LAST_NAMES)


def city(r: random.Random, states: tuple[str, ...] = ("IL",)) -> tuple[str, str, str, str, str]:
    pool = [c for c in CITIES if c[2] in states] or list(CITIES)
    return r.choice(pool)


def street_address(r: random.Random) -> str:
    number = r.choice((r.randint(100, 999), r.randint(1000, 9999), r.randint(10, 99) * 100 + r.randint(0, 99)))
    suite = f", Suite {r.randint(1, 4)}{r.randint(0, 2)}{r.randint(0, 9)}" if r.random() < 0.2 else ""
    return f"{number} {r.choice(STREETS)}{suite}"


def zip_code(r: random.Random, prefix: str) -> str:
    return f"{prefix}{r.randint(1, 99):02d}"


def phone(r: random.Random, area: str) -> str:
    return f"({area}) {r.randint(201, 989)}-{r.randint(0, 9999):04d}"


def slug(text: str, keep: int = 14) -> str:
    """Lowercase alphanumerics of ``text``: email local parts and domains."""
    return "".join(ch for ch in text.lower() if ch.isalnum())[:keep]
