"""People get small pages in their language with a way back; the JSON API keeps its errors."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
import requests

from tasksurface.web.factory import create_app

from ..conftest import LiveServer, services_of
from ..support import Api

UNKNOWN = "/sessions/s_doesNotExist01"


def is_page(response: requests.Response, status: int, code: str) -> bool:
    headers = response.headers
    text = response.text
    return (
        response.status_code == status
        and headers["Content-Type"].startswith("text/html")
        and f'data-code="{code}"' in text
        and 'href="/"' in text
    )


def test_an_unknown_session_page_is_a_page_with_a_way_back(api: Api) -> None:
    response = api.get(UNKNOWN)
    assert is_page(response, 404, "session-not-found")
    assert "Nothing here" in response.text and "Back to your sessions" in response.text
    chinese = api.get(UNKNOWN, headers={"Accept-Language": "zh-CN,zh;q=0.9"})
    assert is_page(chinese, 404, "session-not-found")
    assert 'lang="zh-Hans"' in chinese.text
    assert "这里什么也没有" in chinese.text and "返回你的会话" in chinese.text


def test_an_unknown_address_is_a_page_and_the_api_keeps_json(api: Api) -> None:
    assert is_page(api.get("/no/such/page"), 404, "not-found")
    for path, code in ((f"/api{UNKNOWN}", "session-not-found"), ("/api/no/route", "not-found")):
        response = api.get(path)
        assert response.status_code == 404 and response.json()["error"]["code"] == code


def test_a_malformed_id_in_a_page_address_is_a_page(api: Api) -> None:
    response = api.get("/sessions/bad!id")
    assert is_page(response, 400, "invalid-id")


@pytest.fixture
def proxied(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, database_url: str) -> Iterator[LiveServer]:
    monkeypatch.setenv("TASKSURFACE_INSTANCE_PATH", str(tmp_path / "proxied"))
    app = create_app({"database_url": database_url, "secret_key": "k", "identity_header": "X-Forwarded-User"})
    server = LiveServer(app)
    yield server
    server.stop()
    services_of(app).stop()


def test_without_the_proxy_header_a_page_says_who_you_are_is_unknown(proxied: LiveServer) -> None:
    with Api(proxied.url) as api:
        assert is_page(api.get("/"), 401, "unauthenticated")
        response = api.post("/api/sessions", {})
        assert response.status_code == 401 and response.json()["error"]["code"] == "unauthenticated"
        assert api.get("/", headers={"X-Forwarded-User": "ada"}).status_code == 200


def test_a_refused_form_says_what_was_wrong_in_the_page_language(api: Api) -> None:
    sid = api.create_session()
    too_long = {"text": "x" * 32_001}
    chinese = api.post(f"/sessions/{sid}/messages", data=too_long, headers={"Accept-Language": "zh-CN"})
    assert is_page(chinese, 400, "message-too-long")
    assert "消息超出了本聊天允许的长度" in chinese.text and "at most" not in chinese.text
    english = api.post(f"/sessions/{sid}/messages", data=too_long, headers={"Accept-Language": "en"})
    assert is_page(english, 400, "message-too-long")
    assert "the message is longer than this chat takes" in english.text
    # A refusal the page has no words of its own for keeps the server's (English) words.
    chinese_reader = {"Accept-Language": "zh-CN"}
    bad = api.post(f"/sessions/{sid}/queue/bad!id", data={"action": "remove"}, headers=chinese_reader)
    assert is_page(bad, 400, "invalid-id")
    assert "must be 8-64 characters" in bad.text
