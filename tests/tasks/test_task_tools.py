"""The task tools through the real path: the scripted agent calls them, the log shows their texts."""

from __future__ import annotations

import json
import time
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest

from ..support import Api, wait_for
from .helpers import ended, notices, release, run, task, tool_text


def refusal(text: str) -> dict[str, Any]:
    assert text.startswith("error: "), text
    problem: dict[str, Any] = json.loads(text.removeprefix("error: "))
    return problem


def test_a_stream_is_read_in_increments_by_its_single_reader(api: Api, tmp_path: Path) -> None:
    sid = api.create_session()
    task_id = run(api, sid, "steps", {"folder": str(tmp_path), "steps": "one,two"})
    wait_for(lambda: "one" in task(api, sid, task_id)["tail"])
    assert tool_text(api, sid, f"/output {task_id}", "task_output") == "one\n[status: running]"
    assert tool_text(api, sid, f"/output {task_id}", "task_output") == "(no new output)\n[status: running]"
    release(tmp_path)
    wait_for(lambda: "two" in task(api, sid, task_id)["tail"])
    assert tool_text(api, sid, f"/output {task_id}", "task_output") == "two\n[status: running]"
    release(tmp_path, 2)
    ended(api, sid, task_id)
    # The tray's tail is no reader: it showed everything and consumed nothing.
    assert task(api, sid, task_id)["tail"] == "one\ntwo\nend\n"


def test_a_terminal_read_reports_the_end_so_no_notice_follows(api: Api, tmp_path: Path) -> None:
    sid = api.create_session()
    task_id = run(api, sid, "steps", {"folder": str(tmp_path), "steps": "one"})
    wait_for(lambda: "one" in task(api, sid, task_id)["tail"])
    api.send(sid, f"/output {task_id} wait 20000")
    wait_for(
        lambda: any(
            e["kind"] == "tool/call" and e["payload"]["name"] == "task_output" for e in api.events(sid)
        )
    )
    release(tmp_path)
    events = api.settled(sid)
    [result] = [e for e in events if e["kind"] == "tool/result" and e["payload"]["name"] == "task_output"]
    text = result["payload"]["content"][0]["text"]
    assert text == "one\nend\n[status: completed] exit status 0"
    assert result["payload"]["meta"]["card"] == "read"
    assert result["payload"]["meta"]["value"]["task"]["status"] == "completed"
    # The owner's next request is made: still no notice, since the wait reported the end.
    api.send(sid, "and now?")
    api.settled(sid)
    assert notices(api, sid) == []


def test_an_unreported_end_is_noticed_once_in_the_owners_log(api: Api) -> None:
    sid = api.create_session()
    task_id = run(api, sid, "emit", {"text": "hello", "code": 3})
    [notice] = wait_for(lambda: notices(api, sid, task_id))
    assert notice["payload"]["text"] == (
        f"background task {task_id} (command: Emit 3) finished [status: failed] exit status 3. "
        "Read its output with task_output."
    )
    api.send(sid, "anything new?")
    events = api.settled(sid)
    # The next model request saw it: the scripted agent quotes it back.
    assert events[-1]["kind"] == "assistant/message"
    assert events[-1]["payload"]["text"].startswith("Noted:\n\n> background task " + task_id)
    api.send(sid, "and again?")
    api.settled(sid)
    assert len(notices(api, sid, task_id)) == 1
    assert tool_text(api, sid, f"/output {task_id}", "task_output") == "hello\n[status: failed] exit status 3"


def test_a_kill_requests_cancellation_records_why_and_suppresses_the_notice(api: Api, tmp_path: Path) -> None:
    sid = api.create_session()
    task_id = run(api, sid, "steps", {"folder": str(tmp_path), "steps": "never"})
    text = tool_text(api, sid, f"/kill {task_id} not needed any more", "task_kill")
    assert text == f"requested cancellation of task {task_id}"
    assert ended(api, sid, task_id)["status"] == "cancelled"
    assert task(api, sid, task_id)["detail"] == "cancelled: not needed any more"
    api.send(sid, "next")
    api.settled(sid)
    assert notices(api, sid) == []
    again = tool_text(api, sid, f"/kill {task_id}", "task_kill")
    assert again == f"task {task_id} already finished [status: cancelled] cancelled: not needed any more"
    # The kill of a finished task consumed nothing: the output is still there to read.
    assert tool_text(api, sid, f"/output {task_id}", "task_output") == (
        "never\n[status: cancelled] cancelled: not needed any more"
    )


def test_the_list_shows_this_sessions_tasks_and_none_reads_so(api: Api) -> None:
    sid = api.create_session()
    assert tool_text(api, sid, "/tasks", "task_list") == "(no background tasks)"
    first = run(api, sid, "emit", {"text": "a"})
    ended(api, sid, first)
    assert tool_text(api, sid, "/tasks", "task_list") == f"{first} [command] completed — Emit 0"


def test_a_wait_times_out_and_leaves_the_task_running(api: Api, tmp_path: Path) -> None:
    sid = api.create_session()
    task_id = run(api, sid, "steps", {"folder": str(tmp_path), "steps": "one"})
    wait_for(lambda: "one" in task(api, sid, task_id)["tail"])
    started = time.monotonic()
    assert tool_text(api, sid, f"/output {task_id} wait 300", "task_output") == "one\n[status: running]"
    assert time.monotonic() - started >= 0.3
    assert task(api, sid, task_id)["status"] == "running"
    release(tmp_path)
    ended(api, sid, task_id)


@pytest.mark.parametrize("task_settings", [{"task_wait_timeout_ms": 50, "task_max_wait_timeout_ms": 400}])
def test_a_wait_never_passes_the_configured_maximum(api: Api, tmp_path: Path) -> None:
    sid = api.create_session()
    task_id = run(api, sid, "steps", {"folder": str(tmp_path), "steps": "one"})
    assert tool_text(api, sid, f"/output {task_id} wait 100000", "task_output") == "one\n[status: running]"
    call, result = [e for e in api.events(sid) if e["payload"].get("name") == "task_output"]
    waited = datetime.fromisoformat(result["at"]) - datetime.fromisoformat(call["at"])
    assert 0.4 <= waited.total_seconds() < 10
    release(tmp_path)


def test_a_final_output_task_says_nothing_until_it_ends(api: Api, tmp_path: Path) -> None:
    sid = api.create_session()
    flag = tmp_path / "finish"
    task_id = run(api, sid, "report", {"flag": str(flag)})
    wait_for(lambda: "first part" in task(api, sid, task_id)["tail"])
    assert tool_text(api, sid, f"/output {task_id}", "task_output") == "(no new output)\n[status: running]"
    flag.write_text("go")
    ended(api, sid, task_id)
    assert tool_text(api, sid, f"/output {task_id}", "task_output") == (
        "first part\nlast part\n[status: completed] exit status 0"
    )


def test_the_producers_cap_bounds_reads_and_refusals_about_its_task(api: Api) -> None:
    sid = api.create_session()
    task_id = run(api, sid, "tight")
    ended(api, sid, task_id)
    text = tool_text(api, sid, f"/output {task_id}", "task_output")
    assert len(text.encode()) in (63, 64) and text.startswith("[…]xxx")  # 63: the output's own "\n" ends it
    assert text.endswith("xTHE END\n[status: completed] exit status 0")
    long_reason = "because " * 40
    text = tool_text(
        api,
        sid,
        "/tool task_output " + json.dumps({"task_id": task_id, "wait": "x" + long_reason}),
        "task_output",
    )
    assert len(text.encode()) <= 64 and text.startswith('error: {"code": "task.invalid-arguments"')
    # A producer without a cap stays unbounded.
    free = run(api, sid, "unbounded")
    ended(api, sid, free)
    assert (
        tool_text(api, sid, f"/output {free}", "task_output")
        == "y" * 3000 + "\n[status: completed] exit status 0"
    )


def test_a_declared_timeout_fails_the_task_saying_so(api: Api) -> None:
    sid = api.create_session()
    task_id = run(api, sid, "forever")
    assert ended(api, sid, task_id)["detail"] == "timed out after 0.3 s"
    assert task(api, sid, task_id)["status"] == "failed"


def test_a_stop_reaches_the_whole_process_group_with_sigkill_after_the_grace(api: Api) -> None:
    import os

    sid = api.create_session()
    task_id = run(api, sid, "stubborn")
    line = wait_for(lambda: (tail := task(api, sid, task_id)["tail"]).startswith("pids") and tail)
    leader, child = (int(p) for p in line.split()[1:3])
    tool_text(api, sid, f"/kill {task_id}", "task_kill")
    assert ended(api, sid, task_id)["status"] == "cancelled"

    def gone(pid: int) -> bool:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return True
        # A zombie waits for its parent (init, for the orphaned child) to reap it.
        stat = Path(f"/proc/{pid}/stat")
        return stat.exists() and stat.read_text().split()[2] == "Z"

    wait_for(lambda: gone(leader) and gone(child))


@pytest.mark.parametrize(
    ("command", "code"),
    [
        ('/run rm {"path": "/"}', "command.unknown"),
        ('/run emit {"text": 5}', "command.invalid-argument"),
        ('/run emit {"text": "a", "shell": "sh"}', "command.unknown-argument"),
        ("/run emit {}", "command.missing-argument"),
        ("/output t_doesnotexist", "task.not-found"),
        ("/kill t_doesnotexist", "task.not-found"),
        ('/tool run_command {"name": "emit", "args": {}, "name": "rm"}', "task.duplicate-key"),
    ],
)
def test_bad_calls_are_refused_with_typed_codes_and_start_nothing(api: Api, command: str, code: str) -> None:
    sid = api.create_session()
    name = (
        command.split()[1]
        if command.startswith("/tool")
        else {"/run": "run_command"}.get(
            command.split()[0], "task_output" if command.startswith("/output") else "task_kill"
        )
    )
    assert refusal(tool_text(api, sid, command, name))["code"] == code
    assert api.get(f"/api/sessions/{sid}/tasks").json() == {"tasks": []}


@pytest.mark.parametrize("task_settings", [{"task_max_running": 1}])
def test_a_session_may_not_run_more_tasks_than_allowed(api: Api, tmp_path: Path) -> None:
    sid = api.create_session()
    run(api, sid, "steps", {"folder": str(tmp_path), "steps": "one"})
    text = tool_text(
        api, sid, f"/run steps {json.dumps({'folder': str(tmp_path), 'steps': 'two'})}", "run_command"
    )
    assert refusal(text)["code"] == "task.too-many"
    release(tmp_path)


def test_a_delegated_task_streams_the_sub_agents_answer(api: Api) -> None:
    sid = api.create_session()
    before = len(api.events(sid))
    api.send(sid, "/delegate Release notes | the parser, the dock")
    result = wait_for(
        lambda: next(
            (
                e
                for e in api.events(sid)[before:]
                if e["kind"] == "tool/result" and e["payload"]["name"] == "delegate_task"
            ),
            None,
        )
    )
    task_id = result["payload"]["meta"]["value"]["task"]["id"]
    done = ended(api, sid, task_id)
    assert (done["kind"], done["label"], done["status"]) == ("delegate", "Release notes", "completed")
    assert tool_text(api, sid, f"/output {task_id}", "task_output") == (
        "Working on: the parser, the dock\n\n1. looked at the parser\n2. looked at the dock\n\nDone.\n"
        "[status: completed]"
    )
