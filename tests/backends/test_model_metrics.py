"""A real model backend's calls and failures show in `/metrics`: durations and kinds, never words."""

from __future__ import annotations

from prometheus_client.parser import text_string_to_metric_families

from ..support import Api
from .wire import Failure, Stream, WireServer


def samples(api: Api) -> tuple[dict[tuple[str, tuple[tuple[str, str], ...]], float], str]:
    text = api.get("/metrics").text
    found = {
        (s.name, tuple(sorted(s.labels.items()))): s.value
        for family in text_string_to_metric_families(text)
        for s in family.samples
    }
    return found, text


def test_model_calls_are_timed_and_a_refused_call_counts_as_a_provider_error(
    api: Api, wire: WireServer
) -> None:
    wire.script(
        Stream(text=["Zanzibar-reply-0413"]),
        Failure(401, "Incorrect API key provided", "invalid_request_error"),
    )
    sid = api.create_session()
    api.send(sid, "Zanzibar-question-0413")
    api.settled(sid)
    api.send(sid, "again")
    events = api.settled(sid)
    assert events[-1]["kind"] == "agent/error"

    found, text = samples(api)
    assert found[("tasksurface_model_call_seconds_count", ())] == 2
    assert found[("tasksurface_model_call_errors_total", (("kind", "provider"),))] == 1
    assert "Zanzibar" not in text
