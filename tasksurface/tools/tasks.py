"""`task_output`, `task_list` and `task_kill`: the kind-agnostic controls of background tasks.

Their texts are the seed's, word for word (see `domain.task_text`); their results also carry the
canonical value and the transcript card (`read` for output and list, `execute` for kill).
"""

from __future__ import annotations

from typing import Any

from ..agent.ports import ToolDefinition
from ..agent.tools import ToolContext, ToolOutcome
from ..domain import task_args, task_text
from ..domain.refusals import TaskRefused
from ..domain.tasks import card_meta
from ..services.tasks import TaskService, bounded_refusal

TASK_ID = {"type": "string", "description": "The id of a background task you started."}


def _refusal(refusal: TaskRefused, limit: int | None = None) -> ToolOutcome:
    return ToolOutcome(False, bounded_refusal(refusal, limit))


def _argument_refusal(
    service: TaskService, context: ToolContext, refusal: TaskRefused, raw: str
) -> ToolOutcome:
    """Arguments that still name a task of this session get that task's cap, like any of its texts."""
    named = task_args.named_task(raw)
    return _refusal(refusal, service.limit_of(context.session_id, named) if named else None)


class _TaskTool:
    """What the three controls share: the service, and a definition fixed at start."""

    asks_user = False

    def __init__(self, service: TaskService, definition: ToolDefinition) -> None:
        self.service = service
        self._definition = definition

    @property
    def definition(self) -> ToolDefinition:
        return self._definition


class TaskOutput(_TaskTool):
    def __init__(self, service: TaskService) -> None:
        limits = service.limits
        super().__init__(
            service,
            ToolDefinition(
                "task_output",
                "Read a background task's output. It answers at once by default: a streaming task gives "
                "only what you have not read yet, a task that reports at the end gives its result once it "
                "has finished, and `(no new output)` when there is nothing new. Every answer ends with "
                "[status: <status>] and, when there is one, a detail. With wait: true it waits until the "
                f"task finishes, for timeout_ms at most (default {limits.wait_timeout_ms}, never more than "
                f"{limits.max_wait_timeout_ms}); a task still running then keeps running.",
                {
                    "type": "object",
                    "properties": {
                        "task_id": TASK_ID,
                        "wait": {"type": "boolean", "description": "Wait for the task to finish."},
                        "timeout_ms": {"type": "integer", "minimum": 0, "description": "How long to wait."},
                    },
                    "required": ["task_id"],
                    "additionalProperties": False,
                },
            ),
        )

    def execute(self, context: ToolContext, arguments: str) -> ToolOutcome:
        try:
            parsed = task_args.output_arguments(arguments)
        except TaskRefused as refusal:
            return _argument_refusal(self.service, context, refusal, arguments)
        try:
            text, task = self.service.read(context.session_id, parsed.task_id, parsed.wait, parsed.timeout_ms)
        except TaskRefused as refusal:
            return _refusal(refusal, self.service.limit_of(context.session_id, parsed.task_id))
        return ToolOutcome(True, text, meta=card_meta("read", {"text": text, "task": task.to_wire()}))


class TaskList(_TaskTool):
    def __init__(self, service: TaskService) -> None:
        super().__init__(
            service,
            ToolDefinition(
                "task_list",
                "List the background tasks of this conversation, one per line as "
                "`<id> [<kind>] <status> — <label>`.",
                {"type": "object", "properties": {}, "additionalProperties": False},
            ),
        )

    def execute(self, context: ToolContext, arguments: str) -> ToolOutcome:
        try:
            task_args.list_arguments(arguments)
        except TaskRefused as refusal:
            return _refusal(refusal)
        snapshots = self.service.snapshots(context.session_id)
        value: list[dict[str, Any]] = [s.to_wire() for s in snapshots]
        return ToolOutcome(True, task_text.list_text(snapshots), meta=card_meta("read", value))


class TaskKill(_TaskTool):
    def __init__(self, service: TaskService) -> None:
        super().__init__(
            service,
            ToolDefinition(
                "task_kill",
                "Stop a background task at once, recording why. A task that has already finished is left "
                "as it is: you get its final status, and its output stays unread for task_output.",
                {
                    "type": "object",
                    "properties": {
                        "task_id": TASK_ID,
                        "reason": {"type": "string", "description": "Why it no longer matters."},
                    },
                    "required": ["task_id"],
                    "additionalProperties": False,
                },
            ),
        )

    def execute(self, context: ToolContext, arguments: str) -> ToolOutcome:
        try:
            parsed = task_args.kill_arguments(arguments)
        except TaskRefused as refusal:
            return _argument_refusal(self.service, context, refusal, arguments)
        try:
            decision, task, _limit = self.service.kill(
                context.session_id, parsed.task_id, parsed.reason, "model"
            )
        except TaskRefused as refusal:
            return _refusal(refusal, self.service.limit_of(context.session_id, parsed.task_id))
        return ToolOutcome(True, decision.text, meta=card_meta("execute", decision.to_wire(task)))
