"""cfab.schema: the DDL of every schema in the book file, catalog introspection, the
canonical content digest, and the pydantic bases used at every edge."""

from cfab.schema.catalog import (
    HIDDEN_SCHEMAS,
    SYSTEM_SCHEMAS,
    Catalog,
    TableInfo,
    content_digest,
    has_sql_resource,
    run_script,
    schema_ddl,
    sql_resource,
    table_fingerprint,
)
from cfab.schema.models import CfabModel, FrozenModel

__all__ = [
    "HIDDEN_SCHEMAS",
    "SYSTEM_SCHEMAS",
    "Catalog",
    "CfabModel",
    "FrozenModel",
    "TableInfo",
    "content_digest",
    "has_sql_resource",
    "run_script",
    "schema_ddl",
    "sql_resource",
    "table_fingerprint",
]
