"""The server-rendered page and its plain-form posts: everything works without JavaScript."""

from __future__ import annotations

import re

from ..support import Api


def _form_fields(html: str) -> dict[str, str]:
    return dict(re.findall(r'name="(submissionId|dismissalId)" value="([^"]+)"', html))


def test_the_index_lists_sessions_and_starts_one(api: Api) -> None:
    response = api.post("/sessions", data={"title": "Planning"}, allow_redirects=False)
    assert response.status_code == 303
    location = response.headers["Location"]
    assert re.fullmatch(r"/sessions/s_[A-Za-z0-9_-]+", location)
    assert "Planning" in api.get("/").text


def test_the_page_shows_transcript_dock_and_composer(api: Api) -> None:
    sid = api.create_session()
    surface = api.show_surface(sid, "all")
    html = api.get(f"/sessions/{sid}").text
    assert f'data-surface-id="{surface}"' in html
    assert 'id="task-surface-dock"' in html and 'id="composer"' in html
    assert html.count('<article class="surface-row') == 1  # the read-only transcript row
    for kind in ("markdown", "metrics", "table", "diff", "notice"):
        assert f"block-{kind}" in html
    for kind in ("text", "choice", "multi-choice", "toggle", "order"):
        assert f'data-field-kind="{kind}"' in html
    assert "layout-grid cols-3" in html and "layout-stack" in html
    # Task Surface markdown never loads images: the alt text stands in.
    assert "chart.png" not in html and 'class="md-image-alt"' in html


def test_a_form_submission_answers_303_and_admits_one_message(api: Api) -> None:
    sid = api.create_session()
    surface = api.show_surface(sid, "plan")
    ids = _form_fields(api.get(f"/sessions/{sid}").text)
    form = {
        "submissionId": ids["submissionId"],
        "f.steps": ["schema", "backup", "switch", "verify"],
        "f.constraints": "Line one\r\nLine two",
    }
    url = f"/sessions/{sid}/task-surfaces/{surface}/submit"
    response = api.post(url, data=form, allow_redirects=False)
    assert response.status_code == 303 and response.headers["Location"] == f"/sessions/{sid}"
    again = api.post(url, data=form, allow_redirects=False)  # a double post reuses the rendered id
    assert again.status_code == 303
    events = api.settled(sid)
    submissions = [
        e for e in events if e["kind"] == "user/message" and "taskSurface" in e["payload"]["source"]
    ]
    assert len(submissions) == 1
    assert submissions[0]["payload"]["source"]["taskSurface"]["values"] == {
        "steps": ["schema", "backup", "switch", "verify"],
        "constraints": "Line one\nLine two",
    }


def test_a_rejected_form_keeps_the_values_and_names_the_problem(api: Api) -> None:
    sid = api.create_session()
    surface = api.show_surface(sid, "fields")
    ids = _form_fields(api.get(f"/sessions/{sid}").text)
    form = {"submissionId": ids["submissionId"], "f.name": "", "f.notes": "kept text", "f.channel": "beta"}
    response = api.post(f"/sessions/{sid}/task-surfaces/{surface}/submit", data=form)
    assert response.status_code == 422
    html = response.text
    assert "kept text" in html and 'value="beta" checked' in html
    assert "this field is required" in html and 'aria-invalid="true"' in html
    assert "Not sent" in html
    assert api.queue(sid) == [] and api.get_active(sid, surface)["pending"] is None


def test_an_order_move_without_script_answers_with_the_moved_order(api: Api) -> None:
    sid = api.create_session()
    surface = api.show_surface(sid, "plan")
    ids = _form_fields(api.get(f"/sessions/{sid}").text)
    form = {
        "submissionId": ids["submissionId"],
        "f.steps": ["backup", "schema", "switch", "verify"],
        "f.constraints": "typed so far",
        "_move": "steps:switch:up",
    }
    response = api.post(f"/sessions/{sid}/task-surfaces/{surface}/submit", data=form)
    assert response.status_code == 200
    order = re.findall(r'data-option-id="([a-z]+)"', response.text.split('data-order-field="steps"')[1])
    assert order == ["backup", "switch", "schema", "verify"]
    assert "typed so far" in response.text
    assert api.queue(sid) == []  # a move submits nothing


def test_dismiss_as_a_form_post(api: Api) -> None:
    sid = api.create_session()
    surface = api.show_surface(sid, "review")
    ids = _form_fields(api.get(f"/sessions/{sid}").text)
    response = api.post(
        f"/sessions/{sid}/task-surfaces/{surface}/dismiss",
        data={"dismissalId": ids["dismissalId"]},
        allow_redirects=False,
    )
    assert response.status_code == 303
    assert api.kinds(sid)[-1] == "task-surface/dismissed"
    assert 'id="task-surface-dock"' not in api.get(f"/sessions/{sid}").text


def test_the_composer_posts_without_script(api: Api) -> None:
    sid = api.create_session()
    response = api.post(f"/sessions/{sid}/messages", data={"text": "hello there"}, allow_redirects=False)
    assert response.status_code == 303
    events = api.settled(sid)
    assert events[0]["payload"]["content"][0]["text"] == "hello there"
    assert "You said: hello there" in api.get(f"/sessions/{sid}").text


def test_history_is_paged_with_older_pages_on_demand(api: Api) -> None:
    sid = api.create_session()
    surface = api.show_surface(sid, "fields")
    for n in range(15):  # 4 events each: more than one page of 50
        api.send(sid, f'/tool no_such_tool {{"n": {n}}}')
    api.settled(sid)
    html = api.get(f"/sessions/{sid}").text
    assert f'data-surface-id="{surface}"' not in html  # the panel's row is on an older page
    pages = 0
    while f'data-surface-id="{surface}"' not in html:
        older = re.search(r'href="(/sessions/[^"]+\?before=\d+)">Show earlier messages', html)
        assert older, "no link to earlier messages"
        html = api.get(older.group(1)).text
        pages += 1
    assert pages == 1 and "Back to the latest messages" in html


def test_the_dock_stays_actionable_when_its_row_is_not_loaded(api: Api) -> None:
    sid = api.create_session()
    surface = api.show_surface(sid, "plan")
    html = api.get(f"/sessions/{sid}", params={"before": 2}).text  # only the first event is loaded
    assert '<article class="surface-row' not in html
    assert f'data-surface-id="{surface}"' in html and 'id="task-surface-dock"' in html
    form = {
        "submissionId": _form_fields(html)["submissionId"],
        "f.steps": ["backup", "schema", "switch", "verify"],
        "f.constraints": "",
    }
    response = api.post(f"/sessions/{sid}/task-surfaces/{surface}/submit", data=form, allow_redirects=False)
    assert response.status_code == 303
    api.settled(sid)
    assert api.projection(sid)["active"] is None


def test_unknown_session_pages_are_404(api: Api) -> None:
    assert api.get("/sessions/s_doesnotexist1").status_code == 404
    assert api.get("/sessions/bad").status_code == 400


def test_a_submitted_rows_replay_shows_the_answer(api: Api) -> None:
    sid = api.create_session()
    surface = api.show_surface(sid, "plan")
    api.submit(
        sid, surface, {"steps": ["schema", "backup", "switch", "verify"], "constraints": "Weekends only"}
    )
    api.settled(sid)
    html = api.get(f"/sessions/{sid}").text
    row = html.split('<article class="surface-row state-submitted')[1].split("</article>")[0]
    assert 'class="surface-answer"' in row
    assert "- Steps: 1. Apply schema changes, 2. Take a full backup" in row and "Weekends only" in row
