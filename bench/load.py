"""Load bench: hundreds of open session pages, each submitting a panel, on the production server.

Starts real servers with `scripts/serve-production.sh` (one, or `--processes N` on PostgreSQL on
different ports), opens one websocket per session, then lets every session submit its panel at
the same moment. Prints whether every submission was admitted exactly once, the median and p99
of submit → durable (the `at` of the logged message) and submit → push received (the socket
hears of its own message), p99/median, and how plain `GET /` answered meanwhile.

    .venv/bin/python bench/load.py                               # 500 sessions, one process, SQLite
    .venv/bin/python bench/load.py --processes 3 --database postgresql://postgres@127.0.0.1:5432/test
"""

from __future__ import annotations

import argparse
import json
import os
import secrets
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

import requests
import websocket

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.server_process import free_port  # noqa: E402

VALUES: dict[str, str | bool | list[str]] = {
    "name": "1.0",
    "notes": "",
    "channel": "stable",
    "platforms": ["linux"],
    "announce": False,
    "rollout": ["eu", "us", "asia"],
}
"""Valid values for the shipped `fields` demo panel."""


@dataclass
class Server:
    port: int
    process: subprocess.Popen[bytes]
    log: Path

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"


def start_server(database_url: str, instance: Path, threads: int, extra: list[str]) -> Server:
    port = free_port()
    instance.mkdir(parents=True, exist_ok=True)
    log = instance / f"server-{port}.log"
    env = {
        **os.environ,
        "PORT": str(port),
        "WEB_CONCURRENCY": "1",
        "TASKSURFACE_WEB_THREADS": str(threads),
        "TASKSURFACE_DATABASE_URL": database_url,
        "TASKSURFACE_INSTANCE_PATH": str(instance),
        "TASKSURFACE_SECRET_KEY": "bench-secret-key",
        "TASKSURFACE_TASKS": "off",
    }
    env.pop("PROMETHEUS_MULTIPROC_DIR", None)
    with log.open("ab") as out:
        process = subprocess.Popen(
            [str(ROOT / "scripts" / "serve-production.sh"), "--access-logfile", "/dev/null", *extra],
            cwd=ROOT,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    server = Server(port, process, log)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise SystemExit(f"the server exited early:\n{log.read_text()}")
        try:
            if requests.get(server.url + "/readyz", timeout=10).status_code == 200:
                return server
        except (requests.ConnectionError, requests.Timeout):
            pass
        time.sleep(0.1)
    raise SystemExit(f"the server did not become ready:\n{log.read_text()}")


def stop_server(server: Server) -> None:
    if server.process.poll() is None:
        server.process.send_signal(signal.SIGTERM)
        try:
            server.process.wait(30)
        except subprocess.TimeoutExpired:
            os.killpg(server.process.pid, signal.SIGKILL)
            server.process.wait(10)


@dataclass
class Run:
    """One session's path through the bench; times are wall-clock seconds on this machine."""

    index: int
    http: requests.Session = field(default_factory=requests.Session)
    session_id: str = ""
    surface_id: str = ""
    submission_id: str = field(default_factory=lambda: secrets.token_hex(12))
    submitted_at: float = 0.0
    push_at: float | None = None
    accepted: bool = False
    error: str = ""


def wait_surface(run: Run, base: str, timeout: float) -> str:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        active = run.http.get(f"{base}/api/sessions/{run.session_id}/task-surface", timeout=30).json()
        if active.get("active"):
            return str(active["active"]["surfaceId"])
        time.sleep(0.2)
    raise TimeoutError("the panel did not open")


def session_path(
    run: Run, home: Server, socket_host: Server, ready: threading.Barrier, go: threading.Event, timeout: float
) -> None:
    """Create a session and its panel on `home`, hold a socket on `socket_host`, submit on `home`."""
    ws = None
    try:
        run.session_id = run.http.post(home.url + "/api/sessions", json={}, timeout=60).json()["sessionId"]
        sent = run.http.post(
            f"{home.url}/api/sessions/{run.session_id}/messages", json={"text": "/surface fields"}, timeout=60
        )
        sent.raise_for_status()
        run.surface_id = wait_surface(run, home.url, timeout)
        cookie = "; ".join(f"{k}={v}" for k, v in run.http.cookies.items())
        ws = websocket.create_connection(
            f"ws://127.0.0.1:{socket_host.port}/ws/sessions/{run.session_id}",
            cookie=cookie,
            origin=socket_host.url,
            timeout=timeout,
        )
        hello = json.loads(ws.recv())
        if hello.get("type") != "hello":
            raise RuntimeError(f"no hello: {hello.get('type')}")
        # Read all along, as a browser does: it answers the server's pings, which keep the socket.
        reader = threading.Thread(target=read_pushes, args=(run, ws, timeout), daemon=True)
        reader.start()
    except Exception as exc:
        run.error = f"setup: {type(exc).__name__}: {exc}"
        ready.abort()
        return
    try:
        ready.wait()
        go.wait()
        run.http.close()  # a kept-alive connection may have expired while every session got ready
        run.submitted_at = time.time()
        answer = run.http.post(
            f"{home.url}/api/sessions/{run.session_id}/task-surfaces/{run.surface_id}/submit",
            json={"submissionId": run.submission_id, "values": VALUES},
            timeout=120,
        ).json()
        run.accepted = answer.get("accepted") is True
        reader.join(timeout + 10)
    except threading.BrokenBarrierError:
        run.error = run.error or "another session failed to set up"
    except Exception as exc:
        run.error = f"{type(exc).__name__}: {exc}"
    finally:
        if ws is not None:
            ws.close()


def read_pushes(run: Run, ws: websocket.WebSocket, timeout: float) -> None:
    """Until the socket hears of this session's own submitted message (then it notes when)."""
    ws.settimeout(None)
    try:
        while run.push_at is None:
            if run.submitted_at and time.time() - run.submitted_at > timeout:
                run.error = "no push of the admitted message"
                return
            ws.settimeout(5)
            try:
                message = json.loads(ws.recv())
            except websocket.WebSocketTimeoutException:
                continue
            for event in message.get("events") or ():
                source = event.get("payload", {}).get("source") or {}
                if (source.get("taskSurface") or {}).get("submissionId") == run.submission_id:
                    run.push_at = time.time()
    except Exception as exc:
        run.error = f"socket: {type(exc).__name__}: {exc}"


PHASES = ("setting up", "holding the open sockets", "submitting")


def probe_index(
    servers: list[Server], stop: threading.Event, phase: list[str], results: list[tuple[str, float, bool]]
) -> None:
    """Plain `GET /` on every process, all through the run: it must keep answering."""
    http = requests.Session()
    turn = 0
    while not stop.is_set():
        server = servers[turn % len(servers)]
        turn += 1
        started = time.monotonic()
        now = phase[0]
        try:
            ok = http.get(server.url + "/", timeout=10).status_code == 200
        except requests.RequestException:
            ok = False
        results.append((now, time.monotonic() - started, ok))
        stop.wait(0.2)


def durable_times(runs: list[Run], base: str) -> tuple[list[float], int, int]:
    """Read every log once: how long each message took to be durable, and lost / duplicated counts."""
    times, lost, duplicated = [], 0, 0
    for run in runs:
        events = run.http.get(f"{base}/api/sessions/{run.session_id}/events?after=0&limit=500", timeout=60)
        matching = [
            e
            for e in events.json()["events"]
            if e["kind"] == "user/message"
            and ((e["payload"].get("source") or {}).get("taskSurface") or {}).get("submissionId")
            == run.submission_id
        ]
        if not matching:
            lost += 1
            continue
        duplicated += len(matching) - 1
        at = datetime.fromisoformat(matching[0]["at"]).timestamp()
        times.append(at - run.submitted_at)
    return times, lost, duplicated


def describe(name: str, samples: list[float], of: int) -> str:
    if not samples:
        return f"{name}: none of {of}"
    ordered = sorted(samples)
    median = statistics.median(ordered)
    p99 = ordered[min(len(ordered) - 1, round(0.99 * (len(ordered) - 1)))]
    ratio = p99 / median if median > 0 else float("inf")
    verdict = "ok" if ratio <= 10 else "over the goal of 10"
    return (
        f"{name}: n={len(samples)}/{of}  median {median * 1000:.0f} ms  p99 {p99 * 1000:.0f} ms  "
        f"p99/median {ratio:.1f} ({verdict})"
    )


def metric_value(server: Server, name: str) -> float | None:
    for line in requests.get(server.url + "/metrics", timeout=30).text.splitlines():
        if line.startswith(name + " "):
            return float(line.split()[1])
    return None


def postgres_schema(url: str) -> tuple[str, str]:
    """A throwaway schema, so the bench never touches existing tables."""
    import sqlalchemy as sa

    from tasksurface.store.engine import normalise_url

    schema = "bench_" + secrets.token_hex(4)
    engine = sa.create_engine(normalise_url(url))
    with engine.begin() as connection:
        connection.exec_driver_sql(f"CREATE SCHEMA {schema}")
    engine.dispose()
    separator = "&" if "?" in url else "?"
    return f"{url}{separator}options=-csearch_path%3D{schema}", schema


def drop_schema(url: str, schema: str) -> None:
    import sqlalchemy as sa

    from tasksurface.store.engine import normalise_url

    engine = sa.create_engine(normalise_url(url))
    with engine.begin() as connection:
        connection.exec_driver_sql(f"DROP SCHEMA {schema} CASCADE")
    engine.dispose()


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--sessions", type=int, default=500)
    parser.add_argument("--processes", type=int, default=1)
    parser.add_argument("--database", default="", help="postgresql://… (needed for several processes)")
    parser.add_argument("--threads", type=int, default=1000, help="TASKSURFACE_WEB_THREADS of each process")
    parser.add_argument("--timeout", type=float, default=120.0, help="seconds each step may take")
    parser.add_argument(
        "--gunicorn",
        action="append",
        default=[],
        help="an extra gunicorn argument, e.g. --gunicorn=-k=gevent",
    )
    args = parser.parse_args()
    if args.processes > 1 and not args.database.startswith("postgres"):
        parser.error("several processes need --database postgresql://…")

    instance = Path(tempfile.mkdtemp(prefix="tasksurface-load-"))
    schema = None
    database = args.database or f"sqlite:///{instance / 'load.sqlite3'}"
    if database.startswith("postgres"):
        database, schema = postgres_schema(args.database)
    servers: list[Server] = []
    try:
        for number in range(args.processes):
            servers.append(start_server(database, instance / f"p{number}", args.threads, args.gunicorn))
        print(f"servers: {', '.join(s.url for s in servers)} on {database.split('?')[0]}")
        runs = [Run(i) for i in range(args.sessions)]
        ready = threading.Barrier(args.sessions + 1)
        go = threading.Event()
        n = len(servers)
        threads = [
            threading.Thread(
                target=session_path,
                args=(run, servers[i % n], servers[(i + 1) % n], ready, go, args.timeout),
                daemon=True,
            )
            for i, run in enumerate(runs)
        ]
        probes: list[tuple[str, float, bool]] = []
        phase = [PHASES[0]]
        stop_probe = threading.Event()
        prober = threading.Thread(target=probe_index, args=(servers, stop_probe, phase, probes), daemon=True)
        prober.start()
        started = time.monotonic()
        for thread in threads:
            thread.start()
        try:
            ready.wait(timeout=args.timeout * 3)
        except threading.BrokenBarrierError:
            failed = [r.error for r in runs if r.error]
            print(f"setup failed for {len(failed)} sessions, e.g. {failed[:3]}")
            return 1
        sockets = sum(metric_value(s, "tasksurface_websocket_connections") or 0 for s in servers)
        took = time.monotonic() - started
        print(f"set up {args.sessions} sessions in {took:.1f} s; open sockets: {sockets:.0f}")
        phase[0] = PHASES[1]
        time.sleep(5)  # every socket open and idle: the state the server must hold while answering
        phase[0] = PHASES[2]
        go.set()
        deadline = time.monotonic() + 2 * args.timeout + 30
        for thread in threads:
            thread.join(max(0.0, deadline - time.monotonic()))
        stuck = sum(thread.is_alive() for thread in threads)
        if stuck:
            print(f"{stuck} sessions still waiting at the deadline")
        stop_probe.set()
        prober.join()

        durable, lost, duplicated = durable_times(runs, servers[0].url)
        accepted = sum(r.accepted for r in runs)
        pushes = [r.push_at - r.submitted_at for r in runs if r.push_at is not None]
        print(f"accepted {accepted}/{args.sessions}; lost {lost}, duplicated {duplicated}")
        once = lost == 0 and duplicated == 0 and accepted == args.sessions
        print(f"every submission admitted exactly once: {'yes' if once else 'NO'}")
        print(describe("submit → durable", durable, args.sessions))
        print(describe("submit → push received", pushes, args.sessions))
        errors = sorted({r.error for r in runs if r.error})
        if errors:
            print(f"session errors ({sum(bool(r.error) for r in runs)}): {errors[:5]}")
        for name in PHASES:
            times = [t for p, t, ok in probes if p == name and ok]
            count = sum(p == name for p, _, _ in probes)
            median = statistics.median(times or [0]) * 1000
            slowest = max(times, default=0) * 1000
            print(
                f"GET / while {name}: {len(times)}/{count} answered, "
                f"median {median:.0f} ms, max {slowest:.0f} ms"
            )
        return 0 if once and all(ok for _, _, ok in probes) else 1
    finally:
        for server in servers:
            stop_server(server)
        if schema is not None:
            drop_schema(args.database, schema)


if __name__ == "__main__":
    raise SystemExit(main())
