"""Value-size limits for agent SQL: bound what one expression can build, before anything runs.

DuckDB's ``memory_limit`` bounds its buffer manager (sorts, hash tables, aggregate states),
not the strings and lists an expression builds, and ``interrupt()`` cannot stop a scalar
function mid-call: ``repeat(s, 1000000)`` over a column, ``lpad('x', 2e9)``, a scalar
``range(1e9)`` or ``list_transform(range(1e6), lambda x: repeat('x', 1e6))`` grow the process
by gigabytes before the time limit can act. This module reasons about sizes statically:

* every builder (repeat, lpad/rpad, printf/format widths, range/generate_series as a value,
  list_resize/array_resize, bitstring, bar) has its output size worked out from its
  arguments; a known size above ``MAX_BUILT_VALUE`` is refused, saying which function;
* multiplication is followed through lambdas (list_transform/list_apply/array_transform/
  apply and friends, whose size is elements × the lambda body's size), list comprehensions,
  ``unnest`` of a built list, concatenation, ``replace`` (the input times the replacement's
  growth) and ``regexp_replace`` (each match may become the replacement, back-references
  included); a builder's input may not itself be another builder's output;
* a size that is not a literal (``repeat('-', length(name))``, ``lpad(x, n)``, a count from
  a ``range`` table column) is checked while running instead of refused: the call becomes
  ``CASE WHEN <size> <= limit THEN <call> ELSE error('…') END`` (built with sqlglot
  expression builders), so the builder never runs with a size past the limit. Arguments
  that change between evaluations (random(), uuid()) are refused, since the check and the
  call would see different values, and checks nest at most ``MAX_CHECK_NESTING`` deep;
* quadratic string comparisons (levenshtein, damerau_levenshtein, jaro…) run only when
  the product of their inputs' lengths is at most ``MAX_QUADRATIC_WORK``.

The per-statement memory cap (`cfab.apps.sandbox.exec`) is the second line: whatever a query
multiplies through operations this module does not model ends as an "out of memory" error.
"""

from __future__ import annotations

import re

from sqlglot import exp

from cfab.apps.sandbox.policy import SqlRefused, function_call_name

__all__ = ["MAX_BUILT_VALUE", "MAX_QUADRATIC_WORK", "MAX_CHECK_NESTING", "check_value_size", "static_size"]

#: Largest length/count (characters, list elements, bits) one builder call may produce.
MAX_BUILT_VALUE = 1_000_000
#: Largest len(a) * len(b) a quadratic string comparison may work through per row.
MAX_QUADRATIC_WORK = 250_000
#: How deep runtime size checks may nest (each level evaluates its arguments twice).
MAX_CHECK_NESTING = 3

# anonymous (sqlglot has no class) builders: name -> position of the size argument
_SIZED_ANONYMOUS: dict[str, int] = {"list_resize": 1, "array_resize": 1, "bitstring": 1, "bar": 3}
_PRINTF = re.compile(r"%[-+ #0']*(\d+|\*)?(?:\.(\d+|\*))?")
_FORMAT_FIELD = re.compile(r"\{[^{}]*\}")
#: functions whose value differs between two evaluations in one row
_VOLATILE = frozenset({"random", "uuid", "uuidv4", "uuidv7", "gen_random_uuid"})
#: list functions applying a lambda to every element: output = elements x body
_LAMBDA_MAPS = frozenset({"list_transform", "array_transform", "list_apply", "array_apply", "apply"})
#: list functions folding with a lambda: the accumulator may grow at every step
_LAMBDA_FOLDS = frozenset({"list_reduce", "array_reduce", "reduce"})
_QUADRATIC = frozenset(
    {"levenshtein", "damerau_levenshtein", "editdist3", "jaro_similarity", "jaro_winkler_similarity"}
)
_BACKREF = re.compile(r"\\[0-9]")


def _int_literal(node: exp.Expr | None) -> int | None:
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


def _str_literal(node: exp.Expr | None) -> str | None:
    return node.this if isinstance(node, exp.Literal) and node.is_string else None


def _name(node: exp.Expr) -> str:
    try:
        return function_call_name(node) or ""
    except Exception:
        return ""


def _is_builder(node: exp.Expr) -> bool:
    return isinstance(node, (exp.Repeat, exp.Pad, exp.GenerateSeries)) or (
        isinstance(node, exp.Anonymous) and node.name.lower() in _SIZED_ANONYMOUS
    )


def _series_count(node: exp.GenerateSeries) -> int | None:
    """Elements of range/generate_series with integer literal bounds, else None."""
    start, end = _int_literal(node.args.get("start")), _int_literal(node.args.get("end"))
    step_node = node.args.get("step")
    step = 1 if step_node is None else _int_literal(step_node)
    if start is None or end is None or step is None:
        return None
    if step == 0:
        return 0
    exclusive = bool(node.args.get("is_end_exclusive"))
    span = end - start
    if (span < 0) != (step < 0) and span != 0:
        return 0
    if exclusive:  # range(a, b, s): ceil((b - a) / s) elements
        return max(0, -(-span // step))
    return max(0, span // step + 1)


def _lambda_body(node: exp.Expr) -> exp.Expr | None:
    for arg in node.args.values():
        for item in arg if isinstance(arg, list) else [arg]:
            if isinstance(item, exp.Lambda):
                return item.this
    return None


def static_size(node: exp.Expr | None) -> int | None:
    """An upper bound on the characters/elements of the value `node` produces, worked out
    from literals alone; None when it depends on data (columns, subqueries, parameters)."""
    if node is None:
        return 0
    while isinstance(node, (exp.Paren, exp.Alias)):
        node = node.this
    if isinstance(node, exp.Literal):
        return len(str(node.this))
    if isinstance(node, (exp.Null, exp.Boolean)):
        return 1
    if isinstance(node, exp.Cast):
        inner = static_size(node.this)
        return None if inner is None else max(inner, 32)
    if isinstance(node, (exp.Column, exp.Subquery, exp.Select, exp.Placeholder, exp.Parameter, exp.Star)):
        return None
    if isinstance(node, exp.GenerateSeries):
        return _series_count(node)
    if isinstance(node, exp.Repeat):
        base, times = static_size(node.this), _int_literal(node.args.get("times"))
        return None if base is None or times is None else base * max(times, 0)
    if isinstance(node, exp.Pad):
        return _int_literal(node.args.get("expression"))
    if isinstance(node, exp.Array) and node.expressions and isinstance(node.expressions[0], exp.Comprehension):
        comp = node.expressions[0]
        count, body = static_size(comp.args.get("iterator")), _body_size(comp.this)
        return None if count is None or body is None else count * max(body, 1)
    if isinstance(node, exp.Replace):
        base = static_size(node.this)
        to = static_size(node.args.get("replacement"))
        return None if base is None or to is None else max(base, base * to)
    if isinstance(node, exp.RegexpReplace):
        base = static_size(node.this)
        rep = static_size(node.args.get("replacement"))
        if base is None or rep is None:
            return None
        refs = len(_BACKREF.findall(_str_literal(node.args.get("replacement")) or ""))
        return base + (base + 1) * (rep + refs * base)
    name = _name(node) if isinstance(node, exp.Func) else ""
    if name in _SIZED_ANONYMOUS and isinstance(node, exp.Anonymous):
        return (
            _int_literal(node.expressions[_SIZED_ANONYMOUS[name]])
            if len(node.expressions) > _SIZED_ANONYMOUS[name]
            else None
        )
    if name in _LAMBDA_MAPS:
        args = [v for v in node.args.values() if isinstance(v, exp.Expression) and not isinstance(v, exp.Lambda)]
        count = static_size(args[0]) if args else None
        body = _body_size(_lambda_body(node))
        return None if count is None or body is None else count * max(body, 1)
    # anything else: at most the sum of its arguments (concatenation and most functions)
    total = 0
    for child in node.iter_expressions():
        if isinstance(child, exp.Lambda):
            return None
        size = static_size(child)
        if size is None:
            return None
        total += size
    return max(total, 1)


def _body_size(body: exp.Expr | None) -> int | None:
    """Size of a lambda/comprehension body per element; its own variables count as 1."""
    if body is None:
        return None
    scratch = body.copy()
    for col in list(scratch.find_all(exp.Column)):
        if not col.table:
            col.replace(exp.Literal.number(0))
    return static_size(scratch)


def _refuse_size(fn: str, size: int) -> SqlRefused:
    return SqlRefused(
        f"function {fn} would build a value of about {size:,} characters or elements, "
        f"past the memory limit for one value ({MAX_BUILT_VALUE:,})"
    )


def _bounded(fn: str, what: str, node: exp.Expr | None) -> bool:
    """True when the size argument is a literal within the limit; refuse a literal past it;
    False when it is an expression (the caller then checks it while running)."""
    value = _int_literal(node)
    if value is None:
        return False
    if value > MAX_BUILT_VALUE:
        raise SqlRefused(f"function {fn}: {what} {value:,} is too large (at most {MAX_BUILT_VALUE:,})")
    return True


def _no_nested_builder(fn: str, node: exp.Expr | None) -> None:
    if node is not None and any(_is_builder(n) for n in node.walk()):
        raise SqlRefused(
            f"function {fn}: its input cannot itself be built by repeat, lpad/rpad, range or a resize function"
        )


def _check_format(fn: str, fmt: exp.Expr | None, printf_style: bool) -> None:
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
    count = _series_count(node)
    if count is None:
        raise SqlRefused(
            f"function {fn} used as a value builds the whole list at once: give it whole-number "
            f"literals, or use it as a table (SELECT … FROM {fn}(…) t(x))"
        )
    if count > MAX_BUILT_VALUE:
        raise SqlRefused(
            f"function {fn} used as a value would build a list of about {count:,} elements (at most "
            f"{MAX_BUILT_VALUE:,}); use it as a table instead: SELECT … FROM {fn}(…) t(x)"
        )


# -- runtime checks ---------------------------------------------------------------------
def _no_volatile(fn: str, *args: exp.Expr | None) -> None:
    for arg in args:
        if arg is None:
            continue
        for sub in arg.walk():
            if isinstance(sub, (exp.Rand, exp.Uuid)) or (isinstance(sub, exp.Func) and _name(sub) in _VOLATILE):
                raise SqlRefused(
                    f"function {fn}: a size taken from random()/uuid() cannot be checked; "
                    "compute it in a subquery first"
                )


def _length(node: exp.Expr) -> exp.Expr:
    """length(CAST(x AS VARCHAR)): an upper bound on x's size for strings, blobs and lists."""
    return exp.func("length", exp.cast(node.copy(), exp.DataType.build("VARCHAR")))


def _runtime_check(node: exp.Func, fn: str, size: exp.Expr, limit: int, what: str) -> exp.Expr:
    """`CASE WHEN <size> <= limit THEN <node> ELSE error('…') END`, built with sqlglot."""
    message = exp.Literal.string(f"value too large: {fn} would {what} (limit {limit:,}; checked while running)")
    check = exp.LTE(this=exp.paren(size, copy=False), expression=exp.Literal.number(limit))
    placeholder = exp.Null()
    node.replace(placeholder)
    case = exp.Case(ifs=[exp.If(this=check, true=node)], default=exp.func("error", message))
    placeholder.replace(case)
    return case


_MARK = "_cfab_size_check"  # set on the CASE a runtime check builds: its nesting depth
#: size arguments that are bounded by data already held: lengths of existing values
_LENGTHS = frozenset(
    {
        "length",
        "len",
        "char_length",
        "character_length",
        "strlen",
        "octet_length",
        "bit_length",
        "length_grapheme",
        "array_length",
        "cardinality",
        "json_array_length",
    }
)
_ARITHMETIC = (
    exp.Add,
    exp.Sub,
    exp.Mul,
    exp.Div,
    exp.IntDiv,
    exp.Mod,
    exp.Paren,
    exp.Neg,
    exp.Greatest,
    exp.Least,
    exp.Abs,
    exp.Literal,
    exp.Cast,
    exp.TryCast,
    exp.DataType,
    exp.Floor,
    exp.Ceil,
    exp.Round,
)


def _length_derived(node: exp.Expr) -> bool:
    """True when `node` computes a size from literals and lengths of existing values only
    (length(name) + 2, least(len(l), 10)): bounded by the data, so it is checked while
    running rather than refused. A bare column or subquery value is not."""

    def ok(sub: exp.Expr) -> bool:
        if isinstance(sub, exp.Func) and _name(sub) in _LENGTHS:
            return True  # whatever it measures, a length is at most that value's size
        if isinstance(sub, exp.Literal):
            return not sub.is_string
        if isinstance(sub, _ARITHMETIC):
            return all(ok(c) for c in sub.iter_expressions())
        return False

    return ok(node)


def _checked(node: exp.Func, fn: str, size: exp.Expr, limit: int, what: str, *args: exp.Expr | None) -> exp.Expr:
    _no_volatile(fn, *args)
    inner = max(
        (int(sub.args[_MARK]) for sub in node.walk() if isinstance(sub, exp.Case) and sub.args.get(_MARK)), default=0
    )
    if inner + 1 > MAX_CHECK_NESTING:
        raise SqlRefused(
            f"function {fn}: too many data-dependent sizes nested inside each other "
            f"(at most {MAX_CHECK_NESTING}); compute the inner values in a subquery"
        )
    case = _runtime_check(node, fn, size, limit, what)
    case.set(_MARK, inner + 1)
    return case


def check_value_size(node: exp.Func, *, runtime_checks: bool = False) -> exp.Expr | None:
    """Refuse a value-building call whose output size is known to exceed the limits.

    Call it on every function node outside a FROM position (table functions stream rows),
    innermost last is fine: it returns the replacement node when it wrapped `node` in a
    runtime size check (only with `runtime_checks`; otherwise a size that is not a
    literal is refused), else None."""

    def dynamic(fn: str, what: str, size: exp.Expr, *args: exp.Expr | None, limit: int = MAX_BUILT_VALUE) -> exp.Expr:
        given = args[-1]
        if not runtime_checks or given is None or not _length_derived(given):
            raise SqlRefused(
                f"function {fn}: its {what} must be a whole-number literal (at most "
                f"{MAX_BUILT_VALUE:,}) or computed from lengths such as length(x) + 2, "
                "not another value"
            )
        return _checked(node, fn, size, limit, f"build more than {limit:,} characters or elements", *args)

    if isinstance(node, exp.Repeat):
        times: exp.Expr = node.args["times"]  # required: the parser refuses repeat(x) without it
        _no_nested_builder("repeat", node.this)
        count = _int_literal(times) if _bounded("repeat", "count", times) else None
        if count is not None:
            base = static_size(node.this)
            if base is None:
                if count > 1 and runtime_checks:  # the input's length decides
                    return _checked(
                        node,
                        "repeat",
                        exp.Mul(this=_length(node.this), expression=times.copy()),
                        MAX_BUILT_VALUE,
                        f"build more than {MAX_BUILT_VALUE:,} characters",
                        node.this,
                    )
                return None
            if base * count > MAX_BUILT_VALUE:
                raise _refuse_size("repeat", base * count)
            return None
        base = static_size(node.this)
        product = exp.Mul(
            this=exp.Literal.number(base) if base is not None else _length(node.this),
            expression=exp.paren(times.copy(), copy=False),
        )
        return dynamic("repeat", "count", product, node.this, times)
    if isinstance(node, exp.Pad):
        fn = "lpad" if node.args.get("is_left") else "rpad"
        _no_nested_builder(fn, node.args.get("fill_pattern"))
        length: exp.Expr = node.args["expression"]  # required: the parser refuses lpad(x) without it
        if _bounded(fn, "length", length):
            return None
        return dynamic(fn, "length", length.copy(), length)
    if isinstance(node, exp.GenerateSeries):
        _check_series(node)
        return None
    if isinstance(node, exp.Format):
        _check_format("format", node.this, printf_style=False)
        return None
    if isinstance(node, exp.Replace | exp.RegexpReplace):
        size = static_size(node)
        if size is not None and size > MAX_BUILT_VALUE:
            raise _refuse_size("replace" if isinstance(node, exp.Replace) else "regexp_replace", size)
        return None
    if isinstance(node, exp.Array | exp.Unnest):
        if isinstance(node, exp.Unnest) and any(_is_builder(n) for e in node.expressions for n in e.walk()):
            return None  # the builder inside is checked on its own, with its own message
        size = static_size(node.expressions[0] if isinstance(node, exp.Unnest) and node.expressions else node)
        if size is not None and size > MAX_BUILT_VALUE:
            raise _refuse_size("unnest" if isinstance(node, exp.Unnest) else "a list comprehension", size)
        return None
    name = _name(node)
    if name in _LAMBDA_MAPS:
        size = static_size(node)
        if size is not None and size > MAX_BUILT_VALUE:
            raise _refuse_size(name, size)
        return None
    if name in _LAMBDA_FOLDS:
        body = _lambda_body(node)
        lam = next((v for v in node.args.values() if isinstance(v, exp.Lambda)), None)
        if lam is None:
            for v in node.args.values():
                if isinstance(v, list):
                    lam = next((x for x in v if isinstance(x, exp.Lambda)), lam)
        params = [p.name.lower() for p in (lam.expressions if lam is not None else [])]
        if body is not None and params:
            uses = sum(
                1
                for c in body.find_all(exp.Column, exp.Identifier)
                if (
                    isinstance(c, exp.Identifier)
                    and not isinstance(c.parent, exp.Column)
                    or isinstance(c, exp.Column)
                    and not c.table
                )
                and c.name.lower() == params[0]
            )
            grows = any(
                _is_builder(n) or isinstance(n, (exp.DPipe, exp.Concat, exp.Replace, exp.RegexpReplace))
                for n in body.walk()
            )
            if uses > 1 and grows:
                raise SqlRefused(
                    f"function {name}: the accumulator {params[0]} is used more than once in a "
                    "growing expression, so the value could double at every step"
                )
        return None
    if name in _QUADRATIC:
        args = [a for a in node.iter_expressions()][:2]
        if len(args) == 2:
            sizes = [static_size(a) for a in args]
            if sizes[0] is not None and sizes[1] is not None:
                if sizes[0] * sizes[1] > MAX_QUADRATIC_WORK:
                    raise SqlRefused(
                        f"function {name}: comparing {sizes[0]:,} by {sizes[1]:,} characters is "
                        f"too much work (at most {MAX_QUADRATIC_WORK:,} character pairs)"
                    )
                return None
            if not runtime_checks:
                return None
            work = exp.Mul(this=_length(args[0]), expression=_length(args[1]))
            return _checked(
                node, name, work, MAX_QUADRATIC_WORK, f"compare more than {MAX_QUADRATIC_WORK:,} character pairs", *args
            )
        return None
    if isinstance(node, exp.Anonymous):
        low = node.name.lower()
        args = node.expressions
        if low in ("printf", "sprintf"):
            _check_format(low, args[0] if args else None, printf_style=True)
        elif low in _SIZED_ANONYMOUS and len(args) > _SIZED_ANONYMOUS[low]:
            size_arg = args[_SIZED_ANONYMOUS[low]]
            _no_nested_builder(low, args[0])
            if not _bounded(low, "size", size_arg):
                return dynamic(low, "size", size_arg.copy(), size_arg)
    return None
