"""The operator's path: the environment names of DESIGN.md select the backend; a panel opens, the
person answers it, and the next request carries that answer as readable text."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tasksurface.config import load_settings
from tasksurface.services.container import build_backend
from tasksurface.web.factory import create_app

from ..conftest import LiveServer, services_of
from ..support import Api
from .scenes import SURFACE_ARGS, kinds, system_for, text_of, tool, user
from .wire import API_KEY, MODEL, Call, Stream, WireServer


@pytest.fixture
def configured(
    database_url: str, wire: WireServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> Iterator[Api]:
    monkeypatch.setenv("TASKSURFACE_INSTANCE_PATH", str(tmp_path / "instance"))
    monkeypatch.setenv("TASKSURFACE_DATABASE_URL", database_url)
    monkeypatch.setenv("TASKSURFACE_SECRET_KEY", "test-secret-key")
    monkeypatch.setenv("TASKSURFACE_MODEL", "openai")
    monkeypatch.setenv("TASKSURFACE_TOOL_MODE", "native")
    monkeypatch.setenv("OPENAI_BASE_URL", wire.base_url)
    monkeypatch.setenv("OPENAI_API_KEY", API_KEY)
    monkeypatch.setenv("TASKSURFACE_OPENAI_MODEL", MODEL)
    app = create_app()
    server = LiveServer(app)
    try:
        with Api(server.url) as client:
            yield client
    finally:
        server.stop()
        services_of(app).stop()


def test_a_panel_opens_and_its_answer_reaches_the_model_as_readable_text(
    configured: Api, wire: WireServer
) -> None:
    api = configured
    wire.script(
        Stream(text=["Pick one:"], calls=[Call("call_colour_001", "show_task_surface", SURFACE_ARGS)])
    )
    sid = api.create_session()
    api.send(sid, "which colour for the logo?")
    api.settled(sid)
    active = api.projection(sid)["active"]
    assert active["callId"] == "call_colour_001"
    surface = api.get_active(sid, active["surfaceId"])
    assert surface["active"] is True and surface["model"]["title"] == "Pick a colour"

    wire.script(Stream(text=["Blue, then."]))
    assert api.submit(sid, active["surfaceId"], {"colour": "blue"})["accepted"]
    events = api.settled(sid)
    assert kinds(events)[-2:] == ["user/message", "assistant/message"]
    answer = text_of(events[-2])
    assert "Pick a colour" in answer and "Blue" in answer
    assert api.projection(sid)["active"] is None

    result = next(e for e in events if e["kind"] == "tool/result")
    assert wire.requests[-1].messages == [
        system_for("native"),
        user("which colour for the logo?"),
        {
            "role": "assistant",
            "content": "Pick one:",
            "tool_calls": [
                {
                    "id": "call_colour_001",
                    "type": "function",
                    "function": {"name": "show_task_surface", "arguments": SURFACE_ARGS},
                }
            ],
        },
        tool("call_colour_001", text_of(result)),
        user(answer),
    ]


def test_the_settings_come_from_the_environment_and_the_key_stays_secret(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TASKSURFACE_INSTANCE_PATH", str(tmp_path))
    monkeypatch.setenv("TASKSURFACE_MODEL", "openai")
    monkeypatch.setenv("OPENAI_BASE_URL", "http://127.0.0.1:9/v1")
    monkeypatch.setenv("OPENAI_API_KEY", "sk-very-secret")
    monkeypatch.setenv("TASKSURFACE_OPENAI_MODEL", "some-model")
    monkeypatch.setenv("TASKSURFACE_MODEL_TIMEOUT", "12.5")
    monkeypatch.setenv("TASKSURFACE_MODEL_MAX_RETRIES", "4")
    settings = load_settings()
    assert (settings.model, settings.openai_base_url, settings.openai_model) == (
        "openai",
        "http://127.0.0.1:9/v1",
        "some-model",
    )
    assert (settings.model_timeout, settings.model_max_retries) == (12.5, 4)
    assert settings.openai_api_key is not None
    assert settings.openai_api_key.get_secret_value() == "sk-very-secret"
    assert "sk-very-secret" not in repr(settings)


@pytest.mark.parametrize(
    ("missing", "message"),
    [("TASKSURFACE_OPENAI_MODEL", "TASKSURFACE_OPENAI_MODEL"), ("OPENAI_API_KEY", "OPENAI_API_KEY")],
)
def test_an_incomplete_openai_configuration_stops_the_start(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, missing: str, message: str
) -> None:
    monkeypatch.setenv("TASKSURFACE_INSTANCE_PATH", str(tmp_path))
    monkeypatch.setenv("TASKSURFACE_MODEL", "openai")
    monkeypatch.setenv("OPENAI_API_KEY", "sk-x")
    monkeypatch.setenv("TASKSURFACE_OPENAI_MODEL", "some-model")
    monkeypatch.delenv(missing)
    with pytest.raises(ValueError, match=message):
        build_backend(load_settings())
