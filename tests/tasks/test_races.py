"""Each completion is noticed at most once, whatever finishes, reads, kills and notices race."""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path

import pytest

from tasksurface.domain.ids import SessionId, TaskId
from tasksurface.domain.task_text import NO_NEW_OUTPUT
from tasksurface.domain.tasks import NOTICE_KIND
from tasksurface.services.container import Services
from tasksurface.services.tasks import TaskService
from tasksurface.store import log
from tasksurface.store import tasks as task_rows

from ..support import wait_for
from .helpers import release

ROUNDS = 4


def _service(services: Services) -> TaskService:
    assert services.tasks is not None
    return services.tasks.service


def _start(services: Services, folder: Path) -> tuple[SessionId, TaskId]:
    sid = services.sessions.create(owner="anon:racer")
    spec = {"command": "steps", "values": {"folder": str(folder), "steps": "go"}}
    task = _service(services).start(sid, None, "command", "race", spec, "stream", None)
    wait_for(lambda: "go" in _service(services).view(sid, task.id).tail)
    return sid, task.id


def _race(*actions: Callable[[], None]) -> None:
    barrier = threading.Barrier(len(actions))
    errors: list[BaseException] = []

    def run(action: Callable[[], None]) -> None:
        barrier.wait()
        try:
            action()
        except BaseException as exc:  # surfaced below, in the test's thread
            errors.append(exc)

    threads = [threading.Thread(target=run, args=(a,)) for a in actions]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert not errors, errors


def _notices(services: Services, sid: SessionId) -> int:
    with services.database.read() as db:
        return sum(1 for e in log.events_after(db, sid, 0) if e.kind == NOTICE_KIND)


def _deliver_until_reported(services: Services, sid: SessionId, task_id: TaskId) -> Callable[[], None]:
    def deliver() -> None:
        while True:
            _service(services).deliver_notices(sid)
            with services.database.read() as db:
                found = task_rows.get(db, task_id)
            if found is not None and found.reported:
                return

    return deliver


@pytest.mark.parametrize("round_", range(ROUNDS))
def test_a_finish_a_terminal_read_and_two_notice_writers_notice_at_most_once(
    services: Services, tmp_path: Path, round_: int
) -> None:
    sid, task_id = _start(services, tmp_path)
    terminal_reads: list[str] = []

    def read_until_terminal() -> None:
        while True:
            text, snapshot = _service(services).read(sid, task_id, False, None)
            if snapshot.status == "completed":
                terminal_reads.append(text)
                return

    deliver = _deliver_until_reported(services, sid, task_id)
    _race(lambda: release(tmp_path), read_until_terminal, deliver, deliver)
    noticed = _notices(services, sid)
    assert noticed in (0, 1)
    # The first terminal read either came before the notice (no notice) or after it.
    assert terminal_reads and terminal_reads[0].endswith("[status: completed] exit status 0")
    if noticed == 0:
        assert terminal_reads[0] != NO_NEW_OUTPUT  # it handed over the end of the output itself


@pytest.mark.parametrize("round_", range(ROUNDS))
def test_a_kill_racing_the_finish_and_the_notice_writers_suppresses_the_notice(
    services: Services, tmp_path: Path, round_: int
) -> None:
    sid, task_id = _start(services, tmp_path)
    outcomes: list[str] = []

    def kill() -> None:
        decision, _snapshot, _limit = _service(services).kill(sid, task_id, "race", "model")
        outcomes.append(decision.outcome)

    deliver = _deliver_until_reported(services, sid, task_id)
    _race(lambda: release(tmp_path), kill, deliver, deliver)
    wait_for(lambda: _service(services).view(sid, task_id).snapshot.ended_at)
    _service(services).deliver_notices(sid)
    # A kill that won reports the end; one that lost found it finished and reported it too,
    # unless a notice writer had already got there: never both, never two notices.
    assert outcomes and outcomes[0] in ("cancellation-requested", "already-finished")
    noticed = _notices(services, sid)
    assert noticed in (0, 1)
    if outcomes[0] == "cancellation-requested":
        assert noticed == 0
