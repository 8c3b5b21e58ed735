"""Where one accepted submission's time goes, step by step, on SQLite or PostgreSQL.

    .venv/bin/python bench/trace_submission.py [--database sqlite|postgres] [--runs 20]

Runs the submission of `bench_task_surface.py` (HTTP submit → durable `user/message`, logged by
the request's own transaction when the session is idle) and notes, on one clock, every statement
the app's engines send and when it returned, every commit, the lease and the moment the message was
durable. It
prints one traced submission in full, then the median of each step over `--runs` submissions, so
a change to the hot path can be weighed step by step and not only as a total.
"""

from __future__ import annotations

import argparse
import itertools
import statistics
import sys
import threading
import time
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from flask.testing import FlaskClient

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_task_surface import bench_app, bench_submission

SENT = "> the submit request, to its first statement"
STATEMENTS = (
    ("SELECT sessions.", "read the session"),
    ("SELECT (SELECT session_events.seq", "what already answers it"),
    ("WITH new_position", "enqueue"),
    ("INSERT INTO inbox_items", "enqueue"),
    ("WITH next_free", "look at the queue (claims the row)"),
    ("UPDATE inbox_items", "look at the queue (claims the row)"),
    ("DELETE FROM inbox_items", "take the row"),
    ("WITH advanced", "append and advance"),
    ("INSERT INTO session_events", "append"),
    ("UPDATE sessions", "update the session's row"),
    ("SELECT inbox_items.", "read the queue"),
)


def step_name(statement: str) -> str:
    flat = " ".join(statement.split())
    return next((name for prefix, name in STATEMENTS if flat.startswith(prefix)), flat[:48])


class Timeline:
    """What happened during the traced submissions, on `time.perf_counter`'s clock."""

    def __init__(self) -> None:
        self.on = False
        self.marks: list[tuple[float, str, str]] = []
        self._lock = threading.Lock()

    def mark(self, what: str) -> None:
        """Notes `what` for the request's thread (the bench's own) and the runner's; the other
        threads of the process (the tasks' watcher, the sweeper) are not on the submission's way."""
        if not self.on:
            return
        thread = threading.current_thread()
        if thread is threading.main_thread():
            who = "request"
        elif thread.name.startswith("runner"):
            who = "runner"
        else:
            return
        with self._lock:
            self.marks.append((time.perf_counter(), who, what))

    def listen(self) -> None:
        """Every engine of the process: the app's, and the one its claims use on PostgreSQL."""
        sa.event.listen(sa.engine.Engine, "before_cursor_execute", self._before)
        sa.event.listen(sa.engine.Engine, "after_cursor_execute", self._after)
        sa.event.listen(sa.engine.Engine, "commit", self._commit)

    def stop_listening(self) -> None:
        sa.event.remove(sa.engine.Engine, "before_cursor_execute", self._before)
        sa.event.remove(sa.engine.Engine, "after_cursor_execute", self._after)
        sa.event.remove(sa.engine.Engine, "commit", self._commit)

    def _commit(self, _connection: Any) -> None:
        self.mark("> commit (and what follows it)")

    def _before(self, _c: Any, _cursor: Any, statement: str, *_: Any) -> None:
        self.mark("> " + step_name(statement))

    def _after(self, _c: Any, _cursor: Any, statement: str, *_: Any) -> None:
        self.mark("< " + step_name(statement))


def wrapped(timeline: Timeline, label: str, call: Callable[..., Any]) -> Callable[..., Any]:
    def noted(*args: Any, **kwargs: Any) -> Any:
        timeline.mark("> " + label)
        try:
            return call(*args, **kwargs)
        finally:
            timeline.mark("< " + label)

    return noted


def submissions(marks: list[tuple[float, str, str]]) -> list[list[tuple[float, str, str]]]:
    """The marks cut into one list per submission: from its POST to its admission's durability."""
    runs: list[list[tuple[float, str, str]]] = []
    current: list[tuple[float, str, str]] | None = None
    for mark in marks:
        if mark[2] == SENT:
            current = [mark]
        elif current is not None:
            current.append(mark)
            if mark[2] == "durable":
                runs.append(current)
                current = None
    return runs


def spans(run: list[tuple[float, str, str]]) -> list[tuple[str, float]]:
    """(step, ms) in order: each interval between two marks, named by what it was spent on."""
    named = []
    for (start, who, what), (end, next_who, following) in itertools.pairwise(run):
        if who != next_who:
            step = f"the {who}'s thread to the {next_who}'s"
        elif what.startswith("> "):
            step = what[2:]
        elif following.startswith("> "):
            step = f"python before '{following[2:]}'"
        else:
            step = f"python after '{what.removeprefix('< ')}'"
        named.append((f"{who}: {step}", (end - start) * 1e3))
    return named


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--database", choices=("sqlite", "postgres"), default="sqlite")
    parser.add_argument("--runs", type=int, default=20)
    args = parser.parse_args()
    timeline = Timeline()
    with bench_app(args.database) as (services, app):
        leases = services.runner.leases
        leases.acquire = wrapped(timeline, "lease", leases.acquire)  # type: ignore[method-assign]
        original_post = FlaskClient.post

        def post(client: FlaskClient, url: str, *args: Any, **kwargs: Any) -> Any:
            if url.endswith("/submit"):
                timeline.mark(SENT)
            response = original_post(client, url, *args, **kwargs)
            if url.endswith("/submit"):
                timeline.mark("< the submit request returned")
            return response

        FlaskClient.post = post  # type: ignore[method-assign,assignment]
        durable = DurableMark(timeline)
        services.runner.observers.insert(0, durable)
        timeline.listen()
        try:
            bench_submission(services, app, 3, shown=True)  # warm, untraced
            timeline.on = True
            bench_submission(services, app, args.runs, shown=True)
        finally:
            timeline.on = False
            timeline.stop_listening()
            FlaskClient.post = original_post  # type: ignore[method-assign]
    traced = submissions(timeline.marks)
    report(traced, args.database)


class DurableMark:
    """An inbox observer: the admission of a submitted message has committed."""

    def __init__(self, timeline: Timeline) -> None:
        self.timeline = timeline

    def outcome(self, _item: Any, outcome: str, _reason: str) -> None:
        if outcome == "committed":
            self.timeline.mark("durable")


def report(traced: list[list[tuple[float, str, str]]], database: str) -> None:
    if not traced:
        raise SystemExit("no submission was traced")
    totals = [(run[-1][0] - run[0][0]) * 1e3 for run in traced]
    middle = traced[sorted(range(len(totals)), key=totals.__getitem__)[len(totals) // 2]]
    print(f"== {database}: one submission near the median ({(middle[-1][0] - middle[0][0]) * 1e3:.2f} ms)")
    start = middle[0][0]
    for at, who, what in middle:
        print(f"{(at - start) * 1e3:7.2f} ms  {who:<8} {what}")
    steps: dict[str, list[float]] = defaultdict(lambda: [0.0] * len(traced))
    for index, run in enumerate(traced):
        for step, ms in spans(run):
            steps[step][index] += ms
    medians = {step: statistics.median(values) for step, values in steps.items()}
    total = statistics.median(totals)
    print(f"\n== median of each step over {len(traced)} submissions (total {total:.2f} ms)")
    for step, ms in sorted(medians.items(), key=lambda item: -item[1]):
        if ms > 0:
            print(f"{ms:7.3f} ms  {step}")


if __name__ == "__main__":
    main()
