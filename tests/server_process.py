"""The app in its own process, so tests can kill it (SIGKILL) and start it again."""

from __future__ import annotations

import os
import random
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import requests

PROJECT_ROOT = Path(__file__).resolve().parents[1]


LOWEST_PORT = 10_000


def _first_ephemeral_port() -> int:
    """Where the kernel starts handing out local ports for outgoing connections (Linux says)."""
    try:
        return int(Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return 32_768


def free_port() -> int:
    """A port that is free now and that no outgoing connection can take before a test's server
    binds it: below the kernel's range for those. (A port the kernel picked for a bind to 0 is
    in that range, and a database or browser connection opened in between could be given it.)"""
    top = _first_ephemeral_port()
    for _ in range(100):
        port = random.randrange(LOWEST_PORT, top)
        with socket.socket() as probe:
            try:
                probe.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    raise RuntimeError(f"no free port between {LOWEST_PORT} and {top}")


class ServerProcess:
    """`flask --app app run` on 127.0.0.1 with the given database; its log goes to a file."""

    def __init__(self, database_url: str, instance_path: Path, env: dict[str, str] | None = None) -> None:
        self.extra_env = dict(env or {})
        self.database_url = database_url
        self.instance_path = instance_path
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log_path = instance_path / "server.log"
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> ServerProcess:
        environment = {
            **os.environ,
            "TASKSURFACE_DATABASE_URL": self.database_url,
            "TASKSURFACE_INSTANCE_PATH": str(self.instance_path),
            "TASKSURFACE_SECRET_KEY": "test-secret-key",
            **self.extra_env,
        }
        self.instance_path.mkdir(parents=True, exist_ok=True)
        with self.log_path.open("ab") as log:  # the child keeps its own copy of the descriptor
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
                cwd=PROJECT_ROOT,
                env=environment,
                stdout=log,
                stderr=subprocess.STDOUT,
            )
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise AssertionError(f"the server exited early:\n{self.log()}")
            try:
                requests.get(self.url + "/", timeout=1)
                return self
            except requests.ConnectionError:
                time.sleep(0.05)
        raise AssertionError(f"the server did not start:\n{self.log()}")

    def kill(self) -> None:
        """SIGKILL: no shutdown code runs, as in a crash or an OOM kill."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(10)
        self.process = None

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()
        self.process = None

    def log(self) -> str:
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""
