"""Threads that wait a while after their job for the next one, so a job seldom starts a thread.

A runner serves a session until its queue is empty; the next submission to any session would
start a thread again, and starting one costs a tenth of a millisecond and a hand-over of the
interpreter before the request that woke it can answer. A thread that finished its job waits
here instead (`PARKED_SECONDS`, at most `MAX_PARKED` of them) and takes the next job. Unlike a
fixed pool, a job never waits for a thread: with none waiting, a new one starts.
"""

from __future__ import annotations

import threading
import time
from collections import deque
from collections.abc import Callable

PARKED_SECONDS = 60.0
"""How long a thread that finished its job waits for another before it ends."""
MAX_PARKED = 16
"""Threads kept waiting at most; another one ends as soon as its job is done."""

Job = Callable[[], None]


class ParkingThreads:
    def __init__(
        self, name: str, max_parked: int = MAX_PARKED, parked_seconds: float = PARKED_SECONDS
    ) -> None:
        self._name = name
        self._max_parked = max_parked
        self._parked_seconds = parked_seconds
        self._cond = threading.Condition()
        self._jobs: deque[Job] = deque()
        self._parked = 0
        self._threads: set[threading.Thread] = set()
        self._stopping = False

    def run(self, job: Job) -> bool:
        """Run `job` on a waiting thread, or on a new one when none waits for it; `False` when
        stopping (the job is dropped)."""
        with self._cond:
            if self._stopping:
                return False
            if self._parked > len(self._jobs):
                self._jobs.append(job)
                self._cond.notify()
                return True
            # Started before the lock is let go: a stop that lists the thread can join it.
            thread = threading.Thread(target=self._work, args=(job,), name=self._name, daemon=True)
            self._threads.add(thread)
            thread.start()
        return True

    def parked(self) -> int:
        with self._cond:
            return self._parked

    def stop(self, timeout: float) -> None:
        """Jobs not yet taken are dropped; waiting threads end; running jobs get `timeout` to end."""
        with self._cond:
            self._stopping = True
            self._jobs.clear()
            self._cond.notify_all()
            threads = list(self._threads)
        for thread in threads:
            if thread is not threading.current_thread():
                thread.join(timeout)

    def _work(self, job: Job | None) -> None:
        try:
            while job is not None:
                job()
                job = self._next_job()
        finally:
            with self._cond:
                self._threads.discard(threading.current_thread())

    def _next_job(self) -> Job | None:
        with self._cond:
            if self._parked >= self._max_parked:
                return None
            self._parked += 1
            try:
                until = time.monotonic() + self._parked_seconds
                while not self._jobs and not self._stopping:
                    left = until - time.monotonic()
                    if left <= 0:
                        return None
                    self._cond.wait(left)
                return None if self._stopping else self._jobs.popleft()
            finally:
                self._parked -= 1
