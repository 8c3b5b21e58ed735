"""`ask_user_question`: one short blocking question, answered in the composer area."""

from __future__ import annotations

from typing import Any

from ..agent.ports import ToolDefinition
from ..agent.tools import ToolContext, ToolOutcome
from ..domain.question import (
    MAX_OPTION_CHARS,
    MAX_OPTIONS,
    MAX_QUESTION_CHARS,
    QUESTION_TOOL,
    parse_question,
)
from ..domain.refusals import Problem, QuestionCode, QuestionRefused

DESCRIPTION = (
    "Ask the user one short question and wait for the answer, which comes back as this "
    "call's result. Use it when you cannot go on without a decision or a fact only the user "
    "has. Offer up to six short suggested answers when the likely answers are few; the user "
    "may always write their own. For several related inputs, a table to review or options "
    "to compare, show a Task Surface instead."
)

PARAMETERS: dict[str, Any] = {
    "type": "object",
    "properties": {
        "question": {"type": "string", "minLength": 1, "maxLength": MAX_QUESTION_CHARS},
        "options": {
            "type": "array",
            "items": {"type": "string", "minLength": 1, "maxLength": MAX_OPTION_CHARS},
            "maxItems": MAX_OPTIONS,
            "description": "Suggested answers, shown as buttons.",
        },
    },
    "required": ["question"],
    "additionalProperties": False,
}


class AskUserQuestion:
    """Checks the question; the turn then waits, and the user's answer becomes the result."""

    asks_user = True

    def __init__(self) -> None:
        self._definition = ToolDefinition(QUESTION_TOOL, DESCRIPTION, PARAMETERS)

    @property
    def definition(self) -> ToolDefinition:
        return self._definition

    def execute(self, context: ToolContext, arguments: str) -> ToolOutcome:
        try:
            if context.depth > 0:
                # The question lives in the log as the model's own call; a nested one has no call there.
                raise QuestionRefused(
                    Problem(QuestionCode.NESTED_CALL, "a question can only be asked by a direct call")
                )
            parse_question(arguments)
        except QuestionRefused as refusal:
            return ToolOutcome(False, refusal.tool_text())
        return ToolOutcome(True, "", waits_for_user=True)
