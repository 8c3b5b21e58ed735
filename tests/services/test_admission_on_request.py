"""Input sent to an idle session is admitted on the request's own thread, before it answers;
the turn is a runner thread's, and the request never waits long for the admission."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

import sqlalchemy as sa

from tasksurface.domain.events import SessionEvent
from tasksurface.domain.ids import SessionId, TaskSurfaceSubmissionId
from tasksurface.domain.results import ActiveResult, SubmitAccepted
from tasksurface.domain.submission import initial_values
from tasksurface.services.container import Services
from tasksurface.store import inbox, log
from tasksurface.store.engine import BRIEF_LOCK_WAIT_MS, WRITE_OPTION
from tasksurface.store.records import InboxItem

from ..support import wait_for

HELD_SECONDS = 1.0


def logged_kinds(services: Services, session_id: SessionId) -> list[str]:
    with services.database.read() as db:
        return [e.kind for e in log.events_after(db, session_id, 0)]


def queued_rows(services: Services, session_id: SessionId) -> int:
    with services.database.read() as db:
        return len(inbox.items(db, session_id))


def test_a_message_to_an_idle_session_is_logged_when_its_request_answers(services: Services) -> None:
    session_id = services.sessions.create()
    services.sessions.send(session_id, "hello")
    # No waiting: the request itself admitted it.
    assert logged_kinds(services, session_id)[:1] == ["user/message"]
    assert queued_rows(services, session_id) == 0
    # The turn it starts runs on a runner thread, after the request answered.
    wait_for(lambda: "assistant/message" in logged_kinds(services, session_id))
    assert [r.outcome for r in services.journal.records()] == ["committed"]


def test_a_submission_to_an_idle_session_closes_its_panel_before_the_request_answers(
    services: Services,
) -> None:
    session_id = services.sessions.create()
    services.sessions.send(session_id, "/surface fields")
    surface_id = wait_for(lambda: services.surfaces.state(session_id).active).surface_id
    wait_for(services.runner.idle)
    active = services.surfaces.get_active(session_id, surface_id)
    assert isinstance(active, ActiveResult)
    values = initial_values(active.model) | {"name": "x", "channel": "stable"}
    result = services.surfaces.submit(session_id, surface_id, TaskSurfaceSubmissionId("sub-inline-1"), values)
    assert isinstance(result, SubmitAccepted)
    assert services.surfaces.state(session_id).active is None
    assert logged_kinds(services, session_id).count("user/message") == 2
    wait_for(services.runner.idle)


class LockBeforeAdmission:
    """Wraps the runner's admission: before the first one, another connection takes a lock the
    admission needs and holds it for `HELD_SECONDS`; the admission starts once the lock is held."""

    def __init__(self, services: Services) -> None:
        self.services = services
        self.inner = services.runner.admit
        self.released = threading.Event()
        self._armed = True

    def admit(self, session_id: SessionId, item: InboxItem, *, waits: bool = True) -> SessionEvent | None:
        if self._armed:
            self._armed = False
            held = threading.Event()
            threading.Thread(target=self._hold, args=(held,), daemon=True).start()
            assert held.wait(5)
        return self.inner(session_id, item, waits=waits)

    def _hold(self, held: threading.Event) -> None:
        with self._locked():
            held.set()
            time.sleep(HELD_SECONDS)
        self.released.set()

    @contextmanager
    def _locked(self) -> Iterator[None]:
        """SQLite's write lock (a writer's `BEGIN IMMEDIATE`); on PostgreSQL, the log's table."""
        with self.services.database.engine.connect() as connection:
            connection = connection.execution_options(**{WRITE_OPTION: True})
            with connection.begin():
                if connection.dialect.name == "postgresql":
                    connection.execute(sa.text("LOCK TABLE session_events IN EXCLUSIVE MODE"))
                yield


def test_an_admission_that_would_wait_for_a_lock_is_left_to_the_runner(services: Services) -> None:
    session_id = services.sessions.create()
    locker = LockBeforeAdmission(services)
    services.runner.admit = locker.admit  # type: ignore[method-assign]
    started = time.monotonic()
    services.sessions.send(session_id, "hello")
    answered_after = time.monotonic() - started
    # The request gave up on the lock after a moment and answered while it was still held.
    assert answered_after < HELD_SECONDS - 0.2, answered_after
    assert answered_after >= BRIEF_LOCK_WAIT_MS / 1000
    assert not locker.released.is_set()
    assert "user/message" not in logged_kinds(services, session_id)
    # The runner thread admits it once the lock is let go: one message, one outcome.
    wait_for(lambda: "assistant/message" in logged_kinds(services, session_id))
    assert locker.released.is_set()
    assert logged_kinds(services, session_id).count("user/message") == 1
    assert [r.outcome for r in services.journal.records()] == ["committed"]
    assert queued_rows(services, session_id) == 0


def test_a_failure_of_the_first_look_at_the_queue_leaves_the_input_to_the_runner(
    services: Services,
) -> None:
    session_id = services.sessions.create()
    real_claim_next = services.claims.claim_next
    failures = []

    def failing_once(session: str, take_over: bool) -> object:
        if not failures:
            failures.append(take_over)
            raise RuntimeError("the database went away for a moment")
        return real_claim_next(session, take_over)

    services.claims.claim_next = failing_once  # type: ignore[method-assign]
    services.sessions.send(session_id, "hello")  # accepted all the same
    wait_for(lambda: "assistant/message" in logged_kinds(services, session_id))
    assert failures == [True]
    assert logged_kinds(services, session_id).count("user/message") == 1
    assert [r.outcome for r in services.journal.records()] == ["committed"]
