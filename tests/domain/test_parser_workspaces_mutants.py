"""The workspace rules, each at its exact place: every text, count, image and bound a comparison,
an itinerary, a chart or a dashboard holds is refused where it is declared, and the edges hold."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from tasksurface.backends.demos import DASHBOARD
from tasksurface.domain.limits import Limits
from tasksurface.domain.model_v2 import ItineraryField
from tasksurface.domain.parser import parse_model
from tasksurface.domain.refusals import Problem, SurfaceRefused
from tasksurface.domain.workspaces import ChartBlock

from .builders_v2 import comparison, itinerary, parsed_v2, v2_model

Json = dict[str, Any]

SHORT = "x" * 201
"""One character over the default short text limit (200)."""
DETAIL = "x" * 1001
"""One character over the default detail limit (1000)."""
SHORT_LIMIT = "text is 201 characters; the limit short_text_chars is 200"
DETAIL_LIMIT = "text is 1001 characters; the limit detail_chars is 1000"


def dashboard() -> Json:
    return copy.deepcopy(DASHBOARD)


def problem(data: Json, limits: Limits | None = None) -> Problem:
    with pytest.raises(SurfaceRefused) as info:
        parse_model(data, limits or Limits())
    return info.value.problem


def image(**extra: Any) -> Json:
    return {"path": "laptops/aero.png", "alt": "The Aero 13, closed", **extra}


# -- every text of a comparison, at its place


def _set(data: Json, path: list[str | int], value: Any) -> Json:
    node: Any = data
    for step in path[:-1]:
        node = node[step]
    node[path[-1]] = value
    return data


@pytest.mark.parametrize(
    ("path", "where"),
    [
        (["properties", 1, "label"], "model.fields.0.properties.1.label"),
        (["properties", 1, "unit"], "model.fields.0.properties.1.unit"),
        (["candidates", 2, "label"], "model.fields.0.candidates.2.label"),
        (["candidates", 2, "group"], "model.fields.0.candidates.2.group"),
    ],
)
def test_a_comparison_text_over_the_short_limit_is_refused_where_it_is(
    path: list[str | int], where: str
) -> None:
    refusal = problem(v2_model(_set(comparison(), path, SHORT)))
    assert (refusal.code, refusal.message, refusal.where) == ("surface.limit", SHORT_LIMIT, where)


def test_a_comparison_text_at_the_short_limit_is_kept() -> None:
    field = comparison()
    field["properties"][1]["label"] = "x" * 200
    field["properties"][1]["unit"] = "x" * 200
    field["candidates"][2]["label"] = "x" * 200
    field["candidates"][2]["group"] = "x" * 200
    model = parsed_v2(v2_model(field))
    assert model.normalised()["fields"][0]["candidates"][2]["group"] == "x" * 200


def test_a_candidate_detail_over_the_detail_limit_is_refused_where_it_is() -> None:
    field = comparison()
    field["candidates"][3]["detail"] = DETAIL
    refusal = problem(v2_model(field))
    assert (refusal.code, refusal.message, refusal.where) == (
        "surface.limit",
        DETAIL_LIMIT,
        "model.fields.0.candidates.3.detail",
    )
    field["candidates"][3]["detail"] = "x" * 1000
    assert parsed_v2(v2_model(field)).normalised()["fields"][0]["candidates"][3]["detail"] == "x" * 1000


def test_a_text_value_of_a_candidate_is_a_detail_text() -> None:
    field = comparison()
    field["candidates"][1]["values"]["cpu"] = DETAIL
    refusal = problem(v2_model(field))
    assert (refusal.code, refusal.message, refusal.where) == (
        "surface.limit",
        DETAIL_LIMIT,
        "model.fields.0.candidates.1.values.cpu",
    )


def test_an_unknown_property_is_named_in_the_refusal() -> None:
    field = comparison()
    field["candidates"][0]["values"]["colour"] = "red"
    refusal = problem(v2_model(field))
    assert (refusal.code, refusal.message, refusal.where) == (
        "surface.unknown-reference",
        "no property 'colour'",
        "model.fields.0.candidates.0.values.colour",
    )


def test_a_duplicate_candidate_is_refused_at_the_second() -> None:
    field = comparison()
    field["candidates"][3]["id"] = "air13"
    refusal = problem(v2_model(field))
    assert (refusal.code, refusal.message, refusal.where) == (
        "surface.duplicate-id",
        "id 'air13' is used twice",
        "model.fields.0.candidates.3.id",
    )


def test_an_empty_comparison_says_it_needs_a_candidate() -> None:
    refusal = problem(v2_model(comparison(candidates=[])))
    assert (refusal.code, refusal.message, refusal.where) == (
        "surface.empty",
        "a comparison needs at least one candidate",
        "model.fields.0",
    )


def test_comparison_counts_say_the_limit_and_the_place() -> None:
    refusal = problem(v2_model(comparison()), Limits(candidates=3))
    assert (refusal.code, refusal.message, refusal.where) == (
        "surface.limit",
        "4 candidates; the limit candidates is 3",
        "model.fields.0.candidates",
    )
    refusal = problem(v2_model(comparison()), Limits(properties=4))
    assert (refusal.code, refusal.message, refusal.where) == (
        "surface.limit",
        "5 properties; the limit properties is 4",
        "model.fields.0.properties",
    )
    both = Limits(candidates=4, properties=5)
    assert len(parsed_v2(v2_model(comparison()), both).normalised()["fields"][0]["candidates"]) == 4


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"initial": "nope"}, "initial is one candidate id"),
        ({"initial": ["x13"]}, "initial is one candidate id"),
        ({"select": "many", "initial": "x13"}, "initial lists distinct candidate ids"),
        ({"select": "many", "initial": ["x13", "x13"]}, "initial lists distinct candidate ids"),
        ({"select": "many", "initial": ["x13", "nope"]}, "initial lists distinct candidate ids"),
    ],
)
def test_a_comparison_initial_outside_its_candidates_says_why(change: Json, message: str) -> None:
    refusal = problem(v2_model(comparison(**change)))
    assert (refusal.code, refusal.message, refusal.where) == (
        "surface.invalid-initial",
        message,
        "model.fields.0.initial",
    )


@pytest.mark.parametrize(
    "initial",
    [["air13", "x13", "p14", "fw14"], ["fw14"], []],
)
def test_a_many_comparison_may_start_with_any_distinct_subset_of_its_candidates(initial: list[str]) -> None:
    model = parsed_v2(v2_model(comparison(select="many", initial=initial)))
    assert model.normalised()["fields"][0]["initial"] == initial


def test_a_one_comparison_may_start_on_any_candidate_or_none() -> None:
    assert parsed_v2(v2_model(comparison(initial="fw14"))).normalised()["fields"][0]["initial"] == "fw14"
    assert "initial" not in parsed_v2(v2_model(comparison(initial=None))).normalised()["fields"][0]


# -- images, on a candidate and on a place


def test_an_image_with_blank_alt_says_it_needs_alt_text() -> None:
    field = comparison()
    field["candidates"][1]["image"] = image(alt="   ")
    refusal = problem(v2_model(field))
    assert (refusal.code, refusal.message, refusal.where) == (
        "surface.invalid-image",
        "an image needs alt text",
        "model.fields.0.candidates.1.image.alt",
    )


def test_an_image_path_problem_is_the_message() -> None:
    field = comparison()
    field["candidates"][0]["image"] = image(path="/etc/passwd.png")
    refusal = problem(v2_model(field))
    assert (refusal.code, refusal.message, refusal.where) == (
        "surface.invalid-image",
        "an image path is relative to the media folder, not absolute",
        "model.fields.0.candidates.0.image.path",
    )


def test_an_image_source_must_be_a_web_address() -> None:
    place = itinerary()
    place["places"][2]["image"] = image(source="javascript:alert(1)")
    refusal = problem(v2_model(place))
    assert (refusal.code, refusal.message, refusal.where) == (
        "surface.invalid-image",
        "source is an http or https address",
        "model.fields.0.places.2.image.source",
    )


def test_image_alt_and_source_are_held_to_their_text_limits() -> None:
    place = itinerary()
    place["places"][1]["image"] = image(alt=SHORT)
    refusal = problem(v2_model(place))
    assert (refusal.code, refusal.message, refusal.where) == (
        "surface.limit",
        SHORT_LIMIT,
        "model.fields.0.places.1.image.alt",
    )
    long_source = "https://example.org/" + "a" * 981
    place["places"][1]["image"] = image(source=long_source)
    refusal = problem(v2_model(place))
    assert (refusal.code, refusal.message, refusal.where) == (
        "surface.limit",
        DETAIL_LIMIT,
        "model.fields.0.places.1.image.source",
    )


def test_a_good_image_is_kept_on_its_candidate_and_its_place() -> None:
    field = comparison()
    field["candidates"][0]["image"] = image(source="https://example.org/aero")
    shown = parsed_v2(v2_model(field)).normalised()["fields"][0]["candidates"][0]["image"]
    assert shown == {
        "path": "laptops/aero.png",
        "alt": "The Aero 13, closed",
        "source": "https://example.org/aero",
    }
    place = itinerary()
    place["places"][0]["image"] = image()
    shown = parsed_v2(v2_model(place)).normalised()["fields"][0]["places"][0]["image"]
    assert shown == {"path": "laptops/aero.png", "alt": "The Aero 13, closed"}


# -- itineraries


@pytest.mark.parametrize(
    ("key", "value", "where", "message"),
    [
        ("label", SHORT, "model.fields.0.places.4.label", SHORT_LIMIT),
        ("group", SHORT, "model.fields.0.places.4.group", SHORT_LIMIT),
        ("detail", DETAIL, "model.fields.0.places.4.detail", DETAIL_LIMIT),
    ],
)
def test_a_place_text_over_its_limit_is_refused_where_it_is(
    key: str, value: str, where: str, message: str
) -> None:
    field = itinerary()
    field["places"][4][key] = value
    refusal = problem(v2_model(field))
    assert (refusal.code, refusal.message, refusal.where) == ("surface.limit", message, where)


def test_an_empty_itinerary_says_it_needs_a_place() -> None:
    refusal = problem(v2_model(itinerary(places=[], initial=None, minItems=None)))
    assert (refusal.code, refusal.message, refusal.where) == (
        "surface.empty",
        "an itinerary needs at least one place",
        "model.fields.0",
    )


def test_the_place_count_says_the_limit_and_the_place() -> None:
    refusal = problem(v2_model(itinerary()), Limits(places=8))
    assert (refusal.code, refusal.message, refusal.where) == (
        "surface.limit",
        "9 places; the limit places is 8",
        "model.fields.0.places",
    )
    assert len(parsed_v2(v2_model(itinerary()), Limits(places=9)).normalised()["fields"][0]["places"]) == 9


def test_a_duplicate_place_is_refused_at_the_second() -> None:
    field = itinerary(initial=None)
    field["places"][5]["id"] = "belem"
    refusal = problem(v2_model(field))
    assert (refusal.code, refusal.message, refusal.where) == (
        "surface.duplicate-id",
        "id 'belem' is used twice",
        "model.fields.0.places.5.id",
    )


@pytest.mark.parametrize(
    ("low", "high"),
    [(3, 2), (10, None), (10, 10)],
)
def test_bounds_that_cannot_be_met_are_refused(low: int, high: int | None) -> None:
    refusal = problem(v2_model(itinerary(minItems=low, maxItems=high, initial=None)))
    assert (refusal.code, refusal.message, refusal.where) == (
        "surface.invalid-bounds",
        "minItems cannot be met",
        "model.fields.0",
    )


@pytest.mark.parametrize(
    ("low", "high"),
    [(3, 3), (9, None), (9, 9), (None, 1), (0, 1), (None, None)],
)
def test_bounds_at_their_edges_are_kept(low: int | None, high: int | None) -> None:
    field = parsed_v2(v2_model(itinerary(minItems=low, maxItems=high, initial=None))).fields[0]
    assert isinstance(field, ItineraryField)
    assert (field.minItems, field.maxItems) == (low, high)


@pytest.mark.parametrize(
    ("initial", "message"),
    [
        (["belem", "belem"], "initial lists distinct place ids"),
        (["belem", "nowhere"], "initial lists distinct place ids"),
        (["belem", "pasteis", "timeout"], "initial does not fit minItems and maxItems"),
        (["belem"], "initial does not fit minItems and maxItems"),
    ],
)
def test_an_initial_route_outside_its_bounds_says_why(initial: list[str], message: str) -> None:
    refusal = problem(v2_model(itinerary(initial=initial, minItems=2, maxItems=2)))
    assert (refusal.code, refusal.message, refusal.where) == (
        "surface.invalid-initial",
        message,
        "model.fields.0.initial",
    )


@pytest.mark.parametrize(
    ("initial", "low", "high"),
    [
        ([], 2, 2),
        (["belem", "pasteis"], 2, 2),
        (["belem", "pasteis", "timeout"], 3, None),
        (["belem"], None, 1),
        (
            ["graca", "monte", "castle", "comercio", "timeout", "lxf", "pasteis", "jeronimos", "belem"],
            None,
            None,
        ),
    ],
)
def test_an_initial_route_inside_its_bounds_is_kept(
    initial: list[str], low: int | None, high: int | None
) -> None:
    field = itinerary(initial=initial, minItems=low, maxItems=high, required=False)
    assert parsed_v2(v2_model(field)).normalised()["fields"][0]["initial"] == initial


# -- charts and dashboards


def chart_model(**extra: Any) -> Json:
    chart: Json = {
        "kind": "chart",
        "title": "Sign-ups by channel",
        "type": "bar",
        "categories": ["Search", "Referral"],
        "series": [{"id": "q3", "label": "Last quarter", "values": [410, 220]}],
        **extra,
    }
    return v2_model(
        sections=[{"id": "numbers", "blocks": [{"kind": "notice", "tone": "info", "text": "Hi"}, chart]}]
    )


@pytest.mark.parametrize(
    ("extra", "where"),
    [
        ({"title": SHORT}, "model.sections.0.blocks.1.title"),
        ({"unit": SHORT}, "model.sections.0.blocks.1.unit"),
        ({"categories": ["Search", SHORT]}, "model.sections.0.blocks.1.categories.1"),
        (
            {
                "series": [
                    {"id": "q3", "label": "A", "values": [1, 2]},
                    {"id": "q4", "label": SHORT, "values": [1, 2]},
                ]
            },
            "model.sections.0.blocks.1.series.1.label",
        ),
    ],
)
def test_a_chart_text_over_the_short_limit_is_refused_where_it_is(extra: Json, where: str) -> None:
    refusal = problem(chart_model(**extra))
    assert (refusal.code, refusal.message, refusal.where) == ("surface.limit", SHORT_LIMIT, where)


def test_a_chart_at_its_limits_is_kept() -> None:
    data = chart_model(title="x" * 200, unit="x" * 200, categories=["Search", "x" * 200])
    block = parsed_v2(data, Limits(chart_categories=2, chart_series=1)).sections[0].blocks[1]
    assert isinstance(block, ChartBlock)
    assert block.unit == "x" * 200


def test_a_dashboard_series_unit_is_a_short_text() -> None:
    data = dashboard()
    data["sections"][0]["blocks"][0]["series"][2]["unit"] = SHORT
    refusal = problem(data)
    assert (refusal.code, refusal.message, refusal.where) == (
        "surface.limit",
        SHORT_LIMIT,
        "model.sections.0.blocks.0.series.2.unit",
    )


@pytest.mark.parametrize(
    "extra",
    [{"categories": []}, {"series": []}],
)
def test_a_chart_without_categories_or_series_is_empty(extra: Json) -> None:
    refusal = problem(chart_model(**extra))
    assert (refusal.code, refusal.message, refusal.where) == (
        "surface.empty",
        "a chart needs categories and at least one series",
        "model.sections.0.blocks.1",
    )


def test_chart_counts_say_the_limit_and_the_place() -> None:
    refusal = problem(chart_model(), Limits(chart_categories=1))
    assert (refusal.code, refusal.message, refusal.where) == (
        "surface.limit",
        "2 chart_categories; the limit chart_categories is 1",
        "model.sections.0.blocks.1.categories",
    )
    two = [{"id": "q3", "label": "A", "values": [1, 2]}, {"id": "q4", "label": "B", "values": [3, 4]}]
    refusal = problem(chart_model(series=two), Limits(chart_series=1))
    assert (refusal.code, refusal.message, refusal.where) == (
        "surface.limit",
        "2 chart_series; the limit chart_series is 1",
        "model.sections.0.blocks.1.series",
    )


def test_a_duplicate_series_is_refused_at_the_second() -> None:
    two = [{"id": "q3", "label": "A", "values": [1, 2]}, {"id": "q3", "label": "B", "values": [3, 4]}]
    refusal = problem(chart_model(series=two))
    assert (refusal.code, refusal.message, refusal.where) == (
        "surface.duplicate-id",
        "id 'q3' is used twice",
        "model.sections.0.blocks.1.series.1.id",
    )


def test_a_series_of_the_wrong_length_says_both_lengths() -> None:
    two = [{"id": "q3", "label": "A", "values": [1, 2]}, {"id": "q4", "label": "B", "values": [3, 4, 5]}]
    refusal = problem(chart_model(series=two))
    assert (refusal.code, refusal.message, refusal.where) == (
        "surface.invalid-series",
        "3 values for 2 categories",
        "model.sections.0.blocks.1.series.1.values",
    )


@pytest.mark.parametrize("charts", [[], ["bar", "bar"], ["area", "bar", "area"]])
def test_a_dashboard_lists_each_chart_kind_once(charts: list[str]) -> None:
    data = dashboard()
    data["sections"][0]["blocks"][0]["charts"] = charts
    refusal = problem(data)
    assert (refusal.code, refusal.message, refusal.where) == (
        "surface.invalid-series",
        "charts lists area and/or bar once each",
        "model.sections.0.blocks.0.charts",
    )


@pytest.mark.parametrize("charts", [["bar"], ["area"], ["bar", "area"]])
def test_a_dashboard_may_offer_one_or_both_chart_kinds(charts: list[str]) -> None:
    data = dashboard()
    data["sections"][0]["blocks"][0]["charts"] = charts
    assert parse_model(data).normalised()["sections"][0]["blocks"][0]["charts"] == charts


def test_a_dashboard_text_is_checked_like_a_charts() -> None:
    data = dashboard()
    data["sections"][0]["blocks"][0]["title"] = SHORT
    refusal = problem(data)
    assert (refusal.code, refusal.where) == ("surface.limit", "model.sections.0.blocks.0.title")
    data = dashboard()
    data["sections"][0]["blocks"][0]["series"][1]["values"].pop()
    refusal = problem(data)
    assert (refusal.code, refusal.message, refusal.where) == (
        "surface.invalid-series",
        "11 values for 12 categories",
        "model.sections.0.blocks.0.series.1.values",
    )


def test_a_later_section_and_field_are_checked_at_their_own_index() -> None:
    data = dashboard()
    chart = copy.deepcopy(data["sections"][0]["blocks"][1])
    chart["title"] = SHORT
    data["sections"].append(
        {"id": "more", "blocks": [{"kind": "notice", "tone": "info", "text": "More"}, chart]}
    )
    assert problem(data).where == "model.sections.1.blocks.1.title"
    data = v2_model({"kind": "text", "id": "why", "label": "Why"}, comparison(), itinerary())
    data["fields"][2]["places"][0]["label"] = SHORT
    assert problem(data).where == "model.fields.2.places.0.label"
    data["fields"][2]["places"][0]["label"] = "Belém"
    data["fields"][1]["candidates"][0]["label"] = SHORT
    assert problem(data).where == "model.fields.1.candidates.0.label"
