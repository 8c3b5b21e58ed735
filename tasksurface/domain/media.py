"""Image paths a model may name: relative paths of raster files inside the operator's media folder.

Refused here, before anything is stored: URLs and anything with a scheme, absolute and
drive paths, `..` and `.` segments, backslashes, query strings and fragments, percent escapes
(no second decoding can turn them into traversal), control characters, SVG and every
extension but PNG, JPEG, GIF and WebP.
"""

from __future__ import annotations

from .constraints import is_web_url

EXTENSIONS = {"png": "png", "jpg": "jpeg", "jpeg": "jpeg", "gif": "gif", "webp": "webp"}
"""Extension → the format its bytes must decode as."""
MAX_PATH_CHARS = 200


def image_path_problem(path: str) -> str | None:
    """Why `path` cannot name a media image, or `None` when it can."""
    if not path or len(path) > MAX_PATH_CHARS:
        return f"a path is 1-{MAX_PATH_CHARS} characters"
    if any(ord(ch) < 0x20 or ord(ch) == 0x7F for ch in path):
        return "a path holds no control characters"
    for forbidden, why in (
        (":", "no scheme or drive"),
        ("\\", "no backslash"),
        ("?", "no query string"),
        ("#", "no fragment"),
        ("%", "no percent escapes"),
    ):
        if forbidden in path:
            return f"an image path is relative to the media folder: {why}"
    if path.startswith("/"):
        return "an image path is relative to the media folder, not absolute"
    segments = path.split("/")
    if any(segment in ("", ".", "..") for segment in segments):
        return "an image path has no empty, '.' or '..' segments"
    extension = segments[-1].rpartition(".")[2].lower() if "." in segments[-1] else ""
    if extension not in EXTENSIONS:
        return "an image is a .png, .jpg, .jpeg, .gif or .webp file (no SVG)"
    return None


def image_format(path: str) -> str:
    """The format the file's bytes must have, by its (checked) extension."""
    return EXTENSIONS[path.rpartition(".")[2].lower()]


def source_problem(source: str) -> str | None:
    """An attribution link is an http(s) address; it is shown, never loaded."""
    return None if is_web_url(source) else "source is an http or https address"
