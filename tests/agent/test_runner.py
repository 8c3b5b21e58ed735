"""The generic runner on a real database: admission order, outcomes, errors, tools, pause.

Only the model backend and the notifier are doubles; see `harness.py`.
"""

from __future__ import annotations

import json
import threading
from collections import Counter
from collections.abc import Callable, Sequence
from datetime import datetime

import pytest

from tasksurface.agent.model_steps import STEPS_EXHAUSTED
from tasksurface.agent.ports import ModelError, ModelReply
from tasksurface.agent.replies import NOT_RUN
from tasksurface.agent.tools import Tool
from tasksurface.domain.events import SessionEvent, text_content
from tasksurface.domain.ids import MessageId, SessionId
from tasksurface.domain.turns import Owed, owed
from tasksurface.store import inbox
from tasksurface.store.db import Database
from tasksurface.store.records import InboxItem
from tasksurface.tools.show_task_surface import ShowTaskSurface

from ..support import wait_for
from .harness import (
    Executed,
    FakeModel,
    RecordingNotifier,
    RecordingTool,
    World,
    call,
    kinds,
    last_user_text,
    log_events,
    now,
    prose,
    running,
    session_info,
    text_of,
    waiting,
)

STEPS_PER_TURN = 8
"""At most eight model steps per turn, as the README says."""

SURFACE_ARGS = json.dumps(
    {
        "model": {
            "version": 1,
            "title": "Pick one",
            "sections": [],
            "fields": [
                {
                    "kind": "choice",
                    "id": "pick",
                    "label": "Pick",
                    "options": [{"id": "a", "label": "A"}, {"id": "b", "label": "B"}],
                }
            ],
            "submit": {"label": "Go"},
        }
    }
)


def queue_while_paused(world: World, sid: SessionId, *texts: str) -> list[InboxItem]:
    """Queue input that cannot be admitted yet; the caller resumes the session."""
    world.sessions.set_paused(sid, True)
    return [world.sessions.send(sid, text).item for text in texts]


def user_messages(database: Database, sid: SessionId) -> list[SessionEvent]:
    return [e for e in log_events(database, sid) if e.kind == "user/message"]


def assert_one_outcome_each(world: World) -> None:
    counts = Counter(item_id for item_id, _, _ in world.outcomes())
    assert all(n == 1 for n in counts.values()), counts


def tool_results(database: Database, sid: SessionId) -> list[SessionEvent]:
    return [e for e in log_events(database, sid) if e.kind == "tool/result"]


# -- admission --------------------------------------------------------------------------


def test_items_are_admitted_in_arrival_order_one_at_a_time(database: Database) -> None:
    seen: list[tuple[list[str], list[str]]] = []
    sid_box: list[SessionId] = []

    def answer(history: list[SessionEvent]) -> ModelReply:
        # What the world looks like while the model works on one item.
        admitted = [e.payload["messageId"] for e in history if e.kind == "user/message"]
        still_waiting = [str(i.message_id) for i in waiting(database, sid_box[0])]
        seen.append((admitted, still_waiting))
        return prose(history)

    model = FakeModel(answer)
    with running(database, model) as world:
        sid = world.sessions.create()
        sid_box.append(sid)
        queued = queue_while_paused(world, sid, "first", "second\nwith two lines", "third")
        assert [i.message_id for i in waiting(database, sid)] == [i.message_id for i in queued]
        world.sessions.set_paused(sid, False)
        world.settle(3)

        ids = [i.message_id for i in queued]
        assert seen == [(ids[:1], ids[1:]), (ids[:2], ids[2:]), (ids[:3], [])]
        assert model.max_concurrent == 1
        assert kinds(database, sid) == ["user/message", "assistant/message"] * 3
        admitted = user_messages(database, sid)
        for event, item in zip(admitted, queued, strict=True):
            assert event.payload["messageId"] == item.message_id
            assert event.payload["source"] == item.source
            assert event.payload["content"] == item.content
        assert [text_of(e) for e in admitted] == ["first", "second\nwith two lines", "third"]
        assert waiting(database, sid) == []
        assert world.outcomes() == [(i.id, "committed", "durable") for i in queued]
        assert world.claims.claimed() == frozenset()


def test_steering_input_is_admitted_before_earlier_queued_input(database: Database) -> None:
    model = FakeModel()
    with running(database, model) as world:
        sid = world.sessions.create()
        first, second = queue_while_paused(world, sid, "queued one", "queued two")
        steer = world.sessions.send(sid, "steer now", "steering").item
        world.sessions.set_paused(sid, False)
        world.settle(3)

        assert [text_of(e) for e in user_messages(database, sid)] == ["steer now", "queued one", "queued two"]
        assert [last_user_text(c.history) for c in model.calls] == ["steer now", "queued one", "queued two"]
        assert [o[0] for o in world.outcomes()] == [steer.id, first.id, second.id]


def test_a_paused_session_admits_nothing_until_resumed(database: Database) -> None:
    model = FakeModel()
    with running(database, model) as world:
        sid = world.sessions.create()
        other = world.sessions.create()
        queued = queue_while_paused(world, sid, "held one", "held two")
        world.pool.wake(sid)
        world.sessions.send(other, "not paused")
        world.settle(1)  # the other session's item went all the way through meanwhile

        assert kinds(database, other) == ["user/message", "assistant/message"]
        assert kinds(database, sid) == []
        assert [i.id for i in waiting(database, sid)] == [i.id for i in queued]
        assert [last_user_text(c.history) for c in model.calls] == ["not paused"]
        assert session_info(database, sid).paused is True

        world.sessions.set_paused(sid, False)
        world.settle(3)
        assert [text_of(e) for e in user_messages(database, sid)] == ["held one", "held two"]
        assert waiting(database, sid) == []


def test_pausing_during_a_turn_lets_it_finish_and_admits_nothing_more(database: Database) -> None:
    gate = threading.Event()

    def answer(history: list[SessionEvent]) -> ModelReply:
        gate.wait(10)
        return prose(history)

    model = FakeModel(answer)
    with running(database, model) as world:
        sid = world.sessions.create()
        world.sessions.send(sid, "running")
        wait_for(lambda: model.calls)
        later = world.sessions.send(sid, "later").item
        world.sessions.set_paused(sid, True)
        gate.set()
        world.settle(1)

        assert kinds(database, sid) == ["user/message", "assistant/message"]
        assert [i.id for i in waiting(database, sid)] == [later.id]
        assert len(model.calls) == 1

        world.sessions.set_paused(sid, False)
        world.settle(2)
        assert [text_of(e) for e in user_messages(database, sid)] == ["running", "later"]


def test_the_source_is_carried_verbatim_task_surface_correlation_included(database: Database) -> None:
    source = {
        "kind": "user",
        "rpcId": "rpc_verbatim_001",
        "taskSurface": {
            "version": 1,
            "submissionId": "sub_verbatim_001",
            "callId": "call_verbatim_01",
            "surfaceId": "ts_verbatim_0001",
            "values": {"pick": "b", "order": ["y", "x"], "ok": True, "note": None},
        },
        "client": {"extension": ["kept", 1]},
    }
    model = FakeModel()
    with running(database, model) as world:
        sid = world.sessions.create()
        with database.write() as db:
            item = inbox.enqueue(
                db,
                inbox.new_item(
                    session_id=sid,
                    message_id=MessageId("msg_verbatim_001"),
                    placement="queued",
                    source=source,
                    content=text_content("Pick one\n- Pick: B"),
                    at=now(),
                ),
            )
        world.pool.wake(sid)
        world.settle(1)

        (admitted,) = user_messages(database, sid)
        assert dict(admitted.payload) == {
            "messageId": "msg_verbatim_001",
            "source": source,
            "content": [{"type": "text", "text": "Pick one\n- Pick: B"}],
        }
        assert model.calls[0].history[-1] == admitted
        assert world.outcomes() == [(item.id, "committed", "durable")]


# -- backend failures -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("failure", "message"),
    [
        (lambda: ModelError("the provider is over quota"), "the provider is over quota"),
        (lambda: RuntimeError("socket closed"), "the model failed: RuntimeError"),
    ],
    ids=["model-error", "other-exception"],
)
def test_a_failing_backend_logs_agent_error_and_the_runner_goes_on(
    database: Database, failure: Callable[[], Exception], message: str
) -> None:
    def answer(history: list[SessionEvent]) -> ModelReply:
        if last_user_text(history) == "fails":
            raise failure()
        return prose(history)

    model = FakeModel(answer)
    with running(database, model) as world:
        sid = world.sessions.create()
        first, second = queue_while_paused(world, sid, "fails", "works")
        world.sessions.set_paused(sid, False)
        world.settle(2)

        events = log_events(database, sid)
        assert [e.kind for e in events] == [
            "user/message",
            "agent/error",
            "user/message",
            "assistant/message",
        ]
        assert dict(events[1].payload) == {"message": message}
        assert text_of(events[3]) == "re: works"
        assert len(model.calls) == 2
        assert world.outcomes() == [(first.id, "committed", "durable"), (second.id, "committed", "durable")]


# -- terminal outcomes ------------------------------------------------------------------


def test_a_row_removed_after_the_claim_is_discarded_and_the_next_item_runs(database: Database) -> None:
    model = FakeModel()
    with running(database, model) as world:
        sid = world.sessions.create()
        doomed, kept = queue_while_paused(world, sid, "doomed", "kept")

        def remove_first(item: InboxItem) -> None:
            assert world.claims.purpose(item.id) == "admit"
            if item.id == doomed.id:
                with database.write() as db:
                    assert inbox.delete(db, item.id)

        world.pool.before_admit = remove_first
        world.sessions.set_paused(sid, False)
        world.settle(2)

        assert world.outcomes() == [
            (doomed.id, "discarded", "removed from the queue"),
            (kept.id, "committed", "durable"),
        ]
        assert [e.payload["messageId"] for e in user_messages(database, sid)] == [kept.message_id]
        assert [last_user_text(c.history) for c in model.calls] == ["kept"]
        assert waiting(database, sid) == []
        assert world.claims.claimed() == frozenset()


def test_stopping_the_runner_before_admission_discards_the_claimed_item(database: Database) -> None:
    model = FakeModel()
    with running(database, model) as world:
        sid = world.sessions.create()
        claimed, never_claimed = queue_while_paused(world, sid, "claimed", "never claimed")
        entered, release = threading.Event(), threading.Event()

        def block(item: InboxItem) -> None:
            entered.set()
            release.wait(10)

        world.pool.before_admit = block
        world.sessions.set_paused(sid, False)
        assert entered.wait(10)
        world.pool.stop(timeout=0.01)  # the runner is held between its claim and admission
        release.set()
        wait_for(world.pool.idle)

        assert world.outcomes() == [(claimed.id, "discarded", "runner stopped")]
        assert user_messages(database, sid) == []
        assert model.calls == []
        assert world.claims.claimed() == frozenset()
        # The other row was never claimed: it waits, durable, for the next process.
        assert never_claimed.id in [i.id for i in waiting(database, sid)]


def test_an_admission_error_is_discarded_and_the_next_item_runs(database: Database) -> None:
    failing = threading.Event()

    def clock() -> datetime:
        if failing.is_set():
            failing.clear()
            raise RuntimeError("clock broke inside the admission transaction")
        return now()

    model = FakeModel()
    with running(database, model, clock=clock) as world:
        sid = world.sessions.create()
        broken, fine = queue_while_paused(world, sid, "broken", "fine")

        def break_first(item: InboxItem) -> None:
            if item.id == broken.id:
                failing.set()

        world.pool.before_admit = break_first
        world.sessions.set_paused(sid, False)
        world.settle(2)

        assert world.outcomes() == [
            (broken.id, "discarded", "admission failed"),
            (fine.id, "committed", "durable"),
        ]
        assert [text_of(e) for e in user_messages(database, sid)] == ["fine"]
        assert [last_user_text(c.history) for c in model.calls] == ["fine"]
        assert_one_outcome_each(world)


def test_every_claimed_item_gets_exactly_one_outcome_in_a_mixed_run(database: Database) -> None:
    def answer(history: list[SessionEvent]) -> ModelReply:
        if last_user_text(history) == "model fails":
            raise ModelError("no answer")
        return prose(history)

    with running(database, FakeModel(answer)) as world:
        sid = world.sessions.create()
        items = queue_while_paused(world, sid, "ok", "removed", "model fails", "ok again")

        def remove(item: InboxItem) -> None:
            if item.id == items[1].id:
                with database.write() as db:
                    inbox.delete(db, item.id)

        world.pool.before_admit = remove
        world.sessions.set_paused(sid, False)
        world.settle(4)

        assert_one_outcome_each(world)
        assert {o[0]: o[1] for o in world.outcomes()} == {
            items[0].id: "committed",
            items[1].id: "discarded",
            items[2].id: "committed",
            items[3].id: "committed",
        }
        assert waiting(database, sid) == []


def after_claim_notification(events: object, queue: bool) -> bool:
    """True for the notification the runner thread sends right after it claims a row."""
    return queue and not events and threading.current_thread().name.startswith("runner-")


def test_a_notifier_failure_after_the_claim_still_ends_in_one_outcome(database: Database) -> None:
    failures = [1]

    def fail_once(events: object, queue: bool) -> bool:
        if after_claim_notification(events, queue) and failures:
            failures.pop()
            return True
        return False

    notifier = RecordingNotifier()
    with running(database, notifier=notifier) as world:
        sid = world.sessions.create()
        (item,) = queue_while_paused(world, sid, "hello")
        notifier.fail = fail_once
        world.sessions.set_paused(sid, False)
        wait_for(world.pool.idle)
        wait_for(lambda: world.outcomes() or None, timeout=1)

        assert [o[0] for o in world.outcomes()] == [item.id]
        assert world.claims.claimed() == frozenset()


def test_a_notifier_failure_after_admission_does_not_stall_the_session(database: Database) -> None:
    failures = [1]

    def fail_once(events: Sequence[SessionEvent], queue: bool) -> bool:
        if any(e.kind == "user/message" for e in events) and failures:
            failures.pop()
            return True
        return False

    model = FakeModel()
    notifier = RecordingNotifier()
    with running(database, model, notifier=notifier) as world:
        sid = world.sessions.create()
        queue_while_paused(world, sid, "one", "two")
        notifier.fail = fail_once
        world.sessions.set_paused(sid, False)
        wait_for(world.pool.idle)
        wait_for(lambda: len(model.calls) == 2, timeout=1)

        assert [last_user_text(c.history) for c in model.calls] == ["one", "two"]
        assert waiting(database, sid) == []


def test_an_edit_accepted_before_the_claim_is_what_gets_admitted(database: Database) -> None:
    with running(database) as world:
        sid = world.sessions.create()
        (item,) = queue_while_paused(world, sid, "original text")
        edits: list[str] = []

        def edit_before_the_claim(item_id: str, purpose: str) -> None:
            # The user's edit wins the race for the row: it lands after the runner read
            # the queue and before the runner claims the row.
            if purpose == "admit" and not edits:
                edits.append(item_id)
                world.sessions.queue_action(sid, item_id, "edit", "edited text")

        world.claims.before_claim = edit_before_the_claim
        world.sessions.set_paused(sid, False)
        world.settle(1)

        assert edits == [item.id]
        (admitted,) = user_messages(database, sid)
        assert text_of(admitted) == "edited text"


def test_a_row_edited_while_the_runner_finishes_a_turn_is_still_admitted(database: Database) -> None:
    gate = threading.Event()

    def answer(history: list[SessionEvent]) -> ModelReply:
        gate.wait(10)
        return prose(history)

    model = FakeModel(answer)
    with running(database, model) as world:
        sid = world.sessions.create()
        world.sessions.send(sid, "first")
        wait_for(lambda: model.calls)  # the runner is inside the first turn
        second = world.sessions.send(sid, "second").item

        def finish_the_turn_meanwhile(item_id: str, purpose: str) -> None:
            if item_id == second.id and purpose == "remove":
                gate.set()
                wait_for(world.pool.idle)

        world.claims.on_claim = finish_the_turn_meanwhile
        world.sessions.queue_action(sid, second.id, "edit", "second, edited")
        world.claims.on_claim = None
        wait_for(lambda: len(world.outcomes()) == 2, timeout=1.5)

        assert [text_of(e) for e in user_messages(database, sid)] == ["first", "second, edited"]


# -- tools ------------------------------------------------------------------------------


def test_calls_run_in_order_and_stop_at_the_call_that_concludes_the_turn(database: Database) -> None:
    executed: list[Executed] = []
    tools: list[Tool] = [
        RecordingTool("first", executed),
        RecordingTool("second", executed),
        ShowTaskSurface(),
    ]

    def answer(history: list[SessionEvent]) -> ModelReply:
        return ModelReply(
            "Let me ask you.",
            [
                call("call_one_0001", "second", '{"n": 1}'),
                call("call_two_0002", "first", '{"n": 2}'),
                call("call_ask_0003", "show_task_surface", SURFACE_ARGS),
                call("call_after_004", "first", '{"n": 3}'),
                call("call_after_005", "no_such_tool", "{}"),
            ],
        )

    model = FakeModel(answer)
    with running(database, model, tools) as world:
        sid = world.sessions.create()
        world.sessions.send(sid, "ask me")
        world.settle(1)

        assert executed == [Executed("second", '{"n": 1}', 0), Executed("first", '{"n": 2}', 0)]
        assert len(model.calls) == 1
        assert model.calls[0].tool_names == ["first", "second", "show_task_surface"]
        events = log_events(database, sid)
        assert [e.kind for e in events] == [
            "user/message",
            "assistant/message",
            *["tool/call", "tool/result"] * 5,
        ]
        calls = [e for e in events if e.kind == "tool/call"]
        results = [e for e in events if e.kind == "tool/result"]
        assert [(c.payload["callId"], c.payload["name"], c.payload["args"]) for c in calls] == [
            ("call_one_0001", "second", '{"n": 1}'),
            ("call_two_0002", "first", '{"n": 2}'),
            ("call_ask_0003", "show_task_surface", SURFACE_ARGS),
            ("call_after_004", "first", '{"n": 3}'),
            ("call_after_005", "no_such_tool", "{}"),
        ]
        assert [(r.payload["callId"], r.payload["ok"]) for r in results] == [
            ("call_one_0001", True),
            ("call_two_0002", True),
            ("call_ask_0003", True),
            ("call_after_004", False),
            ("call_after_005", False),
        ]
        assert text_of(results[0]) == 'second got {"n": 1}'
        assert results[2].payload["meta"]["kind"] == "dsh/task-surface"
        for skipped in results[3:]:
            assert text_of(skipped) == NOT_RUN
            assert "not run" in text_of(skipped)
            assert "meta" not in skipped.payload
        active = session_info(database, sid).projection.active
        assert active is not None
        assert (active.call_id, active.surface_id) == (
            "call_ask_0003",
            results[2].payload["meta"]["surfaceId"],
        )


def test_a_tool_that_does_not_conclude_hands_its_result_back_to_the_model(database: Database) -> None:
    executed: list[Executed] = []

    def answer(history: list[SessionEvent]) -> ModelReply:
        if history[-1].kind == "user/message":
            return ModelReply(None, [call("call_look_0001", "lookup", '{"q": "x"}')])
        return ModelReply("found it")

    model = FakeModel(answer)
    with running(database, model, [RecordingTool("lookup", executed)]) as world:
        sid = world.sessions.create()
        world.sessions.send(sid, "look it up")
        world.settle(1)

        assert len(model.calls) == 2
        second = model.calls[1].history
        assert [e.kind for e in second] == ["user/message", "tool/call", "tool/result"]
        assert dict(second[-1].payload) == {
            "callId": "call_look_0001",
            "name": "lookup",
            "ok": True,
            "content": [{"type": "text", "text": 'lookup got {"q": "x"}'}],
        }
        assert executed == [Executed("lookup", '{"q": "x"}', 0)]
        assert kinds(database, sid)[-1] == "assistant/message"


def test_a_turn_is_bounded_by_max_model_steps(database: Database) -> None:
    executed: list[Executed] = []

    def answer(history: list[SessionEvent]) -> ModelReply:
        if last_user_text(history) == "loop forever":
            return ModelReply(None, [call("", "again", "{}")])
        return prose(history)

    model = FakeModel(answer)
    with running(database, model, [RecordingTool("again", executed)]) as world:
        sid = world.sessions.create()
        queue_while_paused(world, sid, "loop forever", "then this")
        world.sessions.set_paused(sid, False)
        world.settle(2)

        looping = [c for c in model.calls if last_user_text(c.history) == "loop forever"]
        assert len(looping) == STEPS_PER_TURN
        assert len(executed) == STEPS_PER_TURN
        assert [last_user_text(c.history) for c in model.calls[STEPS_PER_TURN:]] == ["then this"]
        call_ids = [e.payload["callId"] for e in log_events(database, sid) if e.kind == "tool/call"]
        assert len(set(call_ids)) == STEPS_PER_TURN  # the runner minted a distinct id for each
        # The cut-short turn ends in so many words, so nothing resumes it later.
        kinds = [(e.kind, e.payload.get("message")) for e in log_events(database, sid)]
        second = kinds.index(("user/message", None), 1)
        assert kinds[second - 1] == ("agent/error", STEPS_EXHAUSTED)
        looped = log_events(database, sid)[:second]
        assert owed(looped[1:], None) == Owed(reply=False)


def test_an_unknown_tool_gives_a_failed_result_and_the_model_goes_on(database: Database) -> None:
    def answer(history: list[SessionEvent]) -> ModelReply:
        if history[-1].kind == "user/message":
            return ModelReply(None, [call("call_ghost_001", "ghost", "{}")])
        return ModelReply("never mind")

    model = FakeModel(answer)
    with running(database, model, [RecordingTool("real", [])]) as world:
        sid = world.sessions.create()
        world.sessions.send(sid, "call a ghost")
        world.settle(1)

        (result,) = tool_results(database, sid)
        assert result.payload["ok"] is False and result.payload["callId"] == "call_ghost_001"
        assert "ghost" in text_of(result) and "meta" not in result.payload
        assert len(model.calls) == 2 and model.calls[1].history[-1] == result
        assert kinds(database, sid)[-1] == "assistant/message"


def test_a_tool_that_raises_gives_a_failed_result_not_a_crash(database: Database) -> None:
    executed: list[Executed] = []

    def answer(history: list[SessionEvent]) -> ModelReply:
        if history[-1].kind == "user/message" and last_user_text(history) == "explode":
            return ModelReply(None, [call("call_boom_0001", "boom", "{}")])
        return prose(history)

    boom = RecordingTool("boom", executed, raises=ValueError("internal detail"))
    model = FakeModel(answer)
    with running(database, model, [boom]) as world:
        sid = world.sessions.create()
        first, second = queue_while_paused(world, sid, "explode", "after")
        world.sessions.set_paused(sid, False)
        world.settle(2)

        (result,) = tool_results(database, sid)
        assert result.payload["ok"] is False
        assert "boom" in text_of(result) and "ValueError" in text_of(result)
        assert executed == [Executed("boom", "{}", 0)]
        assert len(model.calls) == 3  # the failed result went back, then the next item ran
        assert model.calls[1].history[-1] == result
        assert world.outcomes() == [(first.id, "committed", "durable"), (second.id, "committed", "durable")]
        assert kinds(database, sid)[-1] == "assistant/message"
