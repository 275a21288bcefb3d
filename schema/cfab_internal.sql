-- cfab_internal: environment bookkeeping, never reachable by agent SQL.
-- Lives in the same file as the apps so that a snapshot (file copy) covers it.

CREATE SCHEMA IF NOT EXISTS cfab_internal;

CREATE TABLE cfab_internal.meta (                 -- build inputs and provenance
    key             VARCHAR PRIMARY KEY,          -- seed|clock|scale|book_version|built_by
    value           VARCHAR NOT NULL
);

CREATE TABLE cfab_internal.guard_log (            -- every guarded (money-moving) invocation
    seq             INTEGER PRIMARY KEY,
    app             VARCHAR NOT NULL,
    tool            VARCHAR NOT NULL,             -- full tool name, or 'sql.execute'
    args            JSON NOT NULL,
    executed        BOOLEAN NOT NULL,             -- always false: guarded calls are staged
    valid           BOOLEAN NOT NULL,             -- arguments validated
    reason          VARCHAR NOT NULL,             -- why it was guarded / why invalid
    logged_at       TIMESTAMP NOT NULL            -- the injected clock
);

CREATE TABLE cfab_internal.tool_log (             -- every tool call with its arguments and result
    seq             INTEGER PRIMARY KEY,
    tool            VARCHAR NOT NULL,
    args            JSON NOT NULL,
    ok              BOOLEAN NOT NULL,
    guarded         BOOLEAN NOT NULL,
    error           VARCHAR,
    result          JSON,
    logged_at       TIMESTAMP NOT NULL
);

CREATE TABLE cfab_internal.written_rows (         -- every app row the write gate has written
    table_name      VARCHAR NOT NULL,             -- qualified 'app.table'
    pk_key          VARCHAR NOT NULL,             -- JSON array of the PK values as strings: ["SC-1042-0","3"]
    first_seq       INTEGER NOT NULL,             -- tool_log seq of the first write
    PRIMARY KEY (table_name, pk_key)
);
