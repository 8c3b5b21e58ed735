"""`delegate_task`: hand a self-contained piece of work to a background sub-agent."""

from __future__ import annotations

from ..agent.ports import ToolDefinition
from ..agent.tools import ToolContext, ToolOutcome
from ..domain import task_args
from ..domain.refusals import TaskRefused
from ..services.tasks import TaskService
from ..tasks.delegate import KIND
from .run_command import started

NAME = "delegate_task"
DESCRIPTION = (
    "Hand a self-contained piece of work to a background sub-agent on the same model, and get its "
    "task id at once. The sub-agent sees only your prompt: it cannot show panels, ask the user, use "
    "tools or delegate further, so put everything it needs in the prompt. Its answer streams as the "
    "task's output. `label` is a few words that name the work for you and the user."
)
PARAMETERS = {
    "type": "object",
    "properties": {
        "prompt": {"type": "string", "minLength": 1, "maxLength": task_args.MAX_PROMPT_CHARS},
        "label": {"type": "string", "minLength": 1, "maxLength": 200},
    },
    "required": ["prompt", "label"],
    "additionalProperties": False,
}


class DelegateTask:
    asks_user = False

    def __init__(self, service: TaskService, output_limit: int | None) -> None:
        self.service = service
        self.output_limit = output_limit
        self._definition = ToolDefinition(NAME, DESCRIPTION, PARAMETERS)

    @property
    def definition(self) -> ToolDefinition:
        return self._definition

    def execute(self, context: ToolContext, arguments: str) -> ToolOutcome:
        try:
            parsed = task_args.delegate_arguments(arguments)
            task = self.service.start(
                context.session_id,
                context.call_id,
                KIND,
                parsed.label,
                {"prompt": parsed.prompt},
                "stream",
                self.output_limit,
            )
        except TaskRefused as refusal:
            return ToolOutcome(False, refusal.tool_text())
        return started(task.snapshot)
