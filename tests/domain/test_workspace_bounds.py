"""The workspaces' declared bounds at their exact edges, and the plain-form number reader's digits."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from tasksurface.backends.demos import COMPARE_CARDS, DASHBOARD, ITINERARY
from tasksurface.domain.form_values import read_number, values_from_form
from tasksurface.domain.limits import Limits
from tasksurface.domain.parser import parse_model
from tasksurface.domain.presentation import TOOL_NAME
from tasksurface.domain.refusals import Problem, SurfaceRefused

from .builders_v2 import parsed_v2, v2_model

Json = dict[str, Any]


def itinerary_with(**place: Any) -> Json:
    field = copy.deepcopy(ITINERARY["fields"][0])
    field.pop("initial", None)
    field["places"][0].update(place)
    return v2_model(field)


@pytest.mark.parametrize(("lat", "lon"), [(85, 180), (-85, -180), (0, 0)])
def test_a_place_may_sit_on_the_edge_of_the_drawable_world(lat: float, lon: float) -> None:
    parsed_v2(itinerary_with(lat=lat, lon=lon))


@pytest.mark.parametrize(("lat", "lon"), [(85.5, 0), (-85.5, 0), (0, 180.5), (0, -180.5)])
def test_a_place_past_the_mercator_edge_is_refused(lat: float, lon: float) -> None:
    with pytest.raises(SurfaceRefused, match=r"^surface\.schema: "):
        parse_model(itinerary_with(lat=lat, lon=lon))


def test_an_itinerary_may_ask_for_no_stop_at_least_and_one_at_most() -> None:
    field = copy.deepcopy(ITINERARY["fields"][0])
    field.pop("initial", None)
    parsed_v2(v2_model({**field, "minItems": 0, "maxItems": 1}))
    for bad in ({"minItems": -1}, {"maxItems": 0}):
        with pytest.raises(SurfaceRefused, match=r"^surface\.schema: "):
            parse_model(v2_model({**field, **bad}))


def test_a_price_names_a_three_letter_currency() -> None:
    field = copy.deepcopy(COMPARE_CARDS["fields"][0])
    field["candidates"][0]["price"] = {"amount": 5, "currency": "EUR"}
    parsed_v2(v2_model(field))
    for currency in ("EU", "EURO", "eur"):
        field["candidates"][0]["price"] = {"amount": 5, "currency": currency}
        with pytest.raises(SurfaceRefused, match=r"^surface\.schema: "):
            parse_model(v2_model(field))


def test_a_chart_is_a_bar_an_area_or_a_line_and_a_dashboard_offers_area_and_bar_by_default() -> None:
    chart = copy.deepcopy(DASHBOARD["sections"][0]["blocks"][1])
    for kind in ("bar", "area", "line"):
        section = {"id": "s", "blocks": [{**chart, "type": kind}]}
        assert (
            parsed_v2(v2_model(sections=[section])).normalised()["sections"][0]["blocks"][0]["type"] == kind
        )
    dashboard = copy.deepcopy(DASHBOARD["sections"][0]["blocks"][0])
    dashboard.pop("charts")
    normal = parsed_v2(v2_model(sections=[{"id": "s", "blocks": [dashboard]}])).normalised()
    assert normal["sections"][0]["blocks"][0]["charts"] == ["area", "bar"]


@pytest.mark.parametrize(
    ("typed", "value"),
    [("0", 0), ("1", 1), ("9", 9), ("10", 10), ("0.5", 0.5), ("2.09", 2.09), ("1e10", 1e10), ("1e9", 1e9)],
)
def test_every_digit_reads_as_part_of_a_number(typed: str, value: Any) -> None:
    read = read_number(typed)
    assert read == value and type(read) is type(value)


def test_the_panel_tool_is_named_show_task_surface() -> None:
    assert TOOL_NAME == "show_task_surface"


def test_a_typed_number_of_up_to_100_characters_is_read() -> None:
    assert read_number("1" * 100) == int("1" * 100)
    assert read_number("1" * 101) == "1" * 101
    assert read_number("-1e400") == "-1e400"


def test_a_plain_form_post_answers_comparisons_and_itineraries() -> None:
    one = copy.deepcopy(COMPARE_CARDS["fields"][0])
    many = {**copy.deepcopy(one), "id": "short", "select": "many"}
    many.pop("initial", None)
    day = copy.deepcopy(ITINERARY["fields"][0])
    day.pop("initial", None)
    model = parsed_v2(v2_model(one, many, day))
    posted = {"f.laptop": ["p14"], "f.short": ["x13", "fw14"], "f.day": ["lxf", "belem"]}
    values = values_from_form(model, lambda name: posted.get(name, []))
    assert values == {"laptop": "p14", "short": ["x13", "fw14"], "day": ["lxf", "belem"]}
    empty = values_from_form(model, lambda name: [])
    assert empty == {"laptop": None, "short": [], "day": []}


def workspace_refusal(data: Json, limits: Limits | None = None) -> Problem:
    with pytest.raises(SurfaceRefused) as caught:
        parse_model(data, limits) if limits else parse_model(data)
    return caught.value.problem


def test_itinerary_refusals_say_what_and_where() -> None:
    field = copy.deepcopy(ITINERARY["fields"][0])
    field.pop("initial", None)
    assert workspace_refusal(v2_model({**field, "places": []})) == Problem(
        "surface.empty", "an itinerary needs at least one place", "model.fields.0"
    )
    count = len(field["places"])
    assert workspace_refusal(v2_model(field), Limits(places=count - 1)) == Problem(
        "surface.limit", f"{count} places; the limit places is {count - 1}", "model.fields.0.places"
    )
    for key, size, limit in (
        ("label", 201, "short_text_chars is 200"),
        ("group", 201, "short_text_chars is 200"),
    ):
        long = copy.deepcopy(field)
        long["places"][1][key] = "x" * size
        assert workspace_refusal(v2_model(long)) == Problem(
            "surface.limit", f"text is {size} characters; the limit {limit}", f"model.fields.0.places.1.{key}"
        )
    long = copy.deepcopy(field)
    long["places"][1]["detail"] = "x" * 1001
    assert workspace_refusal(v2_model(long)).where == "model.fields.0.places.1.detail"
    assert workspace_refusal(v2_model({**field, "minItems": count + 1})) == Problem(
        "surface.invalid-bounds", "minItems cannot be met", "model.fields.0"
    )


def test_chart_refusals_say_what_and_where() -> None:
    chart = copy.deepcopy(DASHBOARD["sections"][0]["blocks"][1])

    def with_chart(**change: Any) -> Json:
        return v2_model(sections=[{"id": "s", "blocks": [{**chart, **change}]}])

    change: Json
    for change in ({"categories": []}, {"series": []}):
        assert workspace_refusal(with_chart(**change)) == Problem(
            "surface.empty", "a chart needs categories and at least one series", "model.sections.0.blocks.0"
        )
    assert workspace_refusal(with_chart(title="t" * 201)).where == "model.sections.0.blocks.0.title"
    assert workspace_refusal(with_chart(), Limits(chart_categories=3)) == Problem(
        "surface.limit",
        "4 chart_categories; the limit chart_categories is 3",
        "model.sections.0.blocks.0.categories",
    )
    assert workspace_refusal(with_chart(), Limits(chart_series=1)) == Problem(
        "surface.limit", "2 chart_series; the limit chart_series is 1", "model.sections.0.blocks.0.series"
    )
