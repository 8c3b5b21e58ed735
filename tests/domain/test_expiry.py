"""Why a stored panel cannot be shown any more: the reason `surface.expired` names, by place."""

from __future__ import annotations

from typing import Any

import pytest

from tasksurface.domain.presentation import expiry
from tasksurface.domain.refusals import Problem
from tasksurface.domain.results import Expired

from .builders import minimal_model
from .builders_v2 import v2_model

SURFACE = "ts_abcdefghijkl"


def meta(model: Any, version: Any = 1, surface: Any = SURFACE) -> dict[str, Any]:
    return {"kind": "dsh/task-surface", "version": version, "surfaceId": surface, "model": model}


@pytest.mark.parametrize("stored", [None, "text", ["dsh/task-surface"]])
def test_without_a_stored_description_the_panel_says_none_was_kept(stored: Any) -> None:
    assert expiry(stored) == Problem(
        "surface.expired", "the host that showed this panel kept no description of it", "no-description"
    )


@pytest.mark.parametrize(
    "stored",
    [
        meta(minimal_model(), version=2),
        meta(minimal_model(), version=None),
        meta({**v2_model(), "version": 3}),
    ],
)
def test_a_panel_written_by_a_newer_version_says_so(stored: dict[str, Any]) -> None:
    assert expiry(stored) == Problem(
        "surface.expired", "a newer version of Task Surface wrote this panel", "newer-version"
    )


def test_a_stored_model_that_no_longer_validates_names_the_refusal() -> None:
    assert expiry(meta({**minimal_model(), "title": 5})) == Problem(
        "surface.expired", "its stored description no longer validates (surface.schema)", "invalid"
    )
    assert expiry(meta({**minimal_model(), "version": True})).where == "invalid"
    assert expiry(meta({**minimal_model(), "version": 2.5})).where == "invalid"
    assert expiry(meta("not a model")).where == "invalid"


def test_a_valid_model_in_a_damaged_envelope_is_damaged() -> None:
    assert expiry(meta(minimal_model(), surface="../x")) == Problem(
        "surface.expired", "its stored description is damaged", "damaged"
    )
    assert expiry(meta(v2_model(), surface=7)).where == "damaged"


def test_an_expired_panel_reads_as_not_open_with_its_recovery_signal() -> None:
    problem = Problem("surface.expired", "its stored description is damaged", "damaged")
    assert Expired(problem).to_wire() == {
        "active": False,
        "reason": "not-open",
        "recovery": {
            "code": "surface.expired",
            "message": "its stored description is damaged",
            "where": "damaged",
        },
    }
