"""A websocket's reader thread: quiet when this side closed the connection before its first look,
and every other failure of it still shows."""

from __future__ import annotations

import errno
import json
import threading
from collections.abc import Iterator

import pytest
import simple_websocket
from flask import Flask

from tasksurface.web.socket_reader import SocketReader

from ..support import Api


class Connection:
    """Stands in for the library's connection: its read loop fails as the race makes it fail."""

    def __init__(self, connected: bool, error: BaseException) -> None:
        self.connected = connected
        self.error = error

    def _thread(self) -> None:
        raise self.error


@pytest.fixture
def thread_errors() -> Iterator[list[threading.ExceptHookArgs]]:
    """What reached `threading.excepthook` (the test runner's own hook is put back afterwards)."""
    seen: list[threading.ExceptHookArgs] = []
    previous = threading.excepthook
    threading.excepthook = seen.append
    try:
        yield seen
    finally:
        threading.excepthook = previous


def run(connection: Connection) -> None:
    reader = SocketReader(target=connection._thread)
    reader.start()
    reader.join(5)
    assert not reader.is_alive()


def test_a_closed_file_after_this_side_closed_ends_the_reader_quietly(
    thread_errors: list[threading.ExceptHookArgs],
) -> None:
    run(Connection(connected=False, error=OSError(errno.EBADF, "Bad file descriptor")))
    assert thread_errors == []


def test_a_socket_error_while_still_connected_is_raised(
    thread_errors: list[threading.ExceptHookArgs],
) -> None:
    run(Connection(connected=True, error=OSError(errno.EBADF, "Bad file descriptor")))
    assert [e.exc_type for e in thread_errors] == [OSError]


def test_any_other_error_of_a_closed_connection_is_raised(
    thread_errors: list[threading.ExceptHookArgs],
) -> None:
    run(Connection(connected=False, error=RuntimeError("a defect in the read loop")))
    assert [e.exc_type for e in thread_errors] == [RuntimeError]


def test_the_app_gives_every_websocket_this_reader(app: Flask) -> None:
    assert app.config["SOCK_SERVER_OPTIONS"]["thread_class"] is SocketReader


def test_the_library_runs_a_real_connection_in_it_to_the_end(api: Api) -> None:
    """The library's own read loop, in this thread class, on a real socket to the live server:
    it hears the hello, and ends without an error once the connection is closed."""
    sid = api.create_session()
    url = api.base.replace("http://", "ws://") + f"/ws/sessions/{sid}"
    client = simple_websocket.Client.connect(url, headers={"Cookie": api.cookie()}, thread_class=SocketReader)
    try:
        hello = json.loads(str(client.receive(timeout=10)))
        assert hello["type"] == "hello"
        assert isinstance(client.thread, SocketReader)
    finally:
        client.close()
    client.thread.join(10)
    assert not client.thread.is_alive()
