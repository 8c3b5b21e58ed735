"""The push worker: in order per session, merging what waits, never stopping the committer."""

from __future__ import annotations

import threading
import time

import pytest

from tasksurface.domain.ids import SessionId
from tasksurface.web import push_queue
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
