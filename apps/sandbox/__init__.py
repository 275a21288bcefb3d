"""The agent-SQL sandbox: what `sql.query` and `sql.execute` accept, and how a read runs.

Modules, bottom up (each imports only those above it in this list):

* `functions` — the reviewed allow-list of DuckDB built-ins (data in ``functions.toml``);
* `policy` — the refusal (`SqlRefused`), the schema and table-function rules both layers share;
* `parse` — parse exactly one statement, render a tree back to the SQL that runs;
* `size` — value builders bounded by the sizes they can reach;
* `crosscheck` — DuckDB's own parser re-checks what the sqlglot layer decided;
* `read` — the read guard (`prepare_read`, `check_read`): roots, tree walk, catalog rewrite;
* `write` — the write parser (`parse_write` → `WriteIntent`) for the write gate;
* `memory` — the per-statement memory cap and the data-segment reader;
* `exec` — hardened connections and `run_read`, the guarded, timed, capped read;
* `tool` — `SqlTool`, the `sql` tool every environment carries.
"""
