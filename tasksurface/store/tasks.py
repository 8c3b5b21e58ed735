"""Background task rows: state changes under the row lock, output chunks, the reader's cursor."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, cast

import sqlalchemy as sa
import sqlalchemy.orm as so

from ..domain import task_text
from ..domain.ids import SessionId, TaskId
from ..domain.task_text import MARKER
from ..domain.tasks import TERMINAL, OutputMode, Progress, StoppedBy, TaskRecord, TaskStatus
from .db import run, utc
from .tables import TaskOutputRow, TaskRow

ACTIVE = ("queued", "running")


@dataclass(frozen=True)
class NewTask:
    id: TaskId
    session_id: SessionId
    call_id: str | None
    kind: str
    label: str
    spec: dict[str, Any]
    output_mode: OutputMode
    output_limit: int | None
    host_kind: str
    host_id: str | None
    """Set when the task starts in this process; `None` while it waits for a worker."""


@dataclass(frozen=True)
class Activity:
    """What a watcher compares between two looks: which tasks changed, and how far."""

    id: TaskId
    session_id: SessionId
    status: str
    version: int
    host_id: str | None


def create(db: so.Session, task: NewTask, at: datetime) -> TaskRecord:
    row = TaskRow(
        id=task.id,
        session_id=task.session_id,
        call_id=task.call_id,
        kind=task.kind,
        label=task.label,
        spec=task.spec,
        status="running" if task.host_id else "queued",
        output_mode=task.output_mode,
        output_limit=task.output_limit,
        started_at=at,
        host_id=task.host_id,
        host_kind=task.host_kind,
        heartbeat_at=at if task.host_id else None,
        cancel_requested=False,
        reported=False,
        read_seq=0,
        output_seq=0,
        output_bytes=0,
        kept_bytes=0,
        version=1,
    )
    db.add(row)
    db.flush()
    return record(row)


def record(row: TaskRow) -> TaskRecord:
    progress = None
    if row.progress_done is not None:
        progress = Progress(row.progress_done, row.progress_total)
    return TaskRecord(
        id=TaskId(row.id),
        session_id=SessionId(row.session_id),
        kind=row.kind,
        label=row.label,
        status=cast(TaskStatus, row.status),
        detail=row.detail,
        started_at=utc(row.started_at),
        ended_at=utc(row.ended_at) if row.ended_at else None,
        output_mode=cast(OutputMode, row.output_mode),
        output_limit=row.output_limit,
        reported=row.reported,
        cancel_requested=row.cancel_requested,
        cancel_reason=row.cancel_reason,
        stopped_by=cast(StoppedBy | None, row.stopped_by),
        progress=progress,
        version=row.version,
    )


def row(db: so.Session, task_id: str, session_id: str | None = None, *, lock: bool = False) -> TaskRow | None:
    """The row, only within `session_id` when given: another session's task is not found."""
    query = sa.select(TaskRow).where(TaskRow.id == task_id)
    if session_id is not None:
        query = query.where(TaskRow.session_id == session_id)
    if lock:
        query = query.with_for_update().execution_options(populate_existing=True)
    return db.scalars(query).one_or_none()


def get(db: so.Session, task_id: str, session_id: str | None = None) -> TaskRecord | None:
    found = row(db, task_id, session_id)
    return record(found) if found else None


def spec_of(db: so.Session, task_id: str) -> dict[str, Any] | None:
    return db.scalar(sa.select(TaskRow.spec).where(TaskRow.id == task_id))


def for_session(db: so.Session, session_id: str, limit: int = 200) -> list[TaskRecord]:
    rows = db.scalars(
        sa.select(TaskRow)
        .where(TaskRow.session_id == session_id)
        .order_by(TaskRow.started_at.desc(), TaskRow.id)
        .limit(limit)
    )
    return [record(r) for r in rows]


def running_count(db: so.Session, session_id: str) -> int:
    return int(
        db.scalar(
            sa.select(sa.func.count())
            .select_from(TaskRow)
            .where(TaskRow.session_id == session_id, TaskRow.status.in_(ACTIVE))
        )
        or 0
    )


def touch(task: TaskRow) -> None:
    task.version += 1


def append_output(db: so.Session, task: TaskRow, text: str, retain_bytes: int) -> None:
    """One chunk at the end; the oldest chunks go once more than `retain_bytes` is kept."""
    size = len(text.encode("utf-8"))
    task.output_seq += 1
    task.output_bytes += size
    task.kept_bytes += size
    db.add(TaskOutputRow(task_id=task.id, seq=task.output_seq, text=text, size=size))
    touch(task)
    if task.kept_bytes <= retain_bytes:
        return
    chunks = db.execute(
        sa.select(TaskOutputRow.seq, TaskOutputRow.size)
        .where(TaskOutputRow.task_id == task.id, TaskOutputRow.seq < task.output_seq)
        .order_by(TaskOutputRow.seq)
    ).all()
    last_dropped = 0
    for seq, chunk_size in chunks:
        if task.kept_bytes <= retain_bytes:
            break
        task.kept_bytes -= chunk_size
        last_dropped = seq
    if last_dropped:
        db.execute(
            sa.delete(TaskOutputRow).where(
                TaskOutputRow.task_id == task.id, TaskOutputRow.seq <= last_dropped
            )
        )


def unread(db: so.Session, task: TaskRow) -> tuple[str, int | None]:
    """The output after the reader's cursor, marked when retention dropped part of it unread."""
    if task.output_seq <= task.read_seq:
        return "", None
    rows = db.execute(
        sa.select(TaskOutputRow.seq, TaskOutputRow.text)
        .where(TaskOutputRow.task_id == task.id, TaskOutputRow.seq > task.read_seq)
        .order_by(TaskOutputRow.seq)
    ).all()
    text = "".join(r.text for r in rows)
    if not rows or rows[0].seq > task.read_seq + 1:
        text = MARKER + text
    return text, task.output_seq


def tail(db: so.Session, task_id: str, max_bytes: int) -> str:
    """The end of the output for people to glance at; reading it consumes nothing."""
    pieces: list[str] = []
    total = 0
    rows = db.execute(
        sa.select(TaskOutputRow.seq, TaskOutputRow.text)
        .where(TaskOutputRow.task_id == task_id)
        .order_by(TaskOutputRow.seq.desc())
        .limit(64)
    )
    first_seq = None
    for seq, text in rows:
        pieces.append(text)
        first_seq = seq
        total += len(text.encode("utf-8"))
        if total >= max_bytes:
            break
    joined = "".join(reversed(pieces))
    cut = task_text.tail(joined, max_bytes)
    return cut if cut == joined and first_seq in (None, 1) else task_text.keep_end(MARKER + cut, max_bytes)


def finish(db: so.Session, task: TaskRow, status: TaskStatus, detail: str | None, at: datetime) -> bool:
    """Only the first end counts: a task that already ended keeps its status."""
    if task.status in TERMINAL:
        return False
    task.status = status
    task.detail = detail
    task.ended_at = at
    touch(task)
    return True


def claim(db: so.Session, task_id: str, host_id: str, host_kind: str, at: datetime) -> TaskRow | None:
    """A worker takes a queued task; a second delivery of the same message finds it taken."""
    found = row(db, task_id, lock=True)
    if found is None or found.status != "queued":
        return None
    found.status = "running"
    found.host_id = host_id
    found.host_kind = host_kind
    found.heartbeat_at = at
    touch(found)
    return found


def heartbeat(db: so.Session, host_id: str, at: datetime) -> list[TaskId]:
    """Every running task of this host is alive; returns those someone asked to stop."""
    db.execute(
        sa.update(TaskRow)
        .where(TaskRow.host_id == host_id, TaskRow.status == "running")
        .values(heartbeat_at=at)
    )
    ids = db.scalars(
        sa.select(TaskRow.id).where(
            TaskRow.host_id == host_id, TaskRow.status == "running", TaskRow.cancel_requested.is_(True)
        )
    )
    return [TaskId(i) for i in ids]


def cancel_requested(db: so.Session, host_id: str) -> list[TaskId]:
    ids = db.scalars(
        sa.select(TaskRow.id).where(
            TaskRow.host_id == host_id, TaskRow.status == "running", TaskRow.cancel_requested.is_(True)
        )
    )
    return [TaskId(i) for i in ids]


def stale(db: so.Session, before: datetime) -> list[TaskId]:
    """Running tasks whose host has not shown a sign of life since `before`."""
    ids = db.scalars(sa.select(TaskRow.id).where(TaskRow.status == "running", TaskRow.heartbeat_at < before))
    return [TaskId(i) for i in ids]


def orphans_of_other_web_hosts(db: so.Session, host_id: str) -> list[TaskId]:
    """Running embedded tasks of any other process: on SQLite, only one process serves the database."""
    ids = db.scalars(
        sa.select(TaskRow.id).where(
            TaskRow.status == "running", TaskRow.host_kind == "web", TaskRow.host_id != host_id
        )
    )
    return [TaskId(i) for i in ids]


_UNREPORTED_ENDS = (
    sa.select(TaskRow.id)
    .where(
        TaskRow.session_id == sa.bindparam("sid"),
        TaskRow.status.in_(sorted(TERMINAL)),
        TaskRow.reported.is_(False),
    )
    .order_by(TaskRow.id)  # the order every multi-row lock takes, so two never deadlock
)


def unreported_ends(db: so.Session, session_id: str) -> list[TaskId]:
    """Asked before every model step of every turn, so its statement is built once (`db.run`)."""
    return [TaskId(i) for i in run(db, _UNREPORTED_ENDS, sid=session_id).scalars()]


def sessions_with_unreported_ends(db: so.Session) -> list[SessionId]:
    ids = db.scalars(
        sa.select(TaskRow.session_id)
        .where(TaskRow.status.in_(sorted(TERMINAL)), TaskRow.reported.is_(False))
        .distinct()
    )
    return [SessionId(i) for i in ids]


def activity(db: so.Session, ids: Sequence[str] = ()) -> list[Activity]:
    """Every task still queued or running, and the given ones whatever their state."""
    condition: sa.ColumnElement[bool] = TaskRow.status.in_(ACTIVE)
    if ids:
        condition = sa.or_(condition, TaskRow.id.in_(list(ids)))
    columns = (TaskRow.id, TaskRow.session_id, TaskRow.status, TaskRow.version, TaskRow.host_id)
    rows = db.execute(sa.select(*columns).where(condition))
    return [Activity(TaskId(i), SessionId(s), st, v, h) for i, s, st, v, h in rows]
