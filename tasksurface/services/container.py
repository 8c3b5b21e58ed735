"""Wires the store, the agent and the services together for one process."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime

from ..agent.claims import ClaimRegistry
from ..agent.ports import ModelBackend, Notifier
from ..agent.runner import RunnerPool
from ..agent.tools import ToolRegistry
from ..backends.scripted import ScriptedBackend
from ..config import Settings
from ..store.db import Database
from ..store.engine import check_schema_current, make_engine, upgrade_to_head
from ..tools.show_task_surface import ShowTaskSurface
from .outcomes import OutcomeJournal
from .sessions import SessionService
from .task_surface import TaskSurfaceService


@dataclass
class Services:
    settings: Settings
    database: Database
    claims: ClaimRegistry
    journal: OutcomeJournal
    runner: RunnerPool
    sessions: SessionService
    surfaces: TaskSurfaceService

    def start(self) -> None:
        """Take up durable inbox rows left by an earlier process."""
        self.runner.wake_all_with_work()

    def stop(self) -> None:
        self.runner.stop()
        self.database.dispose()


def _utcnow() -> datetime:
    return datetime.now(UTC)


def build_backend(settings: Settings) -> ModelBackend:
    if settings.model == "scripted":
        return ScriptedBackend()
    raise ValueError(f"model backend {settings.model!r} is not available in this build")


def build_tools(settings: Settings) -> ToolRegistry:
    tools = ToolRegistry()
    if settings.tool_mode in ("native", "both"):
        tools.add(ShowTaskSurface(settings.limits))
    return tools


def build_services(
    settings: Settings, notifier: Notifier, clock: Callable[[], datetime] = _utcnow
) -> Services:
    database = Database(make_engine(settings.database_url))
    try:
        if settings.auto_migrate:
            upgrade_to_head(database.engine)
        else:
            check_schema_current(database.engine)
    except Exception:
        database.dispose()
        raise
    claims = ClaimRegistry()
    journal = OutcomeJournal()
    runner = RunnerPool(
        database, claims, build_backend(settings), build_tools(settings), notifier, [journal], clock
    )
    sessions = SessionService(database, claims, notifier, runner.wake, clock, [journal])
    surfaces = TaskSurfaceService(database, claims, notifier, runner.wake, clock, settings.limits)
    return Services(settings, database, claims, journal, runner, sessions, surfaces)
