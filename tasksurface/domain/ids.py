"""Branded ids and the one id syntax every boundary checks."""

from __future__ import annotations

import re
from typing import NewType

SessionId = NewType("SessionId", str)
MessageId = NewType("MessageId", str)
CallId = NewType("CallId", str)
InboxItemId = NewType("InboxItemId", str)
RpcId = NewType("RpcId", str)
TaskSurfaceId = NewType("TaskSurfaceId", str)
TaskSurfaceSubmissionId = NewType("TaskSurfaceSubmissionId", str)
TaskSurfaceDismissalId = NewType("TaskSurfaceDismissalId", str)
AnswerId = NewType("AnswerId", str)
"""Minted by the client per answer to a question, so a retry is recognised."""
TaskId = NewType("TaskId", str)
"""A background task; minted by the host, short enough that a 64-byte notice still names it."""

WIRE_ID_PATTERN = r"^[A-Za-z0-9_-]{8,64}$"
_WIRE_ID = re.compile(WIRE_ID_PATTERN)


class InvalidId(ValueError):
    """A string that is not a wire id; raised before any lookup happens."""

    def __init__(self, what: str, value: object) -> None:
        super().__init__(f"{what} must be 8-64 characters of A-Z, a-z, 0-9, '_' or '-'")
        self.what = what
        self.value = value


def is_wire_id(value: object) -> bool:
    return isinstance(value, str) and _WIRE_ID.fullmatch(value) is not None


def _checked(what: str, value: object) -> str:
    if not is_wire_id(value):
        raise InvalidId(what, value)
    assert isinstance(value, str)
    return value


def session_id(value: object) -> SessionId:
    return SessionId(_checked("sessionId", value))


def message_id(value: object) -> MessageId:
    return MessageId(_checked("messageId", value))


def call_id(value: object) -> CallId:
    return CallId(_checked("callId", value))


def inbox_item_id(value: object) -> InboxItemId:
    return InboxItemId(_checked("itemId", value))


def rpc_id(value: object) -> RpcId:
    return RpcId(_checked("rpcId", value))


def surface_id(value: object) -> TaskSurfaceId:
    return TaskSurfaceId(_checked("surfaceId", value))


def submission_id(value: object) -> TaskSurfaceSubmissionId:
    return TaskSurfaceSubmissionId(_checked("submissionId", value))


def dismissal_id(value: object) -> TaskSurfaceDismissalId:
    return TaskSurfaceDismissalId(_checked("dismissalId", value))


def request_id(value: object) -> str:
    """A client-minted id of a non-blocking action request, kept across retries."""
    return _checked("requestId", value)


def answer_id(value: object) -> AnswerId:
    return AnswerId(_checked("answerId", value))


def task_id(value: object) -> TaskId:
    return TaskId(_checked("taskId", value))
