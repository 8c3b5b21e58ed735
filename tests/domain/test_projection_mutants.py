"""One event at a time: a task notice leaves the panel alone, `closes` gives fold's rule for
a dismissal, and the interactions named are exactly the ones the fold decides."""

from __future__ import annotations

from typing import get_args

from tasksurface.domain.ids import CallId, TaskSurfaceId
from tasksurface.domain.projection import (
    EMPTY,
    ActiveSurface,
    Interaction,
    TaskSurfaceProjection,
    closes,
    fold,
    interaction,
)

from .builders import (
    CALL,
    OTHER_SURFACE,
    SURFACE,
    dismissal,
    event,
    ordinary_message,
    submission_message,
    surface_result,
)

OPEN = TaskSurfaceProjection(ActiveSurface(CallId(CALL), TaskSurfaceId(SURFACE), 2))


def test_a_task_notice_leaves_an_open_panel_open_and_opens_nothing() -> None:
    notice = event(5, "task/notice", {"text": "the build finished"})
    assert fold(OPEN, notice) is OPEN
    assert fold(EMPTY, notice) is EMPTY


def test_the_dismissal_of_this_surface_closes_it() -> None:
    assert closes(dismissal(3), TaskSurfaceId(SURFACE)) is True


def test_the_dismissal_of_another_surface_does_not_close_it() -> None:
    assert closes(dismissal(3, surface_id=OTHER_SURFACE), TaskSurfaceId(SURFACE)) is False


def test_a_dismissal_without_a_surface_id_does_not_close_it() -> None:
    assert closes(event(3, "task-surface/dismissed", {"callId": CALL}), TaskSurfaceId(SURFACE)) is False


def test_any_user_message_closes_it() -> None:
    assert closes(ordinary_message(3), TaskSurfaceId(SURFACE)) is True
    assert closes(submission_message(3), TaskSurfaceId(SURFACE)) is True
    assert closes(submission_message(3, surface_id=OTHER_SURFACE), TaskSurfaceId(SURFACE)) is True


def test_a_result_does_not_close_it() -> None:
    assert closes(surface_result(3, surface_id=OTHER_SURFACE), TaskSurfaceId(SURFACE)) is False


def test_the_interactions_declared_are_the_ones_the_fold_decides() -> None:
    decided = {
        interaction(before, fold(before, logged), logged)
        for before, logged in [
            (EMPTY, surface_result(2)),
            (OPEN, submission_message(3)),
            (OPEN, dismissal(3)),
            (OPEN, ordinary_message(3)),
        ]
    }
    assert decided == {"shown", "submitted", "dismissed", "bypassed"}
    assert get_args(Interaction) == ("shown", "submitted", "dismissed", "bypassed")
