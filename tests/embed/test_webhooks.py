"""Events out: each reaches a real receiver signed as Standard Webhooks, once it answers 2xx,
from an outbox that survives a crash and never holds what a rolled-back transaction wrote."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from flask import Flask

from tasksurface.config import ConfigurationError, load_settings
from tasksurface.domain.ids import SessionId
from tasksurface.services.webhooks import WebhookDelivery
from tasksurface.store import log, outbox
from tasksurface.store.engine import make_engine
from tasksurface.store.tables import OutboxRow

from ..conftest import services_of
from ..domain.builders import model_with_fields, text_field
from ..server_process import ServerProcess, free_port
from ..support import Api, wait_for
from .receiver import SECRET, Receiver

PANEL = model_with_fields(text_field("release", "Release name"))


@pytest.fixture
def receiver_port() -> int:
    return free_port()


@pytest.fixture
def app_config(database_url: str, receiver_port: int) -> dict[str, Any]:
    return {
        "database_url": database_url,
        "secret_key": "test-secret-key",
        "webhook_url": f"http://127.0.0.1:{receiver_port}/hooks",
        "webhook_secret": SECRET,
        "webhook_max_backoff": 1.0,
    }


@pytest.fixture
def receiver(receiver_port: int) -> Iterator[Receiver]:
    found = Receiver(receiver_port)
    yield found
    found.stop()


def outbox_rows(app: Flask) -> list[OutboxRow]:
    with services_of(app).database.read() as db:
        return list(db.scalars(sa.select(OutboxRow).order_by(OutboxRow.id)))


def open_panel(api: Api, sid: str) -> str:
    api.show_model(sid, PANEL)
    surface: str = api.projection(sid)["active"]["surfaceId"]
    return surface


def test_each_event_is_delivered_signed_and_with_what_it_reports(api: Api, receiver: Receiver) -> None:
    sid = api.create_session()
    surface = open_panel(api, sid)
    assert api.submit(sid, surface, {"release": "Aurora 1.4"})["accepted"]
    api.settled(sid)
    dismissed = open_panel(api, sid)
    api.dismiss(sid, dismissed)
    question = api.ask(sid, "/ask Include staging? | yes | no")
    api.answer(sid, question["callId"], "yes")

    expected = ["session.created", "surface.submitted", "surface.dismissed", "question.answered"]
    wait_for(lambda: receiver.types() == expected, timeout=20)
    created, submitted, closed, answered = (d.verified() for d in receiver.deliveries)
    assert created["data"] == {"sessionId": sid, "user": None, "title": "New session"}
    assert submitted["data"]["surfaceId"] == surface
    assert submitted["data"]["values"] == {"release": "Aurora 1.4"}
    assert "Aurora 1.4" in submitted["data"]["text"]
    assert closed["data"]["surfaceId"] == dismissed
    assert answered["data"] | {"callId": None} == {
        "sessionId": sid,
        "user": None,
        "callId": None,
        "question": "Include staging?",
        "answer": "yes",
    }
    ids = [d.webhook_id for d in receiver.deliveries]
    assert len(set(ids)) == len(ids)
    for delivery in receiver.deliveries:
        assert delivery.headers["content-type"] == "application/json"
        assert abs(int(delivery.headers["webhook-timestamp"]) - datetime.now(UTC).timestamp()) < 60


def test_a_receiver_that_fails_gets_the_same_event_again_until_it_answers_2xx(
    api: Api, app: Flask, receiver_port: int
) -> None:
    failing = Receiver(receiver_port, status=lambda n: 503 if n < 2 else 200)
    try:
        sid = api.create_session()
        wait_for(lambda: len(failing.deliveries) == 1, timeout=20)
        assert failing.requests == 3 and failing.deliveries[0].verified()["data"]["sessionId"] == sid
        row = wait_for(lambda: (rows := outbox_rows(app)) and rows[0].delivered_at and rows[0])
        assert isinstance(row, OutboxRow)
        assert row.attempts == 3 and len(outbox_rows(app)) == 1
        assert row.webhook_id == failing.deliveries[0].webhook_id
    finally:
        failing.stop()


def test_a_receiver_that_is_down_gets_the_event_once_it_is_back(
    api: Api, app: Flask, receiver_port: int
) -> None:
    sid = api.create_session()
    wait_for(lambda: (rows := outbox_rows(app)) and rows[0].attempts >= 2, timeout=20)  # refused twice
    [pending] = outbox_rows(app)
    assert pending.delivered_at is None and "refused" in (pending.last_error or "")
    back = Receiver(receiver_port)
    try:
        wait_for(lambda: back.deliveries, timeout=20)
        assert back.deliveries[0].verified()["data"]["sessionId"] == sid
        assert back.deliveries[0].webhook_id == pending.webhook_id
    finally:
        back.stop()


def test_a_redirect_is_not_followed_only_the_configured_url_is_contacted(
    api: Api, app: Flask, receiver_port: int
) -> None:
    elsewhere = Receiver(free_port())
    redirecting = Receiver(receiver_port, status=lambda n: 307, location=elsewhere.url)
    try:
        api.create_session()
        wait_for(lambda: redirecting.requests >= 2, timeout=20)
        assert elsewhere.requests == 0
        [row] = outbox_rows(app)
        assert row.delivered_at is None and row.last_error == "HTTP 307"
    finally:
        redirecting.stop()
        elsewhere.stop()


def test_an_event_whose_transaction_rolled_back_is_never_sent(
    api: Api, app: Flask, receiver: Receiver
) -> None:
    services = services_of(app)
    with pytest.raises(RuntimeError), services.database.write() as db:
        log.create_session(db, SessionId("s_rolledBack0001"), "gone", datetime.now(UTC), "anon:x")
        raise RuntimeError("the command failed after writing")
    later = api.create_session()  # committed after it: once this arrives, the other had its chance
    wait_for(lambda: receiver.deliveries, timeout=20)
    assert [d.verified()["data"]["sessionId"] for d in receiver.deliveries] == [later]
    assert len(outbox_rows(app)) == 1


def test_a_fork_reports_nothing_it_copied(api: Api, app: Flask, receiver: Receiver) -> None:
    sid = api.create_session()
    surface = open_panel(api, sid)
    api.dismiss(sid, surface)
    wait_for(lambda: receiver.types() == ["session.created", "surface.dismissed"], timeout=20)
    head = api.events(sid)[-1]["seq"]
    assert api.post(f"/api/sessions/{sid}/fork", {"atSeq": head}).status_code in (200, 201)
    assert len(outbox_rows(app)) == 2


def test_several_workers_deliver_each_event_once(app: Flask, receiver: Receiver, database_url: str) -> None:
    """Two processes' workers on one database: every row is leased by one of them only."""
    services = services_of(app)
    assert services.webhooks is not None
    services.webhooks.stop()  # this test drives delivery by hand
    now = datetime.now(UTC)
    with services.database.write() as db:
        for n in range(12):
            log.create_session(db, SessionId(f"s_manyWorkers{n:04d}"), f"t{n}", now, "anon:x")
    workers = [
        WebhookDelivery(services.database, receiver.url, SECRET, lambda: datetime.now(UTC), 1.0),
        WebhookDelivery(
            type(services.database)(make_engine(database_url), reporting=True),
            receiver.url,
            SECRET,
            lambda: datetime.now(UTC),
            1.0,
        ),
    ]
    barrier = threading.Barrier(2)

    def run(worker: WebhookDelivery) -> None:
        barrier.wait()
        while worker.deliver_due():
            pass

    threads = [threading.Thread(target=run, args=(w,)) for w in workers]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    workers[1].database.dispose()
    ids = [d.webhook_id for d in receiver.deliveries]
    assert len(ids) == 12 and len(set(ids)) == 12
    assert all(r.delivered_at is not None and r.attempts == 1 for r in outbox_rows(app))


def test_a_delivery_pending_when_the_server_is_killed_goes_out_after_the_restart(
    database_url: str, tmp_path: Path
) -> None:
    port = free_port()
    env = {
        "TASKSURFACE_WEBHOOK_URL": f"http://127.0.0.1:{port}/hooks",
        "TASKSURFACE_WEBHOOK_SECRET": SECRET,
        "TASKSURFACE_WEBHOOK_MAX_BACKOFF": "1",
        "TASKSURFACE_TASKS": "off",
    }
    server = ServerProcess(database_url, tmp_path / "instance", env).start()
    engine = make_engine(database_url)
    try:
        with Api(server.url) as api:
            sid = api.create_session()

        def attempts() -> int:
            with engine.connect() as connection:
                return int(connection.scalar(sa.select(sa.func.max(OutboxRow.attempts))) or 0)

        wait_for(lambda: attempts() >= 1, timeout=20)  # tried once, receiver down: still pending
        server.kill()
        receiver = Receiver(port)
        try:
            server.start()
            wait_for(lambda: receiver.deliveries, timeout=40)
            assert receiver.deliveries[0].verified()["data"]["sessionId"] == sid
        finally:
            receiver.stop()
    finally:
        server.stop()
        engine.dispose()


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        ({"webhook_url": "http://127.0.0.1:9/hooks"}, "go together"),
        ({"webhook_url": "http://127.0.0.1:9/hooks", "webhook_secret": "not-a-secret"}, "whsec_"),
        ({"webhook_url": "ftp://example.com/", "webhook_secret": SECRET}, "TASKSURFACE_WEBHOOK_URL"),
    ],
)
def test_webhook_settings_that_do_not_fit_refuse_to_start(overrides: dict[str, Any], message: str) -> None:
    with pytest.raises(ConfigurationError, match=message):
        load_settings({"secret_key": "k", **overrides})


def test_delivered_events_are_forgotten_after_a_while_and_pending_ones_never(
    app: Flask, receiver: Receiver
) -> None:
    services = services_of(app)
    assert services.webhooks is not None
    services.webhooks.stop()
    then = datetime(2026, 1, 1, tzinfo=UTC)
    with services.database.write() as db:
        for n in range(3):
            log.create_session(db, SessionId(f"s_pruneTest{n:05d}"), "t", then, "anon:x")
    [old, recent, pending] = [r.id for r in outbox_rows(app)]
    with services.database.write() as db:
        outbox.mark_delivered(db, old, then)
        outbox.mark_delivered(db, recent, then + timedelta(days=10))
    with services.database.write() as db:
        assert outbox.prune_delivered(db, then + timedelta(days=3)) == 1
    assert [r.id for r in outbox_rows(app)] == [recent, pending]
