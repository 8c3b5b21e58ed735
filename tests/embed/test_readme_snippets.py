"""The README's token minting snippets, run as a team would run them, make tokens /embed takes."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from ..conftest import LiveServer
from ..support import Api
from .tokens import SECRET, PlainHttpApi

README = Path(__file__).resolve().parents[2] / "README.md"


def snippet(language: str, starts: str) -> str:
    blocks: list[str] = re.findall(rf"```{language}\n(.*?)```", README.read_text(), flags=re.S)
    [found] = [b for b in blocks if starts in b]
    return found


@pytest.fixture
def app_config(database_url: str) -> dict[str, Any]:
    return {"database_url": database_url, "secret_key": "test-secret-key", "embed_secret": SECRET}


@pytest.fixture
def api(live_server: LiveServer) -> Iterator[Api]:
    with PlainHttpApi(live_server.url) as client:
        yield client


def signed_in_as(api: Api, token: str, name: str) -> bool:
    response = api.get("/embed", params={"token": token}, allow_redirects=False)
    return response.status_code == 303 and f"Signed in as {name}" in api.get("/").text


def test_the_python_snippet_mints_a_token_the_host_takes(api: Api) -> None:
    scope: dict[str, Any] = {"EMBED_SECRET": SECRET}
    exec(snippet("python", "def chat_token"), scope)  # the README's code, as written
    assert signed_in_as(api, scope["chat_token"]("user-42", "Ada"), "Ada")


def test_the_node_snippet_mints_a_token_the_host_takes(api: Api) -> None:
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed")
    program = snippet("js", "function chatToken") + '\nconsole.log(chatToken("user-42", "Grace"));\n'
    result = subprocess.run(
        [node, "-e", program],
        env={**os.environ, "TASKSURFACE_EMBED_SECRET": SECRET},
        capture_output=True,
        text=True,
        timeout=30,
        check=True,
    )
    assert signed_in_as(api, result.stdout.strip(), "Grace")
