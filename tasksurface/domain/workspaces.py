"""The rich workspaces of version 2 (seed 001): comparison and itinerary fields, chart and
dashboard blocks, and the images candidates and places may carry.

All of it is data: the model names an image by a path inside the operator's media folder and
can never supply a URL the page would load; the optional `source` is an attribution link.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from .model import ModelId, _Strict

CellValue = str | int | float | bool | None
ChartKind = Literal["area", "bar"]
DEFAULT_CHARTS: tuple[ChartKind, ...] = ("area", "bar")
Number = int | float


class ImageRef(_Strict):
    """A raster image in the operator's media folder; the parser refuses URLs, traversal and SVG."""

    path: str
    alt: str
    source: str | None = None
    """The page the image came from, shown as an attribution link and never loaded."""


class Property(_Strict):
    id: ModelId
    label: str
    unit: str | None = None


class Price(_Strict):
    amount: Number
    currency: str = Field(pattern=r"^[A-Z]{3}$")
    """ISO 4217, e.g. EUR."""


class Candidate(_Strict):
    id: ModelId
    label: str
    detail: str | None = None
    group: str | None = None
    price: Price | None = None
    image: ImageRef | None = None
    values: dict[str, CellValue] = Field(default_factory=dict)
    """Property id → value; a property without a value shows as empty."""


class ComparisonFieldBase(_Strict):
    kind: Literal["comparison"]
    id: ModelId
    label: str
    select: Literal["one", "many"]
    properties: list[Property]
    candidates: list[Candidate]
    initial: str | list[str] | None = None
    """A candidate id (`select: one`) or a list of them (`many`)."""


class Place(_Strict):
    id: ModelId
    label: str
    detail: str | None = None
    group: str | None = None
    lat: Number = Field(ge=-85, le=85)
    """Degrees; Web Mercator cannot draw the poles, so the map stops at 85°."""
    lon: Number = Field(ge=-180, le=180)
    image: ImageRef | None = None


class ItineraryFieldBase(_Strict):
    kind: Literal["itinerary"]
    id: ModelId
    label: str
    places: list[Place]
    initial: list[str] | None = None
    """Place ids in visit order."""
    minItems: int | None = Field(None, ge=0)
    maxItems: int | None = Field(None, ge=1)


class Series(_Strict):
    id: ModelId
    label: str
    values: list[Number | None]
    """One value per category; `null` is a gap."""


class ChartBlock(_Strict):
    kind: Literal["chart"]
    title: str | None = None
    type: Literal["bar", "area", "line"]
    categories: list[str]
    series: list[Series]
    unit: str | None = None


class DashboardSeries(Series):
    unit: str | None = None


class DashboardBlock(_Strict):
    """Explored locally: the person picks a metric and a range; nothing is sent."""

    kind: Literal["dashboard"]
    title: str | None = None
    categories: list[str]
    series: list[DashboardSeries]
    charts: list[ChartKind] = Field(default_factory=lambda: list(DEFAULT_CHARTS))
