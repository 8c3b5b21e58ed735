"""`call_tool`: strict arguments, one nested dispatch at depth + 1, no presentation metadata."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tasksurface.agent.tools import ToolContext, ToolOutcome, ToolRegistry
from tasksurface.backends.call_tool import CallTool
from tasksurface.domain.ids import CallId, SessionId
from tasksurface.store.db import Database
from tasksurface.store.engine import make_engine
from tasksurface.tools.ask_user_question import AskUserQuestion

from ..agent.harness import Executed, RecordingTool

Runner = Callable[[ToolRegistry, str], ToolOutcome]


@pytest.fixture
def run(tmp_path: Path) -> Iterator[Runner]:
    """Runs `call_tool` from a direct call; these tools never read the (real) database."""
    database = Database(make_engine(f"sqlite:///{tmp_path / 'unused.sqlite3'}"))

    def execute(registry: ToolRegistry, arguments: str) -> ToolOutcome:
        context = ToolContext(SessionId("s_test_0001"), CallId("call_test_0001"), database)
        return registry.execute(context, "call_tool", arguments)

    yield execute
    database.dispose()


def test_it_dispatches_one_nested_call_with_the_arguments_as_json(run: Runner) -> None:
    journal: list[Executed] = []
    registry = ToolRegistry([CallTool(), RecordingTool("lookup", journal)])
    outcome = run(registry, json.dumps({"name": "lookup", "arguments": {"q": "ü"}}))
    assert outcome == ToolOutcome(True, 'lookup got {"q": "ü"}')
    assert journal == [Executed("lookup", '{"q": "ü"}', 1)]


def test_arguments_given_as_a_json_string_pass_through_verbatim(run: Runner) -> None:
    journal: list[Executed] = []
    registry = ToolRegistry([CallTool(), RecordingTool("lookup", journal)])
    run(registry, json.dumps({"name": "lookup", "arguments": '{"q":  1}'}))
    assert journal == [Executed("lookup", '{"q":  1}', 1)]


def test_meta_stays_behind_and_a_requested_checkpoint_still_ends_the_turn(run: Runner) -> None:
    def checkpoint(context: ToolContext, arguments: str) -> ToolOutcome:
        return ToolOutcome(True, "asked", meta={"kind": "x"}, conclude_turn=True)

    registry = ToolRegistry([CallTool(), RecordingTool("ask", [], run=checkpoint)])
    outcome = run(registry, '{"name": "ask", "arguments": {}}')
    assert outcome == ToolOutcome(True, "asked", meta=None, conclude_turn=True)


def test_bad_arguments_are_refused_with_a_readable_error(run: Runner) -> None:
    journal: list[Executed] = []
    registry = ToolRegistry([CallTool(), RecordingTool("lookup", journal)])
    for arguments, expected in [
        ("not json", "not valid JSON"),
        ('{"name": "lookup", "name": "x", "arguments": {}}', "duplicate key 'name'"),
        ('{"name": "lookup"}', 'exactly {"name"'),
        ('{"name": 3, "arguments": {}}', "must be a tool name"),
        ('{"name": "lookup", "arguments": [1]}', "must be a JSON object"),
        ('{"name": "call_tool", "arguments": {}}', "cannot call itself"),
    ]:
        outcome = run(registry, arguments)
        assert not outcome.ok and outcome.text.startswith("error: ") and expected in outcome.text, arguments
    assert journal == []
    missing = run(registry, '{"name": "nothing", "arguments": {}}')
    assert missing == ToolOutcome(False, "error: there is no tool named 'nothing'")


def test_a_question_cannot_be_asked_through_the_dispatcher(run: Runner) -> None:
    registry = ToolRegistry([CallTool(), AskUserQuestion()])
    outcome = run(registry, json.dumps({"name": "ask_user_question", "arguments": {"question": "Which?"}}))
    assert outcome.ok is False
    assert not outcome.waits_for_user
    assert json.loads(outcome.text.removeprefix("error: "))["code"] == "question.nested-call"
