"""Task Surface benchmarks: log-size independence (get_active, the first page render, a model
step's history) and the cost of one submission."""

from __future__ import annotations

import argparse
import contextlib
import functools
import json
import os
import secrets
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from flask import Flask, Response, jsonify, request

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tasksurface.agent.histories import Histories
from tasksurface.agent.ports import Outcome
from tasksurface.backends.demos import DEMOS
from tasksurface.domain.events import NewEvent, tool_result
from tasksurface.domain.ids import CallId, SessionId, TaskSurfaceId
from tasksurface.domain.parser import parse_model
from tasksurface.domain.presentation import presentation_meta
from tasksurface.services.container import Services
from tasksurface.store import log
from tasksurface.store.engine import normalise_url
from tasksurface.store.records import InboxItem
from tasksurface.store.tables import EventRow, SessionRow
from tasksurface.web.factory import create_app

MODEL = parse_model(DEMOS["fields"])
VALUES = {
    "name": "1.0",
    "notes": "",
    "channel": "stable",
    "platforms": ["linux"],
    "announce": False,
    "rollout": ["eu", "us", "asia"],
}


def median_seconds(action: Callable[[], object], runs: int) -> float:
    action()  # warm caches and connections
    samples = []
    for _ in range(runs):
        start = time.perf_counter()
        action()
        samples.append(time.perf_counter() - start)
    return statistics.median(samples)


def paired_medians(
    first: Callable[[], object], second: Callable[[], object], runs: int
) -> tuple[float, float]:
    """Alternate the two so drift on a busy machine hits both alike."""
    first(), second()
    a: list[float] = []
    b: list[float] = []
    for _ in range(runs):
        for action, samples in ((first, a), (second, b)):
            start = time.perf_counter()
            action()
            samples.append(time.perf_counter() - start)
    return statistics.median(a), statistics.median(b)


def open_surface(services: Services, session_id: SessionId) -> TaskSurfaceId:
    surface_id = TaskSurfaceId("ts_" + secrets.token_urlsafe(12))
    call_id = CallId("call_" + secrets.token_urlsafe(12))
    meta = presentation_meta(surface_id, MODEL)
    with services.database.write() as db:
        log.append(
            db,
            session_id,
            NewEvent("tool/result", tool_result(call_id, "show_task_surface", True, "shown", meta)),
            datetime.now(UTC),
        )
    return surface_id


def fill_log(services: Services, session_id: SessionId, count: int) -> None:
    """Bulk-load `count` ordinary events (setup only; not what is measured)."""
    at = datetime.now(UTC)
    rows = [
        {
            "session_id": session_id,
            "seq": seq,
            "kind": "assistant/message",
            "at": at,
            "payload": {"text": f"filler message {seq} " + "lorem ipsum " * 8},
        }
        for seq in range(1, count + 1)
    ]
    with services.database.write() as db:
        for start in range(0, len(rows), 5000):
            db.execute(sa.insert(EventRow), rows[start : start + 5000])
        db.execute(sa.update(SessionRow).where(SessionRow.id == session_id).values(head_seq=count))


def bench_log_size(services: Services, app: Any, runs: int) -> list[tuple[str, float, float]]:
    client = app.test_client()
    sessions: dict[int, tuple[SessionId, TaskSurfaceId]] = {}
    for size in (100, 100_000):
        session_id = SessionId(
            client.post("/api/sessions", json={"title": f"bench {size}"}).json["sessionId"]
        )
        fill_log(services, session_id, size - 1)
        sessions[size] = (session_id, open_surface(services, session_id))
    if services.database.engine.dialect.name == "postgresql":
        with services.database.engine.begin() as connection:
            connection.exec_driver_sql("ANALYZE")  # as autovacuum would after a bulk load
    results = []

    histories = Histories()

    def model_history(session_id: SessionId, _: TaskSurfaceId) -> object:
        """What a turn's model step reads: the runner keeps it and reads only what is new. The
        copy is the bench's own: the runner, finishing the turn these logs leave open, reads its
        own at the same time, and a copy shared by two readers is read whole by the second."""
        with services.database.read() as db:
            return histories.read(db, session_id)

    actions: list[tuple[str, Callable[[SessionId, TaskSurfaceId], object]]] = [
        ("get_active", services.surfaces.get_active),
        ("first page render", lambda s, _: client.get(f"/sessions/{s}")),
        ("model's history", model_history),
    ]
    for label, action in actions:
        small, large = paired_medians(
            functools.partial(action, *sessions[100]), functools.partial(action, *sessions[100_000]), runs
        )
        results.append((label, small, large))
    return results


def floor_app(engine: sa.Engine) -> tuple[Flask, Callable[[], None]]:
    """The floor of this stack: a bare Flask route that does one insert and commit of a row as
    large as a submission on the same database, through the app's own engine (its pool and, on
    SQLite, its journal settings), with the same JSON body and test client."""
    table = sa.Table(
        "bench_rows", sa.MetaData(), sa.Column("id", sa.Integer, primary_key=True), sa.Column("body", sa.Text)
    )
    table.metadata.create_all(engine)
    floor = Flask("floor")

    @floor.post("/floor")
    def insert_one() -> Response:
        with engine.begin() as connection:
            connection.execute(sa.insert(table).values(body=json.dumps(request.get_json())))
        return jsonify(accepted=True)

    def close() -> None:
        table.metadata.drop_all(engine)

    return floor, close


class Durable:
    """An inbox observer that notes when each admitted message became durable."""

    def __init__(self) -> None:
        self.at: dict[str, float] = {}
        self.landed = threading.Event()

    def outcome(self, item: InboxItem, outcome: Outcome, reason: str) -> None:
        if outcome == "committed":
            self.at[item.message_id] = time.perf_counter()
            self.landed.set()


def bench_submission(services: Services, app: Any, runs: int, shown: bool) -> tuple[float, float]:
    """One accepted submission, HTTP submit → durable `user/message`, alternated with a call of the
    floor route. The whole way is timed as it runs in service: the session being idle, the request
    reserves it (its serving slot and lease) and logs the message in its own transaction
    (`agent/intake.py`); the clock stops when both the response is back and the message is
    durable, whichever comes later. The agent's turn that follows, on a runner thread, is not
    timed, and each call waits for the runner to be idle again.

    `shown`: the panel has been shown by this process before it is answered, as it is when the
    person's page reads it or its push is built here; the process then keeps the panel's checked
    model. Without it, the submission is the first this process hears of the panel (another
    process showed it), and it reads and checks the logged model again."""
    client = app.test_client()
    session_id = SessionId(client.post("/api/sessions", json={"title": "bench submit"}).json["sessionId"])
    floor, close_floor = floor_app(services.database.engine)
    floor_client = floor.test_client()
    durable = Durable()
    services.runner.observers.insert(0, durable)  # first: the commit, not the bookkeeping after it

    def settle() -> None:
        while not services.runner.idle():
            time.sleep(0.0005)

    def prelude() -> TaskSurfaceId:
        """Not timed, and run before either call, so both start from the same warm state (after
        a pause this machine's first request takes several times as long as the next)."""
        surface_id = open_surface(services, session_id)  # the agent's part
        if shown:  # the person's page reads the panel it shows
            assert client.get(f"/api/sessions/{session_id}/task-surfaces/{surface_id}").status_code == 200
        return surface_id

    def one_submission() -> float:
        surface_id = prelude()
        body = {"submissionId": secrets.token_urlsafe(12), "values": VALUES}
        durable.landed.clear()
        start = time.perf_counter()
        response = client.post(f"/api/sessions/{session_id}/task-surfaces/{surface_id}/submit", json=body)
        answered = time.perf_counter()
        assert response.json and response.json["accepted"], response.json
        assert durable.landed.wait(10), "the submission never became durable"
        took = max(answered, durable.at[response.json["messageId"]]) - start
        settle()  # the agent's turn, not timed
        return took

    def one_floor_call() -> float:
        prelude()
        body = {"submissionId": secrets.token_urlsafe(12), "values": VALUES}
        start = time.perf_counter()
        response = floor_client.post("/floor", json=body)
        assert response.json and response.json["accepted"], response.json
        return time.perf_counter() - start

    one_submission(), one_floor_call()  # warm caches and connections
    submissions, floors = [], []
    for _ in range(runs):  # alternated, so drift on a busy machine hits both alike
        submissions.append(one_submission())
        floors.append(one_floor_call())
    close_floor()
    services.runner.observers.remove(durable)
    return statistics.median(submissions), statistics.median(floors)


@contextlib.contextmanager
def bench_app(database: str) -> Iterator[tuple[Services, Flask]]:
    """The real app on a SQLite file in a temporary folder, or in a schema of its own on the
    PostgreSQL of `TASKSURFACE_TEST_POSTGRES_URL` (dropped afterwards)."""
    with tempfile.TemporaryDirectory() as folder:
        os.environ["TASKSURFACE_INSTANCE_PATH"] = folder
        if database == "sqlite":
            url = f"sqlite:///{Path(folder) / 'bench.sqlite3'}"
            cleanup: Callable[[], None] = lambda: None  # noqa: E731
        else:
            base = os.environ.get("TASKSURFACE_TEST_POSTGRES_URL")
            if not base:
                raise SystemExit("postgres: set TASKSURFACE_TEST_POSTGRES_URL to run it")
            schema = "bench_" + secrets.token_hex(4)
            admin = sa.create_engine(normalise_url(base))
            with admin.begin() as connection:
                connection.exec_driver_sql(f"CREATE SCHEMA {schema}")
            url = f"{base}{'&' if '?' in base else '?'}options=-csearch_path%3D{schema}"

            def cleanup() -> None:
                with admin.begin() as connection:
                    connection.exec_driver_sql(f"DROP SCHEMA {schema} CASCADE")
                admin.dispose()

        app = create_app({"database_url": url, "secret_key": "bench"})
        services: Services = app.extensions["tasksurface"]
        try:
            yield services, app
        finally:
            services.stop()
            cleanup()


def run(database: str, runs: int) -> None:
    with bench_app(database) as (services, app):
        print(f"== {database} ({runs} runs each, medians)")
        for label, small, large in bench_log_size(services, app, runs):
            print(
                f"{label:>18}: 100 events {small * 1e3:7.2f} ms | 100,000 events {large * 1e3:7.2f} ms"
                f" | ratio {large / small:.2f} (target <= 1.5)"
            )
        for shown, label in ((True, "submission"), (False, "(panel not shown)")):
            submission, bare = bench_submission(services, app, runs, shown)
            print(
                f"{label:>18}: submit -> durable {submission * 1e3:7.2f} ms | floor route "
                f"{bare * 1e3:7.2f} ms | ratio {submission / bare:.1f}" + (" (target <= 3)" if shown else "")
            )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--database", choices=("sqlite", "postgres", "both"), default="sqlite")
    parser.add_argument("--runs", type=int, default=50)
    args = parser.parse_args()
    for database in ("sqlite", "postgres") if args.database == "both" else (args.database,):
        run(database, args.runs)


if __name__ == "__main__":
    main()
