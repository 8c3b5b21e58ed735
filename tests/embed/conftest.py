"""Fixtures of a team's site that embeds the app: its host server, and the app configured for it."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from ..browser.conftest import browser  # noqa: F401  (the real Chromium of the browser tests)
from ..server_process import free_port
from .host_site import HostSite


@pytest.fixture
def host_port() -> int:
    return free_port()


@pytest.fixture
def host_site(host_port: int) -> Iterator[HostSite]:
    site = HostSite(host_port)
    yield site
    site.stop()


@pytest.fixture
def listed_origins(host_port: int) -> list[str]:
    """The team's sites: `localhost` and `second.localhost` (another site) on the host port."""
    return [f"http://localhost:{host_port}", f"http://second.localhost:{host_port}"]


@pytest.fixture
def app_config(database_url: str, listed_origins: list[str]) -> dict[str, Any]:
    return {
        "database_url": database_url,
        "secret_key": "test-secret-key",
        "frame_ancestors": " ".join(["'self'", *listed_origins]),
    }
