"""The book subcommands: build, digest, sql, check."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from cfab.runner.cli.options import add_inputs, book_path, inputs_from
from cfab.runner.cli.registry import subcommand


@subcommand("build", "build the golden book file and print its path and digest")
def _build(parser: argparse.ArgumentParser):
    add_inputs(parser)
    parser.add_argument("--out", default=None, help="write here instead of the cache ($CFAB_HOME)")

    def run(args: argparse.Namespace) -> int:
        from cfab.apps.world.golden import build_golden, golden_path

        inputs = inputs_from(args)
        out = Path(args.out) if args.out else golden_path(inputs)
        if out.exists():
            out.chmod(0o644)
            out.unlink()
        report = build_golden(inputs, out)
        print(f"path {report.path}")
        print(f"inputs seed={inputs.seed} clock={inputs.clock.isoformat()} scale={inputs.scale}")
        print(
            f"size {report.size_bytes} bytes ({report.size_bytes / 1e6:.1f} MB), "
            f"{report.tables} tables, {report.rows} rows, built in {report.seconds:.1f} s"
        )
        print(f"digest {report.digest}")
        return 0

    return run


@subcommand("digest", "print the canonical content digest of a book file")
def _digest(parser: argparse.ArgumentParser):
    parser.add_argument("path", help="a book file (golden or an attempt's state)")

    def run(args: argparse.Namespace) -> int:
        import duckdb

        from cfab.schema.catalog import content_digest

        path = Path(args.path)
        if not path.exists():
            print(f"runner digest: no such file: {path}", file=sys.stderr)
            return 2
        con = duckdb.connect(str(path), read_only=True)
        try:
            print(f"digest {content_digest(con)}")
        finally:
            con.close()
        return 0

    return run


@subcommand("sql", "run one read-only query against the golden book and print a table")
def _sql(parser: argparse.ArgumentParser):
    add_inputs(parser)
    parser.add_argument("query", help='one SELECT, e.g. "SELECT * FROM procore.commitments LIMIT 5"')
    parser.add_argument("--db", default=None, help="query this book file instead of the golden one")
    parser.add_argument("--max-rows", type=int, default=50)

    def run(args: argparse.Namespace) -> int:
        import duckdb
        from rich.console import Console
        from rich.table import Table

        from cfab.apps.tooling import jsonable

        con = duckdb.connect(str(book_path(args)), read_only=True)
        try:
            cur = con.execute(args.query)
        except duckdb.Error as exc:
            print(f"runner sql: {str(exc).splitlines()[0]}", file=sys.stderr)
            return 2
        if cur.description is None:
            print("ok")
            return 0
        rows = cur.fetchmany(args.max_rows + 1)
        table = Table(*[d[0] for d in cur.description], show_lines=False)
        for row in rows[: args.max_rows]:
            table.add_row(*["NULL" if v is None else str(jsonable(v)) for v in row])
        console = Console(width=200)
        console.print(table)
        if len(rows) > args.max_rows:
            console.print(f"… more rows (showing {args.max_rows}; use --max-rows)")
        con.close()
        return 0

    return run


@subcommand("check", "check that every pair of apps agrees except for registered divergences")
def _check(parser: argparse.ArgumentParser):
    add_inputs(parser)
    parser.add_argument("--db", default=None, help="check this book file instead of the golden one")

    def run(args: argparse.Namespace) -> int:
        import duckdb

        from cfab.views.consistency import check_consistency

        con = duckdb.connect(str(book_path(args)), read_only=True)
        try:
            report = check_consistency(con)
        finally:
            con.close()
        print(report.summary())
        return 0 if report.ok else 1

    return run
