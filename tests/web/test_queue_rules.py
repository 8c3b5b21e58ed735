"""Rule 3, pause and queue actions, through HTTP on a live server.

While the agent is paused input is accepted and queued, and can be edited, steered or
removed; nothing is admitted until resume. A Task Surface row keeps its full correlation,
refuses `edit` and `steer`, and its `remove` is a discard that leaves the panel editable.
Once the runner has claimed a row, queue actions on it find nothing.
"""

from __future__ import annotations

from typing import Any

import pytest
import requests

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
OTHER_VALUES = {**FIELDS_VALUES, "name": "1.4.1", "announce": False}

# -- helpers -----------------------------------------------------------------


def queue_action(api: Api, sid: str, item_id: str, action: str, text: str | None = None) -> requests.Response:
    body: dict[str, Any] = {"action": action}
    if text is not None:
        body["text"] = text
    return api.post(f"/api/sessions/{sid}/queue/{item_id}", body)


def assert_refused(response: requests.Response, status: int, code: str) -> None:
    assert response.status_code == status, response.text
    assert response.json()["error"]["code"] == code, response.text


def outcomes(services: Services, message_id: str) -> list[str]:
    return [r.outcome for r in services.journal.records() if r.message_id == message_id]


def user_messages(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [e["payload"] for e in events if e["kind"] == "user/message"]


def surface_answers(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [p for p in user_messages(events) if "taskSurface" in p["source"]]


def stays_unadmitted(api: Api, services: Services, sid: str, expected_events: list[dict[str, Any]]) -> None:
    """Every request woke the runner before it answered; once the runner is idle it has looked at
    the queue and decided, so what it admitted is in the log by now."""
    wait_for(services.runner.idle)
    assert api.events(sid) == expected_events


def paused_surface(api: Api) -> tuple[str, str, list[dict[str, Any]]]:
    """A session with the fields panel open and the agent paused; returns (sid, surfaceId, log)."""
    sid = api.create_session()
    surface = api.show_surface(sid, "fields")
    api.pause(sid)
    return sid, surface, api.events(sid)


# -- pause, edit, steer, remove for ordinary input -----------------------------


def test_paused_input_is_queued_editable_and_admitted_only_on_resume(api: Api, services: Services) -> None:
    sid = api.create_session()
    api.pause(sid)
    sent = {name: api.send(sid, name) for name in ("first", "second", "third", "fourth")}
    assert [item["placement"] for item in sent.values()] == ["queued"] * 4
    assert_refused(queue_action(api, sid, sent["first"]["id"], "edit", "  "), 400, "empty-message")

    assert queue_action(api, sid, sent["first"]["id"], "edit", "first, edited").json() == {"ok": True}
    assert queue_action(api, sid, sent["third"]["id"], "steer").json() == {"ok": True}
    assert queue_action(api, sid, sent["second"]["id"], "remove").json() == {"ok": True}

    rows = {row["id"]: row for row in api.queue(sid)}
    assert list(rows) == [sent[n]["id"] for n in ("first", "third", "fourth")]
    first, third, fourth = rows.values()
    assert (first["text"], first["placement"], first["messageId"]) == (
        "first, edited",
        "queued",
        sent["first"]["messageId"],
    )
    assert first["content"] == [{"type": "text", "text": "first, edited"}]
    assert first["preview"] == "first, edited"
    assert first["source"] == sent["first"]["source"]
    assert (third["text"], third["placement"]) == ("third", "steering")
    assert (fourth["text"], fourth["placement"]) == ("fourth", "queued")
    assert outcomes(services, sent["second"]["messageId"]) == ["discarded"]
    stays_unadmitted(api, services, sid, [])
    assert api.get(f"/api/sessions/{sid}").json()["paused"] is True

    api.pause(sid, False)
    events = api.settled(sid)
    admitted = user_messages(events)
    assert [(m["messageId"], m["content"][0]["text"]) for m in admitted] == [
        (sent["third"]["messageId"], "third"),  # steering goes first
        (sent["first"]["messageId"], "first, edited"),  # the edit is what is admitted
        (sent["fourth"]["messageId"], "fourth"),
    ]
    assert sent["second"]["messageId"] not in {m["messageId"] for m in admitted}
    for name in ("first", "third", "fourth"):
        assert outcomes(services, sent[name]["messageId"]) == ["committed"]
    assert outcomes(services, sent["second"]["messageId"]) == ["discarded"]


def test_removing_an_ordinary_queued_message_is_a_discard(api: Api, services: Services) -> None:
    sid = api.create_session()
    api.pause(sid)
    item = api.send(sid, "never mind")
    assert queue_action(api, sid, item["id"], "remove").json() == {"ok": True}
    assert api.queue(sid) == []
    assert [(r.item_id, r.outcome) for r in services.journal.records()] == [(item["id"], "discarded")]
    api.pause(sid, False)
    stays_unadmitted(api, services, sid, [])
    assert_refused(queue_action(api, sid, item["id"], "remove"), 404, "queue-item-not-found")
    assert [(r.item_id, r.outcome) for r in services.journal.records()] == [(item["id"], "discarded")]


# -- Task Surface rows ---------------------------------------------------------


def test_the_queue_read_returns_the_full_task_surface_source(api: Api) -> None:
    sid, surface, _ = paused_surface(api)
    call_id = api.projection(sid)["active"]["callId"]
    submission_id = new_id()
    result = api.submit(sid, surface, FIELDS_VALUES, submission_id)
    [row] = api.queue(sid)
    assert row["messageId"] == result["messageId"]
    assert row["placement"] == "queued"
    source = row["source"]
    assert set(source) == {"kind", "rpcId", "taskSurface"}
    assert source["kind"] == "user" and isinstance(source["rpcId"], str)
    assert source["taskSurface"] == {
        "version": 1,
        "submissionId": submission_id,
        "callId": call_id,
        "surfaceId": surface,
        "values": FIELDS_VALUES,
    }
    assert row["content"] == [{"type": "text", "text": row["text"]}]
    assert "- Release name: 1.4.0" in row["text"]
    api.pause(sid, False)
    [admitted] = surface_answers(api.settled(sid))
    assert admitted["messageId"] == row["messageId"]
    assert admitted["source"] == source  # the correlation is carried into the log unchanged
    assert admitted["content"] == row["content"]


@pytest.mark.parametrize("action", ["edit", "steer"])
def test_edit_and_steer_of_a_task_surface_row_are_refused(api: Api, services: Services, action: str) -> None:
    sid, surface, before = paused_surface(api)
    result = api.submit(sid, surface, FIELDS_VALUES)
    [row] = api.queue(sid)
    pending = api.get_active(sid, surface)["pending"]
    text = "something else" if action == "edit" else None
    assert_refused(queue_action(api, sid, row["id"], action, text), 409, "queue-item-is-task-surface")
    assert api.queue(sid) == [row]
    assert api.get_active(sid, surface)["pending"] == pending
    assert pending["phase"] == "queued" and pending["messageId"] == result["messageId"]
    assert outcomes(services, result["messageId"]) == []
    stays_unadmitted(api, services, sid, before)
    api.pause(sid, False)
    [admitted] = surface_answers(api.settled(sid))
    assert (admitted["messageId"], admitted["content"]) == (row["messageId"], row["content"])
    assert admitted["source"] == row["source"]
    assert outcomes(services, result["messageId"]) == ["committed"]


def test_removing_a_queued_task_surface_row_is_a_discard_and_reopens_the_panel(
    api: Api, services: Services
) -> None:
    sid, surface, before = paused_surface(api)
    earlier = len(services.journal.records())  # the command that showed the panel
    first_id = new_id()
    first = api.submit(sid, surface, FIELDS_VALUES, first_id)
    [row] = api.queue(sid)
    assert queue_action(api, sid, row["id"], "remove").json() == {"ok": True}
    assert [(r.item_id, r.message_id, r.outcome) for r in services.journal.records()[earlier:]] == [
        (row["id"], first["messageId"], "discarded")
    ]
    assert api.queue(sid) == []
    reopened = api.get_active(sid, surface)
    assert reopened["active"] is True and reopened["pending"] is None
    assert api.projection(sid)["active"]["surfaceId"] == surface
    assert api.events(sid) == before

    # The discarded id was never admitted, so it is accepted again as a fresh submission.
    again = api.submit(sid, surface, OTHER_VALUES, first_id)
    assert again["accepted"] is True and again["phase"] == "queued"
    assert again["messageId"] != first["messageId"]
    assert api.get_active(sid, surface)["pending"] == {
        "submissionId": first_id,
        "messageId": again["messageId"],
        "phase": "queued",
    }
    [row_again] = api.queue(sid)
    assert queue_action(api, sid, row_again["id"], "remove").json() == {"ok": True}
    assert api.get_active(sid, surface)["pending"] is None

    # A new submission with a new id is accepted and is the only answer admitted.
    second_id = new_id()
    second = api.submit(sid, surface, FIELDS_VALUES, second_id)
    assert second["accepted"] is True
    stays_unadmitted(api, services, sid, before)
    api.pause(sid, False)
    events = api.settled(sid)
    [admitted] = surface_answers(events)
    assert admitted["messageId"] == second["messageId"]
    assert admitted["source"]["taskSurface"]["submissionId"] == second_id
    assert [(r.message_id, r.outcome) for r in services.journal.records()[earlier:]] == [
        (first["messageId"], "discarded"),
        (again["messageId"], "discarded"),
        (second["messageId"], "committed"),
    ]
    assert api.get_active(sid, surface) == {"active": False, "reason": "not-open"}


@pytest.mark.parametrize("row_kind", ["task-surface", "ordinary"])
def test_queue_actions_after_the_claim_find_nothing_and_the_row_commits(
    api: Api, services: Services, row_kind: str
) -> None:
    sid, surface, _ = paused_surface(api)
    if row_kind == "task-surface":
        message_id = api.submit(sid, surface, FIELDS_VALUES)["messageId"]
    else:
        message_id = api.send(sid, "an ordinary message")["messageId"]
    [row] = api.queue(sid)
    assert row["messageId"] == message_id
    with held_claim(services) as (claimed, release):
        api.pause(sid, False)
        assert claimed.wait(10)
        if row_kind == "task-surface":
            assert api.get_active(sid, surface)["pending"]["phase"] == "claiming"
        assert api.queue(sid) == []
        for action, text in (("edit", "too late"), ("steer", None), ("remove", None)):
            assert_refused(queue_action(api, sid, row["id"], action, text), 404, "queue-item-not-found")
        assert outcomes(services, message_id) == []
        release.set()
        wait_for(lambda: outcomes(services, message_id))  # the claim has ended in its one outcome
        events = api.settled(sid)
    [admitted] = [m for m in user_messages(events) if m["messageId"] == message_id]
    assert (admitted["content"], admitted["source"]) == (row["content"], row["source"])
    assert outcomes(services, message_id) == ["committed"]
    assert api.projection(sid) == {"active": None, "pending": None}
