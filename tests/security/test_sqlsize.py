"""Value-size limits (cfab.apps.sqlsize): functions that build one large value in a single call
need a literal size no larger than MAX_BUILT_VALUE, in the read tool and in SQL writes alike;
ordinary sizes pass."""

from __future__ import annotations

import pytest

from cfab.apps.sandbox.policy import SqlRefused
from cfab.apps.sandbox.read import check_read
from cfab.apps.sandbox.size import MAX_BUILT_VALUE
from cfab.apps.sandbox.write import parse_write

APPS = ["procore"]

REFUSED = {
    f"SELECT repeat('x', {MAX_BUILT_VALUE + 1})": "too large",
    "SELECT repeat('x', n) FROM procore.projects, (SELECT 5 AS n)": "literal",
    "SELECT repeat(repeat('x', 10), 10)": "cannot itself be built",
    "SELECT lpad('x', 300000000, 'y')": "lpad",
    "SELECT rpad('x', 2000000000)": "rpad",
    "SELECT lpad('x', 10, repeat('y', 10))": "cannot itself be built",
    "SELECT printf('%900000000d', 1)": "width",
    "SELECT printf('%.900000000f', 1.5)": "width",
    "SELECT printf('%*d', 5, 1)": "format literal",
    "SELECT printf(fmt, 1) FROM (SELECT '%d' AS fmt)": "string literal",
    "SELECT format('{:>900000000}', 'x')": "width",
    "SELECT format('{:{}}', 'x', 5)": "format literal",
    "SELECT len(range(100000000))": "as a table",
    "SELECT generate_series(1, n) FROM (SELECT 5 AS n)": "as a table",
    "SELECT range(DATE '2025-01-01', DATE '2025-02-01', INTERVAL 1 DAY)": "as a table",
    "SELECT list_resize([1], 500000000)": "list_resize",
    "SELECT array_resize([1], 500000000, 0)": "array_resize",
    "SELECT bitstring('1', 2000000000)": "bitstring",
    "SELECT bar(1, 0, 10, 900000000)": "bar",
}

ALLOWED = [
    "SELECT repeat('-', 40)",
    f"SELECT repeat('x', {MAX_BUILT_VALUE})",
    "SELECT lpad(number, 12, '0'), rpad(name, 30) FROM procore.projects",
    "SELECT printf('%10.2f | %-20s', 1.5, 'x')",
    "SELECT format('{:>12} {{literal}}', 'x')",
    "SELECT range(5), generate_series(1, 10, 2)",
    "SELECT unnest(range(0, 100))",
    "SELECT * FROM range(100000000000) t(i) LIMIT 3",
    "SELECT count(*) FROM generate_series(DATE '2025-01-01', DATE '2025-12-31', INTERVAL 1 DAY) t(d)",
    "SELECT list_resize([1, 2], 4)",
    "SELECT bar(5, 0, 10, 40)",
]


@pytest.mark.parametrize("sql", sorted(REFUSED))
def test_large_builders_are_refused(sql: str) -> None:
    with pytest.raises(SqlRefused) as info:
        check_read(sql, APPS)
    assert REFUSED[sql] in info.value.reason, info.value.reason


@pytest.mark.parametrize("sql", ALLOWED)
def test_ordinary_sizes_pass(sql: str) -> None:
    check_read(sql, APPS)


def test_writes_are_bounded_too() -> None:
    with pytest.raises(SqlRefused, match="too large"):
        parse_write("UPDATE procore.projects SET name = repeat('x', 900000000) WHERE number = '1042'", APPS)
    parse_write("UPDATE procore.projects SET name = repeat('x', 3) WHERE number = '1042'", APPS)
