"""Provider trouble over the real wire: retries with backoff, then an `agent/error`, never a lost input."""

from __future__ import annotations

from typing import Any

import pytest

from ..support import Api
from .scenes import kinds, system_for, text_of, user
from .wire import API_KEY, Failure, Stall, Stream, WireServer

QUICK_RETRY = {"retry-after-ms": "10"}  # providers may say how long to wait; the client obeys


def test_a_429_is_retried_after_a_backoff_and_then_answered(api: Api, wire: WireServer) -> None:
    wire.script(
        Failure(429, "Rate limit reached", "rate_limit_exceeded"), Stream(text=["Sorry for the wait."])
    )
    sid = api.create_session()
    api.send(sid, "hello")
    events = api.settled(sid)

    assert kinds(events) == ["user/message", "assistant/message"]
    assert text_of(events[1]) == "Sorry for the wait."
    first, second = wire.requests
    assert first.raw == second.raw  # the same request again
    if "x-stainless-retry-count" in second.headers:  # newer `openai` clients say which try this is
        assert (first.headers["x-stainless-retry-count"], second.headers["x-stainless-retry-count"]) == (
            "0",
            "1",
        )
    assert second.at - first.at >= 0.3  # the client backed off (0.5 s less jitter) before retrying


def test_a_storm_of_500s_ends_in_an_error_event_and_the_session_goes_on(api: Api, wire: WireServer) -> None:
    wire.script(*[Failure(500, "The server had an error", headers=QUICK_RETRY)] * 3)
    sid = api.create_session()
    api.send(sid, "hello")
    events = api.settled(sid)

    assert kinds(events) == ["user/message", "agent/error"]
    message = events[1]["payload"]["message"]
    assert "(500)" in message and "after 2 retries" in message and "The server had an error" in message
    assert len(wire.requests) == 3  # one try and two retries (model_max_retries)
    assert api.queue(sid) == []  # the input was admitted before the model was called; nothing is lost

    wire.script(Stream(text=["I am back."]))
    api.send(sid, "still there?")
    events = api.settled(sid)
    assert kinds(events)[-2:] == ["user/message", "assistant/message"]
    assert text_of(events[-1]) == "I am back."
    # The error is for the person, not the model: the history holds both messages and no error.
    assert wire.requests[-1].messages == [system_for("native"), user("hello"), user("still there?")]


def test_a_wrong_key_gives_an_error_event_at_once(api: Api, wire: WireServer) -> None:
    wire.script(Failure(401, "Incorrect API key provided: sk-wire***", "invalid_request_error"))
    sid = api.create_session()
    api.send(sid, "hello")
    events = api.settled(sid)

    assert kinds(events) == ["user/message", "agent/error"]
    message = events[1]["payload"]["message"]
    assert "refused the API key (401)" in message and "OPENAI_API_KEY" in message
    assert API_KEY not in message
    assert len(wire.requests) == 1  # a 401 is not retried
    assert api.queue(sid) == [] and text_of(events[0]) == "hello"


@pytest.mark.parametrize("model_settings", [{"model_timeout": 0.5, "model_max_retries": 1}])
def test_a_provider_that_hangs_times_out_into_an_error_event(
    api: Api, wire: WireServer, model_settings: dict[str, Any]
) -> None:
    wire.script(Stall(1.5), Stall(1.5))
    sid = api.create_session()
    api.send(sid, "hello")
    events = api.settled(sid)

    assert kinds(events) == ["user/message", "agent/error"]
    assert "did not answer within 0.5 s after 1 retry" in events[1]["payload"]["message"]
    assert len(wire.requests) == 2


def test_a_request_the_provider_refuses_is_not_retried(api: Api, wire: WireServer) -> None:
    wire.script(Failure(400, "Invalid schema for function 'show_task_surface'", "invalid_request_error"))
    sid = api.create_session()
    api.send(sid, "hello")
    events = api.settled(sid)

    assert kinds(events) == ["user/message", "agent/error"]
    assert "(400)" in events[1]["payload"]["message"]
    assert "Invalid schema for function" in events[1]["payload"]["message"]
    assert len(wire.requests) == 1
