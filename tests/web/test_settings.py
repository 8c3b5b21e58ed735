"""Settings an operator can trust: every one documented, every wrong value named, limits honoured."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tasksurface.config import ConfigurationError, Settings, all_env_names, load_settings
from tasksurface.domain.limits import Limits
from tasksurface.web.factory import create_app

from ..conftest import LiveServer, services_of
from ..support import Api, new_id

README = (Path(__file__).resolve().parents[2] / "README.md").read_text()
TABLE_NAMES = set(re.findall(r"^\| `([A-Z][A-Z0-9_]+)` \|", README, re.MULTILINE))
LIMIT_ROWS = dict(re.findall(r"^\| `([a-z_]+)` \| [^|]+ \| `(\d+)` \|$", README, re.MULTILINE))


def test_every_setting_has_a_row_in_the_readme() -> None:
    missing = [name for name in all_env_names() if name not in TABLE_NAMES]
    assert not missing, f"settings missing from the README's tables: {missing}"


def test_every_setting_row_of_the_readme_is_a_real_setting() -> None:
    known = set(all_env_names())
    stale = sorted(n for n in TABLE_NAMES if n.startswith("TASKSURFACE_") and n not in known)
    assert not stale, f"the README documents settings that do not exist: {stale}"


def test_every_limit_is_documented_with_its_default() -> None:
    defaults = {name: str(info.default) for name, info in Limits.model_fields.items()}
    assert defaults == LIMIT_ROWS


@pytest.fixture
def clean_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[pytest.MonkeyPatch]:
    for name in all_env_names():
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("TASKSURFACE_INSTANCE_PATH", str(tmp_path))
    yield monkeypatch


@pytest.mark.parametrize(
    ("name", "value", "accepts"),
    [
        ("TASKSURFACE_TOOL_MODE", "sometimes", "'native', 'both' or 'code'"),
        ("TASKSURFACE_MODEL", "gpt", "'scripted' or 'openai'"),
        ("TASKSURFACE_ENV", "prod", "'development' or 'production'"),
        ("TASKSURFACE_AUTO_MIGRATE", "perhaps", "valid boolean"),
        ("TASKSURFACE_TASK_SURFACE", "2", "valid boolean"),
        ("TASKSURFACE_MAX_BODY_BYTES", "1MB", "valid integer"),
        ("TASKSURFACE_MAX_BODY_BYTES", "0", "greater than 0"),
        ("TASKSURFACE_HISTORY_PAGE", "50000", "less than or equal to 10000"),
        ("TASKSURFACE_MODEL_TIMEOUT", "-1", "greater than 0"),
        ("TASKSURFACE_MODEL_MAX_RETRIES", "11", "less than or equal to 10"),
        ("TASKSURFACE_LIMITS", '{"fields": 0}', "greater than 0"),
        ("TASKSURFACE_LIMITS", '{"feilds": 8}', "Extra inputs are not permitted"),
        ("TASKSURFACE_LIMITS", "fields=8", "expected a JSON object"),
    ],
)
def test_a_wrong_value_refuses_to_start_naming_the_setting(
    clean_env: pytest.MonkeyPatch, name: str, value: str, accepts: str
) -> None:
    clean_env.setenv(name, value)
    with pytest.raises(ConfigurationError) as refusal:
        create_app()
    message = str(refusal.value)
    assert message.startswith(f"invalid setting: {name}"), message
    assert accepts in message


def test_a_secret_is_never_repeated_in_a_refusal(clean_env: pytest.MonkeyPatch) -> None:
    clean_env.setenv("OPENAI_API_KEY", "sk-secret-value")
    clean_env.setenv("TASKSURFACE_MODEL_TIMEOUT", "soon")
    with pytest.raises(ConfigurationError) as refusal:
        load_settings()
    assert "sk-secret-value" not in str(refusal.value)


def test_empty_values_count_as_unset(clean_env: pytest.MonkeyPatch) -> None:
    clean_env.setenv("TASKSURFACE_TOOL_MODE", "")
    clean_env.setenv("TASKSURFACE_MAX_BODY_BYTES", "")
    settings = load_settings()
    assert settings.tool_mode == "native"
    assert settings.max_body_bytes == 1048576


def test_environment_names_reach_their_fields(clean_env: pytest.MonkeyPatch) -> None:
    clean_env.setenv("TASKSURFACE_ENV", "production")
    clean_env.setenv("TASKSURFACE_SECRET_KEY", "operator-key")
    clean_env.setenv("OPENAI_BASE_URL", "http://127.0.0.1:9/v1")
    clean_env.setenv("OPENAI_API_KEY", "sk-x")
    clean_env.setenv("TASKSURFACE_OPENAI_MODEL", "m")
    clean_env.setenv("TASKSURFACE_TASK_SURFACE", "off")
    clean_env.setenv("TASKSURFACE_LIMITS", '{"fields": 3, "options": 7}')
    settings = load_settings()
    assert settings.environment == "production" and settings.secret_key == "operator-key"
    assert settings.openai_base_url == "http://127.0.0.1:9/v1" and settings.openai_model == "m"
    assert settings.openai_api_key is not None and settings.openai_api_key.get_secret_value() == "sk-x"
    assert settings.task_surface is False
    assert (settings.limits.fields, settings.limits.options, settings.limits.blocks) == (3, 7, 64)


def test_overrides_win_over_the_environment(clean_env: pytest.MonkeyPatch) -> None:
    clean_env.setenv("TASKSURFACE_TOOL_MODE", "code")
    assert load_settings({"tool_mode": "both"}).tool_mode == "both"
    assert isinstance(load_settings(), Settings)


# -- non-default limits, through the real tool and the real submission path --------------------

SMALL_LIMITS = {"fields": 2, "options": 3, "note_chars": 10, "short_text_chars": 20}


def _model(fields: list[dict[str, Any]], title: str = "Small") -> dict[str, Any]:
    return {"version": 1, "title": title, "sections": [], "fields": fields, "submit": {"label": "Send"}}


def _text(field_id: str) -> dict[str, Any]:
    return {"kind": "text", "id": field_id, "label": field_id}


@pytest.fixture
def small(database_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Api]:
    monkeypatch.setenv("TASKSURFACE_INSTANCE_PATH", str(tmp_path / "instance"))
    monkeypatch.setenv("TASKSURFACE_LIMITS", json.dumps(SMALL_LIMITS))
    app = create_app({"database_url": database_url, "secret_key": "test-secret-key"})
    server = LiveServer(app)
    try:
        with Api(server.url) as api:
            yield api
    finally:
        server.stop()
        services_of(app).stop()


def _refusal(result: dict[str, Any]) -> dict[str, Any]:
    assert result["payload"]["ok"] is False, result
    text = result["payload"]["content"][0]["text"]
    assert text.startswith("error: "), text
    problem: dict[str, Any] = json.loads(text.removeprefix("error: "))
    return problem


def test_the_tool_refuses_what_passes_only_the_configured_limits(small: Api) -> None:
    sid = small.create_session()
    problem = _refusal(small.show_model(sid, _model([_text("a"), _text("b"), _text("c")])))
    assert problem == {
        "code": "surface.limit",
        "message": "3 fields; the limit fields is 2",
        "where": "model.fields",
    }
    options = [{"id": f"o{i}", "label": f"Option {i}"} for i in range(4)]
    problem = _refusal(
        small.show_model(sid, _model([{"kind": "choice", "id": "c", "label": "C", "options": options}]))
    )
    assert problem == {
        "code": "surface.limit",
        "message": "4 options; the limit options is 3",
        "where": "model.fields.0.options",
    }
    problem = _refusal(small.show_model(sid, _model([_text("a")], title="A title of 21 chars!!")))
    assert problem == {
        "code": "surface.limit",
        "message": "text is 21 characters; the limit short_text_chars is 20",
        "where": "model.title",
    }
    assert small.projection(sid)["active"] is None  # nothing opened


def test_a_submission_is_held_to_the_configured_limits(small: Api) -> None:
    sid = small.create_session()
    result = small.show_model(sid, _model([_text("a"), _text("b")]))
    assert result["payload"]["ok"] is True, result
    surface = small.projection(sid)["active"]["surfaceId"]
    refused = small.submit(sid, surface, {"a": "x", "b": "y"}, note="eleven char")
    assert refused["accepted"] is False and refused["reason"] == "invalid-submission"
    assert refused["problems"] == [
        {
            "code": "submission.invalid-note",
            "message": "note must be text of at most 10 characters",
            "where": "note",
        }
    ]
    accepted = small.submit(sid, surface, {"a": "x", "b": "y"}, note="ten chars!", submission_id=new_id())
    assert accepted["accepted"] is True
    [message] = [e for e in small.settled(sid) if e["payload"].get("messageId") == accepted["messageId"]]
    assert message["payload"]["content"] == [
        {"type": "text", "text": "Task Surface: Small\n- a: x\n- b: y\n- Note: ten chars!"}
    ]
