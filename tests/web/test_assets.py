"""The page's behaviours travel as one bundle, named by its content, in one request."""

from __future__ import annotations

import re
from pathlib import Path

import brotli

from ..support import Api

JS = Path(__file__).resolve().parents[2] / "static" / "js"


def _script_urls(api: Api, sid: str) -> list[str]:
    page = api.get(f"/sessions/{sid}")
    assert page.status_code == 200
    return re.findall(r'<script src="([^"]+)"', page.text)


def test_the_session_page_loads_its_behaviours_as_one_hashed_bundle(api: Api) -> None:
    sid = api.create_session()
    urls = _script_urls(api, sid)
    assert re.fullmatch(r"/assets/head\.[0-9a-f]{16}\.js", urls[0])  # the theme switch
    bundles = [u for u in urls if u.startswith("/assets/session.")]
    assert len(urls) == 2 and len(bundles) == 1
    assert re.fullmatch(r"/assets/session\.[0-9a-f]{16}\.js", bundles[0])
    response = api.get(bundles[0])
    assert response.status_code == 200
    assert response.headers["Content-Type"].startswith("text/javascript")
    assert response.headers["Cache-Control"] == "public, max-age=31536000, immutable"
    body = response.text
    for name in ("page.js", "drafts.js", "dock.js", "question.js", "live.js", "order_drag.js"):
        assert _first_statement(name) in body, name
    # The bus comes first: every other behaviour reads it when it loads.
    assert body.index("window.TaskSurfacePage={") < body.index("page.drafts={")


def _first_statement(name: str) -> str:
    """The first line of code of a behaviour, as it reads once spaces are dropped."""
    lines = (JS / name).read_text().splitlines()
    code = next(line.strip() for line in lines if line.strip() and not line.strip().startswith("//"))
    return code.replace(" ", "")


def test_a_bundle_travels_without_comments_and_compressed_once(api: Api) -> None:
    sid = api.create_session()
    head = _script_urls(api, sid)[0]
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
    current = next(u for u in _script_urls(api, sid) if u.startswith("/assets/session."))
    stale = api.get("/assets/session.0000000000000000.js")
    assert stale.status_code == 200 and stale.headers["Cache-Control"] == "no-cache"
    assert stale.text == api.get(current).text
    assert api.get("/assets/nothing.0000000000000000.js").status_code == 404
