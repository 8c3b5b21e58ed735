"""gunicorn's configuration for `app:app` (scripts/serve-production.sh uses it).

Worker model: `gthread`, one process with `TASKSURFACE_WEB_THREADS` threads (1000 by default).
flask-sock holds one thread per open websocket for the life of the page, so the thread count
is the number of tabs one process can hold; plain requests take the threads left over.
The settings come from the same typed model as the app's, so a wrong value stops the start
with the setting's name.
"""

from __future__ import annotations

import os
import shutil
import signal
import sys
import tempfile
import threading
from typing import Any

from tasksurface.config import ConfigurationError, load_settings
from tasksurface.serving import SeveralProcessesOnSqlite, check_processes

try:
    _settings = load_settings(derive_secret=False)
except ConfigurationError as exc:
    sys.exit(str(exc))

bind = [f"{_settings.bind_host}:{_settings.port}"]
workers = _settings.web_concurrency
worker_class = "gthread"
threads = _settings.web_threads
worker_connections = _settings.web_threads + 256  # headroom for kept-alive plain requests
graceful_timeout = int(_settings.shutdown_grace)
timeout = 60
keepalive = 5
accesslog = "-"
errorlog = "-"
loglevel = "info"

# Metrics of every worker add up in one scrape: prometheus_client's multiprocess mode keeps
# each process's figures in files of this folder (it must be set before any worker imports it).
_own_metrics_dir = not os.environ.get("PROMETHEUS_MULTIPROC_DIR")
if _own_metrics_dir:
    os.environ["PROMETHEUS_MULTIPROC_DIR"] = tempfile.mkdtemp(prefix="tasksurface-metrics-")


def on_starting(server: Any) -> None:
    """The final worker count (command line included) on SQLite is refused before any worker starts."""
    try:
        check_processes(_settings.database_url, int(server.cfg.workers))
    except SeveralProcessesOnSqlite as exc:
        sys.exit(f"Error: {exc}")
    folder = os.environ["PROMETHEUS_MULTIPROC_DIR"]
    os.makedirs(folder, exist_ok=True)
    for name in os.listdir(folder):  # figures of an earlier run are not this run's
        if name.endswith(".db"):
            os.remove(os.path.join(folder, name))


def post_worker_init(worker: Any) -> None:
    """SIGTERM first drains (no new claims, sockets closed with 1012), then stops as gunicorn does."""
    from tasksurface.web.ops import begin_drain

    stop_worker = signal.getsignal(signal.SIGTERM)

    def on_term(signum: int, frame: Any) -> None:
        threading.Thread(target=begin_drain, args=(worker.wsgi,), name="drain", daemon=True).start()
        if callable(stop_worker):
            stop_worker(signum, frame)

    signal.signal(signal.SIGTERM, on_term)


def child_exit(server: Any, worker: Any) -> None:
    from prometheus_client import multiprocess

    multiprocess.mark_process_dead(worker.pid)


def on_exit(server: Any) -> None:
    if _own_metrics_dir:
        shutil.rmtree(os.environ["PROMETHEUS_MULTIPROC_DIR"], ignore_errors=True)
