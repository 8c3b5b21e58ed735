"""The domain stays pure: no web framework, database, markdown, clock, randomness or outer layer."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

import tasksurface.domain

DOMAIN_DIR = Path(tasksurface.domain.__file__).parent
DOMAIN_PACKAGE = "tasksurface.domain"

FORBIDDEN_MODULES = {
    "flask",
    "flask_sock",
    "werkzeug",
    "sqlalchemy",
    "alembic",
    "psycopg",
    "mistune",
    "markupsafe",
    "jinja2",
    "random",
    "secrets",
    "time",
    "uuid",
    "importlib",
}
CLOCK_CALLS = {"now", "utcnow", "today"}
CLOCK_OWNERS = {"datetime", "date"}


def domain_modules() -> list[Path]:
    return sorted(DOMAIN_DIR.rglob("*.py"))


def module_name(path: Path) -> str:
    relative = path.relative_to(DOMAIN_DIR).with_suffix("")
    parts = [p for p in relative.parts if p != "__init__"]
    return ".".join([DOMAIN_PACKAGE, *parts])


def resolve(importer: str, is_package: bool, level: int, module: str | None) -> str:
    """The absolute module a (possibly relative) import names."""
    if level == 0:
        return module or ""
    base = importer.split(".") if is_package else importer.split(".")[:-1]
    base = base[: len(base) - (level - 1)]
    return ".".join(base + ([module] if module else []))


def _dotted(node: ast.expr) -> str:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return f"{_dotted(node.value)}.{node.attr}"
    return ""


def violations(
    source: str, importer: str = "tasksurface.domain.example", is_package: bool = False
) -> list[str]:
    found: list[str] = []

    def check_module(name: str, line: int) -> None:
        root = name.split(".")[0]
        if root in FORBIDDEN_MODULES:
            found.append(f"line {line}: imports {name}")
        if (name == "tasksurface" or name.startswith("tasksurface.")) and not (
            name == DOMAIN_PACKAGE or name.startswith(DOMAIN_PACKAGE + ".")
        ):
            found.append(f"line {line}: imports {name} from outside the domain")

    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            for alias in node.names:
                check_module(alias.name, node.lineno)
        elif isinstance(node, ast.ImportFrom):
            target = resolve(importer, is_package, node.level, node.module)
            for alias in node.names:
                # Each imported name may be a module: `from .. import store` is tasksurface.store.
                check_module(f"{target}.{alias.name}" if target else alias.name, node.lineno)
        elif isinstance(node, ast.Call):
            func = node.func
            if isinstance(func, ast.Name) and func.id == "__import__":
                found.append(f"line {node.lineno}: calls __import__")
            if isinstance(func, ast.Attribute) and func.attr in CLOCK_CALLS:
                owner = _dotted(func.value).split(".")[-1]
                if owner in CLOCK_OWNERS:
                    found.append(f"line {node.lineno}: reads the clock with {_dotted(func)}()")
    return found


# --- the checker itself -----------------------------------------------------------------


@pytest.mark.parametrize(
    "source",
    [
        "import flask",
        "from flask import request",
        "import werkzeug.serving",
        "import sqlalchemy as sa",
        "from alembic import op",
        "import mistune",
        "from markupsafe import escape",
        "import jinja2",
        "import random",
        "from random import choice",
        "import secrets",
        "import time",
        "from time import monotonic",
        "import uuid",
        "from uuid import uuid4",
        "from datetime import datetime\nx = datetime.now()",
        "import datetime\nx = datetime.datetime.utcnow()",
        "from datetime import date\nx = date.today()",
        "import datetime as dt\nx = dt.datetime.now(dt.UTC)",
        "from ..store import log",
        "from ..web.factory import create_app",
        "from ..services import container",
        "from ..agent.runner import Runner",
        "from .. import store",
        "from .. import config",
        "from ... import tasksurface",
        "import tasksurface.web",
        "from tasksurface.services.errors import RequestRefused",
        "__import__('flask')",
        "import importlib",
        "def f():\n    import random\n    return random.random()",
    ],
)
def test_the_checker_catches_impure_code(source: str) -> None:
    assert violations(source), source


@pytest.mark.parametrize(
    "source",
    [
        "from datetime import datetime\ndef f(at: datetime) -> str:\n    return at.isoformat()",
        "import datetime\nx: datetime.datetime",
        "from . import strict_json",
        "from .model import TaskSurfaceModelV1",
        "from tasksurface.domain.ids import CallId",
        "import json\nimport re\nfrom dataclasses import dataclass",
        "from pydantic import BaseModel",
        "from tasksurface import domain",
        "from .. import domain",
    ],
)
def test_the_checker_allows_pure_code(source: str) -> None:
    assert violations(source) == []


def test_relative_imports_resolve_from_the_importing_module() -> None:
    assert resolve("tasksurface.domain.parser", False, 1, "model") == "tasksurface.domain.model"
    assert resolve("tasksurface.domain.parser", False, 2, "store") == "tasksurface.store"
    assert resolve("tasksurface.domain", True, 1, "ids") == "tasksurface.domain.ids"
    assert resolve("tasksurface.domain", True, 2, None) == "tasksurface"


# --- the domain -------------------------------------------------------------------------


def test_every_domain_module_is_found() -> None:
    names = {module_name(p) for p in domain_modules()}
    for expected in (
        "ids",
        "model",
        "limits",
        "refusals",
        "strict_json",
        "parser",
        "presentation",
        "submission",
        "formatter",
        "form_values",
        "events",
        "projection",
        "results",
    ):
        assert f"{DOMAIN_PACKAGE}.{expected}" in names
    assert DOMAIN_PACKAGE in names


@pytest.mark.parametrize("path", domain_modules(), ids=lambda p: p.name)
def test_domain_module_is_pure(path: Path) -> None:
    source = path.read_text(encoding="utf-8")
    found = violations(source, module_name(path), is_package=path.name == "__init__.py")
    assert found == [], f"{path.relative_to(DOMAIN_DIR.parent.parent)}: {found}"


def test_importing_the_domain_loads_no_impure_library() -> None:
    modules = [module_name(p) for p in domain_modules()]
    script = (
        "import importlib, sys\n"
        f"for name in {modules!r}:\n"
        "    importlib.import_module(name)\n"
        "print('\\n'.join(sorted(sys.modules)))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True, timeout=60
    )
    loaded = set(result.stdout.split())
    third_party = {
        "flask",
        "flask_sock",
        "werkzeug",
        "sqlalchemy",
        "alembic",
        "psycopg",
        "mistune",
        "markupsafe",
        "jinja2",
    }
    assert {m.split(".")[0] for m in loaded} & third_party == set()
    outer = sorted(m for m in loaded if m.startswith("tasksurface.") and not m.startswith(DOMAIN_PACKAGE))
    assert outer == []
