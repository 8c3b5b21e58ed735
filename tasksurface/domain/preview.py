"""A provisional view of a panel from the arguments a model has streamed so far.

Only what the text already says for good is shown. A string counts once it is whole (jiter's
`partial_mode="on"` leaves an unfinished one out, so no prefix of a credential is ever shown
before redaction could recognise all of it). An element of an array, or the value of an
object's key, counts once a later one has begun or the text has closed; jiter keeps the
unfinished last one, which is dropped here. Junk gives no preview, never an exception, and a
preview is never logged: the committed result replaces it, whatever it showed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import jiter

from .limits import DEFAULT_LIMITS, Limits
from .redaction import redact

SUMMARY_CHARS = 160
"""A block's summary is a glimpse, not the block: the dock shows all of it."""
LABEL_CHARS = 200
BLOCK_KINDS = frozenset({"markdown", "metrics", "table", "diff", "notice", "chart", "dashboard"})
FIELD_KINDS = frozenset(
    {
        "text",
        "choice",
        "multi-choice",
        "toggle",
        "order",
        "number",
        "date",
        "comparison",
        "itinerary",
        "review",
    }
)
_SPACE = re.compile(r"\s+")
_IMAGE_OR_LINK = re.compile(r"!?\[([^\]]*)\]\([^)]*\)")
_LIST_MARK = re.compile(r"^\s*(?:[-+*]|#+|>)\s+", re.MULTILINE)
_EMPHASIS = re.compile(r"[*`]+|(?<!\w)_+|_+(?!\w)")


@dataclass(frozen=True)
class PreviewBlock:
    kind: str
    """The block's kind when it is one the host knows, else `block`."""
    summary: str = ""
    """Plain text: the start of a text, metric labels and values, column labels, a path or title."""
    count: int | None = None
    """Rows of a table, items of a metrics block."""


@dataclass(frozen=True)
class PreviewSection:
    title: str | None
    blocks: tuple[PreviewBlock, ...]


@dataclass(frozen=True)
class PreviewField:
    kind: str
    label: str


@dataclass(frozen=True)
class Preview:
    title: str | None
    description: str | None
    sections: tuple[PreviewSection, ...]
    fields: tuple[PreviewField, ...]
    whole: bool
    """The arguments have closed: everything the model wrote is here."""


def preview(arguments: str, limits: Limits = DEFAULT_LIMITS) -> Preview | None:
    """What the arguments so far show of the panel; `None` when they show nothing (yet)."""
    if len(arguments) > limits.model_bytes:
        return None  # cheap bound first: characters never outnumber UTF-8 bytes
    try:
        data = arguments.encode("utf-8")
        if len(data) > limits.model_bytes:
            return None
        whole = _closes(data)
        root = jiter.from_json(data, partial_mode="off" if whole else "on")
    except ValueError:  # not JSON, too deep, or a lone surrogate
        return None
    if not isinstance(root, dict):
        return None
    keys = _settled_keys(root, not whole)
    model = root.get("model")
    if not isinstance(model, dict):
        return None
    model_open = not whole and "model" not in keys
    model_keys = _settled_keys(model, model_open)
    sections = _sections(model.get("sections"), model_open and "sections" not in model_keys, limits)
    fields = _fields(model.get("fields"), model_open and "fields" not in model_keys, limits)
    title = _text(model.get("title"), LABEL_CHARS)
    if title is None and not sections and not fields:
        return None
    return Preview(title, _text(model.get("description"), limits.detail_chars), sections, fields, whole)


def _closes(data: bytes) -> bool:
    """Whether the text is one whole JSON value (checked only when it could be)."""
    if not data.rstrip().endswith(b"}"):
        return False
    try:
        jiter.from_json(data)
    except ValueError:
        return False
    return True


def _settled_keys(node: dict[str, Any], still_open: bool) -> set[str]:
    """The keys whose values are complete: all but the last while the object may be open."""
    keys = list(node)
    return set(keys[:-1] if still_open else keys)


def _settled(items: object, still_open: bool) -> list[Any]:
    if not isinstance(items, list):
        return []
    return items[:-1] if still_open else items


def _sections(raw: object, still_open: bool, limits: Limits) -> tuple[PreviewSection, ...]:
    if not isinstance(raw, list):
        return ()
    shown: list[PreviewSection] = []
    budget = limits.blocks
    for index, section in enumerate(raw[: limits.sections]):
        if not isinstance(section, dict):
            continue
        # The last section may still be written: its title (a whole string) and its finished
        # blocks show, so the section grows block by block.
        open_here = still_open and index == len(raw) - 1
        keys = _settled_keys(section, open_here)
        blocks = _settled(section.get("blocks"), open_here and "blocks" not in keys)
        drawn = tuple(_block(b) for b in blocks[:budget] if isinstance(b, dict))
        budget -= len(drawn)
        title = _text(section.get("title"), LABEL_CHARS)
        if title is None and not drawn and open_here:
            continue  # just begun: nothing to show yet
        shown.append(PreviewSection(title, drawn))
    return tuple(shown)


def _block(block: dict[str, Any]) -> PreviewBlock:
    kind = block.get("kind")
    if not isinstance(kind, str) or kind not in BLOCK_KINDS:
        return PreviewBlock("block")
    if kind == "markdown":
        return PreviewBlock(kind, _text(_unmarked(block.get("text")), SUMMARY_CHARS) or "")
    if kind == "notice":
        return PreviewBlock(kind, _text(block.get("text"), SUMMARY_CHARS) or "")
    if kind == "metrics":
        items = [i for i in _list(block, "items") if isinstance(i, dict)]
        pairs = [" ".join(t for t in (_plain(i.get("label")), _plain(i.get("value"))) if t) for i in items]
        return PreviewBlock(kind, _clip(" · ".join(p for p in pairs if p), SUMMARY_CHARS), len(items))
    if kind == "table":
        labels = [_plain(c.get("label")) for c in _list(block, "columns") if isinstance(c, dict)]
        summary = _clip(", ".join(label for label in labels if label), SUMMARY_CHARS)
        return PreviewBlock(kind, summary, len(_list(block, "rows")))
    name = block.get("path") if kind == "diff" else block.get("title")
    return PreviewBlock(kind, _text(name, SUMMARY_CHARS) or "")


def _fields(raw: object, still_open: bool, limits: Limits) -> tuple[PreviewField, ...]:
    shown: list[PreviewField] = []
    for item in _settled(raw, still_open)[: limits.fields]:
        if not isinstance(item, dict):
            continue
        kind = item.get("kind")
        known = kind if isinstance(kind, str) and kind in FIELD_KINDS else "field"
        shown.append(PreviewField(known, _text(item.get("label"), LABEL_CHARS) or ""))
    return tuple(shown)


def _list(node: dict[str, Any], key: str) -> list[Any]:
    found = node.get(key)
    return found if isinstance(found, list) else []


def _unmarked(value: object) -> object:
    """Markdown's words without its marks: a glimpse reads as text, and shows no address."""
    if not isinstance(value, str):
        return value
    return _EMPHASIS.sub("", _LIST_MARK.sub("", _IMAGE_OR_LINK.sub(r"\1", value)))


def _plain(value: object) -> str:
    return _SPACE.sub(" ", value).strip() if isinstance(value, str) else ""


def _clip(text: str, limit: int) -> str:
    """Redacted before it is cut, so a cut never splits a credential out of a detector's reach."""
    text = redact(text)
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def _text(value: object, limit: int) -> str | None:
    plain = _plain(value)
    return _clip(plain, limit) if plain else None
