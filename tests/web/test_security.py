"""Only a session's owner sees it and acts on it; other sites cannot act through a browser."""

from __future__ import annotations

import base64
import hashlib
import json
import re
from pathlib import Path
from typing import Any

import pytest
import requests
import rjsmin
import websocket
from flask import Flask

from tasksurface.config import InsecureConfiguration, load_settings

from ..conftest import LiveServer, services_of
from ..support import Api, new_id

FOREIGN = "https://evil.example"
CONNECT = rjsmin.jsmin((Path(__file__).resolve().parents[2] / "static" / "js" / "connect.js").read_text())
"""The early socket's script as the page carries it: the one inline script the policy allows."""


def _routes(sid: str, surface: str) -> list[tuple[str, str, Any]]:
    base = f"/api/sessions/{sid}"
    return [
        ("GET", base, None),
        ("GET", f"{base}/events", None),
        ("GET", f"{base}/queue", None),
        ("GET", f"{base}/task-surface", None),
        ("GET", f"{base}/task-surfaces/{surface}", None),
        ("POST", f"{base}/messages", {"text": "hello"}),
        ("POST", f"{base}/agent", {"paused": True}),
        ("POST", f"{base}/queue/in_someItem0001", {"action": "remove"}),
        ("POST", f"{base}/task-surfaces/{surface}/submit", {"submissionId": new_id(), "values": {}}),
        ("POST", f"{base}/task-surfaces/{surface}/dismiss", {"dismissalId": new_id()}),
        ("POST", f"{base}/fork", {"atSeq": 0}),
        ("POST", f"{base}/rewind", {"toSeq": 0}),
        ("GET", f"/sessions/{sid}", None),
        ("GET", f"/sessions/{sid}/dock", None),
    ]


def test_another_identity_gets_404_everywhere_and_changes_nothing(api: Api, live_server: LiveServer) -> None:
    sid = api.create_session()
    surface = api.show_surface(sid, "review")
    before = api.events(sid)
    with Api(live_server.url) as stranger:
        for method, path, body in _routes(sid, surface):
            response = stranger.get(path) if method == "GET" else stranger.post(path, body)
            assert response.status_code == 404, (method, path, response.status_code)
            if path.startswith("/api/"):
                assert response.json()["error"]["code"] == "session-not-found"
        # The stranger's own index does not list it, and their socket is refused.
        assert sid not in stranger.get("/").text
        with stranger.socket(sid) as socket:
            assert socket.receive()["error"]["code"] == "session-not-found"
    assert api.events(sid) == before and api.projection(sid)["active"]["surfaceId"] == surface
    assert sid in api.get("/").text


def test_a_session_id_alone_is_not_a_key(api: Api, live_server: LiveServer) -> None:
    sid = api.create_session()
    with Api(live_server.url) as stranger:
        stranger.create_session()  # the stranger has an identity of their own
        assert stranger.get(f"/api/sessions/{sid}").status_code == 404
        unknown = stranger.get("/api/sessions/s_doesNotExist01")
        # An existing session and a missing one answer the same: no hint that it exists.
        assert unknown.status_code == 404 and unknown.json() == stranger.get(f"/api/sessions/{sid}").json()


def test_the_identity_cookie_is_signed_httponly_and_same_site(api: Api) -> None:
    api.create_session()
    [cookie] = [c for c in api.http.cookies if c.name == "tasksurface_session"]
    assert cookie.has_nonstandard_attr("HttpOnly") and cookie.get_nonstandard_attr("SameSite") == "Lax"
    assert not cookie.secure  # plain HTTP here
    assert cookie.value is not None
    tampered = cookie.value[:-5] + ("AAAAA" if not cookie.value.endswith("AAAAA") else "BBBBB")
    response = requests.get(api.base + "/", cookies={"tasksurface_session": tampered}, timeout=10)
    # A tampered cookie is just no identity: a fresh one is issued, and it sees none of the sessions.
    assert response.status_code == 200 and "tasksurface_session=" in response.headers["Set-Cookie"]
    assert response.cookies["tasksurface_session"] not in (tampered, cookie.value)
    assert '<li><a href="/sessions/' not in response.text


def test_a_kept_identity_is_renewed_by_pages_not_by_every_post(app: Flask) -> None:
    client = app.test_client()
    created = client.post("/api/sessions", json={})
    assert "tasksurface_session=" in created.headers["Set-Cookie"]  # a new identity is sent
    assert created.json is not None
    sid = created.json["sessionId"]
    posted = client.post(f"/api/sessions/{sid}/messages", json={"text": "hello"})
    assert posted.status_code == 202 and "Set-Cookie" not in posted.headers
    page = client.get(f"/sessions/{sid}")
    assert page.status_code == 200 and "Expires=" in page.headers["Set-Cookie"]  # its lifetime starts again


def test_the_cookie_is_secure_over_https(app: Flask) -> None:
    client = app.test_client()
    response = client.post("/api/sessions", json={}, base_url="https://chat.example")
    assert response.status_code == 201
    header = response.headers["Set-Cookie"]
    assert "Secure" in header and "HttpOnly" in header and "SameSite=Lax" in header


@pytest.mark.parametrize(
    "headers",
    [
        {"Sec-Fetch-Site": "cross-site"},
        {"Sec-Fetch-Site": "same-site"},
        {"Origin": FOREIGN},
        {"Origin": "null"},
        {"Sec-Fetch-Site": "cross-site", "Origin": "http://127.0.0.1"},
    ],
)
def test_state_changing_requests_from_other_sites_are_refused(api: Api, headers: dict[str, str]) -> None:
    sid = api.create_session()
    before = api.events(sid)
    for path, body in (
        (f"/api/sessions/{sid}/messages", {"text": "hi"}),
        ("/api/sessions", {}),
        (f"/sessions/{sid}/messages", None),
    ):
        response = api.post(path, body, headers=headers, data=None if body else {"text": "hi"})
        assert response.status_code == 403, (path, response.status_code)
        if path.startswith("/api/"):
            assert response.json()["error"]["code"] == "cross-site-request"
        else:  # a person who followed another site's form gets a page, not JSON
            assert response.headers["Content-Type"].startswith("text/html")
            assert 'data-code="cross-site-request"' in response.text
    assert api.events(sid) == before and api.queue(sid) == []


def test_same_origin_and_non_browser_requests_are_allowed(api: Api) -> None:
    sid = api.create_session()
    assert api.post(
        f"/api/sessions/{sid}/messages", {"text": "a"}, headers={"Sec-Fetch-Site": "same-origin"}
    ).ok
    assert api.post(f"/api/sessions/{sid}/messages", {"text": "b"}, headers={"Origin": api.base}).ok
    assert api.post(f"/api/sessions/{sid}/messages", {"text": "c"}).ok  # no browser headers at all


def test_a_websocket_handshake_from_another_site_is_refused_without_upgrade(api: Api) -> None:
    sid = api.create_session()
    url = api.base.replace("http://", "ws://") + f"/ws/sessions/{sid}"
    with pytest.raises(websocket.WebSocketBadStatusException) as refused:
        websocket.create_connection(url, origin=FOREIGN, cookie=api.cookie(), timeout=5)
    assert refused.value.status_code == 403
    with api.socket(sid) as same_origin:
        assert same_origin.receive()["type"] == "hello"


def test_responses_carry_a_strict_content_security_policy(api: Api) -> None:
    sid = api.create_session()
    for path in ("/", f"/sessions/{sid}", f"/api/sessions/{sid}"):
        response = api.get(path)
        directives = [
            part.strip().partition(" ") for part in response.headers["Content-Security-Policy"].split(";")
        ]
        policy = {name: value for name, _, value in directives}
        assert policy["script-src"] == f"'self' {_hash_source(CONNECT)}"
        assert "unsafe" not in response.headers["Content-Security-Policy"]
        assert policy["object-src"] == "'none'" and policy["base-uri"] == "'none'"
        assert policy["img-src"] == "'self' data:"
        assert policy["connect-src"].startswith("'self'") and "ws://" in policy["connect-src"]
        assert policy["frame-ancestors"] == "'self'"
        assert response.headers["X-Content-Type-Options"] == "nosniff"
        assert response.headers["Referrer-Policy"] == "no-referrer"
        assert response.headers["Cache-Control"] == "no-store"
    page = api.get(f"/sessions/{sid}").text
    # The one inline script is the early socket, whose text is exactly what the hash allows.
    inline = re.findall(r"<script( [^>]*)?>(.*?)</script>", page, re.S)
    scripts = [
        text
        for attributes, text in inline
        if "src=" not in attributes and "application/json" not in attributes
    ]
    assert scripts == [CONNECT] and " on" + "click=" not in page
    assert "</" not in CONNECT


def _hash_source(text: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode()).digest()).decode() + "'"


def test_frame_ancestors_come_from_the_setting(
    app_config: dict[str, Any], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TASKSURFACE_INSTANCE_PATH", str(tmp_path))
    from tasksurface.web.factory import create_app

    app = create_app({**app_config, "frame_ancestors": "'self' https://intranet.example"})
    try:
        response = app.test_client().get("/")
        assert (
            "frame-ancestors 'self' https://intranet.example" in response.headers["Content-Security-Policy"]
        )
    finally:
        services_of(app).stop()


def test_bodies_over_the_limit_get_413(api: Api) -> None:
    sid = api.create_session()
    response = api.post(f"/api/sessions/{sid}/messages", {"text": "x" * (1024 * 1024 + 1)})
    assert response.status_code == 413


def test_behind_an_auth_proxy_the_header_names_the_user(
    app_config: dict[str, Any], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TASKSURFACE_INSTANCE_PATH", str(tmp_path))
    from tasksurface.web.factory import create_app

    app = create_app({**app_config, "identity_header": "X-Remote-User"})
    try:
        client = app.test_client()
        assert client.post("/api/sessions", json={}).status_code == 401
        created = client.post("/api/sessions", json={}, headers={"X-Remote-User": "mei"})
        sid = created.json["sessionId"]  # type: ignore[index]
        assert client.get(f"/api/sessions/{sid}", headers={"X-Remote-User": "mei"}).status_code == 200
        assert client.get(f"/api/sessions/{sid}", headers={"X-Remote-User": "tom"}).status_code == 404
        # The cookie plays no part: without the header there is no user at all.
        assert client.get(f"/api/sessions/{sid}").status_code == 401
    finally:
        services_of(app).stop()


def test_production_refuses_the_development_key(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TASKSURFACE_INSTANCE_PATH", str(tmp_path))
    monkeypatch.delenv("TASKSURFACE_SECRET_KEY", raising=False)
    monkeypatch.setenv("TASKSURFACE_ENV", "production")
    with pytest.raises(InsecureConfiguration, match="TASKSURFACE_SECRET_KEY"):
        load_settings()
    monkeypatch.setenv("TASKSURFACE_SECRET_KEY", "a-real-key-from-the-operator")
    assert load_settings().secret_key == "a-real-key-from-the-operator"


def test_an_oversized_websocket_frame_closes_the_connection(api: Api) -> None:
    sid = api.create_session()
    with api.socket(sid) as socket:
        assert socket.receive()["type"] == "hello"
        socket.ws.send("x" * (64 * 1024 + 1))
        for _ in range(5):  # pushes may still arrive; then the close
            try:
                if socket.ws.recv() == "":
                    break
            except (websocket.WebSocketConnectionClosedException, ConnectionError):
                break
        assert not socket.ws.connected
        socket.ws.shutdown()  # type: ignore[no-untyped-call]  # release the client end too
    with api.socket(sid) as again:  # the server is fine; only that connection ended
        assert again.receive()["type"] == "hello"


def test_every_rpc_frame_is_checked_against_the_owner(api: Api, live_server: LiveServer) -> None:
    sid = api.create_session()
    surface = api.show_surface(sid, "plan")
    with api.socket(sid) as socket:
        socket.receive()
        answer = socket.call("taskSurface.getActive", {"surfaceId": surface})
        assert answer["result"]["active"] is True
    with Api(live_server.url) as stranger:
        stranger.create_session()
        stolen = websocket.create_connection(
            api.base.replace("http://", "ws://") + f"/ws/sessions/{sid}", cookie=stranger.cookie(), timeout=5
        )
        try:
            message = json.loads(stolen.recv())
            assert message["type"] == "error" and message["error"]["code"] == "session-not-found"
        finally:
            stolen.close()
