"""USD cost: the per-model price table and the run-wide cost ceiling.

* :func:`resolve_price` — USD per 1M input/output tokens for a model, from ``prices.toml``
  beside this module or from explicit prices; an unknown model without explicit prices
  is a :class:`PriceError` (never a silent $0).
* :func:`cost_of` — exact ``Decimal`` cost of one call.
* :class:`CostMeter` — spend so far against ``max_cost_usd``, shared by every worker
  process of a run through a small append-only ledger file guarded by ``fcntl.flock``.
  A policy checks :meth:`CostMeter.exhausted` before each LLM call and
  :meth:`CostMeter.add` after it; concurrent workers may overshoot the ceiling by at most
  the calls already in flight.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import threading
import tomllib
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from importlib import resources
from pathlib import Path

MILLION = Decimal(1_000_000)
LEDGER_NAME = "cost_ledger.txt"


class PriceError(ValueError):
    """No price is known for a model and none was given."""


@dataclass(frozen=True)
class Price:
    """USD per 1M tokens."""

    input: Decimal
    output: Decimal


def _dec(value: object, what: str) -> Decimal:
    try:
        d = Decimal(str(value))
    except InvalidOperation as exc:
        raise PriceError(f"{what}: not a number: {value!r}") from exc
    if not d.is_finite() or d < 0:
        raise PriceError(f"{what}: must be a non-negative number, got {value!r}")
    return d


def load_prices(path: str | Path | None = None) -> dict[str, Price]:
    """The price table: ``{model id: Price}`` from ``path`` or the packaged ``prices.toml``."""
    if path is None:
        text = resources.files("cfab.runner").joinpath("prices.toml").read_text("utf-8")
    else:
        text = Path(path).read_text("utf-8")
    table = tomllib.loads(text)
    return {
        model: Price(_dec(row["input"], f"{model}.input"), _dec(row["output"], f"{model}.output"))
        for model, row in table.items()
    }


def _candidates(model: str) -> list[str]:
    base = model.split(":", 1)[0]
    return [model, base, base.rsplit("/", 1)[-1]]


def lookup_price(model: str, table: dict[str, Price] | None = None) -> Price | None:
    """The table's price for ``model`` (exact id, id without ``:provider``, or the part
    after the last ``/``; case-insensitive), or None."""
    table = load_prices() if table is None else table
    folded = {k.lower(): v for k, v in table.items()}
    short = {k.lower().rsplit("/", 1)[-1]: v for k, v in table.items()}
    for cand in _candidates(model):
        hit = folded.get(cand.lower()) or short.get(cand.lower())
        if hit is not None:
            return hit
    return None


def resolve_price(
    model: str, price_in: object = None, price_out: object = None, table: dict[str, Price] | None = None
) -> Price:
    """Explicit prices win (both must be given); otherwise the table; otherwise PriceError."""
    if (price_in is None) != (price_out is None):
        raise PriceError("give both --price-in and --price-out (USD per 1M tokens), or neither")
    if price_in is not None:
        return Price(_dec(price_in, "--price-in"), _dec(price_out, "--price-out"))
    hit = lookup_price(model, table)
    if hit is None:
        raise PriceError(
            f"no price known for model {model!r} (not in cfab/runner/prices.toml); pass "
            "--price-in and --price-out in USD per 1M input/output tokens, e.g. "
            "--price-in 0.27 --price-out 1.00 (use 0 for a free local endpoint)"
        )
    return hit


def cost_of(tokens_in: int, tokens_out: int, price: Price) -> Decimal:
    """Exact USD cost of one call."""
    return (Decimal(tokens_in) * price.input + Decimal(tokens_out) * price.output) / MILLION


class CostMeter:
    """Spend so far against an optional ceiling; process-safe when given a ledger file.

    The ledger is append-only text, one ``+<decimal>;`` line per call; the total is the sum
    of complete lines (a line cut short by a killed process has no ``;`` and is ignored).
    Each process reads only the bytes appended since its last look.
    """

    def __init__(self, max_cost_usd: Decimal | str | float | None = None, ledger: str | Path | None = None) -> None:
        self.ceiling = None if max_cost_usd is None else _dec(max_cost_usd, "max_cost_usd")
        self.ledger = Path(ledger) if ledger is not None else None
        self._total = Decimal(0)
        self._offset = 0
        self._lock = threading.Lock()
        if self.ledger is not None:
            self.ledger.parent.mkdir(parents=True, exist_ok=True)
            self.ledger.touch(exist_ok=True)

    def __getstate__(self) -> dict[str, object]:
        state = dict(self.__dict__)
        del state["_lock"]
        return state

    def __setstate__(self, state: dict[str, object]) -> None:
        self.__dict__.update(state)
        self._lock = threading.Lock()

    def _catch_up(self, fd: int) -> None:
        """Fold complete lines appended since our last read into the total (lock held)."""
        size = os.fstat(fd).st_size
        if size <= self._offset:
            return
        data = os.pread(fd, size - self._offset, self._offset)
        end = data.rfind(b"\n") + 1
        for line in data[:end].splitlines():
            line = line.strip()
            if line.startswith(b"+") and line.endswith(b";"):
                with contextlib.suppress(InvalidOperation, UnicodeDecodeError):
                    self._total += Decimal(line[1:-1].decode("ascii"))
        self._offset += end

    def spent(self) -> Decimal:
        """USD spent so far by every process sharing the ledger."""
        with self._lock:
            if self.ledger is None:
                return self._total
            fd = os.open(self.ledger, os.O_RDONLY)
            try:
                fcntl.flock(fd, fcntl.LOCK_SH)
                self._catch_up(fd)
                return self._total
            finally:
                os.close(fd)

    def remaining(self) -> Decimal | None:
        """USD left under the ceiling (None when there is no ceiling)."""
        return None if self.ceiling is None else self.ceiling - self.spent()

    def exhausted(self) -> bool:
        """True once spend has reached the ceiling: start no new LLM call."""
        return self.ceiling is not None and self.spent() >= self.ceiling

    def add(self, cost: Decimal) -> Decimal:
        """Record one call's cost; returns the new run-wide total."""
        cost = _dec(cost, "cost")
        with self._lock:
            if self.ledger is None:
                self._total += cost
                return self._total
            fd = os.open(self.ledger, os.O_RDWR | os.O_APPEND)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX)
                self._catch_up(fd)
                size = os.fstat(fd).st_size
                prefix = b""
                if size and os.pread(fd, 1, size - 1) != b"\n":
                    prefix = b"\n"  # terminate a fragment left by a killed process
                line = prefix + f"+{cost};\n".encode("ascii")
                os.write(fd, line)
                os.fsync(fd)
                self._offset = size + len(line)
                self._total += cost
                return self._total
            finally:
                os.close(fd)
