"""The production server (`scripts/serve-production.sh`) in its own process group, for tests."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import time
from pathlib import Path

import requests

from ..server_process import PROJECT_ROOT, free_port

SCRIPT = PROJECT_ROOT / "scripts" / "serve-production.sh"


class ProductionServer:
    """gunicorn from the shipped config on a free port; the log goes to a file the test can print."""

    def __init__(
        self,
        database_url: str,
        instance_path: Path,
        env: dict[str, str] | None = None,
        port: int | None = None,
    ) -> None:
        self.database_url = database_url
        self.instance_path = instance_path
        self.port = port or free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.extra_env = dict(env or {})
        self.log_path = instance_path / f"gunicorn-{self.port}.log"
        self.process: subprocess.Popen[bytes] | None = None

    def environment(self) -> dict[str, str]:
        environment = {
            **os.environ,
            "PORT": str(self.port),
            "TASKSURFACE_DATABASE_URL": self.database_url,
            "TASKSURFACE_INSTANCE_PATH": str(self.instance_path),
            "TASKSURFACE_SECRET_KEY": "test-secret-key",
            "TASKSURFACE_WEB_THREADS": "200",
            "TASKSURFACE_SHUTDOWN_GRACE": "20",
            **self.extra_env,
        }
        environment.pop("PROMETHEUS_MULTIPROC_DIR", None)
        if "WEB_CONCURRENCY" not in self.extra_env:
            environment.pop("WEB_CONCURRENCY", None)
        return environment

    def launch(self, *args: str) -> subprocess.Popen[bytes]:
        self.instance_path.mkdir(parents=True, exist_ok=True)
        with self.log_path.open("ab") as log:  # the child keeps its own copy of the descriptor
            self.process = subprocess.Popen(
                [str(SCRIPT), *args],
                cwd=PROJECT_ROOT,
                env=self.environment(),
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,  # its own group, so teardown can take every worker with it
            )
        return self.process

    def start(self, *args: str) -> ProductionServer:
        process = self.launch(*args)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if process.poll() is not None:
                raise AssertionError(f"the server exited early:\n{self.log()}")
            try:
                if requests.get(self.url + "/readyz", timeout=10).status_code == 200:
                    return self
            except (requests.ConnectionError, requests.Timeout):
                pass
            time.sleep(0.1)
        raise AssertionError(f"the server did not become ready:\n{self.log()}")

    def terminate(self) -> None:
        """SIGTERM to the master, as a deploy or a scale-down sends it."""
        assert self.process is not None
        self.process.send_signal(signal.SIGTERM)

    def wait(self, timeout: float = 60) -> int:
        assert self.process is not None
        return self.process.wait(timeout)

    def kill(self) -> None:
        if self.process is not None and self.process.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(10)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.terminate()
            try:
                self.process.wait(30)
            except subprocess.TimeoutExpired:
                self.kill()
        self.kill()  # any worker left behind in the group
        self.process = None

    def log(self) -> str:
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""
