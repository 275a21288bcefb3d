"""The import graph points one way (docs/architecture.md).

The top-level folders are layers; a module may import only its own layer and the layers below it,
and no two modules import each other, directly or round a loop. Imports under ``if TYPE_CHECKING:``
are annotations, not dependencies, and are not counted; imports inside functions are.
Nothing imports a private (underscore) name from another package.
"""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FOLDERS = ("schema", "seeds", "views", "triggers", "apps", "grader", "tasks", "runner")

#: layer → the layers it may import (besides itself). ``world`` is the world model in apps/world:
#: the Environment, the golden build, seeding and limits, above every app; the grader is a leaf
#: library (state diff, predicates, grades) that depends only on the schema models, so the world
#: may use it to diff and to type its logs.
ALLOWED: dict[str, set[str]] = {
    "schema": set(),
    "seeds": {"schema"},
    "views": {"schema", "seeds"},
    "triggers": {"schema"},
    "apps": {"schema", "seeds", "views", "triggers"},
    "grader": {"schema"},
    "world": {"schema", "seeds", "views", "triggers", "apps", "grader"},
    "tasks": {"schema", "seeds", "views", "triggers", "apps", "world", "grader"},
    "runner": {"schema", "seeds", "views", "triggers", "apps", "world", "grader", "tasks"},
}


def layer_of(module: str) -> str:
    parts = module.split(".")
    if parts[1:3] == ["apps", "world"]:
        return "world"
    return parts[1]


def module_name(path: Path) -> str:
    rel = path.relative_to(ROOT).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(["cfab", *parts])


def _type_checking_only(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def imports_of(path: Path) -> list[tuple[str, list[str], int]]:
    """(imported module, names, line) for every cfab import of ``path`` outside TYPE_CHECKING blocks."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skip: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and _type_checking_only(node):
            skip.update(id(n) for stmt in node.body for n in ast.walk(stmt))
    me = module_name(path)
    package = me if path.name == "__init__.py" else me.rsplit(".", 1)[0]
    out: list[tuple[str, list[str], int]] = []
    for node in ast.walk(tree):
        if id(node) in skip:
            continue
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            if target.startswith("cfab."):
                out.append((target, [a.name for a in node.names], node.lineno))
        elif isinstance(node, ast.Import):
            out += [(a.name, [], node.lineno) for a in node.names if a.name.startswith("cfab.")]
    return out


@cache
def graph() -> dict[str, dict[str, int]]:
    """module → {imported module: line}; ``from pkg import sub`` counts as importing pkg.sub."""
    files = [p for folder in FOLDERS for p in (ROOT / folder).rglob("*.py")]
    modules = {module_name(p): p for p in files}
    edges: dict[str, dict[str, int]] = {m: {} for m in modules}
    for mod, path in modules.items():
        for target, names, line in imports_of(path):
            subs = [f"{target}.{n}" for n in names if f"{target}.{n}" in modules]
            for t in subs or ([target] if target in modules else []):
                if t != mod:
                    edges[mod].setdefault(t, line)
    return edges


def test_every_folder_is_scanned() -> None:
    mods = graph()
    assert {m.split(".")[1] for m in mods} == set(FOLDERS)
    assert any(layer_of(m) == "world" for m in mods)


def backward_edges(edges: dict[str, dict[str, int]]) -> list[str]:
    bad = []
    for mod, targets in edges.items():
        mine = layer_of(mod)
        for target, line in targets.items():
            theirs = layer_of(target)
            if theirs != mine and theirs not in ALLOWED[mine]:
                bad.append(f"{mod}:{line} ({mine}) imports {target} ({theirs})")
    return sorted(bad)


def find_cycles(edges: dict[str, dict[str, int]]) -> list[list[str]]:
    """Tarjan's strongly connected components (iterative) with more than one module."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    cycles: list[list[str]] = []
    for root in sorted(edges):
        if root in index:
            continue
        work = [(root, iter(sorted(edges[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on.add(root)
        while work:
            v, children = work[-1]
            w = next(children, None)
            if w is not None:
                if w not in index:
                    index[w] = low[w] = len(index)
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(edges.get(w, {})))))
                elif w in on:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp = []
                while True:
                    x = stack.pop()
                    on.discard(x)
                    comp.append(x)
                    if x == v:
                        break
                if len(comp) > 1:
                    cycles.append(sorted(comp))
    return cycles


def test_no_import_points_up_a_layer() -> None:
    bad = backward_edges(graph())
    assert not bad, "imports against the layers:\n" + "\n".join(bad)


def test_no_import_cycle() -> None:
    """Every strongly connected component of the module graph is a single module."""
    cycles = find_cycles(graph())
    assert not cycles, "import cycles:\n" + "\n".join(" <-> ".join(c) for c in cycles)


def test_the_checks_catch_what_they_are_for() -> None:
    """On a made-up graph: an app importing the runner is a backward edge; a loop of three is a cycle."""
    edges = {
        "cfab.apps.bank.base": {"cfab.runner.attempt": 3},
        "cfab.runner.attempt": {},
        "cfab.tasks.a": {"cfab.tasks.b": 1},
        "cfab.tasks.b": {"cfab.tasks.c": 1},
        "cfab.tasks.c": {"cfab.tasks.a": 1},
        "cfab.apps.world.golden": {"cfab.grader.diff": 1},
        "cfab.grader.diff": {},
    }
    assert backward_edges(edges) == ["cfab.apps.bank.base:3 (apps) imports cfab.runner.attempt (runner)"]
    assert find_cycles(edges) == [["cfab.tasks.a", "cfab.tasks.b", "cfab.tasks.c"]]


def test_no_private_name_crosses_a_package() -> None:
    bad = []
    for mod, path in ((module_name(p), p) for f in FOLDERS for p in (ROOT / f).rglob("*.py")):
        for target, names, line in imports_of(path):
            if target.split(".")[:2] == mod.split(".")[:2] and layer_of(target) == layer_of(mod):
                continue
            bad += [f"{mod}:{line} imports {target}.{n}" for n in names if n.startswith("_") and not n.startswith("__")]
    assert not bad, "private names imported across packages:\n" + "\n".join(bad)
