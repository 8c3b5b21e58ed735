"""Malformed requests get a typed error `{"error": {"code", "message"}}` and change nothing.

A rejected submission is an answer (HTTP 200, `accepted: false`); an invalid model sent
through the real tool path becomes a failed `tool/result` and opens nothing.
"""

from __future__ import annotations

import json
from typing import Any, NamedTuple

import pytest
import requests

from tasksurface.services.container import Services

from ..support import Api, new_id, wait_for

VALUES: dict[str, Any] = {
    "name": "2.0.0",
    "notes": "Line one",
    "channel": "stable",
    "platforms": ["mac"],
    "announce": False,
    "rollout": ["asia", "eu", "us"],
}
UNKNOWN_SESSION = "s_noSuchSession01"
# Wrong length, characters outside [A-Za-z0-9_-] (percent-decoded by the server) and non-ASCII.
BAD_PATH_IDS = ["short7c", "x" * 65, "abc%20defgh", "abcd%C3%A9fghij", "ab.cd.efgh", "abc~defgh", "abc+defgh"]
BAD_BODY_IDS: list[Any] = ["short7c", "x" * 65, "abc/defghi", "abc defghi", "abc%20defgh", "ünïcödé-id"]
BAD_BODY_IDS += ["abc\ndefghi", "", 12345678, None, ["abcdefghij"]]


class Busy(NamedTuple):
    sid: str
    surface: str
    item: str


@pytest.fixture
def busy(api: Api) -> Busy:
    """A session with an open surface, the agent paused and one composer message queued."""
    sid = api.create_session()
    surface = api.show_surface(sid, "fields")
    api.pause(sid)
    item = api.send(sid, "waiting in line")
    return Busy(sid, surface, item["id"])


def snapshot(api: Api, sid: str) -> dict[str, Any]:
    session = api.get(f"/api/sessions/{sid}")
    assert session.status_code == 200, session.text
    return {
        "session": session.json(),
        "events": api.events(sid),
        "queue": api.queue(sid),
        "projection": api.projection(sid),
    }


def refused(response: requests.Response, status: int, code: str) -> None:
    assert response.status_code == status, (response.request.url, response.text)
    assert response.headers["Content-Type"].startswith("application/json")
    body = response.json()
    assert set(body) == {"error"} and set(body["error"]) == {"code", "message"}, body
    assert body["error"]["code"] == code, (response.request.url, body)
    assert isinstance(body["error"]["message"], str) and body["error"]["message"]


def raw_post(api: Api, path: str, data: bytes, content_type: str | None = "application/json") -> Any:
    headers = {"Content-Type": content_type} if content_type else {}
    return api.post(path, data=data, headers=headers)


def session_routes(sid: str, surface: str, item: str) -> list[tuple[str, str, Any]]:
    """Every session route, each with a body that would be fine for a real session."""
    base = f"/api/sessions/{sid}"
    return [
        ("GET", base, None),
        ("GET", f"{base}/events", None),
        ("POST", f"{base}/messages", {"text": "hello"}),
        ("GET", f"{base}/queue", None),
        ("POST", f"{base}/queue/{item}", {"action": "remove"}),
        ("POST", f"{base}/agent", {"paused": False}),
        ("GET", f"{base}/task-surface", None),
        ("GET", f"{base}/task-surfaces/{surface}", None),
        ("POST", f"{base}/task-surfaces/{surface}/submit", {"submissionId": new_id(), "values": VALUES}),
        ("POST", f"{base}/task-surfaces/{surface}/dismiss", {"dismissalId": new_id()}),
        ("POST", f"{base}/fork", {"atSeq": 0}),
        ("POST", f"{base}/rewind", {"toSeq": 0}),
    ]


def call(api: Api, method: str, path: str, body: Any) -> requests.Response:
    return api.get(path) if method == "GET" else api.post(path, body)


def count_sessions(services: Services, api: Api) -> int:
    """Sessions of this client's identity, read from the index page the way the client sees it."""
    return api.get("/").text.count('<li><a href="/sessions/')


def test_a_body_that_is_not_a_json_object_is_refused(api: Api, services: Services, busy: Busy) -> None:
    sid, surface, item = busy
    before, sessions = snapshot(api, sid), count_sessions(services, api)
    routes = ["/api/sessions"] + [p for m, p, _ in session_routes(sid, surface, item) if m == "POST"]
    malformed = [b"not json", b'{"text": "hi",}', b'{"text": "\xff"}', b'{"paused": NaN}', b"[]", b'"text"']
    bodies: list[tuple[bytes, str | None, int, str]] = [
        (data, "application/json", 400, "invalid-json") for data in [*malformed, b"null", b"42"]
    ]
    for duplicated in (b'{"text": "a", "text": "b"}', b'{"values": {"name": "a", "name": "b"}}'):
        bodies.append((duplicated, "application/json", 400, "duplicate-key"))
    for content_type in ("text/plain", "application/x-www-form-urlencoded", None):
        bodies.append((b'{"text": "hi"}', content_type, 415, "unsupported-media-type"))
    for path in routes:
        for data, content_type, status, code in bodies:
            refused(raw_post(api, path, data, content_type), status, code)
        if path != "/api/sessions":  # creating a session accepts an empty body
            refused(raw_post(api, path, b""), 400, "invalid-json")
    too_big = b'{"text": "' + b"x" * (1024 * 1024) + b'"}'
    refused(raw_post(api, f"/api/sessions/{sid}/messages", too_big), 413, "request-entity-too-large")
    assert snapshot(api, sid) == before
    assert count_sessions(services, api) == sessions


def test_an_unknown_session_is_not_found_on_every_route(api: Api, services: Services, busy: Busy) -> None:
    before, sessions = snapshot(api, busy.sid), count_sessions(services, api)
    for method, path, body in session_routes(UNKNOWN_SESSION, busy.surface, busy.item):
        refused(call(api, method, path, body), 404, "session-not-found")
    for edge in ("abcdefgh", "a" * 64):  # the shortest and longest well-formed ids are looked up
        refused(api.get(f"/api/sessions/{edge}"), 404, "session-not-found")
    assert snapshot(api, busy.sid) == before
    assert count_sessions(services, api) == sessions


def test_malformed_ids_in_the_path_are_invalid(api: Api, busy: Busy) -> None:
    sid, surface, item = busy
    before = snapshot(api, sid)
    for bad in BAD_PATH_IDS:
        for method, path, body in session_routes(bad, surface, item):
            refused(call(api, method, path, body), 400, "invalid-id")
        for method, path, body in session_routes(sid, bad, item):
            if "/task-surfaces/" in path:
                refused(call(api, method, path, body), 400, "invalid-id")
        refused(api.post(f"/api/sessions/{sid}/queue/{bad}", {"action": "remove"}), 400, "invalid-id")
    # A '/' cannot be part of a path id at all: the route does not match.
    refused(api.get(f"/api/sessions/{sid}/task-surfaces/abc%2Fdefghi"), 404, "not-found")
    assert snapshot(api, sid) == before


def test_submit_and_dismiss_bodies_are_checked(api: Api, busy: Busy) -> None:
    sid, surface, _ = busy
    before = snapshot(api, sid)
    submit = f"/api/sessions/{sid}/task-surfaces/{surface}/submit"
    dismiss = f"/api/sessions/{sid}/task-surfaces/{surface}/dismiss"
    for bad in BAD_BODY_IDS:
        refused(api.post(submit, {"submissionId": bad, "values": VALUES}), 400, "invalid-id")
        refused(api.post(dismiss, {"dismissalId": bad}), 400, "invalid-id")
    refused(api.post(submit, {"values": VALUES}), 400, "invalid-id")
    refused(api.post(dismiss, {}), 400, "invalid-id")
    # Unknown properties make the request invalid, even when everything else would be accepted.
    valid = {"submissionId": new_id(), "values": VALUES}
    extras: list[dict[str, Any]] = [{"extra": 1}, {"surfaceId": surface}, {"Note": "x"}, {"values ": {}}]
    for extra in extras:
        refused(api.post(submit, {**valid, **extra}), 400, "invalid-request")
    dismiss_extras: list[dict[str, Any]] = [
        {"force": True},
        {"surfaceId": surface},
        {"submissionId": new_id()},
    ]
    for extra in dismiss_extras:
        refused(api.post(dismiss, {"dismissalId": new_id(), **extra}), 400, "invalid-request")
    assert snapshot(api, sid) == before


WRONG, REQUIRED, OPTION = "submission.wrong-type", "submission.required", "submission.unknown-option"
PERMUTATION = "submission.not-a-permutation"
# For each field kind of the `fields` demo: values of the wrong type or outside the model.
FIELD_CASES: dict[str, list[tuple[Any, str]]] = {
    "name": [(5, WRONG), (None, WRONG), (["a"], WRONG), (" \n ", REQUIRED)],
    "notes": [(False, WRONG), ({"text": "x"}, WRONG)],
    "channel": [(1, WRONG), (["beta"], WRONG), (None, REQUIRED), ("nightly", OPTION)],
    "platforms": [("linux", WRONG), ([1], WRONG), ({"linux": True}, WRONG), (["bsd"], OPTION)],
    "announce": [("yes", WRONG), (1, WRONG), (None, WRONG)],
    "rollout": [("eu", WRONG), ([1, 2, 3], WRONG), (["eu", "us"], PERMUTATION)],
}
FIELD_CASES["platforms"].append((["linux", "linux"], "submission.duplicate-option"))
FIELD_CASES["rollout"] += [(["eu", "us", "asia", "eu"], PERMUTATION), (["eu", "us", "mars"], PERMUTATION)]


def problems_of(result: dict[str, Any]) -> list[tuple[str, str | None]]:
    assert result["accepted"] is False and result["reason"] == "invalid-submission", result
    assert set(result) == {"accepted", "reason", "problems"}
    assert all(isinstance(p["message"], str) and p["message"] for p in result["problems"])
    return [(p["code"], p.get("where")) for p in result["problems"]]


def test_values_that_do_not_fit_the_model_are_a_rejected_answer(api: Api, busy: Busy) -> None:
    sid, surface, _ = busy
    before = snapshot(api, sid)
    for field, value, code in [(f, v, c) for f, cases in FIELD_CASES.items() for v, c in cases]:
        result = api.submit(sid, surface, {**VALUES, field: value})  # HTTP 200: an answer
        assert problems_of(result) == [(code, field)], (field, value)
    assert problems_of(api.submit(sid, surface, {**VALUES, "colour": "red"})) == [
        ("submission.unknown-field", "colour")
    ]
    for missing in ("name", "notes", "rollout"):
        values = {k: v for k, v in VALUES.items() if k != missing}
        assert problems_of(api.submit(sid, surface, values)) == [("submission.missing-value", missing)]
    for note in (5, ["x"], "x" * 4001):
        result = api.submit(sid, surface, VALUES, note=note)  # type: ignore[arg-type]
        assert problems_of(result) == [("submission.invalid-note", "note")]
    too_large = api.submit(sid, surface, {**VALUES, "notes": "x" * (32 * 1024)})
    assert problems_of(too_large) == [("submission.too-large", None)]
    submit = f"/api/sessions/{sid}/task-surfaces/{surface}/submit"
    for body in ({"submissionId": new_id()}, {"submissionId": new_id(), "values": [VALUES]}):
        response = api.post(submit, body)
        assert response.status_code == 200
        assert problems_of(response.json()) == [("submission.not-an-object", None)]
    assert api.get_active(sid, surface)["pending"] is None
    assert snapshot(api, sid) == before


def test_composer_text_and_placement_are_checked(api: Api, busy: Busy) -> None:
    before = snapshot(api, busy.sid)
    path = f"/api/sessions/{busy.sid}/messages"
    cases: list[tuple[dict[str, Any], str]] = [
        ({"text": ""}, "empty-message"),
        ({"text": "  \n\t "}, "empty-message"),
        ({"text": "x" * 32_001}, "message-too-long"),
        ({}, "invalid-message"),
        ({"text": 5}, "invalid-message"),
        ({"text": None}, "invalid-message"),
        ({"text": ["hi"]}, "invalid-message"),
        ({"text": "hi", "placement": "front"}, "invalid-placement"),
        ({"text": "hi", "placement": "Queued"}, "invalid-placement"),
        ({"text": "hi", "placement": 1}, "invalid-message"),
        ({"text": "hi", "placement": None}, "invalid-message"),
    ]
    for body, code in cases:
        refused(api.post(path, body), 400, code)
    assert snapshot(api, busy.sid) == before


def test_an_after_beyond_any_seq_is_a_typed_refusal(api: Api, busy: Busy) -> None:
    for after in (str(10**30), "9" * 5000, "0" * 5000 + "1" + "0" * 10):
        response = api.get(f"/api/sessions/{busy.sid}/events", params={"after": after})
        assert response.status_code == 400, response.status_code
        assert response.json()["error"]["code"] == "invalid-number"
    leading_zeros = api.get(f"/api/sessions/{busy.sid}/events", params={"after": "0" * 40 + "1"})
    assert leading_zeros.status_code == 200, leading_zeros.text


def test_numbers_and_flags_are_checked(api: Api, services: Services, busy: Busy) -> None:
    sid = busy.sid
    before, sessions = snapshot(api, sid), count_sessions(services, api)
    head = before["session"]["headSeq"]
    events = f"/api/sessions/{sid}/events"
    for after in ("abc", "1.5", "", "0x10", "1e3", "two"):
        refused(api.get(events, params={"after": after}), 400, "invalid-number")
    for limit in ("ten", "2.0", ""):
        refused(api.get(events, params={"limit": limit}), 400, "invalid-number")
    for query in ({"after": "-1"}, {"limit": "-3"}, {"after": "٣"}, {"after": " 5"}, {"after": "1_0"}):
        refused(api.get(events, params=query), 400, "invalid-number")
    refused(api.get(events, params={"limit": "0"}), 400, "invalid-range")
    not_booleans: list[Any] = ["true", 1, 0, None, []]
    for paused in not_booleans:
        refused(api.post(f"/api/sessions/{sid}/agent", {"paused": paused}), 400, "invalid-paused")
    refused(api.post(f"/api/sessions/{sid}/agent", {}), 400, "invalid-paused")
    for route, key in (("fork", "atSeq"), ("rewind", "toSeq")):
        path = f"/api/sessions/{sid}/{route}"
        for value in ("1", 1.5, 1.0, True, None, [1], {"seq": 1}):
            refused(api.post(path, {key: value}), 400, "invalid-number")
        refused(api.post(path, {"seq": 1}), 400, "invalid-request")  # a misspelt key is not ignored
        for value in (-1, 10**30):
            refused(api.post(path, {key: value}), 400, "invalid-number")
        refused(api.post(path, {key: head + 1}), 400, "invalid-seq")
    assert snapshot(api, sid) == before  # still paused, nothing rewound
    assert count_sessions(services, api) == sessions  # nothing forked


def test_queue_actions_are_checked(api: Api, busy: Busy) -> None:
    sid, _, item = busy
    before = snapshot(api, sid)
    path = f"/api/sessions/{sid}/queue/{item}"
    for action in ("delete", "EDIT", "", 5, None, ["remove"]):
        refused(api.post(path, {"action": action}), 400, "invalid-action")
    refused(api.post(path, {}), 400, "invalid-action")
    for text in ("", "   ", 5, None):
        refused(api.post(path, {"action": "edit", "text": text}), 400, "empty-message")
    for action in ("remove", "edit", "steer"):
        missing = api.post(f"/api/sessions/{sid}/queue/in_noSuchItem01", {"action": action, "text": "x"})
        refused(missing, 404, "queue-item-not-found")
    assert snapshot(api, sid) == before


def _model(**changes: Any) -> dict[str, Any]:
    model: dict[str, Any] = {
        "version": 1,
        "title": "Pick one",
        "sections": [{"id": "intro", "blocks": [{"kind": "markdown", "text": "Hello"}]}],
        "fields": [{"kind": "toggle", "id": "ok", "label": "OK"}],
        "submit": {"label": "Send"},
    }
    return {**model, **changes}


def _notices(count: int) -> list[dict[str, Any]]:
    return [{"kind": "notice", "tone": "info", "text": f"n{i}"} for i in range(count)]


def _table(rows: int) -> dict[str, Any]:
    return {"kind": "table", "columns": [{"id": "c", "label": "C"}], "rows": [{"c": i} for i in range(rows)]}


def _raw(model: dict[str, Any]) -> str:
    return json.dumps({"model": model}, ensure_ascii=False)


def _show(api: Api, sid: str, raw: str) -> list[dict[str, Any]]:
    """Call show_task_surface with `raw` through the scripted agent; the events the turn added."""
    start = len(api.events(sid))
    api.send(sid, "/tool show_task_surface " + raw)
    wait_for(lambda: len(api.events(sid)) >= start + 3)
    return api.settled(sid)[start:]


def test_invalid_models_fail_the_tool_call_and_open_nothing(api: Api) -> None:
    sid = api.create_session()
    model_text = _raw(_model())
    inner = model_text[len('{"model": ') : -1]
    video = {"kind": "video", "src": "a.mp4"}
    # 22,000 three-byte characters: under the composer's 32,000 characters, over 64 KiB of UTF-8.
    huge = {"kind": "markdown", "text": "字" * 22_000}
    sixty_five = [{"id": "a", "blocks": _notices(33)}, {"id": "b", "blocks": _notices(32)}]
    cases: list[tuple[str, str]] = [
        (_raw(_model(theme="dark")), "surface.unknown-property"),
        (_raw(_model(sections=[{"id": "s", "blocks": [video]}])), "surface.unknown-kind"),
        (_raw(_model(version=3)), "surface.unsupported-version"),
        (_raw(_model(version="1")), "surface.unsupported-version"),
        (_raw(_model(fields=[{"kind": "toggle", "id": "a", "label": "A"}] * 2)), "surface.duplicate-id"),
        (_raw(_model(fields=[{"kind": "toggle", "id": "intro", "label": "A"}])), "surface.duplicate-id"),
        (_raw(_model(sections=[{"id": "s", "blocks": [huge]}])), "surface.limit"),
        (_raw(_model(sections=sixty_five)), "surface.limit"),
        (_raw(_model(sections=[{"id": "s", "blocks": [_table(201)]}])), "surface.limit"),
        ('{"model": ' + inner + ', "model": ' + inner + "}", "surface.duplicate-key"),
        (model_text[:-2] + ', "title": "Again"}}', "surface.duplicate-key"),
    ]
    for raw, code in cases:
        added = _show(api, sid, raw)
        assert [e["kind"] for e in added] == ["user/message", "tool/call", "tool/result", "assistant/message"]
        call_event, result = added[1], added[2]
        assert call_event["payload"]["args"] == raw  # the real tool saw the raw text verbatim
        assert result["payload"]["ok"] is False and "meta" not in result["payload"], code
        text = result["payload"]["content"][0]["text"]
        assert text.startswith("error: ") and json.loads(text.removeprefix("error: "))["code"] == code, text
        assert api.projection(sid) == {"active": None, "pending": None}
    assert api.get_active(sid, "ts_" + new_id()[:16]) == {"active": False, "reason": "not-open"}
    # The limits are limits, not off by one: 64 blocks across sections and 200 rows open a panel.
    at_limit = _model(
        sections=[{"id": "a", "blocks": [_table(200), *_notices(31)]}, {"id": "b", "blocks": _notices(32)}]
    )
    added = _show(api, sid, _raw(at_limit))
    assert added[-1]["kind"] == "tool/result" and added[-1]["payload"]["ok"] is True
    surface = added[-1]["payload"]["meta"]["surfaceId"]
    assert api.projection(sid)["active"]["surfaceId"] == surface
    assert api.get_active(sid, surface)["active"] is True


def test_composer_text_that_is_not_unicode_is_refused(api: Api, busy: Busy) -> None:
    before = snapshot(api, busy.sid)
    response = raw_post(api, f"/api/sessions/{busy.sid}/messages", b'{"text": "hi \\ud800"}')
    assert response.status_code == 400, response.status_code
    assert set(response.json()["error"]) == {"code", "message"}
    assert snapshot(api, busy.sid) == before
