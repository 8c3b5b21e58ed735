"""Itinerary map geometry, figure by figure: the projection, the zoom that fits, the scale bar's
round distances, the tiles behind the places, and the dashboard's range."""

from __future__ import annotations

import pytest

from tasksurface.backends.demos import DASHBOARD, ITINERARY
from tasksurface.domain.dashboard import Summary, explore
from tasksurface.domain.maps import Point, Scale, Tile, fit, scale_bar, world
from tasksurface.domain.workspaces import DashboardBlock


def test_web_mercator_puts_the_equator_in_the_middle_and_the_north_up() -> None:
    assert world(0, 0) == (128.0, 128.0)
    x, y = world(45, 90)
    assert (x, round(y, 4)) == (192.0, 92.0896)
    x, y = world(-45, -90)
    assert (x, round(y, 4)) == (64.0, 163.9104)


@pytest.mark.parametrize(
    ("coordinates", "zoom"),
    [
        ([(0, -99.84375), (0, 99.84375)], 2),  # exactly the 568 px between the side margins at zoom 2
        ([(0, -105.46875), (0, 105.46875)], 1),  # 600 px at zoom 2: one zoom out
        ([(74, 0), (-74, 0)], 0),  # about 320 px tall at zoom 1: more than the 288 between margins
        ([(68.4, 0), (-68.4, 0)], 1),  # about 270 px tall at zoom 1: fits
        ([(85, 0), (-85, 0)], 0),
        ([(0, -180), (0, 180)], 1),
        ([(38.7, -9.1)], 16),
    ],
)
def test_the_map_takes_the_closest_zoom_at_which_every_place_fits_inside_the_margins(
    coordinates: list[tuple[float, float]], zoom: int
) -> None:
    assert fit(coordinates).zoom == zoom


def test_the_demo_itinerary_is_drawn_where_it_was_drawn() -> None:
    view = fit([(p["lat"], p["lon"]) for p in ITINERARY["fields"][0]["places"]])
    assert view.zoom == 13
    assert view.points == (
        Point(72.4, 282.6),
        Point(126.0, 235.6),
        Point(146.4, 238.6),
        Point(291.5, 193.1),
        Point(536.1, 164.0),
        Point(480.8, 168.4),
        Point(553.0, 116.2),
        Point(558.3, 77.4),
        Point(567.6, 98.3),
    )
    assert view.scale == Scale(134.1, "2 km")


@pytest.mark.parametrize(
    ("lat", "zoom", "scale"),
    [
        (0, 0, Scale(127.8, "20000 km")),
        (60, 10, Scale(130.8, "10 km")),  # a metre is longer on the map away from the equator
        (0, 5, Scale(102.2, "500 km")),
        (0, 14, Scale(104.7, "1 km")),
        (38.7, 16, Scale(107.3, "200 m")),
    ],
)
def test_the_scale_bar_is_one_two_or_five_times_a_power_of_ten(lat: float, zoom: int, scale: Scale) -> None:
    assert scale_bar(lat, zoom) == scale


def test_tiles_cover_the_map_inside_the_world_and_wrap_around_it() -> None:
    assert fit([(85, 0), (-85, 0)], "T/{z}/{x}/{y}").tiles == (
        Tile("T/0/0/0", -64.0, 52.0),
        Tile("T/0/0/0", 192.0, 52.0),
        Tile("T/0/0/0", 448.0, 52.0),
    )
    assert [(t.url, t.x, t.y) for t in fit([(0, -180), (0, 180)], "T/{z}/{x}/{y}").tiles] == [
        ("T/1/1/0", -192.0, -76.0),
        ("T/1/0/0", 64.0, -76.0),
        ("T/1/1/0", 320.0, -76.0),
        ("T/1/0/0", 576.0, -76.0),
        ("T/1/1/1", -192.0, 180.0),
        ("T/1/0/1", 64.0, 180.0),
        ("T/1/1/1", 320.0, 180.0),
        ("T/1/0/1", 576.0, 180.0),
    ]


def dashboard() -> DashboardBlock:
    return DashboardBlock.model_validate(DASHBOARD["sections"][0]["blocks"][0])


def test_a_dashboard_range_names_its_categories_and_may_be_a_single_one() -> None:
    view = explore(dashboard(), {"from": "1", "to": "3"})
    assert view.categories == ("W2", "W3", "W4")
    one = explore(dashboard(), {"from": "0", "to": "0"})
    assert (one.start, one.end, one.categories) == (0, 0, ("W1",))
    past = explore(dashboard(), {"from": "12", "to": "11"})
    assert (past.start, past.end) == (0, 11)


def test_a_summary_is_formatted_figure_by_figure() -> None:
    assert Summary(10.0, 2.5, 1.0, 4.0, 4).formatted() == {
        "total": "10",
        "mean": "2.5",
        "minimum": "1",
        "maximum": "4",
    }
