"""Rule 5, log authority: fork and rewind fold the resulting log, and nothing else.

Every expectation here is computed in the test from the events the API returns, by a fold
written independently of the application's projection.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa

from tasksurface.services.container import Services
from tasksurface.store.tables import EventRow

from ..support import Api, new_id, wait_for

SURFACE_TOOL = "show_task_surface"
META_KIND = "dsh/task-surface"

# -- helpers -----------------------------------------------------------------


def expected_active(events: list[dict[str, Any]]) -> dict[str, str] | None:
    """The open surface that folding `events` implies, written apart from the app's fold."""
    active: dict[str, str] | None = None
    for event in events:
        kind, payload = event["kind"], event["payload"]
        meta = payload.get("meta")
        if (
            kind == "tool/result"
            and payload.get("name") == SURFACE_TOOL
            and payload.get("ok") is True
            and isinstance(meta, dict)
            and meta.get("kind") == META_KIND
        ):
            active = {"callId": payload["callId"], "surfaceId": meta["surfaceId"]}
        elif kind == "user/message" or (
            kind == "task-surface/dismissed" and active and payload["surfaceId"] == active["surfaceId"]
        ):
            active = None
    return active


def surface_models(events: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """surfaceId -> the normalised model its tool/result carries."""
    return {
        e["payload"]["meta"]["surfaceId"]: e["payload"]["meta"]["model"]
        for e in events
        if e["kind"] == "tool/result" and isinstance(e["payload"].get("meta"), dict)
    }


def valid_values(model: dict[str, Any]) -> dict[str, Any]:
    """Values every field of `model` accepts: the plainest answer for each kind."""
    values: dict[str, Any] = {}
    for field in model["fields"]:
        kind = field["kind"]
        if kind == "toggle":
            values[field["id"]] = False
        elif kind == "text":
            values[field["id"]] = "yes" if field.get("required") else ""
        elif kind == "choice":
            values[field["id"]] = field["options"][0]["id"]
        elif kind == "multi-choice":
            values[field["id"]] = []
        elif kind == "order":
            values[field["id"]] = [o["id"] for o in field["options"]]
        else:  # pragma: no cover - a new field kind needs a value here
            raise AssertionError(f"no value for field kind {kind!r}")
    return values


def values_for(api: Api, sid: str, surface: str) -> dict[str, Any]:
    active = api.get_active(sid, surface)
    assert active["active"] is True, active
    return valid_values(active["model"])


def rewind(api: Api, sid: str, to_seq: int) -> int:
    response = api.post(f"/api/sessions/{sid}/rewind", {"toSeq": to_seq})
    assert response.status_code == 200, response.text
    marker: int = response.json()["eventSeq"]
    return marker


def shape(events: list[dict[str, Any]]) -> list[tuple[int, str, dict[str, Any]]]:
    return [(e["seq"], e["kind"], e["payload"]) for e in events]


def renumbered(events: list[dict[str, Any]]) -> list[tuple[int, str, dict[str, Any]]]:
    return [(i, e["kind"], e["payload"]) for i, e in enumerate(events, start=1)]


def stored_seqs(services: Services, sid: str) -> list[int]:
    """Every stored event of a session, visible or not, straight from the table."""
    with services.database.read() as db:
        return list(
            db.scalars(sa.select(EventRow.seq).where(EventRow.session_id == sid).order_by(EventRow.seq))
        )


def journal(services: Services, message_id: str) -> list[str]:
    return [r.outcome for r in services.journal.records() if r.message_id == message_id]


SURFACE_KINDS = ["user/message", "assistant/message", "tool/call", "tool/result"]
STORY_KINDS = [
    *SURFACE_KINDS,  # 1-4   compare: shown
    "user/message",  # 5     compare: submitted
    "assistant/message",  # 6
    *SURFACE_KINDS,  # 7-10  plan: shown
    "task-surface/dismissed",  # 11    plan: dismissed
    *SURFACE_KINDS,  # 12-15 review: shown
    "user/message",  # 16    review: bypassed by an ordinary message
    "assistant/message",  # 17
    *SURFACE_KINDS,  # 18-21 fields: shown, bypassed by the next command
    *SURFACE_KINDS,  # 22-25 all: shown, still open
]
SUBMITTED_AT = 5


@dataclass
class Story:
    sid: str
    events: list[dict[str, Any]]
    surfaces: dict[str, str]
    submission_id: str
    submitted_values: dict[str, Any]
    message_id: str


def build_story(api: Api) -> Story:
    """A session whose log holds surfaces submitted, dismissed, bypassed, and one still open."""
    sid = api.create_session()
    surfaces: dict[str, str] = {}
    surfaces["compare"] = api.show_surface(sid, "compare")
    submission_id = new_id()
    values = values_for(api, sid, surfaces["compare"])
    submitted = api.submit(sid, surfaces["compare"], values, submission_id)
    assert submitted["accepted"] is True, submitted
    api.settled(sid)
    surfaces["plan"] = api.show_surface(sid, "plan")
    assert api.dismiss(sid, surfaces["plan"])["dismissed"] is True
    surfaces["review"] = api.show_surface(sid, "review")
    api.send(sid, "let us talk about it in chat instead")
    api.settled(sid)
    surfaces["fields"] = api.show_surface(sid, "fields")
    surfaces["all"] = api.show_surface(sid, "all")
    events = api.settled(sid)
    assert [e["kind"] for e in events] == STORY_KINDS
    assert [e["seq"] for e in events] == list(range(1, len(STORY_KINDS) + 1))
    assert events[SUBMITTED_AT - 1]["payload"]["messageId"] == submitted["messageId"]
    assert expected_active(events) == {
        "callId": events[-1]["payload"]["callId"],
        "surfaceId": surfaces["all"],
    }
    return Story(sid, events, surfaces, submission_id, values, submitted["messageId"])


def check_surfaces_against_fold(
    api: Api,
    sid: str,
    story: Story,
    visible: list[dict[str, Any]],
    where: str,
    *,
    pending: bool = True,
) -> None:
    """Only the folded surface is actionable, with its logged model and (if `pending`) no pending record."""
    expected = expected_active(visible)
    state = api.projection(sid)
    assert state["active"] == expected, where
    if pending:
        assert state["pending"] is None, where
    models = surface_models(story.events)
    for surface in story.surfaces.values():
        result = api.get_active(sid, surface)
        if expected and surface == expected["surfaceId"]:
            if not pending:
                result.pop("pending")
            assert result == {
                "active": True,
                "callId": expected["callId"],
                "surfaceId": surface,
                "model": models[surface],
                **({"pending": None} if pending else {}),
            }, where
        else:
            assert result == {"active": False, "reason": "not-open"}, where


# -- (a) fork at every seq -----------------------------------------------------


def test_fork_at_every_seq_folds_exactly_the_copied_history(api: Api) -> None:
    story = build_story(api)
    origin = story.sid
    # The origin has a queued submission while every fork is taken.
    api.pause(origin)
    queued = api.submit(origin, story.surfaces["all"], values_for(api, origin, story.surfaces["all"]))
    assert queued["accepted"] is True
    head = story.events[-1]["seq"]
    for at_seq in range(head + 1):
        where = f"fork at {at_seq}"
        copy = api.fork(origin, at_seq)
        visible = story.events[:at_seq]
        assert shape(api.events(copy)) == renumbered(visible), where
        info = api.get(f"/api/sessions/{copy}").json()
        assert (info["headSeq"], info["forkedFrom"], info["forkedAtSeq"]) == (at_seq, origin, at_seq), where
        assert info["paused"] is False, where
        assert api.queue(copy) == [], where
        # Pending state is checked on its own below, so a fold error is told apart from it.
        check_surfaces_against_fold(api, copy, story, visible, where, pending=False)
    # The origin kept its own state.
    assert shape(api.events(origin)) == shape(story.events)
    assert [row["messageId"] for row in api.queue(origin)] == [queued["messageId"]]


def test_a_fork_ending_mid_turn_is_not_answered_when_a_runner_looks(api: Api, services: Services) -> None:
    """A resume wakes the copy's runner and the start-up pass (on PostgreSQL also the sweep) looks
    for unfinished turns: neither finds one, since the copied message or call was the origin's."""
    story = build_story(api)
    copies = {at_seq: api.fork(story.sid, at_seq) for at_seq in (SUBMITTED_AT, 7, 9)}  # message x2, call
    services.runner.wake_all_with_work()
    for at_seq, copy in copies.items():
        api.pause(copy)
        api.pause(copy, False)  # the resume wakes a runner for the copy before it answers
        wait_for(services.runner.idle)
        assert shape(api.events(copy)) == renumbered(story.events[:at_seq]), at_seq
        assert STORY_KINDS[at_seq - 1] in {"user/message", "tool/call"}, at_seq


def test_a_fork_copies_no_pending_state_from_the_origin(api: Api) -> None:
    story = build_story(api)
    origin, surface = story.sid, story.surfaces["all"]
    api.pause(origin)
    values = values_for(api, origin, surface)
    queued = api.submit(origin, surface, values)
    assert queued["accepted"] is True
    head = story.events[-1]["seq"]
    copy = api.fork(origin, head)  # "all" is open in the fork too, with the same surfaceId
    assert api.queue(copy) == []
    check_surfaces_against_fold(api, copy, story, story.events, f"fork at {head}")
    # The fork's surface is editable: its own submission is accepted, not `submission-pending`.
    own = api.submit(copy, surface, values)
    assert own["accepted"] is True, own
    api.settled(copy)
    assert api.projection(copy) == {"active": None, "pending": None}
    assert api.get_active(origin, surface)["pending"] == {
        "submissionId": api.queue(origin)[0]["source"]["taskSurface"]["submissionId"],
        "messageId": queued["messageId"],
        "phase": "queued",
    }


# -- (b) rewind to every seq ---------------------------------------------------


def test_rewind_to_every_seq_folds_the_visible_history_and_deletes_nothing(
    api: Api, services: Services
) -> None:
    story = build_story(api)
    origin = story.sid
    head = story.events[-1]["seq"]
    for to_seq in range(head + 1):
        where = f"rewind to {to_seq}"
        copy = api.fork(origin, head)
        marker = rewind(api, copy, to_seq)
        assert marker == head + 1, where
        visible = story.events[:to_seq]
        after = api.events(copy)
        assert shape(after) == [
            *shape(visible),
            (head + 1, "session/rewound", {"toSeq": to_seq}),
        ], where
        check_surfaces_against_fold(api, copy, story, visible, where)
        assert stored_seqs(services, copy) == list(range(1, head + 2)), where  # hidden, not deleted
    assert shape(api.events(origin)) == shape(story.events)
    assert stored_seqs(services, origin) == list(range(1, head + 1))
    assert api.projection(origin)["active"] == expected_active(story.events)


def test_rewinding_before_a_submission_reopens_its_surface(api: Api) -> None:
    story = build_story(api)
    origin, compare = story.sid, story.surfaces["compare"]
    copy = api.fork(origin, story.events[-1]["seq"])
    rewind(api, copy, SUBMITTED_AT - 1)
    visible = story.events[: SUBMITTED_AT - 1]
    assert api.projection(copy)["active"] == expected_active(visible)
    assert api.projection(copy)["active"]["surfaceId"] == compare
    reopened = api.get_active(copy, compare)
    assert reopened["active"] is True and reopened["pending"] is None
    assert reopened["model"] == surface_models(story.events)[compare]

    conflict = {"accepted": False, "reason": "invalid-submission"}
    retry = api.submit(copy, compare, story.submitted_values, story.submission_id)
    assert {k: retry.get(k) for k in ("accepted", "reason")} == conflict
    assert [p["code"] for p in retry["problems"]] == ["submission.id-conflict"]

    fresh_id = new_id()
    fresh = api.submit(copy, compare, story.submitted_values, fresh_id)
    assert fresh["accepted"] is True and fresh["phase"] == "queued"
    assert fresh["messageId"] != story.message_id
    events = api.settled(copy)
    [admitted] = [e for e in events[SUBMITTED_AT - 1 :] if e["kind"] == "user/message"]
    assert admitted["payload"]["messageId"] == fresh["messageId"]
    assert admitted["payload"]["source"]["taskSurface"]["submissionId"] == fresh_id
    assert api.projection(copy) == {"active": None, "pending": None}

    again = api.submit(copy, compare, story.submitted_values, story.submission_id)
    assert {k: again.get(k) for k in ("accepted", "reason")} == conflict
    assert [p["code"] for p in again["problems"]] == ["submission.id-conflict"]
    # The origin still answers the old id with its first result and appends nothing.
    assert api.submit(origin, compare, story.submitted_values, story.submission_id) == {
        "accepted": True,
        "messageId": story.message_id,
        "phase": "queued",
    }
    assert shape(api.events(origin)) == shape(story.events)


# -- (c) a fork's submission stays in the fork ---------------------------------


def one_open_surface(api: Api) -> tuple[str, str, list[dict[str, Any]]]:
    sid = api.create_session()
    surface = api.show_surface(sid, "fields")
    return sid, surface, api.events(sid)


FIELDS_VALUES = {
    "name": "2.0.0",
    "notes": "",
    "channel": "stable",
    "platforms": ["linux"],
    "announce": False,
    "rollout": ["eu", "us", "asia"],
}


def test_a_submission_in_a_fork_never_touches_the_origin_log_or_queue(api: Api) -> None:
    origin, surface, before = one_open_surface(api)
    origin_state = api.projection(origin)
    copy = api.fork(origin, before[-1]["seq"])
    api.pause(copy)
    result = api.submit(copy, surface, FIELDS_VALUES)
    assert result["accepted"] is True
    [row] = api.queue(copy)
    assert row["messageId"] == result["messageId"]
    assert api.queue(origin) == []
    assert api.events(origin) == before
    api.pause(copy, False)
    copied = api.settled(copy)
    assert [e["payload"]["messageId"] for e in copied if e["kind"] == "user/message"][-1] == result[
        "messageId"
    ]
    assert api.projection(copy) == {"active": None, "pending": None}
    assert api.events(origin) == before
    assert api.queue(origin) == []
    assert api.projection(origin) == origin_state
    assert origin_state["active"]["surfaceId"] == surface and origin_state["pending"] is None


def test_a_queued_submission_in_a_fork_leaves_the_origin_editable(api: Api) -> None:
    origin, surface, before = one_open_surface(api)
    copy = api.fork(origin, before[-1]["seq"])
    api.pause(copy)
    api.pause(origin)
    in_fork = api.submit(copy, surface, FIELDS_VALUES)
    assert in_fork["accepted"] is True
    assert api.projection(origin)["pending"] is None
    assert api.get_active(origin, surface)["pending"] is None
    in_origin = api.submit(origin, surface, FIELDS_VALUES)
    assert in_origin["accepted"] is True, in_origin
    assert [r["messageId"] for r in api.queue(origin)] == [in_origin["messageId"]]
    assert [r["messageId"] for r in api.queue(copy)] == [in_fork["messageId"]]
    assert api.get_active(copy, surface)["pending"]["messageId"] == in_fork["messageId"]
    assert api.get_active(origin, surface)["pending"]["messageId"] == in_origin["messageId"]


# -- (d) a rewind discards a queued answer to a panel it closes ------------------


def test_a_rewind_that_closes_the_surface_discards_its_queued_submission(
    api: Api, services: Services
) -> None:
    sid, surface, before = one_open_surface(api)
    head = before[-1]["seq"]
    api.pause(sid)
    result = api.submit(sid, surface, FIELDS_VALUES)
    assert result["accepted"] is True
    # The surface stays open after this rewind: the submission stays queued.
    rewind(api, sid, head)
    assert [r["messageId"] for r in api.queue(sid)] == [result["messageId"]]
    assert api.get_active(sid, surface)["pending"]["phase"] == "queued"
    assert journal(services, result["messageId"]) == []
    # This one hides the tool/result: the panel is gone and so is its answer.
    rewind(api, sid, head - 1)
    assert api.queue(sid) == []
    assert journal(services, result["messageId"]) == ["discarded"]
    assert api.projection(sid) == {"active": None, "pending": None}
    assert api.get_active(sid, surface) == {"active": False, "reason": "not-open"}
    visible = api.events(sid)
    api.pause(sid, False)
    wait_for(lambda: services.runner.idle())
    assert api.events(sid) == visible  # nothing admitted
    assert journal(services, result["messageId"]) == ["discarded"]


def test_a_rewind_that_reopens_an_earlier_surface_discards_the_later_ones_submission(
    api: Api, services: Services
) -> None:
    sid = api.create_session()
    fields = api.show_surface(sid, "fields")
    plan_surface = api.show_surface(sid, "plan")  # its command bypassed "fields"
    events = api.events(sid)
    api.pause(sid)
    plan_values = values_for(api, sid, plan_surface)
    queued = api.submit(sid, plan_surface, plan_values)
    assert queued["accepted"] is True
    rewind(api, sid, 4)  # just after the fields result
    expected = expected_active(events[:4])
    assert expected is not None and expected["surfaceId"] == fields
    assert api.projection(sid)["active"]["surfaceId"] == fields
    assert api.queue(sid) == []
    assert journal(services, queued["messageId"]) == ["discarded"]
    reopened = api.submit(sid, fields, FIELDS_VALUES)
    assert reopened["accepted"] is True
    api.pause(sid, False)
    settled = api.settled(sid)
    answers = [e for e in settled if e["kind"] == "user/message" and "taskSurface" in e["payload"]["source"]]
    assert [e["payload"]["messageId"] for e in answers] == [reopened["messageId"]]
    assert journal(services, reopened["messageId"]) == ["committed"]


# -- (e) recovery outside the loaded page --------------------------------------


def test_get_active_recovers_model_and_pending_outside_the_loaded_page(api: Api) -> None:
    sid = api.create_session()
    api.send(sid, "hello")
    api.settled(sid)
    surface = api.show_surface(sid, "fields")
    events = api.events(sid)
    [result_event] = [e for e in events if e["kind"] == "tool/result"]
    assert result_event["seq"] > 1
    api.pause(sid)
    submission_id = new_id()
    submitted = api.submit(sid, surface, FIELDS_VALUES, submission_id)
    assert submitted["accepted"] is True

    page = api.get(f"/sessions/{sid}", params={"before": 2})
    assert page.status_code == 200
    html = page.text
    assert 'data-seq="1"' in html
    assert f'data-seq="{result_event["seq"]}"' not in html  # the result is not on this page
    assert f'data-surface-id="{surface}"' in html
    assert 'data-pending-phase="queued"' in html
    assert f'data-pending-submission="{submission_id}"' in html
    title = result_event["payload"]["meta"]["model"]["title"]
    assert f'<h2 id="dock-title" tabindex="-1" aria-describedby="dock-asked-by">{title}</h2>' in html
    assert 'value="2.0.0"' in html  # the dock shows the values on their way

    first = api.get(f"/api/sessions/{sid}/events", params={"after": 0, "limit": 1})
    assert first.status_code == 200
    assert [e["seq"] for e in first.json()["events"]] == [1]
    assert api.get_active(sid, surface) == {
        "active": True,
        "callId": result_event["payload"]["callId"],
        "surfaceId": surface,
        "model": result_event["payload"]["meta"]["model"],
        "pending": {"submissionId": submission_id, "messageId": submitted["messageId"], "phase": "queued"},
    }
