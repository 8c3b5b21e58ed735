"""The page's behaviours travel as one bundle and its stylesheet as one file, each named by its
content, so a returning visitor's browser asks for neither."""

from __future__ import annotations

import re
from pathlib import Path

import brotli
import rcssmin

from ..support import Api

STATIC = Path(__file__).resolve().parents[2] / "static"
JS = STATIC / "js"
FOREVER = "public, max-age=31536000, immutable"


def _script_urls(api: Api, path: str) -> list[str]:
    page = api.get(path)
    assert page.status_code == 200
    return re.findall(r'<script src="([^"]+)"', page.text)


def test_the_session_page_loads_its_behaviours_as_one_hashed_bundle(api: Api) -> None:
    sid = api.create_session()
    urls = _script_urls(api, f"/sessions/{sid}")
    # One file in all: the theme switch travels in the bundle, not in a file of its own.
    assert len(urls) == 1
    assert re.fullmatch(r"/assets/session\.[0-9a-f]{16}\.js", urls[0])
    response = api.get(urls[0])
    assert response.status_code == 200
    assert response.headers["Content-Type"].startswith("text/javascript")
    assert response.headers["Cache-Control"] == FOREVER
    body = response.text
    for name in (
        "page.js",
        "drafts.js",
        "dock_fields.js",
        "dock_size.js",
        "dock.js",
        "question.js",
        "live.js",
        "order_drag.js",
        "theme.js",
    ):
        assert _first_statement(name) in body, name
    # The bus comes first: every other behaviour reads it when it loads.
    assert body.index("window.TaskSurfacePage={") < body.index("page.drafts={")
    # The dock's fields and size load before the dock, which uses them as it mounts its panel.
    assert body.index("page.dockFields={") < body.index("page.dock={")
    assert body.index("page.dockSize={") < body.index("page.dock={")


def _first_statement(name: str) -> str:
    """The first line of code of a behaviour, as it reads once spaces are dropped."""
    lines = (JS / name).read_text().splitlines()
    code = next(line.strip() for line in lines if line.strip() and not line.strip().startswith("//"))
    return code.replace(" ", "")


def test_a_bundle_travels_without_comments_and_compressed_once(api: Api) -> None:
    [head] = _script_urls(api, "/")  # a page other than the chat page: the theme switch alone
    assert re.fullmatch(r"/assets/head\.[0-9a-f]{16}\.js", head)
    plain = api.get(head, headers={"Accept-Encoding": "identity"})
    assert "Content-Encoding" not in plain.headers and "Accept-Encoding" in plain.headers["Vary"]
    source = (JS / "theme.js").read_text()
    assert "// " not in plain.text and len(plain.content) < 0.7 * len(source.encode())
    assert "ts-theme" in plain.text
    compressed = api.get(head, headers={"Accept-Encoding": "br"}, stream=True)
    assert compressed.headers["Content-Encoding"] == "br"
    raw = compressed.raw.read()
    assert len(raw) < len(plain.content) and brotli.decompress(raw) == plain.content


def test_an_old_bundle_url_gets_todays_files_without_being_kept(api: Api) -> None:
    sid = api.create_session()
    current = next(u for u in _script_urls(api, f"/sessions/{sid}") if u.startswith("/assets/session."))
    stale = api.get("/assets/session.0000000000000000.js")
    assert stale.status_code == 200 and stale.headers["Cache-Control"] == "no-cache"
    assert stale.text == api.get(current).text
    assert api.get("/assets/nothing.0000000000000000.js").status_code == 404


def _stylesheet_urls(api: Api, path: str) -> list[str]:
    page = api.get(path)
    assert page.status_code == 200
    return re.findall(r'<link rel="stylesheet" href="([^"]+)"', page.text)


def test_every_page_links_its_stylesheet_by_content_and_a_browser_keeps_it(api: Api) -> None:
    sid = api.create_session()
    for path in ("/", f"/sessions/{sid}"):
        urls = _stylesheet_urls(api, path)
        assert len(urls) == 1 and re.fullmatch(r"/assets/app\.[0-9a-f]{16}\.css", urls[0]), urls
    url = _stylesheet_urls(api, "/")[0]
    plain = api.get(url, headers={"Accept-Encoding": "identity"})
    assert plain.status_code == 200 and plain.headers["Content-Type"].startswith("text/css")
    assert plain.headers["Cache-Control"] == FOREVER and "Accept-Encoding" in plain.headers["Vary"]
    # The source without its comments and spare whitespace: a quarter less before compression.
    source = (STATIC / "css" / "app.css").read_text(encoding="utf-8")
    assert plain.content == rcssmin.cssmin(source).encode()
    assert b"/*" not in plain.content and len(plain.content) < 0.8 * len(source.encode())
    compressed = api.get(url, headers={"Accept-Encoding": "br"}, stream=True)
    assert compressed.headers["Content-Encoding"] == "br"
    raw = compressed.raw.read()
    assert len(raw) < 0.3 * len(plain.content) and brotli.decompress(raw) == plain.content
    # The page's policy still allows stylesheets from this host only, and this is one.
    assert "style-src 'self';" in api.get("/").headers["Content-Security-Policy"]


def test_a_page_from_before_a_deploy_gets_todays_stylesheet_without_keeping_it(api: Api) -> None:
    current = _stylesheet_urls(api, "/")[0]
    stale = api.get("/assets/app.0000000000000000.css")
    assert stale.status_code == 200 and stale.headers["Cache-Control"] == "no-cache"
    assert stale.content == api.get(current).content
    assert api.get("/assets/nothing.0000000000000000.css").status_code == 404
    assert api.get("/assets/app.0000000000000000.png").status_code == 404
    # A stylesheet is not a script: the names of the two kinds do not cross.
    assert api.get("/assets/app.0000000000000000.js").status_code == 404
    assert api.get("/assets/session.0000000000000000.css").status_code == 404
