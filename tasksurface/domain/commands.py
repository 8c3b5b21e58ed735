"""Commands an operator declares for `run_command`, and the model's arguments checked against them.

The model names a declared command and gives values for its declared arguments; the argv is the
operator's template with each value as one whole argument. There is never a shell and never a
command line written by the model.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from .refusals import Problem, TaskCode, TaskRefused
from .tasks import MAX_LABEL_CHARS

NAME_PATTERN = r"^[a-z][a-z0-9_-]{0,39}$"
PLACEHOLDER = re.compile(r"\{\{|\}\}|\{([a-z][a-z0-9_]*)\}")
"""`{name}` is an argument's value; `{{` and `}}` are literal braces."""
PYTHON = "python"
"""`{python}` in an argv template is the interpreter that runs the host, not an argument."""
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")


class ArgumentSpec(BaseModel):
    """One argument the model may (or must) give; strings and integers only, each bounded."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)

    type: Literal["string", "integer"]
    description: str = ""
    default: str | int | None = None
    """Given: the argument is optional and takes this value when left out."""
    choices: tuple[str, ...] | None = Field(None, strict=False)
    """For a string: the only values allowed."""
    max_length: int = Field(200, ge=1, le=4000)
    minimum: int | None = None
    maximum: int | None = None
    allow_leading_dash: bool = False
    """A value starting with '-' could read as an option to the program; refused unless allowed."""

    def json_schema(self) -> dict[str, Any]:
        """The JSON Schema the model is shown for this argument."""
        out: dict[str, Any] = {"type": self.type}
        if self.description:
            out["description"] = self.description
        if self.type == "string":
            out["maxLength"] = self.max_length
            if self.choices:
                out["enum"] = list(self.choices)
        else:
            if self.minimum is not None:
                out["minimum"] = self.minimum
            if self.maximum is not None:
                out["maximum"] = self.maximum
        if self.default is not None:
            out["default"] = self.default
        return out


class CommandSpec(BaseModel):
    """One declared command: the argv template and everything that bounds a run of it."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)

    description: str = Field(min_length=1, max_length=1000)
    argv: tuple[str, ...] = Field(min_length=1, strict=False)
    label: str = ""
    """A template for the task's label, e.g. "Count to {n}"; the command's name when empty."""
    args: dict[str, ArgumentSpec] = Field(default_factory=dict)
    cwd: str = "."
    """The working folder, relative to the commands file's folder unless absolute."""
    timeout_seconds: float = Field(600.0, gt=0, le=7 * 24 * 3600)
    kill_grace_seconds: float = Field(5.0, gt=0, le=600)
    """After SIGTERM to the process group, SIGKILL follows when it has not ended within this."""
    env: tuple[str, ...] = Field(("PATH", "LANG", "LC_ALL", "HOME", "TZ"), strict=False)
    """Variables of the host's environment the command may see; nothing else is passed on."""
    set_env: dict[str, str] = Field(default_factory=dict)
    """Fixed variables the command always gets."""
    output_limit_bytes: int = Field(65536, ge=0)
    """Caps each text a task tool returns about this command's tasks (never below 64 bytes); 0: no cap."""
    output: Literal["stream", "final"] = "stream"
    progress: str | None = None
    """A regular expression over output lines: group 1 is done, group 2 (if any) the total, else percent."""

    @field_validator("args")
    @classmethod
    def _argument_names(cls, value: dict[str, ArgumentSpec]) -> dict[str, ArgumentSpec]:
        for name in value:
            if not re.fullmatch(r"[a-z][a-z0-9_]*", name) or name == PYTHON:
                raise ValueError(f"argument name {name!r} must match [a-z][a-z0-9_]* and not be 'python'")
        return value

    @field_validator("progress")
    @classmethod
    def _progress_compiles(cls, value: str | None) -> str | None:
        if value is not None:
            re.compile(value)
        return value

    @model_validator(mode="after")
    def _placeholders_are_arguments(self) -> CommandSpec:
        for template in (*self.argv, self.label):
            for name in filter(None, PLACEHOLDER.findall(template)):
                if name not in self.args and not (name == PYTHON and template in self.argv):
                    raise ValueError(f"{template!r} names {{{name}}}, which is not a declared argument")
        for name, spec in self.args.items():
            if spec.default is not None:
                try:
                    check_value(name, spec, spec.default)
                except TaskRefused as refused:  # the operator's file is wrong, not a model's call
                    raise ValueError(
                        f"the default of {name!r} does not fit: {refused.problem.message}"
                    ) from None
        return self


class CommandsFile(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)

    commands: dict[str, CommandSpec] = Field(default_factory=dict)

    @field_validator("commands")
    @classmethod
    def _command_names(cls, value: dict[str, CommandSpec]) -> dict[str, CommandSpec]:
        for name in value:
            if not re.fullmatch(NAME_PATTERN, name):
                raise ValueError(f"command name {name!r} must match {NAME_PATTERN}")
        return value


class InvalidCommandsFile(ValueError):
    """The operator's commands file does not parse or does not fit; the host refuses to start."""


def parse_commands(text: str, where: str = "the commands file") -> CommandsFile:
    try:
        return CommandsFile.model_validate(tomllib.loads(text))
    except tomllib.TOMLDecodeError as exc:
        raise InvalidCommandsFile(f"{where} is not TOML: {exc}") from None
    except (ValidationError, re.error) as exc:
        raise InvalidCommandsFile(f"{where} does not fit: {exc}") from None


@dataclass(frozen=True)
class CommandRun:
    """A checked request to run a declared command: what the host starts."""

    name: str
    values: Mapping[str, str | int]
    label: str


def _refused(code: TaskCode, message: str, where: str) -> TaskRefused:
    return TaskRefused(Problem(code, message, where))


def check_value(name: str, spec: ArgumentSpec, value: object) -> str | int:
    where = f"args.{name}"
    if spec.type == "integer":
        if not isinstance(value, int) or isinstance(value, bool):
            raise _refused(TaskCode.INVALID_ARGUMENT, f"{name} must be an integer", where)
        if spec.minimum is not None and value < spec.minimum:
            raise _refused(TaskCode.INVALID_ARGUMENT, f"{name} must be at least {spec.minimum}", where)
        if spec.maximum is not None and value > spec.maximum:
            raise _refused(TaskCode.INVALID_ARGUMENT, f"{name} must be at most {spec.maximum}", where)
        return value
    if not isinstance(value, str):
        raise _refused(TaskCode.INVALID_ARGUMENT, f"{name} must be a string", where)
    if spec.choices is not None and value not in spec.choices:
        raise _refused(TaskCode.INVALID_ARGUMENT, f"{name} must be one of {', '.join(spec.choices)}", where)
    if len(value) > spec.max_length:
        raise _refused(TaskCode.INVALID_ARGUMENT, f"{name} holds at most {spec.max_length} characters", where)
    if _CONTROL.search(value):
        raise _refused(TaskCode.INVALID_ARGUMENT, f"{name} may not hold control characters", where)
    if value.startswith("-") and not spec.allow_leading_dash:
        raise _refused(TaskCode.INVALID_ARGUMENT, f"{name} may not start with '-'", where)
    return value


def check_run(commands: CommandsFile, name: object, args: object) -> CommandRun:
    """The model's `{name, args}` against the declarations; every refusal names its place."""
    if not isinstance(name, str) or name not in commands.commands:
        known = ", ".join(sorted(commands.commands)) or "none"
        raise _refused(TaskCode.UNKNOWN_COMMAND, f"there is no command {name!r}; declared: {known}", "name")
    spec = commands.commands[name]
    if args is None:
        args = {}
    if not isinstance(args, Mapping):
        raise _refused(TaskCode.ARGUMENTS, "args must be an object", "args")
    for extra in sorted(set(args) - set(spec.args)):
        raise _refused(TaskCode.UNKNOWN_ARGUMENT, f"{name} takes no argument {extra!r}", f"args.{extra}")
    values: dict[str, str | int] = {}
    for arg, arg_spec in spec.args.items():
        if arg in args:
            values[arg] = check_value(arg, arg_spec, args[arg])
        elif arg_spec.default is not None:
            values[arg] = arg_spec.default
        else:
            raise _refused(TaskCode.MISSING_ARGUMENT, f"{name} needs the argument {arg!r}", f"args.{arg}")
    label = render(spec.label, values) if spec.label else name
    return CommandRun(name, values, label[:MAX_LABEL_CHARS])


def render(template: str, values: Mapping[str, str | int], python: str = PYTHON) -> str:
    """Each `{name}` becomes its value; the result is one argv element, never split or interpreted."""

    def value(match: re.Match[str]) -> str:
        key = match.group(1)
        if key is None:  # `{{` or `}}`: one literal brace
            return match.group(0)[:1]
        return python if key == PYTHON and key not in values else str(values[key])

    return PLACEHOLDER.sub(value, template)


def argv(spec: CommandSpec, values: Mapping[str, str | int], python: str) -> list[str]:
    return [render(part, values, python) for part in spec.argv]


def progress_of(pattern: re.Pattern[str], line: str) -> tuple[float, float | None] | None:
    """A progress report in one output line, if the command's pattern finds one."""
    found = pattern.search(line[:500])
    if found is None or not found.groups():
        return None
    try:
        done = float(found.group(1))
        total = float(found.group(2)) if found.lastindex and found.lastindex >= 2 else None
    except (TypeError, ValueError):
        return None
    return done, total
