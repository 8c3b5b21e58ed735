"""The tray over HTTP, plain forms and the websocket, and the owner's isolation on every path."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from ..conftest import LiveServer, services_of
from ..support import Api, wait_for
from .helpers import ended, notices, release, run, task, tool_text


def test_a_person_stops_a_task_and_the_model_reads_that_they_did_and_why(api: Api, tmp_path: Path) -> None:
    sid = api.create_session()
    task_id = run(api, sid, "steps", {"folder": str(tmp_path), "steps": "one"})
    response = api.post(f"/api/sessions/{sid}/tasks/{task_id}/stop", {"reason": "taking too long"})
    assert response.status_code == 200
    assert response.json()["outcome"] == "cancellation-requested"
    assert response.json()["task"]["detail"] == "cancellation requested"
    assert ended(api, sid, task_id)["detail"] == "stopped by the user: taking too long"
    [notice] = wait_for(lambda: notices(api, sid, task_id))
    assert notice["payload"]["text"] == (
        f"background task {task_id} (command: Steps in {tmp_path}) finished [status: cancelled] "
        "stopped by the user: taking too long. Read its output with task_output."
    )
    again = api.post(f"/api/sessions/{sid}/tasks/{task_id}/stop", {})
    assert again.json()["outcome"] == "already-finished"


def test_without_javascript_the_page_shows_the_tray_and_stop_is_a_plain_form(
    api: Api, tmp_path: Path
) -> None:
    sid = api.create_session()
    task_id = run(api, sid, "steps", {"folder": str(tmp_path), "steps": "3/7"})
    wait_for(lambda: "3/7" in task(api, sid, task_id)["tail"])
    page = api.get(f"/sessions/{sid}").text
    assert f'id="task-{task_id}"' in page and 'data-status="running"' in page
    assert '<progress class="task-progress" max="1" value="0.4286"' in page
    assert f'action="/sessions/{sid}/tasks/{task_id}/stop"' in page
    response = api.post(f"/sessions/{sid}/tasks/{task_id}/stop", data={"reason": "no"}, allow_redirects=False)
    assert response.status_code == 303
    assert response.headers["Location"] == f"/sessions/{sid}#task-tray"
    ended(api, sid, task_id)
    wait_for(lambda: notices(api, sid, task_id))  # the runner writes it just after the end
    page = api.get(f"/sessions/{sid}").text
    assert 'data-status="cancelled"' in page and "stopped by the user: no" in page
    assert f'action="/sessions/{sid}/tasks/{task_id}/stop"' not in page  # nothing left to stop
    assert "Background task “Steps in" in page  # the notice's row in the transcript


def test_the_tray_speaks_chinese_too(api: Api) -> None:
    sid = api.create_session()
    task_id = run(api, sid, "emit", {"text": "好"})
    wait_for(lambda: notices(api, sid, task_id))
    page = api.get(f"/sessions/{sid}", headers={"Accept-Language": "zh-CN"}).text
    assert ">后台任务</span>" in page and ">已完成</span>" in page
    assert "后台任务“Emit 0”（command）已结束：已完成" in page


def test_the_api_lists_and_reads_tasks_with_their_tail_and_progress(api: Api, tmp_path: Path) -> None:
    sid = api.create_session()
    task_id = run(api, sid, "steps", {"folder": str(tmp_path), "steps": "1/4"})
    wait_for(lambda: task(api, sid, task_id)["progress"])
    listed = api.get(f"/api/sessions/{sid}/tasks").json()["tasks"]
    assert [t["id"] for t in listed] == [task_id]
    assert listed[0]["progress"] == {"done": 1.0, "total": 4.0, "fraction": 0.25}
    assert listed[0]["tail"] == "1/4\n"
    assert set(listed[0]) == {
        "id",
        "kind",
        "label",
        "status",
        "detail",
        "startedAt",
        "endedAt",
        "progress",
        "tail",
    }
    release(tmp_path)
    ended(api, sid, task_id)


def test_the_websocket_pushes_the_tray_and_a_hello_carries_it(api: Api, tmp_path: Path) -> None:
    sid = api.create_session()
    with api.socket(sid) as socket:
        hello = socket.receive_until(lambda m: m["type"] == "hello")
        assert hello["tasks"]["tasks"] == []
        task_id = run(api, sid, "steps", {"folder": str(tmp_path), "steps": "one"})
        pushed = socket.receive_until(
            lambda m: m["type"] == "tasks" and any("one" in t["tail"] for t in m["tasks"])
        )
        [row] = pushed["tasks"]
        assert (row["id"], row["status"], row["statusText"]) == (task_id, "running", "running")
        assert row["html"].startswith(f'<li id="task-{task_id}"')
        release(tmp_path)
        socket.receive_until(lambda m: m["type"] == "tasks" and m["tasks"][0]["status"] == "completed")
        socket.receive_until(
            lambda m: m["type"] == "change" and any(e["kind"] == "task/notice" for e in m["events"])
        )
    with api.socket(sid) as socket:
        again = socket.receive_until(lambda m: m["type"] == "hello")
        assert again["tasks"]["tasks"][0]["status"] == "completed"


def test_each_socket_gets_the_tray_in_its_pages_language(api: Api, tmp_path: Path) -> None:
    sid = api.create_session()
    api.http.cookies.set("lang", "zh")
    with api.socket(sid) as socket:
        socket.receive_until(lambda m: m["type"] == "hello")
        run(api, sid, "steps", {"folder": str(tmp_path), "steps": "一"})
        pushed = socket.receive_until(lambda m: m["type"] == "tasks" and bool(m["tasks"]))
        assert (pushed["tasks"][0]["statusText"], pushed["summary"]) == ("运行中", "1 个运行中")
        assert ">停止</button>" in pushed["tasks"][0]["html"]
    release(tmp_path)


def test_the_websocket_can_stop_a_task(api: Api, tmp_path: Path) -> None:
    sid = api.create_session()
    task_id = run(api, sid, "steps", {"folder": str(tmp_path), "steps": "one"})
    with api.socket(sid) as socket:
        socket.receive_until(lambda m: m["type"] == "hello")
        answer = socket.call("task.stop", {"taskId": task_id, "reason": "from the socket"})
        assert answer["result"]["outcome"] == "cancellation-requested"
        unknown = socket.call("task.stop", {"taskId": "t_nonexistent"})
        assert unknown["error"]["code"] == "task-not-found"
    assert ended(api, sid, task_id)["detail"] == "stopped by the user: from the socket"


def _other(live_server: LiveServer) -> Api:
    return Api(live_server.url)  # its own cookie, so another identity


def test_nobody_else_can_list_read_stop_or_see_a_task(
    api: Api, live_server: LiveServer, tmp_path: Path
) -> None:
    sid = api.create_session()
    task_id = run(api, sid, "steps", {"folder": str(tmp_path), "steps": "secret-output"})
    wait_for(lambda: "secret-output" in task(api, sid, task_id)["tail"])
    with _other(live_server) as mallory:
        theirs = mallory.create_session()
        # HTTP: the owner's session is not found at all; within their own session, the task is not.
        for response in (
            mallory.get(f"/api/sessions/{sid}/tasks"),
            mallory.get(f"/api/sessions/{sid}/tasks/{task_id}"),
            mallory.post(f"/api/sessions/{sid}/tasks/{task_id}/stop", {}),
            mallory.post(f"/sessions/{sid}/tasks/{task_id}/stop", data={}),
        ):
            assert response.status_code == 404
        assert mallory.get(f"/api/sessions/{sid}/tasks").json()["error"]["code"] == "session-not-found"
        for response in (
            mallory.get(f"/api/sessions/{theirs}/tasks/{task_id}"),
            mallory.post(f"/api/sessions/{theirs}/tasks/{task_id}/stop", {}),
        ):
            assert (response.status_code, response.json()["error"]["code"]) == (404, "task-not-found")
        assert mallory.get(f"/api/sessions/{theirs}/tasks").json() == {"tasks": []}
        # Tools: their model cannot reach it either.
        for command, name in (
            (f"/output {task_id}", "task_output"),
            (f"/kill {task_id}", "task_kill"),
        ):
            text = tool_text(mallory, theirs, command, name)
            assert json.loads(text.removeprefix("error: "))["code"] == "task.not-found"
        assert tool_text(mallory, theirs, "/tasks", "task_list") == "(no background tasks)"
        # Websocket: their socket hears nothing of it, and cannot stop it.
        with mallory.socket(theirs) as socket:
            hello = socket.receive_until(lambda m: m["type"] == "hello")
            assert hello["tasks"]["tasks"] == []
            refused = socket.call("task.stop", {"taskId": task_id})
            assert refused["error"]["code"] == "task-not-found"
            release(tmp_path)
            ended(api, sid, task_id)
            wait_for(lambda: notices(api, sid, task_id))
            probe = socket.call("taskSurface.getActive", {"surfaceId": "ts_probe_0001"})  # a positive signal
            seen: list[dict[str, Any]] = socket.seen
            assert probe["type"] == "rpc"
            assert all("secret-output" not in json.dumps(m) for m in seen)
            assert [m for m in seen if m["type"] == "tasks"] == []
    # The owner's task ran to its end untouched by any of that.
    assert task(api, sid, task_id)["status"] == "completed"
    assert "secret-output" in tool_text(api, sid, f"/output {task_id}", "task_output")


def test_a_bad_stop_request_is_refused_by_code(api: Api, tmp_path: Path) -> None:
    sid = api.create_session()
    task_id = run(api, sid, "steps", {"folder": str(tmp_path), "steps": "one"})
    cases = [
        ({"reason": 5}, 400, "invalid-reason"),
        ({"reason": "x" * 501}, 400, "reason-too-long"),
        ({"why": "x"}, 400, "invalid-request"),
    ]
    for body, status, code in cases:
        response = api.post(f"/api/sessions/{sid}/tasks/{task_id}/stop", body)
        assert (response.status_code, response.json()["error"]["code"]) == (status, code), body
    bad_id = api.post(f"/api/sessions/{sid}/tasks/not%20an%20id/stop", {})
    assert (bad_id.status_code, bad_id.json()["error"]["code"]) == (400, "invalid-id")
    assert task(api, sid, task_id)["status"] == "running"
    release(tmp_path)


@pytest.mark.parametrize("task_settings", [{"tasks": "off"}])
def test_tasks_off_means_no_tools_no_tray_and_no_routes(api: Api, live_server: LiveServer) -> None:
    names = [d.name for d in services_of(live_server.app).runner.tools.definitions()]
    assert not {"task_output", "task_list", "task_kill", "run_command", "delegate_task"} & set(names)
    sid = api.create_session()
    assert 'id="task-tray"' not in api.get(f"/sessions/{sid}").text
    response = api.get(f"/api/sessions/{sid}/tasks")
    assert (response.status_code, response.json()["error"]["code"]) == (404, "tasks-off")
    with api.socket(sid) as socket:
        assert socket.receive_until(lambda m: m["type"] == "hello")["tasks"] is None
