"""Mutants of what mutmut never touches: module constants, class fields and their constraints.

mutmut 3 mutates function bodies only, so a changed limit default, a changed id pattern or
a loosened pydantic `Field` constraint would pass unnoticed. This module makes those
mutants from the syntax tree of each domain module (everything outside a function body)
and reads the hand-made ones that no mechanical rule can make well (`mutants.toml`).
"""

from __future__ import annotations

import ast
import re
import tomllib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

DIGITS = re.compile(r"\d+")
SKIPPED_CALLS = frozenset({"NewType", "TypeVar"})
"""Their string argument names a type for type checkers only; changing it changes nothing at run time."""


@dataclass(frozen=True)
class ConstantMutant:
    """One textual change at a known place; `name` stays stable while the source around it does."""

    path: str
    name: str
    change: str
    line: int
    start: int
    end: int
    replacement: str

    def apply(self, source: str) -> str:
        return source[: self.start] + self.replacement + source[self.end :]


def _offsets(source: str) -> list[int]:
    starts = [0]
    for line in source.splitlines(keepends=True):
        starts.append(starts[-1] + len(line))
    return starts


def _docstring_nodes(tree: ast.Module) -> set[int]:
    """Docstrings (of the module, classes and attributes) are prose, not behaviour."""
    found: set[int] = set()
    bodies: list[list[ast.stmt]] = [tree.body]
    bodies += [n.body for n in ast.walk(tree) if isinstance(n, ast.ClassDef)]
    for body in bodies:
        for statement in body:
            if isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Constant):
                found.add(id(statement.value))
    return found


def _owner(stack: list[str], node: ast.stmt) -> str:
    target: ast.expr | None = None
    if isinstance(node, ast.Assign):
        target = node.targets[0]
    elif isinstance(node, ast.AnnAssign):
        target = node.target
    label = ast.unparse(target) if target is not None else type(node).__name__
    return ".".join([*stack, label])


def _literal_mutations(node: ast.Constant) -> Iterator[tuple[str, str]]:
    """(description, replacement source) for one literal."""
    value = node.value
    if isinstance(value, bool):
        yield f"{value} → {not value}", repr(not value)
    elif isinstance(value, int | float):
        yield f"{value} → {value + 1}", repr(value + 1)
    elif isinstance(value, str):
        yield f"{value!r} → 'XX…XX'", repr("XX" + value + "XX")
        for match in DIGITS.finditer(value):
            bumped = value[: match.start()] + str(int(match.group()) + 1) + value[match.end() :]
            yield f"{value!r} → {bumped!r}", repr(bumped)


class _Collector(ast.NodeVisitor):
    """Walks statements outside function bodies; mutmut already mutates what is inside them."""

    def __init__(self, path: str, source: str, tree: ast.Module) -> None:
        self.path = path
        self.source = source
        self.offsets = _offsets(source)
        self.docstrings = _docstring_nodes(tree)
        self.stack: list[str] = []
        self.mutants: list[ConstantMutant] = []
        self.skipped: set[int] = set()

    def visit_FunctionDef(self, node: ast.FunctionDef) -> None:
        for decorator in node.decorator_list:  # decorators run at import time
            self._statement_literals(decorator, f"@{node.name}")

    visit_AsyncFunctionDef = visit_FunctionDef  # type: ignore[assignment]

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        self.stack.append(node.name)
        for statement in node.body:
            self.visit(statement)
        self.stack.pop()

    def visit_Assign(self, node: ast.Assign) -> None:
        self._statement_literals(node, _owner(self.stack, node))

    def visit_AnnAssign(self, node: ast.AnnAssign) -> None:
        self._statement_literals(node, _owner(self.stack, node))

    def _statement_literals(self, node: ast.AST, owner: str) -> None:
        for call in ast.walk(node):
            if isinstance(call, ast.Call) and ast.unparse(call.func) in SKIPPED_CALLS:
                self.skipped.update(id(a) for a in call.args)
        count = 0
        for child in ast.walk(node):
            if (
                not isinstance(child, ast.Constant)
                or id(child) in self.docstrings
                or id(child) in self.skipped
            ):
                continue
            if child.value is None or child.value is Ellipsis or child.end_col_offset is None:
                continue
            start = self.offsets[child.lineno - 1] + _column(self.source, child.lineno, child.col_offset)
            end_line = child.end_lineno or child.lineno
            end = self.offsets[end_line - 1] + _column(self.source, end_line, child.end_col_offset)
            for change, replacement in _literal_mutations(child):
                count += 1
                self.mutants.append(
                    ConstantMutant(
                        self.path,
                        f"{_module(self.path)}:{owner}#{count}",
                        change,
                        child.lineno,
                        start,
                        end,
                        replacement,
                    )
                )


def _column(source: str, line: int, byte_offset: int) -> int:
    """ast columns count UTF-8 bytes; string slicing counts characters."""
    text = source.splitlines(keepends=True)[line - 1]
    return len(text.encode("utf-8")[:byte_offset].decode("utf-8"))


def _module(path: str) -> str:
    return path.removesuffix(".py").replace("/", ".")


def constant_mutants(root: Path, path: str) -> list[ConstantMutant]:
    source = (root / path).read_text(encoding="utf-8")
    tree = ast.parse(source)
    collector = _Collector(path, source, tree)
    for statement in tree.body:
        collector.visit(statement)
    return collector.mutants


def hand_mutants(root: Path, file: Path) -> list[ConstantMutant]:
    """Changes no rule makes well (a character taken out of a pattern's class, `gt` → `ge`)."""
    entries = tomllib.loads(file.read_text(encoding="utf-8")).get("mutant", [])
    mutants = []
    for entry in entries:
        source = (root / entry["path"]).read_text(encoding="utf-8")
        start = source.find(entry["find"])
        if start < 0 or source.count(entry["find"]) != 1:
            raise SystemExit(f"{file}: {entry['name']}: {entry['find']!r} must occur once in {entry['path']}")
        mutants.append(
            ConstantMutant(
                entry["path"],
                f"{_module(entry['path'])}:{entry['name']}",
                f"{entry['find']!r} → {entry['replace']!r}",
                source.count("\n", 0, start) + 1,
                start,
                start + len(entry["find"]),
                entry["replace"],
            )
        )
    return mutants
