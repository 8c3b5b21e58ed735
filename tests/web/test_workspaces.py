"""Rich workspaces through the real app: media served, refused and failing; dashboards explored
without sending anything; itineraries edited without script; fallbacks and the tile host."""

from __future__ import annotations

import copy
import io
import re
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from PIL import Image

from tasksurface.backends.demos import COMPARE_CARDS
from tasksurface.domain import charts

from ..support import Api, new_id


@pytest.fixture
def media(tmp_path: Path) -> Path:
    folder = tmp_path / "media"
    (folder / "laptops").mkdir(parents=True)
    for name, fmt in (
        ("laptops/x13.png", "PNG"),
        ("laptops/p14.jpg", "JPEG"),
        ("anim.gif", "GIF"),
        ("a.webp", "WEBP"),
    ):
        buffer = io.BytesIO()
        Image.new("RGB", (8, 6), (30, 90, 200)).save(buffer, fmt)
        (folder / name).write_bytes(buffer.getvalue())
    (folder / "laptops/fake.png").write_bytes((folder / "laptops/p14.jpg").read_bytes())  # a JPEG named .png
    (folder / "text.gif").write_text("GIF89a but not really")
    (folder / "big.png").write_bytes(b"\x89PNG" + b"0" * 5000)
    (tmp_path / "outside.png").write_bytes((folder / "laptops/x13.png").read_bytes())
    (folder / "link.png").symlink_to(tmp_path / "outside.png")
    return folder


@pytest.fixture
def app_config(database_url: str, media: Path) -> dict[str, Any]:
    return {
        "database_url": database_url,
        "secret_key": "test-secret-key",
        "media_folder": media,
        "media_max_bytes": 4096,
        "map_tiles": "https://tiles.example.org/{z}/{x}/{y}.png",
        "map_attribution": "© Example tiles",
    }


@pytest.mark.parametrize(
    ("path", "status", "code", "mimetype"),
    [
        ("laptops/x13.png", 200, None, "image/png"),
        ("laptops/p14.jpg", 200, None, "image/jpeg"),
        ("anim.gif", 200, None, "image/gif"),
        ("a.webp", 200, None, "image/webp"),
        ("laptops/fake.png", 415, "media-wrong-format", None),
        ("text.gif", 415, "media-not-an-image", None),
        ("big.png", 413, "media-too-large", None),
        ("link.png", 404, "media-not-found", None),
        ("missing.png", 404, "media-not-found", None),
        ("laptops/x13.svg", 400, "media-path", None),
        ("laptops/x13.png%3Fx=1", 400, "media-path", None),
        ("..%2Foutside.png", 400, "media-path", None),
    ],
)
def test_media_are_served_decoded_and_checked(
    api: Api, path: str, status: int, code: str | None, mimetype: str | None
) -> None:
    api.create_session()  # an identity, as any page visitor has
    response = api.get(f"/media/{path}")
    assert response.status_code == status, response.text
    if code is None:
        assert response.headers["Content-Type"] == mimetype
        assert response.headers["X-Content-Type-Options"] == "nosniff"
    else:
        assert response.json()["error"]["code"] == code


def images_model() -> dict[str, Any]:
    model = copy.deepcopy(COMPARE_CARDS)
    candidates = model["fields"][0]["candidates"]
    candidates[0]["image"] = {"path": "laptops/missing.png", "alt": "Aero 13, closed"}
    candidates[1]["image"] = {
        "path": "laptops/x13.png",
        "alt": "Carbon X13",
        "source": "https://example.org/x13",
    }
    return model


def test_cards_show_their_images_and_attribution_and_never_a_model_url(api: Api) -> None:
    sid = api.create_session()
    api.show_model(sid, images_model())
    page = api.get(f"/sessions/{sid}").text
    dock = page[page.index('id="dock-slot"') :]
    assert '<img src="/media/laptops/x13.png" alt="Carbon X13"' in dock
    link = '<a href="https://example.org/x13" rel="noopener noreferrer nofollow" target="_blank"'
    assert link + ' class="image-source">' in dock
    assert 'src="https://' not in dock
    stylesheet = r'<link rel="stylesheet" href="/assets/workspaces\.[0-9a-f]{16}\.css" data-workspaces-css>'
    assert re.search(stylesheet, page)


def test_only_the_configured_tile_host_joins_the_image_policy(api: Api) -> None:
    sid = api.create_session()
    api.show_surface(sid, "itinerary")
    response = api.get(f"/sessions/{sid}")
    assert "img-src 'self' data: https://tiles.example.org;" in response.headers["Content-Security-Policy"]
    assert 'href="https://tiles.example.org/13/' in response.text and "© Example tiles" in response.text


def test_a_dashboard_is_explored_without_sending_anything(api: Api) -> None:
    sid = api.create_session()
    surface = api.show_surface(sid, "dashboard")
    seq = [e for e in api.events(sid) if e["kind"] == "tool/result"][-1]["seq"]
    before = api.events(sid)
    key = f"{seq}-0-0"
    view = api.get(
        f"/sessions/{sid}/dashboards/{seq}/0-0",
        params={f"d.{key}.metric": "active", f"d.{key}.from": "6", f"d.{key}.to": "9"},
    )
    assert view.status_code == 200
    assert "<dt>Total</dt><dd>454</dd>" in view.text and "<dt>Mean</dt><dd>151.333</dd>" in view.text
    assert "Activated, W7 to W10" in view.text and 'class="chart chart-area"' in view.text
    assert api.get(f"/sessions/{sid}/dashboards/{seq}/0-1").status_code == 404  # a chart, not a dashboard
    assert api.get(f"/sessions/{sid}/dashboards/{seq + 5}/0-0").status_code == 404
    assert api.events(sid) == before and api.queue(sid) == []
    # Without script the dock's Show button posts the form, and the values stay.
    form = {"submissionId": new_id(), "_explore": key, f"d.{key}.metric": "churn", f"d.{key}.chart": "bar"}
    page = api.post(f"/sessions/{sid}/task-surfaces/{surface}/submit", data=form, allow_redirects=False)
    assert (
        page.status_code == 200 and "Churn, W1 to W12" in page.text and 'class="chart chart-bar"' in page.text
    )
    assert api.events(sid) == before


def test_a_panel_without_fields_stays_visible_as_a_chart_after_it_closes(api: Api) -> None:
    sid = api.create_session()
    surface = api.show_surface(sid, "dashboard")
    api.dismiss(sid, surface)
    page = api.get(f"/sessions/{sid}").text
    assert 'id="task-surface-dock"' not in page
    row = page[page.index('class="surface-row state-dismissed"') :]
    assert row.index('class="surface-display"') < row.index("<details")
    seq = [e for e in api.events(sid) if e["kind"] == "tool/result"][-1]["seq"]
    explored = api.get(f"/sessions/{sid}", params={f"d.{seq}-0-0.metric": "churn"}).text
    assert "Churn, W1 to W12" in explored


def test_without_script_an_itinerary_is_edited_by_posting_the_form(api: Api) -> None:
    sid = api.create_session()
    surface = api.show_surface(sid, "itinerary")
    base = {"submissionId": new_id(), "f.day": ["belem", "pasteis", "timeout"]}

    def step(verb: str) -> str:
        page = api.post(f"/sessions/{sid}/task-surfaces/{surface}/submit", data={**base, "_itin": verb})
        assert page.status_code == 200
        dock = page.text[page.text.index('id="dock-slot"') :]
        return ",".join(part.split('"')[0] for part in dock.split('name="f.day" value="')[1:])

    assert step("day:castle:add") == "belem,pasteis,timeout,castle"
    assert step("day:pasteis:remove") == "belem,timeout"
    assert step("day:timeout:up") == "belem,timeout,pasteis"
    assert api.queue(sid) == []


def test_a_block_that_fails_to_draw_shows_its_fallback_and_the_page_works(
    api: Api, app: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    sid = api.create_session()
    api.show_surface(sid, "dashboard")

    def broken(*_: Any) -> None:
        raise ZeroDivisionError("a bug in the chart code")

    monkeypatch.setattr(charts, "geometry", broken)
    from tasksurface.web import workspace_views

    monkeypatch.setitem(app.jinja_env.globals, "chart_geometry", broken)
    page = api.get(f"/sessions/{sid}")
    assert page.status_code == 200
    assert page.text.count('data-code="surface.block-failed"') >= 2  # in the dock and in the row
    assert 'id="task-surface-dock"' in page.text
    assert workspace_views.FALLBACK in page.text


def test_a_settled_comparison_shows_the_recorded_answer_read_only(api: Api) -> None:
    sid = api.create_session()
    surface = api.show_surface(sid, "compare-cards")
    api.submit(sid, surface, {"laptop": "fw14", "why": ""})
    api.settled(sid)
    page = api.get(f"/sessions/{sid}").text
    row = page[page.index('class="surface-row state-submitted"') :]
    assert 'value="fw14" checked disabled' in row and 'value="x13"  disabled' in row
    assert 'class="candidate-search"' in row  # searching still works on a settled row
