"""Background tasks: how soon an end reaches its owner's log, and what 50 streaming tasks cost.

    .venv/bin/python bench/bench_tasks.py [--runs 20] [--tasks 50] [--database-url URL]
    TASKSURFACE_TEST_REDIS_URL=redis://127.0.0.1:6379/0 .venv/bin/python bench/bench_tasks.py --celery

The server runs in its own process (`flask run`, SQLite unless a URL is given) so its CPU time
is its own. Printed, side by side in one run:

- **Completion → notice**: a command that ends at once; from its `endedAt` (stored by the host
  when the process ended) to the `task/notice` event in the owner's log, median and p95, for
  the embedded host (and for a Celery worker with `--celery`).
- **50 streaming tasks**: each prints a timestamped line every 50 ms. Beside an idle server:
  the latency of a chat turn (send → the agent's reply logged), the server's CPU seconds per
  second, and how stale the newest line of a task's tail is when read.
"""

from __future__ import annotations

import argparse
import os
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import datetime
from pathlib import Path
from typing import Any

import requests

ROOT = Path(__file__).resolve().parents[1]
COMMANDS = """
[commands.quick]
description = "Ends at once."
argv = ["{python}", "-c", "print('done')"]

[commands.stream]
description = "A timestamped line every 50 ms for a while."
argv = ["{python}", "-u", "-c", '''
import sys, time
end = time.time() + float(sys.argv[1])
while time.time() < end:
    print(repr(time.time()), flush=True)
    time.sleep(0.05)
''', "{seconds}"]
timeout_seconds = 600
[commands.stream.args.seconds]
type = "integer"
minimum = 1
maximum = 600
"""


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


class Server:
    def __init__(self, folder: Path, database_url: str, extra: dict[str, str]) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        env = {
            **os.environ,
            "TASKSURFACE_DATABASE_URL": database_url,
            "TASKSURFACE_INSTANCE_PATH": str(folder / "instance"),
            "TASKSURFACE_SECRET_KEY": "bench",
            "TASKSURFACE_COMMANDS_FILE": str(folder / "commands.toml"),
            "TASKSURFACE_TASK_MAX_RUNNING": "100",
            **extra,
        }
        self.log = (folder / f"server-{self.port}.log").open("wb")
        self.process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "flask",
                "--app",
                "app",
                "run",
                "--host",
                "127.0.0.1",
                "--port",
                str(self.port),
            ],
            cwd=ROOT,
            env=env,
            stdout=self.log,
            stderr=subprocess.STDOUT,
        )
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                requests.get(self.url + "/", timeout=1)
                return
            except requests.ConnectionError:
                time.sleep(0.05)
        raise SystemExit("the server did not start")

    def cpu_seconds(self) -> float:
        fields = Path(f"/proc/{self.process.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def stop(self) -> None:
        self.process.send_signal(signal.SIGTERM)
        try:
            self.process.wait(20)
        except subprocess.TimeoutExpired:
            self.process.kill()
        self.log.close()


class Client:
    def __init__(self, base: str) -> None:
        self.base = base
        self.http = requests.Session()

    def session(self) -> str:
        sid: str = self.http.post(self.base + "/api/sessions", json={}, timeout=10).json()["sessionId"]
        return sid

    def say(self, sid: str, text: str) -> None:
        self.http.post(f"{self.base}/api/sessions/{sid}/messages", json={"text": text}, timeout=10)

    def events(self, sid: str) -> list[dict[str, Any]]:
        events: list[dict[str, Any]] = self.http.get(
            f"{self.base}/api/sessions/{sid}/events", params={"limit": 500}, timeout=10
        ).json()["events"]
        return events

    def tasks(self, sid: str) -> list[dict[str, Any]]:
        tasks: list[dict[str, Any]] = self.http.get(
            f"{self.base}/api/sessions/{sid}/tasks", timeout=10
        ).json()["tasks"]
        return tasks

    def until(self, probe: Any, timeout: float = 30.0) -> Any:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            found = probe()
            if found:
                return found
            time.sleep(0.005)
        raise SystemExit("timed out")


def completion_to_notice(client: Client, runs: int) -> list[float]:
    figures = []
    for _ in range(runs):
        sid = client.session()
        client.say(sid, "/run quick")
        notice = client.until(lambda sid=sid: [e for e in client.events(sid) if e["kind"] == "task/notice"])[
            0
        ]
        [task] = client.tasks(sid)
        ended = datetime.fromisoformat(task["endedAt"])
        figures.append((datetime.fromisoformat(notice["at"]) - ended).total_seconds() * 1000)
    return figures


def turn_latency(client: Client, sid: str, turns: int) -> list[float]:
    figures = []
    for i in range(turns):
        before = len(client.events(sid))
        started = time.monotonic()
        client.say(sid, f"ping {i}")
        client.until(
            lambda before=before: any(e["kind"] == "assistant/message" for e in client.events(sid)[before:])
        )
        figures.append((time.monotonic() - started) * 1000)
    return figures


def staleness(client: Client, sids: list[str], samples: int) -> list[float]:
    figures = []
    for i in range(samples):
        tail = client.tasks(sids[i % len(sids)])[0]["tail"].strip().split("\n")
        if tail and tail[-1]:
            figures.append((time.time() - float(tail[-1])) * 1000)
        time.sleep(0.02)
    return figures


def summary(values: list[float]) -> str:
    ordered = sorted(values)
    p95 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))]
    return f"median {statistics.median(ordered):7.1f} ms   p95 {p95:7.1f} ms   (n={len(ordered)})"


def streaming_cost(folder: Path, database_url: str, tasks: int, turns: int) -> None:
    server = Server(folder, database_url, {})
    try:
        client = Client(server.url)
        chat = client.session()
        turn_latency(client, chat, 3)  # warm up
        cpu0, wall0 = server.cpu_seconds(), time.monotonic()
        idle_turns = turn_latency(client, chat, turns)
        idle_cpu = (server.cpu_seconds() - cpu0) / (time.monotonic() - wall0)
        sids = []
        for _ in range(tasks):
            sid = client.session()
            client.say(sid, '/run stream {"seconds": 120}')
            sids.append(sid)
        client.until(lambda: all(client.tasks(s) and client.tasks(s)[0]["tail"] for s in sids), timeout=60)
        cpu0, wall0 = server.cpu_seconds(), time.monotonic()
        busy_turns = turn_latency(client, chat, turns)
        busy_cpu = (server.cpu_seconds() - cpu0) / (time.monotonic() - wall0)
        stale = staleness(client, sids, 100)
        print(f"chat turn, idle server          {summary(idle_turns)}")
        print(f"chat turn, {tasks} tasks streaming  {summary(busy_turns)}")
        ratio = statistics.median(busy_turns) / statistics.median(idle_turns)
        print(f"  ratio of medians (streaming / idle): {ratio:.2f}")
        print(f"server CPU, idle                {idle_cpu:.3f} s/s")
        print(f"server CPU, {tasks} tasks streaming {busy_cpu:.3f} s/s  ({tasks * 20} lines/s in all)")
        print(f"newest tail line, age when read {summary(stale)}")
        for sid in sids:
            task_id = client.tasks(sid)[0]["id"]
            client.http.post(f"{server.url}/api/sessions/{sid}/tasks/{task_id}/stop", json={}, timeout=10)
    finally:
        server.stop()


def celery_completion(folder: Path, database_url: str, runs: int, redis_url: str) -> list[float]:
    queue = f"bench-{os.getpid()}"
    extra = {
        "TASKSURFACE_TASKS": "celery",
        "TASKSURFACE_CELERY_BROKER_URL": redis_url,
        "TASKSURFACE_CELERY_QUEUE": queue,
    }
    server = Server(folder, database_url, extra)
    env = {**os.environ, **extra, "TASKSURFACE_DATABASE_URL": database_url}
    env["TASKSURFACE_COMMANDS_FILE"] = str(folder / "commands.toml")
    env["TASKSURFACE_INSTANCE_PATH"] = str(folder / "worker")
    log = (folder / "worker.log").open("wb")
    worker = subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "tasksurface.tasks.worker", "worker", "--pool", "threads",
         "--queues", queue, "--without-gossip", "--without-mingle", "--without-heartbeat"],
        cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
    )  # fmt: skip
    try:
        client = Client(server.url)
        return completion_to_notice(client, runs)
    finally:
        worker.terminate()
        worker.wait(20)
        log.close()
        server.stop()
        import redis

        connection = redis.Redis.from_url(redis_url)
        keys = list(connection.scan_iter(match=f"{queue}:*"))
        if keys:
            connection.delete(*keys)
        connection.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--tasks", type=int, default=50)
    parser.add_argument("--turns", type=int, default=20)
    parser.add_argument("--database-url", default="")
    parser.add_argument("--celery", action="store_true", help="also time a Celery worker (needs Redis)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        (folder / "commands.toml").write_text(COMMANDS)
        database_url = args.database_url or f"sqlite:///{folder / 'bench.sqlite3'}"
        server = Server(folder, database_url, {})
        try:
            embedded = completion_to_notice(Client(server.url), args.runs)
        finally:
            server.stop()
        print(f"completion → notice, embedded   {summary(embedded)}")
        if args.celery:
            redis_url = os.environ.get("TASKSURFACE_TEST_REDIS_URL", "redis://127.0.0.1:6379/0")
            remote = celery_completion(folder, database_url, args.runs, redis_url)
            print(f"completion → notice, celery     {summary(remote)}")
        streaming_cost(folder, database_url, args.tasks, args.turns)


if __name__ == "__main__":
    main()
