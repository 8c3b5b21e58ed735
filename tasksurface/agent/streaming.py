"""What the runner shows while a model streams: its text and its tool calls so far.

Both are provisional: each push carries everything so far, so skipping pushes is safe, and
a failure to show them never stops the model.
"""

from __future__ import annotations

import logging
import time

from ..domain.ids import SessionId
from .ports import CallProgressSink, ProgressSink

logger = logging.getLogger(__name__)

PARTIAL_INTERVAL = 0.05
"""Seconds between pushes of streamed text: each push carries all text so far, so skipping is safe."""


class PartialText:
    """Collects streamed pieces and shows the text so far, at most every PARTIAL_INTERVAL."""

    def __init__(self, session_id: SessionId, sink: ProgressSink) -> None:
        self.session_id = session_id
        self.sink = sink
        self.text = ""
        self.shown_at = float("-inf")

    def add(self, piece: str) -> None:
        self.text += piece
        now = time.monotonic()
        if not piece or now - self.shown_at < PARTIAL_INTERVAL:
            return
        self.shown_at = now
        try:
            self.sink.partial(self.session_id, self.text)
        except Exception:  # a provisional view must never stop the model
            logger.exception("showing streamed text of session %s failed", self.session_id)


class PartialCalls:
    """Collects streamed tool-call pieces and shows each call so far, at most every PARTIAL_INTERVAL."""

    def __init__(self, session_id: SessionId, sink: CallProgressSink, step: str) -> None:
        self.session_id = session_id
        self.sink = sink
        self.step = step
        """Tells this model step's calls from another step's calls of the same index."""
        self.names: dict[int, str] = {}
        self.pieces: dict[int, list[str]] = {}
        self.shown_at: dict[int, float] = {}

    def add(self, index: int, name: str, piece: str) -> None:
        if name and not self.names.get(index):
            self.names[index] = name
        pieces = self.pieces.setdefault(index, [])
        if piece:
            pieces.append(piece)
        now = time.monotonic()
        if not pieces or now - self.shown_at.get(index, float("-inf")) < PARTIAL_INTERVAL:
            return
        self.shown_at[index] = now
        arguments = "".join(pieces)
        self.pieces[index] = [arguments]  # joined once: the next join starts from here
        try:
            self.sink.preview(self.session_id, f"{self.step}-{index}", self.names.get(index, ""), arguments)
        except Exception:  # a provisional view must never stop the model
            logger.exception("showing a streamed tool call of session %s failed", self.session_id)
