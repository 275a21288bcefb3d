"""Running independent build steps on several connections of one DuckDB database at once.

DuckDB executes statements of different connections concurrently (and releases the GIL while
it does), so a build whose steps touch different tables can keep every core busy even when
one statement alone cannot (ordered inserts into keyed tables, single-partition windows,
Python rendering). A step runs on a cursor of the build connection; it starts only after
every step named in its ``after`` has committed, so each step sees exactly the tables it would
see if the steps ran one by one in their listed order: the content never depends on the
schedule. Among the ready steps the one heading the longest remaining chain of work starts
first.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import duckdb


@dataclass(frozen=True)
class Step:
    name: str
    run: Callable[[duckdb.DuckDBPyConnection], None]
    after: frozenset[str] = field(default_factory=frozenset)
    weight: float = 1.0


def build_workers() -> int:
    """Connections a build uses at once: ``$CFAB_BUILD_WORKERS``, else one per core (at most 4)."""
    env = os.environ.get("CFAB_BUILD_WORKERS")
    if env:
        return max(1, int(env))
    return max(1, min(4, os.cpu_count() or 1))


def _priorities(steps: Sequence[Step]) -> dict[str, float]:
    """Each step's weight plus the heaviest chain of steps waiting on it."""
    waiting: dict[str, list[str]] = {s.name: [] for s in steps}
    for s in steps:
        for dep in s.after:
            waiting[dep].append(s.name)
    weight = {s.name: s.weight for s in steps}
    level: dict[str, float] = {}
    for s in reversed(steps):  # ``after`` only names earlier steps
        level[s.name] = weight[s.name] + max((level[w] for w in waiting[s.name]), default=0.0)
    return level


def run_steps(
    con: duckdb.DuckDBPyConnection,
    steps: Sequence[Step],
    workers: int | None = None,
    setup: Callable[[duckdb.DuckDBPyConnection], None] | None = None,
) -> None:
    """Run ``steps`` (each ``after`` names only earlier steps) on ``workers`` cursors of ``con``
    (default :func:`build_workers`), each first ``USE``-ing ``con``'s current database and
    running ``setup``. With one worker the steps run in order on ``con`` itself. The first
    failure is raised once every worker has stopped."""
    names = [s.name for s in steps]
    for i, s in enumerate(steps):
        unknown = set(s.after) - set(names[:i])
        if unknown:
            raise ValueError(f"step {s.name} waits on steps not listed before it: {sorted(unknown)}")
    workers = min(workers or build_workers(), len(steps))
    if workers <= 1:
        if setup is not None and steps:
            setup(con)
        for s in steps:
            s.run(con)
        return
    row = con.execute("SELECT current_database()").fetchone()
    assert row is not None  # a SELECT without FROM returns one row
    database = row[0]
    level = _priorities(steps)
    order = {n: i for i, n in enumerate(names)}
    pending = list(steps)
    done: set[str] = set()
    errors: list[BaseException] = []
    cond = threading.Condition()

    def take() -> Step | None:
        with cond:
            while True:
                if errors or not pending:
                    return None
                ready = [s for s in pending if s.after <= done]
                if ready:
                    best = max(ready, key=lambda s: (level[s.name], -order[s.name]))
                    pending.remove(best)
                    return best
                cond.wait()

    def work(cursor: duckdb.DuckDBPyConnection) -> None:
        try:
            cursor.execute(f'USE "{database}"')
            if setup is not None:
                setup(cursor)
            while (step := take()) is not None:
                step.run(cursor)
                with cond:
                    done.add(step.name)
                    cond.notify_all()
        except BaseException as exc:  # handed to the caller
            with cond:
                errors.append(exc)
                cond.notify_all()
        finally:
            cursor.close()

    threads = [
        threading.Thread(target=work, args=(con.cursor(),), name=f"build-{i}", daemon=True) for i in range(workers)
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    if errors:
        raise errors[0]
