"""The session log in the Chat Completions shape: a pure mapping, event by event."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from tasksurface.backends.openai_messages import MISSING_RESULT, dismissal_note, history_messages
from tasksurface.domain.events import EventKind, SessionEvent, text_content

from .scenes import assistant_calls, tool, user

AT = datetime(2026, 11, 29, tzinfo=UTC)


def log(*items: tuple[EventKind, dict[str, Any]]) -> list[SessionEvent]:
    return [SessionEvent(seq, kind, AT, payload) for seq, (kind, payload) in enumerate(items, 1)]


def said(text: str, source: dict[str, Any] | None = None) -> tuple[EventKind, dict[str, Any]]:
    return (
        "user/message",
        {"messageId": "msg_00000001", "source": source or {"kind": "user"}, "content": text_content(text)},
    )


def called(call_id: str, name: str, args: object) -> tuple[EventKind, dict[str, Any]]:
    return ("tool/call", {"callId": call_id, "name": name, "args": args})


def answered(call_id: str, text: str, ok: bool = True) -> tuple[EventKind, dict[str, Any]]:
    return ("tool/result", {"callId": call_id, "name": "t", "ok": ok, "content": text_content(text)})


def test_text_calls_and_results_keep_their_order_and_ids() -> None:
    history = log(
        said("hello"),
        ("assistant/message", {"text": "Let me check."}),
        called("call_a_000001", "lookup", '{"q": "x"}'),
        answered("call_a_000001", "found x"),
        called("call_b_000002", "lookup", '{"q": "y"}'),
        answered("call_b_000002", "found y"),
        ("assistant/message", {"text": "Both found."}),
    )
    assert history_messages(history) == [
        user("hello"),
        assistant_calls(("call_a_000001", "lookup", '{"q": "x"}'), text="Let me check."),
        tool("call_a_000001", "found x"),
        assistant_calls(("call_b_000002", "lookup", '{"q": "y"}')),
        tool("call_b_000002", "found y"),
        {"role": "assistant", "content": "Both found."},
    ]


def test_a_panel_answer_is_its_readable_text_and_its_source_stays_home() -> None:
    source = {
        "kind": "user",
        "rpcId": "rpc_00000001",
        "taskSurface": {
            "version": 1,
            "submissionId": "sub_00000001",
            "callId": "call_a_000001",
            "surfaceId": "ts_000000001",
            "values": {"colour": "blue"},
        },
    }
    (message,) = history_messages(log(said("Task Surface: Pick a colour\nColour: Blue", source)))
    assert message == user("Task Surface: Pick a colour\nColour: Blue")


def test_errors_and_rewinds_say_nothing_and_a_dismissal_is_a_short_note() -> None:
    dismissed = {"surfaceId": "ts_000000001", "callId": "call_a_000001", "dismissalId": "dis_00000001"}
    history = log(
        said("hello"),
        ("agent/error", {"message": "the provider failed (500)"}),
        ("session/rewound", {"toSeq": 1}),
        ("task-surface/dismissed", dismissed),
        said("never mind"),
    )
    note = dismissal_note(dismissed)
    assert "ts_000000001" in note and "without submitting" in note
    assert history_messages(history) == [user("hello"), user(note), user("never mind")]


def test_a_call_without_a_logged_result_gets_one_so_the_request_stays_valid() -> None:
    history = log(
        said("go"),
        called("call_a_000001", "slow", "{}"),
        said("hello again"),  # the host stopped mid-tool; the next message came after a restart
    )
    assert history_messages(history) == [
        user("go"),
        assistant_calls(("call_a_000001", "slow", "{}")),
        tool("call_a_000001", MISSING_RESULT),
        user("hello again"),
    ]
    trailing = history_messages(log(said("go"), called("call_b_000002", "slow", "{}")))
    assert trailing[-1] == tool("call_b_000002", MISSING_RESULT)


def test_arguments_go_back_exactly_as_sent_and_other_values_as_compact_json() -> None:
    raw = '{ "model" : {"version": 1} }'
    history = log(
        said("go"),
        called("call_a_000001", "show", raw),
        answered("call_a_000001", "ok"),
        called("call_b_000002", "show", {"n": 1, "s": "ü"}),
        answered("call_b_000002", "ok"),
    )
    messages = history_messages(history)
    assert messages[1]["tool_calls"][0]["function"]["arguments"] == raw
    assert messages[3]["tool_calls"][0]["function"]["arguments"] == '{"n":1,"s":"ü"}'


def test_a_result_without_its_call_is_left_out() -> None:
    assert history_messages(log(said("go"), answered("call_zzzzzzzz", "stray"))) == [user("go")]


def test_an_answer_logged_after_later_results_still_goes_first() -> None:
    # A question waits for the user; the call after it in the same reply was not run at once.
    history = log(
        said("go"),
        called("call_ask_00001", "ask_user_question", '{"question": "Which?"}'),
        called("call_next_0001", "other", "{}"),
        answered("call_next_0001", "not run", ok=False),
        answered("call_ask_00001", "EU"),
    )
    assert history_messages(history) == [
        user("go"),
        assistant_calls(
            ("call_ask_00001", "ask_user_question", '{"question": "Which?"}'),
            ("call_next_0001", "other", "{}"),
        ),
        tool("call_ask_00001", "EU"),
        tool("call_next_0001", "not run"),
    ]
