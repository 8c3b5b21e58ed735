"""Credentials a model wrote are masked wherever a person sees them and kept as sent in the log;
panels that no longer re-validate and histories that cannot be read whole say so."""

from __future__ import annotations

import copy
import json
from datetime import UTC, datetime
from typing import Any

import sqlalchemy as sa

from tasksurface.backends.demos import INPUTS
from tasksurface.domain.events import NewEvent, tool_result
from tasksurface.domain.ids import CallId, SessionId
from tasksurface.services.container import Services
from tasksurface.store import log
from tasksurface.store.tables import EventRow

from ..support import Api

SECRET = "sk-proj-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789"
DB_URL = "postgres://mei:hunter2-secret@db.internal/app"


def leaky_model() -> dict[str, Any]:
    return {
        "version": 2,
        "title": f"Rotate {SECRET}",
        "description": f"Connect with {DB_URL}",
        "sections": [{"id": "s", "blocks": [{"kind": "markdown", "text": f"Old key `{SECRET}`"}]}],
        "fields": [
            {"kind": "text", "id": "t", "label": "Key", "initial": SECRET, "help": f"was {SECRET}"},
            {
                "kind": "review",
                "id": "r",
                "label": "Env",
                "before": f"KEY={SECRET}\n",
                "after": "KEY=${KEY}\n",
            },
        ],
        "submit": {"actions": [{"id": "ok", "label": f"Use {SECRET}"}]},
        "actions": [{"id": "a", "label": f"Test {SECRET}"}],
    }


def test_a_credential_is_masked_on_the_page_the_api_and_pushes_and_kept_in_the_log(api: Api) -> None:
    sid = api.create_session()
    result = api.show_model(sid, leaky_model())
    surface = result["payload"]["meta"]["surfaceId"]
    page = api.get(f"/sessions/{sid}").text
    # The scripted agent was asked with `/tool …`, so the person's own message holds the model;
    # what the model wrote is drawn in the panel's row and the dock.
    row = page[page.index(f'id="ev-{result["seq"]}"') :]
    panel = row[: row.index("</li>")] + page[page.index('id="dock-slot"') : page.index('id="queue-slot"')]
    assert SECRET not in panel and "hunter2-secret" not in panel
    assert "Rotate [redacted]" in panel and "postgres://mei:[redacted]@db.internal/app" in panel
    active = api.get_active(sid, surface)
    assert SECRET not in json.dumps(active) and active["model"]["fields"][0]["initial"] == "[redacted]"
    with api.socket(sid) as socket:
        hello = socket.receive()
        assert hello["type"] == "hello"
        assert SECRET not in json.dumps(hello["events"][-1]["html"])
    assert SECRET not in api.get(f"/sessions/{sid}/dock").text
    # The log keeps what the model sent: its own history is unchanged.
    events = api.events(sid)
    call = next(e for e in events if e["kind"] == "tool/call")
    assert SECRET in json.dumps(call["payload"]["args"])
    assert result["payload"]["meta"]["model"]["title"] == f"Rotate {SECRET}"
    # A submission's message shows the masked labels a person saw.
    body = {"submissionId": "sub-redact-1", "values": {"t": "new", "r": {"h1": "accept"}}, "action": "ok"}
    api.post(f"/api/sessions/{sid}/task-surfaces/{surface}/submit", body)
    api.settled(sid)
    text = [e for e in api.events(sid) if e["kind"] == "user/message"][-1]["payload"]["content"][0]["text"]
    assert text.startswith("Task Surface: Rotate [redacted]\n- Decision: Use [redacted]\n")


def _log_result(services: Services, sid: str, meta: Any) -> None:
    payload = tool_result(CallId("call_expired01"), "show_task_surface", True, "Task Surface ts_x shown.")
    if meta is not None:
        payload["meta"] = meta
    with services.database.write() as db:
        log.append(db, SessionId(sid), NewEvent("tool/result", payload), datetime.now(UTC))


def _meta(**model_changes: Any) -> dict[str, Any]:
    model = copy.deepcopy(INPUTS) | model_changes
    return {"kind": "dsh/task-surface", "version": 1, "surfaceId": "ts_expired001", "model": model}


def test_a_stored_panel_that_no_longer_validates_shows_expired_with_its_reason(
    api: Api, services: Services
) -> None:
    cases = [
        (_meta(version=3), "a newer version of Task Surface wrote it"),
        ({**_meta(), "version": 9}, "a newer version of Task Surface wrote it"),
        (
            _meta(fields=[{"kind": "slider", "id": "s", "label": "S"}]),
            "its stored description no longer validates",
        ),
        (None, "the host that showed it kept no description of it"),
    ]
    for meta, reason in cases:
        sid = api.create_session()
        _log_result(services, sid, meta)
        html = api.get(f"/sessions/{sid}").text
        assert 'class="restore-notice" role="status" data-code="surface.expired"' in html
        assert f"This panel can no longer be shown: {reason}." in html
        assert 'id="task-surface-dock"' not in html and '<form id="dock-form"' not in html
    zh = api.get(f"/sessions/{sid}", headers={"Accept-Language": "zh"}).text
    assert "此面板已无法显示：显示它的主机没有保存它的描述。" in zh


def test_an_open_panel_whose_meta_is_damaged_expires_in_the_dock_and_the_api(
    api: Api, services: Services
) -> None:
    sid = api.create_session()
    surface = api.show_surface(sid, "inputs")
    with services.database.write() as db:
        row = db.scalars(
            sa.select(EventRow).where(EventRow.session_id == sid, EventRow.kind == "tool/result")
        ).one()
        row.payload = {**row.payload, "meta": {**row.payload["meta"], "model": {"version": 2}}}
    active = api.get_active(sid, surface)
    assert active["active"] is False and active["recovery"]["code"] == "surface.expired"
    html = api.get(f"/sessions/{sid}").text
    assert 'id="dock-recovery" class="restore-notice" role="status" data-code="surface.expired"' in html
    assert api.submit(sid, surface, {})["accepted"] is False


def test_a_history_with_a_gap_answers_replay_incomplete(api: Api, services: Services) -> None:
    sid = api.create_session()
    api.send(sid, "hello")
    api.settled(sid)
    assert "recovery" not in api.projection(sid)
    with services.database.write() as db:
        db.execute(sa.delete(EventRow).where(EventRow.session_id == sid, EventRow.seq == 1))
    state = api.projection(sid)
    assert state["active"] is None and state["recovery"]["code"] == "surface.replay-incomplete"
    html = api.get(f"/sessions/{sid}").text
    assert 'data-code="surface.replay-incomplete"' in html


def test_an_unreadable_event_answers_replay_incomplete_and_is_left_out(api: Api, services: Services) -> None:
    sid = api.create_session()
    api.send(sid, "hello")
    api.settled(sid)
    with services.database.write() as db:
        row = db.scalars(sa.select(EventRow).where(EventRow.session_id == sid, EventRow.seq == 2)).one()
        row.kind = "future/thing"
    assert api.projection(sid)["recovery"]["code"] == "surface.replay-incomplete"
    assert [e["seq"] for e in api.events(sid)] == [1]
    assert api.get(f"/sessions/{sid}").status_code == 200


def test_a_question_is_masked_on_the_page_and_the_api_and_kept_in_the_log(api: Api) -> None:
    sid = api.create_session()
    question = api.ask(sid, f"/ask Is {SECRET} still in use? | yes {SECRET} | no")
    assert question["question"] == "Is [redacted] still in use?"
    assert question["options"] == ["yes [redacted]", "no"]
    page = api.get(f"/sessions/{sid}").text
    takeover = page[
        page.index('id="question-takeover"') : page.index("</form>", page.index('id="question-takeover"'))
    ]
    assert SECRET not in takeover and "Is [redacted] still in use?" in takeover
    call = next(e for e in api.events(sid) if e["kind"] == "tool/call")
    assert SECRET in json.dumps(call["payload"]["args"])
    assert api.answer(sid, question["callId"], "no")["answer"]
