"""Value-size limits for agent SQL: the functions that build one large value in a single call.

DuckDB's ``memory_limit`` bounds its buffer manager, not the strings and lists an expression
builds, and ``interrupt()`` cannot stop a scalar function mid-call: ``repeat('x', 2e9)``,
``lpad('x', 2e9)``, ``printf('%2000000000d', 1)`` or a scalar ``range(1e9)`` grow the process
by gigabytes before the time limit can act. The guard therefore requires the size argument
of every such builder to be an integer literal no larger than ``MAX_BUILT_VALUE`` (and a
builder's input not to be another builder's output), and refuses with a message that says
which function and which argument.

This is the first layer. A query can still multiply sizes through a chain of ordinary
operations (nested ``replace``, concatenation across CTEs); the runner caps the data segment
of every process that runs agent SQL (`cfab.runner.limits`), so such a query ends with an
"Out of Memory" error result and the attempt goes on.
"""

from __future__ import annotations

import re

from sqlglot import exp

from cfab.apps.sqlpolicy import SqlRefused

__all__ = ["MAX_BUILT_VALUE", "check_value_size"]

#: Largest length/count (characters, list elements, bits) one builder call may produce.
MAX_BUILT_VALUE = 1_000_000

# anonymous (sqlglot has no class) builders: name -> position of the size argument
_SIZED_ANONYMOUS: dict[str, int] = {"list_resize": 1, "array_resize": 1, "bitstring": 1, "bar": 3}
_PRINTF = re.compile(r"%[-+ #0']*(\d+|\*)?(?:\.(\d+|\*))?")
_FORMAT_FIELD = re.compile(r"\{[^{}]*\}")


def _int_literal(node: exp.Expression | None) -> int | None:
    """The value of an integer literal (optionally negated or parenthesised), else None."""
    while isinstance(node, exp.Paren):
        node = node.this
    sign = 1
    if isinstance(node, exp.Neg):
        sign, node = -1, node.this
    if isinstance(node, exp.Literal) and not node.is_string:
        try:
            return sign * int(node.this)
        except ValueError:
            return None
    return None


def _is_builder(node: exp.Expression) -> bool:
    return isinstance(node, (exp.Repeat, exp.Pad, exp.GenerateSeries)) or (
        isinstance(node, exp.Anonymous) and node.name.lower() in _SIZED_ANONYMOUS)


def _bounded(fn: str, what: str, node: exp.Expression | None) -> None:
    value = _int_literal(node)
    if value is None:
        raise SqlRefused(f"function {fn}: its {what} must be a whole-number literal (at most "
                         f"{MAX_BUILT_VALUE:,}), not an expression")
    if value > MAX_BUILT_VALUE:
        raise SqlRefused(f"function {fn}: {what} {value:,} is too large (at most {MAX_BUILT_VALUE:,})")


def _no_nested_builder(fn: str, node: exp.Expression | None) -> None:
    if node is not None and any(_is_builder(n) for n in node.walk()):
        raise SqlRefused(f"function {fn}: its input cannot itself be built by repeat, lpad/rpad, "
                         f"range or a resize function")


def _check_format(fn: str, fmt: exp.Expression | None, printf_style: bool) -> None:
    if not (isinstance(fmt, exp.Literal) and fmt.is_string):
        raise SqlRefused(f"function {fn}: the format must be a string literal")
    text = fmt.this
    if printf_style:
        parts = [p for spec in _PRINTF.findall(text) for p in spec]
    else:
        text = text.replace("{{", "").replace("}}", "")
        if re.search(r"\{[^{}]*\{", text):
            parts = ["*"]  # a nested field: width or precision taken from an argument
        else:
            parts = [n for field in _FORMAT_FIELD.findall(text) for n in re.findall(r"\d+", field.partition(":")[2])]
    for part in parts:
        if part == "*":
            raise SqlRefused(f"function {fn}: widths and precisions must be written in the format literal")
        if part and int(part) > MAX_BUILT_VALUE:
            raise SqlRefused(f"function {fn}: width {int(part):,} is too large (at most {MAX_BUILT_VALUE:,})")


def _check_series(node: exp.GenerateSeries) -> None:
    fn = "range" if node.args.get("is_end_exclusive") else "generate_series"
    start, end = _int_literal(node.args.get("start")), _int_literal(node.args.get("end"))
    step_node = node.args.get("step")
    step = 1 if step_node is None else _int_literal(step_node)
    if start is None or end is None or step is None:
        raise SqlRefused(f"function {fn} used as a value builds the whole list at once: give it whole-number "
                         f"literals, or use it as a table (SELECT … FROM {fn}(…) t(x))")
    count = 0 if step == 0 else max(0, (end - start) // step + 1)
    if count > MAX_BUILT_VALUE:
        raise SqlRefused(f"function {fn} used as a value would build a list of about {count:,} elements (at most "
                         f"{MAX_BUILT_VALUE:,}); use it as a table instead: SELECT … FROM {fn}(…) t(x)")


def check_value_size(node: exp.Func) -> None:
    """Refuse a value-building call whose output size is not a small literal bound.

    Call it on every function node outside a FROM position (table functions stream rows)."""
    if isinstance(node, exp.Repeat):
        _bounded("repeat", "count", node.args.get("times"))
        _no_nested_builder("repeat", node.this)
    elif isinstance(node, exp.Pad):
        fn = "lpad" if node.args.get("is_left") else "rpad"
        _bounded(fn, "length", node.args.get("expression"))
        _no_nested_builder(fn, node.args.get("fill_pattern"))
    elif isinstance(node, exp.GenerateSeries):
        _check_series(node)
    elif isinstance(node, exp.Format):
        _check_format("format", node.this, printf_style=False)
    elif isinstance(node, exp.Anonymous):
        name = node.name.lower()
        args = node.expressions
        if name in ("printf", "sprintf"):
            _check_format(name, args[0] if args else None, printf_style=True)
        elif name in _SIZED_ANONYMOUS and len(args) > _SIZED_ANONYMOUS[name]:
            _bounded(name, "size", args[_SIZED_ANONYMOUS[name]])
            _no_nested_builder(name, args[0])
