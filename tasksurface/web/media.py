"""The operator's media folder, served read-only: only raster images whose bytes decode as the
format their extension names, under a size cap, from inside the folder.

A model can only name a path (the parser refused URLs, traversal, SVG and query strings);
this endpoint checks again, resolves the path inside the folder (no symlink leads out), and
decodes the file with Pillow before a browser sees a byte of it.
"""

from __future__ import annotations

import io
from pathlib import Path

from flask import Blueprint, Response, current_app
from PIL import Image, UnidentifiedImageError

from ..domain.media import image_format, image_path_problem
from .errors import error_response

bp = Blueprint("media", __name__)
PILLOW_FORMATS = {"png": "PNG", "jpeg": "JPEG", "gif": "GIF", "webp": "WEBP"}
MAX_PIXELS = 40_000_000
"""Decoded dimensions beyond this are refused (a decompression bomb is not an image here)."""


def _refuse(status: int, code: str, message: str) -> Response:
    return error_response(status, code, message)


@bp.get("/media/<path:path>")
def image(path: str) -> Response:
    settings = current_app.extensions["tasksurface"].settings
    folder: Path | None = settings.media_folder
    if folder is None:
        return _refuse(404, "media-off", "no media folder is configured")
    problem = image_path_problem(path)
    if problem:
        return _refuse(400, "media-path", problem)
    root = folder.resolve()
    target = (root / path).resolve()
    if not target.is_relative_to(root) or not target.is_file():
        return _refuse(404, "media-not-found", "there is no such image")
    size = target.stat().st_size
    if size > settings.media_max_bytes:
        return _refuse(413, "media-too-large", f"images are served up to {settings.media_max_bytes} bytes")
    data = target.read_bytes()
    wanted = image_format(path)
    try:
        with Image.open(io.BytesIO(data)) as decoded:
            found = (decoded.format or "").upper()
            width, height = decoded.size
            if width * height > MAX_PIXELS:
                return _refuse(415, "media-too-many-pixels", "the image is too large to decode")
            decoded.verify()
    except (UnidentifiedImageError, OSError, SyntaxError, ValueError, Image.DecompressionBombError):
        return _refuse(415, "media-not-an-image", "the file is not a PNG, JPEG, GIF or WebP image")
    if found != PILLOW_FORMATS[wanted]:
        return _refuse(415, "media-wrong-format", f"the file is {found or 'unknown'}, not {wanted}")
    response = Response(data, mimetype=f"image/{wanted}")
    response.headers["Cache-Control"] = "private, max-age=3600"
    return response
