"""The id constructors not in the shared table, and the branded types' own names."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from tasksurface.domain import ids
from tasksurface.domain.ids import InvalidId

RULE = "must be 8-64 characters of A-Z, a-z, 0-9, '_' or '-'"


@pytest.mark.parametrize(
    ("make", "what"),
    [(ids.request_id, "requestId"), (ids.task_id, "taskId")],
    ids=["requestId", "taskId"],
)
def test_request_and_task_ids_are_wire_ids_named_in_their_refusal(
    make: Callable[[object], str], what: str
) -> None:
    assert make("req_0001-ab") == "req_0001-ab"
    assert type(make("x" * 64)) is str
    for bad in ("short", "x" * 65, "abcd efgh", None, 12345678):
        with pytest.raises(InvalidId) as info:
            make(bad)
        assert info.value.what == what
        assert info.value.value is bad
        assert str(info.value) == f"{what} {RULE}"


def test_each_constructor_names_its_own_field_in_the_refusal() -> None:
    named: list[tuple[Callable[[object], str], str]] = [
        (ids.session_id, "sessionId must be"),
        (ids.message_id, "messageId must be"),
        (ids.call_id, "callId must be"),
        (ids.inbox_item_id, "itemId must be"),
        (ids.rpc_id, "rpcId must be"),
        (ids.surface_id, "surfaceId must be"),
        (ids.submission_id, "submissionId must be"),
        (ids.dismissal_id, "dismissalId must be"),
        (ids.answer_id, "answerId must be"),
        (ids.request_id, "requestId must be"),
        (ids.task_id, "taskId must be"),
    ]
    for make, start in named:
        with pytest.raises(InvalidId) as info:
            make("")
        assert str(info.value).startswith(start)


def test_the_branded_types_carry_their_own_names() -> None:
    """Their names are what a repr, a type error and the docs show."""
    branded = [
        ids.SessionId,
        ids.MessageId,
        ids.CallId,
        ids.InboxItemId,
        ids.RpcId,
        ids.TaskSurfaceId,
        ids.TaskSurfaceSubmissionId,
        ids.TaskSurfaceDismissalId,
        ids.AnswerId,
        ids.TaskId,
    ]
    assert [t.__name__ for t in branded] == [
        "SessionId",
        "MessageId",
        "CallId",
        "InboxItemId",
        "RpcId",
        "TaskSurfaceId",
        "TaskSurfaceSubmissionId",
        "TaskSurfaceDismissalId",
        "AnswerId",
        "TaskId",
    ]
