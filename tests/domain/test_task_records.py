"""What a task shows of itself: progress, snapshots on the wire, the notice payload, the details of
a stop, the cards of the task tools, and the texts under a producer's cap. Shapes written out."""

from __future__ import annotations

import dataclasses
from datetime import UTC, datetime
from typing import get_args

from tasksurface.domain import tasks
from tasksurface.domain.events import SessionEvent
from tasksurface.domain.ids import SessionId, TaskId
from tasksurface.domain.tasks import Progress, TaskRecord, decide_kill, decide_read, notice_payload

AT = datetime(2026, 12, 1, 9, 0, tzinfo=UTC)
LATER = datetime(2026, 12, 1, 9, 5, tzinfo=UTC)
RUNNING = TaskRecord(
    id=TaskId("t_abcdefghijk"),
    session_id=SessionId("s_owner_session"),
    kind="command",
    label="Count to 3",
    status="running",
    detail=None,
    started_at=AT,
    ended_at=None,
    output_mode="stream",
    output_limit=None,
    reported=False,
    cancel_requested=False,
    cancel_reason=None,
    stopped_by=None,
    progress=None,
    version=1,
)
DONE = dataclasses.replace(RUNNING, status="completed", detail="exit status 0", ended_at=LATER)


def test_progress_on_the_wire_has_done_total_and_a_fraction_of_four_places() -> None:
    assert Progress(3, 8).to_wire() == {"done": 3, "total": 8, "fraction": 0.375}
    assert Progress(1, 3).to_wire() == {"done": 1, "total": 3, "fraction": 0.3333}
    assert Progress(40).to_wire() == {"done": 40, "total": None, "fraction": 0.4}
    assert Progress(12, 10).fraction == 1.0
    assert Progress(-1, 10).fraction == 0.0
    assert Progress(5, -10).fraction == 0.0


def test_a_snapshot_on_the_wire_carries_its_times_as_iso_8601() -> None:
    assert DONE.snapshot.to_wire() == {
        "id": "t_abcdefghijk",
        "kind": "command",
        "label": "Count to 3",
        "status": "completed",
        "detail": "exit status 0",
        "startedAt": "2026-12-01T09:00:00+00:00",
        "endedAt": "2026-12-01T09:05:00+00:00",
    }
    assert RUNNING.snapshot.to_wire()["endedAt"] is None


def test_a_read_and_a_kill_are_capped_by_the_producer_limit() -> None:
    capped = dataclasses.replace(RUNNING, output_limit=64)
    read = decide_read(capped, "line\n" * 40, 9)
    assert read.text == "[…]\n" + "line\n" * 8 + "[status: running]"
    assert len(read.text.encode()) <= 64
    long_id = TaskId("t_" + "a" * 62)
    assert decide_kill(dataclasses.replace(capped, id=long_id)).text == (
        "requested cancellation of task t_" + "a" * 26 + "[…]"
    )
    failed = dataclasses.replace(capped, status="failed", detail="f" * 80, ended_at=LATER)
    assert decide_kill(failed).text == "task t_abcdefghijk already finished [status: failed] ffffff[…]"


def test_a_kill_on_the_wire_is_its_outcome_and_the_snapshot() -> None:
    assert decide_kill(RUNNING).to_wire(RUNNING.snapshot) == {
        "outcome": "cancellation-requested",
        "task": RUNNING.snapshot.to_wire(),
    }


def test_the_notice_payload_is_the_parts_and_the_capped_text() -> None:
    failed = dataclasses.replace(DONE, status="failed", detail="d" * 60, output_limit=130)
    payload = notice_payload(failed)
    assert payload == {
        "taskId": "t_abcdefghijk",
        "kind": "command",
        "label": "Count to 3",
        "status": "failed",
        "detail": "d" * 60,
        "text": "background task t_abcdefghijk (command: Count to 3) finished [status: failed] "
        + "d" * 12
        + "[…]"
        ". Read its output with task_output.",
    }
    assert len(payload["text"].encode()) == 130


def test_a_stop_says_who_stopped_the_task_and_why() -> None:
    assert tasks.cancelled_detail("too slow", "user") == "stopped by the user: too slow"
    assert tasks.cancelled_detail(None, "user") == "stopped by the user"
    assert tasks.cancelled_detail("", "user") == "stopped by the user"
    assert tasks.cancelled_detail("superseded", "model") == "cancelled: superseded"
    assert tasks.cancelled_detail(None, "model") == "cancelled"


def test_a_lost_host_is_named_with_how_long_it_was_silent() -> None:
    assert tasks.lost_host_detail("web", 30) == "the host stopped"
    assert tasks.lost_host_detail("celery", 30) == "the worker stopped (no sign of life for 30 s)"
    assert tasks.lost_host_detail("celery", 2.5) == "the worker stopped (no sign of life for 2.5 s)"


def _event(seq: int, kind: str, payload: dict[str, object]) -> SessionEvent:
    return SessionEvent(seq, kind, AT, payload)  # type: ignore[arg-type]


def test_a_delegated_history_starts_with_the_prompt_message_of_a_delegation() -> None:
    prompt = _event(1, "user/message", {"text": "sum up", "source": {"kind": "delegate"}})
    person = _event(1, "user/message", {"text": "hi"})
    assert tasks.is_delegated([prompt])
    assert tasks.is_delegated([prompt, person])
    assert not tasks.is_delegated([])
    assert not tasks.is_delegated([person, prompt])
    assert not tasks.is_delegated([_event(1, "user/message", {"text": "x", "source": {"kind": "panel"}})])
    assert not tasks.is_delegated([_event(1, "user/message", {"text": "x", "source": "delegate"})])
    assert not tasks.is_delegated([_event(1, "agent/message", {"source": {"kind": "delegate"}})])


def test_a_notice_is_read_back_as_its_text_or_nothing() -> None:
    assert tasks.read_notice({"text": "background task t_x finished"}) == "background task t_x finished"
    assert tasks.read_notice({}) == ""
    assert tasks.read_notice({"text": 5}) == ""


def test_a_task_tool_card_is_a_versioned_meta_read_back_only_when_it_is_one() -> None:
    meta = tasks.card_meta("read", {"text": "t"})
    assert meta == {"kind": "dsh/task-control", "version": 1, "card": "read", "value": {"text": "t"}}
    assert tasks.read_card(meta) == ("read", {"text": "t"})
    assert tasks.read_card(tasks.card_meta("execute", None)) == ("execute", None)
    assert tasks.read_card({"kind": "dsh/task-control", "card": "execute"}) == ("execute", None)
    assert tasks.read_card({"kind": "dsh/task-control", "card": "write", "value": 1}) is None
    assert tasks.read_card({"kind": "dsh/other", "card": "read", "value": 1}) is None
    assert tasks.read_card(["dsh/task-control"]) is None
    assert tasks.read_card(None) is None


def test_a_started_task_tells_the_model_its_id_and_how_it_will_hear_of_the_end() -> None:
    assert tasks.started_text(RUNNING.snapshot) == (
        "started background task t_abcdefghijk (command: Count to 3) [status: running]. "
        "You are notified in this session when it finishes; read its output with task_output."
    )
    assert tasks.notice_request_id(TaskId("t_abcdefghijk")) == "notice:t_abcdefghijk"


def test_the_task_vocabulary_is_the_contract_s_word_for_word() -> None:
    assert get_args(tasks.TaskStatus) == ("queued", "running", "completed", "failed", "cancelled")
    assert sorted(tasks.STATUSES) == ["cancelled", "completed", "failed", "queued", "running"]
    assert sorted(tasks.TERMINAL) == ["cancelled", "completed", "failed"]
    assert get_args(tasks.OutputMode) == ("stream", "final")
    assert get_args(tasks.StoppedBy) == ("model", "user")
    assert get_args(tasks.KillOutcome) == ("cancellation-requested", "already-finished")
    assert get_args(tasks.Card) == ("read", "execute")
    assert tasks.CONTROL_TOOLS == ("task_output", "task_list", "task_kill")
    assert tasks.PRODUCER_TOOLS == ("run_command", "delegate_task")
    assert tasks.NOTICE_KIND == "task/notice"


def test_a_task_whose_host_is_lost_fails_with_a_reason_the_model_can_read() -> None:
    assert tasks.HOST_STOPPED == "the host stopped"
    assert tasks.WORKER_STOPPED == "the worker stopped"
