"""Reliability soak, on demand: SIGKILLs at the three moments of a submission, and the races.

Kills: a submission queued, claimed (admission under way) and just committed, × `--kills`
each. On SQLite the one process is killed and started again; on PostgreSQL two gunicorn
processes serve the session, the one that holds the work is killed and the other must
finish it. Races: two tabs submitting, submit vs dismiss, message vs submission, × `--races`
each on live servers (on PostgreSQL the racing requests go to different processes).

Every run prints runs, lost, duplicated and winners; the goal is 0 lost, 0 duplicated and
exactly one winner in every run. It reuses the test suite's process and client helpers.
"""

from __future__ import annotations

import argparse
import os
import secrets
import sqlite3
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import sqlalchemy as sa

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tasksurface.store.engine import normalise_url
from tests.cluster.processes import Gunicorn, claim_owner
from tests.server_process import ServerProcess
from tests.support import RELEASE_VALUES, Api, new_id, wait_for

VALUES = RELEASE_VALUES
PLAN = {"steps": ["backup", "schema", "switch", "verify"], "constraints": ""}


@dataclass
class Tally:
    runs: int = 0
    lost: int = 0
    duplicated: int = 0
    winners: int = 0
    """Runs with exactly one winner."""

    def add(self, found: int, winners: int = 1) -> None:
        self.runs += 1
        self.lost += found == 0
        self.duplicated += found > 1
        self.winners += winners == 1

    def line(self, name: str) -> str:
        return (
            f"{name:<34} runs {self.runs:>5}  lost {self.lost:>3}  "
            f"duplicated {self.duplicated:>3}  one winner {self.winners:>5}/{self.runs}"
        )


def messages_for(events: list[dict[str, Any]], surface: str) -> list[dict[str, Any]]:
    return [
        e
        for e in events
        if e["kind"] == "user/message"
        and (e["payload"]["source"].get("taskSurface") or {}).get("surfaceId") == surface
    ]


def phase_of(api: Api, sid: str, surface: str) -> str | None:
    pending = api.get_active(sid, surface).get("pending") or {}
    return pending.get("phase")


def linked(*urls: str) -> list[Api]:
    """One person on several processes: one cookie jar."""
    first = Api(urls[0])
    found = [first]
    for url in urls[1:]:
        other = Api(url)
        other.http = first.http
        found.append(other)
    return found


# -- databases and servers -------------------------------------------------------------


@contextmanager
def postgres_schema(base: str) -> Iterator[str]:
    schema = "soak_" + secrets.token_hex(5)
    admin = sa.create_engine(normalise_url(base))
    with admin.begin() as connection:
        connection.exec_driver_sql(f"CREATE SCHEMA {schema}")
    try:
        yield f"{base}{'&' if '?' in base else '?'}options=-csearch_path%3D{schema}"
    finally:
        with admin.begin() as connection:
            connection.exec_driver_sql(f"DROP SCHEMA {schema} CASCADE")
        admin.dispose()


@contextmanager
def admission_blocked(url: str) -> Iterator[None]:
    engine = sa.create_engine(normalise_url(url))
    connection = engine.connect()
    connection.exec_driver_sql("BEGIN")
    connection.exec_driver_sql("LOCK TABLE session_events IN EXCLUSIVE MODE")
    try:
        yield
    finally:
        connection.exec_driver_sql("ROLLBACK")
        connection.close()
        engine.dispose()


@contextmanager
def sqlite_writes_held(url: str) -> Iterator[sqlite3.Connection]:
    """SQLite's write lock, taken from outside (`BEGIN IMMEDIATE`): readers go on (WAL), writers
    wait. The connection is handed over inside that transaction."""
    connection = sqlite3.connect(url.removeprefix("sqlite:///"), isolation_level=None, timeout=30)
    connection.execute("BEGIN IMMEDIATE")
    try:
        yield connection
    finally:
        connection.execute("ROLLBACK")
        connection.close()


def start(server: Any, attempts: int = 3) -> None:
    """A start can outlast the helper's deadline on a loaded machine; that is no lost message."""
    for attempt in range(attempts):
        try:
            server.start()
            return
        except AssertionError:
            server.kill()
            if attempt == attempts - 1:
                raise


class Fleet:
    """The servers of one database: one restartable process (SQLite) or two gunicorns (PostgreSQL)."""

    def __init__(self, url: str, folder: Path) -> None:
        self.url = url
        self.shared = url.startswith("postgres")
        if self.shared:
            self.servers: list[Any] = [Gunicorn(url, folder, f"soak-{n}") for n in range(2)]
        else:
            self.servers = [ServerProcess(url, folder)]
        for server in self.servers:
            start(server)

    def apis(self) -> list[Api]:
        return linked(*(s.url for s in self.servers))

    def kill(self, index: int) -> None:
        self.servers[index].kill()

    def survivor_after_killing(self, index: int) -> int:
        """SQLite: the same process, started again; PostgreSQL: the other one, while the killed
        one starts again for the next run."""
        if not self.shared:
            start(self.servers[index])
            return index
        return 1 - index

    def revive(self) -> None:
        for server in self.servers:
            if server.process is None:
                start(server)

    def stop(self) -> None:
        for server in self.servers:
            server.stop()


def fresh(api: Api, demo: str = "fields") -> tuple[str, str]:
    sid = api.create_session()
    return sid, api.show_surface(sid, demo)


# -- kills -----------------------------------------------------------------------------


def copies(api: Api, sid: str, surface: str, message_id: str) -> int:
    """How often the accepted message is in the log, once it is there (0 after 30 s: lost).

    A row being admitted is in neither the queue nor the log until it commits, so a log that
    looks settled proves nothing yet: wait for the message itself, then for the turn's end."""
    try:
        wait_for(lambda: messages_for(api.events(sid), surface), 30)
    except AssertionError:
        kinds = [e["kind"] for e in api.events(sid)]
        print(f"  lost: session {sid}, log {kinds}, queue {api.queue(sid)}", file=sys.stderr)
        return 0
    found = messages_for(api.settled(sid), surface)
    return sum(m["payload"]["messageId"] == message_id for m in found)


def kill_queued(fleet: Fleet) -> int:
    apis = fleet.apis()
    sid, surface = fresh(apis[0])
    apis[0].pause(sid)
    accepted = apis[0].submit(sid, surface, VALUES)
    fleet.kill(0)
    api = apis[fleet.survivor_after_killing(0)]
    api.pause(sid, False)
    return copies(api, sid, surface, accepted["messageId"])


def kill_claimed(fleet: Fleet) -> int:
    apis = fleet.apis()
    sid, surface = fresh(apis[0])
    if fleet.shared:
        # Paused first: a free session's submission would be logged by its own request, which
        # would then wait for the lock itself; paused, it waits in the queue to be claimed.
        apis[0].pause(sid)
        accepted = apis[0].submit(sid, surface, VALUES)
        with admission_blocked(fleet.url):
            apis[0].pause(sid, False)
            wait_for(lambda: phase_of(apis[1], sid, surface) == "claiming", 20)
            owner = claim_owner(fleet.url)
            index = 0 if owner is not None and fleet.servers[0].owns(owner) else 1
            fleet.kill(index)
    else:
        # The claim lives in the one process's memory and the admission follows it within a
        # millisecond, so the admission is made to wait: the row waits, paused, while the process
        # is stopped; the session is resumed in the file; the process starts while the database's
        # write lock is held from outside. Its first look claims the row (a read), its admission
        # waits for the lock, and the process is killed while the row shows `claiming`.
        index = 0
        apis[0].pause(sid)
        accepted = apis[0].submit(sid, surface, VALUES)
        fleet.kill(0)
        with sqlite_writes_held(fleet.url) as database:
            database.execute("UPDATE sessions SET paused = 0 WHERE id = ?", (sid,))
            database.execute("COMMIT")
            database.execute("BEGIN IMMEDIATE")
            start(fleet.servers[0])
            wait_for(lambda: phase_of(apis[0], sid, surface) == "claiming", 20)
            fleet.kill(0)
    api = apis[fleet.survivor_after_killing(index)]
    return copies(api, sid, surface, accepted["messageId"])


def kill_committed(fleet: Fleet) -> int:
    apis = fleet.apis()
    sid, surface = fresh(apis[0])
    submission_id = new_id()
    accepted = apis[0].submit(sid, surface, VALUES, submission_id)
    wait_for(lambda: messages_for(apis[0].events(sid), surface), 20)
    fleet.kill(0)
    api = apis[fleet.survivor_after_killing(0)]
    if api.submit(sid, surface, VALUES, submission_id) != accepted:
        return 2  # a retry that did not find the first answer would have been a second message
    return copies(api, sid, surface, accepted["messageId"])


# -- races -----------------------------------------------------------------------------


def race(actions: list[Callable[[], Any]]) -> list[Any]:
    barrier = threading.Barrier(len(actions))
    results: list[Any] = [None] * len(actions)

    def run(index: int) -> None:
        barrier.wait(10)
        results[index] = actions[index]()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(actions))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    return results


def two_tabs(apis: list[Api]) -> tuple[int, int]:
    a, b = apis[0], apis[-1]
    sid, surface = fresh(a, "plan")
    results = race([lambda: a.submit(sid, surface, PLAN), lambda: b.submit(sid, surface, PLAN)])
    winners = [r for r in results if r["accepted"]]
    if not winners:
        return 0, 0
    return copies(a, sid, surface, winners[0]["messageId"]), len(winners)


def submit_vs_dismiss(apis: list[Api]) -> tuple[int, int]:
    a, b = apis[0], apis[-1]
    sid, surface = fresh(a, "plan")
    submitted, dismissed = race([lambda: a.submit(sid, surface, PLAN), lambda: b.dismiss(sid, surface)])
    if submitted["accepted"]:
        copies(a, sid, surface, submitted["messageId"])  # waits until it is admitted (or lost)
    events = a.settled(sid)
    closings = len(messages_for(events, surface)) + sum(
        e["kind"] == "task-surface/dismissed" and e["payload"]["surfaceId"] == surface for e in events
    )
    return closings, int(submitted["accepted"]) + int(dismissed.get("dismissed") is True)


def message_vs_submission(apis: list[Api]) -> tuple[int, int]:
    a, b = apis[0], apis[-1]
    sid, surface = fresh(a, "plan")
    a.pause(sid)
    submitted, sent = race(
        [lambda: a.submit(sid, surface, PLAN), lambda: b.send(sid, "actually, let us talk")]
    )
    a.pause(sid, False)
    wanted = [submitted.get("messageId"), sent["messageId"]]

    def both_admitted() -> bool:
        admitted = {e["payload"]["messageId"] for e in a.events(sid) if e["kind"] == "user/message"}
        return all(m in admitted for m in wanted)

    try:
        wait_for(both_admitted, 30)
    except AssertionError:
        return 0, 1
    events = a.settled(sid)
    admitted = [e["payload"]["messageId"] for e in events if e["kind"] == "user/message"]
    counts = [admitted.count(m) for m in wanted]
    if 0 in counts:
        return 0, 1
    closed = a.projection(sid)["active"] is None
    return max(counts), 1 if closed else 0


# -- main ------------------------------------------------------------------------------


def soak(url: str, kills: int, races: int) -> None:
    name = "postgres" if url.startswith("postgres") else "sqlite"
    with tempfile.TemporaryDirectory() as folder:
        fleet = Fleet(url, Path(folder))
        try:
            for label, scenario in (
                ("kill: queued", kill_queued),
                ("kill: claimed", kill_claimed),
                ("kill: just committed", kill_committed),
            ):
                tally = Tally()
                started = time.monotonic()
                for _ in range(kills):
                    tally.add(scenario(fleet))
                    fleet.revive()
                print(f"[{name}] {tally.line(label)}  ({time.monotonic() - started:.0f} s)", flush=True)
            for label, contest in (
                ("race: two tabs submitting", two_tabs),
                ("race: submit vs dismiss", submit_vs_dismiss),
                ("race: message vs submission", message_vs_submission),
            ):
                tally = Tally()
                started = time.monotonic()
                apis = fleet.apis()
                for _ in range(races):
                    found, winners = contest(apis)
                    tally.add(found, winners)
                print(f"[{name}] {tally.line(label)}  ({time.monotonic() - started:.0f} s)", flush=True)
        finally:
            fleet.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--database", choices=["sqlite", "postgres", "both"], default="both")
    parser.add_argument("--kills", type=int, default=50, help="runs of each kill (default 50)")
    parser.add_argument("--races", type=int, default=1000, help="runs of each race (default 1000)")
    arguments = parser.parse_args()
    postgres = os.environ.get("TASKSURFACE_TEST_POSTGRES_URL")
    if arguments.database in ("sqlite", "both"):
        with tempfile.TemporaryDirectory() as folder:
            soak(f"sqlite:///{Path(folder) / 'soak.sqlite3'}", arguments.kills, arguments.races)
    if arguments.database in ("postgres", "both"):
        if not postgres:
            sys.exit("set TASKSURFACE_TEST_POSTGRES_URL to soak PostgreSQL")
        with postgres_schema(postgres) as url:
            soak(url, arguments.kills, arguments.races)


if __name__ == "__main__":
    main()
