"""Property tests for version 2: valid models round-trip; mutated ones get typed refusals only."""

from __future__ import annotations

import copy
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from tasksurface.domain.formatter import format_submission
from tasksurface.domain.parser import parse_model
from tasksurface.domain.refusals import SubmissionRefused, SurfaceCode, SurfaceRefused
from tasksurface.domain.submission import initial_values, submittable, validate_submission

from .strategies import json_values, valid_models_v2

PROPERTY_SETTINGS = settings(max_examples=80, deadline=None)
TYPED = {code.value for code in SurfaceCode}


@PROPERTY_SETTINGS
@given(valid_models_v2())
def test_a_valid_v2_model_parses_and_its_normal_form_is_a_fixed_point(data: dict[str, Any]) -> None:
    normal = parse_model(data).normalised()
    assert normal["version"] == 2
    assert parse_model(normal).normalised() == normal
    assert parse_model(copy.deepcopy(normal)).normalised() == normal


@PROPERTY_SETTINGS
@given(valid_models_v2())
def test_initial_values_are_valid_drafts_and_format_deterministically(data: dict[str, Any]) -> None:
    model = parse_model(data)
    values = submittable(model, initial_values(model))
    checked, _ = validate_submission(model, values, draft=True)
    assert format_submission(model, checked, None) == format_submission(model, dict(checked), None)


def _objects(node: Any, path: tuple[Any, ...] = ()) -> list[tuple[tuple[Any, ...], dict[str, Any]]]:
    found: list[tuple[tuple[Any, ...], dict[str, Any]]] = []
    if isinstance(node, dict):
        found.append((path, node))
        for key, value in node.items():
            found.extend(_objects(value, (*path, key)))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            found.extend(_objects(value, (*path, index)))
    return found


@PROPERTY_SETTINGS
@given(valid_models_v2(), st.data())
def test_a_mutated_v2_model_is_refused_with_a_typed_code_or_still_valid(
    data: dict[str, Any], draw: Any
) -> None:
    mutated = copy.deepcopy(data)
    objects = [o for _, o in _objects(mutated) if o]
    target = draw.draw(st.sampled_from(objects))
    action = draw.draw(st.sampled_from(["drop", "retype", "add"]))
    key = draw.draw(st.sampled_from(sorted(target)))
    if action == "drop":
        del target[key]
    elif action == "retype":
        target[key] = draw.draw(json_values)
    else:
        target["surprise" + key] = draw.draw(json_values)
    try:
        parse_model(mutated)
    except SurfaceRefused as refusal:
        assert refusal.code in TYPED and refusal.problem.where.startswith("model")


@PROPERTY_SETTINGS
@given(valid_models_v2(), st.dictionaries(st.text(max_size=6), json_values, max_size=4))
def test_any_submitted_values_are_accepted_or_refused_with_typed_problems(
    data: dict[str, Any], values: Any
) -> None:
    model = parse_model(data)
    try:
        validate_submission(model, values, action="ok")
    except SubmissionRefused as refusal:
        assert all(p.code.startswith("submission.") for p in refusal.problems)
