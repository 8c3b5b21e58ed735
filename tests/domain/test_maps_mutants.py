"""Itinerary maps at their edges: a span that fits the margins exactly, the zoom each axis
allows alone, a bar of exactly a quarter of the map, and tiles placed to a tenth of a pixel."""

from __future__ import annotations

from tasksurface.domain.maps import Scale, Tile, fit, scale_bar


def test_a_wide_span_takes_the_zoom_its_width_allows() -> None:
    # 16 px wide at zoom 0: 512 px at zoom 5 fits the 568 between the side margins, 1,024 at 6 does not
    assert fit([(0, -11.25), (0, 11.25)]).zoom == 5


def test_a_tall_span_takes_the_zoom_its_height_allows() -> None:
    # about 8.5 px tall at zoom 0: about 274 px at zoom 5 fits the 288 between margins, 547 at 6 does not
    assert fit([(6, 0), (-6, 0)]).zoom == 5
    assert fit([(8, 0), (-8, 0)]).zoom == 4


def test_a_span_exactly_as_tall_as_the_room_between_the_margins_fits() -> None:
    # 72 px tall at zoom 0: exactly the 288 px between the top and bottom margins at zoom 2
    assert fit([(45.08903556483101, 0), (-45.08903556483101, 0)]).zoom == 2


def test_a_bar_may_take_exactly_a_quarter_of_the_map() -> None:
    # at this latitude a quarter of the map (160 px) at zoom 14 is exactly 1 km
    assert scale_bar(49.14604070688019, 14) == Scale(160.0, "1 km")
    # a little further north it is a little less than 1 km, so the bar falls to 500 m
    assert scale_bar(49.146041, 14) == Scale(80.0, "500 m")


def test_tiles_start_at_the_row_the_map_starts_in() -> None:
    assert fit([(0, -99.84375), (0, 99.84375)], "T/{z}/{x}/{y}").tiles == (
        Tile("T/2/0/1", -192.0, -76.0),
        Tile("T/2/1/1", 64.0, -76.0),
        Tile("T/2/2/1", 320.0, -76.0),
        Tile("T/2/3/1", 576.0, -76.0),
        Tile("T/2/0/2", -192.0, 180.0),
        Tile("T/2/1/2", 64.0, 180.0),
        Tile("T/2/2/2", 320.0, 180.0),
        Tile("T/2/3/2", 576.0, 180.0),
    )


def test_tiles_are_placed_to_a_tenth_of_a_pixel() -> None:
    view = fit([(10, 10), (11, 11)], "https://tiles.example/{z}/{x}/{y}.png")
    assert view.zoom == 8
    assert view.tiles == (
        Tile("https://tiles.example/8/134/119.png", -55.5, -201.7),
        Tile("https://tiles.example/8/135/119.png", 200.5, -201.7),
        Tile("https://tiles.example/8/136/119.png", 456.5, -201.7),
        Tile("https://tiles.example/8/134/120.png", -55.5, 54.3),
        Tile("https://tiles.example/8/135/120.png", 200.5, 54.3),
        Tile("https://tiles.example/8/136/120.png", 456.5, 54.3),
        Tile("https://tiles.example/8/134/121.png", -55.5, 310.3),
        Tile("https://tiles.example/8/135/121.png", 200.5, 310.3),
        Tile("https://tiles.example/8/136/121.png", 456.5, 310.3),
    )


def test_without_a_tile_server_there_are_no_tiles() -> None:
    assert fit([(10, 10), (11, 11)]).tiles == ()
    assert fit([(10, 10), (11, 11)], "").tiles == ()
