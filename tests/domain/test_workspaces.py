"""The rich workspaces in the domain: parser rules, answers and their text, chart and map
geometry, dashboard summaries and the image paths a model may name."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from tasksurface.backends.demos import COMPARE_CARDS, DASHBOARD, ITINERARY
from tasksurface.domain.charts import format_value, geometry, nice_step
from tasksurface.domain.dashboard import explore, summarise
from tasksurface.domain.formatter import format_submission
from tasksurface.domain.limits import Limits
from tasksurface.domain.maps import fit, scale_bar, world
from tasksurface.domain.media import image_format, image_path_problem
from tasksurface.domain.parser import parse_model
from tasksurface.domain.refusals import SubmissionRefused, SurfaceRefused
from tasksurface.domain.submission import validate_submission
from tasksurface.domain.workspaces import DashboardBlock

from .builders_v2 import comparison, itinerary, parsed_v2, v2_model

Json = dict[str, Any]


def refused(data: Json, limits: Limits | None = None) -> tuple[str, str]:
    with pytest.raises(SurfaceRefused) as info:
        parse_model(data, limits or Limits())
    return info.value.code, info.value.problem.where


def test_the_workspace_demos_are_their_own_normal_form() -> None:
    for demo in (COMPARE_CARDS, DASHBOARD, ITINERARY):
        normal = parse_model(demo).normalised()
        assert parse_model(normal).normalised() == normal


@pytest.mark.parametrize(
    ("change", "code", "where"),
    [
        ({"candidates": []}, "surface.empty", "model.fields.0"),
        ({"initial": "nope"}, "surface.invalid-initial", "model.fields.0.initial"),
        ({"initial": ["x13"]}, "surface.invalid-initial", "model.fields.0.initial"),
        ({"select": "many", "initial": ["x13", "x13"]}, "surface.invalid-initial", "model.fields.0.initial"),
        ({"select": "many", "initial": "x13"}, "surface.invalid-initial", "model.fields.0.initial"),
        (
            {"properties": [{"id": "cpu", "label": "A"}, {"id": "cpu", "label": "B"}]},
            "surface.duplicate-id",
            "model.fields.0.properties.1.id",
        ),
    ],
)
def test_a_comparison_that_cannot_hold_is_refused(change: Json, code: str, where: str) -> None:
    assert refused(v2_model(comparison(**change))) == (code, where)


def test_candidate_values_name_declared_properties_and_prices_name_a_currency() -> None:
    field = comparison()
    field["candidates"][0]["values"]["colour"] = "red"
    assert refused(v2_model(field)) == (
        "surface.unknown-reference",
        "model.fields.0.candidates.0.values.colour",
    )
    field = comparison()
    field["candidates"][0]["price"] = {"amount": 5, "currency": "euro"}
    assert refused(v2_model(field))[0] == "surface.schema"
    assert refused(v2_model(comparison()), Limits(candidates=3)) == (
        "surface.limit",
        "model.fields.0.candidates",
    )
    assert refused(v2_model(comparison()), Limits(properties=4)) == (
        "surface.limit",
        "model.fields.0.properties",
    )


@pytest.mark.parametrize(
    ("path", "ok"),
    [
        ("laptops/x13.png", True),
        ("a.JPG", True),
        ("deep/er/a.webp", True),
        ("photo.gif", True),
        ("https://example.org/a.png", False),
        ("//example.org/a.png", False),
        ("/etc/a.png", False),
        ("../a.png", False),
        ("a/../../b.png", False),
        ("./a.png", False),
        ("a//b.png", False),
        ("C:/a.png", False),
        ("a\\b.png", False),
        ("a.png?x=1", False),
        ("a.png#frag", False),
        ("%2e%2e/a.png", False),
        ("a.svg", False),
        ("a.svgz", False),
        ("a.png.html", False),
        ("noextension", False),
        ("", False),
        ("a\n.png", False),
        ("x" * 197 + ".png", False),
    ],
)
def test_an_image_path_names_a_raster_file_inside_the_media_folder(path: str, ok: bool) -> None:
    assert (image_path_problem(path) is None) is ok


def test_an_image_is_checked_where_it_is_declared() -> None:
    field = comparison()
    field["candidates"][1]["image"] = {"path": "../secret.png", "alt": "X13"}
    assert refused(v2_model(field)) == ("surface.invalid-image", "model.fields.0.candidates.1.image.path")
    field["candidates"][1]["image"] = {"path": "x13.png", "alt": " "}
    assert refused(v2_model(field)) == ("surface.invalid-image", "model.fields.0.candidates.1.image.alt")
    field["candidates"][1]["image"] = {"path": "x13.png", "alt": "X13", "source": "javascript:alert(1)"}
    assert refused(v2_model(field)) == ("surface.invalid-image", "model.fields.0.candidates.1.image.source")
    field["candidates"][1]["image"] = {"path": "x13.png", "alt": "X13", "source": "https://example.org/x13"}
    parsed_v2(v2_model(field))
    place = itinerary()
    place["places"][0]["image"] = {"path": "tower.svg", "alt": "Tower"}
    assert refused(v2_model(place)) == ("surface.invalid-image", "model.fields.0.places.0.image.path")
    assert image_format("a.JPG") == "jpeg" and image_format("b.webp") == "webp"


@pytest.mark.parametrize(
    ("change", "code", "where"),
    [
        ({"places": []}, "surface.empty", "model.fields.0"),
        ({"initial": ["belem", "belem"]}, "surface.invalid-initial", "model.fields.0.initial"),
        ({"initial": ["atlantis"]}, "surface.invalid-initial", "model.fields.0.initial"),
        ({"initial": ["belem"], "minItems": 2}, "surface.invalid-initial", "model.fields.0.initial"),
        ({"maxItems": 3}, "surface.invalid-initial", "model.fields.0.initial"),
        ({"minItems": 10}, "surface.invalid-bounds", "model.fields.0"),
        ({"minItems": 3, "maxItems": 2, "initial": None}, "surface.invalid-bounds", "model.fields.0"),
    ],
)
def test_an_itinerary_that_cannot_hold_is_refused(change: Json, code: str, where: str) -> None:
    field = itinerary(**change)
    if field.get("initial") is None:
        field.pop("initial")
    assert refused(v2_model(field)) == (code, where)


def test_places_have_coordinates_the_map_can_draw() -> None:
    field = itinerary()
    field["places"][0]["lat"] = 89.9
    assert refused(v2_model(field))[0] == "surface.schema"
    field["places"][0]["lat"] = 10
    field["places"][0]["lon"] = 181
    assert refused(v2_model(field))[0] == "surface.schema"


def test_series_are_as_long_as_their_categories() -> None:
    data = copy.deepcopy(DASHBOARD)
    data["sections"][0]["blocks"][1]["series"][0]["values"].append(1)
    assert refused(data) == ("surface.invalid-series", "model.sections.0.blocks.1.series.0.values")
    data = copy.deepcopy(DASHBOARD)
    data["sections"][0]["blocks"][0]["charts"] = ["bar", "bar"]
    assert refused(data) == ("surface.invalid-series", "model.sections.0.blocks.0.charts")
    data = copy.deepcopy(DASHBOARD)
    data["sections"][0]["blocks"][1]["categories"] = []
    data["sections"][0]["blocks"][1]["series"] = []
    assert refused(data) == ("surface.empty", "model.sections.0.blocks.1")
    assert refused(DASHBOARD, Limits(chart_categories=11)) == (
        "surface.limit",
        "model.sections.0.blocks.0.categories",
    )
    assert refused(DASHBOARD, Limits(chart_series=2)) == ("surface.limit", "model.sections.0.blocks.0.series")


# --- answers ----------------------------------------------------------------------------------


def test_a_comparison_is_answered_like_a_choice_or_a_multi_choice() -> None:
    one = parsed_v2(v2_model(comparison()))
    assert validate_submission(one, {"laptop": "p14"})[0] == {"laptop": "p14"}
    for value, code in (
        (None, "submission.required"),
        ("zz", "submission.unknown-option"),
        (["p14"], "submission.wrong-type"),
    ):
        with pytest.raises(SubmissionRefused) as info:
            validate_submission(one, {"laptop": value})
        assert info.value.problems[0].code == code
    assert (
        format_submission(one, {"laptop": "p14"}, None) == "Task Surface: Plan the offsite\n- Laptop: Pro 14"
    )
    many = parsed_v2(v2_model(comparison(select="many", initial=["x13"], required=False)))
    assert format_submission(many, {"laptop": ["fw14", "x13"]}, None).endswith(
        "- Laptop: Frame 14, Carbon X13"
    )
    assert format_submission(many, {"laptop": []}, None).endswith("- Laptop: (none)")


def test_an_itinerary_is_answered_with_place_ids_in_visit_order() -> None:
    model = parsed_v2(v2_model(itinerary()))
    assert validate_submission(model, {"day": ["castle", "belem"]})[0] == {"day": ["castle", "belem"]}
    cases = [
        (["belem"], "submission.too-few"),
        (["belem", "belem"], "submission.duplicate-option"),
        (["belem", "nowhere"], "submission.unknown-option"),
        ([], "submission.required"),
        ("belem", "submission.wrong-type"),
        ([p["id"] for p in ITINERARY["fields"][0]["places"]][:8], "submission.too-many"),
    ]
    for value, code in cases:
        with pytest.raises(SubmissionRefused) as info:
            validate_submission(model, {"day": value})
        assert info.value.problems[0].code == code, value
    text = format_submission(model, {"day": ["castle", "belem"]}, None)
    assert text.endswith("- The day's stops: 1. São Jorge Castle, 2. Belém Tower")


# --- geometry ---------------------------------------------------------------------------------


def test_nice_steps_and_values() -> None:
    assert [nice_step(s) for s in (10, 12, 50, 7, 0.3, 1000)] == [2.0, 2.5, 10.0, 2.0, 0.1, 200.0]
    assert nice_step(0) == 1.0
    assert [format_value(v) for v in (0, 2.0, 2.5, 1234567.0, 0.000012)] == [
        "0",
        "2",
        "2.5",
        "1.23457e+06",
        "1.2e-05",
    ]


def test_bars_start_at_zero_and_leave_gaps_out() -> None:
    g = geometry("bar", ["a", "b", "c"], [[10, None, 30]])
    assert [b.category for b in g.bars] == [0, 2]
    assert g.ticks[0].value == 0 and g.ticks[-1].value == 30
    tall, short = g.bars[1], g.bars[0]
    assert tall.height == pytest.approx(3 * short.height, rel=0.01)
    assert all(round(b.y + b.height, 2) == g.baseline for b in g.bars)


def test_lines_break_at_gaps_and_areas_close_on_the_baseline() -> None:
    g = geometry("area", ["a", "b", "c", "d"], [[1, 2, None, 4]])
    (line,) = g.lines
    assert len(line.paths) == 2 and line.paths[0].count("L") == 1 and len(line.areas) == 2
    assert line.areas[0].endswith("Z") and f" {g.baseline} " in line.areas[0] + " "
    assert geometry("line", ["a"], [[None]]).empty
    assert len(geometry("bar", [str(n) for n in range(100)], [list(range(100))]).labels) == 12  # every 9th


def test_negative_bars_hang_below_the_baseline() -> None:
    g = geometry("bar", ["a", "b"], [[-5, 5]])
    low, high = g.bars
    assert low.y == g.baseline and high.y + high.height == g.baseline


def test_a_dashboard_explores_a_metric_over_a_range() -> None:
    block = DashboardBlock.model_validate(DASHBOARD["sections"][0]["blocks"][0])
    view = explore(block, {"metric": "active", "from": "6", "to": "9", "chart": "bar"})
    assert (view.metric.id, view.start, view.end, view.chart) == ("active", 6, 9, "bar")
    assert view.values == (133, 150, None, 171)
    assert view.summary is not None and (view.summary.total, view.summary.count) == (454.0, 3)
    assert view.summary.minimum == 133 and view.summary.maximum == 171
    assert view.summary.formatted()["mean"] == "151.333"
    fallback = explore(block, {"metric": "nope", "from": "x", "to": "99", "chart": "pie"})
    assert (fallback.metric.id, fallback.start, fallback.end, fallback.chart) == ("signups", 0, 11, "area")
    swapped = explore(block, {"from": "5", "to": "2"})
    assert (swapped.start, swapped.end) == (2, 5)
    assert summarise([None, None]) is None


def test_the_map_fits_its_places_and_its_scale_reads_in_metres() -> None:
    coordinates = [(p["lat"], p["lon"]) for p in ITINERARY["fields"][0]["places"]]
    view = fit(coordinates)
    xs = [p.x for p in view.points]
    ys = [p.y for p in view.points]
    assert min(xs) >= 36 - 0.5 and max(xs) <= 640 - 36 + 0.5 and min(ys) >= 0 and max(ys) <= 360
    assert view.zoom == 13 and view.tiles == ()
    assert world(0, 0) == (128.0, 128.0)
    assert scale_bar(0, 0).label == "20000 km" and scale_bar(38.7, 13).label == "2 km"
    single = fit([(38.7, -9.1)])
    assert single.zoom == 16 and single.points[0].x == 320 and single.points[0].y == 180


def test_tiles_are_drawn_only_from_the_operators_template() -> None:
    view = fit([(38.70, -9.20), (38.72, -9.13)], "https://tiles.example/{z}/{x}/{y}.png")
    assert view.tiles and all(t.url.startswith("https://tiles.example/13/") for t in view.tiles)
    assert all(t.url.endswith(".png") for t in view.tiles)
