"""Real gunicorn processes on one PostgreSQL schema, and a switchable front door for them."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

import requests
import sqlalchemy as sa

from tasksurface.store.engine import normalise_url

from ..server_process import PROJECT_ROOT, free_port

GUNICORN = str(Path(os.environ.get("VIRTUAL_ENV", PROJECT_ROOT / ".venv")) / "bin" / "gunicorn")


class Gunicorn:
    """`gunicorn -w 1 -k gthread --threads 64 app:app` in its own process group, so a SIGKILL
    takes the arbiter and its worker at once, as a crash of the machine's process would."""

    def __init__(
        self, database_url: str, instance_path: Path, name: str, env: dict[str, str] | None = None
    ) -> None:
        self.extra_env = dict(env or {})
        self.database_url = database_url
        self.instance_path = instance_path
        self.name = name
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log_path = instance_path / f"{name}.log"
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> Gunicorn:
        self.instance_path.mkdir(parents=True, exist_ok=True)
        environment = {
            **os.environ,
            "TASKSURFACE_DATABASE_URL": self.database_url,
            "TASKSURFACE_INSTANCE_PATH": str(self.instance_path),
            "TASKSURFACE_SECRET_KEY": "test-secret-key",
            "TASKSURFACE_TASKS": "off",
            **self.extra_env,
        }
        command = [GUNICORN, "-w", "1", "-k", "gthread", "--threads", "64"]
        command += ["-b", f"127.0.0.1:{self.port}", "--graceful-timeout", "5", "app:app"]
        with self.log_path.open("ab") as log:
            self.process = subprocess.Popen(
                command,
                cwd=PROJECT_ROOT,
                env=environment,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise AssertionError(f"{self.name} exited early:\n{self.log()}")
            try:
                requests.get(self.url + "/", timeout=5)
                return self
            except (requests.ConnectionError, requests.Timeout):
                time.sleep(0.1)
        raise AssertionError(f"{self.name} did not start:\n{self.log()}")

    def owns(self, pid: int) -> bool:
        """Whether `pid` is this server's arbiter or worker."""
        if self.process is None:
            return False
        try:
            return os.getpgid(pid) == self.process.pid
        except ProcessLookupError:
            return False

    def kill(self) -> None:
        """SIGKILL to the whole group: no shutdown code runs anywhere."""
        if self.process is not None and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(10)
        self.process = None

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(15)
            except subprocess.TimeoutExpired:
                self.kill()
        self.process = None

    def log(self) -> str:
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""


@contextmanager
def servers(
    database_url: str, instance_path: Path, count: int, env: dict[str, str] | None = None
) -> Iterator[list[Gunicorn]]:
    """`count` servers on one database; every one is stopped (or killed) at the end."""
    started: list[Gunicorn] = []
    try:
        for n in range(count):
            started.append(Gunicorn(database_url, instance_path, f"server-{n}", env).start())
        yield started
    finally:
        for server in started:
            server.stop()


def claim_owner(database_url: str, item_filter: str = "claim = 'admit'") -> int | None:
    """The pid of the process whose admission claim is on an inbox row (tokens carry the pid)."""
    engine = sa.create_engine(normalise_url(database_url))
    try:
        with engine.connect() as connection:
            token = connection.exec_driver_sql(
                f"SELECT claimed_by FROM inbox_items WHERE {item_filter}"
            ).scalar()
    finally:
        engine.dispose()
    return int(str(token).split("-")[-2]) if token else None


class FrontDoor:
    """A TCP forwarder on one port, like a load balancer: the browser keeps one origin (and so
    its drafts) while `target` decides which process new connections reach."""

    def __init__(self, target: int) -> None:
        self.target = target
        self._listener = socket.socket()
        self._listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self._listener.bind(("127.0.0.1", 0))
        self._listener.listen(64)
        self.port: int = self._listener.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}"
        self._open: list[socket.socket] = []
        self._lock = threading.Lock()
        self._closed = False
        threading.Thread(target=self._accept, daemon=True).start()

    def switch(self, target: int) -> None:
        """New connections go to `target`; open ones are cut, as when their process goes away."""
        self.target = target
        with self._lock:
            for connection in self._open:
                _close(connection)
            self._open.clear()

    def close(self) -> None:
        self._closed = True
        _close(self._listener)
        self.switch(self.target)

    def _accept(self) -> None:
        while not self._closed:
            try:
                client, _ = self._listener.accept()
            except OSError:
                return
            try:
                upstream = socket.create_connection(("127.0.0.1", self.target), timeout=10)
                upstream.settimeout(None)
            except OSError:
                _close(client)
                continue
            with self._lock:
                self._open += [client, upstream]
            for source, sink in ((client, upstream), (upstream, client)):
                threading.Thread(target=_pipe, args=(source, sink), daemon=True).start()


def _pipe(source: socket.socket, sink: socket.socket) -> None:
    try:
        while chunk := source.recv(65536):
            sink.sendall(chunk)
    except OSError:
        pass
    finally:
        _close(source)
        _close(sink)


def _close(connection: socket.socket) -> None:
    with suppress(OSError):
        connection.shutdown(socket.SHUT_RDWR)
    connection.close()
