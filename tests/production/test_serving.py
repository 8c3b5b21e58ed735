"""The production server: many open pages on one process, SQLite kept to one process."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import requests
import websocket

from ..support import Api, wait_for
from .conftest import Launcher
from .gunicorn_process import ProductionServer

OPEN_PAGES = 60
"""Well past the 16 threads the old recommended command had, and cheap enough for a test run."""


def open_socket(api: Api, sid: str) -> websocket.WebSocket:
    cookie = "; ".join(f"{c.name}={c.value}" for c in api.http.cookies)
    ws = websocket.create_connection(
        api.base.replace("http", "ws", 1) + f"/ws/sessions/{sid}", cookie=cookie, origin=api.base, timeout=30
    )
    hello = json.loads(ws.recv())
    assert hello["type"] == "hello"
    return ws


def close(ws: websocket.WebSocket) -> None:
    """Close, and free the socket even when the server closed first (then `close` alone keeps it)."""
    ws.close()
    ws.shutdown()  # type: ignore[no-untyped-call]  # websocket-client leaves it unannotated


def metric(base: str, name: str) -> float:
    for line in requests.get(base + "/metrics", timeout=10).text.splitlines():
        if line.startswith(name + " "):
            return float(line.split()[1])
    raise AssertionError(f"{name} is not in /metrics")


def test_one_process_holds_many_open_pages_while_plain_requests_answer(server: ProductionServer) -> None:
    sockets = []
    with Api(server.url) as api:
        try:
            for _ in range(OPEN_PAGES):
                sockets.append(open_socket(api, api.create_session()))
            assert metric(server.url, "tasksurface_websocket_connections") == OPEN_PAGES
            page = requests.get(server.url + "/", timeout=10)
            assert page.status_code == 200
            assert requests.get(server.url + "/healthz", timeout=10).json() == {"status": "alive"}
        finally:
            for ws in sockets:
                close(ws)
        wait_for(lambda: metric(server.url, "tasksurface_websocket_connections") == 0, timeout=30)


def test_the_thread_count_is_a_typed_setting_that_refuses_nonsense(production: Launcher) -> None:
    server = production({"TASKSURFACE_WEB_THREADS": "lots"})
    code = server.launch().wait(60)
    assert code != 0
    assert "TASKSURFACE_WEB_THREADS" in server.log()


@pytest.mark.parametrize("how", ["WEB_CONCURRENCY", "--workers"])
def test_several_processes_on_sqlite_refuse_to_start_and_say_why(
    how: str, tmp_path: Path, database_url: str
) -> None:
    if not database_url.startswith("sqlite"):
        pytest.skip("the rule is SQLite's")
    server = ProductionServer(
        database_url, tmp_path / "instance", {"WEB_CONCURRENCY": "3"} if how == "WEB_CONCURRENCY" else {}
    )
    try:
        process = server.launch(*(["--workers", "2"] if how == "--workers" else []))
        assert process.wait(60) != 0
        log = server.log()
        assert "SQLite serves one process" in log
        assert "PostgreSQL" in log and "WEB_CONCURRENCY=1" in log
        assert "Booting worker" not in log  # refused before any worker started
        with pytest.raises(requests.ConnectionError):
            requests.get(server.url + "/healthz", timeout=2)
    finally:
        server.stop()


@pytest.mark.postgres
def test_several_processes_on_postgresql_start_and_sum_their_metrics(
    production: Launcher, database_url: str
) -> None:
    if not database_url.startswith("postgresql"):
        pytest.skip("several processes need PostgreSQL")
    server = production({"WEB_CONCURRENCY": "2"}).start()
    wait_for(lambda: server.log().count("Booting worker") >= 2, timeout=60)
    with Api(server.url) as api:
        sockets = [open_socket(api, api.create_session()) for _ in range(8)]
        try:
            # Eight sockets spread over both workers, and every scrape, whichever worker answers, sums them.
            for _ in range(6):
                assert metric(server.url, "tasksurface_websocket_connections") == 8
        finally:
            for ws in sockets:
                close(ws)
