"""The chat page leaves in two parts over a real socket: its head (stylesheet, page script,
socket) while the server still draws the body, each part compressed and flushed on its own; the
reads behind it end with the page, even when it fails half way or is never read."""

from __future__ import annotations

import logging
import re
import threading
import zlib
from collections.abc import Callable, Iterator
from typing import Any

import brotli
import pytest
import requests
from flask import Flask
from markupsafe import Markup
from sqlalchemy.pool import QueuePool

from tasksurface.services.container import Services
from tasksurface.web import views

from ..conftest import LiveServer
from ..support import Api, wait_for


def _decoder(encoding: str) -> Callable[[bytes], bytes]:
    if encoding == "br":
        process: Callable[[bytes], bytes] = brotli.Decompressor().process  # brotli ships no types
        return process
    if encoding == "gzip":
        return zlib.decompressobj(zlib.MAX_WBITS | 16).decompress
    return bytes


def _held(monkeypatch: pytest.MonkeyPatch, name: str) -> threading.Event:
    """`views.<name>` waits until the test sets the event it returns."""
    release = threading.Event()
    run = getattr(views, name)

    def held(*args: Any, **kwargs: Any) -> Any:
        assert release.wait(10), f"{name} was never let go"
        return run(*args, **kwargs)

    monkeypatch.setattr(views, name, held)
    return release


@pytest.fixture
def held_rows(monkeypatch: pytest.MonkeyPatch) -> Iterator[threading.Event]:
    """The transcript's rows (drawn in the body) wait until the test lets them go."""
    release = _held(monkeypatch, "render_event")
    yield release
    release.set()


@pytest.mark.parametrize("encoding", ["br", "gzip", "identity"])
def test_the_head_arrives_while_the_body_is_still_being_drawn(
    live_server: LiveServer, api: Api, held_rows: threading.Event, encoding: str
) -> None:
    sid = api.create_session()
    api.show_surface(sid)
    with requests.get(
        f"{live_server.url}/sessions/{sid}",
        cookies=api.http.cookies,
        headers={"Accept-Encoding": encoding},
        stream=True,
        timeout=10,
    ) as response:
        assert response.status_code == 200
        assert response.headers.get("Content-Encoding", "identity") == encoding
        assert "Accept-Encoding" in response.headers["Vary"]
        decode = _decoder(encoding)
        parts = response.raw.read_chunked(decode_content=False)
        head = decode(next(parts)).decode()
        assert not held_rows.is_set()  # the body is not drawn yet, and the head is readable
        assert head.rstrip().endswith("</head>")
        assert 'rel="stylesheet"' in head and "/assets/session." in head and "data-socket=" in head
        held_rows.set()
        body = b"".join(decode(part) for part in parts).decode()
    assert "task-surface-dock" in body and body.rstrip().endswith("</html>")
    assert "Here is a panel for that." in body  # the transcript's rows, drawn once let go


def test_the_page_read_whole_is_the_same_page(api: Api) -> None:
    sid = api.create_session()
    api.show_surface(sid)
    compressed = api.get(f"/sessions/{sid}", headers={"Accept-Encoding": "br"}).text
    plain = api.get(f"/sessions/{sid}", headers={"Accept-Encoding": "identity"}).text

    def without_fresh_ids(page: str) -> str:  # each page gets new submission and dismissal ids
        return re.sub(r'value="[A-Za-z0-9_-]{22}"', 'value=""', page)

    assert without_fresh_ids(compressed) == without_fresh_ids(plain)
    assert plain.count("<html") == 1 and plain.rstrip().endswith("</html>")


def test_a_failure_after_the_head_ends_the_page_with_a_notice(
    app: Flask, services: Services, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    client = app.test_client()
    sid = client.post("/api/sessions", json={}).get_json()["sessionId"]
    client.post(f"/api/sessions/{sid}/messages", json={"text": "hello"})
    wait_for(lambda: client.get(f"/api/sessions/{sid}/events").get_json()["events"])

    def broken(*args: Any) -> Markup:
        raise RuntimeError("a row that cannot be drawn")

    monkeypatch.setattr(views, "render_event", broken)
    with caplog.at_level(logging.ERROR):
        page = client.get(f"/sessions/{sid}").get_data(as_text=True)
    assert page.count("</head>") == 1
    assert 'role="alert"' in page and "could not be shown in full" in page
    assert page.rstrip().endswith("</html>")
    assert any("failed after its head was sent" in r.getMessage() for r in caplog.records)
    _no_connection_held(services)  # the snapshot ended with the page


def test_a_page_never_read_still_ends_its_reads(app: Flask, services: Services) -> None:
    client = app.test_client()
    sid = client.post("/api/sessions", json={}).get_json()["sessionId"]
    assert client.head(f"/sessions/{sid}").status_code == 200
    response = client.get(f"/sessions/{sid}", buffered=False)
    response.close()  # the browser went away before the first byte was written
    _no_connection_held(services)


def _no_connection_held(services: Services) -> None:
    """A snapshot left open would hold its connection for good; the runner's are brief."""

    def checked_out() -> int:
        pool = services.database.engine.pool
        assert isinstance(pool, QueuePool)
        return pool.checkedout()

    wait_for(lambda: checked_out() == 0 or None, timeout=5)


def test_a_refusal_is_still_a_whole_page_with_its_status(api: Api) -> None:
    response = api.get("/sessions/s_missing0000000")
    assert response.status_code == 404
    assert 'data-code="' in response.text and response.text.rstrip().endswith("</html>")


@pytest.fixture
def held_dock(monkeypatch: pytest.MonkeyPatch) -> Iterator[threading.Event]:
    """The dock's reads (only the body needs them) wait until the test lets them go."""
    release = _held(monkeypatch, "dock_view")
    yield release
    release.set()


def test_the_head_leaves_before_the_reads_only_the_body_needs(
    live_server: LiveServer, api: Api, held_dock: threading.Event
) -> None:
    sid = api.create_session()
    api.show_surface(sid)
    events = api.events(sid)
    open_row = max(e["seq"] for e in events if e["kind"] == "tool/result")
    with requests.get(
        f"{live_server.url}/sessions/{sid}",
        cookies=api.http.cookies,
        headers={"Accept-Encoding": "identity"},
        stream=True,
        timeout=10,
    ) as response:
        parts = response.raw.read_chunked(decode_content=False)
        head = next(parts).decode()
        assert not held_dock.is_set()  # the dock is not read yet
        # What the head names was read already: the socket starts after the last event and
        # names the row of the open panel.
        assert f'data-socket="/ws/sessions/{sid}?after={events[-1]["seq"]}&amp;open={open_row}"' in head
        held_dock.set()
        body = b"".join(parts).decode()
    assert 'id="task-surface-dock"' in body and body.rstrip().endswith("</html>")


def test_a_bad_page_position_is_refused_before_anything_is_sent(api: Api) -> None:
    sid = api.create_session()
    response = api.get(f"/sessions/{sid}?before=soon")
    assert response.status_code == 400
    assert response.text.count("<html") == 1 and 'data-code="' in response.text
