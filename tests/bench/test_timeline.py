"""Reading a traced load: the server's points on the page's clock, and the steps taken from them."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))

from timeline import first, load_steps, medians, parse, round_trip_steps

ORIGIN = 1_800_000_000_000.0
"""The page's `performance.timeOrigin`: epoch ms, as the server's points are written."""


def line(after_origin: float, what: str, detail: str = "", thread: str = "Thread-1") -> str:
    return f"{ORIGIN + after_origin:.3f}\t{thread}\t{what}\t{detail}\n"


def test_points_are_put_on_the_page_clock_in_order_and_a_cut_line_is_skipped() -> None:
    lines = [line(40.5, "read", "/assets/app.css"), line(-3.0, "accepted"), "1800000000012.0\tThread-2\tvie"]
    points = parse(lines, ORIGIN)
    assert [(p.at, p.what, p.detail) for p in points] == [
        (-3.0, "accepted", ""),
        (40.5, "read", "/assets/app.css"),
    ]


def test_first_matches_the_detail_s_start_and_only_from_a_time_on() -> None:
    points = parse(
        [line(10, "committed", "user/message"), line(30, "committed", "assistant/message,tool/call")], ORIGIN
    )
    assert first(points, "committed", "assistant/message") == 30
    assert first(points, "committed", after=11) == 30
    assert first(points, "committed", "agent/error") is None


def test_a_load_s_steps_pair_the_browser_s_requests_with_the_server_s_reads() -> None:
    page = "/sessions/s_abc"
    points = parse(
        [
            line(8, "view-in", page),
            line(41, "read", "/assets/app.1.css"),
            line(60, "read", "/assets/session.2.js"),
            line(65, "view-out", page),
        ],
        ORIGIN,
    )
    entries = [
        {"path": "/assets/app.1.css", "start": 25.0, "requestStart": 40.0, "responseEnd": 61.0},
        {"path": "/assets/session.2.js", "start": 26.0, "requestStart": 47.0, "responseEnd": 57.0},
    ]
    steps = load_steps(points, entries, page)
    assert steps == {
        "page drawn": 65,
        "stylesheet: fetch started": 25.0,
        "stylesheet: request sent": 40.0,
        "stylesheet: read by the server": 41,
        "stylesheet: last byte in": 61.0,
        "page script: fetch started": 26.0,
        "page script: request sent": 47.0,
        "page script: read by the server": 60,
        "page script: last byte in": 57.0,
    }


def test_a_file_the_page_did_not_fetch_has_no_steps() -> None:
    steps = load_steps([], [], "/sessions/s_abc")
    assert steps["page drawn"] is None and steps["stylesheet: request sent"] is None


def test_the_round_trip_counts_from_the_click_and_ignores_what_came_before_it() -> None:
    click = 700.0
    points = parse(
        [
            line(150, "push-built", "3.0 ms wall, 2.0 ms CPU"),  # the page's hello, before the click
            line(150.5, "frame-sent", "900", "Thread-3 (_pump)"),
            line(703, "rpc-in"),
            line(707, "committed", "user/message"),
            line(710, "rpc-answered"),
            line(710.2, "frame-sent", "116"),
            line(713, "committed", "assistant/message"),
            line(723.8, "frame-sent", "8545", "Thread-3 (_pump)"),  # before the build noted its end
            line(724, "push-built", "10.0 ms wall, 4.5 ms CPU, 5.25 ms ready for a core"),
        ],
        ORIGIN,
    )
    steps = round_trip_steps(points, click, {"nextArrived": 726.0, "nextVisible": 732.0}, [712.5, 726.0])
    assert steps == pytest.approx(
        {
            "call read": 3,
            "submission committed": 7,
            "call answered": 10,
            "reply committed": 13,
            "push built": 24,
            "push sent": 23.8,
            "answer heard": 12.5,
            "reply heard": 26.0,
            "reply shown": 32.0,
            "push: CPU": 4.5,
            "push: waited for a core": 5.25,
        },
        abs=0.001,  # the server writes its clock to the microsecond
    )


def test_a_build_noted_without_its_wait_for_a_core_still_gives_its_cpu() -> None:
    points = parse([line(724, "push-built", "10.0 ms wall, 4.5 ms CPU")], ORIGIN)
    steps = round_trip_steps(points, 700.0, {})
    assert steps["push: CPU"] == 4.5 and steps["push: waited for a core"] is None
    assert round_trip_steps([], 700.0, {})["push: CPU"] is None


def test_medians_count_only_the_loads_that_had_the_step() -> None:
    rows: list[dict[str, float | None]] = [
        {"a": 10.0, "b": None},
        {"a": 30.0, "b": 5.0},
        {"a": 20.0, "b": None},
    ]
    assert medians(rows) == {"a": (20.0, 3), "b": (5.0, 1)}
    assert medians([{"a": None}]) == {"a": None}
