"""Value normalisation and comparison shared by the diff and the predicates.

Normalised values are JSON-safe and exact:

* ``DECIMAL`` → ``str`` exactly as DuckDB prints it at its scale (``"14350.00"``);
* ``DATE`` / ``TIME`` → ISO ``str``; ``TIMESTAMP*`` → ISO ``str`` with a ``T`` separator;
* ``INTERVAL``, ``UUID``, ``ENUM``, ``BIT`` and other exotic scalars → DuckDB's text;
* ``BLOB`` → ``{"sha256": hex, "size": n}`` (bytes never enter a diff);
* ``JSON`` → the parsed value; nested ``LIST``/``STRUCT``/``MAP`` → lists and dicts of
  normalised values;
* non-finite floats → ``"NaN"``, ``"Infinity"``, ``"-Infinity"``;
* ints, bools, strings and ``None`` as they are.

:func:`values_equal` is the one equality the map form of a predicate uses (see its doc).
"""

from __future__ import annotations

import hashlib
import json
import math
import re
from datetime import date, datetime, time, timedelta
from decimal import Decimal, InvalidOperation
from typing import Any
from uuid import UUID

_NUMBER = re.compile(r"^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$")
_ISO_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}([ T]\d{2}:\d{2}(:\d{2}(\.\d+)?)?([+-]\d{2}(:?\d{2})?|Z)?)?$")
_TRUE = {"true", "t", "1"}
_FALSE = {"false", "f", "0"}

# --------------------------------------------------------------------------- type kinds


def type_kind(type_str: str) -> str:
    """Classify a DuckDB type string: decimal|timestamp|text|blob|json|nested|float|plain."""
    t = type_str.strip().upper()
    if t.endswith("]") or t.startswith(("STRUCT", "MAP", "UNION")):
        return "nested"
    if t.startswith(("DECIMAL", "NUMERIC")):
        return "decimal"
    if t.startswith("TIMESTAMP") or t == "DATETIME":
        return "timestamp"
    if t in {
        "DATE",
        "TIME",
        "TIME WITH TIME ZONE",
        "TIMETZ",
        "INTERVAL",
        "UUID",
        "BIT",
        "BITSTRING",
        "VARINT",
        "BIGNUM",
    } or t.startswith("ENUM"):
        return "text"
    if t in {"BLOB", "BYTEA", "VARBINARY", "BINARY"}:
        return "blob"
    if t == "JSON":
        return "json"
    if t in {"FLOAT", "DOUBLE", "REAL", "FLOAT4", "FLOAT8"}:
        return "float"
    return "plain"


def normalize_sql(col_sql: str, type_str: str) -> str:
    """SQL that renders one column in its normalised form (finished by :func:`finish`)."""
    kind = type_kind(type_str)
    if kind in {"decimal", "text", "json"}:
        return f"CAST({col_sql} AS VARCHAR)"
    if kind == "timestamp":
        return f"replace(CAST({col_sql} AS VARCHAR), ' ', 'T')"
    if kind == "blob":
        return (
            f"CASE WHEN {col_sql} IS NULL THEN NULL ELSE "
            f"struct_pack(sha256 := sha256({col_sql}), size := octet_length({col_sql})) END"
        )
    return col_sql


def finish(value: Any, type_str: str) -> Any:
    """Python-side completion of :func:`normalize_sql` for one fetched value."""
    if value is None:
        return None
    kind = type_kind(type_str)
    if kind == "json":
        try:
            return json.loads(value)
        except (TypeError, ValueError):
            return value
    if kind == "blob":
        return {"sha256": value["sha256"], "size": int(value["size"])}
    return normalize_value(value)


def normalize_value(value: Any) -> Any:
    """Normalise an arbitrary Python value as fetched from DuckDB (used for nested types)."""
    if value is None or isinstance(value, (bool, int, str)):
        return value
    if isinstance(value, float):
        if math.isnan(value):
            return "NaN"
        if math.isinf(value):
            return "Infinity" if value > 0 else "-Infinity"
        return value
    if isinstance(value, Decimal):
        return format(value, "f")
    if isinstance(value, datetime):
        return value.isoformat()
    if isinstance(value, (date, time)):
        return value.isoformat()
    if isinstance(value, (bytes, bytearray, memoryview)):
        raw = bytes(value)
        return {"sha256": hashlib.sha256(raw).hexdigest(), "size": len(raw)}
    if isinstance(value, (UUID, timedelta)):
        return str(value)
    if isinstance(value, dict):
        return {str(k): normalize_value(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [normalize_value(v) for v in value]
    return str(value)


# --------------------------------------------------------------------------- cast back


def sql_type_for(type_str: str) -> str:
    """The type a column has inside a predicate's typed row (BLOBs become a struct)."""
    return "STRUCT(sha256 VARCHAR, size BIGINT)" if type_kind(type_str) == "blob" else type_str


def to_text(value: Any, type_str: str) -> str | None:
    """Render a normalised value as text that :func:`cast_back_sql` turns back into its type."""
    if value is None:
        return None
    if type_kind(type_str) in {"json", "blob", "nested"}:
        return json.dumps(value, separators=(",", ":"), sort_keys=True)
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def cast_back_sql(col_sql: str, type_str: str) -> str:
    """SQL casting a VARCHAR column produced by :func:`to_text` back to the column's type."""
    kind = type_kind(type_str)
    if kind == "json":
        return f"CAST({col_sql} AS JSON)"
    if kind in {"blob", "nested"}:
        return f"CAST(CAST({col_sql} AS JSON) AS {sql_type_for(type_str)})"
    return f"CAST({col_sql} AS {type_str})"


# --------------------------------------------------------------------------- equality


def as_bool(value: Any) -> bool | None:
    """``True``/``False``, ints 1/0 and the strings true/t/1 and false/f/0 (any case).

    ``'Y'``/``'N'`` are deliberately NOT booleans: vendor flag columns such as Vista's
    ``PayHold`` are strings and compare as strings.
    """
    if isinstance(value, bool):
        return value
    if isinstance(value, int) and value in (0, 1):
        return bool(value)
    if isinstance(value, str):
        s = value.strip().lower()
        if s in _TRUE:
            return True
        if s in _FALSE:
            return False
    return None


def as_decimal(value: Any) -> Decimal | None:
    """The exact decimal a value denotes, or None (bools, non-numbers, non-finite)."""
    if isinstance(value, bool) or value is None:
        return None
    try:
        if isinstance(value, int):
            return Decimal(value)
        if isinstance(value, float):
            return Decimal(repr(value)) if math.isfinite(value) else None
        if isinstance(value, Decimal):
            return value if value.is_finite() else None
        if isinstance(value, str) and _NUMBER.match(value.strip()):
            return Decimal(value.strip())
    except (InvalidOperation, ValueError):
        return None
    return None


def _as_text(value: Any) -> str:
    if isinstance(value, Decimal):
        return format(value, "f")
    if isinstance(value, (date, time)):
        return value.isoformat()
    return str(value)


def _as_json(value: Any) -> Any:
    if isinstance(value, str):
        try:
            return json.loads(value)
        except ValueError:
            return value
    return normalize_value(value)


def values_equal(expected: Any, found: Any) -> bool:
    """The equality of the map form of ``where``/``assert``.

    1. ``None`` matches only NULL (and NULL only ``None``).
    2. If either side is a bool, both sides must read as the same bool under
       :func:`as_bool` (``True`` == ``"true"`` == ``"t"`` == ``1``; ``'Y'`` is not a bool).
    3. If both sides parse as numbers they compare as exact decimals
       (``"14350"`` == ``"14350.00"`` == ``Decimal("14350.00")`` == ``14350``; floats via
       their shortest repr, so ``0.1`` == ``"0.10"``).
    4. If either side is a list/dict (a JSON column), both are parsed and compared as JSON.
    5. If both sides look like ISO dates/timestamps they compare as datetimes
       (``"2026-01-31 10:00"`` == ``"2026-01-31T10:00:00"``).
    6. Otherwise both are compared as strings, exactly (case-sensitive).
    """
    if expected is None or found is None:
        return expected is None and found is None
    if isinstance(expected, bool) or isinstance(found, bool):
        a, b = as_bool(expected), as_bool(found)
        return a is not None and a == b
    de, df = as_decimal(expected), as_decimal(found)
    if de is not None and df is not None:
        return de == df
    if isinstance(expected, (dict, list, tuple)) or isinstance(found, (dict, list, tuple)):
        return _as_json(expected) == _as_json(found)
    te, tf = _as_text(expected), _as_text(found)
    if te == tf:
        return True
    if _ISO_DATE.match(te) and _ISO_DATE.match(tf):
        try:
            return datetime.fromisoformat(te.replace("Z", "+00:00")) == datetime.fromisoformat(
                tf.replace("Z", "+00:00")
            )
        except ValueError:
            return False
    return False


def plain_text(value: Any) -> bool:
    """A string that :func:`values_equal` compares with any other string as exact text: it is not a
    number (rule 3) nor an ISO date or timestamp (rule 5). (Against a value that is not a string the
    other rules still apply.)"""
    return isinstance(value, str) and as_decimal(value) is None and not _ISO_DATE.match(value)


def show(value: Any, limit: int = 60) -> str:
    """A short human rendering of a normalised value for check details."""
    text = repr(value) if not isinstance(value, (dict, list)) else json.dumps(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def pk_text(value: Any) -> str:
    """One PK value as the string the write gate records in ``written_rows.pk_key``."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (dict, list)):
        return json.dumps(value, separators=(",", ":"), sort_keys=True)
    return str(value)


def pk_key(pk: tuple[Any, ...] | list[Any]) -> str:
    """The ``written_rows.pk_key`` form of a PK: ``["SC-1042-0","3"]``."""
    return json.dumps([pk_text(v) for v in pk], separators=(",", ":"))
