"""Task notices and sub-agents in the model's request: context in its place, prompts word for word."""

from __future__ import annotations

from typing import Any

from tasksurface.agent.ports import ToolDefinition
from tasksurface.backends.openai_chat import request_messages
from tasksurface.backends.openai_messages import history_messages
from tasksurface.backends.prompt import SUBAGENT
from tasksurface.domain.events import EventKind

from .scenes import assistant_calls, tool, user
from .test_openai_messages import answered, called, log, said

NOTICE: tuple[EventKind, dict[str, Any]] = (
    "task/notice",
    {"taskId": "t_abcdefghijk", "text": "background task t_abcdefghijk finished."},
)
GUIDANCE = (
    "Track every background task id you start. You are notified in-session when a task finishes — do not "
    "busy-poll or sleep on one; keep working on independent steps and do not duplicate a running task's "
    "work. Before giving a final answer, collect every still-relevant task with task_output (set wait: "
    "true only when you are genuinely blocked on it), and task_kill tasks that stopped mattering."
)


def test_a_notice_is_a_user_message_after_the_results_of_calls_it_landed_between() -> None:
    history = log(
        said("start it"),
        called("call_a_000001", "task_output", "{}"),
        NOTICE,  # logged while the call waited for its result
        answered("call_a_000001", "done"),
        said("thanks"),
    )
    assert history_messages(history) == [
        user("start it"),
        assistant_calls(("call_a_000001", "task_output", "{}")),
        tool("call_a_000001", "done"),
        user("background task t_abcdefghijk finished."),
        user("thanks"),
    ]


def test_a_notice_between_turns_is_read_in_order() -> None:
    history = log(said("one"), ("assistant/message", {"text": "ok"}), NOTICE, said("two"))
    assert history_messages(history) == [
        user("one"),
        {"role": "assistant", "content": "ok"},
        user("background task t_abcdefghijk finished."),
        user("two"),
    ]


def test_the_guidance_joins_the_system_prompt_only_while_the_task_tools_are_offered() -> None:
    offered = [ToolDefinition(name, "", {}) for name in ("task_output", "task_list", "task_kill")]
    assert request_messages([], offered)[0]["content"].endswith("\n\n" + GUIDANCE)
    assert GUIDANCE not in request_messages([], [])[0]["content"]


def test_a_sub_agent_gets_its_own_prompt_and_only_the_delegated_prompt() -> None:
    messages = request_messages(log(said("summarise the plan", {"kind": "delegate"})), ())
    assert messages == [{"role": "system", "content": SUBAGENT}, user("summarise the plan")]
