"""Shipped demo models for the scripted agent (`/surface <name>`); together they use every block
and field kind."""

from __future__ import annotations

from typing import Any

from .inputs import APPROVE, INPUTS
from .version1 import ALL, COMPARE, FIELDS, PLAN, REVIEW
from .workspaces import COMPARE_CARDS, DASHBOARD, ITINERARY

DEMOS: dict[str, dict[str, Any]] = {
    "compare": COMPARE,
    "plan": PLAN,
    "review": REVIEW,
    "fields": FIELDS,
    "all": ALL,
    "inputs": INPUTS,
    "approve": APPROVE,
    "compare-cards": COMPARE_CARDS,
    "dashboard": DASHBOARD,
    "itinerary": ITINERARY,
}
"""Every demo by the name `/surface` takes."""

__all__ = [
    "ALL",
    "APPROVE",
    "COMPARE",
    "COMPARE_CARDS",
    "DASHBOARD",
    "DEMOS",
    "FIELDS",
    "INPUTS",
    "ITINERARY",
    "PLAN",
    "REVIEW",
]
