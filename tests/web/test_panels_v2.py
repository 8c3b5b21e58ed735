"""Version 2 panels through the real app on a live server: submit choices, hidden fields,
non-blocking actions through the durable inbox, plain form posts, and the agent's name."""

from __future__ import annotations

import time
from typing import Any

import pytest

from tasksurface.backends.demos import APPROVE, INPUTS
from tasksurface.services.container import Services

from ..support import Api, new_id, wait_for

DECIDE = {"settings": {"h1": "accept", "h2": "reject", "h3": "accept"}, "notify": ["ops"]}


@pytest.fixture
def app_config(database_url: str) -> dict[str, Any]:
    return {"database_url": database_url, "secret_key": "test-secret-key", "agent_name": "Ada"}


def approve_panel(api: Api) -> tuple[str, str]:
    sid = api.create_session()
    return sid, api.show_surface(sid, "approve")


def act(api: Api, sid: str, surface: str, action: str, body: dict[str, Any]) -> Any:
    response = api.post(f"/api/sessions/{sid}/task-surfaces/{surface}/actions/{action}", body)
    return response


def user_messages(api: Api, sid: str) -> list[dict[str, Any]]:
    return [e for e in api.events(sid) if e["kind"] == "user/message"]


def settled_with(api: Api, sid: str, count: int) -> list[dict[str, Any]]:
    """The user messages once `count` are in the log and the turn they start is over.

    An admitted action is claimed from the queue before its message commits, so an empty queue
    alone does not say it has landed: wait for the message itself, then for the turn."""
    wait_for(lambda: len(user_messages(api, sid)) >= count)
    api.settled(sid)
    return user_messages(api, sid)


# --- submit choices -------------------------------------------------------------------------


def test_the_chosen_submit_action_is_part_of_the_one_message(api: Api) -> None:
    sid, surface = approve_panel(api)
    body = {"submissionId": new_id(), "values": DECIDE, "note": "Keep the cache small", "action": "changes"}
    first = api.post(f"/api/sessions/{sid}/task-surfaces/{surface}/submit", body).json()
    assert first["accepted"] is True
    again = api.post(f"/api/sessions/{sid}/task-surfaces/{surface}/submit", body).json()
    assert again == first  # a retry gets the first answer
    other = api.post(
        f"/api/sessions/{sid}/task-surfaces/{surface}/submit", {**body, "action": "approve"}
    ).json()
    assert other["accepted"] is False and other["problems"][0]["code"] == "submission.id-conflict"
    api.settled(sid)
    message = user_messages(api, sid)[-1]["payload"]
    assert message["source"]["taskSurface"]["action"] == "changes"
    assert message["content"][0]["text"] == (
        "Task Surface: Approve the deploy settings\n"
        "- Decision: Request changes\n"
        "- Changes to the deploy settings: accepted 2 of 3 changes\n"
        "    accepted: 1 (line 2), 3 (line 7)\n"
        "    rejected: 2 (line 4)\n"
        "- Tell: #ops\n"
        "- Reason: Keep the cache small"
    )
    assert api.projection(sid)["active"] is None


def test_a_panel_with_submit_choices_refuses_a_submission_without_one(api: Api) -> None:
    sid, surface = approve_panel(api)
    result = api.submit(sid, surface, DECIDE)
    assert result["accepted"] is False
    assert [(p["code"], p["where"]) for p in result["problems"]] == [("submission.action-required", "action")]


def test_a_field_that_does_not_apply_is_refused_by_place(api: Api) -> None:
    sid = api.create_session()
    surface = api.show_surface(sid, "inputs")
    values = {
        "people": 8,
        "budget": 120,
        "start": "2026-05-04",
        "city": "c3",
        "stay": "hotel",
        "other_stay": "a tent",
        "contact": "",
        "code": "",
        "diet": ["veg"],
        "terms": True,
    }
    result = api.submit(sid, surface, values)
    assert [(p["code"], p["where"]) for p in result["problems"]] == [
        ("submission.hidden-field", "other_stay")
    ]
    del values["other_stay"]
    values.update(budget=120.25, code="ab-12", contact="nobody")
    result = api.submit(sid, surface, values)
    assert [(p["code"], p["where"], p.get("params")) for p in result["problems"]] == [
        ("submission.off-step", "budget", {"step": 0.5, "base": 0}),
        ("submission.invalid-format", "contact", {"format": "email"}),
        ("submission.pattern-mismatch", "code", None),
    ]


def test_a_catastrophic_pattern_is_answered_at_once_over_http(api: Api) -> None:
    sid = api.create_session()
    model = {
        "version": 2,
        "title": "Pattern",
        "sections": [],
        "fields": [{"kind": "text", "id": "t", "label": "T", "pattern": "(a+)+$"}],
        "submit": {"label": "Go"},
    }
    result = api.show_model(sid, model)
    surface = result["payload"]["meta"]["surfaceId"]
    started = time.perf_counter()
    answer = api.submit(sid, surface, {"t": "a" * 20_000 + "!"})
    assert time.perf_counter() - started < 2.0
    assert answer["problems"][0]["code"] == "submission.pattern-mismatch"


# --- non-blocking actions -------------------------------------------------------------------


def test_an_action_is_one_correlated_message_and_the_panel_stays_open(api: Api) -> None:
    sid, surface = approve_panel(api)
    request_id = new_id()
    values = {"settings": {"h1": "accept"}, "notify": []}
    first = act(api, sid, surface, "dry_run", {"requestId": request_id, "values": values})
    assert first.status_code == 200 and first.json()["accepted"] is True
    [message] = settled_with(api, sid, 2)[1:]
    assert api.projection(sid)["active"]["surfaceId"] == surface  # not a bypass
    source = message["payload"]["source"]["taskSurfaceAction"]
    assert (source["actionId"], source["requestId"], source["surfaceId"]) == ("dry_run", request_id, surface)
    assert source["values"] == values
    assert message["payload"]["content"][0]["text"].startswith(
        "Task Surface: Approve the deploy settings\n- Action: Run a dry run first\n"
    )
    # The retry after admission gets the first answer; the same id with other values is refused.
    again = act(api, sid, surface, "dry_run", {"requestId": request_id, "values": values}).json()
    assert again == first.json()
    other = act(
        api, sid, surface, "dry_run", {"requestId": request_id, "values": {**values, "notify": ["mei"]}}
    )
    assert other.json()["problems"][0]["code"] == "action.id-conflict"
    # Each action exactly once per request id; the submission still closes the panel.
    assert act(api, sid, surface, "explain", {"requestId": new_id(), "values": values}).json()["accepted"]
    assert len(settled_with(api, sid, 3)) == 3
    assert api.submit(sid, surface, DECIDE)["accepted"] is False  # needs a submit choice
    body = {"submissionId": new_id(), "values": DECIDE, "action": "approve"}
    assert api.post(f"/api/sessions/{sid}/task-surfaces/{surface}/submit", body).json()["accepted"]
    wait_for(lambda: api.projection(sid)["active"] is None)


def test_an_action_is_refused_for_an_unknown_id_bad_values_and_a_closed_panel(api: Api) -> None:
    sid, surface = approve_panel(api)
    unknown = act(api, sid, surface, "deploy", {"requestId": new_id(), "values": {}}).json()
    assert unknown["accepted"] is False and unknown["problems"][0]["code"] == "action.unknown"
    bad = act(api, sid, surface, "dry_run", {"requestId": new_id(), "values": {"notify": ["nobody"]}}).json()
    assert {(p["code"], p["where"]) for p in bad["problems"]} == {
        ("submission.unknown-option", "notify"),
        ("submission.missing-value", "settings"),
    }
    malformed = act(api, sid, surface, "dry_run", {"requestId": "x", "values": {}})
    assert malformed.status_code == 400 and malformed.json()["error"]["code"] == "invalid-id"
    placement = act(api, sid, surface, "dry_run", {"requestId": new_id(), "values": {}, "placement": "now"})
    assert placement.status_code == 400 and placement.json()["error"]["code"] == "invalid-placement"
    assert act(api, sid, surface, "bad id!", {"requestId": new_id(), "values": {}}).status_code == 400
    api.dismiss(sid, surface)
    closed = act(api, sid, surface, "dry_run", {"requestId": new_id(), "values": DECIDE}).json()
    assert closed == {"accepted": False, "reason": "not-open"}


def test_a_queued_action_is_withdrawn_from_its_panel_only(api: Api, services: Services) -> None:
    sid, surface = approve_panel(api)
    api.pause(sid)
    request_id = new_id()
    steering = {"requestId": request_id, "values": DECIDE, "placement": "steering"}
    assert act(api, sid, surface, "dry_run", steering).json()["accepted"]
    [item] = api.queue(sid)
    assert item["placement"] == "steering" and item["source"]["taskSurfaceAction"]["requestId"] == request_id
    for action in ("remove", "edit", "steer"):
        refused = api.post(f"/api/sessions/{sid}/queue/{item['id']}", {"action": action, "text": "x"})
        assert (
            refused.status_code == 409
            and refused.json()["error"]["code"] == "queue-item-is-task-surface-action"
        )
    dock = api.get(f"/sessions/{sid}/dock/receipts").text
    assert 'class="action-receipt receipt-queued"' in dock and f'data-withdraw="{request_id}"' in dock
    withdrawn = api.post(
        f"/api/sessions/{sid}/task-surfaces/{surface}/actions/dry_run/withdraw", {"requestId": request_id}
    )
    assert withdrawn.json() == {"withdrawn": True}
    assert api.queue(sid) == []
    assert services.journal.records()[-1].reason == "withdrawn from its panel"
    missing = api.post(
        f"/api/sessions/{sid}/task-surfaces/{surface}/actions/dry_run/withdraw", {"requestId": request_id}
    )
    assert missing.status_code == 404 and missing.json()["error"]["code"] == "action-not-found"
    # An admitted action is history: withdrawing it says so, and its receipt reads "sent".
    sent = new_id()
    assert act(api, sid, surface, "explain", {"requestId": sent, "values": DECIDE}).json()["accepted"]
    api.pause(sid, False)
    settled_with(api, sid, 2)
    late = api.post(
        f"/api/sessions/{sid}/task-surfaces/{surface}/actions/explain/withdraw", {"requestId": sent}
    )
    assert late.json() == {"withdrawn": False, "reason": "accepted"}
    assert 'class="action-receipt receipt-accepted"' in api.get(f"/sessions/{sid}/dock/receipts").text


def test_an_action_over_the_websocket_is_answered_like_over_http(api: Api) -> None:
    sid, surface = approve_panel(api)
    with api.socket(sid) as socket:
        socket.receive()
        params = {"surfaceId": surface, "actionId": "explain", "requestId": new_id(), "values": DECIDE}
        reply = socket.call("taskSurface.action", params)
        assert reply["result"]["accepted"] is True
        missing = socket.call(
            "taskSurface.action", {"surfaceId": surface, "requestId": new_id(), "values": {}}
        )
        assert missing["error"]["code"] == "invalid-params"


# --- plain form posts -----------------------------------------------------------------------


def form(api: Api, sid: str, surface: str, data: dict[str, Any], lang: str = "en") -> Any:
    return api.post(
        f"/sessions/{sid}/task-surfaces/{surface}/submit",
        data=data,
        headers={"Accept-Language": lang},
        allow_redirects=False,
    )


@pytest.mark.parametrize(
    ("lang", "wanted"),
    [
        ("en", ["the smallest allowed is 2", "enter a date as YYYY-MM-DD"]),
        ("zh", ["最小允许值为 2", "请按 YYYY-MM-DD 输入日期"]),
    ],
)
def test_a_refused_form_shows_each_problem_beside_its_field(api: Api, lang: str, wanted: list[str]) -> None:
    sid = api.create_session()
    surface = api.show_surface(sid, "inputs")
    data = {
        "submissionId": new_id(),
        "f.people": "1",
        "f.budget": "10",
        "f.start": "tomorrow",
        "f.stay": "hotel",
        "f.terms": "true",
        "f.diet": "veg",
    }
    page = form(api, sid, surface, data, lang)
    assert page.status_code == 422
    html = page.text
    for field_id, text in zip(("people", "start"), wanted, strict=True):
        start = html.index(f'data-field-id="{field_id}"')
        assert text in html[start : html.index("</div>", html.index("field-problem", start)) + 6]
    assert 'id="dock-f-people" type="number"' in html and 'aria-invalid="true"' in html


def test_without_javascript_a_changed_answer_shows_the_fields_that_apply(api: Api) -> None:
    sid = api.create_session()
    surface = api.show_surface(sid, "inputs")
    page = api.get(f"/sessions/{sid}").text
    assert 'data-field-id="other_stay" data-field-kind="text" data-visible-when=' in page
    assert (
        'data-visible-when="{&#34;field&#34;:&#34;stay&#34;,&#34;values&#34;:[&#34;other&#34;]}" hidden>'
        in page
    )
    refreshed = form(api, sid, surface, {"submissionId": new_id(), "f.stay": "other", "_refresh": "1"})
    assert refreshed.status_code == 200
    assert (
        'data-visible-when="{&#34;field&#34;:&#34;stay&#34;,&#34;values&#34;:[&#34;other&#34;]}">'
        in refreshed.text
    )
    assert api.queue(sid) == []  # nothing was sent


def test_without_javascript_an_action_posts_the_form_and_comes_back(api: Api) -> None:
    sid, surface = approve_panel(api)
    api.pause(sid)
    base = new_id()
    data = {
        "_act": "explain",
        "_act_request": base,
        "f.settings.h1": "accept",
        "f.notify": "mei",
        "_steer": "1",
    }
    response = api.post(f"/sessions/{sid}/task-surfaces/{surface}/actions", data=data, allow_redirects=False)
    assert response.status_code == 303
    [item] = api.queue(sid)
    assert item["placement"] == "steering" and item["source"]["taskSurfaceAction"]["requestId"] == base + "2"
    assert item["source"]["taskSurfaceAction"]["values"] == {"settings": {"h1": "accept"}, "notify": ["mei"]}
    again = api.post(f"/sessions/{sid}/task-surfaces/{surface}/actions", data=data, allow_redirects=False)
    assert again.status_code == 303 and len(api.queue(sid)) == 1  # the same click, posted twice


def test_the_agent_name_is_the_operators_on_panels_and_questions(api: Api) -> None:
    sid = api.create_session()
    api.ask(sid, "/surface approve\n/ask Is staging included? | yes | no")
    page = api.get(f"/sessions/{sid}").text
    assert '<p class="asked-by" id="dock-asked-by">Ada asks</p>' in page
    assert '<p id="question-heading" class="question-heading">Ada asks</p>' in page
    assert 'data-agent-name="Ada"' in page


def test_demos_of_version_two_are_shown_by_the_scripted_agent(api: Api) -> None:
    for demo, model in (("inputs", INPUTS), ("approve", APPROVE)):
        sid = api.create_session()
        surface = api.show_surface(sid, demo)
        assert api.get_active(sid, surface)["model"]["title"] == model["title"]
