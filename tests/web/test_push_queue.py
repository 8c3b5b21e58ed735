"""The push worker: in order per session, merging what waits, never stopping the committer."""

from __future__ import annotations

import threading
import time
from datetime import UTC, datetime

import pytest

from tasksurface.domain.events import SessionEvent
from tasksurface.domain.ids import SessionId
from tasksurface.web import push, push_queue
from tasksurface.web.push_queue import PushQueue

A, B = SessionId("s_a"), SessionId("s_b")


class Recorder:
    """Delivers changes slowly while `gate` is closed, so news can pile up behind it."""

    def __init__(self) -> None:
        self.seen: list[tuple[str, ...]] = []
        self.gate = threading.Event()
        self.gate.set()
        self.started = threading.Event()

    def change(self, session_id: SessionId, queue: bool, reset: bool) -> None:
        self.started.set()
        self.gate.wait(5)
        self.seen.append(("change", session_id, str(queue), str(reset)))

    def call(self, label: str) -> None:
        self.seen.append(("call", label))


def test_a_change_is_delivered_off_the_caller_thread_and_the_caller_does_not_wait() -> None:
    recorder = Recorder()
    recorder.gate.clear()
    pushes = PushQueue(recorder.change)
    started = time.perf_counter()
    pushes.change(A, queue=True)
    assert recorder.started.wait(5)
    assert time.perf_counter() - started < 1  # the delivery is still held at the gate
    assert recorder.seen == []
    recorder.gate.set()
    assert pushes.flush()
    assert recorder.seen == [("change", A, "True", "False")]


def test_changes_that_wait_side_by_side_become_one_and_keep_every_flag() -> None:
    recorder = Recorder()
    recorder.gate.clear()
    pushes = PushQueue(recorder.change)
    pushes.change(B)  # keeps the worker busy while A's news piles up
    assert recorder.started.wait(5)
    pushes.change(A)
    pushes.change(A, queue=True)
    pushes.change(A, reset=True)
    recorder.gate.set()
    assert pushes.flush()
    assert recorder.seen == [("change", B, "False", "False"), ("change", A, "True", "True")]


def test_nothing_overtakes_what_was_asked_for_before_it_and_newer_text_replaces_waiting_text() -> None:
    recorder = Recorder()
    recorder.gate.clear()
    pushes = PushQueue(recorder.change)
    pushes.change(B)
    assert recorder.started.wait(5)
    pushes.change(A)
    pushes.call(A, lambda: recorder.call("partial 1"), "partial")
    pushes.call(A, lambda: recorder.call("partial 2"), "partial")
    pushes.change(A, queue=True)  # after the text: it must not merge with the change before it
    pushes.call(A, lambda: recorder.call("tray"))
    pushes.call(A, lambda: recorder.call("tray again"))  # no key: both run
    recorder.gate.set()
    assert pushes.flush()
    assert recorder.seen[1:] == [
        ("change", A, "False", "False"),
        ("call", "partial 2"),
        ("change", A, "True", "False"),
        ("call", "tray"),
        ("call", "tray again"),
    ]


def test_a_failing_delivery_is_logged_and_the_next_one_still_runs(caplog: pytest.LogCaptureFixture) -> None:
    delivered: list[SessionId] = []

    def deliver(session_id: SessionId, queue: bool, reset: bool) -> None:
        if session_id == A:
            raise RuntimeError("a subscriber broke")
        delivered.append(session_id)

    pushes = PushQueue(deliver)
    pushes.change(A)
    pushes.change(B)
    assert pushes.flush()
    assert delivered == [B]
    assert "pushing to the subscribers of session s_a failed" in caplog.text


def test_an_idle_worker_ends_and_the_next_push_starts_another(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(push_queue, "LINGER_SECONDS", 0.05)
    recorder = Recorder()
    pushes = PushQueue(recorder.change)
    pushes.change(A)
    assert pushes.flush()
    deadline = time.monotonic() + 5
    while pushes._worker is not None and time.monotonic() < deadline:
        time.sleep(0.01)
    assert pushes._worker is None
    pushes.change(B)
    assert pushes.flush()
    assert [s[1] for s in recorder.seen] == [A, B]


def test_a_held_change_waits_its_hold_and_a_later_one_that_is_not_held_brings_both_at_once() -> None:
    recorder = Recorder()
    pushes = PushQueue(recorder.change)
    started = time.monotonic()
    pushes.change(A, queue=True, hold=0.3)
    time.sleep(0.05)
    assert recorder.seen == []  # still held
    pushes.change(A)  # the commit that follows: due now, and the held news goes with it
    assert pushes.flush()
    assert time.monotonic() - started < 0.25
    assert recorder.seen == [("change", A, "True", "False")]


def test_a_held_change_goes_out_when_its_hold_ends_and_holds_no_other_session() -> None:
    recorder = Recorder()
    pushes = PushQueue(recorder.change)
    started = time.monotonic()
    pushes.change(A, hold=0.2)
    pushes.change(B)
    deadline = time.monotonic() + 5
    while len(recorder.seen) < 2 and time.monotonic() < deadline:
        time.sleep(0.01)
    assert recorder.seen == [("change", B, "False", "False"), ("change", A, "False", "False")]
    assert time.monotonic() - started >= 0.2


def test_a_call_is_never_held_and_takes_the_held_change_before_it_along() -> None:
    recorder = Recorder()
    pushes = PushQueue(recorder.change)
    started = time.monotonic()
    pushes.change(A, hold=5.0)
    pushes.call(A, lambda: recorder.call("partial"), key="partial")
    assert pushes.flush()
    assert time.monotonic() - started < 1
    assert recorder.seen == [("change", A, "False", "False"), ("call", "partial")]


@pytest.mark.parametrize(
    ("kinds", "reset", "hold"),
    [
        ((), False, push.QUIET_CHANGE_HOLD),  # a row queued, a claim taken: the admission follows
        (("user/message",), False, push.TURN_START_HOLD),  # the turn's first words follow
        (("tool/result", "user/message"), False, push.TURN_START_HOLD),
        (("assistant/message",), False, 0.0),
        (("user/message", "assistant/message"), False, 0.0),
        (("task-surface/dismissed",), False, 0.0),
        ((), True, 0.0),  # a rewind: the page reloads at once
    ],
)
def test_what_a_change_may_wait_for(kinds: tuple[str, ...], reset: bool, hold: float) -> None:
    at = datetime.now(UTC)
    events = [SessionEvent(seq, kind, at, {}) for seq, kind in enumerate(kinds, start=1)]  # type: ignore[arg-type]
    assert push.hold_for(events, reset) == hold
