"""One turn of the agent: up to `MAX_MODEL_STEPS` model steps, each with the context it is owed,
the model's reply and the tools it calls; and the turn a stopped process left half-done.

The runner decides when a session's turn runs and holds its lease; this decides what a turn does.
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Sequence
from typing import TYPE_CHECKING

from ..domain import turns
from ..domain.events import NewEvent, SessionEvent, tool_result
from ..domain.ids import SessionId
from ..store import log
from . import replies
from .ports import CallProgressSink, ModelError, ModelReply, StreamingModelBackend
from .streaming import PartialCalls, PartialText

if TYPE_CHECKING:
    from .runner import RunnerPool

logger = logging.getLogger(__name__)

MAX_MODEL_STEPS = 8
STEPS_EXHAUSTED = f"the agent stopped after {MAX_MODEL_STEPS} model steps without finishing its turn"


def run_turn(pool: RunnerPool, session_id: SessionId) -> None:
    """Model steps until the model stops calling tools, a call waits for the user, the lease is
    lost or the process stops; a model that fails ends the turn with an error the person sees."""
    for _ in range(MAX_MODEL_STEPS):
        if pool.stopping() or not pool.leases.held(session_id):
            return
        gather_context(pool, session_id)
        with pool.database.read() as db:
            history = pool.histories.read(db, session_id)
        try:
            reply = _ask_model(pool, session_id, history)
        except ModelError as exc:
            pool.append(session_id, NewEvent("agent/error", {"message": str(exc)}))
            return
        except Exception as exc:
            logger.exception("model backend failed")
            pool.append(
                session_id,
                NewEvent("agent/error", {"message": f"the model failed: {type(exc).__name__}"}),
            )
            return
        if not replies.apply(pool, session_id, reply):
            return
    # A model that never stops calling tools ends its turn here, in so many words; left open,
    # every restart (and, on PostgreSQL, every sweep for unfinished turns) would resume it.
    pool.append(session_id, NewEvent("agent/error", {"message": STEPS_EXHAUSTED}))


def finish_open_turn(pool: RunnerPool, session_id: SessionId) -> None:
    """Pick up a turn that stopped half-way (a crash, a stop, an answered question): calls left
    without a result get one that says so, and a reply still owed is asked for."""
    with pool.database.read() as db:
        info = log.get_session(db, session_id)
        if info.paused:
            return
        tail, question = log.trailing_turn(db, session_id), log.open_question(db, session_id)
        owed = turns.owed(tail, question, copied_through=info.forked_at_seq or 0)
    for call in owed.interrupted:
        pool.append(
            session_id,
            NewEvent("tool/result", tool_result(call.call_id, call.name, False, turns.INTERRUPTED)),
        )
    if owed.reply:
        run_turn(pool, session_id)


def gather_context(pool: RunnerPool, session_id: SessionId) -> None:
    """Context the next model request must see (task notices), written into the log first."""
    for source in pool.context_sources:
        try:
            source(session_id)
        except Exception:  # context is owed, not required: the turn goes on without it
            logger.exception("gathering context for session %s failed", session_id)


def _ask_model(pool: RunnerPool, session_id: SessionId, history: Sequence[SessionEvent]) -> ModelReply:
    """One model step; a streaming backend's text is shown as it arrives when someone listens."""
    definitions = pool.tools.definitions()
    sink = pool.progress
    if sink is None or not isinstance(pool.backend, StreamingModelBackend):
        return pool.backend.respond(history, definitions)
    on_text = PartialText(session_id, sink).add
    if not isinstance(sink, CallProgressSink):
        return pool.backend.respond_streaming(history, definitions, on_text)
    calls = PartialCalls(session_id, sink, secrets.token_urlsafe(6))
    return pool.backend.respond_streaming(history, definitions, on_text, calls.add)
