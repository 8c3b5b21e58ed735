"""The schema, as typed ORM classes; every change to it is an Alembic revision."""

from __future__ import annotations

from datetime import datetime
from typing import Any, ClassVar

import sqlalchemy as sa
import sqlalchemy.orm as so
from sqlalchemy.dialects import postgresql

NAMING_CONVENTION = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}

Json = sa.JSON().with_variant(postgresql.JSONB(), "postgresql")
RowId = sa.BigInteger().with_variant(sa.Integer(), "sqlite")
Id = sa.String(64)


class Base(so.DeclarativeBase):
    metadata = sa.MetaData(naming_convention=NAMING_CONVENTION)
    type_annotation_map: ClassVar[dict[Any, Any]] = {
        datetime: sa.DateTime(timezone=True),
        dict[str, Any]: Json,
    }


class SessionRow(Base):
    """A session, with the head of its log and the projection folded from it."""

    __tablename__ = "sessions"

    id: so.Mapped[str] = so.mapped_column(Id, primary_key=True)
    owner: so.Mapped[str] = so.mapped_column(sa.String(200), index=True, server_default="")
    """Who may see and act on the session; empty for sessions from before owners existed."""
    title: so.Mapped[str] = so.mapped_column(sa.String(200))
    created_at: so.Mapped[datetime]
    head_seq: so.Mapped[int] = so.mapped_column(default=0)
    """The last `seq` handed out; bumped in the appending transaction, so `seq` has no gaps."""
    next_position: so.Mapped[int] = so.mapped_column(default=0)
    """The next inbox position; inbox order is arrival order."""
    paused: so.Mapped[bool] = so.mapped_column(default=False)
    forked_from: so.Mapped[str | None] = so.mapped_column(sa.ForeignKey("sessions.id"))
    forked_at_seq: so.Mapped[int | None]
    active_call_id: so.Mapped[str | None] = so.mapped_column(Id)
    active_surface_id: so.Mapped[str | None] = so.mapped_column(Id)
    active_result_seq: so.Mapped[int | None]
    question_call_seq: so.Mapped[int | None]
    """Where the call of the question the agent waits on is logged; `None` when it waits on none."""


class EventRow(Base):
    """One entry of a session's append-only log."""

    __tablename__ = "session_events"
    __table_args__ = (
        sa.UniqueConstraint("session_id", "seq"),
        sa.UniqueConstraint("session_id", "request_id"),
        sa.Index("ix_session_events_session_id_call_id", "session_id", "call_id"),
        sa.Index("ix_session_events_session_id_message_id", "session_id", "message_id"),
    )

    id: so.Mapped[int] = so.mapped_column(RowId, primary_key=True, autoincrement=True)
    session_id: so.Mapped[str] = so.mapped_column(sa.ForeignKey("sessions.id"))
    seq: so.Mapped[int]
    kind: so.Mapped[str] = so.mapped_column(sa.String(40))
    at: so.Mapped[datetime]
    payload: so.Mapped[dict[str, Any]]
    call_id: so.Mapped[str | None] = so.mapped_column(Id)
    message_id: so.Mapped[str | None] = so.mapped_column(Id)
    request_id: so.Mapped[str | None] = so.mapped_column(Id)
    """Client-minted idempotency id (submissionId, dismissalId): a retry finds its first answer."""


class HiddenRangeRow(Base):
    """Seqs a rewind took out of a session's history; the events themselves stay."""

    __tablename__ = "session_hidden_ranges"

    id: so.Mapped[int] = so.mapped_column(RowId, primary_key=True, autoincrement=True)
    session_id: so.Mapped[str] = so.mapped_column(sa.ForeignKey("sessions.id"), index=True)
    first_seq: so.Mapped[int]
    last_seq: so.Mapped[int]


class InboxRow(Base):
    """A durable, not yet admitted user input; admission deletes it with the append."""

    __tablename__ = "inbox_items"
    __table_args__ = (
        sa.UniqueConstraint("session_id", "position"),
        sa.UniqueConstraint("session_id", "request_id"),
        sa.UniqueConstraint("message_id"),
        sa.UniqueConstraint("session_id", "surface_id"),
    )

    id: so.Mapped[str] = so.mapped_column(Id, primary_key=True)
    session_id: so.Mapped[str] = so.mapped_column(sa.ForeignKey("sessions.id"))
    position: so.Mapped[int]
    message_id: so.Mapped[str] = so.mapped_column(Id)
    placement: so.Mapped[str] = so.mapped_column(sa.String(16))
    source: so.Mapped[dict[str, Any]]
    content: so.Mapped[dict[str, Any]]
    """`{"blocks": [...]}`: the message content blocks."""
    request_id: so.Mapped[str | None] = so.mapped_column(Id)
    surface_id: so.Mapped[str | None] = so.mapped_column(Id)
    """Set for a Task Surface submission: at most one pending submission per surface of a session
    (a fork shares its origin's surface ids, so the session is part of the key)."""
    created_at: so.Mapped[datetime]
    claim: so.Mapped[str | None] = so.mapped_column(sa.String(8))
    """`admit` or `remove` while a process takes the row out of the queue (PostgreSQL only: on
    SQLite the one process keeps its claims in memory)."""
    claimed_by: so.Mapped[str | None] = so.mapped_column(sa.String(64))
    """The claiming process's token, so a claim it lost cannot be acted on."""
    claimed_at: so.Mapped[datetime | None]


class TaskRow(Base):
    """A background task: its state, its owner session and who runs it; output is in `task_output`."""

    __tablename__ = "tasks"
    __table_args__ = (sa.Index("ix_tasks_status_reported", "status", "reported"),)

    id: so.Mapped[str] = so.mapped_column(Id, primary_key=True)
    session_id: so.Mapped[str] = so.mapped_column(sa.ForeignKey("sessions.id"), index=True)
    call_id: so.Mapped[str | None] = so.mapped_column(Id)
    """The tool call that started it."""
    kind: so.Mapped[str] = so.mapped_column(sa.String(40))
    label: so.Mapped[str] = so.mapped_column(sa.String(200))
    spec: so.Mapped[dict[str, Any]]
    """What its producer needs to run it (a command's name and checked values, a prompt)."""
    status: so.Mapped[str] = so.mapped_column(sa.String(16))
    detail: so.Mapped[str | None] = so.mapped_column(sa.Text)
    output_mode: so.Mapped[str] = so.mapped_column(sa.String(8))
    output_limit: so.Mapped[int | None]
    started_at: so.Mapped[datetime]
    ended_at: so.Mapped[datetime | None]
    host_id: so.Mapped[str | None] = so.mapped_column(sa.String(64))
    """The process running it; `None` while it waits in a queue for a worker."""
    host_kind: so.Mapped[str] = so.mapped_column(sa.String(16))
    """`web` (embedded) or `worker` (Celery): what its failure after a lost heartbeat is called."""
    heartbeat_at: so.Mapped[datetime | None]
    """Last sign of life from its host; a running task without one for too long has failed."""
    cancel_requested: so.Mapped[bool] = so.mapped_column(default=False)
    cancel_reason: so.Mapped[str | None] = so.mapped_column(sa.Text)
    stopped_by: so.Mapped[str | None] = so.mapped_column(sa.String(8))
    reported: so.Mapped[bool] = so.mapped_column(default=False)
    """The owner learnt of the end (terminal read, kill or notice); written under the row lock."""
    read_seq: so.Mapped[int] = so.mapped_column(default=0)
    """The single reader's cursor: the last output chunk `task_output` handed over."""
    output_seq: so.Mapped[int] = so.mapped_column(default=0)
    """The last output chunk written."""
    output_bytes: so.Mapped[int] = so.mapped_column(sa.BigInteger, default=0)
    kept_bytes: so.Mapped[int] = so.mapped_column(sa.BigInteger, default=0)
    """Bytes of output still stored; the oldest chunks go when this passes the retention limit."""
    progress_done: so.Mapped[float | None]
    progress_total: so.Mapped[float | None]
    version: so.Mapped[int] = so.mapped_column(default=0)
    """Bumped by every change, so watchers push only what changed."""


class TaskOutputRow(Base):
    """One chunk of a task's output, in the order it was written."""

    __tablename__ = "task_output"
    __table_args__ = (sa.UniqueConstraint("task_id", "seq"),)

    id: so.Mapped[int] = so.mapped_column(RowId, primary_key=True, autoincrement=True)
    task_id: so.Mapped[str] = so.mapped_column(sa.ForeignKey("tasks.id", ondelete="CASCADE"))
    seq: so.Mapped[int]
    text: so.Mapped[str] = so.mapped_column(sa.Text)
    size: so.Mapped[int]
    """UTF-8 bytes of `text`, so retention counts bytes without reading the chunks."""


class OutboxRow(Base):
    """An event for the team's backend, written in the transaction of what it reports; a
    delivery worker (in any process) leases it, posts it and marks it delivered."""

    __tablename__ = "webhook_outbox"
    __table_args__ = (sa.Index("ix_webhook_outbox_due", "delivered_at", "next_attempt_at"),)

    id: so.Mapped[int] = so.mapped_column(RowId, primary_key=True, autoincrement=True)
    webhook_id: so.Mapped[str] = so.mapped_column(Id, unique=True)
    """The `webhook-id` of every attempt, so receivers can drop duplicates."""
    event_type: so.Mapped[str] = so.mapped_column(sa.String(40))
    body: so.Mapped[str] = so.mapped_column(sa.Text)
    """The exact JSON posted, so every attempt signs and sends the same bytes."""
    created_at: so.Mapped[datetime]
    attempts: so.Mapped[int] = so.mapped_column(default=0)
    next_attempt_at: so.Mapped[datetime]
    lease_until: so.Mapped[datetime | None]
    """While set and in the future, one worker is delivering it; others leave it alone."""
    delivered_at: so.Mapped[datetime | None]
    last_error: so.Mapped[str | None] = so.mapped_column(sa.Text)
