"""The operator's endpoints and the drain, on the in-process app over real HTTP and websockets."""

from __future__ import annotations

import json

import sqlalchemy as sa
import websocket
from alembic import command
from flask import Flask

from tasksurface.services.container import Services
from tasksurface.store import inbox
from tasksurface.store.engine import alembic_config
from tasksurface.web.ops import begin_drain

from ..support import Api, wait_for


def socket_for(api: Api, sid: str) -> websocket.WebSocket:
    cookie = "; ".join(f"{c.name}={c.value}" for c in api.http.cookies)
    return websocket.create_connection(
        api.base.replace("http", "ws", 1) + f"/ws/sessions/{sid}", cookie=cookie, origin=api.base, timeout=10
    )


def close_code(ws: websocket.WebSocket) -> tuple[int, bytes]:
    """The first frame must be the close frame: its code and reason."""
    opcode, frame = ws.recv_data_frame(True)
    assert opcode == websocket.ABNF.OPCODE_CLOSE
    return int.from_bytes(frame.data[:2], "big"), frame.data[2:]


def test_healthz_answers_without_a_cookie_or_the_database(api: Api, services: Services) -> None:
    engine = services.database.engine
    services.database.engine = sa.create_engine("postgresql+psycopg://nobody@127.0.0.1:9/none")
    try:
        response = api.http.get(api.base + "/healthz", timeout=10)
        assert response.status_code == 200
        assert response.json() == {"status": "alive"}
        assert "set-cookie" not in {k.lower() for k in response.headers}
        ready = api.get("/readyz")
        assert ready.status_code == 503
        assert ready.json()["reason"].startswith("database unreachable")
    finally:
        services.database.engine = engine
    assert api.get("/readyz").json() == {"status": "ready"}


def test_readyz_refuses_a_schema_behind_the_head(api: Api, services: Services) -> None:
    assert api.get("/readyz").status_code == 200
    with services.database.engine.begin() as connection:
        command.downgrade(alembic_config(connection), "-1")
    try:
        ready = api.get("/readyz")
        assert ready.status_code == 503
        assert ready.json()["status"] == "not-ready"
        assert "schema not current" in ready.json()["reason"]
        assert "alembic upgrade head" in ready.json()["reason"]
    finally:
        with services.database.engine.begin() as connection:
            command.upgrade(alembic_config(connection), "head")
    assert api.get("/readyz").status_code == 200


def test_a_drain_closes_sockets_with_1012_and_refuses_new_ones(app: Flask, api: Api) -> None:
    sid = api.create_session()
    held = socket_for(api, sid)
    try:
        assert json.loads(held.recv())["type"] == "hello"
        assert begin_drain(app) == 1
        assert close_code(held) == (1012, b"server-restart")
    finally:
        held.close()
        held.shutdown()  # type: ignore[no-untyped-call]  # websocket-client leaves it unannotated
    late = socket_for(api, sid)  # a page reconnecting into a stopping process is sent on at once
    try:
        assert close_code(late) == (1012, b"server-restart")
    finally:
        late.close()
        late.shutdown()  # type: ignore[no-untyped-call]  # websocket-client leaves it unannotated
    ready = api.get("/readyz")
    assert ready.status_code == 503
    assert ready.json()["reason"].startswith("stopping")


def test_a_stopping_runner_claims_nothing_and_leaves_a_claimed_row_queued(
    app: Flask, api: Api, services: Services
) -> None:
    sid = api.create_session()
    api.pause(sid)
    api.send(sid, "still here after the restart")
    begin_drain(app)
    api.pause(sid, False)  # a wake-up while stopping starts no runner
    assert wait_for(services.runner.idle)
    with services.database.read() as db:
        [item] = inbox.items(db, sid)
    # An admission that had claimed the row when the stop came (holding the session's lease, as a
    # runner does): it is discarded, and the row stays.
    leases = services.runner.leases
    assert leases.acquire(sid)
    try:
        services.runner._process(item.session_id, item)
    finally:
        leases.release(sid)
    assert [i["id"] for i in api.queue(sid)] == [item.id]
    assert services.journal.records()[-1].reason == "runner stopped"
    assert "user/message" not in api.kinds(sid)
    assert wait_for(lambda: services.claims.claimed() == frozenset())
