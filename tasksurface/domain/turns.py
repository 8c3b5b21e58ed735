"""What the agent still owes a session, read from the end of its log.

A turn can stop half-way: the process dies after the user's message is durable but
before the model answers, or while a tool runs, or the agent waits for the answer to
its question. The log says which, so the runner picks the turn up where it stopped
instead of leaving the user's message unanswered.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .events import SessionEvent
from .ids import CallId
from .question import OpenQuestion

TOOL_KINDS = frozenset({"tool/call", "tool/result"})
CONTEXT_KINDS = frozenset({"task/notice"})
"""Context for the next model request that may land anywhere, even mid-turn; it owes nothing itself."""
PASSING_KINDS = TOOL_KINDS | CONTEXT_KINDS
"""What a turn's tail may hold after the event that started it."""
OPEN_ENDINGS = TOOL_KINDS | {"user/message"}
"""The last kinds of event after which the agent may still owe something; the rest end a turn."""
INTERRUPTED = "error: the host stopped before this call finished, so it may or may not have taken effect"


@dataclass(frozen=True)
class Interrupted:
    call_id: CallId
    name: str


@dataclass(frozen=True)
class Owed:
    """`interrupted` calls get a failed result first; then the model runs when `reply` says so."""

    reply: bool
    interrupted: tuple[Interrupted, ...] = ()
    waiting: bool = False
    """The agent waits for the user's answer to its question: nothing runs until it comes."""


NOTHING = Owed(reply=False)


def owed(tail: Sequence[SessionEvent], question: OpenQuestion | None, copied_through: int = 0) -> Owed:
    """`tail` is the run of tool events at the end of the visible log and the event before it.

    A fork's events up to `copied_through` are its origin's history: whatever they left open
    was owed by the origin, so the copy owes nothing for them until something happens in it.
    """
    tail = [e for e in tail if e.kind not in CONTEXT_KINDS and e.seq > copied_through]
    if not tail:
        return NOTHING
    last = tail[-1]
    if last.kind == "user/message":
        return Owed(reply=True)
    if last.kind not in TOOL_KINDS:
        return NOTHING
    tools = trailing_tool_events(tail)
    answered = {e.payload.get("callId") for e in tools if e.kind == "tool/result"}
    ended = any(e.kind == "tool/result" and e.payload.get("endsTurn") is True for e in tools)
    waiting = question is not None and question.call_id not in answered
    interrupted = tuple(
        Interrupted(CallId(str(e.payload.get("callId"))), str(e.payload.get("name")))
        for e in tools
        if e.kind == "tool/call"
        and e.payload.get("callId") not in answered
        and not (question is not None and e.payload.get("callId") == question.call_id)
    )
    return Owed(reply=not (ended or waiting), interrupted=interrupted, waiting=waiting)


def trailing_tool_events(events: Sequence[SessionEvent]) -> list[SessionEvent]:
    start = len(events)
    while start > 0 and events[start - 1].kind in TOOL_KINDS:
        start -= 1
    return list(events[start:])
