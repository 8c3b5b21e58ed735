"""TaskSurfaceModelV1 exactly as the seed declares it: strict, closed, tagged on `kind`.

Unknown properties, wrong types and unknown union arms are refused by pydantic; the
parser adds the rules a schema cannot say (unique ids, initial values, limits).
"""

from __future__ import annotations

from typing import Annotated, Any, ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field, SerializerFunctionWrapHandler, model_serializer

ModelId = Annotated[str, Field(pattern=r"^[A-Za-z0-9_.-]{1,64}$")]
"""Ids inside a model: short, readable and safe to use in form field names."""

CellValue = str | int | float | bool | None


class _Strict(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid", frozen=True, allow_inf_nan=False)

    _keep_none: ClassVar[frozenset[str]] = frozenset()
    """Keys whose `null` is meaningful and must survive normalisation."""

    @model_serializer(mode="wrap")
    def _omit_absent(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        data: dict[str, Any] = handler(self)
        return {k: v for k, v in data.items() if v is not None or k in self._keep_none}


class StackLayout(_Strict):
    kind: Literal["stack"]


class GridLayout(_Strict):
    kind: Literal["grid"]
    columns: Literal[2, 3]


Layout = Annotated[StackLayout | GridLayout, Field(discriminator="kind")]


class MarkdownBlock(_Strict):
    kind: Literal["markdown"]
    text: str


class Metric(_Strict):
    label: str
    value: str
    detail: str | None = None


class MetricsBlock(_Strict):
    kind: Literal["metrics"]
    items: list[Metric]


class TableColumn(_Strict):
    id: ModelId
    label: str


class TableBlock(_Strict):
    kind: Literal["table"]
    columns: list[TableColumn]
    rows: list[dict[str, CellValue]]


class DiffBlock(_Strict):
    _keep_none: ClassVar[frozenset[str]] = frozenset({"before"})

    kind: Literal["diff"]
    path: str | None = None
    before: str | None
    """`null` means the file is new."""
    after: str
    language: str | None = None


class NoticeBlock(_Strict):
    kind: Literal["notice"]
    tone: Literal["neutral", "info", "warning"]
    text: str


Block = Annotated[
    MarkdownBlock | MetricsBlock | TableBlock | DiffBlock | NoticeBlock,
    Field(discriminator="kind"),
]


class Section(_Strict):
    id: ModelId
    title: str | None = None
    layout: Layout = StackLayout(kind="stack")
    """Absent means stack; normalisation writes it out."""
    blocks: list[Block]


class Option(_Strict):
    id: ModelId
    label: str
    detail: str | None = None


class TextField(_Strict):
    kind: Literal["text"]
    id: ModelId
    label: str
    multiline: bool = False
    required: bool = False
    initial: str | None = None


class ChoiceField(_Strict):
    kind: Literal["choice"]
    id: ModelId
    label: str
    options: list[Option]
    initial: str | None = None


class MultiChoiceField(_Strict):
    kind: Literal["multi-choice"]
    id: ModelId
    label: str
    options: list[Option]
    initial: list[str] | None = None


class ToggleField(_Strict):
    kind: Literal["toggle"]
    id: ModelId
    label: str
    initial: bool | None = None


class OrderField(_Strict):
    kind: Literal["order"]
    id: ModelId
    label: str
    options: list[Option]
    initial: list[str] | None = None


Field_ = Annotated[
    TextField | ChoiceField | MultiChoiceField | ToggleField | OrderField,
    Field(discriminator="kind"),
]
OptionField = ChoiceField | MultiChoiceField | OrderField


class SubmitAction(_Strict):
    label: str


class TaskSurfaceModelV1(_Strict):
    version: Literal[1]
    title: str
    description: str | None = None
    sections: list[Section]
    fields: list[Field_] = []
    submit: SubmitAction

    def normalised(self) -> dict[str, Any]:
        """The canonical JSON form that is persisted and replayed: every value a V1 model holds is
        already JSON-native (strict str, int, float, bool, lists of them), so python mode is it."""
        return self.model_dump()

    def field(
        self, field_id: str
    ) -> TextField | ChoiceField | MultiChoiceField | ToggleField | OrderField | None:
        return next((f for f in self.fields if f.id == field_id), None)
