"""The configurable bounds on a Task Surface: they bound log, DOM and prompt cost only."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

KIB = 1024


class Limits(BaseModel):
    """Schema-backed limits; a deployment may tighten or loosen them without a protocol change."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    model_bytes: int = Field(64 * KIB, gt=0)
    """UTF-8 bytes of the normalised model as compact JSON."""
    blocks: int = Field(64, gt=0)
    """Blocks across all sections."""
    fields: int = Field(32, gt=0)
    table_rows: int = Field(200, gt=0)
    """Rows in any one table."""
    submission_bytes: int = Field(32 * KIB, gt=0)
    """UTF-8 bytes of the submitted values and note as compact JSON, and of the formatted text."""
    sections: int = Field(32, gt=0)
    options: int = Field(50, gt=0)
    """Options of any one choice, multi-choice or order field."""
    table_columns: int = Field(24, gt=0)
    metric_items: int = Field(24, gt=0)
    short_text_chars: int = Field(200, gt=0)
    """Titles, labels, ids of display, paths, languages and the submit label."""
    detail_chars: int = Field(1000, gt=0)
    """Option and metric details, descriptions and table cells."""
    note_chars: int = Field(4000, gt=0)
    raw_arguments_bytes: int = Field(256 * KIB, gt=0)
    """Raw tool-argument JSON is refused before parsing beyond this size."""
    filterable_options: int = Field(500, gt=0)
    """Options of a `filterable` choice or multi-choice, which the page lets people search."""
    actions: int = Field(8, gt=0)
    """Submit choices of one panel, and its non-blocking actions."""
    pattern_chars: int = Field(500, gt=0)
    """The RE2 `pattern` of a text field."""
    review_hunks: int = Field(200, gt=0)
    """Hunks of one review field."""
    candidates: int = Field(50, gt=0)
    """Candidates of one comparison."""
    properties: int = Field(24, gt=0)
    """Properties of one comparison."""
    places: int = Field(50, gt=0)
    """Places of one itinerary."""
    chart_categories: int = Field(200, gt=0)
    """Categories of one chart or dashboard."""
    chart_series: int = Field(8, gt=0)
    """Series of one chart or dashboard."""


DEFAULT_LIMITS = Limits()
