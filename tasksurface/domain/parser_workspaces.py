"""The rules of the rich workspaces a schema cannot say: ids that are unique and refer to what
exists, initial answers among the candidates or places, series as long as their categories,
and images that can only name raster files in the operator's media folder."""

from __future__ import annotations

from collections.abc import Sequence

from .checks import check_count, check_detail, check_short, check_unique, refuse
from .limits import Limits
from .media import image_path_problem, source_problem
from .model_v2 import ComparisonField, ItineraryField, TaskSurfaceModelV2
from .refusals import SurfaceCode
from .workspaces import ChartBlock, DashboardBlock, ImageRef, Series


def check_workspaces(model: TaskSurfaceModelV2, limits: Limits) -> None:
    for i, section in enumerate(model.sections):
        for j, block in enumerate(section.blocks):
            if isinstance(block, ChartBlock | DashboardBlock):
                _check_series_block(block, limits, f"model.sections.{i}.blocks.{j}")
    for i, field in enumerate(model.fields):
        where = f"model.fields.{i}"
        if isinstance(field, ComparisonField):
            _check_comparison(field, limits, where)
        elif isinstance(field, ItineraryField):
            _check_itinerary(field, limits, where)


def check_image(image: ImageRef | None, limits: Limits, where: str) -> None:
    if image is None:
        return
    problem = image_path_problem(image.path)
    if problem:
        raise refuse(SurfaceCode.INVALID_IMAGE, problem, f"{where}.path")
    if not image.alt.strip():
        raise refuse(SurfaceCode.INVALID_IMAGE, "an image needs alt text", f"{where}.alt")
    check_short(limits, image.alt, f"{where}.alt")
    if image.source is not None:
        reason = source_problem(image.source)
        if reason:
            raise refuse(SurfaceCode.INVALID_IMAGE, reason, f"{where}.source")
        check_detail(limits, image.source, f"{where}.source")


def _check_comparison(field: ComparisonField, limits: Limits, where: str) -> None:
    if not field.candidates:
        raise refuse(SurfaceCode.EMPTY, "a comparison needs at least one candidate", where)
    check_count("candidates", len(field.candidates), limits.candidates, f"{where}.candidates")
    check_count("properties", len(field.properties), limits.properties, f"{where}.properties")
    check_unique((p.id, f"{where}.properties.{k}.id") for k, p in enumerate(field.properties))
    check_unique((c.id, f"{where}.candidates.{k}.id") for k, c in enumerate(field.candidates))
    for k, prop in enumerate(field.properties):
        check_short(limits, prop.label, f"{where}.properties.{k}.label")
        check_short(limits, prop.unit, f"{where}.properties.{k}.unit")
    declared = {p.id for p in field.properties}
    for k, candidate in enumerate(field.candidates):
        at = f"{where}.candidates.{k}"
        check_short(limits, candidate.label, f"{at}.label")
        check_short(limits, candidate.group, f"{at}.group")
        check_detail(limits, candidate.detail, f"{at}.detail")
        check_image(candidate.image, limits, f"{at}.image")
        for key, value in candidate.values.items():
            if key not in declared:
                raise refuse(SurfaceCode.UNKNOWN_REFERENCE, f"no property {key!r}", f"{at}.values.{key}")
            if isinstance(value, str):
                check_detail(limits, value, f"{at}.values.{key}")
    ids = [c.id for c in field.candidates]
    initial = field.initial
    if initial is None:
        return
    if field.select == "one" and (not isinstance(initial, str) or initial not in ids):
        raise refuse(SurfaceCode.INVALID_INITIAL, "initial is one candidate id", f"{where}.initial")
    if field.select == "many" and not _distinct_subset(initial, ids):
        raise refuse(SurfaceCode.INVALID_INITIAL, "initial lists distinct candidate ids", f"{where}.initial")


def _check_itinerary(field: ItineraryField, limits: Limits, where: str) -> None:
    if not field.places:
        raise refuse(SurfaceCode.EMPTY, "an itinerary needs at least one place", where)
    check_count("places", len(field.places), limits.places, f"{where}.places")
    check_unique((p.id, f"{where}.places.{k}.id") for k, p in enumerate(field.places))
    for k, place in enumerate(field.places):
        at = f"{where}.places.{k}"
        check_short(limits, place.label, f"{at}.label")
        check_short(limits, place.group, f"{at}.group")
        check_detail(limits, place.detail, f"{at}.detail")
        check_image(place.image, limits, f"{at}.image")
    low, high = field.minItems, field.maxItems
    if (low is not None and high is not None and low > high) or (low is not None and low > len(field.places)):
        raise refuse(SurfaceCode.INVALID_BOUNDS, "minItems cannot be met", where)
    initial = field.initial
    if initial is None:
        return
    if not _distinct_subset(initial, [p.id for p in field.places]):
        raise refuse(SurfaceCode.INVALID_INITIAL, "initial lists distinct place ids", f"{where}.initial")
    if (high is not None and len(initial) > high) or (low is not None and 0 < len(initial) < low):
        raise refuse(
            SurfaceCode.INVALID_INITIAL, "initial does not fit minItems and maxItems", f"{where}.initial"
        )


def _check_series_block(block: ChartBlock | DashboardBlock, limits: Limits, where: str) -> None:
    check_short(limits, block.title, f"{where}.title")
    if not block.categories or not block.series:
        raise refuse(SurfaceCode.EMPTY, "a chart needs categories and at least one series", where)
    check_count("chart_categories", len(block.categories), limits.chart_categories, f"{where}.categories")
    check_count("chart_series", len(block.series), limits.chart_series, f"{where}.series")
    for k, category in enumerate(block.categories):
        check_short(limits, category, f"{where}.categories.{k}")
    check_unique((s.id, f"{where}.series.{k}.id") for k, s in enumerate(block.series))
    series: Sequence[Series] = block.series
    for k, one in enumerate(series):
        check_short(limits, one.label, f"{where}.series.{k}.label")
        check_short(limits, getattr(one, "unit", None), f"{where}.series.{k}.unit")
        if len(one.values) != len(block.categories):
            raise refuse(
                SurfaceCode.INVALID_SERIES,
                f"{len(one.values)} values for {len(block.categories)} categories",
                f"{where}.series.{k}.values",
            )
    if isinstance(block, ChartBlock):
        check_short(limits, block.unit, f"{where}.unit")
    elif not block.charts or len(set(block.charts)) != len(block.charts):
        raise refuse(SurfaceCode.INVALID_SERIES, "charts lists area and/or bar once each", f"{where}.charts")


def _distinct_subset(value: object, ids: list[str]) -> bool:
    return (
        isinstance(value, list)
        and all(isinstance(v, str) for v in value)
        and len(set(value)) == len(value)
        and set(value) <= set(ids)
    )
