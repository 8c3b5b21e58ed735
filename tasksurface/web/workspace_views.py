"""What the workspace templates need from Python: chart and map geometry, a dashboard's explored
view, which properties differ, and the one place where a block that fails to draw is caught."""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

from flask import Flask, current_app, request
from markupsafe import Markup, escape

from ..domain import strict_json
from ..domain.charts import geometry
from ..domain.dashboard import View, explore
from ..domain.maps import MapView, fit
from ..domain.workspaces import Candidate, DashboardBlock, Price
from .i18n import N_

logger = logging.getLogger(__name__)
FALLBACK = N_("This part of the panel could not be drawn.")


def explore_state(key: str) -> dict[str, str]:
    """The person's view of dashboard `key`, from the form or query that asked for it."""
    prefix = f"d.{key}."
    return {name[len(prefix) :]: value for name, value in request.values.items() if name.startswith(prefix)}


def explore_dashboard(block: DashboardBlock, key: str) -> View:
    return explore(block, explore_state(key))


def explore_requested(seq: int) -> bool:
    """Whether this request explores a dashboard of the row at `seq` (so its replay opens)."""
    return any(name.startswith(f"d.{seq}-") for name in request.args)


def differing_properties(field: Any) -> set[str]:
    """Properties whose values are not all the same across the candidates: the page emphasises them."""
    found: set[str] = set()
    for prop in field.properties:
        seen = {strict_json.dumps_compact(c.values.get(prop.id)) for c in field.candidates}
        if len(seen) > 1:
            found.add(prop.id)
    return found


def candidate_values(candidate: Candidate) -> str:
    """Property values for sorting in the page, as compact JSON in a data attribute."""
    return strict_json.dumps_compact(candidate.values)


def money(price: Price) -> str:
    amount = f"{price.amount:,.2f}" if isinstance(price.amount, float) else f"{price.amount:,}"
    return f"{amount} {price.currency}"


def cell_text(value: object) -> Markup:
    if value is None:
        return Markup('<span class="muted">—</span>')
    if value is True:
        return Markup("✓")
    if value is False:
        return Markup("✗")
    return escape(str(value))


def place_index(field: Any) -> dict[str, int]:
    return {p.id: k for k, p in enumerate(field.places)}


def map_view(field: Any) -> MapView:
    tiles = current_app.extensions["tasksurface"].settings.map_tiles
    return fit([(float(p.lat), float(p.lon)) for p in field.places], tiles)


def render_block(block: Any, prefix: str, key: str, place: Mapping[str, Any] | None) -> Markup:
    """One block, or its fallback: a server error while drawing a block never fails the page."""
    module = current_app.jinja_env.get_template("_surface.html").module
    try:
        return Markup(module.block(block, prefix, key, place))  # type: ignore[attr-defined]
    except Exception:
        logger.exception("drawing a %s block failed", getattr(block, "kind", "?"))
        from flask_babel import gettext

        return Markup(
            '<div class="block block-fallback" role="note" data-code="surface.block-failed">{}</div>'
        ).format(gettext(FALLBACK))


def init_workspaces(app: Flask) -> None:
    settings = app.extensions["tasksurface"].settings
    app.jinja_env.globals.update(
        chart_geometry=geometry,
        explore_dashboard=explore_dashboard,
        explore_requested=explore_requested,
        differing_properties=differing_properties,
        candidate_values=candidate_values,
        money=money,
        cell_text=cell_text,
        place_index=place_index,
        map_view=map_view,
        render_block=render_block,
        tile_attribution=settings.map_attribution,
    )
