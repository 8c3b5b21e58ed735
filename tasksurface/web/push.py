"""Live updates: every committed change of a session is pushed to its websocket subscribers.

Messages for one session are built on the push worker (`push_queue`), in the order they
were asked for, under that session's lock, each from a fresh read, so the last message a
subscriber gets always shows the latest state. Events are read from the log after each
subscriber's own cursor, never taken from the caller: whichever process committed them, and
in whatever order the news arrives, a subscriber gets log order with no gap and no repeat.
"""

from __future__ import annotations

import queue
import threading
from collections import defaultdict
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from flask import Flask

from ..domain.events import SessionEvent
from ..domain.ids import SessionId
from ..domain.presentation import TOOL_NAME
from ..domain.preview import Preview, preview
from ..domain.projection import ActiveSurface
from ..store import log
from . import views
from .i18n import COOKIE as LANGUAGE_COOKIE
from .push_messages import News, fresh_id, read_queue, with_events
from .push_queue import PushQueue

if TYPE_CHECKING:
    from ..services.container import Services

MAX_BACKLOG = 1000
MAX_PUSH_EVENTS = 200
"""A subscriber further behind than this reloads instead (as a hello would tell it to)."""
QUIET_CHANGE_HOLD = 0.05
"""Seconds a change that logged nothing waits for the commit that usually follows it (a queued
row for its admission, a claim for its admitted message), so the page gets one message, not three."""
TURN_START_HOLD = 0.015
"""Seconds an admitted message waits for the first words of the turn it starts (an answer logged,
streamed text, a panel being written), so the two reach the page together."""


class Subscription:
    def __init__(self, session_id: SessionId, after: int = 0) -> None:
        self.session_id = session_id
        self.cursor = after
        """The last seq this subscriber was sent (or had before it subscribed)."""
        self.language = "en"
        """The page's language, for messages rendered per subscriber (the task tray's)."""
        self.messages: queue.Queue[dict[str, Any]] = queue.Queue(MAX_BACKLOG)
        self.overflowed = False

    def put(self, message: dict[str, Any]) -> None:
        try:
            self.messages.put_nowait(message)
        except queue.Full:
            # A subscriber that cannot keep up reloads instead of missing changes.
            self.overflowed = True


class PushHub:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._subscribers: dict[SessionId, set[Subscription]] = defaultdict(set)
        self._session_locks: dict[SessionId, threading.Lock] = defaultdict(threading.Lock)
        self._last_active: dict[SessionId, ActiveSurface | None] = {}
        self._previews: dict[SessionId, tuple[str, Preview]] = {}
        """The last preview pushed per session, so an unchanged one is not pushed again."""
        self._announced: dict[SessionId, int] = {}
        """The newest seq each session's committers have announced (read when text is streamed)."""
        self._sent: dict[SessionId, int] = {}
        """The newest seq pushed to each session's subscribers (on the push worker)."""
        self._app: Flask | None = None
        self._services: Services | None = None
        self._queue = PushQueue(self._deliver)

    def attach(self, app: Flask, services: Services) -> None:
        self._app = app
        self._services = services

    def subscribe(self, session_id: SessionId, after: int = 0) -> Subscription:
        """Pages subscribe through `open`, under the session's lock: no push of it runs meanwhile."""
        subscription = Subscription(session_id, after)
        with self._lock:
            watched = bool(self._subscribers.get(session_id))
        if self._services is not None and not watched:
            # Nobody listened, so no push kept the open panel known: panels may have opened and
            # closed since, and the next close must redraw the row of the panel open now.
            self._last_active[session_id] = self._services.surfaces.state(session_id).active
        with self._lock:
            self._subscribers[session_id].add(subscription)
        return subscription

    def unsubscribe(self, subscription: Subscription) -> None:
        with self._lock:
            subscribers = self._subscribers.get(subscription.session_id)
            if subscribers is not None:
                subscribers.discard(subscription)
                if not subscribers:
                    del self._subscribers[subscription.session_id]

    def open(
        self, session_id: SessionId, after: int, hello: Callable[[], dict[str, Any]]
    ) -> tuple[Subscription, dict[str, Any]]:
        """Subscribe and build the hello under the session's lock: every change committed
        after the hello's read is pushed after it, and none the hello carries is pushed again."""
        with self._lock:
            session_lock = self._session_locks[session_id]
        with session_lock:
            subscription = self.subscribe(session_id, after)
            try:
                first = hello()
            except BaseException:
                self.unsubscribe(subscription)
                raise
            subscription.cursor = max((e["seq"] for e in first.get("events", ())), default=after)
        return subscription, first

    def watched(self) -> list[SessionId]:
        with self._lock:
            return list(self._subscribers)

    def subscriber_count(self, session_id: SessionId) -> int:
        with self._lock:
            return len(self._subscribers.get(session_id, ()))

    def changed(
        self,
        session_id: SessionId,
        events: Sequence[SessionEvent] = (),
        queue: bool = False,
        reset: bool = False,
    ) -> None:
        """`events` only says that some were committed: each subscriber reads its own from the log.
        The message is built on the push worker, so whoever committed goes on at once."""
        with self._lock:
            if not self._subscribers.get(session_id):
                return
            newest = max((e.seq for e in events if e is not None), default=0)
            self._announced[session_id] = max(self._announced.get(session_id, 0), newest)
        hold = hold_for(events, reset)
        self._queue.change(session_id, queue, reset, hold)

    def _provisional(self, session_id: SessionId, deliver: Callable[[], None]) -> Callable[[], None]:
        """Streamed text or a panel being written, made before the events announced so far: a
        change built later may already have pushed newer events (a reply logged after this text),
        and then this view is stale and is dropped."""
        with self._lock:
            made_at = self._announced.get(session_id, 0)

        def run() -> None:
            if self._sent.get(session_id, 0) <= made_at:
                deliver()

        return run

    def flush(self, timeout: float = 5.0) -> bool:
        """Wait until every push asked for so far is delivered (for a stop, and for tests)."""
        return self._queue.flush(timeout)

    def _deliver(self, session_id: SessionId, queue: bool, reset: bool) -> None:
        with self._lock:
            subscribers = list(self._subscribers.get(session_id, ()))
            session_lock = self._session_locks[session_id]
        self._previews.pop(session_id, None)  # a logged change: the next preview is news again
        if not subscribers:
            with self._lock:  # nobody listens: what was announced and sent starts again from here
                self._announced.pop(session_id, None)
            self._sent.pop(session_id, None)
        if not subscribers or self._app is None or self._services is None:
            return
        with session_lock, self._services.database.snapshot():
            if reset:
                self._last_active.pop(session_id, None)
                for subscription in subscribers:
                    subscription.put({"type": "reset"})
                return
            self._deliver_change(self._app, self._services, session_id, queue, subscribers)

    def _deliver_change(
        self,
        app: Flask,
        services: Services,
        session_id: SessionId,
        queue: bool,
        subscribers: list[Subscription],
    ) -> None:
        """One read of the log per cursor and one drawing per language and cursor: subscribers
        that share both get the same message."""
        news = self._news(services, session_id, queue)
        groups: dict[str, dict[int, list[Subscription]]] = defaultdict(lambda: defaultdict(list))
        for subscription in subscribers:
            groups[subscription.language][subscription.cursor].append(subscription)
        fresh: dict[int, list[SessionEvent]] = {}
        for cursor in sorted({subscription.cursor for subscription in subscribers}):
            with services.database.read() as db:
                fresh[cursor] = log.events_after(db, session_id, cursor, MAX_PUSH_EVENTS + 1)
        for language, by_cursor in sorted(groups.items()):
            # A bare request context in the page's language: rows are drawn as that page draws
            # them, with the same relative URLs.
            with app.test_request_context("/", headers={"Cookie": f"{LANGUAGE_COOKIE}={language}"}):
                shared = news.drawn(services, session_id)
                for cursor, group in by_cursor.items():
                    events = fresh[cursor]
                    message = with_events(services, session_id, shared, events, MAX_PUSH_EVENTS)
                    for subscription in group:
                        subscription.cursor = events[-1].seq if events else cursor
                        subscription.put(message)
        newest = max((events[-1].seq for events in fresh.values() if events), default=0)
        if newest:
            self._sent[session_id] = max(self._sent.get(session_id, 0), newest)

    def publish(self, session_id: SessionId, build: Callable[[str], dict[str, Any]]) -> None:
        """A message built elsewhere (the task tray's) once per language of the subscribers, in
        order with the session's other pushes."""
        self._queue.call(session_id, lambda: self._deliver_built(session_id, build))

    def _deliver_built(self, session_id: SessionId, build: Callable[[str], dict[str, Any]]) -> None:
        with self._lock:
            subscribers = list(self._subscribers.get(session_id, ()))
            session_lock = self._session_locks[session_id]
        with session_lock:
            built: dict[str, dict[str, Any]] = {}
            for subscription in subscribers:
                if subscription.language not in built:
                    built[subscription.language] = build(subscription.language)
                subscription.put(built[subscription.language])

    def partial(self, session_id: SessionId, text: str) -> None:
        """The agent's reply so far; pages show it provisionally until the logged message lands."""
        if self.subscriber_count(session_id):
            # In the session's order, so a partial never overtakes the change that came before it;
            # newer text replaces text still waiting.
            deliver = self._provisional(session_id, lambda: self._deliver_partial(session_id, text))
            self._queue.call(session_id, deliver, "partial")

    def _deliver_partial(self, session_id: SessionId, text: str) -> None:
        with self._lock:
            subscribers = list(self._subscribers.get(session_id, ()))
            session_lock = self._session_locks[session_id]
        with session_lock:
            for subscription in subscribers:
                subscription.put({"type": "partial", "text": text})

    def preview(self, session_id: SessionId, call_key: str, name: str, arguments: str) -> None:
        """A panel the model is still writing: pages show it read-only until its call's result
        lands. Nothing of it is logged; a push only when the arguments show more than before.
        Parsed and drawn on the push worker: the model's stream is never held up by it."""
        if name == TOOL_NAME and self.subscriber_count(session_id):
            # Newer arguments replace arguments still waiting; a change before them goes first.
            deliver = self._provisional(
                session_id, lambda: self._deliver_preview(session_id, call_key, arguments)
            )
            self._queue.call(session_id, deliver, "preview")

    def _deliver_preview(self, session_id: SessionId, call_key: str, arguments: str) -> None:
        with self._lock:
            subscribers = list(self._subscribers.get(session_id, ()))
            session_lock = self._session_locks[session_id]
        app, services = self._app, self._services
        if not subscribers or app is None or services is None:
            return
        if not services.surfaces.enabled:
            return
        shown = preview(arguments, services.settings.limits)
        if shown is None or self._previews.get(session_id) == (call_key, shown):
            return
        self._previews[session_id] = (call_key, shown)
        agent = services.settings.agent_name
        built: dict[str, dict[str, Any]] = {}
        with session_lock:
            for subscription in subscribers:
                language = subscription.language
                if language not in built:
                    with app.test_request_context("/", headers={"Cookie": f"{LANGUAGE_COOKIE}={language}"}):
                        html = str(views.render_preview(shown, call_key, agent))
                    built[language] = {"type": "preview", "callKey": call_key, "html": html}
                subscription.put(built[language])

    def _news(self, services: Services, session_id: SessionId, queue: bool) -> News:
        """What every subscriber of the session gets alike, before it is drawn."""
        # The queue is read before the surface state: a claim precedes the queue without its
        # row, so a message never shows that queue beside a `queued` phase.
        queue_snapshot = read_queue(services, session_id) if queue else None
        state = services.surfaces.state(session_id)
        previous = self._last_active.get(session_id)
        self._last_active[session_id] = state.active
        closed = None
        if previous is not None and previous != state.active:
            with services.database.read() as db:
                closed = log.event_at(db, session_id, previous.result_seq)
        return News(state.to_wire(), fresh_id(), closed, queue_snapshot)


def hold_for(events: Sequence[SessionEvent], reset: bool) -> float:
    """How long a change may wait for the commit that usually follows it, to go out as one message:
    a change that logged nothing (a row queued, a claim taken) waits for its admission, and an
    admitted message for the first words of the turn it starts. Anything else goes at once."""
    if reset:
        return 0.0
    kinds = [e.kind for e in events if e is not None]
    if not kinds:
        return QUIET_CHANGE_HOLD
    return TURN_START_HOLD if kinds[-1] == "user/message" else 0.0
