"""Image paths a model may name: each refusal says why, the figures are the documented ones, and
every accepted extension maps to the format its bytes must decode as."""

from __future__ import annotations

import pytest

from tasksurface.domain.media import image_format, image_path_problem, source_problem


@pytest.mark.parametrize(
    ("path", "why"),
    [
        ("", "a path is 1-200 characters"),
        ("x" * 197 + ".png", "a path is 1-200 characters"),
        ("a\x1f.png", "a path holds no control characters"),
        ("a\x7f.png", "a path holds no control characters"),
        ("C:/a.png", "an image path is relative to the media folder: no scheme or drive"),
        ("a\\b.png", "an image path is relative to the media folder: no backslash"),
        ("a.png?x=1", "an image path is relative to the media folder: no query string"),
        ("a.png#top", "an image path is relative to the media folder: no fragment"),
        ("%2e%2e/a.png", "an image path is relative to the media folder: no percent escapes"),
        ("/etc/a.png", "an image path is relative to the media folder, not absolute"),
        ("a//b.png", "an image path has no empty, '.' or '..' segments"),
        ("./a.png", "an image path has no empty, '.' or '..' segments"),
        ("a/../b.png", "an image path has no empty, '.' or '..' segments"),
        ("a/", "an image path has no empty, '.' or '..' segments"),
        ("a.svg", "an image is a .png, .jpg, .jpeg, .gif or .webp file (no SVG)"),
        ("png", "an image is a .png, .jpg, .jpeg, .gif or .webp file (no SVG)"),
        ("a.png.txt", "an image is a .png, .jpg, .jpeg, .gif or .webp file (no SVG)"),
    ],
)
def test_each_refused_image_path_says_why(path: str, why: str) -> None:
    assert image_path_problem(path) == why


@pytest.mark.parametrize(
    "path", ["a.png", "x" * 196 + ".png", "p/q.JPEG", "a.jpg", "a.jpeg", "a.gif", "a.webp", "deep/er/a.PNG"]
)
def test_a_raster_path_of_up_to_200_characters_is_accepted(path: str) -> None:
    assert image_path_problem(path) is None


def test_each_extension_names_the_format_its_bytes_must_have() -> None:
    assert [image_format(f"x.{e}") for e in ("png", "jpg", "JPEG", "gif", "webp")] == [
        "png",
        "jpeg",
        "jpeg",
        "gif",
        "webp",
    ]


def test_a_source_is_an_http_or_https_address() -> None:
    assert source_problem("https://example.org/photo") is None
    assert source_problem("http://example.org") is None
    assert source_problem("javascript:alert(1)") == "source is an http or https address"
