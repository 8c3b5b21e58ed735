"""Wires the store, the agent and the services together for one process."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime

from ..agent.claims import ClaimRegistry, Claims
from ..agent.intake import Intake
from ..agent.ports import ModelBackend, Notifier, ProgressSink
from ..agent.runner import RunnerPool
from ..agent.tools import ToolRegistry
from ..backends.call_tool import CallTool
from ..backends.scripted import ScriptedBackend
from ..config import Settings
from ..store.db import Database
from ..store.engine import check_schema_current, make_engine, upgrade_to_head
from ..tasks.commands import load_commands
from ..tasks.runtime import DELEGATE_OUTPUT_LIMIT
from ..tasks.web import WebTasks, build_web_tasks
from ..tools.ask_user_question import AskUserQuestion
from ..tools.delegate_task import DelegateTask
from ..tools.run_command import RunCommand
from ..tools.show_task_surface import ShowTaskSurface
from ..tools.tasks import TaskKill, TaskList, TaskOutput
from .cluster import Cluster, apply_remote_change, build_cluster, is_shared, resync
from .outcomes import OutcomeJournal
from .panel_actions import PanelActionService
from .questions import QuestionService
from .sessions import SessionService
from .task_surface import TaskSurfaceService
from .webhooks import WebhookDelivery


@dataclass
class Services:
    settings: Settings
    database: Database
    claims: Claims
    journal: OutcomeJournal
    runner: RunnerPool
    sessions: SessionService
    surfaces: TaskSurfaceService
    questions: QuestionService
    actions: PanelActionService
    tasks: WebTasks | None
    cluster: Cluster | None = None
    """Set on PostgreSQL, which several processes may serve at once."""
    webhooks: WebhookDelivery | None = None

    def start(self) -> None:
        """Take up durable inbox rows and half-done turns left by an earlier process."""
        if self.tasks is not None:
            self.tasks.start()
        if self.cluster is not None:
            self.cluster.start(self.runner.wake_all_with_work)
        if self.webhooks is not None:
            self.webhooks.start()
        self.runner.wake_all_with_work()

    def stop(self) -> None:
        if self.tasks is not None:
            self.tasks.stop_waits()
        if self.cluster is not None:
            self.cluster.stop()
        self.runner.stop()
        if self.tasks is not None:
            self.tasks.stop()
        if self.cluster is not None:
            self.cluster.close()
        if self.webhooks is not None:
            self.webhooks.stop()
        self.database.dispose()


def _utcnow() -> datetime:
    return datetime.now(UTC)


def build_backend(settings: Settings) -> ModelBackend:
    if settings.model == "scripted":
        return ScriptedBackend(settings.scripted_pause)
    if settings.model == "openai":
        if not settings.openai_model:
            raise ValueError("TASKSURFACE_MODEL=openai needs TASKSURFACE_OPENAI_MODEL (the model name)")
        if settings.openai_api_key is None:
            raise ValueError(
                "TASKSURFACE_MODEL=openai needs OPENAI_API_KEY; "
                "for a local server that checks none, any value will do"
            )
        # Loaded only here: the OpenAI client library takes about a third of a second to import,
        # which every start with the scripted model (the demo, the tests) would pay for nothing.
        from ..backends.openai_chat import OpenAIChatBackend, OpenAIChatConfig

        return OpenAIChatBackend(
            OpenAIChatConfig(
                model=settings.openai_model,
                api_key=settings.openai_api_key.get_secret_value(),
                base_url=settings.openai_base_url,
                timeout=settings.model_timeout,
                max_retries=settings.model_max_retries,
            )
        )
    raise ValueError(f"model backend {settings.model!r} is not available in this build")


def build_tools(settings: Settings, tasks: WebTasks | None = None) -> ToolRegistry:
    """`native`: the tools themselves; `code`: only the dispatcher; `both`: the tools and the dispatcher.

    `show_task_surface` and `ask_user_question` need a direct call (the panel's presentation
    metadata and the question live in the log as the model's own call, which a nested dispatch
    does not have), so `code` mode leaves them out altogether.
    """
    tools = ToolRegistry()
    if settings.tool_mode in ("native", "both"):
        tools.add(AskUserQuestion())
    if settings.task_surface and settings.tool_mode in ("native", "both"):
        tools.add(ShowTaskSurface(settings.limits))
    if settings.tool_mode in ("code", "both"):
        tools.add(CallTool())
    if tasks is not None and settings.tool_mode in ("native", "both"):
        for tool in (
            TaskOutput(tasks.service),
            TaskList(tasks.service),
            TaskKill(tasks.service),
            RunCommand(tasks.service, tasks.declared.commands),
            DelegateTask(tasks.service, DELEGATE_OUTPUT_LIMIT),
        ):
            tools.add(tool)
    return tools


def build_services(
    settings: Settings, notifier: Notifier, clock: Callable[[], datetime] = _utcnow
) -> Services:
    backend = build_backend(settings)  # a configuration mistake stops the start before any I/O
    declared = load_commands(settings.commands_file) if settings.tasks != "off" else None
    database = Database(make_engine(settings.database_url), reporting=settings.webhook_url is not None)
    try:
        if settings.auto_migrate:
            upgrade_to_head(database.engine)
        else:
            check_schema_current(database.engine)
    except Exception:
        database.dispose()
        raise
    claims: Claims = ClaimRegistry(database)
    cluster = None
    if is_shared(database):
        local = notifier
        cluster = build_cluster(
            database,
            local,
            lambda change: apply_remote_change(local, runner, change),
            lambda: resync(local, runner),
        )
        notifier, claims = cluster.notifier, cluster.claims
    journal = OutcomeJournal()
    # A notifier that can also show work in progress (the push hub) gets the streamed text.
    progress = notifier if isinstance(notifier, ProgressSink) else None
    tasks = None
    if settings.tasks != "off":
        tasks = build_web_tasks(
            settings, database, backend, notifier, lambda s: runner.wake(s), clock, declared
        )
    runner = RunnerPool(
        database,
        claims,
        backend,
        build_tools(settings, tasks),
        notifier,
        [journal],
        clock,
        progress,
        cluster.leases if cluster else None,
    )
    if tasks is not None:
        runner.context_sources.append(tasks.service.deliver_notices)
    # Services that accept input log it in their own transaction when the session is idle.
    intake = Intake(runner)
    sessions = SessionService(database, claims, notifier, runner.wake, intake, clock, [journal])
    surfaces = TaskSurfaceService(
        database,
        claims,
        notifier,
        intake,
        clock,
        settings.limits,
        enabled=settings.task_surface,
    )
    questions = QuestionService(database, notifier, runner.wake, clock)
    actions = PanelActionService(surfaces, database, claims, notifier, intake, clock, (journal,))
    return Services(
        settings,
        database,
        claims,
        journal,
        runner,
        sessions,
        surfaces,
        questions,
        actions,
        tasks,
        cluster,
        build_webhooks(settings, database, clock),
    )


def build_webhooks(
    settings: Settings, database: Database, clock: Callable[[], datetime]
) -> WebhookDelivery | None:
    if settings.webhook_url is None or settings.webhook_secret is None:
        return None
    secret = settings.webhook_secret.get_secret_value()
    return WebhookDelivery(database, settings.webhook_url, secret, clock, settings.webhook_max_backoff)
