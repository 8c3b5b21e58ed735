"""`show_task_surface` through a real ToolContext over a real database.

The tool definition is pinned by a golden file. After an intended change to the
definition (name, description or JSON schema), regenerate it with:

    TASKSURFACE_UPDATE_GOLDEN=1 .venv/bin/pytest tests/agent/test_show_task_surface.py -k golden

and review the diff of tests/agent/golden/show_task_surface_tool.json like any other change.
"""

from __future__ import annotations

import copy
import dataclasses
import json
import os
from pathlib import Path
from typing import Any

import pytest

from tasksurface.agent.ports import ModelReply, ToolDefinition
from tasksurface.agent.tools import Tool, ToolContext, ToolOutcome, ToolRegistry
from tasksurface.backends.demos import DEMOS
from tasksurface.config import Settings
from tasksurface.domain.events import (
    NewEvent,
    SessionEvent,
    text_content,
    tool_result,
    user_message,
    user_source,
)
from tasksurface.domain.ids import CallId, MessageId, RpcId, SessionId, is_wire_id
from tasksurface.domain.parser import parse_arguments
from tasksurface.services.container import build_tools
from tasksurface.store import log
from tasksurface.store.db import Database
from tasksurface.tools.show_task_surface import ShowTaskSurface

from .harness import (
    Executed,
    FakeModel,
    RecordingTool,
    call,
    kinds,
    log_events,
    now,
    refusal_code,
    running,
    session_info,
    text_of,
)

GOLDEN = Path(__file__).parent / "golden" / "show_task_surface_tool.json"
UPDATE_GOLDEN = os.environ.get("TASKSURFACE_UPDATE_GOLDEN") == "1"

RAW_MODEL: dict[str, Any] = {
    "version": 1,
    "title": "Choose a plan",
    "description": None,
    "sections": [
        {
            "id": "info",
            "blocks": [
                {"kind": "markdown", "text": "Two **options**."},
                {"kind": "diff", "before": None, "after": "x = 1\n"},
            ],
        }
    ],
    "fields": [
        {"kind": "text", "id": "why", "label": "Why?"},
        {"kind": "toggle", "id": "go", "label": "Go ahead?"},
    ],
    "submit": {"label": "Send"},
}

# The same model written out canonically: absent layout is a stack, text flags are
# explicit, a null description is absent, and the meaningful null of a diff stays.
NORMALISED_MODEL: dict[str, Any] = {
    "version": 1,
    "title": "Choose a plan",
    "sections": [
        {
            "id": "info",
            "layout": {"kind": "stack"},
            "blocks": [
                {"kind": "markdown", "text": "Two **options**."},
                {"kind": "diff", "before": None, "after": "x = 1\n"},
            ],
        }
    ],
    "fields": [
        {"kind": "text", "id": "why", "label": "Why?", "multiline": False, "required": False},
        {"kind": "toggle", "id": "go", "label": "Go ahead?"},
    ],
    "submit": {"label": "Send"},
}


def arguments(model: dict[str, Any]) -> str:
    return json.dumps({"model": model})


def new_session(database: Database) -> SessionId:
    sid = SessionId("s_tool_test_0001")
    with database.write() as db:
        log.create_session(db, sid, "tool test", now())
    return sid


def context(
    database: Database, sid: SessionId, call_id: str = "call_test_0001", depth: int = 0
) -> ToolContext:
    return ToolContext(sid, CallId(call_id), database, depth)


def log_result(database: Database, sid: SessionId, call_id: str, outcome: ToolOutcome) -> None:
    """Append the tool's result the way the runner does."""
    payload = tool_result(CallId(call_id), "show_task_surface", outcome.ok, outcome.text, outcome.meta)
    with database.write() as db:
        log.append(db, sid, NewEvent("tool/result", payload), now())


def log_user_message(database: Database, sid: SessionId, text: str) -> None:
    payload = user_message(
        MessageId("msg_tool_test_01"), user_source(RpcId("rpc_tool_test_01")), text_content(text)
    )
    with database.write() as db:
        log.append(db, sid, NewEvent("user/message", payload), now())


def serialised(definition: ToolDefinition) -> str:
    return json.dumps(dataclasses.asdict(definition), sort_keys=True, indent=2) + "\n"


def model_with(**changes: Any) -> dict[str, Any]:
    model = copy.deepcopy(RAW_MODEL)
    model.update(changes)
    return model


def field(**extra: Any) -> dict[str, Any]:
    return {"kind": "text", "id": "f", "label": "F", **extra}


# -- a valid model ----------------------------------------------------------------------


def test_a_valid_model_opens_with_the_normalised_model_and_concludes_the_turn(database: Database) -> None:
    sid = new_session(database)
    outcome = ShowTaskSurface().execute(context(database, sid), arguments(RAW_MODEL))

    assert outcome.ok is True
    assert outcome.conclude_turn is True
    assert outcome.meta is not None
    surface_id = outcome.meta["surfaceId"]
    assert is_wire_id(surface_id)
    assert outcome.meta == {
        "kind": "dsh/task-surface",
        "version": 1,
        "surfaceId": surface_id,
        "model": NORMALISED_MODEL,
    }
    assert surface_id in outcome.text
    assert "ordinary message" in outcome.text
    assert "Choose a plan" in outcome.text
    assert json.loads(json.dumps(outcome.meta)) == outcome.meta  # persistable as JSON, unchanged


def test_every_successful_call_mints_a_new_surface_id(database: Database) -> None:
    sid = new_session(database)
    tool = ShowTaskSurface()
    first = tool.execute(context(database, sid), arguments(RAW_MODEL))
    second = tool.execute(context(database, sid), arguments(RAW_MODEL))
    assert first.meta and second.meta
    assert first.meta["surfaceId"] != second.meta["surfaceId"]


@pytest.mark.parametrize("demo", sorted(DEMOS))
def test_every_demo_model_is_accepted_as_its_own_normal_form(database: Database, demo: str) -> None:
    sid = new_session(database)
    outcome = ShowTaskSurface().execute(context(database, sid), arguments(DEMOS[demo]))
    assert outcome.ok and outcome.meta is not None
    normal = outcome.meta["model"]
    assert normal == parse_arguments(arguments(DEMOS[demo])).normalised()
    again = ShowTaskSurface().execute(context(database, sid), arguments(normal))
    assert again.meta is not None and again.meta["model"] == normal  # normalising is idempotent


# -- refusals ---------------------------------------------------------------------------


INVALID: list[tuple[str, str, str]] = [
    ("not-json", "{model: 1}", "surface.invalid-json"),
    (
        "duplicate-key",
        '{"model": ' + json.dumps(RAW_MODEL) + ', "model": ' + json.dumps(RAW_MODEL) + "}",
        "surface.duplicate-key",
    ),
    ("extra-argument", json.dumps({"model": RAW_MODEL, "mode": "modal"}), "surface.invalid-arguments"),
    ("no-model", "{}", "surface.invalid-arguments"),
    ("version-3", arguments(model_with(version=3)), "surface.unsupported-version"),
    (
        "unknown-block",
        arguments(model_with(sections=[{"id": "s", "blocks": [{"kind": "chart", "data": [1]}]}])),
        "surface.unknown-kind",
    ),
    ("unknown-property", arguments(model_with(fields=[field(placeholder="x")])), "surface.unknown-property"),
    ("wrong-type", arguments(model_with(title=7)), "surface.schema"),
    ("duplicate-id", arguments(model_with(fields=[field(), field()])), "surface.duplicate-id"),
    (
        "unknown-column",
        arguments(
            model_with(
                sections=[
                    {
                        "id": "s",
                        "blocks": [
                            {"kind": "table", "columns": [{"id": "a", "label": "A"}], "rows": [{"b": 1}]}
                        ],
                    }
                ]
            )
        ),
        "surface.unknown-column",
    ),
    (
        "invalid-initial",
        arguments(
            model_with(
                fields=[
                    {
                        "kind": "choice",
                        "id": "c",
                        "label": "C",
                        "options": [{"id": "a", "label": "A"}],
                        "initial": "z",
                    }
                ]
            )
        ),
        "surface.invalid-initial",
    ),
    ("empty", arguments(model_with(sections=[], fields=[])), "surface.empty"),
    (
        "too-many-fields",
        arguments(model_with(fields=[field(id=f"f{n}") for n in range(33)])),
        "surface.limit",
    ),
]


@pytest.mark.parametrize(
    ("raw", "code"), [(raw, code) for _, raw, code in INVALID], ids=[i for i, _, _ in INVALID]
)
def test_an_invalid_model_is_refused_with_its_code_and_no_meta(
    database: Database, raw: str, code: str
) -> None:
    sid = new_session(database)
    outcome = ShowTaskSurface().execute(context(database, sid), raw)
    assert outcome.ok is False
    assert refusal_code(outcome.text) == code
    assert outcome.meta is None
    assert outcome.conclude_turn is False


def test_a_second_surface_is_refused_while_one_is_open(database: Database) -> None:
    sid = new_session(database)
    tool = ShowTaskSurface()
    opened = tool.execute(context(database, sid, "call_first_0001"), arguments(RAW_MODEL))
    assert opened.meta is not None
    log_result(database, sid, "call_first_0001", opened)
    active = session_info(database, sid).projection.active
    assert active is not None and active.surface_id == opened.meta["surfaceId"]

    refused = tool.execute(context(database, sid, "call_second_002"), arguments(RAW_MODEL))
    assert refused.ok is False and refused.meta is None and refused.conclude_turn is False
    assert refusal_code(refused.text) == "surface.already-open"
    assert opened.meta["surfaceId"] in refused.text

    log_user_message(database, sid, "never mind the panel")  # an ordinary message bypasses it
    assert session_info(database, sid).projection.active is None
    reopened = tool.execute(context(database, sid, "call_third_0003"), arguments(RAW_MODEL))
    assert reopened.ok is True


def test_a_call_at_depth_greater_than_zero_is_refused_as_nested(database: Database) -> None:
    sid = new_session(database)
    outcome = ShowTaskSurface().execute(context(database, sid, depth=1), arguments(RAW_MODEL))
    assert outcome.ok is False and outcome.meta is None and outcome.conclude_turn is False
    assert refusal_code(outcome.text) == "surface.nested-call"


def test_a_call_dispatched_by_another_tool_is_refused_as_nested(database: Database) -> None:
    sid = new_session(database)
    executed: list[Executed] = []

    def dispatch(inner: ToolContext, args: str) -> ToolOutcome:
        assert inner.dispatch is not None
        return inner.dispatch("show_task_surface", args)

    registry = ToolRegistry([ShowTaskSurface(), RecordingTool("wrapper", executed, run=dispatch)])
    outcome = registry.execute(context(database, sid), "wrapper", arguments(RAW_MODEL))
    assert executed == [Executed("wrapper", arguments(RAW_MODEL), 0)]
    assert outcome.ok is False and outcome.meta is None and outcome.conclude_turn is False
    assert refusal_code(outcome.text) == "surface.nested-call"


def test_a_nested_call_through_the_runner_opens_nothing(database: Database) -> None:
    def dispatch(inner: ToolContext, args: str) -> ToolOutcome:
        assert inner.dispatch is not None
        return inner.dispatch("show_task_surface", args)

    def answer(history: list[SessionEvent]) -> ModelReply:
        if history[-1].kind == "user/message":
            return ModelReply(None, [call("call_wrap_0001", "wrapper", arguments(RAW_MODEL))])
        return ModelReply("that did not work")

    model = FakeModel(answer)
    tools: list[Tool] = [ShowTaskSurface(), RecordingTool("wrapper", [], run=dispatch)]
    with running(database, model, tools) as world:
        sid = world.sessions.create()
        world.sessions.send(sid, "show me a panel from inside a tool")
        world.settle(1)

        (result,) = [e for e in log_events(database, sid) if e.kind == "tool/result"]
        assert result.payload["ok"] is False and "meta" not in result.payload
        assert refusal_code(text_of(result)) == "surface.nested-call"
        assert session_info(database, sid).projection.active is None
        assert len(model.calls) == 2  # not concluded: the model heard about the refusal
        assert kinds(database, sid)[-1] == "assistant/message"


# -- the definition ---------------------------------------------------------------------


def test_the_definition_matches_the_golden_file() -> None:
    text = serialised(ShowTaskSurface().definition)
    if UPDATE_GOLDEN:
        GOLDEN.parent.mkdir(exist_ok=True)
        GOLDEN.write_text(text, encoding="utf-8")
    assert GOLDEN.read_text(encoding="utf-8") == text, (
        "the show_task_surface definition changed; if that is intended, regenerate the golden "
        "file with TASKSURFACE_UPDATE_GOLDEN=1 (see this module's docstring)"
    )


def test_the_golden_definition_names_the_tool_and_requires_only_a_model() -> None:
    golden = json.loads(GOLDEN.read_text(encoding="utf-8"))
    assert golden["name"] == "show_task_surface"
    assert golden["parameters"]["required"] == ["model"]
    assert golden["parameters"]["additionalProperties"] is False
    assert set(golden["parameters"]["properties"]) == {"model"}


def test_the_definition_is_byte_identical_across_instances_and_calls(database: Database) -> None:
    sid = new_session(database)
    tool = ShowTaskSurface()
    before = serialised(tool.definition)
    assert serialised(ShowTaskSurface().definition) == before
    for raw in (arguments(DEMOS["compare"]), arguments(DEMOS["plan"]), "not json", arguments(RAW_MODEL)):
        tool.execute(context(database, sid), raw)
    assert serialised(tool.definition) == before
    assert serialised(ShowTaskSurface().definition) == before


@pytest.mark.parametrize(("mode", "advertised"), [("native", True), ("both", True), ("code", False)])
def test_the_tool_is_advertised_in_native_and_both_modes_only(mode: str, advertised: bool) -> None:
    settings = Settings(database_url="sqlite://", secret_key="test-secret-key", tool_mode=mode)
    names = [d.name for d in build_tools(settings).definitions()]
    assert ("show_task_surface" in names) is advertised
    if advertised:
        (definition,) = [d for d in build_tools(settings).definitions() if d.name == "show_task_surface"]
        assert serialised(definition) == serialised(ShowTaskSurface().definition)
