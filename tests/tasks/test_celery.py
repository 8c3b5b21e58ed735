"""`TASKSURFACE_TASKS=celery`: a real Redis and a real worker process run the tasks.

Every test has its own queue name, which is also the prefix of every Redis key it touches,
so parallel runs never share a queue. The worker is killed with SIGKILL to prove that a dead
worker's tasks are reported failed within the host timeout.
"""

from __future__ import annotations

import os
import secrets
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from ..server_process import PROJECT_ROOT
from ..support import Api, wait_for
from .helpers import ended, notices, release, run, task, tool_text

REDIS_URL = os.environ.get("TASKSURFACE_TEST_REDIS_URL")
HOST_TIMEOUT = 2.0

pytestmark = pytest.mark.skipif(not REDIS_URL, reason="TASKSURFACE_TEST_REDIS_URL is not set")


@pytest.fixture
def queue() -> Iterator[str]:
    name = "t-" + secrets.token_hex(6)
    yield name
    _forget_queue(name)


@pytest.fixture
def task_settings(queue: str) -> dict[str, Any]:
    return {
        "tasks": "celery",
        "celery_broker_url": REDIS_URL,
        "celery_queue": queue,
        "task_host_timeout": HOST_TIMEOUT,
    }


class Worker:
    """`celery -A tasksurface.tasks.worker worker` on the test's database and queue."""

    def __init__(self, env: dict[str, str], log_path: Path) -> None:
        self.env = env
        self.log_path = log_path
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> Worker:
        with self.log_path.open("ab") as log:
            self.process = subprocess.Popen(
                [
                    *[sys.executable, "-m", "celery", "-A", "tasksurface.tasks.worker", "worker"],
                    *[
                        "--pool",
                        "threads",
                        "--concurrency",
                        "4",
                        "--queues",
                        self.env["TASKSURFACE_CELERY_QUEUE"],
                    ],
                    *["--without-gossip", "--without-mingle", "--without-heartbeat", "--loglevel", "INFO"],
                ],
                cwd=PROJECT_ROOT,
                env=self.env,
                stdout=log,
                stderr=subprocess.STDOUT,
            )
        wait_for(lambda: b"ready." in self.log_path.read_bytes() or self._died(), timeout=30)
        assert not self._died(), self.log()
        return self

    def _died(self) -> bool:
        return self.process is not None and self.process.poll() is not None

    def kill(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(10)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(15)
            except subprocess.TimeoutExpired:
                self.kill()

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")


@pytest.fixture
def worker(
    app_config: dict[str, Any], queue: str, commands_file: Path, tmp_path: Path, app: Any
) -> Iterator[Worker]:
    """Started after the app, so the schema it checks is already migrated."""
    env = {
        **os.environ,
        "TASKSURFACE_DATABASE_URL": app_config["database_url"],
        "TASKSURFACE_CELERY_BROKER_URL": str(REDIS_URL),
        "TASKSURFACE_CELERY_QUEUE": queue,
        "TASKSURFACE_COMMANDS_FILE": str(commands_file),
        "TASKSURFACE_TASK_HOST_TIMEOUT": str(HOST_TIMEOUT),
        "TASKSURFACE_INSTANCE_PATH": str(tmp_path / "worker-instance"),
    }
    process = Worker(env, tmp_path / "worker.log").start()
    yield process
    process.stop()


def _forget_queue(queue: str) -> None:
    import redis

    client = redis.Redis.from_url(str(REDIS_URL))
    try:
        keys = list(client.scan_iter(match=f"{queue}:*"))
        if keys:
            client.delete(*keys)
    finally:
        client.close()


def test_a_worker_runs_the_task_and_the_owner_hears_of_its_end(
    api: Api, worker: Worker, tmp_path: Path
) -> None:
    sid = api.create_session()
    task_id = run(api, sid, "steps", {"folder": str(tmp_path), "steps": "from the worker"})
    wait_for(lambda: "from the worker" in task(api, sid, task_id)["tail"])
    assert task(api, sid, task_id)["status"] == "running"
    assert tool_text(api, sid, f"/output {task_id}", "task_output") == "from the worker\n[status: running]"
    release(tmp_path)
    [notice] = wait_for(lambda: notices(api, sid, task_id))
    assert notice["payload"]["text"] == (
        f"background task {task_id} (command: Steps in {tmp_path}) finished [status: completed] "
        "exit status 0. Read its output with task_output."
    )
    assert (
        tool_text(api, sid, f"/output {task_id}", "task_output") == "end\n[status: completed] exit status 0"
    )


def test_a_stop_reaches_a_task_on_a_worker(api: Api, worker: Worker, tmp_path: Path) -> None:
    sid = api.create_session()
    task_id = run(api, sid, "steps", {"folder": str(tmp_path), "steps": "waiting"})
    wait_for(lambda: "waiting" in task(api, sid, task_id)["tail"])
    assert (
        tool_text(api, sid, f"/kill {task_id} done here", "task_kill")
        == f"requested cancellation of task {task_id}"
    )
    assert ended(api, sid, task_id)["detail"] == "cancelled: done here"


def test_a_task_queued_before_any_worker_waits_and_can_be_stopped(api: Api, tmp_path: Path) -> None:
    sid = api.create_session()
    task_id = run(api, sid, "emit", {"text": "never run"})
    assert task(api, sid, task_id)["status"] == "queued"
    stopped = api.post(f"/api/sessions/{sid}/tasks/{task_id}/stop", {"reason": "no workers"})
    assert stopped.json()["outcome"] == "cancellation-requested"
    assert task(api, sid, task_id) | {"endedAt": None} == task(api, sid, task_id) | {
        "status": "cancelled",
        "detail": "stopped by the user: no workers",
        "endedAt": None,
    }


def test_a_worker_that_dies_has_its_tasks_reported_failed_with_a_reason(
    api: Api, worker: Worker, tmp_path: Path
) -> None:
    sid = api.create_session()
    task_id = run(api, sid, "steps", {"folder": str(tmp_path), "steps": "alive"})
    wait_for(lambda: "alive" in task(api, sid, task_id)["tail"])
    worker.kill()
    try:
        failed = ended(api, sid, task_id, timeout=HOST_TIMEOUT * 6)
        assert (failed["status"], failed["detail"]) == (
            "failed",
            f"the worker stopped (no sign of life for {HOST_TIMEOUT:g} s)",
        )
        [notice] = wait_for(lambda: notices(api, sid, task_id))
        assert "[status: failed] the worker stopped" in notice["payload"]["text"]
    finally:
        # A killed worker cannot stop its command, which outlives it; let it reach its end.
        (tmp_path / "1").touch()
