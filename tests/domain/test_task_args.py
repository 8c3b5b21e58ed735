"""The task tools' arguments: what each call decodes to, and each refusal by code, message and place.

The figures (64 KiB of arguments, 500 characters of reason, 16,000 of prompt, 200 of label) are
written out: they are the contract the tool descriptions state, not whatever the module holds.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from tasksurface.domain import task_args
from tasksurface.domain.ids import TaskId
from tasksurface.domain.refusals import TaskRefused

TASK = "t_abcdefghijk"


def refused(parse: Callable[[str], Any], raw: str) -> tuple[str, str, str]:
    with pytest.raises(TaskRefused) as caught:
        parse(raw)
    problem = caught.value.problem
    return problem.code, problem.message, problem.where


def test_a_read_decodes_its_id_wait_and_timeout() -> None:
    assert task_args.output_arguments(f'{{"task_id": "{TASK}"}}') == task_args.OutputArguments(
        TaskId(TASK), False, None
    )
    assert task_args.output_arguments(
        f'{{"task_id": "{TASK}", "wait": true, "timeout_ms": 0}}'
    ) == task_args.OutputArguments(TaskId(TASK), True, 0)
    assert task_args.output_arguments(f'{{"task_id": "{TASK}", "timeout_ms": 2500}}').timeout_ms == 2500


@pytest.mark.parametrize("timeout", ['"5"', "1.5", "true", "-1"])
def test_a_timeout_is_a_whole_non_negative_number_of_milliseconds(timeout: str) -> None:
    assert refused(task_args.output_arguments, f'{{"task_id": "{TASK}", "timeout_ms": {timeout}}}') == (
        "task.invalid-arguments",
        "timeout_ms must be a whole number of milliseconds",
        "timeout_ms",
    )


def test_wait_is_true_or_false() -> None:
    assert refused(task_args.output_arguments, f'{{"task_id": "{TASK}", "wait": 1}}') == (
        "task.invalid-arguments",
        "wait must be true or false",
        "wait",
    )


def test_arguments_of_64_kib_pass_and_one_byte_more_is_refused() -> None:
    body = f'{{"task_id": "{TASK}"}}'
    at_limit = body + " " * (65_536 - len(body))
    assert task_args.output_arguments(at_limit).task_id == TASK
    assert refused(task_args.output_arguments, at_limit + " ") == (
        "task.invalid-arguments",
        "arguments hold at most 65536 bytes",
        "",
    )


def test_decoding_refusals_say_what_is_wrong_and_where() -> None:
    code, message, where = refused(task_args.output_arguments, "{")
    assert (code, where) == ("task.invalid-json", "")
    assert message.startswith("the arguments are not JSON: ") and len(message) > 28
    assert refused(task_args.output_arguments, f'{{"task_id": "{TASK}", "task_id": "x"}}') == (
        "task.duplicate-key",
        "duplicate key 'task_id'",
        "task_id",
    )
    assert refused(task_args.output_arguments, "[]") == (
        "task.invalid-arguments",
        "the arguments must be a JSON object",
        "",
    )
    assert refused(task_args.output_arguments, f'{{"task_id": "{TASK}", "follow": 1}}') == (
        "task.invalid-arguments",
        "unknown argument 'follow'",
        "follow",
    )
    assert refused(task_args.output_arguments, "{}") == (
        "task.invalid-arguments",
        "task_id is required",
        "task_id",
    )
    assert refused(task_args.output_arguments, '{"task_id": "../etc/passwd"}') == (
        "task.invalid-arguments",
        "task_id must be the id of a task you started",
        "task_id",
    )


def test_a_list_takes_no_arguments_and_empty_text_counts_as_none() -> None:
    task_args.list_arguments("")
    task_args.list_arguments("{}")
    assert refused(task_args.list_arguments, '{"all": true}') == (
        "task.invalid-arguments",
        "unknown argument 'all'",
        "all",
    )


def test_a_kill_keeps_its_reason_trimmed_and_a_blank_reason_counts_as_none() -> None:
    assert task_args.kill_arguments(f'{{"task_id": "{TASK}"}}') == task_args.KillArguments(TaskId(TASK), None)
    assert task_args.kill_arguments(f'{{"task_id": "{TASK}", "reason": "  too slow "}}').reason == "too slow"
    assert task_args.kill_arguments(f'{{"task_id": "{TASK}", "reason": "   "}}').reason is None
    assert task_args.kill_arguments(f'{{"task_id": "{TASK}", "reason": null}}').reason is None
    assert refused(task_args.kill_arguments, f'{{"task_id": "{TASK}", "stop": 1}}')[2] == "stop"


def test_a_kill_reason_holds_500_characters() -> None:
    assert task_args.kill_arguments(f'{{"task_id": "{TASK}", "reason": "{"r" * 500}"}}').reason == "r" * 500
    assert refused(task_args.kill_arguments, f'{{"task_id": "{TASK}", "reason": "{"r" * 501}"}}') == (
        "task.invalid-arguments",
        "reason holds at most 500 characters",
        "reason",
    )
    assert refused(task_args.kill_arguments, f'{{"task_id": "{TASK}", "reason": 3}}') == (
        "task.invalid-arguments",
        "reason must be non-empty text",
        "reason",
    )


def test_a_run_hands_its_name_and_args_on_for_the_declarations_to_check() -> None:
    assert task_args.run_arguments('{"name": "count", "args": {"n": 3}}') == task_args.RunArguments(
        "count", {"n": 3}
    )
    assert task_args.run_arguments('{"name": "count"}') == task_args.RunArguments("count", None)
    assert refused(task_args.run_arguments, '{"args": {}}') == (
        "task.invalid-arguments",
        "name is required",
        "name",
    )
    assert refused(task_args.run_arguments, '{"name": "count", "argv": []}')[1:] == (
        "unknown argument 'argv'",
        "argv",
    )


def test_a_delegation_trims_its_prompt_and_folds_its_label_to_one_line() -> None:
    decoded = task_args.delegate_arguments('{"prompt": "  sum it up\\n ", "label": " Sum \\n it   up "}')
    assert decoded == task_args.DelegateArguments("sum it up", "Sum it up")


def test_a_prompt_holds_16000_characters_and_a_label_200() -> None:
    prompt, label = "p" * 16_000, "l" * 200
    assert task_args.delegate_arguments(f'{{"prompt": "{prompt}", "label": "{label}"}}') == (
        task_args.DelegateArguments(prompt, label)
    )
    assert refused(task_args.delegate_arguments, f'{{"prompt": "{prompt}p", "label": "x"}}') == (
        "task.invalid-arguments",
        "prompt holds at most 16000 characters",
        "prompt",
    )
    assert refused(task_args.delegate_arguments, f'{{"prompt": "p", "label": "{label}l"}}') == (
        "task.invalid-arguments",
        "label holds at most 200 characters",
        "label",
    )
    assert refused(task_args.delegate_arguments, '{"prompt": " ", "label": "x"}') == (
        "task.invalid-arguments",
        "prompt must be non-empty text",
        "prompt",
    )
    assert refused(task_args.delegate_arguments, '{"prompt": "p", "label": ""}') == (
        "task.invalid-arguments",
        "label must be non-empty text",
        "label",
    )


@pytest.mark.parametrize(
    ("raw", "named"),
    [
        (f'{{"task_id": "{TASK}", "wait": "yes"}}', TASK),
        ('{"task_id": "../etc"}', None),
        ('{"task_id": 12345678}', None),
        (f'["{TASK}"]', None),
        ("{", None),
    ],
)
def test_refused_arguments_still_name_their_task_when_they_hold_a_valid_id(
    raw: str, named: str | None
) -> None:
    assert task_args.named_task(raw) == named
