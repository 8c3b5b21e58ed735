"""One model reply applied to the log: its text, then each tool call and its result, in order.

A call after one that ended the turn is not run (only a question to the user may still be put),
and a call after one that waits for the user's answer is not run at all; each such call still
gets a result that says why, so the model's history never holds a call without its result.
"""

from __future__ import annotations

import secrets
from typing import TYPE_CHECKING

from ..domain.events import NewEvent, tool_call, tool_result
from ..domain.ids import CallId, SessionId
from .ports import ModelReply
from .tools import ToolContext

if TYPE_CHECKING:
    from .runner import RunnerPool

NOT_RUN = "not run: an earlier call in this response ended the turn"
NOT_RUN_WAITING = "not run: an earlier call in this response is waiting for the user's answer"


def apply(pool: RunnerPool, session_id: SessionId, reply: ModelReply) -> bool:
    """Log the reply and run its tool calls in order; `True` when the model should go on."""
    if reply.text:
        pool.append(session_id, NewEvent("assistant/message", {"text": reply.text}))
    if not reply.tool_calls:
        return False
    concluded = waiting = False
    for request in reply.tool_calls:
        call_id = CallId(request.call_id or "call_" + secrets.token_urlsafe(12))
        pool.append(session_id, NewEvent("tool/call", tool_call(call_id, request.name, request.arguments)))
        if waiting:
            result = tool_result(call_id, request.name, False, NOT_RUN_WAITING)
        elif concluded and not pool.tools.asks_user(request.name):
            result = tool_result(call_id, request.name, False, NOT_RUN)
        else:
            context = ToolContext(session_id, call_id, pool.database)
            outcome = pool.tools.execute(context, request.name, request.arguments)
            if outcome.waits_for_user:
                waiting = True
                continue  # the user's answer will be this call's result
            concluded = concluded or outcome.conclude_turn
            result = tool_result(
                call_id,
                request.name,
                outcome.ok,
                outcome.text,
                outcome.meta,
                ends_turn=outcome.conclude_turn,
            )
        pool.append(session_id, NewEvent("tool/result", result))
    return not (concluded or waiting)
