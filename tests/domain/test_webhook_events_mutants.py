"""What a team's backend hears, to the letter: each event's type string and its whole `data`."""

from __future__ import annotations

from typing import Any

from tasksurface.domain.ids import CallId
from tasksurface.domain.question import OpenQuestion
from tasksurface.domain.webhook_events import EVENT_TYPES, WebhookEvent, reported, session_created, user_of

from .builders import event


def answer_result(call_id: str, answer: str | None) -> dict[str, Any]:
    """A question's `tool/result` as the log stores it."""
    return {
        "callId": call_id,
        "name": "ask_user_question",
        "ok": answer is not None,
        "content": [{"type": "text", "text": answer or "The user did not answer this question."}],
        "meta": {"answer": answer},
    }


def submitted_message(action: str | None = "approve") -> dict[str, Any]:
    surface: dict[str, Any] = {
        "version": 1,
        "submissionId": "sub_00000001",
        "callId": "call_0000001",
        "surfaceId": "ts_00000001",
        "values": {"release": "Aurora", "count": 2},
    }
    if action is not None:
        surface["action"] = action
    return {
        "messageId": "msg_00000001",
        "source": {"kind": "user", "rpcId": "rpc_00000001", "taskSurface": surface},
        "content": [{"type": "text", "text": "Task Surface: "}, {"type": "text", "text": "Choose"}],
    }


QUESTION = OpenQuestion(CallId("call_q000001"), 6, "Include staging?", ("yes", "no"))


def test_the_event_types_are_the_documented_strings() -> None:
    assert EVENT_TYPES == ("session.created", "surface.submitted", "surface.dismissed", "question.answered")


def test_a_created_session_is_reported_with_its_user_and_title() -> None:
    assert session_created("s_1", "user:ada", "Plan") == WebhookEvent(
        "session.created", {"sessionId": "s_1", "user": "ada", "title": "Plan"}
    )
    assert session_created("s_2", "anon:abc", "") == WebhookEvent(
        "session.created", {"sessionId": "s_2", "user": None, "title": ""}
    )


def test_only_the_leading_prefix_names_a_user() -> None:
    assert user_of("embed:") == ""
    assert user_of("embed:user:ada") == "user:ada"
    assert user_of("user:embed:u") == "embed:u"
    assert user_of("xembed:u") is None and user_of("xuser:u") is None
    assert user_of("EMBED:u") is None


def test_a_panel_answer_is_reported_with_every_field() -> None:
    found = reported("s_1", "embed:u-1", event(3, "user/message", submitted_message()), QUESTION)
    assert found == WebhookEvent(
        "surface.submitted",
        {
            "sessionId": "s_1",
            "user": "u-1",
            "surfaceId": "ts_00000001",
            "callId": "call_0000001",
            "submissionId": "sub_00000001",
            "messageId": "msg_00000001",
            "values": {"release": "Aurora", "count": 2},
            "action": "approve",
            "text": "Task Surface: Choose",
        },
    )


def test_a_panel_answer_without_an_action_reports_none() -> None:
    found = reported("s_1", "anon:x", event(3, "user/message", submitted_message(None)), None)
    assert found is not None
    assert found.type == "surface.submitted"
    assert found.data["action"] is None and found.data["user"] is None


def test_an_ordinary_message_reports_nothing() -> None:
    plain = {"messageId": "msg_00000002", "source": {"kind": "user"}, "content": []}
    assert reported("s_1", "embed:u", event(4, "user/message", plain), QUESTION) is None


def test_a_dismissal_is_reported_with_every_field() -> None:
    payload = {"surfaceId": "ts_00000001", "callId": "call_0000001", "dismissalId": "dis_00000001"}
    found = reported("s_1", "user:ada", event(5, "task-surface/dismissed", payload), None)
    assert found == WebhookEvent(
        "surface.dismissed",
        {
            "sessionId": "s_1",
            "user": "ada",
            "surfaceId": "ts_00000001",
            "callId": "call_0000001",
            "dismissalId": "dis_00000001",
        },
    )


def test_an_answer_names_the_question_it_answers() -> None:
    found = reported("s_9", "embed:u", event(7, "tool/result", answer_result("call_q000001", "no")), QUESTION)
    assert found == WebhookEvent(
        "question.answered",
        {
            "sessionId": "s_9",
            "user": "u",
            "callId": "call_q000001",
            "question": "Include staging?",
            "answer": "no",
        },
    )


def test_an_answer_to_another_call_or_with_no_open_question_has_no_question_text() -> None:
    another = event(7, "tool/result", answer_result("call_q000002", "yes"))
    other = reported("s_1", "user:ada", another, QUESTION)
    assert other == WebhookEvent(
        "question.answered",
        {"sessionId": "s_1", "user": "ada", "callId": "call_q000002", "question": None, "answer": "yes"},
    )
    alone = reported("s_1", "user:ada", event(7, "tool/result", answer_result("call_q000001", "yes")), None)
    assert alone is not None and alone.data["question"] is None and alone.data["answer"] == "yes"


def test_an_empty_answer_is_still_an_answer() -> None:
    found = reported("s_1", "user:ada", event(7, "tool/result", answer_result("call_q000001", "")), QUESTION)
    assert found is not None and found.type == "question.answered" and found.data["answer"] == ""


def test_a_skipped_question_and_other_events_report_nothing() -> None:
    skipped = event(8, "tool/result", answer_result("call_q000001", None))
    assert reported("s_1", "user:ada", skipped, QUESTION) is None
    call = event(9, "tool/call", {"callId": "call_q000001", "name": "ask_user_question", "args": {}})
    assert reported("s_1", "user:ada", call, QUESTION) is None
