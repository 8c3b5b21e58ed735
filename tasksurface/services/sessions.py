"""Sessions: create, read, send, queue actions, pause, fork and rewind."""

from __future__ import annotations

import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Literal

from ..agent.claims import Claims
from ..agent.intake import Intake
from ..agent.ports import InboxObserver, Notifier
from ..domain.events import (
    SessionEvent,
    content_text,
    read_action,
    read_correlation,
    text_content,
    user_source,
)
from ..domain.ids import MessageId, RpcId, SessionId
from ..store import history, inbox, log
from ..store.db import Database
from ..store.records import InboxItem, SessionInfo
from .errors import Conflict, NotFound, RequestRefused, check_text
from .memo import BoundedMemo

MAX_KNOWN_OWNERS = 10_000
"""Sessions whose owner a process keeps in memory; every request asks who owns its session."""

MAX_MESSAGE_CHARS = 32_000
PREVIEW_CHARS = 120
QueueAction = Literal["edit", "steer", "remove"]


@dataclass(frozen=True)
class QueuedMessage:
    """The seed's queue row: it keeps the full source, Task Surface correlation included."""

    item: InboxItem

    def to_wire(self) -> dict[str, Any]:
        text = content_text(self.item.content)
        return {
            "id": self.item.id,
            "messageId": self.item.message_id,
            "placement": self.item.placement,
            "source": self.item.source,
            "content": self.item.content,
            "preview": preview(text),
            "text": text,
        }

    @property
    def is_task_surface(self) -> bool:
        return read_correlation(self.item.source) is not None

    @property
    def is_panel_action(self) -> bool:
        """Withdrawn from its own panel, never edited or removed here."""
        return read_action(self.item.source) is not None


def preview(text: str) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= PREVIEW_CHARS else flat[: PREVIEW_CHARS - 1] + "…"


class SessionService:
    def __init__(
        self,
        database: Database,
        claims: Claims,
        notifier: Notifier,
        wake: Callable[[SessionId], None],
        intake: Intake,
        clock: Callable[[], datetime],
        observers: Sequence[InboxObserver] = (),
    ) -> None:
        self.database = database
        self.claims = claims
        self.notifier = notifier
        self.wake = wake
        """After a resume or a queue action: a runner looks at the queue."""
        self.intake = intake
        """Logs a message to an idle session at once, or queues it (`agent.intake`)."""
        self.clock = clock
        self.observers = list(observers)
        self._owners = BoundedMemo[str](MAX_KNOWN_OWNERS)

    def create(self, title: str = "", owner: str = "") -> SessionId:
        check_text(title, "the title")
        session_id = SessionId("s_" + secrets.token_urlsafe(12))
        with self.database.write() as db:
            log.create_session(db, session_id, title.strip()[:200] or "New session", self.clock(), owner)
        return session_id

    def require_owner(self, session_id: SessionId, owner: str) -> None:
        """Pass if `owner` owns the session; anyone else learns nothing, not even that it exists."""
        try:
            found = self._owners.get_or_compute(session_id, lambda: self._read_owner(session_id))
        except log.UnknownSession:
            found = ""
        if not owner or not secrets.compare_digest(found.encode(), owner.encode()):
            raise NotFound("session-not-found", "there is no such session")

    def _read_owner(self, session_id: SessionId) -> str:
        """Read once per process: an owner is written with its session and never changes. An
        unknown id raises, so it is not kept (another process may create it yet)."""
        with self.database.read() as db:
            return log.owner_of(db, session_id)

    def get(self, session_id: SessionId) -> SessionInfo:
        with self.database.read() as db:
            return self._get(db, session_id)

    def _get(self, db: Any, session_id: SessionId, lock: bool = False) -> SessionInfo:
        try:
            return log.get_session(db, session_id, lock=lock)
        except log.UnknownSession:
            raise NotFound("session-not-found", "there is no such session") from None

    def all(self, owner: str) -> list[SessionInfo]:
        with self.database.read() as db:
            return log.list_sessions(db, owner)

    def events_after(self, session_id: SessionId, after: int, limit: int) -> list[SessionEvent]:
        with self.database.read() as db:
            self._get(db, session_id)
            return log.events_after(db, session_id, after, limit)

    def event_at(self, session_id: SessionId, seq: int) -> SessionEvent | None:
        """One visible event of the session, or `None`."""
        with self.database.read() as db:
            self._get(db, session_id)
            event = log.event_at(db, session_id, seq)
            return event if event is not None and log.is_visible(db, session_id, seq) else None

    def page(self, session_id: SessionId, before: int | None, limit: int) -> list[SessionEvent]:
        """A page of history ending before `before` (the latest page when `None`)."""
        with self.database.read() as db:
            self._get(db, session_id)
            return log.events_before(db, session_id, before, limit)

    def send(self, session_id: SessionId, text: str, placement: str = "queued") -> QueuedMessage:
        if not isinstance(text, str) or not text.strip():
            raise RequestRefused("empty-message", "a message needs some text")
        if len(text) > MAX_MESSAGE_CHARS:
            raise RequestRefused(
                "message-too-long", f"a message holds at most {MAX_MESSAGE_CHARS} characters"
            )
        if placement not in ("queued", "steering"):
            raise RequestRefused("invalid-placement", "placement is 'queued' or 'steering'")
        check_text(text, "the message")
        with self.intake.accepting(session_id) as acceptance, self.database.write() as db:
            session = self._get(db, session_id, lock=True)
            item = inbox.new_item(
                session_id=session_id,
                message_id=MessageId("msg_" + secrets.token_urlsafe(12)),
                placement=placement,
                source=user_source(RpcId("rpc_" + secrets.token_urlsafe(12))),
                content=text_content(text.replace("\r\n", "\n")),
                at=self.clock(),
            )
            acceptance.accept(db, item, locked=session)
        return QueuedMessage(item)

    def queue(self, session_id: SessionId) -> list[QueuedMessage]:
        """Waiting input; a row the runner has claimed has left the queue."""
        admitting = self.claims.admitting()  # before the rows: a claim is released after its commit
        with self.database.read() as db:
            self._get(db, session_id)
            items = inbox.items(db, session_id)
        return [QueuedMessage(i) for i in items if i.id not in admitting]

    def queue_action(self, session_id: SessionId, item_id: str, action: str, text: object = None) -> None:
        if action not in ("edit", "steer", "remove"):
            raise RequestRefused("invalid-action", "action is 'edit', 'steer' or 'remove'")
        missing = NotFound("queue-item-not-found", "that item is no longer in the queue")
        with self.claims.holding(item_id, "remove") as won:
            if not won:
                raise missing
            with self.database.write() as db:
                self._get(db, session_id)
                item = inbox.item(db, session_id, item_id)
                if item is None:
                    raise missing
                if read_action(item.source) is not None:
                    raise Conflict(
                        "queue-item-is-task-surface-action",
                        "a panel action is withdrawn from its own panel, not edited in the queue",
                    )
                if action != "remove" and read_correlation(item.source) is not None:
                    raise Conflict(
                        "queue-item-is-task-surface",
                        "a Task Surface submission cannot be edited or steered; "
                        "remove it to edit the panel again",
                    )
                if action == "remove":
                    inbox.delete(db, item_id)
                elif action == "steer":
                    inbox.update(db, item_id, placement="steering")
                else:
                    if not isinstance(text, str) or not text.strip():
                        raise RequestRefused("empty-message", "an edit needs some text")
                    if len(text) > MAX_MESSAGE_CHARS:
                        raise RequestRefused(
                            "message-too-long", f"a message holds at most {MAX_MESSAGE_CHARS} characters"
                        )
                    check_text(text, "the edit")
                    inbox.update(db, item_id, content=text_content(text))
        if action == "remove":
            for observer in self.observers:
                observer.outcome(item, "discarded", "removed from the queue")
        self.notifier.changed(session_id, queue=True)
        # The runner may have looked for work while this action held the row, and gone idle.
        self.wake(session_id)

    def set_paused(self, session_id: SessionId, paused: bool) -> None:
        with self.database.write() as db:
            self._get(db, session_id)
            inbox.set_paused(db, session_id, paused)
        self.notifier.changed(session_id, queue=True)
        if not paused:
            self.wake(session_id)

    def fork(self, session_id: SessionId, at_seq: int) -> SessionId:
        new_id = SessionId("s_" + secrets.token_urlsafe(12))
        with self.database.write() as db:
            info = self._get(db, session_id)
            if not 0 <= at_seq <= info.head_seq:
                raise RequestRefused("invalid-seq", f"atSeq must be between 0 and {info.head_seq}")
            history.fork(db, session_id, new_id, at_seq, self.clock())
        return new_id

    def rewind(self, session_id: SessionId, to_seq: int) -> int:
        with self.database.write() as db:
            info = self._get(db, session_id)
            if not 0 <= to_seq <= info.head_seq:
                raise RequestRefused("invalid-seq", f"toSeq must be between 0 and {info.head_seq}")
            marker = history.rewind(db, session_id, to_seq, self.clock())
        self._drop_orphaned_submissions(session_id)
        self.notifier.changed(session_id, queue=True, reset=True)
        return marker

    def _drop_orphaned_submissions(self, session_id: SessionId) -> None:
        """After a rewind, a waiting answer to a panel that is no longer open is discarded."""
        with self.database.read() as db:
            active = log.get_session(db, session_id).projection.active
            waiting = [i for i in inbox.items(db, session_id) if i.surface_id is not None]
        for item in waiting:
            if active is not None and item.surface_id == active.surface_id:
                continue
            with self.claims.holding(item.id, "remove") as won:
                if not won:
                    continue  # the runner is admitting it; the log order decides
                with self.database.write() as db:
                    inbox.delete(db, item.id)
            for observer in self.observers:
                observer.outcome(item, "discarded", "its panel was rewound away")
