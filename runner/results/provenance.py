"""Where a result came from: the block every ``run.json``, ``summary.json`` and ``report.md`` carries.

A number is only comparable with another when both say which suite (its fingerprint), which
world (the golden file's content digest, seed, clock, scale), which code (package version and
git commit when the source is a checkout), which transport and, for model runs, which
endpoint host, model and sampling settings produced it. Nothing secret goes in: the API key
never, the endpoint only as its host name.
"""

from __future__ import annotations

import functools
import subprocess
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

from cfab.apps.world.golden import package_version
from cfab.seeds.determinism import BuildInputs


def golden_digest(golden: Path) -> str | None:
    """The canonical content digest recorded beside a golden file when it was built."""
    sidecar = golden.with_name(golden.name + ".digest")
    try:
        return sidecar.read_text(encoding="utf-8").strip() or None
    except OSError:
        return None


@functools.lru_cache(maxsize=1)
def git_commit() -> dict[str, Any] | None:
    """``{"commit", "dirty"}`` of the source checkout the code runs from, or None (an installed wheel)."""
    here = Path(__file__).resolve().parents[1]  # the runner/ folder
    try:
        top = subprocess.run(
            ["git", "-C", str(here), "rev-parse", "--show-toplevel"],
            capture_output=True,
            text=True,
            timeout=5,
            check=True,
        ).stdout.strip()
        if not top or (Path(top) / "runner").resolve() != here:
            return None  # some other repository encloses an installed copy
        commit = subprocess.run(
            ["git", "-C", top, "rev-parse", "HEAD"], capture_output=True, text=True, timeout=5, check=True
        ).stdout.strip()
        status = subprocess.run(
            ["git", "-C", top, "status", "--porcelain", "--untracked-files=no"],
            capture_output=True,
            text=True,
            timeout=5,
            check=True,
        ).stdout
    except (OSError, subprocess.SubprocessError):
        return None
    return {"commit": commit, "dirty": bool(status.strip())}


def suite_fingerprint(suite: str, inputs: BuildInputs) -> str:
    """The fingerprint of the code a suite was compiled by (the one its header carries when the
    packaged file is current; the compile cache's key otherwise)."""
    from cfab.tasks.suite import suite_code_fingerprint

    return f"{suite}:{suite_code_fingerprint()}:{inputs.key()}"


def provenance(
    *,
    suite: str,
    inputs: BuildInputs,
    golden: Path,
    transport: str,
    policy: str,
    policy_options: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """The provenance block of one run."""
    out: dict[str, Any] = {
        "suite": suite,
        "suite_fingerprint": suite_fingerprint(suite, inputs),
        "golden_digest": golden_digest(golden),
        "seed": inputs.seed,
        "clock": inputs.clock.isoformat(),
        "scale": inputs.scale,
        "package_version": package_version(),
        "transport": transport,
        "policy": policy,
    }
    git = git_commit()
    if git is not None:
        out["git_commit"] = git["commit"] + ("-dirty" if git["dirty"] else "")
    options = policy_options or {}
    if policy == "llm":
        from cfab.runner.policies.llm import LLMConfig

        defaults = LLMConfig.model_fields
        base_url = options.get("base_url") or defaults["base_url"].default
        host = urlparse(str(base_url)).hostname if base_url else "api.openai.com"  # the client's default
        out["llm"] = {
            "model": options.get("model"),
            "base_url_host": host,
            "temperature": options.get("temperature", defaults["temperature"].default),
            "max_steps": options.get("max_steps", defaults["max_steps"].default),
        }
    return out


__all__ = ["git_commit", "golden_digest", "provenance", "suite_fingerprint"]
