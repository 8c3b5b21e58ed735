"""TaskSurfaceModelV2: version 1 and more (typed inputs, constraints, conditions, review, actions).

Every V2 field class extends its V1 namesake, so whatever treats a V1 text field treats a V2
one the same way; the V2 attributes only add rules. Names follow JSON Schema and MCP
elicitation (`minLength`, `minimum`, `format`) because models already know them, so the
attributes keep their wire spelling.
"""

from __future__ import annotations

from typing import Annotated, Any, ClassVar, Literal

from pydantic import ConfigDict, Field

from .model import (
    ChoiceField,
    DiffBlock,
    MarkdownBlock,
    MetricsBlock,
    ModelId,
    MultiChoiceField,
    NoticeBlock,
    Option,
    OrderField,
    SubmitAction,
    TableBlock,
    TaskSurfaceModelV1,
    TextField,
    ToggleField,
    _Strict,
)
from .model import Section as SectionV1
from .workspaces import ChartBlock, ComparisonFieldBase, DashboardBlock, ItineraryFieldBase

Number = int | float
ConditionValue = str | int | float | bool


class VisibleWhen(_Strict):
    """Show a field only while an earlier field has one value (`equals`) or one of some (`in`)."""

    model_config = ConfigDict(populate_by_name=True)

    field: ModelId
    equals: ConditionValue | None = None
    in_: list[ConditionValue] | None = Field(None, alias="in")


class _Common(_Strict):
    """What every V2 field may carry besides its kind's own attributes."""

    help: str | None = None
    """A sentence under the label; plain text."""
    visibleWhen: VisibleWhen | None = None


class TextFieldV2(_Common, TextField):
    minLength: int | None = Field(None, ge=0)
    maxLength: int | None = Field(None, ge=1)
    format: Literal["email", "url"] | None = None
    placeholder: str | None = None
    pattern: str | None = None
    """RE2 syntax, matched against the whole value on the server only."""


class NumberField(_Common):
    kind: Literal["number"]
    id: ModelId
    label: str
    required: bool = False
    minimum: Number | None = None
    maximum: Number | None = None
    step: Number | None = Field(None, gt=0)
    """Valid values are `minimum` (or 0) plus a whole number of steps."""
    integer: bool = False
    unit: str | None = None
    initial: Number | None = None


class DateField(_Common):
    kind: Literal["date"]
    id: ModelId
    label: str
    required: bool = False
    minimum: str | None = None
    maximum: str | None = None
    initial: str | None = None
    """Calendar dates as ISO 8601 `YYYY-MM-DD`: no time, so no time zone can shift them."""


class ChoiceFieldV2(_Common, ChoiceField):
    required: bool = True
    """As in version 1, a choice must be answered unless it says otherwise."""
    filterable: bool = False
    presentation: Literal["list", "cards"] = "list"


class MultiChoiceFieldV2(_Common, MultiChoiceField):
    required: bool = False
    """Required means at least one option (or `minItems`)."""
    minItems: int | None = Field(None, ge=0)
    maxItems: int | None = Field(None, ge=1)
    filterable: bool = False


class ToggleFieldV2(_Common, ToggleField):
    required: bool = False
    """Required means it must be switched on (e.g. "I have read the terms")."""


class OrderFieldV2(_Common, OrderField):
    required: bool = False
    """An order always has a value; accepted for uniformity, it adds no rule."""


class ReviewField(_Common):
    """A change the user accepts or rejects hunk by hunk; the hunks are the host's."""

    _keep_none: ClassVar[frozenset[str]] = frozenset({"before"})

    kind: Literal["review"]
    id: ModelId
    label: str
    required: bool = True
    """Required means every hunk needs a decision before the panel can be submitted."""
    path: str | None = None
    before: str | None
    """`null` means the file is new."""
    after: str
    language: str | None = None


class ComparisonField(_Common, ComparisonFieldBase):
    """Candidates compared on properties; answered like a choice or a multi-choice (ids)."""

    required: bool = True


class ItineraryField(_Common, ItineraryFieldBase):
    """Places put in visit order; the answer is the place ids in that order."""

    required: bool = False
    """Required means at least one stop (or `minItems`)."""


FieldV2 = Annotated[
    TextFieldV2
    | NumberField
    | DateField
    | ChoiceFieldV2
    | MultiChoiceFieldV2
    | ToggleFieldV2
    | OrderFieldV2
    | ReviewField
    | ComparisonField
    | ItineraryField,
    Field(discriminator="kind"),
]
AnyFieldV2 = (
    TextFieldV2
    | NumberField
    | DateField
    | ChoiceFieldV2
    | MultiChoiceFieldV2
    | ToggleFieldV2
    | OrderFieldV2
    | ReviewField
    | ComparisonField
    | ItineraryField
)

BlockV2 = Annotated[
    MarkdownBlock | MetricsBlock | TableBlock | DiffBlock | NoticeBlock | ChartBlock | DashboardBlock,
    Field(discriminator="kind"),
]


class SectionV2(SectionV1):
    blocks: list[BlockV2]  # type: ignore[assignment]


class SubmitChoice(_Strict):
    """One way to submit, e.g. Approve / Request changes / Reject."""

    id: ModelId
    label: str
    tone: Literal["primary", "neutral", "danger"] = "neutral"


class SubmitChoices(_Strict):
    """Several submit buttons; the chosen one's id is part of the one submission."""

    actions: list[SubmitChoice]


class PanelAction(_Strict):
    """A non-blocking button: it sends one correlated message and the panel stays open."""

    id: ModelId
    label: str


class TaskSurfaceModelV2(_Strict):
    version: Literal[2]
    title: str
    description: str | None = None
    sections: list[SectionV2]
    fields: list[FieldV2] = Field(default_factory=list)
    submit: SubmitAction | SubmitChoices
    actions: list[PanelAction] = Field(default_factory=list)

    def normalised(self) -> dict[str, Any]:
        """The canonical JSON form that is persisted and replayed: its values are strict JSON types
        (dates are ISO text), so python mode is that form; the alias gives `in` its wire name."""
        return self.model_dump(by_alias=True)

    def field(self, field_id: str) -> AnyFieldV2 | None:
        return next((f for f in self.fields if f.id == field_id), None)

    def submit_choice(self, choice_id: str) -> SubmitChoice | None:
        if not isinstance(self.submit, SubmitChoices):
            return None
        return next((a for a in self.submit.actions if a.id == choice_id), None)

    def action(self, action_id: str) -> PanelAction | None:
        return next((a for a in self.actions if a.id == action_id), None)


TaskSurfaceModel = TaskSurfaceModelV1 | TaskSurfaceModelV2
"""Either version; code that serves both takes this."""

__all__ = [
    "ChartBlock",
    "ChoiceFieldV2",
    "ComparisonField",
    "DashboardBlock",
    "DateField",
    "ItineraryField",
    "MultiChoiceFieldV2",
    "NumberField",
    "Option",
    "OrderFieldV2",
    "PanelAction",
    "ReviewField",
    "SubmitChoice",
    "SubmitChoices",
    "TaskSurfaceModel",
    "TaskSurfaceModelV2",
    "TextFieldV2",
    "ToggleFieldV2",
    "VisibleWhen",
]
