"""The cfab namespace maps the fixed top-level folders; every package folder is listed."""

from __future__ import annotations

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TOP = ("schema", "seeds", "apps", "views", "triggers", "tasks", "grader", "runner")


def _pyproject() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text())


def test_every_package_folder_is_listed() -> None:
    listed = set(_pyproject()["tool"]["setuptools"]["packages"])
    found = set()
    for top in TOP:
        for init in (ROOT / top).rglob("__init__.py"):
            rel = init.parent.relative_to(ROOT / top)
            found.add(".".join(["cfab", top, *rel.parts]))
    assert found - listed == set(), f"package folders missing from pyproject packages: {sorted(found - listed)}"
    assert listed - found == set(), f"pyproject lists packages that don't exist: {sorted(listed - found)}"


def test_package_dirs_map_top_level_folders() -> None:
    dirs = _pyproject()["tool"]["setuptools"]["package-dir"]
    assert dirs == {f"cfab.{t}": t for t in TOP}


def test_console_script() -> None:
    assert _pyproject()["project"]["scripts"] == {"runner": "cfab.runner.cli:main"}


def test_data_files_are_packaged() -> None:
    data = _pyproject()["tool"]["setuptools"]["package-data"]
    patterns = {pkg: set(globs) for pkg, globs in data.items()}
    for folder, pkg, pattern in (
        ("views/entities", "cfab.views", "entities/*.sql"),
        ("triggers/rules", "cfab.triggers", "rules/*.toml"),
        ("tasks/suites", "cfab.tasks", "suites/*.jsonl"),
        ("tasks/sql", "cfab.tasks", "sql/*.sql"),
    ):
        if (ROOT / folder).exists():
            assert pattern in patterns.get(pkg, set()), f"{folder} files are not in package-data"


def test_every_top_level_package_exports_its_public_names() -> None:
    import importlib

    for top in TOP:
        module = importlib.import_module(f"cfab.{top}")
        names = getattr(module, "__all__", None)
        assert names, f"cfab.{top}/__init__.py has no __all__"
        missing = [n for n in names if getattr(module, n, None) is None]
        assert not missing, f"cfab.{top}.__all__ names that do not resolve: {missing}"


def test_the_wheel_ships_no_held_out_suite(tmp_path: Path) -> None:
    """Build the wheel from a copy of the tracked tree with a held-out suite compiled into
    ``tasks/suites/`` (where a careless operator might put it): the wheel carries the published
    suite and no held-out file, and the package never reads one (issue 18, item 4)."""
    import shutil
    import subprocess
    import sys
    import zipfile

    from cfab.tasks.suite import UNSHIPPED, packaged_suite_text

    src = tmp_path / "src"
    tracked = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True).stdout
    for rel in filter(None, tracked.decode().split("\0")):
        if (ROOT / rel).is_file():
            (src / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / rel, src / rel)
    for name in UNSHIPPED:
        (src / "tasks" / "suites" / f"{name}.jsonl").write_text('{"cfab-suite": 1}\n', encoding="utf-8")
    out = tmp_path / "dist"
    built = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(out), str(src)],
        capture_output=True,
        text=True,
    )
    assert built.returncode == 0, built.stderr[-2000:]
    (wheel,) = out.glob("cfagentbench-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    assert "cfab/tasks/suites/executable.jsonl" in names
    shipped = [n for n in names if n.startswith("cfab/tasks/suites/")]
    assert not [n for n in shipped if "held_out" in n], shipped
    assert all(packaged_suite_text(name) is None for name in UNSHIPPED)
