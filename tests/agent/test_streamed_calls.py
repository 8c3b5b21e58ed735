"""Tool calls stream to the progress sink as the model writes them; the logged call still counts."""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field

import pytest

from tasksurface.agent.claims import ClaimRegistry
from tasksurface.agent.intake import Intake
from tasksurface.agent.ports import CallProgressSink, ProgressSink, StreamingModelBackend
from tasksurface.agent.runner import RunnerPool
from tasksurface.agent.streaming import PartialCalls
from tasksurface.agent.tools import ToolRegistry
from tasksurface.backends.demos import DEMOS
from tasksurface.backends.scripted import PIECE_CHARS, ScriptedBackend
from tasksurface.domain.events import SessionEvent
from tasksurface.domain.ids import SessionId
from tasksurface.services.outcomes import OutcomeJournal
from tasksurface.services.sessions import SessionService
from tasksurface.store.db import Database
from tasksurface.tools.show_task_surface import ShowTaskSurface

from ..support import wait_for
from .harness import RecordingNotifier, log_events, now
from .test_scripted_backend import WITH_SURFACE, history_of


@dataclass
class RecordingSink:
    """Both progress ports; `seen` keeps the order of everything it and the notifier heard."""

    seen: list[tuple[str, object]] = field(default_factory=list)
    fail: bool = False

    def partial(self, session_id: SessionId, text: str) -> None:
        self.seen.append(("partial", text))

    def preview(self, session_id: SessionId, call_key: str, name: str, arguments: str) -> None:
        self.seen.append(("preview", (call_key, name, arguments)))
        if self.fail:
            raise RuntimeError("the page is gone")


@dataclass
class OrderedNotifier(RecordingNotifier):
    sink: RecordingSink = field(default_factory=RecordingSink)

    def changed(
        self,
        session_id: SessionId,
        events: Sequence[SessionEvent] = (),
        queue: bool = False,
        reset: bool = False,
    ) -> None:
        self.sink.seen += [("logged", e.kind) for e in events]
        super().changed(session_id, events, queue, reset)


def test_the_scripted_agent_streams_its_text_then_its_call_in_pieces() -> None:
    slept: list[float] = []
    backend = ScriptedBackend(pause=0.02, sleep=slept.append)
    assert isinstance(backend, StreamingModelBackend)
    texts: list[str] = []
    calls: list[tuple[int, str, str]] = []
    reply = backend.respond_streaming(
        history_of("/surface all"), WITH_SURFACE, texts.append, lambda *c: calls.append(c)
    )
    assert "".join(texts) == reply.text
    (call,) = reply.tool_calls
    assert {(i, n) for i, n, _ in calls} == {(0, "show_task_surface")}
    assert "".join(p for _, _, p in calls) == call.arguments == json.dumps({"model": DEMOS["all"]})
    assert len(calls) > 10 and all(len(p) <= PIECE_CHARS for _, _, p in calls)
    assert slept == [0.02] * (len(texts) + len(calls) - 1)  # between pieces, not after the last


def test_without_a_pause_the_scripted_agent_answers_whole() -> None:
    texts: list[str] = []
    calls: list[object] = []
    reply = ScriptedBackend().respond_streaming(
        history_of("/surface plan"), WITH_SURFACE, texts.append, lambda *c: calls.append(c)
    )
    assert (texts, calls) == ([], []) and reply.text and len(reply.tool_calls) == 1


def test_calls_so_far_are_shown_at_most_every_interval_and_a_failing_sink_is_harmless() -> None:
    sink = RecordingSink(fail=True)
    assert isinstance(sink, CallProgressSink) and isinstance(sink, ProgressSink)
    calls = PartialCalls(SessionId("s_streamed_calls"), sink, "step")
    calls.add(0, "show_task_surface", "")  # a name before any argument shows nothing
    calls.add(0, "", '{"mo')
    calls.add(0, "", 'del": {')  # within the interval: folded into the next push
    calls.add(1, "other", "{}")
    assert sink.seen == [
        ("preview", ("step-0", "show_task_surface", '{"mo')),
        ("preview", ("step-1", "other", "{}")),
    ]
    calls.shown_at[0] = float("-inf")
    calls.add(0, "", "}")
    assert sink.seen[-1] == ("preview", ("step-0", "show_task_surface", '{"model": {}'))


@contextmanager
def streaming_runner(database: Database, sink: RecordingSink) -> Iterator[SessionService]:
    notifier = OrderedNotifier(sink=sink)
    claims = ClaimRegistry(database)
    journal = OutcomeJournal()
    tools = ToolRegistry([ShowTaskSurface()])
    backend = ScriptedBackend(pause=0.001)
    pool = RunnerPool(database, claims, backend, tools, notifier, [journal], now, progress=sink)
    try:
        yield SessionService(database, claims, notifier, pool.wake, Intake(pool), now, [journal])
    finally:
        pool.stop(5)


@pytest.mark.parametrize("fail", [False, True])
def test_a_streamed_panel_call_reaches_the_sink_before_it_is_logged(database: Database, fail: bool) -> None:
    sink = RecordingSink(fail=fail)
    with streaming_runner(database, sink) as sessions:
        sid = sessions.create()
        sessions.send(sid, "/surface compare")
        wait_for(lambda: "tool/result" in [kind for what, kind in sink.seen if what == "logged"])
    events = log_events(database, sid)
    assert [e.kind for e in events] == ["user/message", "assistant/message", "tool/call", "tool/result"]
    assert events[3].payload["ok"] is True  # a sink that fails never stops the model
    arguments = events[2].payload["args"]
    shown = [value for what, value in sink.seen if what == "preview" and isinstance(value, tuple)]
    assert shown and {(key, name) for key, name, _ in shown} == {(shown[0][0], "show_task_surface")}
    assert all(arguments.startswith(text) for _, _, text in shown)
    replied = sink.seen.index(("logged", "assistant/message"))
    order = [what for what, _ in sink.seen]
    assert order.index("partial") < order.index("preview") < replied
    assert "preview" not in order[replied:]


def test_a_cluster_shows_a_streamed_call_on_this_process_only() -> None:
    from tasksurface.services.cluster import ClusterNotifier

    sink = RecordingSink()
    relay = ClusterNotifier(OrderedNotifier(sink=sink))
    relay.preview(SessionId("s_streamed_calls"), "k-0", "show_task_surface", "{}")
    assert sink.seen == []  # a notifier that cannot show calls is simply not asked

    class Both(OrderedNotifier):
        def preview(self, session_id: SessionId, call_key: str, name: str, arguments: str) -> None:
            self.sink.preview(session_id, call_key, name, arguments)

    relay = ClusterNotifier(Both(sink=sink))
    assert isinstance(relay, CallProgressSink)
    relay.preview(SessionId("s_streamed_calls"), "k-0", "show_task_surface", "{}")
    assert sink.seen == [("preview", ("k-0", "show_task_surface", "{}"))]
