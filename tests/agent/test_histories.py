"""Each model step reads only the events logged since the last one, and sees exactly what a read of
the whole log would show: after input, after events another writer logged, after a rewind, after
the kept copy was dropped, and when the copy is another process's."""

from __future__ import annotations

import threading
from datetime import UTC, datetime

from tasksurface.agent.histories import Histories
from tasksurface.agent.ports import ModelReply
from tasksurface.domain.events import NewEvent, SessionEvent
from tasksurface.domain.ids import SessionId
from tasksurface.store import log
from tasksurface.store.db import Database

from .harness import FakeModel, last_user_text, running


def whole_history(database: Database, sid: SessionId) -> list[SessionEvent]:
    with database.read() as db:
        return log.events_after(db, sid, 0)


def test_every_step_sees_what_a_whole_read_would_show(database: Database) -> None:
    mismatches: list[tuple[list[int], list[int]]] = []
    sid_box: list[SessionId] = []

    def answer(history: list[SessionEvent]) -> ModelReply:
        whole = whole_history(database, sid_box[0])
        if history != whole:
            mismatches.append(([e.seq for e in history], [e.seq for e in whole]))
        return ModelReply("re: " + last_user_text(history))

    model = FakeModel(answer)
    with running(database, model) as world:
        sid = world.sessions.create()
        sid_box.append(sid)
        world.sessions.send(sid, "one")
        world.settle(1)
        with database.write() as db:  # another writer logs between turns
            log.append(db, sid, NewEvent("assistant/message", {"text": "from elsewhere"}), datetime.now(UTC))
        world.sessions.send(sid, "two")
        world.settle(2)
        first_reply = whole_history(database, sid)[1].seq
        world.sessions.rewind(sid, first_reply)  # takes back "from elsewhere", "two" and its reply
        world.sessions.send(sid, "three")
        world.settle(3)
        world.pool.histories = Histories()  # the copy is gone (a restart, or evicted)
        world.sessions.send(sid, "four")
        world.settle(4)
    assert len(model.calls) == 4
    assert mismatches == []
    last = model.calls[-1].history
    assert [e.payload.get("text") for e in last if e.kind == "assistant/message"] == [
        "re: one",
        "re: three",
    ]
    assert "session/rewound" in [e.kind for e in last]


def test_a_copy_left_behind_catches_up_on_what_others_logged_and_rewound(database: Database) -> None:
    """A process that served the session earlier keeps its copy; meanwhile another logged events
    and rewound some of them, and some it logged are hidden before this copy ever saw them."""
    with running(database) as world:
        sid = world.sessions.create()
        world.sessions.send(sid, "one")
        world.settle(1)
    here = Histories()
    with database.read() as db:
        first = list(here.read(db, sid))
    assert first == whole_history(database, sid)
    with database.write() as db:
        for text in ("a", "b", "c"):
            log.append(db, sid, NewEvent("assistant/message", {"text": text}), datetime.now(UTC))
    with running(database) as elsewhere:
        elsewhere.sessions.rewind(sid, 3)  # keeps "a", hides "b" and "c"
    with database.write() as db:
        log.append(db, sid, NewEvent("assistant/message", {"text": "d"}), datetime.now(UTC))
    with database.read() as db:
        caught_up = here.read(db, sid)
    assert caught_up == whole_history(database, sid)
    assert caught_up[0] is first[0]  # what was kept is not read again
    assert [e.payload.get("text") for e in caught_up if e.kind == "assistant/message"] == [
        "re: one",
        "a",
        "d",
    ]


def test_the_least_recently_read_session_is_dropped_first(database: Database) -> None:
    with running(database) as world:
        sids = [world.sessions.create() for _ in range(3)]
        for sid in sids:
            world.sessions.send(sid, "hi")
        world.settle(3)
    kept = Histories(capacity=2)
    with database.read() as db:
        for sid in (sids[0], sids[1], sids[0], sids[2]):
            kept.read(db, sid)
    assert list(kept._kept) == [sids[0], sids[2]]


def test_events_kept_in_all_are_bounded_and_a_session_longer_than_that_is_read_whole(
    database: Database,
) -> None:
    with running(database) as world:
        short, longer = world.sessions.create(), world.sessions.create()
        world.sessions.send(short, "hi")  # two events
        world.sessions.send(longer, "one")  # and four
        world.sessions.send(longer, "two")
        world.settle(3)
    kept = Histories(events=5)
    with database.read() as db:
        kept.read(db, short)
        kept.read(db, longer)  # 2 + 4 > 5: the least recently read goes
        assert list(kept._kept) == [longer]
        assert kept.read(db, longer) == whole_history(database, longer)
    alone = Histories(events=3)
    with database.read() as db:
        assert alone.read(db, longer) == whole_history(database, longer)
    assert list(alone._kept) == []


def test_two_readers_of_one_session_at_once_keep_the_count_true(database: Database) -> None:
    """The runner that holds a session's lease is its only reader in service, but a second reader
    (a benchmark, a tool) must not make the copy wrong or the count of kept events drift."""
    with running(database) as world:
        sid = world.sessions.create()
        world.sessions.send(sid, "hi")
        world.settle(1)
    whole = whole_history(database, sid)
    kept = Histories()
    wrong: list[int] = []

    def reader() -> None:
        for _ in range(150):
            with database.read() as db:
                if kept.read(db, sid) != whole:
                    wrong.append(1)

    threads = [threading.Thread(target=reader) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert wrong == []
    assert kept._events == sum(len(events) for events in kept._kept.values()) == len(whole)
