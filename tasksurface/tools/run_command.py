"""`run_command`: start one of the operator's declared commands as a background task."""

from __future__ import annotations

import json
from typing import Any

from ..agent.ports import ToolDefinition
from ..agent.tools import ToolContext, ToolOutcome
from ..domain import task_args
from ..domain.commands import CommandsFile, check_run
from ..domain.refusals import TaskRefused
from ..domain.tasks import PublicTaskSnapshot, card_meta, started_text
from ..services.tasks import TaskService
from ..tasks.commands import KIND

NAME = "run_command"


def describe(commands: CommandsFile) -> str:
    """The tool's description names every declared command and its arguments, in a stable order."""
    lines = [
        "Start one of the commands the operator declared, as a background task, and get its task "
        "id at once; the command's output streams as the task's output. Give the command's name and "
        "its arguments; nothing else can be run. Commands:"
    ]
    for name in sorted(commands.commands):
        spec = commands.commands[name]
        args = {arg: spec.args[arg].json_schema() for arg in sorted(spec.args)}
        shown = json.dumps(args, ensure_ascii=False, sort_keys=True) if args else "no arguments"
        lines.append(f"- {name}: {spec.description} Arguments: {shown}")
    if not commands.commands:
        lines.append("- (none are declared here)")
    return "\n".join(lines)


class RunCommand:
    asks_user = False

    def __init__(self, service: TaskService, commands: CommandsFile) -> None:
        self.service = service
        self.commands = commands
        parameters: dict[str, Any] = {
            "type": "object",
            "properties": {
                "name": {"type": "string", "enum": sorted(commands.commands)},
                "args": {"type": "object", "description": "The command's arguments by name."},
            },
            "required": ["name"],
            "additionalProperties": False,
        }
        self._definition = ToolDefinition(NAME, describe(commands), parameters)

    @property
    def definition(self) -> ToolDefinition:
        return self._definition

    def execute(self, context: ToolContext, arguments: str) -> ToolOutcome:
        try:
            parsed = task_args.run_arguments(arguments)
            run = check_run(self.commands, parsed.name, parsed.args)
            spec = self.commands.commands[run.name]
            task = self.service.start(
                context.session_id,
                context.call_id,
                KIND,
                run.label,
                {"command": run.name, "values": dict(run.values)},
                spec.output,
                spec.output_limit_bytes or None,
            )
        except TaskRefused as refusal:
            return ToolOutcome(False, refusal.tool_text())
        return started(task.snapshot)


def started(snapshot: PublicTaskSnapshot) -> ToolOutcome:
    return ToolOutcome(True, started_text(snapshot), meta=card_meta("execute", {"task": snapshot.to_wire()}))
