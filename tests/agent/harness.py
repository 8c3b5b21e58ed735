"""The real runner over a real database, with doubles only at the edge of the world.

The model backend and the notifier are doubles; the database, the claim registry, the
runner, the session service, the outcome journal and the tools are the real ones.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from tasksurface.agent.claims import ClaimRegistry, Purpose
from tasksurface.agent.intake import Intake
from tasksurface.agent.ports import ModelReply, ToolCallRequest, ToolDefinition
from tasksurface.agent.runner import RunnerPool
from tasksurface.agent.tools import Tool, ToolContext, ToolOutcome, ToolRegistry
from tasksurface.domain.events import SessionEvent, content_text
from tasksurface.domain.ids import SessionId
from tasksurface.services.outcomes import OutcomeJournal
from tasksurface.services.sessions import SessionService
from tasksurface.store import inbox, log
from tasksurface.store.db import Database
from tasksurface.store.records import InboxItem, SessionInfo

from ..support import wait_for

Answer = Callable[[list[SessionEvent]], ModelReply]


def now() -> datetime:
    return datetime.now(UTC)


# -- reading the world ------------------------------------------------------------------


def log_events(database: Database, sid: SessionId) -> list[SessionEvent]:
    with database.read() as db:
        return log.events_after(db, sid, 0)


def kinds(database: Database, sid: SessionId) -> list[str]:
    return [e.kind for e in log_events(database, sid)]


def waiting(database: Database, sid: SessionId) -> list[InboxItem]:
    with database.read() as db:
        return inbox.items(db, sid)


def session_info(database: Database, sid: SessionId) -> SessionInfo:
    with database.read() as db:
        return log.get_session(db, sid)


def text_of(event: SessionEvent) -> str:
    """The readable text of a user message, tool result or assistant message."""
    if event.kind == "assistant/message":
        return str(event.payload["text"])
    return content_text(event.payload.get("content"))


def last_user_text(history: Sequence[SessionEvent]) -> str:
    return text_of([e for e in history if e.kind == "user/message"][-1])


def refusal_code(text: str) -> str:
    """The typed code of a tool refusal text (`error: {"code": …, "message": …}`)."""
    assert text.startswith("error: "), text
    code: str = json.loads(text.removeprefix("error: "))["code"]
    return code


def call(call_id: str, name: str, arguments: str = "{}") -> ToolCallRequest:
    return ToolCallRequest(call_id, name, arguments)


def prose(history: list[SessionEvent]) -> ModelReply:
    """An answer in plain prose that names what it answers."""
    return ModelReply("re: " + last_user_text(history))


# -- doubles ----------------------------------------------------------------------------


@dataclass(frozen=True)
class ModelCall:
    history: list[SessionEvent]
    tool_names: list[str]


class FakeModel:
    """A double of the model backend: answers with `answer(history)`, records every call."""

    def __init__(self, answer: Answer = prose) -> None:
        self.answer = answer
        self.calls: list[ModelCall] = []
        self.max_concurrent = 0
        self._active = 0
        self._lock = threading.Lock()

    def respond(self, history: Sequence[SessionEvent], tools: Sequence[ToolDefinition]) -> ModelReply:
        with self._lock:
            self._active += 1
            self.max_concurrent = max(self.max_concurrent, self._active)
            self.calls.append(ModelCall(list(history), [t.name for t in tools]))
        try:
            return self.answer(list(history))
        finally:
            with self._lock:
                self._active -= 1


@dataclass
class RecordingNotifier:
    """The notifier port; `fail` decides, per call, whether this call raises."""

    calls: list[dict[str, Any]] = field(default_factory=list)
    fail: Callable[[Sequence[SessionEvent], bool], bool] | None = None

    def changed(
        self,
        session_id: SessionId,
        events: Sequence[SessionEvent] = (),
        queue: bool = False,
        reset: bool = False,
    ) -> None:
        self.calls.append(
            {
                "session": session_id,
                "events": list(events),
                "queue": queue,
                "reset": reset,
                "at": time.monotonic(),
            }
        )
        if self.fail is not None and self.fail(events, queue):
            raise RuntimeError("the notifier failed")


@dataclass(frozen=True)
class Executed:
    name: str
    arguments: str
    depth: int


class RecordingTool:
    """A plain test tool: records what it ran, answers `<name> got <arguments>`."""

    asks_user = False

    def __init__(
        self,
        name: str,
        journal: list[Executed],
        *,
        concludes: bool = False,
        raises: Exception | None = None,
        run: Callable[[ToolContext, str], ToolOutcome] | None = None,
    ) -> None:
        self._definition = ToolDefinition(
            name, f"A test tool called {name}.", {"type": "object", "additionalProperties": True}
        )
        self.journal = journal
        self.concludes = concludes
        self.raises = raises
        self.run = run

    @property
    def definition(self) -> ToolDefinition:
        return self._definition

    def execute(self, context: ToolContext, arguments: str) -> ToolOutcome:
        self.journal.append(Executed(self.definition.name, arguments, context.depth))
        if self.raises is not None:
            raise self.raises
        if self.run is not None:
            return self.run(context, arguments)
        return ToolOutcome(True, f"{self.definition.name} got {arguments}", conclude_turn=self.concludes)


class HookedClaims(ClaimRegistry):
    """The real claim registry; `before_claim` runs when a claim is about to be tried (the
    runner has read the queue), `on_claim` right after a claim is won."""

    before_claim: Callable[[str, str], None] | None = None
    on_claim: Callable[[str, str], None] | None = None

    def try_claim(self, item_id: str, purpose: Purpose) -> bool:
        if self.before_claim is not None:
            self.before_claim(item_id, purpose)
        won = super().try_claim(item_id, purpose)
        if won and self.on_claim is not None:
            self.on_claim(item_id, purpose)
        return won


class HookedRunnerPool(RunnerPool):
    """The real pool, with a hook where races happen: after the claim, before admission."""

    before_admit: Callable[[InboxItem], None] | None = None

    def admit(self, session_id: SessionId, item: InboxItem) -> SessionEvent | None:
        if self.before_admit is not None:
            self.before_admit(item)
        return super().admit(session_id, item)


# -- the world --------------------------------------------------------------------------


@dataclass
class World:
    database: Database
    claims: HookedClaims
    journal: OutcomeJournal
    pool: HookedRunnerPool
    sessions: SessionService
    notifier: RecordingNotifier
    model: FakeModel

    def outcomes(self) -> list[tuple[str, str, str]]:
        return [(r.item_id, r.outcome, r.reason) for r in self.journal.records()]

    def settle(self, outcomes: int) -> None:
        """Wait until `outcomes` inbox items have ended and every runner has gone idle."""
        wait_for(lambda: len(self.journal.records()) >= outcomes and self.pool.idle())


@contextmanager
def running(
    database: Database,
    model: FakeModel | None = None,
    tools: Sequence[Tool] = (),
    notifier: RecordingNotifier | None = None,
    clock: Callable[[], datetime] = now,
) -> Iterator[World]:
    """Wire the real claims, runner, session service and journal as the app container does."""
    model = model or FakeModel()
    notifier = notifier or RecordingNotifier()
    claims = HookedClaims(database)
    journal = OutcomeJournal()
    pool = HookedRunnerPool(database, claims, model, ToolRegistry(tools), notifier, [journal], clock)
    sessions = SessionService(database, claims, notifier, pool.wake, Intake(pool), now, [journal])
    try:
        yield World(database, claims, journal, pool, sessions, notifier, model)
    finally:
        pool.stop(5)
