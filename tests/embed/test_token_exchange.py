"""`GET /embed?token=`: a valid token names the team's user everywhere; a bad one creates nothing."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from typing import Any
from urllib.parse import urlsplit

import pytest
import sqlalchemy as sa
from flask import Flask

from tasksurface.store.tables import SessionRow

from ..conftest import LiveServer, services_of
from ..support import Api
from .tokens import ORIGIN, SECRET, PlainHttpApi, mint, other_algorithm, unsigned


@pytest.fixture
def app_config(database_url: str) -> dict[str, Any]:
    return {
        "database_url": database_url,
        "secret_key": "test-secret-key",
        "embed_secret": SECRET,
        "frame_ancestors": f"'self' {ORIGIN}",
    }


@pytest.fixture
def api(live_server: LiveServer) -> Iterator[Api]:
    with PlainHttpApi(live_server.url) as client:
        yield client


def sign_in(api: Api, token: str, **params: str) -> Any:
    return api.get("/embed", params={"token": token, **params}, allow_redirects=False)


def session_count(app: Flask) -> int:
    with services_of(app).database.read() as db:
        return int(db.scalar(sa.select(sa.func.count()).select_from(SessionRow)) or 0)


def test_a_valid_token_names_the_user_and_leaves_the_address_bar(api: Api) -> None:
    response = sign_in(api, mint("user-42", name="Ada"), origin=ORIGIN)
    assert response.status_code == 303
    assert urlsplit(response.headers["Location"]).path == "/" and "token" not in response.headers["Location"]
    page = api.get("/")
    assert page.status_code == 200 and "Signed in as Ada" in page.text


def test_the_same_sub_finds_the_same_sessions_in_a_fresh_browser(api: Api, live_server: LiveServer) -> None:
    sign_in(api, mint("user-42"))
    sid = api.create_session()
    with PlainHttpApi(live_server.url) as elsewhere:  # another browser or device: no cookie of its own yet
        assert elsewhere.get(f"/api/sessions/{sid}").status_code == 404
        sign_in(elsewhere, mint("user-42"))
        assert elsewhere.get(f"/api/sessions/{sid}").status_code == 200
        assert f"/sessions/{sid}" in elsewhere.get("/").text
    with PlainHttpApi(live_server.url) as someone_else:
        sign_in(someone_else, mint("user-43"))
        assert someone_else.get(f"/api/sessions/{sid}").status_code == 404
        assert f"/sessions/{sid}" not in someone_else.get("/").text


def test_a_new_token_replaces_the_anonymous_identity(api: Api) -> None:
    anonymous = api.create_session()
    sign_in(api, mint("user-7"))
    assert api.get(f"/api/sessions/{anonymous}").status_code == 404
    assert f"/sessions/{anonymous}" not in api.get("/").text


def test_a_token_a_little_past_expiry_is_still_taken(api: Api) -> None:
    """The leeway covers clocks that disagree by a few seconds, not stale tokens."""
    assert sign_in(api, mint(ttl=-10)).status_code == 303


BROKEN: dict[str, Callable[[], str]] = {
    "token.expired": lambda: mint(ttl=-120),
    "token.not-yet-valid": lambda: mint(nbf=int(time.time()) + 600),
    "token.bad-signature": lambda: mint(secret="another-secret-that-is-long-enough-0123456789"),
    "token.algorithm": unsigned,
    "token.malformed": lambda: "not-a-jwt",
    "token.missing-claim": lambda: mint(ttl=300, exp=None),
    "token.invalid-claim": lambda: mint(sub=42),
}


@pytest.mark.parametrize("code", sorted(BROKEN))
def test_a_broken_token_gets_a_page_with_its_code_and_creates_nothing(
    api: Api, app: Flask, code: str
) -> None:
    response = sign_in(api, BROKEN[code]())
    assert response.status_code == 401
    assert response.headers["Content-Type"].startswith("text/html")
    assert f'data-code="{code}"' in response.text and 'href="/"' in response.text
    assert "Set-Cookie" not in response.headers  # no identity was made for anyone
    assert session_count(app) == 0


def test_every_other_algorithm_is_refused_even_with_the_right_key(api: Api) -> None:
    response = sign_in(api, other_algorithm())
    assert response.status_code == 401 and 'data-code="token.algorithm"' in response.text


def test_a_refused_token_leaves_the_signed_in_user_as_they_were(api: Api) -> None:
    sign_in(api, mint("user-42"))
    sid = api.create_session()
    assert sign_in(api, mint("user-99", ttl=-300)).status_code == 401
    assert api.get(f"/api/sessions/{sid}").status_code == 200


def test_without_a_token_the_embed_address_is_refused_when_tokens_are_required(api: Api) -> None:
    response = api.get("/embed", allow_redirects=False)
    assert response.status_code == 401 and 'data-code="token.missing"' in response.text


def test_an_unlisted_embedding_origin_is_refused(api: Api, app: Flask) -> None:
    response = sign_in(api, mint(), origin="https://evil.example")
    assert response.status_code == 403 and 'data-code="embed.origin-not-listed"' in response.text
    assert "Set-Cookie" not in response.headers


def test_the_refusal_page_speaks_the_readers_language(api: Api) -> None:
    chinese = {"Accept-Language": "zh-CN"}
    response = api.get("/embed", params={"token": mint(ttl=-300)}, headers=chinese, allow_redirects=False)
    assert response.status_code == 401 and 'lang="zh-Hans"' in response.text
    assert "返回" in response.text and 'data-code="token.expired"' in response.text


def test_the_language_and_theme_asked_for_are_kept(api: Api) -> None:
    sign_in(api, mint(), origin=ORIGIN, lang="zh", theme="dark")
    page = api.get("/").text
    assert 'lang="zh-Hans"' in page and 'data-embed-theme="dark"' in page
    assert f'data-embed-origin="{ORIGIN}"' in page


def test_the_identity_cookie_survives_a_cross_site_frame_when_embedding_is_on(api: Api) -> None:
    response = sign_in(api, mint(), origin=ORIGIN)
    cookie = response.headers["Set-Cookie"]
    assert "tasksurface_session=" in cookie
    for attribute in ("Secure", "HttpOnly", "SameSite=None", "Partitioned"):
        assert attribute in cookie.split("; "), cookie
    policy = api.get("/").headers["Content-Security-Policy"]
    assert f"frame-ancestors 'self' {ORIGIN}" in policy


def test_tokens_are_refused_when_no_secret_is_configured(
    live_server: LiveServer, tmp_path: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tasksurface.web.factory import create_app

    monkeypatch.setenv("TASKSURFACE_INSTANCE_PATH", str(tmp_path / "other"))
    other = create_app({"database_url": f"sqlite:///{tmp_path / 'other.sqlite3'}", "secret_key": "k"})
    try:
        server = LiveServer(other)
        with Api(server.url) as api:
            response = sign_in(api, mint())
            assert response.status_code == 401 and 'data-code="embed.off"' in response.text
            # Without embedding, the cookie stays a first-party Lax one.
            cookie = api.get("/").headers["Set-Cookie"]
            assert "SameSite=Lax" in cookie and "Partitioned" not in cookie
        server.stop()
    finally:
        services_of(other).stop()


def test_the_cross_site_guard_still_refuses_other_sites_even_a_listed_one(api: Api) -> None:
    """The cookie now travels with cross-site requests, so the guard is what keeps a form on
    another site (even the embedding one) from posting into a session."""
    sign_in(api, mint("user-42"), origin=ORIGIN)
    sid = api.create_session()
    for headers in ({"Sec-Fetch-Site": "cross-site"}, {"Origin": ORIGIN}):
        form = api.post(f"/sessions/{sid}/messages", headers=headers, data={"text": "from elsewhere"})
        assert form.status_code == 403 and 'data-code="cross-site-request"' in form.text
        call = api.post(f"/api/sessions/{sid}/messages", {"text": "from elsewhere"}, headers=headers)
        assert call.status_code == 403 and call.json()["error"]["code"] == "cross-site-request"
    assert api.events(sid) == [] and api.queue(sid) == []


def test_the_token_may_open_one_of_the_users_sessions_directly(api: Api) -> None:
    sign_in(api, mint("user-42"))
    sid = api.create_session()
    opened = sign_in(api, mint("user-42"), session=sid)
    assert opened.status_code == 303 and urlsplit(opened.headers["Location"]).path == f"/sessions/{sid}"
    assert api.get(f"/sessions/{sid}").status_code == 200
    odd = sign_in(api, mint("user-42"), session="../../etc")
    assert urlsplit(odd.headers["Location"]).path == "/"  # not an id: the user's sessions instead
    with PlainHttpApi(api.base) as other:  # someone else's session id is no way in
        sign_in(other, mint("user-43"), session=sid)
        assert other.get(f"/sessions/{sid}").status_code == 404


def test_signing_out_forgets_the_user_and_another_site_cannot_sign_anyone_out(api: Api) -> None:
    sign_in(api, mint("user-42"))
    sid = api.create_session()
    refused = api.post("/embed/sign-out", headers={"Sec-Fetch-Site": "cross-site"})
    assert refused.status_code == 403 and api.get(f"/api/sessions/{sid}").status_code == 200
    assert api.post("/embed/sign-out", headers={"Sec-Fetch-Site": "same-origin"}).status_code == 204
    assert api.get(f"/api/sessions/{sid}").status_code == 404
    sign_in(api, mint("user-42"))
    assert api.get(f"/api/sessions/{sid}").status_code == 200
