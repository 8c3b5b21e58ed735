"""Credential redaction: what a model wrote is shown with keys, tokens and passwords masked.

The log keeps the model's arguments as sent (the model's own history is never rewritten);
every path a person sees (the page, pushes, replay, the panel API read) shows the redacted
model. The detectors are shapes that credentials carry by design — a provider's key prefix,
a JWT's three parts, a PEM block, a password inside a URL — never guesses from entropy, so
ids, hashes and ordinary words are left alone. RE2 runs them, so no input can make them slow.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any

import re2

from . import strict_json
from .model import TaskSurfaceModelV1
from .model_v2 import TaskSurfaceModel, TaskSurfaceModelV2
from .question import OpenQuestion

MASK = "[redacted]"


@dataclass(frozen=True)
class Detector:
    """One shape of credential; the comment above each says what it finds."""

    pattern: str
    group: int = 0
    """The part of the match that is secret (the rest, e.g. `Bearer `, stays readable)."""


DETECTORS: tuple[Detector, ...] = (
    # private key block
    Detector(
        r"-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----(?:[\s\S]*?-----END [A-Z0-9 ]*PRIVATE KEY"
        r"(?: BLOCK)?-----|[A-Za-z0-9+/=\s:,-]*)",
    ),
    # JSON web token
    Detector(r"\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}"),
    # OpenAI or Anthropic key
    Detector(r"\bsk-[A-Za-z0-9_-]{20,}"),
    # AWS access key id
    Detector(r"\b(?:AKIA|ASIA|ABIA|ACCA)[0-9A-Z]{16}\b"),
    # AWS secret access key
    Detector(
        r"(?i:aws_secret_access_key|aws_secret_key|secret_access_key)[\"']?\s*[=:]\s*[\"']?"
        r"([A-Za-z0-9/+=]{40})\b",
        1,
    ),
    # Google API key
    Detector(r"\bAIza[0-9A-Za-z_-]{35}"),
    # GitHub token
    Detector(r"\b(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{22,})"),
    # GitLab token
    Detector(r"\bglpat-[A-Za-z0-9_-]{20,}"),
    # Slack token
    Detector(r"\bxox[abposr]-[A-Za-z0-9-]{10,}"),
    # Slack webhook
    Detector(r"https://hooks\.slack\.com/services/[A-Za-z0-9/_-]+"),
    # Stripe key
    Detector(r"\b(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,}"),
    # Hugging Face token
    Detector(r"\bhf_[A-Za-z0-9]{30,}"),
    # npm token
    Detector(r"\bnpm_[A-Za-z0-9]{36}\b"),
    # PyPI token
    Detector(r"\bpypi-AgEIcHlwaS5vcmc[A-Za-z0-9_-]{20,}"),
    # Azure account key
    Detector(r"(?i:AccountKey)=([A-Za-z0-9+/]{40,}={0,2})", 1),
    # bearer token
    Detector(r"(?i:\bbearer)\s+([A-Za-z0-9._~+/-]{20,}=*)", 1),
    # password in a URL
    Detector(r"\b[A-Za-z][A-Za-z0-9+.-]*://[^\s:/@]+:([^\s@/]+)@", 1),
)


def _options() -> Any:
    options = re2.Options()
    options.log_errors = False
    return options


_COMPILED = tuple((d, re2.compile(d.pattern, _options())) for d in DETECTORS)


def secrets_in(text: str) -> list[tuple[int, int]]:
    """The spans to mask, merged where detectors overlap."""
    spans: list[tuple[int, int]] = []
    for detector, pattern in _COMPILED:
        for match in pattern.finditer(text):
            start, end = match.span(detector.group)
            if end > start:
                spans.append((start, end))
    merged: list[tuple[int, int]] = []
    for start, end in sorted(spans):
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(end, merged[-1][1]))
        else:
            merged.append((start, end))
    return merged


def redact(text: str) -> str:
    spans = secrets_in(text)
    if not spans:
        return text
    pieces: list[str] = []
    last = 0
    for start, end in spans:
        pieces.append(text[last:start])
        pieces.append(MASK)
        last = end
    pieces.append(text[last:])
    return "".join(pieces)


# Keys whose free strings are not display text: they name things, carry syntax or are compared.
# Kinds, formats, tones, presentations and the version need no entry: the schema allows only
# fixed words there, which no detector matches.
_NOT_DISPLAY = frozenset({"id", "field", "equals", "in", "pattern"})


_CELL_MAPS = frozenset({"rows", "values"})
"""Keys whose objects map ids to display cells (table rows, a candidate's property values)."""


def _walk(node: Any, key: str = "", owner: Any = None) -> Any:
    if isinstance(node, str):
        return node if _skip(key, owner) else redact(node)
    if isinstance(node, list):
        return [_walk(item, key, owner) for item in node]
    if isinstance(node, dict):
        if key in _CELL_MAPS:
            return {k: redact(v) if isinstance(v, str) else v for k, v in node.items()}
        return {k: _walk(v, k, node) for k, v in node.items()}
    return node


def _skip(key: str, owner: Any) -> bool:
    if key in _NOT_DISPLAY:
        return True
    if key == "initial" and isinstance(owner, dict):
        return owner.get("kind") != "text"  # other initial values are option ids or typed values
    return False


@lru_cache(maxsize=256)
def _redacted_json(canonical: str) -> str:
    return strict_json.dumps_compact(_walk(strict_json.loads(canonical)))


def redact_model(model: TaskSurfaceModel) -> TaskSurfaceModel:
    """The same model with every display string redacted; ids and typed values are untouched."""
    canonical = strict_json.dumps_compact(model.normalised())
    redacted = _redacted_json(canonical)
    if redacted == canonical:
        return model
    data = strict_json.loads(redacted)
    if isinstance(model, TaskSurfaceModelV2):
        return TaskSurfaceModelV2.model_validate(data)
    return TaskSurfaceModelV1.model_validate(data)


def redact_question(question: OpenQuestion) -> OpenQuestion:
    """A question the model asks, as a person sees it; the log keeps the call as sent."""
    return replace(
        question, question=redact(question.question), options=tuple(redact(o) for o in question.options)
    )
