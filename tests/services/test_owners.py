"""Who owns a session is read once per process: it is written with the session and never changes."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
import sqlalchemy as sa

from tasksurface.domain.ids import SessionId
from tasksurface.services.container import Services
from tasksurface.services.errors import NotFound
from tasksurface.store import log
from tasksurface.store.tables import SessionRow


def _reads_of_owner(services: Services, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    reads: list[str] = []
    read = log.owner_of

    def counted(db: object, session_id: str) -> str:
        reads.append(session_id)
        return read(db, session_id)  # type: ignore[arg-type]

    monkeypatch.setattr(log, "owner_of", counted)
    return reads


def test_an_owner_is_read_once_and_a_stranger_is_still_refused(
    services: Services, monkeypatch: pytest.MonkeyPatch
) -> None:
    reads = _reads_of_owner(services, monkeypatch)
    sid = services.sessions.create("mine", owner="anon:alice")
    services.sessions.require_owner(sid, "anon:alice")
    services.sessions.require_owner(sid, "anon:alice")
    with pytest.raises(NotFound):
        services.sessions.require_owner(sid, "anon:mallory")
    with pytest.raises(NotFound):
        services.sessions.require_owner(sid, "")
    assert reads == [sid]


def test_an_unknown_session_is_asked_again_since_another_process_may_create_it(
    services: Services, monkeypatch: pytest.MonkeyPatch
) -> None:
    reads = _reads_of_owner(services, monkeypatch)
    sid = SessionId("s_made_elsewhere_1")
    with pytest.raises(NotFound):
        services.sessions.require_owner(sid, "anon:bob")
    with services.database.write() as db:  # another process creates it
        db.execute(
            sa.insert(SessionRow).values(
                id=sid, owner="anon:bob", title="t", created_at=datetime.now(UTC), head_seq=0, next_position=0
            )
        )
    services.sessions.require_owner(sid, "anon:bob")
    assert reads == [sid, sid]
