"""The projection fold (which surface is open, from the log alone) and presentation meta."""

from __future__ import annotations

from typing import Any

import pytest

from tasksurface.domain.events import tool_result
from tasksurface.domain.ids import CallId, TaskSurfaceId
from tasksurface.domain.limits import Limits
from tasksurface.domain.presentation import (
    META_KIND,
    TOOL_NAME,
    presentation_meta,
    read_presentation,
)
from tasksurface.domain.projection import (
    EMPTY,
    ActiveSurface,
    TaskSurfaceProjection,
    closes_as_submission,
    fold,
    fold_all,
)

from .builders import (
    CALL,
    OTHER_SURFACE,
    SURFACE,
    dismissal,
    event,
    full_model,
    minimal_model,
    ordinary_message,
    parsed,
    submission_message,
    surface_call,
    surface_meta,
    surface_result,
)

OPEN = TaskSurfaceProjection(ActiveSurface(CALL, SURFACE, 2))


# --- opening ----------------------------------------------------------------------------


def test_a_successful_surface_result_opens_it() -> None:
    state = fold(EMPTY, surface_result(seq=7))
    assert state == TaskSurfaceProjection(ActiveSurface(CallId(CALL), TaskSurfaceId(SURFACE), 7))
    assert state.active is not None and state.active.result_seq == 7


def test_the_empty_projection_has_nothing_open() -> None:
    assert EMPTY.active is None
    assert fold_all([]) == EMPTY


def test_a_failed_result_does_not_open() -> None:
    assert fold(EMPTY, surface_result(ok=False)) == EMPTY


@pytest.mark.parametrize("name", ["ask_user_question", "show_task_surface_v2", "Show_Task_Surface", ""])
def test_another_tool_does_not_open(name: str) -> None:
    assert fold(EMPTY, surface_result(name=name)) == EMPTY


def meta_with(**changes: Any) -> dict[str, Any]:
    meta = surface_meta()
    for key, value in changes.items():
        if value is ...:
            del meta[key]
        else:
            meta[key] = value
    return meta


@pytest.mark.parametrize(
    "meta",
    [
        meta_with(kind="dsh/other"),
        meta_with(kind=None),
        meta_with(kind=...),
        meta_with(version=2),
        meta_with(version="1"),
        meta_with(version=True),
        meta_with(version=...),
        meta_with(surfaceId="short"),
        meta_with(surfaceId="has spaces in it"),
        meta_with(surfaceId="x" * 65),
        meta_with(surfaceId=12345678),
        meta_with(surfaceId=None),
        meta_with(surfaceId=...),
    ],
    ids=[
        "other kind",
        "null kind",
        "no kind",
        "version 2",
        "version string",
        "version true",
        "no version",
        "short surfaceId",
        "surfaceId with spaces",
        "long surfaceId",
        "numeric surfaceId",
        "null surfaceId",
        "no surfaceId",
    ],
)
def test_bad_meta_does_not_open(meta: dict[str, Any]) -> None:
    assert fold(EMPTY, surface_result(meta=meta)) == EMPTY


@pytest.mark.parametrize("meta", [None, [], "dsh/task-surface"])
def test_meta_that_is_not_an_object_does_not_open(meta: Any) -> None:
    payload = tool_result(CALL, TOOL_NAME, True, "shown")
    payload["meta"] = meta
    assert fold(EMPTY, event(2, "tool/result", payload)) == EMPTY


def test_a_result_without_meta_does_not_open() -> None:
    assert fold(EMPTY, event(2, "tool/result", tool_result(CALL, TOOL_NAME, True, "shown"))) == EMPTY


@pytest.mark.parametrize("call_id", ["bad", "", "call id with spaces"])
def test_a_malformed_call_id_does_not_open(call_id: str) -> None:
    assert fold(EMPTY, surface_result(call_id=call_id)) == EMPTY


@pytest.mark.parametrize("ok", [1, "true", None])
def test_only_ok_true_opens(ok: Any) -> None:
    payload = tool_result(CALL, TOOL_NAME, True, "shown", surface_meta())
    payload["ok"] = ok
    assert fold(EMPTY, event(2, "tool/result", payload)) == EMPTY


def test_a_result_that_does_not_open_leaves_an_open_surface_open() -> None:
    assert fold(OPEN, surface_result(seq=9, ok=False, surface_id=OTHER_SURFACE)) == OPEN
    assert fold(OPEN, surface_result(seq=9, name="other_tool")) == OPEN


# --- closing ----------------------------------------------------------------------------


def test_the_matching_submission_closes_it() -> None:
    assert fold(OPEN, submission_message(3)) == EMPTY


def test_any_later_ordinary_user_message_closes_it_as_a_bypass() -> None:
    assert fold(OPEN, ordinary_message(3)) == EMPTY


def test_a_user_message_with_nothing_open_changes_nothing() -> None:
    assert fold(EMPTY, ordinary_message(3)) == EMPTY
    assert fold(EMPTY, submission_message(3)) == EMPTY


def test_dismissal_of_the_active_surface_closes_it() -> None:
    assert fold(OPEN, dismissal(3)) == EMPTY


def test_dismissal_of_another_surface_leaves_it_open() -> None:
    assert fold(OPEN, dismissal(3, surface_id=OTHER_SURFACE)) == OPEN


def test_dismissal_with_nothing_open_changes_nothing() -> None:
    assert fold(EMPTY, dismissal(3)) == EMPTY


@pytest.mark.parametrize(
    "other",
    [
        surface_call(5),
        event(5, "assistant/message", {"messageId": "msg_00000005", "content": []}),
        event(5, "agent/error", {"message": "boom"}),
        event(5, "session/rewound", {"toSeq": 1}),
    ],
    ids=["tool/call", "assistant/message", "agent/error", "session/rewound"],
)
def test_other_kinds_change_nothing(other: Any) -> None:
    assert fold(OPEN, other) is OPEN
    assert fold(EMPTY, other) is EMPTY


def test_closes_as_submission_recognises_only_the_matching_submission() -> None:
    assert closes_as_submission(submission_message(3), SURFACE)
    assert not closes_as_submission(submission_message(3, surface_id=OTHER_SURFACE), SURFACE)
    assert not closes_as_submission(ordinary_message(3), SURFACE)
    assert not closes_as_submission(dismissal(3), SURFACE)
    assert not closes_as_submission(surface_result(3), SURFACE)


# --- folding a log ----------------------------------------------------------------------


def test_fold_all_follows_a_whole_session() -> None:
    log = [
        ordinary_message(1, "help me choose"),
        surface_call(2),
        surface_result(3),
        event(4, "assistant/message", {"content": []}),
    ]
    assert fold_all(log) == TaskSurfaceProjection(ActiveSurface(CALL, SURFACE, 3))

    log += [submission_message(5), surface_call(6, "call_00000002")]
    assert fold_all(log) == EMPTY

    log.append(surface_result(7, call_id="call_00000002", surface_id=OTHER_SURFACE))
    assert fold_all(log) == TaskSurfaceProjection(ActiveSurface(CallId("call_00000002"), OTHER_SURFACE, 7))

    log.append(dismissal(8, surface_id=SURFACE))  # a stale dismissal of the first surface
    assert fold_all(log).active is not None

    log.append(dismissal(9, surface_id=OTHER_SURFACE, call_id="call_00000002"))
    assert fold_all(log) == EMPTY


def test_fold_all_bypass_then_reopen() -> None:
    log = [surface_result(1), ordinary_message(2), surface_result(3, surface_id=OTHER_SURFACE)]
    assert fold_all(log) == TaskSurfaceProjection(ActiveSurface(CALL, OTHER_SURFACE, 3))


def test_fold_all_continues_from_a_given_state() -> None:
    assert fold_all([event(5, "agent/error", {})], OPEN) == OPEN
    assert fold_all([dismissal(5)], OPEN) == EMPTY


def test_fold_all_equals_folding_one_at_a_time() -> None:
    log = [surface_result(1), ordinary_message(2), surface_result(3), dismissal(4), surface_result(5)]
    state = EMPTY
    for e in log:
        state = fold(state, e)
    assert fold_all(log) == state


# --- presentation meta ------------------------------------------------------------------


def test_presentation_meta_carries_the_normalised_model() -> None:
    model = parsed(full_model())
    meta = presentation_meta(SURFACE, model)
    assert meta == {"kind": META_KIND, "version": 1, "surfaceId": SURFACE, "model": model.normalised()}
    assert META_KIND == "dsh/task-surface"


def test_read_presentation_returns_the_model_for_good_meta() -> None:
    model = parsed(full_model())
    presentation = read_presentation(presentation_meta(SURFACE, model))
    assert presentation is not None
    assert presentation.surface_id == SURFACE
    assert presentation.model == model
    assert presentation.model.normalised() == model.normalised()


def test_read_presentation_normalises_a_valid_but_unnormalised_model() -> None:
    meta = {"kind": META_KIND, "version": 1, "surfaceId": SURFACE, "model": minimal_model()}
    presentation = read_presentation(meta)
    assert presentation is not None
    assert presentation.model.normalised()["sections"][0]["layout"] == {"kind": "stack"}


@pytest.mark.parametrize(
    "meta",
    [
        meta_with(kind=...),
        meta_with(version=...),
        meta_with(surfaceId=...),
        meta_with(model=...),
        meta_with(extra=1),
        meta_with(kind="dsh/other"),
        meta_with(version=2),
        meta_with(version=True),
        meta_with(version="1"),
        meta_with(surfaceId="bad"),
        meta_with(surfaceId=None),
        meta_with(model={}),
        meta_with(model=None),
        meta_with(model=minimal_model(version=3)),
        meta_with(model=minimal_model(sections=[{"id": "s", "blocks": [{"kind": "chart"}]}])),
        meta_with(model=minimal_model(extra=True)),
    ],
    ids=[
        "no kind",
        "no version",
        "no surfaceId",
        "no model",
        "extra key",
        "wrong kind",
        "version 2",
        "version true",
        "version string",
        "bad surfaceId",
        "null surfaceId",
        "empty model",
        "null model",
        "model version 3",
        "model unknown block",
        "model unknown property",
    ],
)
def test_read_presentation_refuses_malformed_meta(meta: dict[str, Any]) -> None:
    assert read_presentation(meta) is None


@pytest.mark.parametrize("meta", [None, [], "meta", 1])
def test_read_presentation_refuses_meta_that_is_not_an_object(meta: Any) -> None:
    assert read_presentation(meta) is None


def test_read_presentation_applies_the_given_limits() -> None:
    meta = presentation_meta(SURFACE, parsed(full_model()))
    assert read_presentation(meta) is not None
    assert read_presentation(meta, Limits(fields=2)) is None


def test_presentation_meta_round_trips_through_the_projection() -> None:
    state = fold(EMPTY, surface_result(seq=4))
    assert state.active is not None
    payload = surface_result(seq=4).payload
    presentation = read_presentation(payload["meta"])
    assert presentation is not None
    assert presentation.surface_id == state.active.surface_id


@pytest.mark.parametrize(
    "model_change",
    [
        {"sections": [{"id": "s", "blocks": [{"kind": "chart", "data": []}]}]},
        {"fields": [{"kind": "slider", "id": "x", "label": "X"}]},
        {"title": 5},
        {"extra": True},
    ],
    ids=["unknown block kind", "unknown field kind", "wrong type", "unknown property"],
)
def test_meta_whose_model_does_not_revalidate_does_not_open(model_change: dict[str, Any]) -> None:
    meta = {**surface_meta(), "model": {**surface_meta()["model"], **model_change}}
    assert read_presentation(meta) is None
    assert fold(EMPTY, surface_result(meta=meta)) == EMPTY
