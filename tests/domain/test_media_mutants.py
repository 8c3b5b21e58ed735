"""Image paths at their edges: a space is no control character, and only the last dot of the
file name starts its extension."""

from __future__ import annotations

from tasksurface.domain.media import image_format, image_path_problem


def test_a_space_is_allowed_in_a_path() -> None:
    assert image_path_problem("my photos/a b.png") is None
    assert image_path_problem(" .png") is None


def test_only_the_last_dot_starts_the_extension() -> None:
    assert image_path_problem("trip.2024/day.1.webp") is None
    assert image_path_problem("a.gif.png") is None
    assert image_format("day.1.webp") == "webp"
    assert image_format("trip.2024/a.gif.JPG") == "jpeg"
