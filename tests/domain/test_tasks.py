"""What a read, a kill and a finish decide; the declared commands and the tools' arguments."""

from __future__ import annotations

import dataclasses
from datetime import UTC, datetime
from typing import Any

import pytest

from tasksurface.domain import task_args
from tasksurface.domain.commands import InvalidCommandsFile, argv, check_run, parse_commands
from tasksurface.domain.ids import SessionId, TaskId
from tasksurface.domain.refusals import TaskRefused
from tasksurface.domain.tasks import TaskRecord, decide_kill, decide_read, notice_payload

AT = datetime(2026, 12, 1, 9, 0, tzinfo=UTC)
RUNNING = TaskRecord(
    id=TaskId("t_abcdefghijk"),
    session_id=SessionId("s_owner_session"),
    kind="command",
    label="Count to 3",
    status="running",
    detail=None,
    started_at=AT,
    ended_at=None,
    output_mode="stream",
    output_limit=None,
    reported=False,
    cancel_requested=False,
    cancel_reason=None,
    stopped_by=None,
    progress=None,
    version=1,
)
DONE = dataclasses.replace(RUNNING, status="completed", detail="exit status 0", ended_at=AT)


def test_a_streaming_read_hands_over_what_is_unread_and_a_terminal_one_reports() -> None:
    running = decide_read(RUNNING, "1/3\n", 4)
    assert (running.text, running.consumed_through, running.reports) == ("1/3\n[status: running]", 4, False)
    ended = decide_read(DONE, "", None)
    assert (ended.text, ended.reports) == ("(no new output)\n[status: completed] exit status 0", True)


def test_a_final_output_task_shows_nothing_until_it_ends() -> None:
    final = dataclasses.replace(RUNNING, output_mode="final")
    early = decide_read(final, "partial", 2)
    assert (early.text, early.consumed_through) == ("(no new output)\n[status: running]", None)
    late = decide_read(
        dataclasses.replace(final, status="completed", detail=None, ended_at=AT), "all of it", 2
    )
    assert (late.text, late.consumed_through) == ("all of it\n[status: completed]", 2)


def test_a_requested_cancellation_shows_in_the_running_status() -> None:
    asked = dataclasses.replace(RUNNING, cancel_requested=True)
    assert decide_read(asked, "", None).text == "(no new output)\n[status: running] cancellation requested"


def test_a_kill_asks_a_running_task_and_leaves_a_finished_one_as_it_is() -> None:
    assert decide_kill(RUNNING).outcome == "cancellation-requested"
    assert decide_kill(RUNNING).text == "requested cancellation of task t_abcdefghijk"
    finished = decide_kill(DONE)
    assert finished.outcome == "already-finished"
    assert finished.text == "task t_abcdefghijk already finished [status: completed] exit status 0"
    assert finished.to_wire(DONE.snapshot)["task"]["status"] == "completed"


def test_the_public_snapshot_never_carries_the_owner_or_the_reported_bit() -> None:
    wire = DONE.snapshot.to_wire()
    assert set(wire) == {"id", "kind", "label", "status", "detail", "startedAt", "endedAt"}
    assert "s_owner_session" not in str(wire)


def test_the_notice_payload_carries_the_model_text_and_the_parts_people_see() -> None:
    payload = notice_payload(DONE)
    assert payload["text"] == (
        "background task t_abcdefghijk (command: Count to 3) finished [status: completed] exit status 0. "
        "Read its output with task_output."
    )
    assert (payload["label"], payload["status"], payload["taskId"]) == ("Count to 3", "completed", DONE.id)


COMMANDS = parse_commands(
    """
[commands.greet]
description = "Says hello."
label = "Greet {who}"
argv = ["echo", "hello", "--to={who}", "{{literal}}"]
[commands.greet.args.who]
type = "string"
max_length = 10
[commands.count]
description = "Counts."
argv = ["{python}", "-c", "pass", "{n}"]
[commands.count.args.n]
type = "integer"
minimum = 1
maximum = 5
default = 3
[commands.pick]
description = "Picks."
argv = ["pick", "{colour}"]
[commands.pick.args.colour]
type = "string"
choices = ["red", "blue"]
"""
)


def refusal(name: object, args: object) -> tuple[str, str]:
    with pytest.raises(TaskRefused) as refused:
        check_run(COMMANDS, name, args)
    return refused.value.code, refused.value.problem.where


def test_a_checked_run_fills_defaults_and_each_value_is_one_whole_argument() -> None:
    run = check_run(COMMANDS, "greet", {"who": "a b; rm"})
    assert run.label == "Greet a b; rm"
    assert argv(COMMANDS.commands["greet"], run.values, "py") == [
        "echo",
        "hello",
        "--to=a b; rm",
        "{literal}",
    ]
    assert check_run(COMMANDS, "count", {}).values == {"n": 3}
    assert argv(COMMANDS.commands["count"], {"n": 3}, "/usr/bin/python3")[0] == "/usr/bin/python3"


@pytest.mark.parametrize(
    ("name", "args", "code", "where"),
    [
        ("rm", {}, "command.unknown", "name"),
        (7, {}, "command.unknown", "name"),
        ("greet", {}, "command.missing-argument", "args.who"),
        ("greet", {"who": "x", "extra": 1}, "command.unknown-argument", "args.extra"),
        ("greet", {"who": 5}, "command.invalid-argument", "args.who"),
        ("greet", {"who": "x" * 11}, "command.invalid-argument", "args.who"),
        ("greet", {"who": "-rf"}, "command.invalid-argument", "args.who"),
        ("greet", {"who": "a\x00b"}, "command.invalid-argument", "args.who"),
        ("count", {"n": 6}, "command.invalid-argument", "args.n"),
        ("count", {"n": True}, "command.invalid-argument", "args.n"),
        ("count", {"n": "3"}, "command.invalid-argument", "args.n"),
        ("pick", {"colour": "green"}, "command.invalid-argument", "args.colour"),
        ("pick", ["red"], "task.invalid-arguments", "args"),
    ],
)
def test_arguments_that_do_not_fit_are_refused_by_code_and_place(
    name: object, args: object, code: str, where: str
) -> None:
    assert refusal(name, args) == (code, where)


@pytest.mark.parametrize(
    "text",
    [
        "[commands.x]\nargv = ['a']",  # no description
        "[commands.X]\ndescription = 'd'\nargv = ['a']",  # a name that is not lower case
        "[commands.x]\ndescription = 'd'\nargv = ['{missing}']",
        "[commands.x]\ndescription = 'd'\nargv = []",
        "[commands.x]\ndescription = 'd'\nargv = ['a']\nshell = true",
        "[commands.x]\ndescription = 'd'\nargv = ['a']\nprogress = '('",
        "not = [toml",
    ],
)
def test_a_commands_file_that_does_not_fit_refuses_to_load(text: str) -> None:
    with pytest.raises(InvalidCommandsFile):
        parse_commands(text)


@pytest.mark.parametrize(
    ("parse", "raw", "code", "where"),
    [
        (task_args.output_arguments, "{", "task.invalid-json", ""),
        (
            task_args.output_arguments,
            '{"task_id": "t_abcdefghijk", "task_id": "x"}',
            "task.duplicate-key",
            "task_id",
        ),
        (task_args.output_arguments, "[]", "task.invalid-arguments", ""),
        (task_args.output_arguments, "{}", "task.invalid-arguments", "task_id"),
        (task_args.output_arguments, '{"task_id": "../etc"}', "task.invalid-arguments", "task_id"),
        (
            task_args.output_arguments,
            '{"task_id": "t_abcdefghijk", "wait": "yes"}',
            "task.invalid-arguments",
            "wait",
        ),
        (
            task_args.output_arguments,
            '{"task_id": "t_abcdefghijk", "timeout_ms": -1}',
            "task.invalid-arguments",
            "timeout_ms",
        ),
        (
            task_args.output_arguments,
            '{"task_id": "t_abcdefghijk", "follow": true}',
            "task.invalid-arguments",
            "follow",
        ),
        (
            task_args.kill_arguments,
            '{"task_id": "t_abcdefghijk", "reason": 3}',
            "task.invalid-arguments",
            "reason",
        ),
        (task_args.list_arguments, '{"all": true}', "task.invalid-arguments", "all"),
        (task_args.delegate_arguments, '{"prompt": " ", "label": "x"}', "task.invalid-arguments", "prompt"),
        (task_args.delegate_arguments, '{"prompt": "p"}', "task.invalid-arguments", "label"),
    ],
)
def test_tool_arguments_that_do_not_fit_are_refused_by_code_and_place(
    parse: Any, raw: str, code: str, where: str
) -> None:
    with pytest.raises(TaskRefused) as refused:
        parse(raw)
    assert (refused.value.code, refused.value.problem.where) == (code, where)


def test_a_wait_takes_the_default_and_never_passes_the_maximum() -> None:
    assert task_args.wait_ms(None, 30_000, 600_000) == 30_000
    assert task_args.wait_ms(10, 30_000, 600_000) == 10
    assert task_args.wait_ms(10_000_000, 30_000, 600_000) == 600_000
