"""Itinerary maps: places projected with Web Mercator onto a plane that fits them, a scale bar,
and — only when the operator configured a tile server — the tiles behind them.

The same projection serves both, so places sit on the right streets when tiles are shown and
keep their true shape and distances (near each other) when they are not.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

WIDTH = 640
HEIGHT = 360
PAD = 36
TILE = 256
MAX_ZOOM = 16
EARTH = 40_075_016.686
"""Metres around the equator; at zoom 0 the world is one 256-pixel tile."""


@dataclass(frozen=True)
class Point:
    x: float
    y: float


@dataclass(frozen=True)
class Tile:
    url: str
    x: float
    y: float


@dataclass(frozen=True)
class Scale:
    length: float
    """Pixels of the bar."""
    label: str


@dataclass(frozen=True)
class MapView:
    zoom: int
    points: tuple[Point, ...]
    scale: Scale
    tiles: tuple[Tile, ...]


def world(lat: float, lon: float) -> tuple[float, float]:
    """Web Mercator pixel position at zoom 0."""
    sin = math.sin(math.radians(lat))
    x = (lon + 180.0) / 360.0 * TILE
    y = (0.5 - math.log((1 + sin) / (1 - sin)) / (4 * math.pi)) * TILE
    return x, y


def fit(coordinates: Sequence[tuple[float, float]], tiles: str | None = None) -> MapView:
    """A view of every place with room around them; `tiles` is the operator's URL template."""
    projected = [world(lat, lon) for lat, lon in coordinates]
    xs, ys = [p[0] for p in projected], [p[1] for p in projected]
    span_x, span_y = max(xs) - min(xs), max(ys) - min(ys)
    room_x, room_y = WIDTH - 2 * PAD, HEIGHT - 2 * PAD
    # The closest zoom at which they fit; at zoom 0 the whole world (256 px) always does.
    zoom = next((z for z in range(MAX_ZOOM, 0, -1) if span_x * 2**z <= room_x and span_y * 2**z <= room_y), 0)
    factor = 2**zoom
    centre_x, centre_y = (max(xs) + min(xs)) / 2 * factor, (max(ys) + min(ys)) / 2 * factor
    left, top = centre_x - WIDTH / 2, centre_y - HEIGHT / 2
    points = tuple(Point(round(x * factor - left, 1), round(y * factor - top, 1)) for x, y in projected)
    mean_lat = sum(lat for lat, _ in coordinates) / len(coordinates)
    return MapView(zoom, points, scale_bar(mean_lat, zoom), _tiles(tiles, zoom, left, top) if tiles else ())


def scale_bar(lat: float, zoom: int) -> Scale:
    """A bar of 1, 2 or 5 times a power of ten metres, at most a quarter of the map wide."""
    metres_per_pixel = EARTH * math.cos(math.radians(lat)) / (TILE * 2**zoom)
    budget = WIDTH / 4 * metres_per_pixel
    power = 10 ** math.floor(math.log10(budget))
    distance = max(f * power for f in (1, 2, 5) if f * power <= budget)
    label = f"{distance / 1000:g} km" if distance >= 1000 else f"{distance:g} m"
    return Scale(round(distance / metres_per_pixel, 1), label)


def _tiles(template: str, zoom: int, left: float, top: float) -> tuple[Tile, ...]:
    count = 2**zoom
    found: list[Tile] = []
    for ty in range(math.floor(top / TILE), math.floor((top + HEIGHT) / TILE) + 1):
        if not 0 <= ty < count:
            continue
        for tx in range(math.floor(left / TILE), math.floor((left + WIDTH) / TILE) + 1):
            url = template.replace("{z}", str(zoom)).replace("{x}", str(tx % count)).replace("{y}", str(ty))
            found.append(Tile(url, round(tx * TILE - left, 1), round(ty * TILE - top, 1)))
    return tuple(found)
