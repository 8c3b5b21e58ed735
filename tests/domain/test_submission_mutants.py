"""Version 2 refusals written out in full (code, message, place and figures), and the rules a
draft, a chosen action and the new kinds' starting values follow."""

from __future__ import annotations

from typing import Any

import pytest

from tasksurface.domain.limits import Limits
from tasksurface.domain.model_v2 import TaskSurfaceModelV2
from tasksurface.domain.refusals import Problem, SubmissionCode, SubmissionRefused
from tasksurface.domain.submission import (
    initial_values,
    prepare_submission,
    submittable,
    validate_submission,
)

from .builders import option
from .builders_v2 import (
    choice2,
    choices,
    date_field,
    multi2,
    number_field,
    parsed_v2,
    review_field,
    text2,
    toggle2,
    v2_model,
)

C = SubmissionCode
Json = dict[str, Any]


def comparison(select: str = "one", id: str = "laptop", **extra: Any) -> Json:
    return {
        "kind": "comparison",
        "id": id,
        "label": "Laptop",
        "select": select,
        "properties": [{"id": "ram", "label": "Memory"}],
        "candidates": [{"id": "aero", "label": "Aero 13"}, {"id": "book", "label": "Book 14"}],
        **extra,
    }


def itinerary(**extra: Any) -> Json:
    places = [
        {"id": "castle", "label": "Castle", "lat": 38.71, "lon": -9.13},
        {"id": "tower", "label": "Tower", "lat": 38.69, "lon": -9.21},
        {"id": "park", "label": "Park", "lat": 38.73, "lon": -9.15},
    ]
    return {"kind": "itinerary", "id": "day", "label": "Stops", "places": places, **extra}


def refused(model: TaskSurfaceModelV2, values: Any, **kwargs: Any) -> list[Problem]:
    with pytest.raises(SubmissionRefused) as info:
        validate_submission(model, values, **kwargs)
    return info.value.problems


# --- review decisions ---------------------------------------------------------------------


def test_review_refusals_are_written_out() -> None:
    model = parsed_v2(v2_model(review_field()))
    assert refused(model, {"cfg": ["h1"]}) == [
        Problem(C.WRONG_TYPE, "expected a decision for each hunk", "cfg")
    ]
    assert refused(model, {"cfg": {"h9": "accept"}}) == [Problem(C.UNKNOWN_HUNK, "no hunk 'h9'", "cfg")]
    assert refused(model, {"cfg": {"h1": "approve"}}) == [
        Problem(C.WRONG_TYPE, "a decision is accept or reject", "cfg")
    ]
    assert refused(model, {"cfg": {"h2": "reject"}}) == [
        Problem(
            C.UNDECIDED_HUNK,
            "1 of 2 changes still need a decision",
            "cfg",
            {"undecided": 1, "total": 2},
        )
    ]
    assert refused(model, {"cfg": {}}) == [
        Problem(
            C.UNDECIDED_HUNK,
            "2 of 2 changes still need a decision",
            "cfg",
            {"undecided": 2, "total": 2},
        )
    ]


def test_an_unknown_hunk_is_named_before_a_bad_decision_of_a_later_one() -> None:
    model = parsed_v2(v2_model(review_field()))
    assert refused(model, {"cfg": {"h1": "maybe", "h7": "accept"}}) == [
        Problem(C.WRONG_TYPE, "a decision is accept or reject", "cfg")
    ]
    assert refused(model, {"cfg": {"h7": "maybe", "h1": "accept"}}) == [
        Problem(C.UNKNOWN_HUNK, "no hunk 'h7'", "cfg")
    ]


def test_every_hunk_decided_passes_as_sent() -> None:
    model = parsed_v2(v2_model(review_field()))
    decided = {"cfg": {"h1": "reject", "h2": "accept"}}
    assert validate_submission(model, decided) == (decided, None)


# --- comparisons and itineraries ------------------------------------------------------------


def test_comparison_of_one_refusals_are_written_out() -> None:
    model = parsed_v2(v2_model(comparison()))
    assert refused(model, {"laptop": None}) == [Problem(C.REQUIRED, "choose one candidate", "laptop")]
    assert refused(model, {"laptop": 3}) == [Problem(C.WRONG_TYPE, "expected one candidate id", "laptop")]
    assert refused(model, {"laptop": "zz"}) == [
        Problem(C.UNKNOWN_OPTION, "'zz' is not a candidate", "laptop")
    ]
    assert validate_submission(model, {"laptop": "book"}) == ({"laptop": "book"}, None)


def test_an_optional_comparison_of_one_may_stay_unanswered() -> None:
    model = parsed_v2(v2_model(comparison(required=False)))
    assert validate_submission(model, {"laptop": None}) == ({"laptop": None}, None)
    assert refused(model, {"laptop": "zz"}) == [
        Problem(C.UNKNOWN_OPTION, "'zz' is not a candidate", "laptop")
    ]


def test_comparison_of_many_refusals_are_written_out() -> None:
    model = parsed_v2(v2_model(comparison("many")))
    assert refused(model, {"laptop": "aero"}) == [
        Problem(C.WRONG_TYPE, "expected a list of candidate ids", "laptop")
    ]
    assert refused(model, {"laptop": ["aero", 1]}) == [
        Problem(C.WRONG_TYPE, "expected a list of candidate ids", "laptop")
    ]
    assert refused(model, {"laptop": ["aero", "aero"]}) == [
        Problem(C.DUPLICATE_OPTION, "a candidate is listed twice", "laptop")
    ]
    assert refused(model, {"laptop": ["aero", "zz", "yy"]}) == [
        Problem(C.UNKNOWN_OPTION, "'zz' is not a candidate", "laptop")
    ]
    assert refused(model, {"laptop": []}) == [Problem(C.REQUIRED, "choose at least one candidate", "laptop")]
    assert validate_submission(model, {"laptop": ["book", "aero"]}) == ({"laptop": ["book", "aero"]}, None)


def test_an_optional_comparison_of_many_may_be_empty() -> None:
    model = parsed_v2(v2_model(comparison("many", required=False)))
    assert validate_submission(model, {"laptop": []}) == ({"laptop": []}, None)


def test_itinerary_refusals_are_written_out() -> None:
    model = parsed_v2(v2_model(itinerary(required=True, minItems=2, maxItems=2)))
    assert refused(model, {"day": "castle"}) == [Problem(C.WRONG_TYPE, "expected a list of place ids", "day")]
    assert refused(model, {"day": ["castle", "castle"]}) == [
        Problem(C.DUPLICATE_OPTION, "a place is listed twice", "day")
    ]
    assert refused(model, {"day": ["castle", "zoo"]}) == [
        Problem(C.UNKNOWN_OPTION, "'zoo' is not a place", "day")
    ]
    assert refused(model, {"day": []}) == [Problem(C.REQUIRED, "choose at least one place", "day")]
    assert refused(model, {"day": ["castle"]}) == [
        Problem(C.TOO_FEW, "choose at least 2", "day", {"minimum": 2})
    ]
    assert refused(model, {"day": ["castle", "tower", "park"]}) == [
        Problem(C.TOO_MANY, "choose at most 2", "day", {"maximum": 2})
    ]
    assert validate_submission(model, {"day": ["park", "castle"]}) == ({"day": ["park", "castle"]}, None)


def test_an_optional_itinerary_may_have_no_stop_whatever_its_minimum() -> None:
    model = parsed_v2(v2_model(itinerary(minItems=2)))
    assert validate_submission(model, {"day": []}) == ({"day": []}, None)
    assert refused(model, {"day": ["tower"]}) == [
        Problem(C.TOO_FEW, "choose at least 2", "day", {"minimum": 2})
    ]


def test_an_itinerary_without_bounds_takes_any_number_of_stops() -> None:
    model = parsed_v2(v2_model(itinerary()))
    assert validate_submission(model, {"day": ["tower"]}) == ({"day": ["tower"]}, None)
    every = ["park", "tower", "castle"]
    assert validate_submission(model, {"day": every}) == ({"day": every}, None)


def test_an_itinerary_at_its_bounds_passes() -> None:
    model = parsed_v2(v2_model(itinerary(minItems=1, maxItems=3)))
    assert validate_submission(model, {"day": ["tower"]}) == ({"day": ["tower"]}, None)
    every = ["park", "tower", "castle"]
    assert validate_submission(model, {"day": every}) == ({"day": every}, None)


# --- the other version 2 refusals ------------------------------------------------------------


def test_a_required_toggle_refusal_is_written_out() -> None:
    model = parsed_v2(v2_model(toggle2(required=True)))
    assert refused(model, {"terms": False}) == [Problem(C.REQUIRED, "this must be switched on", "terms")]
    assert refused(model, {"terms": "yes"}) == [Problem(C.WRONG_TYPE, "expected true or false", "terms")]
    assert validate_submission(model, {"terms": True}) == ({"terms": True}, None)


def test_an_optional_toggle_may_stay_off() -> None:
    model = parsed_v2(v2_model(toggle2()))
    assert validate_submission(model, {"terms": False}) == ({"terms": False}, None)


def test_an_optional_choice_is_still_held_to_its_options() -> None:
    model = parsed_v2(v2_model(choice2(required=False)))
    assert refused(model, {"stay": "tent"}) == [Problem(C.UNKNOWN_OPTION, "'tent' is not an option", "stay")]
    assert refused(model, {"stay": 1}) == [Problem(C.WRONG_TYPE, "expected one option id", "stay")]


def test_a_required_choice_of_version_2_must_be_answered() -> None:
    model = parsed_v2(v2_model(choice2()))
    assert refused(model, {"stay": None}) == [Problem(C.REQUIRED, "choose one option", "stay")]


def test_version_2_text_and_multi_choice_get_their_own_bounds_after_the_types() -> None:
    model = parsed_v2(v2_model(text2(maxLength=3), multi2(maxItems=1)))
    problems = refused(model, {"name": "four", "diet": ["veg", "vegan"]})
    assert [(p.code, p.where) for p in problems] == [(C.TOO_LONG, "name"), (C.TOO_MANY, "diet")]
    assert refused(model, {"name": 4, "diet": "veg"}) == [
        Problem(C.WRONG_TYPE, "expected text", "name"),
        Problem(C.WRONG_TYPE, "expected a list of option ids", "diet"),
    ]


def test_a_hidden_field_refusal_is_written_out() -> None:
    model = parsed_v2(
        v2_model(choice2(), text2("why", "Why", visibleWhen={"field": "stay", "equals": "other"}))
    )
    assert refused(model, {"stay": "hotel", "why": "x"}) == [
        Problem(C.HIDDEN_FIELD, "this field does not apply, so it is not sent", "why")
    ]


def test_a_field_that_does_not_apply_needs_no_value() -> None:
    model = parsed_v2(
        v2_model(
            choice2(), text2("why", "Why", required=True, visibleWhen={"field": "stay", "equals": "other"})
        )
    )
    assert validate_submission(model, {"stay": "hotel"}) == ({"stay": "hotel"}, None)


# --- the submit action ------------------------------------------------------------------------


def test_action_refusals_are_written_out() -> None:
    model = parsed_v2(v2_model(text2(), submit=choices(("ok", "Approve"), ("no", "Reject"))))
    assert refused(model, {"name": "x"}) == [Problem(C.ACTION_REQUIRED, "choose how to submit", "action")]
    assert refused(model, {"name": "x"}, action="maybe") == [
        Problem(C.UNKNOWN_ACTION, "'maybe' is not a submit action", "action")
    ]
    assert refused(model, {"name": "x"}, action=["ok"]) == [
        Problem(C.UNKNOWN_ACTION, "['ok'] is not a submit action", "action")
    ]
    single = parsed_v2(v2_model(text2()))
    assert refused(single, {"name": "x"}, action="ok") == [
        Problem(C.UNKNOWN_ACTION, "this panel has a single submit button", "action")
    ]
    assert validate_submission(single, {"name": "x"}) == ({"name": "x"}, None)


def test_an_action_problem_comes_before_the_value_problems() -> None:
    model = parsed_v2(v2_model(text2(required=True), submit=choices(("ok", "Approve"))))
    assert [p.code for p in refused(model, {"name": " "})] == [C.ACTION_REQUIRED, C.REQUIRED]


def test_the_chosen_action_counts_toward_the_submission_size() -> None:
    model = parsed_v2(v2_model(text2(), submit=choices(("approve", "Approve"))))
    # {"action":"approve","note":null,"values":{"name":"x"}} is 54 bytes; without the action, 35.
    assert validate_submission(
        model, {"name": "x"}, limits=Limits(submission_bytes=54), action="approve"
    ) == ({"name": "x"}, None)
    assert refused(model, {"name": "x"}, limits=Limits(submission_bytes=53), action="approve") == [
        Problem(C.TOO_LARGE, "the submission is 54 bytes; the limit submission_bytes is 53")
    ]


def test_the_size_refusal_names_the_size_and_the_limit() -> None:
    model = parsed_v2(v2_model(text2()))
    # {"note":null,"values":{"name":"ü"}} is 36 bytes: ü takes two.
    assert validate_submission(model, {"name": "ü"}, limits=Limits(submission_bytes=36))[0] == {"name": "ü"}
    assert refused(model, {"name": "ü"}, limits=Limits(submission_bytes=35)) == [
        Problem(C.TOO_LARGE, "the submission is 36 bytes; the limit submission_bytes is 35")
    ]


def test_a_lone_surrogate_is_counted_then_refused_as_no_text() -> None:
    model = parsed_v2(v2_model(text2()))
    assert refused(model, {"name": "\ud800"}) == [Problem(C.WRONG_TYPE, "expected text", "name")]
    assert refused(model, {"name": "\ud800"}, note="\udfff") == [
        Problem(C.NOTE, "note must be text of at most 4000 characters", "note"),
        Problem(C.WRONG_TYPE, "expected text", "name"),
    ]


# --- drafts of a non-blocking action -------------------------------------------------------


def test_a_draft_may_leave_required_values_short_and_keeps_them_as_they_stand() -> None:
    model = parsed_v2(
        v2_model(
            text2(required=True),
            toggle2(required=True),
            multi2(minItems=2),
            itinerary(required=True, minItems=2),
            review_field(),
            submit=choices(("ok", "Approve")),
        )
    )
    draft = {"name": "", "terms": False, "diet": ["veg"], "day": ["park"], "cfg": {"h1": "accept"}}
    assert validate_submission(model, draft, draft=True) == (draft, None)
    assert [p.code for p in refused(model, draft)] == [
        C.ACTION_REQUIRED,
        C.REQUIRED,
        C.REQUIRED,
        C.TOO_FEW,
        C.TOO_FEW,
        C.UNDECIDED_HUNK,
    ]


def test_a_draft_is_still_held_to_types_options_and_upper_bounds() -> None:
    model = parsed_v2(v2_model(text2(maxLength=2), multi2(maxItems=1), number_field(maximum=5)))
    assert refused(model, {"name": "abc", "diet": ["veg", "halal"], "people": 6}, draft=True) == [
        Problem(C.TOO_LONG, "write at most 2 characters", "name", {"maximum": 2}),
        Problem(C.TOO_MANY, "choose at most 1", "diet", {"maximum": 1}),
        Problem(C.ABOVE_MAXIMUM, "the largest value is 5", "people", {"maximum": 5}),
    ]


def test_a_draft_still_needs_a_value_for_every_field_that_applies() -> None:
    model = parsed_v2(v2_model(text2(), date_field()))
    assert refused(model, {"name": "x"}, draft=True) == [
        Problem(C.MISSING_VALUE, "a value is missing", "start")
    ]


# --- starting values and what is sent ------------------------------------------------------


def test_initial_values_of_comparisons_and_itineraries() -> None:
    model = parsed_v2(
        v2_model(
            comparison(initial="book"),
            comparison("many", id="short", initial=["book", "aero"]),
            comparison("many", id="none"),
            comparison(id="unset"),
            itinerary(initial=["tower", "castle"]),
            itinerary(id="later"),
        )
    )
    assert initial_values(model) == {
        "laptop": "book",
        "short": ["book", "aero"],
        "none": [],
        "unset": None,
        "day": ["tower", "castle"],
        "later": [],
    }


def test_initial_lists_of_the_new_kinds_are_fresh() -> None:
    model = parsed_v2(v2_model(comparison("many", initial=["aero"]), itinerary(initial=["park"])))
    first = initial_values(model)
    first["laptop"].append("book")
    first["day"].append("tower")
    assert initial_values(model) == {"laptop": ["aero"], "day": ["park"]}


def test_submittable_keeps_only_the_values_that_apply() -> None:
    model = parsed_v2(
        v2_model(choice2(), text2("why", "Why", visibleWhen={"field": "stay", "equals": "other"}))
    )
    assert submittable(model, {"stay": "hotel", "why": "old"}) == {"stay": "hotel"}
    assert submittable(model, {"stay": "other", "why": "a tent"}) == {"stay": "other", "why": "a tent"}


def test_prepare_gives_the_chosen_action_to_the_text() -> None:
    model = parsed_v2(v2_model(text2(), submit=choices(("ok", "Approve"), ("no", "Reject"))))
    assert prepare_submission(model, {"name": "x"}, "why not", action="ok") == (
        {"name": "x"},
        "why not",
        "Task Surface: Plan the offsite\n- Decision: Approve\n- Name: x\n- Reason: why not",
    )


def test_prepare_holds_the_action_to_the_panel() -> None:
    model = parsed_v2(v2_model(text2(), submit=choices(("ok", "Approve"))))
    with pytest.raises(SubmissionRefused) as info:
        prepare_submission(model, {"name": "x"}, action="no")
    assert info.value.problems == [Problem(C.UNKNOWN_ACTION, "'no' is not a submit action", "action")]


def test_option_labels_of_version_2_are_the_ones_given() -> None:
    model = parsed_v2(v2_model(choice2(options=[option("h", "Hotel room"), option("t", "Tent")])))
    assert prepare_submission(model, {"stay": "t"})[2] == "Task Surface: Plan the offsite\n- Stay: Tent"
