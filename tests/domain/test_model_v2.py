"""Version 2 models: what parses (and normalises to itself) and what is refused, by code and place."""

from __future__ import annotations

from typing import Any

import pytest

from tasksurface.domain.limits import DEFAULT_LIMITS, Limits
from tasksurface.domain.model import TaskSurfaceModelV1
from tasksurface.domain.model_v2 import TaskSurfaceModelV2
from tasksurface.domain.parser import parse_model
from tasksurface.domain.refusals import SurfaceRefused

from .builders import minimal_model, option
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

Json = dict[str, Any]


def refused(data: Json, limits: Limits = DEFAULT_LIMITS) -> tuple[str, str]:
    with pytest.raises(SurfaceRefused) as info:
        parse_model(data, limits)
    return info.value.code, info.value.problem.where


def test_a_version_one_model_stays_version_one() -> None:
    model = parse_model(minimal_model())
    assert type(model) is TaskSurfaceModelV1 and model.normalised()["version"] == 1


def test_version_one_refuses_the_kinds_and_keys_of_version_two() -> None:
    assert refused(minimal_model(fields=[number_field()])) == ("surface.unknown-kind", "model.fields.0")
    assert refused(minimal_model(actions=[])) == ("surface.unknown-property", "model.actions")
    v1_text_with_help = minimal_model(fields=[text2(help="Say it")])
    assert refused(v1_text_with_help) == ("surface.unknown-property", "model.fields.0.text.help")


def test_every_version_two_kind_normalises_to_itself() -> None:
    data = v2_model(
        number_field(minimum=1, maximum=9, step=2, integer=True, unit="people", initial=3, help="Odd"),
        date_field(minimum="2026-01-01", maximum="2026-12-31", initial="2026-02-28", required=True),
        text2(minLength=2, maxLength=9, format="email", placeholder="a@b.c", pattern="[a-z@.]+"),
        choice2(filterable=True, presentation="cards", required=False),
        multi2(minItems=1, maxItems=2, initial=["veg"]),
        toggle2(required=True),
        review_field(path="cfg.toml", language="toml"),
        text2("why", "Why", visibleWhen={"field": "stay", "in": ["other"]}),
        submit=choices(("ok", "Approve"), ("no", "Reject")),
        actions=[{"id": "dry", "label": "Dry run"}],
    )
    model = parsed_v2(data)
    normal = model.normalised()
    assert parse_model(normal).normalised() == normal
    assert normal["fields"][7]["visibleWhen"] == {"field": "stay", "in": ["other"]}
    assert normal["fields"][6]["before"] == "a\nb\nc\nd\ne\nf\ng\n"
    assert normal["submit"]["actions"][0] == {"id": "ok", "label": "Approve", "tone": "neutral"}
    assert normal["fields"][3]["required"] is False and normal["fields"][0]["required"] is False


def test_defaults_are_written_out() -> None:
    normal = parsed_v2(v2_model(choice2(), multi2(), review_field(before=None, after="x\n"))).normalised()
    assert normal["fields"][0]["required"] is True  # a choice must be answered unless it says not
    assert normal["fields"][0]["presentation"] == "list" and normal["fields"][0]["filterable"] is False
    assert normal["fields"][1]["required"] is False
    assert normal["fields"][2]["before"] is None and normal["fields"][2]["required"] is True
    assert normal["actions"] == []


@pytest.mark.parametrize(
    ("field", "code", "where"),
    [
        (number_field(minimum=5, maximum=4), "surface.invalid-bounds", "model.fields.0"),
        (number_field(integer=True, step=0.5), "surface.invalid-bounds", "model.fields.0"),
        (number_field(integer=True, minimum=0.5), "surface.invalid-bounds", "model.fields.0"),
        (number_field(integer=True, maximum=9.5), "surface.invalid-bounds", "model.fields.0"),
        (number_field(step=0), "surface.schema", "model.fields.0.number.step"),
        (number_field(step=-1), "surface.schema", "model.fields.0.number.step"),
        (number_field(minimum=True), "surface.schema", "model.fields.0.number.minimum.int"),
        (number_field(maximum=3, initial=4), "surface.invalid-initial", "model.fields.0.initial"),
        (number_field(minimum=3, initial=2), "surface.invalid-initial", "model.fields.0.initial"),
        (
            number_field(step=0.25, minimum=0.5, initial=0.6),
            "surface.invalid-initial",
            "model.fields.0.initial",
        ),
        (number_field(integer=True, initial=2.0), "surface.invalid-initial", "model.fields.0.initial"),
        (number_field(unit="x" * 201), "surface.limit", "model.fields.0.unit"),
        (date_field(minimum="2026-02-30"), "surface.invalid-date", "model.fields.0.minimum"),
        (date_field(maximum="2026-1-01"), "surface.invalid-date", "model.fields.0.maximum"),
        (date_field(initial="2026-01-01T00:00"), "surface.invalid-date", "model.fields.0.initial"),
        (date_field(minimum="2026-03-01", maximum="2026-02-01"), "surface.invalid-bounds", "model.fields.0"),
        (
            date_field(minimum="2026-03-01", initial="2026-02-28"),
            "surface.invalid-initial",
            "model.fields.0.initial",
        ),
        (
            date_field(maximum="2026-03-01", initial="2026-03-02"),
            "surface.invalid-initial",
            "model.fields.0.initial",
        ),
        (text2(minLength=3, maxLength=2), "surface.invalid-bounds", "model.fields.0"),
        (text2(maxLength=0), "surface.schema", "model.fields.0.text.maxLength"),
        (text2(pattern="(?=a)b"), "surface.invalid-pattern", "model.fields.0.pattern"),
        (text2(pattern=r"(a)\1"), "surface.invalid-pattern", "model.fields.0.pattern"),
        (text2(pattern="a" * 501), "surface.limit", "model.fields.0.pattern"),
        (text2(pattern="[0-9]+", initial="12a"), "surface.invalid-initial", "model.fields.0.initial"),
        (text2(maxLength=2, initial="abc"), "surface.invalid-initial", "model.fields.0.initial"),
        (text2(format="email", initial="nope"), "surface.invalid-initial", "model.fields.0.initial"),
        (text2(format="phone"), "surface.schema", "model.fields.0.text.format"),
        (text2(placeholder="x" * 201), "surface.limit", "model.fields.0.placeholder"),
        (text2(help="x" * 1001), "surface.limit", "model.fields.0.help"),
        (multi2(minItems=3, maxItems=2), "surface.invalid-bounds", "model.fields.0"),
        (multi2(minItems=4), "surface.invalid-bounds", "model.fields.0"),
        (multi2(maxItems=1, initial=["veg", "vegan"]), "surface.invalid-initial", "model.fields.0.initial"),
        (multi2(minItems=2, initial=["veg"]), "surface.invalid-initial", "model.fields.0.initial"),
        (choice2(presentation="grid"), "surface.schema", "model.fields.0.choice.presentation"),
        (review_field(before="same\n", after="same\n"), "surface.empty", "model.fields.0"),
        (review_field(path="p" * 201), "surface.limit", "model.fields.0.path"),
        (review_field(language="l" * 201), "surface.limit", "model.fields.0.language"),
    ],
)
def test_a_field_that_cannot_hold_is_refused(field: Json, code: str, where: str) -> None:
    assert refused(v2_model(field)) == (code, where)


def test_bounds_that_meet_are_accepted() -> None:
    parsed_v2(v2_model(number_field(minimum=4, maximum=4, initial=4)))
    parsed_v2(v2_model(date_field(minimum="2026-03-01", maximum="2026-03-01", initial="2026-03-01")))
    parsed_v2(v2_model(text2(minLength=2, maxLength=2, initial="ab"), multi2(minItems=3, maxItems=3)))
    parsed_v2(v2_model(text2(pattern="a" * 500), number_field(step=0.1, minimum=0.2, initial=0.5)))


def test_the_option_limit_of_a_filterable_list_is_its_own() -> None:
    many = [option(f"o{n}") for n in range(51)]
    assert refused(v2_model(choice2(options=many))) == ("surface.limit", "model.fields.0.options")
    parsed_v2(v2_model(choice2(options=many, filterable=True)))
    tight = Limits(filterable_options=51)
    parsed_v2(v2_model(choice2(options=many, filterable=True)), tight)
    over = [option(f"o{n}") for n in range(52)]
    code, where = refused(v2_model(multi2(options=over, filterable=True)), tight)
    assert (code, where) == ("surface.limit", "model.fields.0.options")


def test_a_review_with_too_many_hunks_is_refused() -> None:
    before = "\n".join(f"line {n}" for n in range(9)) + "\n"
    after = "\n".join(f"line {n}" if n % 2 else f"LINE {n}" for n in range(9)) + "\n"  # 5 hunks
    parsed_v2(v2_model(review_field(before=before, after=after)), Limits(review_hunks=5))
    assert refused(v2_model(review_field(before=before, after=after)), Limits(review_hunks=4)) == (
        "surface.limit",
        "model.fields.0",
    )


# --- conditions -------------------------------------------------------------------------


def test_a_condition_names_an_earlier_field_only() -> None:
    later = v2_model(text2("a", "A", visibleWhen={"field": "b", "equals": "x"}), text2("b", "B"))
    assert refused(later) == ("surface.condition-not-earlier", "model.fields.0.visibleWhen.field")
    itself = v2_model(text2("a", "A", visibleWhen={"field": "a", "equals": "x"}))
    assert refused(itself) == ("surface.condition-not-earlier", "model.fields.0.visibleWhen.field")
    unknown = v2_model(text2("a", "A", visibleWhen={"field": "zz", "equals": "x"}))
    assert refused(unknown) == ("surface.condition-unknown-field", "model.fields.0.visibleWhen.field")


@pytest.mark.parametrize(
    "condition",
    [
        {"field": "stay"},
        {"field": "stay", "equals": "hotel", "in": ["other"]},
        {"field": "stay", "in": []},
        {"field": "stay", "equals": "nowhere"},
        {"field": "stay", "in": ["hotel", "nowhere"]},
        {"field": "stay", "equals": True},
    ],
)
def test_a_condition_must_name_values_its_field_can_have(condition: Json) -> None:
    code, where = refused(v2_model(choice2(), text2(visibleWhen=condition)))
    assert code == "surface.invalid-condition" and where.startswith("model.fields.1.visibleWhen")


@pytest.mark.parametrize(
    ("controller", "value", "fits"),
    [
        (toggle2(), True, True),
        (toggle2(), "yes", False),
        (number_field(), 3, True),
        (number_field(), 2.5, True),
        (number_field(), True, False),
        (number_field(), "3", False),
        (date_field(), "2026-05-01", True),
        (date_field(), "May 1", False),
        (text2("t", "T"), "exact", True),
        (text2("t", "T"), 1, False),
        (multi2(), "veg", True),
        (multi2(), "meat", False),
        ({"kind": "order", "id": "o", "label": "O", "options": [option("a")]}, "a", False),
        (review_field(), "h1", False),
    ],
)
def test_a_condition_value_fits_the_kind_of_its_field(controller: Json, value: Any, fits: bool) -> None:
    data = v2_model(controller, text2("dep", "Dep", visibleWhen={"field": controller["id"], "equals": value}))
    if fits:
        parsed_v2(data)
    else:
        assert refused(data)[0] == "surface.invalid-condition"


def test_the_values_of_in_are_bounded_by_the_option_limit() -> None:
    data = v2_model(text2("t", "T"), text2("d", "D", visibleWhen={"field": "t", "in": ["a", "b", "c"]}))
    parsed_v2(data, Limits(options=3))
    assert refused(data, Limits(options=2)) == ("surface.limit", "model.fields.1.visibleWhen.in")


# --- submit choices and actions ---------------------------------------------------------


def test_submit_choices_and_actions_share_one_namespace_and_a_limit() -> None:
    clash = v2_model(submit=choices(("go", "Go")), actions=[{"id": "go", "label": "Go now"}])
    assert refused(clash) == ("surface.duplicate-id", "model.actions.0.id")
    assert refused(v2_model(submit={"actions": []})) == ("surface.empty", "model.submit")
    nine = choices(*[(f"a{n}", "A") for n in range(9)])
    assert refused(v2_model(submit=nine)) == ("surface.limit", "model.submit.actions")
    parsed_v2(v2_model(submit=choices(*[(f"a{n}", "A") for n in range(8)])))
    many = [{"id": f"x{n}", "label": "X"} for n in range(9)]
    assert refused(v2_model(actions=many)) == ("surface.limit", "model.actions")
    assert refused(v2_model(actions=[{"id": "x", "label": "y" * 201}])) == (
        "surface.limit",
        "model.actions.0.label",
    )
    label = choices(("go", "g" * 201))
    assert refused(v2_model(submit=label)) == ("surface.limit", "model.submit.actions.0.label")
    tone = {"actions": [{"id": "go", "label": "Go", "tone": "loud"}]}
    assert refused(v2_model(submit=tone))[0] == "surface.schema"


def test_a_version_two_model_is_a_task_surface_model_v2() -> None:
    assert isinstance(parse_model(v2_model()), TaskSurfaceModelV2)
