"""The arguments of the task tools, decoded strictly: what the model sent, or a typed refusal."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from . import strict_json
from .ids import TaskId, is_wire_id
from .refusals import Problem, TaskCode, TaskRefused
from .tasks import MAX_LABEL_CHARS, MAX_REASON_CHARS

MAX_ARGUMENT_BYTES = 64 * 1024
MAX_PROMPT_CHARS = 16_000


@dataclass(frozen=True)
class OutputArguments:
    task_id: TaskId
    wait: bool
    timeout_ms: int | None


@dataclass(frozen=True)
class KillArguments:
    task_id: TaskId
    reason: str | None


@dataclass(frozen=True)
class RunArguments:
    name: object
    args: object


@dataclass(frozen=True)
class DelegateArguments:
    prompt: str
    label: str


def _refused(code: TaskCode, message: str, where: str = "") -> TaskRefused:
    return TaskRefused(Problem(code, message, where))


def decode(arguments: str, allowed: set[str], required: set[str]) -> dict[str, Any]:
    if len(arguments.encode("utf-8", errors="replace")) > MAX_ARGUMENT_BYTES:
        raise _refused(TaskCode.ARGUMENTS, f"arguments hold at most {MAX_ARGUMENT_BYTES} bytes")
    try:
        decoded = strict_json.loads(arguments or "{}")
    except strict_json.DuplicateKey as exc:
        raise _refused(TaskCode.DUPLICATE_KEY, str(exc), exc.key) from None
    except ValueError as exc:
        raise _refused(TaskCode.INVALID_JSON, f"the arguments are not JSON: {exc}") from None
    if not isinstance(decoded, dict):
        raise _refused(TaskCode.ARGUMENTS, "the arguments must be a JSON object")
    for extra in sorted(set(decoded) - allowed):
        raise _refused(TaskCode.ARGUMENTS, f"unknown argument {extra!r}", extra)
    for missing in sorted(required - set(decoded)):
        raise _refused(TaskCode.ARGUMENTS, f"{missing} is required", missing)
    return decoded


def _task_id(value: object) -> TaskId:
    if not is_wire_id(value):
        raise _refused(TaskCode.ARGUMENTS, "task_id must be the id of a task you started", "task_id")
    assert isinstance(value, str)
    return TaskId(value)


def _text(value: object, where: str, most: int, *, blank_ok: bool = False) -> str:
    if not isinstance(value, str) or (not blank_ok and not value.strip()):
        raise _refused(TaskCode.ARGUMENTS, f"{where} must be non-empty text", where)
    if len(value) > most:
        raise _refused(TaskCode.ARGUMENTS, f"{where} holds at most {most} characters", where)
    return value.strip()


def named_task(arguments: str) -> TaskId | None:
    """The task refused arguments still name, if any, so the refusal is capped like its other texts."""
    try:
        decoded = strict_json.loads(arguments)
    except ValueError:
        return None
    value = decoded.get("task_id") if isinstance(decoded, dict) else None
    return TaskId(str(value)) if is_wire_id(value) else None


def output_arguments(arguments: str) -> OutputArguments:
    decoded = decode(arguments, {"task_id", "wait", "timeout_ms"}, {"task_id"})
    wait = decoded.get("wait", False)
    if not isinstance(wait, bool):
        raise _refused(TaskCode.ARGUMENTS, "wait must be true or false", "wait")
    timeout = decoded.get("timeout_ms")
    if timeout is not None and (not isinstance(timeout, int) or isinstance(timeout, bool) or timeout < 0):
        raise _refused(TaskCode.ARGUMENTS, "timeout_ms must be a whole number of milliseconds", "timeout_ms")
    return OutputArguments(_task_id(decoded["task_id"]), wait, timeout)


def wait_ms(requested: int | None, default_ms: int, max_ms: int) -> int:
    """How long a `wait: true` read waits: the model's figure, or the default, never above the maximum."""
    return min(default_ms if requested is None else requested, max_ms)


def kill_arguments(arguments: str) -> KillArguments:
    decoded = decode(arguments, {"task_id", "reason"}, {"task_id"})
    reason = decoded.get("reason")
    text = None if reason is None else _text(reason, "reason", MAX_REASON_CHARS, blank_ok=True) or None
    return KillArguments(_task_id(decoded["task_id"]), text)


def list_arguments(arguments: str) -> None:
    decode(arguments, set(), set())


def run_arguments(arguments: str) -> RunArguments:
    decoded = decode(arguments, {"name", "args"}, {"name"})
    return RunArguments(decoded["name"], decoded.get("args"))


def delegate_arguments(arguments: str) -> DelegateArguments:
    decoded = decode(arguments, {"prompt", "label"}, {"prompt", "label"})
    return DelegateArguments(
        _text(decoded["prompt"], "prompt", MAX_PROMPT_CHARS),
        " ".join(_text(decoded["label"], "label", MAX_LABEL_CHARS).split()),
    )
