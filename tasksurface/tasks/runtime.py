"""Builds what a process needs to run and watch background tasks, from the same settings everywhere."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime

from ..agent.ports import ModelBackend
from ..config import Settings
from ..domain.ids import TaskId
from ..domain.tasks import TaskRecord
from ..store.db import Database
from .commands import CommandProducer, DeclaredCommands, load_commands
from .delegate import DelegateProducer
from .host import TaskHost
from .producers import Producer

DELEGATE_OUTPUT_LIMIT = 32 * 1024
"""Caps each text the task tools return about a sub-agent's task."""


def heartbeat_interval(host_timeout: float) -> float:
    """Several beats fit in the timeout, so one late beat never reports a live host lost."""
    return min(5.0, max(0.2, host_timeout / 5))


@dataclass
class TaskParts:
    declared: DeclaredCommands
    producers: dict[str, Producer] = field(default_factory=dict)


def task_parts(
    settings: Settings,
    backend: ModelBackend,
    clock: Callable[[], datetime],
    declared: DeclaredCommands | None = None,
) -> TaskParts:
    """`declared` when already loaded (a start checks the file before any other I/O)."""
    declared = declared or load_commands(settings.commands_file)
    producers: dict[str, Producer] = {
        CommandProducer.kind: CommandProducer(declared),
        DelegateProducer.kind: DelegateProducer(backend, clock),
    }
    return TaskParts(declared, producers)


def make_host(
    settings: Settings, database: Database, parts: TaskParts, kind: str, clock: Callable[[], datetime]
) -> TaskHost:
    return TaskHost(
        database,
        kind,
        parts.producers,
        clock,
        settings.task_output_retain_bytes,
        heartbeat_interval(settings.task_host_timeout),
    )


class EmbeddedDispatch:
    """Tasks run on threads of this web process."""

    host_kind = "web"

    def __init__(self, host: TaskHost) -> None:
        self.host = host

    def host_id(self) -> str | None:
        return self.host.id

    def submit(self, task: TaskRecord, spec: dict[str, object]) -> None:
        self.host.start(task.id, task.session_id, task.kind, spec)

    def cancel(self, task_id: TaskId) -> None:
        self.host.cancel(task_id)
