"""Streamed text and panels being written never reach a page after the events that replaced them.

Pushes are built on the push worker, each from a fresh read: a change asked for before some
streamed text but built after the reply was logged already carries that reply, and the text,
now stale, must not follow it.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from flask import Flask

from tasksurface.domain.events import NewEvent, SessionEvent
from tasksurface.domain.ids import SessionId
from tasksurface.services.container import Services
from tasksurface.store import log
from tasksurface.web.push import PushHub, Subscription


def _append(services: Services, sid: SessionId, text: str) -> SessionEvent:
    with services.database.write() as db:
        return log.append(db, sid, NewEvent("assistant/message", {"text": text}), datetime.now(UTC))


def _drain(hub: PushHub, subscription: Subscription) -> list[dict[str, Any]]:
    assert hub.flush()
    messages = []
    while not subscription.messages.empty():
        messages.append(subscription.messages.get_nowait())
    return messages


def _kinds(messages: list[dict[str, Any]]) -> list[str]:
    return [
        m["type"] if m["type"] != "change" else ",".join(e["kind"] for e in m["events"]) for m in messages
    ]


def test_text_streamed_before_a_reply_that_an_earlier_change_already_carries_is_dropped(
    app: Flask, services: Services
) -> None:
    hub: PushHub = app.extensions["tasksurface.push"]
    sid = services.sessions.create()
    subscription = hub.subscribe(sid, 0)
    try:
        first = _append(services, sid, "first")
        with hub._session_locks[sid]:  # the worker is held while the news piles up
            hub.changed(sid, events=[first])
            hub.partial(sid, "the reply so f")  # streamed after the first event was announced
            reply = _append(services, sid, "the reply so far")  # then the reply is logged
            hub.changed(sid, events=[reply])
        messages = _drain(hub, subscription)
    finally:
        hub.unsubscribe(subscription)
    # The change asked for first was built after the reply committed, so it carries both.
    assert _kinds(messages)[0] == "assistant/message,assistant/message"
    assert "partial" not in _kinds(messages)


def test_text_streamed_after_every_event_pushed_so_far_still_arrives_in_order(
    app: Flask, services: Services
) -> None:
    hub: PushHub = app.extensions["tasksurface.push"]
    sid = services.sessions.create()
    subscription = hub.subscribe(sid, 0)
    try:
        first = _append(services, sid, "first")
        with hub._session_locks[sid]:
            hub.changed(sid, events=[first])
            hub.partial(sid, "the reply so f")
            hub.partial(sid, "the reply so far")
        messages = _drain(hub, subscription)
        reply = _append(services, sid, "the reply so far")
        hub.changed(sid, events=[reply])
        messages += _drain(hub, subscription)
    finally:
        hub.unsubscribe(subscription)
    kinds = _kinds(messages)
    assert kinds[0] == kinds[-1] == "assistant/message"
    assert 1 <= len(kinds[1:-1]) <= 2 and set(kinds[1:-1]) == {"partial"}  # merged if both waited
    assert messages[-2]["text"] == "the reply so far"
