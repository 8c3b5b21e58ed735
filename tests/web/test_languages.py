"""English and Simplified Chinese chrome; the model's own words are shown as written."""

from __future__ import annotations

from flask import Flask

from tasksurface.web.i18n import request_translations

from ..support import Api


def test_the_browser_language_chooses_the_chrome(api: Api) -> None:
    sid = api.create_session()
    api.show_surface(sid, "plan")
    english = api.get(f"/sessions/{sid}", headers={"Accept-Language": "en-US,en;q=0.9"}).text
    chinese = api.get(f"/sessions/{sid}", headers={"Accept-Language": "zh-CN,zh;q=0.9,en;q=0.5"}).text
    assert '<html lang="en">' in english and ">Send</button>" in english and ">Dismiss</button>" in english
    assert '<html lang="zh-Hans">' in chinese and ">发送</button>" in chinese and ">关闭</button>" in chinese
    assert "Send</button>" not in chinese
    # The model's text is data, never translated.
    for text in ("Order the migration plan", "Take a full backup", "Use this order"):
        assert text in english and text in chinese


def test_the_switch_overrides_the_browser_and_is_kept(api: Api) -> None:
    sid = api.create_session()
    response = api.post("/language", data={"lang": "zh", "next": f"/sessions/{sid}"}, allow_redirects=False)
    assert response.status_code == 303 and response.headers["Location"] == f"/sessions/{sid}"
    page = api.get(f"/sessions/{sid}", headers={"Accept-Language": "en"}).text
    assert ">发送</button>" in page and 'value="en"' in page  # the switch now offers English
    api.post("/language", data={"lang": "en", "next": "/"})
    assert ">Send</button>" in api.get(f"/sessions/{sid}", headers={"Accept-Language": "zh"}).text


def test_the_switch_redirects_only_within_the_site(api: Api) -> None:
    for target in ("https://evil.example/", "//evil.example/x", "javascript:alert(1)"):
        response = api.post("/language", data={"lang": "zh", "next": target}, allow_redirects=False)
        assert response.headers["Location"] == "/"


def test_an_unknown_language_falls_back_to_english(api: Api) -> None:
    assert ">Start a new session</button>" in api.get("/", headers={"Accept-Language": "fr-FR,de"}).text
    api.post("/language", data={"lang": "xx"})
    assert ">Start a new session</button>" in api.get("/", headers={"Accept-Language": "fr"}).text


def test_every_chinese_message_is_translated_and_keeps_its_placeholders() -> None:
    import re
    from pathlib import Path

    from babel.messages.pofile import read_po

    path = Path(__file__).resolve().parents[2] / "tasksurface/translations/zh/LC_MESSAGES/messages.po"
    with path.open("rb") as source:
        catalog = read_po(source)
    for message in catalog:
        if not message.id:
            continue
        ids = [message.id] if isinstance(message.id, str) else list(message.id)
        assert message.string is not None
        strings = [message.string] if isinstance(message.string, str) else list(message.string)
        assert all(strings), f"untranslated: {ids[0]!r}"
        wanted = set(re.findall(r"%\(\w+\)[sd]", ids[0]))
        assert all(set(re.findall(r"%\(\w+\)[sd]", s)) == wanted for s in strings), ids[0]


def test_the_page_script_gets_its_chrome_in_the_page_language(api: Api) -> None:
    import json
    import re

    sid = api.create_session()
    page = api.get(f"/sessions/{sid}", headers={"Accept-Language": "zh-CN"}).text
    block = re.search(r'<script type="application/json" id="chrome-strings">(.*?)</script>', page, re.S)
    assert block is not None
    strings = json.loads(block.group(1))
    assert strings["Reconnecting…"] == "正在重新连接…"
    # Why a submission was not taken, keyed by the reason the server gives.
    assert strings["reason:invalid-submission"] == "请检查标出的字段"
    assert strings["reason:stale"] == "另一个面板已取代此面板"
    # Refused requests the page's controls can meet, keyed by their code.
    assert strings["refusal:internal-server-error"] == "服务器未能完成这个请求"
    assert strings["refusal:message-too-long"] == "消息超出了本聊天允许的长度"
    english = api.get(f"/sessions/{sid}", headers={"Accept-Language": "en"}).text
    assert (
        '"Reconnecting…": "Reconnecting…"' in english
        or '"Reconnecting\\u2026": "Reconnecting\\u2026"' in english
    )


def test_a_request_looks_up_its_catalog_once_and_each_request_its_own(app: Flask) -> None:
    """Templates translate through the request's catalog, found on its first use: one process
    serves English and Chinese requests in turn, and each keeps its own."""
    for language, send in (("zh", "发送"), ("en", "Send"), ("zh", "发送")):
        with app.test_request_context("/", headers={"Accept-Language": language}):
            catalog = request_translations()
            assert request_translations() is catalog
            assert catalog.ugettext("Send") == send
            assert app.jinja_env.from_string("{{ _('Send') }}").render() == send
