"""Chart geometry, figure by figure, for each kind: the plot between its margins (56 px left,
12 right, 12 top, 30 bottom of 640 × 240), ticks at round steps, bars inside their bands, lines
and areas through the band centres, and the figures' text."""

from __future__ import annotations

from tasksurface.domain.charts import Bar, Geometry, Label, Line, Tick, format_value, geometry


def test_bars_stand_on_zero_inside_their_category_bands() -> None:
    assert geometry("bar", ["a", "b"], [[1, 3], [2, None]]) == Geometry(
        640,
        240,
        210.0,
        (Tick(0.0, 210.0, "0"), Tick(1.0, 144.0, "1"), Tick(2.0, 78.0, "2"), Tick(3.0, 12.0, "3")),
        (
            Bar(0, 0, 84.6, 144.0, 114.4, 66.0, 1.0),
            Bar(0, 1, 370.6, 12.0, 114.4, 198.0, 3.0),
            Bar(1, 0, 199.0, 78.0, 114.4, 132.0, 2.0),
        ),
        (),
        (Label(199.0, "a"), Label(485.0, "b")),
        False,
    )


def test_an_area_fills_to_zero_and_a_gap_ends_its_run() -> None:
    assert geometry("area", ["a", "b", "c"], [[-1, 2, None]]) == Geometry(
        640,
        240,
        144.0,
        (Tick(-1.0, 210.0, "-1"), Tick(0.0, 144.0, "0"), Tick(1.0, 78.0, "1"), Tick(2.0, 12.0, "2")),
        (),
        (
            Line(
                0,
                ("M151.33 210.0 L342.0 12.0",),
                ("M151.33 144.0 L151.33 210.0 L342.0 12.0 L342.0 144.0 Z",),
            ),
        ),
        (Label(151.33, "a"), Label(342.0, "b"), Label(532.67, "c")),
        False,
    )


def test_a_flat_line_is_drawn_in_a_range_widened_by_one_each_way() -> None:
    assert geometry("line", ["a", "b"], [[5, 5]]) == Geometry(
        640,
        240,
        210.0,
        (
            Tick(4.0, 210.0, "4"),
            Tick(4.5, 160.5, "4.5"),
            Tick(5.0, 111.0, "5"),
            Tick(5.5, 61.5, "5.5"),
            Tick(6.0, 12.0, "6"),
        ),
        (),
        (Line(0, ("M199.0 111.0 L485.0 111.0",), ()),),
        (Label(199.0, "a"), Label(485.0, "b")),
        False,
    )


def test_a_chart_without_a_value_is_empty_with_its_baseline_at_the_bottom() -> None:
    empty = Geometry(640, 240, 210.0, (), (), (), (), True)
    assert geometry("bar", ["a"], [[None]]) == empty
    assert geometry("area", [], []) == empty


def test_figures_read_without_a_trailing_point_zero() -> None:
    assert [format_value(v) for v in (0, -0.0, 1, 2.0, 10.0, 2.5, 0.125, 1234567.0)] == [
        "0",
        "0",
        "1",
        "2",
        "10",
        "2.5",
        "0.125",
        "1.23457e+06",
    ]
