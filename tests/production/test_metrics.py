"""`/metrics` of the real production server moves with real actions and never carries their text."""

from __future__ import annotations

import requests
from prometheus_client.parser import text_string_to_metric_families

from ..domain.builders import choice_field, model_with_fields, option, text_field
from ..support import Api, new_id, wait_for
from .gunicorn_process import ProductionServer
from .test_serving import close, open_socket

MARKERS = {
    "title": "Quetzal-title-7731",
    "field": "Quetzal-label-7731",
    "option": "Quetzal-option-7731",
    "value": "Quetzal-value-7731",
    "note": "Quetzal-note-7731",
    "message": "Quetzal-message-7731",
}


def figures(base: str) -> tuple[dict[tuple[str, tuple[tuple[str, str], ...]], float], str]:
    text = requests.get(base + "/metrics", timeout=10).text
    found = {}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            found[(sample.name, tuple(sorted(sample.labels.items())))] = sample.value
    return found, text


def value(base: str, name: str, **labels: str) -> float:
    return figures(base)[0].get((name, tuple(sorted(labels.items()))), 0.0)


def marked_model() -> dict[str, object]:
    return model_with_fields(
        choice_field("pick", MARKERS["field"], [option("alpha", MARKERS["option"]), option("beta")]),
        text_field("words", "Words"),
        title=MARKERS["title"],
    )


def open_panel(api: Api, sid: str) -> str:
    result = api.show_model(sid, marked_model())
    surface: str = result["payload"]["meta"]["surfaceId"]
    return surface


def test_metrics_count_what_the_log_decided_and_hold_no_text(server: ProductionServer) -> None:
    base = server.url
    with Api(base) as api:
        answered = api.create_session()
        surface = open_panel(api, answered)
        refused = api.submit(answered, surface, {"pick": "gamma", "words": MARKERS["value"]})
        assert refused["reason"] == "invalid-submission"
        accepted = api.submit(
            answered, surface, {"pick": "alpha", "words": MARKERS["value"]}, note=MARKERS["note"]
        )
        assert accepted["accepted"] is True
        dismissed = api.create_session()
        assert api.dismiss(dismissed, open_panel(api, dismissed))["dismissed"] is True
        bypassed = api.create_session()
        open_panel(api, bypassed)
        api.send(bypassed, MARKERS["message"])
        for sid in (answered, dismissed, bypassed):
            api.settled(sid)
        assert api.dismiss(answered, surface, new_id())["reason"] == "not-open"  # answered already
        assert api.get("/api/sessions/not*an*id").status_code == 400
        ws = open_socket(api, answered)
        try:
            assert value(base, "tasksurface_websocket_connections") == 1
        finally:
            close(ws)

    wait_for(lambda: value(base, "tasksurface_panels_total", event="bypassed") == 1)
    found, text = figures(base)

    def at(name: str, **labels: str) -> float:
        return found.get((name, tuple(sorted(labels.items()))), 0.0)

    assert at("tasksurface_panels_total", event="shown") == 3
    assert at("tasksurface_panels_total", event="submitted") == 1
    assert at("tasksurface_panels_total", event="dismissed") == 1
    assert at("tasksurface_panels_total", event="bypassed") == 1
    assert at("tasksurface_refusals_total", code="invalid-submission") == 1
    assert at("tasksurface_refusals_total", code="not-open") == 1
    assert at("tasksurface_refusals_total", code="invalid-id") == 1
    assert at("tasksurface_submit_durable_seconds_count") == 1
    assert 0 < at("tasksurface_submit_durable_seconds_sum") < 60
    assert (
        at("tasksurface_inbox_outcomes_total", outcome="committed") == 5
    )  # 3 panels asked, 1 answer, 1 bypass
    assert at("tasksurface_model_call_seconds_count") >= 5
    assert at("tasksurface_model_call_errors_total", kind="provider") == 0
    assert at("tasksurface_runner_queue_depth") == 0
    for marker in MARKERS.values():
        assert marker not in text
    assert "alpha" not in text and "gamma" not in text
    wait_for(lambda: value(base, "tasksurface_websocket_connections") == 0, timeout=30)
