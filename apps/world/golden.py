"""The golden file: the book projected into every app schema, built once per inputs.

It lives in a user cache directory (``$CFAB_HOME``, else ``$XDG_CACHE_HOME/cfab``, else
``~/.cache/cfab``) under a name keyed by (seed, clock, scale) and a fingerprint of the code
that shapes it (DDL, generator, views, apps), so a code change or a new package version
rebuilds it. It is written to a temporary name, checkpointed, renamed atomically and made
read-only; attempts only ever copy it.
"""

from __future__ import annotations

import ast
import fcntl
import functools
import hashlib
import json
import os
import time
from dataclasses import dataclass
from importlib import metadata, resources
from pathlib import Path

import duckdb
import sqlglot
from sqlglot import exp

from cfab.apps.world.seeding import seed_apps
from cfab.schema.catalog import content_digest, run_script, schema_ddl
from cfab.seeds.determinism import BuildInputs
from cfab.seeds.parallel import build_workers

BLOCK_SIZE = 16384
SHAPING_PACKAGES = ("cfab.schema", "cfab.seeds", "cfab.views", "cfab.apps")


def cfab_home() -> Path:
    env = os.environ.get("CFAB_HOME")
    if env:
        return Path(env).expanduser()
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "cfab"


def package_version() -> str:
    try:
        return metadata.version("cfagentbench")
    except metadata.PackageNotFoundError:
        return "0+unknown"


@functools.cache
def code_fingerprint(packages: tuple[str, ...] = SHAPING_PACKAGES) -> str:
    """sha256 over the package version and every file of ``packages`` (default: those that
    shape the book — DDL, generator, views, apps). Python files count by their code, not their
    bytes (:func:`code_text`: docstrings, comments and layout do not shape a book or a task).
    Hashing reads every file (~0.5 s), and the code does not change under a running process,
    so it is computed once per process."""
    memo = _CodeDigests()
    h = hashlib.sha256(package_version().encode())
    h.update(duckdb.__version__.encode())
    for package in packages:
        stack = [resources.files(package)]
        files = []
        while stack:
            node = stack.pop()
            for child in node.iterdir():
                if child.is_dir():
                    if child.name != "__pycache__":
                        stack.append(child)
                elif child.name.endswith((".py", ".sql", ".toml", ".json", ".md", ".txt")):
                    files.append(child)
        for f in sorted(files, key=lambda p: str(p)):
            h.update(str(f).rsplit(package.split(".")[-1], 1)[-1].encode())
            data = f.read_bytes()
            h.update(memo.code_digest(data).encode() if f.name.endswith(".py") else data)
    memo.save()
    return h.hexdigest()


class _CodeDigests:
    """sha256 of a file's bytes → sha256 of its :func:`code_text`, kept in ``$CFAB_HOME`` so a
    process parses only the files that changed since the last one (parsing them all takes ~2 s)."""

    def __init__(self) -> None:
        self.path = cfab_home() / "code-digests.json"
        try:
            self.known: dict[str, str] = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            self.known = {}
        self.changed = False
        self.used: set[str] = set()

    def code_digest(self, data: bytes) -> str:
        key = hashlib.sha256(data).hexdigest()
        self.used.add(key)
        if key not in self.known:
            self.known[key] = hashlib.sha256(code_text(data).encode()).hexdigest()
            self.changed = True
        return self.known[key]

    def save(self) -> None:
        if not self.changed:
            return
        if len(self.known) > 8192:  # old versions pile up over months of edits: keep what is in use
            self.known = {k: v for k, v in self.known.items() if k in self.used}
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            tmp = self.path.with_name(f"{self.path.name}.{os.getpid()}.tmp")
            tmp.write_text(json.dumps(self.known, sort_keys=True), encoding="utf-8")
            tmp.replace(self.path)
        except OSError:
            pass  # a read-only home only costs the next process the parse


def code_text(source: bytes) -> str:
    """A Python file's code without its docstrings, comments or layout (``ast.unparse`` of the
    tree with every module, class and function docstring removed), so that editing a docstring
    or reformatting a file leaves the fingerprint as it was."""
    tree = ast.parse(source)
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            if (
                body
                and isinstance(body[0], ast.Expr)
                and isinstance(body[0].value, ast.Constant)
                and isinstance(body[0].value.value, str)
            ):
                node.body = body[1:] or [ast.Pass()]
    return ast.unparse(tree)


def golden_path(inputs: BuildInputs, home: Path | None = None, apps: list[str] | None = None) -> Path:
    """Where the golden file for ``inputs`` lives (a build of only ``apps`` gets its own name)."""
    subset = ""
    if apps is not None:
        from cfab.seeds.determinism import stable_id

        subset = f"-only-{stable_id(*sorted(set(apps)), length=10)}"
    return (home or cfab_home()) / f"book-{inputs.key()}-{code_fingerprint()[:12]}{subset}.duckdb"


@dataclass(frozen=True)
class BuildReport:
    path: Path
    digest: str
    size_bytes: int
    seconds: float
    tables: int
    rows: int


def build_golden(inputs: BuildInputs, out: Path, apps: list[str] | None = None) -> BuildReport:
    """Write the golden file for ``inputs`` to ``out`` (atomically) and return its digest."""
    from cfab.apps.registry import load_all, shipped_apps
    from cfab.seeds import build_book

    started = time.perf_counter()
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_name(f".{out.name}.tmp-{os.getpid()}")
    for stale in (tmp, tmp.with_name(tmp.name + ".wal")):
        stale.unlink(missing_ok=True)
    registry = load_all()
    chosen = shipped_apps() if apps is None else apps
    con = duckdb.connect()
    try:
        con.execute(f"ATTACH '{_sql_path(tmp)}' AS golden (BLOCK_SIZE {BLOCK_SIZE})")
        con.execute("USE golden")
        run_script(con, schema_ddl("cfab_internal"))
        meta = {
            "seed": str(inputs.seed),
            "clock": inputs.clock.isoformat(),
            "scale": str(inputs.scale),
            "package_version": package_version(),
            "code_fingerprint": code_fingerprint(),
            "apps": ",".join(chosen),
        }
        con.executemany("INSERT INTO cfab_internal.meta VALUES (?, ?)", sorted(meta.items()))
        build_book(con, inputs)
        seed_apps(con, [registry[name] for name in chosen], inputs)
        con.execute("CHECKPOINT golden")
        con.execute("USE memory")
        con.execute("DETACH golden")
    except BaseException:
        con.close()
        tmp.unlink(missing_ok=True)
        raise
    con.close()
    ro = duckdb.connect(str(tmp), read_only=True)
    try:
        digest = content_digest(ro, workers=build_workers())
        counts = ro.execute(
            "SELECT count(*), coalesce(sum(estimated_size), 0) FROM duckdb_tables() "
            "WHERE database_name = current_database()"
        ).fetchone()
        assert counts is not None  # an aggregate without GROUP BY returns exactly one row
        tables, rows = counts
    finally:
        ro.close()
    os.replace(tmp, out)
    os.chmod(out, 0o444)
    out.with_name(out.name + ".digest").write_text(digest + "\n")
    return BuildReport(out, digest, out.stat().st_size, time.perf_counter() - started, int(tables), int(rows))


def ensure_golden(inputs: BuildInputs | None = None, home: Path | None = None, apps: list[str] | None = None) -> Path:
    """The golden file for ``inputs``, building it first if needed (safe across processes).

    ``apps`` builds a golden file holding only those apps (tests use it to stay fast)."""
    inputs = inputs or BuildInputs.from_env()
    path = golden_path(inputs, home, apps)
    marker = path.with_name(path.name + ".digest")
    if path.exists() and marker.exists():
        return path
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path.with_name(path.name + ".lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (path.exists() and marker.exists()):
            if path.exists():
                os.chmod(path, 0o644)
                path.unlink()
            build_golden(inputs, path, apps=sorted(set(apps)) if apps is not None else None)
    return path


def ensure_composed(golden: Path, apps: list[str]) -> Path:
    """The golden file cut down to ``apps``: their schemas, cfab_internal, and the book.

    An attempt only ever touches its composed apps, and DuckDB's open cost follows the number
    of tables (and indexes) in the file, so attempts copy this smaller template instead of the
    whole golden file. It is derived from the golden file (same rows, same DDL) and cached next
    to it. The book comes along as plain tables without keys (read-only reference data for the
    harness; agents cannot reach it), which keeps it cheap to open.
    """
    from cfab.apps.registry import get_app
    from cfab.seeds.determinism import stable_id

    golden = Path(golden)
    names = sorted(set(apps))
    path = golden.with_name(f"{golden.stem}.apps-{stable_id(*names, length=10)}.duckdb")
    marker = path.with_name(path.name + ".ok")
    if path.exists() and marker.exists():
        return path
    with open(path.with_name(path.name + ".lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if path.exists() and marker.exists():
            return path
        tmp = path.with_name(f".{path.name}.tmp-{os.getpid()}")
        tmp.unlink(missing_ok=True)
        con = duckdb.connect()
        try:
            con.execute(f"ATTACH '{_sql_path(golden)}' AS g (READ_ONLY)")
            con.execute(f"ATTACH '{_sql_path(tmp)}' AS c (BLOCK_SIZE {BLOCK_SIZE})")
            con.execute("USE c")
            run_script(con, schema_ddl("cfab_internal"))
            con.execute("INSERT INTO cfab_internal.meta SELECT * FROM g.cfab_internal.meta WHERE key <> 'apps'")
            con.execute("INSERT INTO cfab_internal.meta VALUES ('apps', ?)", [",".join(names)])
            con.execute("CREATE SCHEMA book")
            for (table,) in con.execute(
                "SELECT table_name FROM duckdb_tables() WHERE database_name = 'g' "
                "AND schema_name = 'book' ORDER BY table_name"
            ).fetchall():
                source = exp.table_(
                    exp.to_identifier(table, quoted=True), db=exp.to_identifier("book"), catalog=exp.to_identifier("g")
                )
                target = exp.table_(exp.to_identifier(table, quoted=True), db=exp.to_identifier("book"))
                con.execute(
                    exp.Create(this=target, kind="TABLE", expression=exp.select("*").from_(source)).sql(
                        dialect="duckdb"
                    )
                )
            for macro in _book_macros():
                con.execute(macro)
            for name in names:
                schema = get_app(name).schema_name()
                run_script(con, get_app(name).schema_sql())
                tables = con.execute(
                    "SELECT table_name FROM duckdb_tables() WHERE database_name = 'c' AND schema_name = ? "
                    "ORDER BY table_name",
                    [schema],
                ).fetchall()
                for (table,) in tables:
                    source = exp.table_(
                        exp.to_identifier(table, quoted=True),
                        db=exp.to_identifier(schema, quoted=True),
                        catalog=exp.to_identifier("g"),
                    )
                    target = exp.table_(
                        exp.to_identifier(table, quoted=True),
                        db=exp.to_identifier(schema, quoted=True),
                        catalog=exp.to_identifier("c"),
                    )
                    con.execute(exp.insert(exp.select("*").from_(source), target).sql(dialect="duckdb"))
            con.execute("CHECKPOINT c")
            con.execute("USE memory")
            con.execute("DETACH c")
            con.execute("DETACH g")
        except BaseException:
            con.close()
            tmp.unlink(missing_ok=True)
            raise
        con.close()
        os.replace(tmp, path)
        os.chmod(path, 0o444)
        marker.write_text("ok\n")
    return path


@functools.cache
def _book_macros() -> tuple[str, ...]:
    """The book DDL's CREATE MACRO statements (parsed once per process)."""
    return tuple(
        statement.sql(dialect="duckdb")
        for statement in sqlglot.parse(schema_ddl("book"), read="duckdb")
        if isinstance(statement, exp.Create) and statement.args.get("kind") == "MACRO"
    )


def golden_digest(path: Path) -> str:
    """The content digest recorded at build (recomputed when the sidecar is missing)."""
    marker = Path(path).with_name(Path(path).name + ".digest")
    if marker.exists():
        return marker.read_text().strip()
    con = duckdb.connect(str(path), read_only=True)
    try:
        return content_digest(con)
    finally:
        con.close()


def _sql_path(path: Path) -> str:
    return str(path).replace("'", "''")
