"""cfab.apps.world: the world model — the apps composed over one DuckDB file.

The Environment that opens an attempt's copy of the golden file and routes tool calls through
the write gate (`Environment`, `Snapshot`), the golden build and its cache (`build_golden`,
`ensure_golden`, `golden_path`, `golden_digest`, `cfab_home`, `code_fingerprint`), app seeding,
the tool-argument size limits and the per-process memory cap. It sits above the apps and below
the grader's callers: `cfab.tasks` and `cfab.runner` import it; nothing here imports them.
"""

from cfab.apps.world.arguments import MAX_ARGS_CHARS, Oversize, check_arguments, truncated
from cfab.apps.world.environment import Environment, Snapshot
from cfab.apps.world.golden import (
    SHAPING_PACKAGES,
    BuildReport,
    build_golden,
    cfab_home,
    code_fingerprint,
    ensure_composed,
    ensure_golden,
    golden_digest,
    golden_path,
    package_version,
)
from cfab.apps.world.limits import DEFAULT_MEMORY_CAP, cap_memory, memory_cap_from_env, parse_size, restore_memory
from cfab.apps.world.seeding import seed_apps

__all__ = [
    "DEFAULT_MEMORY_CAP",
    "MAX_ARGS_CHARS",
    "SHAPING_PACKAGES",
    "BuildReport",
    "Environment",
    "Oversize",
    "Snapshot",
    "build_golden",
    "cap_memory",
    "cfab_home",
    "check_arguments",
    "code_fingerprint",
    "ensure_composed",
    "ensure_golden",
    "golden_digest",
    "golden_path",
    "memory_cap_from_env",
    "package_version",
    "parse_size",
    "restore_memory",
    "seed_apps",
    "truncated",
]
