"""Redaction at its edges: the mask's own text, spans that touch or nest, and which keys of a
model hold ids, conditions or cells rather than display text."""

from __future__ import annotations

import copy

from tasksurface.backends.demos import COMPARE_CARDS
from tasksurface.domain import redaction
from tasksurface.domain.redaction import redact, redact_model, secrets_in

from .builders import option
from .builders_v2 import multi2, parsed_v2, text2, v2_model

KEY = "sk-proj-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789"
TOKEN_ID = "ghp_" + "a" * 36
"""A GitHub token's shape that is also a valid model id (at most 64 characters)."""


def test_the_mask_reads_redacted_in_brackets() -> None:
    assert redact(f"use {KEY} now") == "use [redacted] now"


def test_secrets_that_touch_are_one_mask() -> None:
    pem = "-----BEGIN PRIVATE KEY-----\nab\n-----END PRIVATE KEY-----"
    text = "aws_secret_access_key=" + "A" * 40 + pem + " done"
    assert secrets_in(text) == [(22, 22 + 40 + len(pem))]
    assert redact(text) == "aws_secret_access_key=[redacted] done"


def test_a_secret_inside_a_longer_one_leaves_the_longer_masked_to_its_end() -> None:
    pem = f"-----BEGIN PRIVATE KEY-----\n{KEY}\nMIIEabcdef\n-----END PRIVATE KEY-----"
    assert secrets_in(f"x {pem} y") == [(2, 2 + len(pem))]
    assert redact(f"x {pem} y") == "x [redacted] y"


def test_secrets_apart_are_masked_apart() -> None:
    text = f"{KEY} and {TOKEN_ID}"
    assert secrets_in(text) == [(0, len(KEY)), (len(KEY) + 5, len(text))]
    assert redact(text) == "[redacted] and [redacted]"


def test_a_candidate_s_cells_are_display_text_whatever_its_property_ids() -> None:
    data = copy.deepcopy(COMPARE_CARDS)
    field = data["fields"][0]
    field["properties"][0]["id"] = "pattern"  # a key that elsewhere holds syntax, kept as written
    for candidate in field["candidates"]:
        candidate["values"]["pattern"] = candidate["values"].pop("cpu")
    field["candidates"][0]["values"]["pattern"] = f"key {KEY}"
    redacted = redact_model(parsed_v2(data)).normalised()["fields"][0]["candidates"]
    assert redacted[0]["values"] == {
        "pattern": "key [redacted]",
        "ram": 16,
        "weight": 1.24,
        "battery": 18,
        "linux": False,
    }
    assert redacted[1]["values"]["pattern"] == "12-core x86"


def test_a_condition_keeps_its_field_and_its_value_as_written() -> None:
    model = parsed_v2(
        v2_model(
            text2(TOKEN_ID, "Token", initial=KEY),
            text2("u", "U", visibleWhen={"field": TOKEN_ID, "equals": KEY}),
        )
    )
    fields = redact_model(model).normalised()["fields"]
    assert fields[0]["id"] == TOKEN_ID
    assert fields[0]["initial"] == "[redacted]"
    assert fields[1]["visibleWhen"] == {"field": TOKEN_ID, "equals": KEY}


def test_a_multi_choice_s_initial_option_ids_are_kept_as_written() -> None:
    model = parsed_v2(
        v2_model(
            multi2("d", "Diet", options=[option(TOKEN_ID, "Token"), option("veg")], initial=[TOKEN_ID]),
            title=f"Pick {KEY}",
        )
    )
    redacted = redact_model(model).normalised()
    assert redacted["title"] == "Pick [redacted]"
    assert redacted["fields"][0]["initial"] == [TOKEN_ID]
    assert redacted["fields"][0]["options"][0]["id"] == TOKEN_ID


def test_the_detectors_compile_without_logging_to_stderr() -> None:
    options = redaction._options()
    assert options.log_errors is False
