"""The generic agent must not know Task Surface: no module of `tasksurface/agent/` imports it."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import tasksurface.agent

AGENT_DIR = Path(tasksurface.agent.__file__).parent

FORBIDDEN = (
    "tasksurface.tools",
    "tasksurface.services",
    "tasksurface.web",
    "tasksurface.backends",
    *(
        f"tasksurface.domain.{name}"
        for name in (
            "model",
            "parser",
            "presentation",
            "submission",
            "formatter",
            "form_values",
            "projection",
            "results",
            "limits",
            "refusals",
        )
    ),
)


def module_name(path: Path) -> str:
    """`tasksurface/agent/runner.py` → `tasksurface.agent.runner` (a package is its `__init__`)."""
    relative = path.relative_to(AGENT_DIR.parent.parent).with_suffix("")
    parts = list(relative.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imported_modules(source: str, module: str, is_package: bool = False) -> set[str]:
    """Every absolute module name a source imports, relative imports resolved.

    `from x import y` counts both `x` and `x.y`, since `y` may be a submodule.
    """
    package = module.split(".") if is_package else module.split(".")[:-1]
    found: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - (node.level - 1)]
                target = ".".join([*base, *([node.module] if node.module else [])])
            else:
                target = node.module or ""
            found.add(target)
            found.update(f"{target}.{alias.name}" for alias in node.names)
    return found


def violations(imports: set[str]) -> list[str]:
    return sorted(name for name in imports if any(name == f or name.startswith(f + ".") for f in FORBIDDEN))


def agent_modules() -> list[Path]:
    return sorted(AGENT_DIR.rglob("*.py"))


def test_the_agent_package_has_modules_to_check() -> None:
    names = {module_name(p) for p in agent_modules()}
    assert {"tasksurface.agent", "tasksurface.agent.runner", "tasksurface.agent.tools"} <= names


@pytest.mark.parametrize("path", agent_modules(), ids=lambda p: p.name)
def test_no_agent_module_imports_task_surface(path: Path) -> None:
    imports = imported_modules(path.read_text(), module_name(path), path.name == "__init__.py")
    assert violations(imports) == [], f"{module_name(path)} must stay generic"


@pytest.mark.parametrize(
    "source",
    [
        "from ..tools.show_task_surface import ShowTaskSurface",
        "from ..services import container",
        "from .. import web",
        "import tasksurface.backends.scripted",
        "from tasksurface.domain.parser import parse_arguments",
        "from ..domain import presentation",
        "from ..domain.limits import DEFAULT_LIMITS",
        "def later():\n    from ..domain.projection import fold\n",
        "if True:\n    import tasksurface.domain.refusals as r\n",
    ],
)
def test_the_checker_catches_a_forbidden_import(source: str) -> None:
    assert violations(imported_modules(source, "tasksurface.agent.runner")) != []


@pytest.mark.parametrize(
    "source",
    [
        "from ..domain.events import SessionEvent",
        "from ..domain.ids import CallId",
        "from ..store import inbox, log",
        "from .ports import ToolDefinition",
        "import threading",
        "from tasksurface.domain.modelish import x",
    ],
)
def test_the_checker_allows_generic_imports(source: str) -> None:
    assert violations(imported_modules(source, "tasksurface.agent.runner")) == []


def test_relative_imports_resolve_from_the_package_init() -> None:
    assert "tasksurface.tools" in imported_modules("from ..tools import x", "tasksurface.agent", True)
    assert "tasksurface.agent.ports" in imported_modules("from .ports import x", "tasksurface.agent", True)
