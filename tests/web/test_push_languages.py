"""A push is drawn in the language of the page it goes to: two tabs of one session, one in
English and one in Chinese, each get the rows, the closed panel's row and the question in their
own language, as a reload of that page would draw them."""

from __future__ import annotations

from typing import Any

from ..support import RELEASE_VALUES, Api, Socket


def _tab(api: Api, sid: str, language: str | None) -> Socket:
    """A socket of this client's session whose page is in `language` (none: the default)."""
    socket = api.socket(sid, language=language)
    assert socket.receive()["type"] == "hello"
    return socket


def _closing(socket: Socket) -> dict[str, Any]:
    """The push that closes the panel: it draws the panel's row again."""
    return socket.receive_until(lambda m: m["type"] == "change" and bool(m.get("rows")))


def test_each_tab_gets_its_rows_in_its_own_language(api: Api) -> None:
    sid = api.create_session()
    surface = api.show_surface(sid, "fields")
    with _tab(api, sid, None) as english, _tab(api, sid, "zh") as chinese:
        assert api.submit(sid, surface, RELEASE_VALUES)["accepted"] is True
        en, zh = _closing(english), _closing(chinese)
        # The closed panel's row: its state and its read-only replay.
        assert set(en["rows"]) == set(zh["rows"])
        (en_row,), (zh_row,) = en["rows"].values(), zh["rows"].values()
        assert "submitted" in en_row and "Show the panel (read only)" in en_row
        assert "已提交" in zh_row and "查看面板（只读）" in zh_row
        assert "已提交" not in en_row
        assert en["taskSurface"] == zh["taskSurface"]

        question = api.ask(sid, "/ask Ship on Friday? | yes | no")
        en = english.receive_until(lambda m: m["type"] == "change" and m.get("question") is not None)
        zh = chinese.receive_until(lambda m: m["type"] == "change" and m.get("question") is not None)
        assert en["question"] == zh["question"] == question
        assert "Answer later" in en["questionHtml"] and "稍后回答" in zh["questionHtml"]
        # The events of one push are the same events, each drawn in its page's language.
        assert [e["seq"] for e in en["events"]] == [e["seq"] for e in zh["events"]]


def test_a_reload_draws_the_same_rows_as_the_push(api: Api) -> None:
    sid = api.create_session()
    surface = api.show_surface(sid, "fields")
    with _tab(api, sid, "zh") as chinese:
        assert api.submit(sid, surface, RELEASE_VALUES)["accepted"] is True
        pushed = _closing(chinese)
    api.http.cookies.set("lang", "zh")
    page = api.get(f"/sessions/{sid}").text
    for row in pushed["rows"].values():
        badge = row.split('class="badge state-badge">', 1)[1].split("<", 1)[0]
        assert badge == "已提交" and f'class="badge state-badge">{badge}<' in page
