"""The app with the OpenAI-compatible backend, pointed at a local wire server the test scripts."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from ..browser.conftest import browser as browser  # the real Chromium, for the page test
from .wire import API_KEY, MODEL, WireServer


@pytest.fixture
def wire() -> Iterator[WireServer]:
    server = WireServer()
    yield server
    server.stop()


@pytest.fixture
def tool_mode() -> str:
    """Parametrize `tool_mode` directly to run a test in another mode."""
    return "native"


@pytest.fixture
def model_settings() -> dict[str, Any]:
    """Parametrize (or override) to change timeouts and retries for one test."""
    return {}


@pytest.fixture
def app_config(
    database_url: str, wire: WireServer, tool_mode: str, model_settings: dict[str, Any]
) -> dict[str, Any]:
    return {
        "database_url": database_url,
        "secret_key": "test-secret-key",
        "model": "openai",
        "tool_mode": tool_mode,
        "openai_base_url": wire.base_url,
        "openai_api_key": API_KEY,
        "openai_model": MODEL,
        "model_timeout": 5.0,
        "model_max_retries": 2,
        **model_settings,
    }
