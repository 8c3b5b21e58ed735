"""Threads that finished a job wait for the next one; a job never waits for a thread."""

from __future__ import annotations

import threading
import time

import pytest

from tasksurface.agent.parking import ParkingThreads

from ..support import wait_for


def test_a_job_after_a_finished_one_runs_on_the_thread_that_waited() -> None:
    threads = ParkingThreads("test")
    ran: list[threading.Thread] = []
    try:
        threads.run(lambda: ran.append(threading.current_thread()))
        wait_for(lambda: threads.parked() == 1)
        threads.run(lambda: ran.append(threading.current_thread()))
        wait_for(lambda: len(ran) == 2)
        assert ran[0] is ran[1]
    finally:
        threads.stop(5)


def test_a_job_never_waits_for_a_busy_thread() -> None:
    threads = ParkingThreads("test")
    release = threading.Event()
    started: list[threading.Thread] = []

    def busy() -> None:
        started.append(threading.current_thread())
        release.wait(5)

    try:
        threads.run(busy)
        wait_for(lambda: len(started) == 1)
        threads.run(lambda: started.append(threading.current_thread()))
        wait_for(lambda: len(started) == 2)  # while the first still runs
        assert started[0] is not started[1]
    finally:
        release.set()
        threads.stop(5)


def test_a_waiting_thread_ends_after_a_while_and_only_so_many_wait() -> None:
    threads = ParkingThreads("test", max_parked=1, parked_seconds=0.2)
    release = threading.Event()

    def wait() -> None:
        release.wait(5)

    try:
        for _ in range(2):  # two at once: two threads
            threads.run(wait)
        release.set()
        wait_for(lambda: threads.parked() == 1)  # one waits, the other ended
        wait_for(lambda: threads.parked() == 0)  # and the one that waited ends too
        assert not [t for t in threading.enumerate() if t.name == "test"]
    finally:
        threads.stop(5)


def test_a_stop_ends_the_waiting_threads_and_takes_no_more_jobs() -> None:
    threads = ParkingThreads("test")
    threads.run(lambda: None)
    wait_for(lambda: threads.parked() == 1)
    threads.stop(5)
    assert threads.parked() == 0
    ran: list[int] = []
    assert threads.run(lambda: ran.append(1)) is False  # dropped, and the caller is told so
    assert ran == []
    assert not [t for t in threading.enumerate() if t.name == "test" and t.is_alive()]


def test_a_stop_while_a_new_thread_starts_waits_for_its_start(monkeypatch: pytest.MonkeyPatch) -> None:
    """A stop that comes between a new thread's making and its start joins a started thread."""
    starting = threading.Event()
    original = threading.Thread

    class SlowToStart(original):  # type: ignore[misc, valid-type]
        def start(self) -> None:
            starting.set()
            time.sleep(0.2)  # the stop comes now
            super().start()

    threads = ParkingThreads("test")
    monkeypatch.setattr(threading, "Thread", SlowToStart)  # the module parking starts its threads from
    ran = threading.Event()
    asking = original(target=threads.run, args=(ran.set,))
    asking.start()
    assert starting.wait(5)
    monkeypatch.setattr(threading, "Thread", original)
    threads.stop(5)  # before: "cannot join thread before it is started"
    asking.join(5)
    assert ran.is_set()
