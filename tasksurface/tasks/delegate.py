"""`delegate_task`'s producer: a background sub-agent on the same model backend, its text as output.

The sub-agent gets the prompt and nothing else: no panels, no questions, no further delegation,
no tools. A streaming backend's text arrives as it is written; a stop breaks the stream off.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Mapping
from datetime import datetime
from typing import Any

from ..agent.ports import ModelBackend, ModelError, StreamingModelBackend
from ..domain.events import SessionEvent, text_content, user_message
from ..domain.ids import MessageId
from ..domain.tasks import DELEGATE_SOURCE
from .producers import Ending, Sink

KIND = "delegate"


class _Stopped(Exception):
    """Raised from the text callback to break a stream off when the task is asked to stop."""


class DelegateProducer:
    kind = KIND

    def __init__(self, backend: ModelBackend, clock: Callable[[], datetime]) -> None:
        self.backend = backend
        self.clock = clock

    def run(self, spec: Mapping[str, Any], sink: Sink) -> Ending:
        prompt = str(spec.get("prompt") or "")
        message = user_message(
            MessageId("msg_" + secrets.token_urlsafe(12)), {"kind": DELEGATE_SOURCE}, text_content(prompt)
        )
        history = [SessionEvent(1, "user/message", self.clock(), message)]
        streamed: list[str] = []

        def on_text(piece: str) -> None:
            if sink.cancelled:
                raise _Stopped
            streamed.append(piece)
            sink.write(piece)

        try:
            if isinstance(self.backend, StreamingModelBackend):
                reply = self.backend.respond_streaming(history, (), on_text)
            else:
                reply = self.backend.respond(history, ())
        except (ModelError, _Stopped) as exc:
            if sink.cancelled:
                return Ending("cancelled")
            return Ending("failed", str(exc) or type(exc).__name__)
        if sink.cancelled:
            return Ending("cancelled")
        text = reply.text or ""
        if not streamed and text:
            sink.write(text)
        elif not text.strip():
            return Ending("failed", "the sub-agent gave an empty answer")
        return Ending("completed")
