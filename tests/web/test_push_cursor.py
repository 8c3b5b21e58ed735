"""A socket that connects while changes commit gets each event once: in its hello or pushed."""

from __future__ import annotations

import threading
from datetime import UTC, datetime
from typing import Any

from flask import Flask

from tasksurface.domain.events import NewEvent
from tasksurface.services.container import Services
from tasksurface.store import log
from tasksurface.web.push import PushHub


def test_a_change_committed_while_the_hello_is_built_is_not_pushed_again(
    app: Flask, services: Services
) -> None:
    hub: PushHub = app.extensions["tasksurface.push"]
    sid = services.sessions.create()
    pusher: list[threading.Thread] = []

    def hello() -> dict[str, Any]:
        # A change commits and its push starts, racing the hello being read.
        with services.database.write() as db:
            event = log.append(db, sid, NewEvent("assistant/message", {"text": "racing"}), datetime.now(UTC))
        pusher.append(threading.Thread(target=hub.changed, args=(sid,), kwargs={"events": [event]}))
        pusher[0].start()
        with services.database.read() as db:
            return {"type": "hello", "events": [{"seq": e.seq} for e in log.events_after(db, sid, 0)]}

    subscription, first = hub.open(sid, 0, hello)
    try:
        pusher[0].join(10)
        assert [e["seq"] for e in first["events"]] == [1]
        pushed = subscription.messages.get(timeout=5)
        assert pushed["events"] == []  # the push read after the hello's cursor
    finally:
        hub.unsubscribe(subscription)
