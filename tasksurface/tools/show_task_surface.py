"""`show_task_surface`: publish one bounded, declarative panel and end the turn."""

from __future__ import annotations

import secrets
from typing import Any

from ..agent.ports import ToolDefinition
from ..agent.tools import ToolContext, ToolOutcome
from ..domain.ids import TaskSurfaceId
from ..domain.limits import DEFAULT_LIMITS, Limits
from ..domain.model_v2 import TaskSurfaceModel, TaskSurfaceModelV2
from ..domain.parser import parse_arguments
from ..domain.presentation import TOOL_NAME, presentation_meta
from ..domain.refusals import Problem, SurfaceCode, SurfaceRefused
from ..store import log

DESCRIPTION = (
    "Show the user one structured panel docked above the composer, for a task that fits "
    "the declared components: comparing options, ordering a plan, reviewing a table or a "
    "change, approving, or filling a few related fields. The call ends your turn; the user's "
    "submission arrives as their next message. Use plain chat for explanations and short "
    "questions. At most one panel is open per session; the model is JSON only (no HTML, code "
    "or URLs to load). Fields may carry help, required and visibleWhen {field, equals | in} "
    "(earlier fields only); text takes minLength, maxLength, format (email, url), placeholder "
    "and pattern (RE2, whole value); number takes minimum, maximum, step, integer, unit; date "
    "takes ISO YYYY-MM-DD minimum, maximum, initial. A review field shows before/after as "
    "changes the user accepts or rejects one by one. submit is {label} or {actions: [{id, "
    "label, tone}]} (e.g. Approve / Request changes); actions [{id, label}] are buttons that "
    "send you a message with the current values while the panel stays open."
)


def _without_titles(node: Any) -> Any:
    """Pydantic's generated `title`s repeat each property's name; the model gains nothing."""
    if isinstance(node, dict):
        return {
            key: (
                {name: _without_titles(sub) for name, sub in value.items()}
                if key in ("properties", "$defs")
                else _without_titles(value)
            )
            for key, value in node.items()
            if key != "title"
        }
    if isinstance(node, list):
        return [_without_titles(item) for item in node]
    return node


def _schema() -> dict[str, Any]:
    """Version 2's schema: a superset of version 1, which stays accepted for old clients."""
    model_schema = _without_titles(TaskSurfaceModelV2.model_json_schema(mode="validation", by_alias=True))
    definitions = model_schema.pop("$defs", {})
    return {
        "type": "object",
        "properties": {"model": model_schema},
        "required": ["model"],
        "additionalProperties": False,
        "$defs": definitions,
    }


class ShowTaskSurface:
    """Parses and normalises the whole model, refuses a second open surface, ends the turn."""

    asks_user = False

    def __init__(self, limits: Limits = DEFAULT_LIMITS) -> None:
        self.limits = limits
        # Generated once; identical whatever the task, so the prompt prefix never changes.
        self._definition = ToolDefinition(TOOL_NAME, DESCRIPTION, _schema())

    @property
    def definition(self) -> ToolDefinition:
        return self._definition

    def execute(self, context: ToolContext, arguments: str) -> ToolOutcome:
        try:
            if context.depth > 0:
                raise SurfaceRefused(
                    Problem(
                        SurfaceCode.NESTED_CALL,
                        "a panel can only be shown by a direct call, not from inside another tool",
                    )
                )
            model = parse_arguments(arguments, self.limits)
            with context.database.read() as db:
                active = log.get_session(db, context.session_id).projection.active
            if active is not None:
                raise SurfaceRefused(
                    Problem(
                        SurfaceCode.ALREADY_OPEN,
                        f"panel {active.surface_id} is still open; "
                        "wait for the user's answer or their next message",
                    )
                )
        except SurfaceRefused as refusal:
            return ToolOutcome(False, refusal.tool_text())
        surface_id = TaskSurfaceId("ts_" + secrets.token_urlsafe(12))
        return ToolOutcome(
            True,
            result_text(surface_id, model),
            meta=presentation_meta(surface_id, model),
            conclude_turn=True,
        )


def result_text(surface_id: TaskSurfaceId, model: TaskSurfaceModel) -> str:
    """What the model reads, and what a client that cannot draw the panel shows."""
    return (
        f'Task Surface {surface_id} "{model.title}" is shown to the user with '
        f"{len(model.fields)} field(s). Their submission will arrive as their next message. "
        "If their client cannot show the panel, they can answer with an ordinary message "
        "instead, which closes the panel."
    )
