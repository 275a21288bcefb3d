"""Size limits on a tool call's arguments, checked before anything runs.

A call's arguments are measured as their canonical JSON (what the tool and guard logs store:
sorted keys, no spaces) without building it: the walk is iterative, stops as soon as the size
passes :data:`MAX_ARGS_CHARS` or the nesting passes :data:`MAX_ARGS_DEPTH`, and so costs no
more than the limit whatever it is given. A call over a limit is refused, and still logged:
:func:`truncated` keeps the arguments' shape with long strings, long lists and deep levels cut
(at most :data:`PREVIEW_CHARS` in all) and adds ``"_truncated": {"chars", "sha256", "limit"}``,
the size and SHA-256 of the full canonical JSON (streamed, never held whole).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from typing import Any

from pydantic import BaseModel

from cfab.apps.tooling import jsonable

__all__ = [
    "MAX_ARGS_CHARS",
    "MAX_ARGS_DEPTH",
    "TRUNCATED_KEY",
    "Oversize",
    "canonical_chunks",
    "check_arguments",
    "truncated",
]

#: the largest legitimate call is an upload: 5 MB of bytes are ~7 MB of base64
MAX_ARGS_CHARS = 8 * 1024 * 1024
MAX_ARGS_DEPTH = 32
PREVIEW_CHARS = 16_384
TRUNCATED_KEY = "_truncated"
_STRING_PREVIEW = 512
_ITEMS_PREVIEW = 50
_SLICE = 1 << 20


class Oversize(Exception):
    """The arguments pass a limit; ``reason`` says which, ``chars`` how far the walk got."""

    def __init__(self, reason: str, chars: int) -> None:
        super().__init__(reason)
        self.reason = reason
        self.chars = chars


def _children(value: Any) -> tuple[str, list[Any]] | None:
    """A container's canonical form: ("map", sorted (key, value) pairs) or ("seq", items); None
    for a scalar."""
    if isinstance(value, BaseModel):
        value = value.model_dump(mode="json")
    if isinstance(value, dict):
        return "map", sorted(((str(k), v) for k, v in value.items()), key=lambda kv: kv[0])
    if isinstance(value, (list, tuple, set, frozenset)):
        return "seq", list(value)
    return None


def _scalar(value: Any) -> str:
    return json.dumps(jsonable(value), sort_keys=True, separators=(",", ":"))


def canonical_chunks(value: Any, *, max_depth: int | None = None) -> Iterator[str]:
    """The canonical JSON of ``value`` (``json.dumps(jsonable(value), sort_keys=True,
    separators=(",", ":"))``) in pieces, produced without recursion; long strings are encoded a
    slice at a time. Raises :class:`Oversize` past ``max_depth``."""
    stack: list[tuple[bool, Any, int]] = [(False, value, 0)]  # (is literal text, item, depth)
    while stack:
        literal, item, depth = stack.pop()
        if literal:
            yield item
            continue
        node = _children(item)
        if node is None:
            if isinstance(item, str) and len(item) > _SLICE:
                yield '"'
                for i in range(0, len(item), _SLICE):
                    yield json.dumps(item[i : i + _SLICE])[1:-1]
                yield '"'
            else:
                yield _scalar(item)
            continue
        if max_depth is not None and depth >= max_depth:
            raise Oversize(f"the arguments nest deeper than {max_depth} levels", 0)
        kind, kids = node
        stack.append((True, "}" if kind == "map" else "]", depth))
        for i in range(len(kids) - 1, -1, -1):
            if kind == "map":
                key, val = kids[i]
                stack.append((False, val, depth + 1))
                stack.append((True, ("," if i else "") + json.dumps(key) + ":", depth))
            else:
                stack.append((False, kids[i], depth + 1))
                if i:
                    stack.append((True, ",", depth))
        yield "{" if kind == "map" else "["


def check_arguments(args: Any, *, max_chars: int = MAX_ARGS_CHARS, max_depth: int = MAX_ARGS_DEPTH) -> int:
    """The canonical JSON size of ``args``; :class:`Oversize` as soon as it passes ``max_chars``
    or the nesting passes ``max_depth`` (no string longer than the limit is ever encoded)."""
    size = 0
    stack: list[Any] = [(args, 0)]
    while stack:  # a cheap lower bound first: raw string lengths, stopping at the limit
        item, depth = stack.pop()
        node = _children(item)
        if node is None:
            size += len(item) + 2 if isinstance(item, str) else 1
        else:
            if depth >= max_depth:
                raise Oversize(f"the arguments nest deeper than {max_depth} levels", size)
            kind, kids = node
            size += 1 + max(1, len(kids))
            for kid in kids:
                if kind == "map":
                    size += len(kid[0]) + 3
                    stack.append((kid[1], depth + 1))
                else:
                    stack.append((kid, depth + 1))
        if size > max_chars:
            raise Oversize(f"the arguments are larger than the {max_chars:,}-character limit", size)
    exact = 0
    for chunk in canonical_chunks(args, max_depth=max_depth):  # exact (escapes count); under ~the limit
        exact += len(chunk)
        if exact > max_chars:
            raise Oversize(f"the arguments are larger than the {max_chars:,}-character limit", exact)
    return exact


def digest(args: Any) -> tuple[int, str]:
    """(characters, SHA-256 hex) of the canonical JSON of ``args``, streamed: one slice of a long
    string at a time, no recursion however deep."""
    h = hashlib.sha256()
    n = 0
    for chunk in canonical_chunks(args):
        n += len(chunk)
        h.update(chunk.encode("utf-8", "surrogatepass"))
    return n, h.hexdigest()


def truncated(args: dict[str, Any], reason: str) -> dict[str, Any]:
    """``args`` cut to a preview of at most about :data:`PREVIEW_CHARS` characters, keeping its
    shape, plus ``_truncated``: the full arguments' size, SHA-256, and why they were refused."""
    budget = [PREVIEW_CHARS]

    def cut(value: Any, depth: int) -> Any:
        if budget[0] <= 0:
            return "..."
        node = _children(value)
        if node is None:
            if isinstance(value, str):
                if len(value) > _STRING_PREVIEW:
                    budget[0] -= _STRING_PREVIEW
                    return value[:_STRING_PREVIEW] + f"...(+{len(value) - _STRING_PREVIEW:,} characters)"
                budget[0] -= len(value)
                return value
            budget[0] -= 8
            return jsonable(value)
        if depth >= 8:
            budget[0] -= 16
            return f"...(nested {type(value).__name__})"
        kind, kids = node
        if kind == "map":
            out = {}
            for i, (key, val) in enumerate(kids):
                if i >= _ITEMS_PREVIEW or budget[0] <= 0:
                    out["..."] = f"(+{len(kids) - i:,} more keys)"
                    break
                budget[0] -= min(len(key), _STRING_PREVIEW)
                out[key[:_STRING_PREVIEW]] = cut(val, depth + 1)
            return out
        items = []
        for i, val in enumerate(kids):
            if i >= _ITEMS_PREVIEW or budget[0] <= 0:
                items.append(f"...(+{len(kids) - i:,} more items)")
                break
            items.append(cut(val, depth + 1))
        return items

    chars, sha = digest(args)
    out = cut(args, 0)
    if not isinstance(out, dict):
        out = {"arguments": out}
    out[TRUNCATED_KEY] = {"chars": chars, "sha256": sha, "reason": reason}
    return out
