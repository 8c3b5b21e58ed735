"""The Task Surface way of one submission, over real HTTP against a live server."""

from __future__ import annotations

import json
import threading

from tasksurface.agent.tools import ToolContext
from tasksurface.backends.demos import DEMOS
from tasksurface.domain.ids import CallId, SessionId
from tasksurface.services.container import Services

from ..support import Api, held_claim, new_id, wait_for

FIELDS_VALUES = {
    "name": "1.4.0",
    "notes": "First line\nSecond line",
    "channel": "beta",
    "platforms": ["linux", "win"],
    "announce": True,
    "rollout": ["us", "eu", "asia"],
}


def test_show_submit_admit_and_acknowledge(api: Api) -> None:
    sid = api.create_session()
    surface = api.show_surface(sid, "fields")
    active = api.get_active(sid, surface)
    assert active["active"] is True and active["pending"] is None
    assert active["model"]["title"] == "Release checklist"
    result = api.submit(sid, surface, FIELDS_VALUES, note="ship it")
    assert result["accepted"] is True and result["phase"] == "queued"
    events = api.settled(sid)
    user_messages = [e for e in events if e["kind"] == "user/message"]
    submitted = user_messages[-1]
    assert submitted["payload"]["messageId"] == result["messageId"]
    source = submitted["payload"]["source"]
    assert source["kind"] == "user"
    assert source["taskSurface"]["surfaceId"] == surface
    assert source["taskSurface"]["values"] == FIELDS_VALUES
    text = submitted["payload"]["content"][0]["text"]
    assert "- Channel: Beta" in text and "- Rollout order: 1. Americas, 2. Europe, 3. Asia" in text
    assert (
        events[-1]["kind"] == "assistant/message" and "- Release name: 1.4.0" in events[-1]["payload"]["text"]
    )
    assert [e["kind"] for e in events].count("user/message") == 2  # the command and the one submission
    assert api.projection(sid)["active"] is None
    assert api.get_active(sid, surface) == {"active": False, "reason": "not-open"}


def test_queued_then_claiming_then_committed(api: Api, services: Services) -> None:
    sid = api.create_session()
    surface = api.show_surface(sid)
    api.pause(sid)
    result = api.submit(sid, surface, FIELDS_VALUES)
    pending = api.get_active(sid, surface)["pending"]
    assert pending == {
        "submissionId": pending["submissionId"],
        "messageId": result["messageId"],
        "phase": "queued",
    }
    [row] = api.queue(sid)
    assert row["source"]["taskSurface"]["surfaceId"] == surface  # the queued row keeps its correlation
    # Hold the runner's claim open to observe `claiming` from the outside.
    with held_claim(services) as (claimed, release):
        api.pause(sid, False)
        assert claimed.wait(10)
        assert api.get_active(sid, surface)["pending"]["phase"] == "claiming"
        assert api.queue(sid) == []  # the claimed row has left the queue
        assert api.dismiss(sid, surface) == {"dismissed": False, "reason": "submission-pending"}
        release.set()
    api.settled(sid)
    assert api.get_active(sid, surface) == {"active": False, "reason": "not-open"}


def test_the_same_submission_id_returns_the_first_result(api: Api) -> None:
    sid = api.create_session()
    surface = api.show_surface(sid)
    api.pause(sid)
    submission_id = new_id()
    first = api.submit(sid, surface, FIELDS_VALUES, submission_id)
    again = api.submit(sid, surface, FIELDS_VALUES, submission_id)
    assert again == first
    api.pause(sid, False)
    api.settled(sid)
    after_commit = api.submit(sid, surface, FIELDS_VALUES, submission_id)
    assert after_commit == first
    assert api.kinds(sid).count("user/message") == 2


def test_the_same_submission_id_with_other_values_is_a_conflict(api: Api) -> None:
    sid = api.create_session()
    surface = api.show_surface(sid)
    api.pause(sid)
    submission_id = new_id()
    api.submit(sid, surface, FIELDS_VALUES, submission_id)
    conflict = api.submit(sid, surface, {**FIELDS_VALUES, "name": "other"}, submission_id)
    assert conflict["accepted"] is False and conflict["reason"] == "invalid-submission"
    assert conflict["problems"][0]["code"] == "submission.id-conflict"


def test_the_same_submission_id_with_another_note_is_a_conflict_queued_or_logged(api: Api) -> None:
    """The note is part of the one message, so a retry must carry the same note as the first use,
    whether that is still queued or already in the log."""
    sid = api.create_session()
    surface = api.show_surface(sid)
    api.pause(sid)
    submission_id = new_id()
    first = api.submit(sid, surface, FIELDS_VALUES, submission_id, note="Ship on Friday")
    assert first["accepted"] is True
    queued = api.submit(sid, surface, FIELDS_VALUES, submission_id, note="Ship on Monday")
    assert queued["accepted"] is False and queued["problems"][0]["code"] == "submission.id-conflict"
    api.pause(sid, False)
    api.settled(sid)
    logged = api.submit(sid, surface, FIELDS_VALUES, submission_id, note="Ship on Monday")
    assert logged["accepted"] is False and logged["problems"][0]["code"] == "submission.id-conflict"
    assert api.submit(sid, surface, FIELDS_VALUES, submission_id, note="Ship on Friday") == first


def test_another_submission_id_while_one_is_pending_is_refused(api: Api) -> None:
    sid = api.create_session()
    surface = api.show_surface(sid)
    api.pause(sid)
    api.submit(sid, surface, FIELDS_VALUES)
    second = api.submit(sid, surface, FIELDS_VALUES)
    assert second == {"accepted": False, "reason": "submission-pending"}
    assert len(api.queue(sid)) == 1


def test_dismiss_appends_one_event_and_starts_no_turn(api: Api) -> None:
    sid = api.create_session()
    surface = api.show_surface(sid)
    before = api.events(sid)
    dismissal_id = new_id()
    result = api.dismiss(sid, surface, dismissal_id)
    assert result["dismissed"] is True
    after = api.events(sid)
    assert len(after) == len(before) + 1
    assert after[-1]["kind"] == "task-surface/dismissed" and after[-1]["seq"] == result["eventSeq"]
    assert after[-1]["payload"]["dismissalId"] == dismissal_id
    assert api.dismiss(sid, surface, dismissal_id) == result  # a retry returns the original eventSeq
    assert api.dismiss(sid, surface) == {"dismissed": False, "reason": "not-open"}
    assert api.events(sid) == after  # no turn started, nothing else appended
    assert api.projection(sid)["active"] is None


def test_a_second_surface_while_one_is_open_fails(api: Api, services: Services) -> None:
    sid = api.create_session()
    surface = api.show_surface(sid)
    before = api.events(sid)
    context = ToolContext(SessionId(sid), CallId("call-second-1"), services.database)
    outcome = services.runner.tools.execute(
        context, "show_task_surface", json.dumps({"model": DEMOS["plan"]})
    )
    assert outcome.ok is False and '"surface.already-open"' in outcome.text and outcome.meta is None
    assert api.projection(sid)["active"]["surfaceId"] == surface
    assert api.events(sid) == before


def test_an_ordinary_message_closes_the_open_surface(api: Api) -> None:
    sid = api.create_session()
    surface = api.show_surface(sid)
    api.send(sid, "never mind, let us just talk")
    api.settled(sid)
    assert api.projection(sid)["active"] is None
    assert api.submit(sid, surface, FIELDS_VALUES) == {"accepted": False, "reason": "not-open"}


def test_a_submission_for_another_surface_is_stale(api: Api) -> None:
    sid = api.create_session()
    first = api.show_surface(sid, "fields")
    second = api.show_surface(sid, "plan")  # the command message bypassed the first
    assert first != second
    assert api.submit(sid, first, FIELDS_VALUES) == {"accepted": False, "reason": "stale"}
    assert api.dismiss(sid, first) == {"dismissed": False, "reason": "stale"}


def test_values_are_revalidated_against_the_persisted_model(api: Api) -> None:
    sid = api.create_session()
    surface = api.show_surface(sid)
    bad = {**FIELDS_VALUES, "name": "  ", "channel": "nightly", "announce": "yes", "extra": 1}
    bad.pop("rollout")
    result = api.submit(sid, surface, bad)
    assert result["accepted"] is False and result["reason"] == "invalid-submission"
    codes = {(p["code"], p.get("where")) for p in result["problems"]}
    assert codes == {
        ("submission.required", "name"),
        ("submission.unknown-option", "channel"),
        ("submission.wrong-type", "announce"),
        ("submission.unknown-field", "extra"),
        ("submission.missing-value", "rollout"),
    }
    assert api.queue(sid) == [] and api.get_active(sid, surface)["pending"] is None


def test_queue_wait_helper_sees_every_submission_exactly_once(api: Api) -> None:
    sid = api.create_session()
    surface = api.show_surface(sid)
    results = []
    barrier = threading.Barrier(4)

    def double_click() -> None:
        barrier.wait()
        results.append(api.submit(sid, surface, FIELDS_VALUES, "same-submission-id"))

    threads = [threading.Thread(target=double_click) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len({r["messageId"] for r in results}) == 1 and all(r["accepted"] for r in results)
    events = api.settled(sid)
    assert (
        sum(1 for e in events if e["kind"] == "user/message" and "taskSurface" in e["payload"]["source"]) == 1
    )
    wait_for(lambda: api.projection(sid)["active"] is None)
