"""The app with timing points, for `trace_load.py`: `flask --app bench.timed_app run`.

Each point is one line appended to the file named by `TASKSURFACE_TIMING_LOG`: the wall clock in
ms (the browser's `performance.timeOrigin` is on the same clock, on one machine), the thread, what
happened and a detail. The points are the development server's (a connection accepted, its
request line read), each request's way through the app (in, and out once its last byte is
written), and the round trip's: a call read from the socket and answered, a change committed (its
event kinds), the push built (its wall and CPU time) and each websocket frame sent. They wrap the
functions that do those things, so a bench only ever serves this module; the app is unchanged.
`TASKSURFACE_TIMING_SWITCH_INTERVAL` sets the interpreter's switch interval, for an experiment.
"""

from __future__ import annotations

import os
import socketserver
import sys
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from typing import Any

import simple_websocket.ws
import werkzeug.serving

from app import app
from tasksurface.web import push, ws

LOG = os.environ.get("TASKSURFACE_TIMING_LOG", "timing.log")
SWITCH_INTERVAL = os.environ.get("TASKSURFACE_TIMING_SWITCH_INTERVAL")
"""Seconds, for an experiment: how long a thread may hold the interpreter while another waits."""
_write_lock = threading.Lock()


def note(what: str, detail: str = "") -> None:
    line = f"{time.time() * 1000:.3f}\t{threading.current_thread().name}\t{what}\t{detail}\n"
    with _write_lock, open(LOG, "a", encoding="utf-8") as log:
        log.write(line)


def _around(owner: Any, name: str, before: Callable[..., None], after: Callable[..., None]) -> None:
    """`owner.name` wrapped: `before(*args)` as it is called, `after(*args)` once it returned."""
    original = getattr(owner, name)

    def wrapped(*args: Any, **kwargs: Any) -> Any:
        before(*args, **kwargs)
        result = original(*args, **kwargs)
        after(*args, **kwargs)
        return result

    setattr(owner, name, wrapped)


def _ignore(*_args: Any, **_kwargs: Any) -> None:
    return None


def _kinds(_hub: Any, _session: Any, events: Iterable[Any] = (), *_args: Any, **_kwargs: Any) -> None:
    note("committed", ",".join(e.kind for e in events if e is not None))


class _Timed:
    """Each request in, and out once the server has taken its last byte."""

    def __init__(self, inner: Callable[..., Iterable[bytes]]) -> None:
        self.inner = inner

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterator[bytes]:
        path = environ.get("PATH_INFO", "")
        note("view-in", path)
        body = self.inner(environ, start_response)
        try:
            yield from body
        finally:
            close = getattr(body, "close", None)
            if close is not None:
                close()
            note("view-out", path)


class _BuildClock:
    """The push's build, timed in wall and CPU time on the thread that builds it."""

    def __init__(self) -> None:
        self.started = threading.local()

    def before(self, *_args: Any, **_kwargs: Any) -> None:
        self.started.at = (time.perf_counter(), time.thread_time(), run_queue_ns())

    def after(self, *_args: Any, **_kwargs: Any) -> None:
        wall, cpu, queued = self.started.at
        wall_ms, cpu_ms = (time.perf_counter() - wall) * 1000, (time.thread_time() - cpu) * 1000
        queued_ms = (run_queue_ns() - queued) / 1e6
        note("push-built", f"{wall_ms:.2f} ms wall, {cpu_ms:.2f} ms CPU, {queued_ms:.2f} ms ready for a core")


def run_queue_ns() -> int:
    """How long this thread has waited, ready to run, for a core (Linux; 0 elsewhere): the part
    of a wall time that the machine's other processes took, as opposed to the interpreter lock."""
    try:
        with open("/proc/thread-self/schedstat", encoding="ascii") as stat:
            return int(stat.read().split()[1])
    except OSError:
        return 0


_clock = _BuildClock()
_around(socketserver.ThreadingMixIn, "process_request", lambda *_a: note("accepted"), _ignore)
_around(werkzeug.serving.WSGIRequestHandler, "parse_request", _ignore, lambda h: note("read", h.path))
_around(ws, "_answer", lambda *_a: note("rpc-in"), lambda *_a: note("rpc-answered"))
_around(push.PushHub, "changed", _kinds, _ignore)
_around(push.PushHub, "_deliver_change", _clock.before, _clock.after)
_around(simple_websocket.ws.Base, "send", _ignore, lambda _ws, data: note("frame-sent", str(len(data))))
app.wsgi_app = _Timed(app.wsgi_app)  # type: ignore[method-assign]
if SWITCH_INTERVAL:
    sys.setswitchinterval(float(SWITCH_INTERVAL))
