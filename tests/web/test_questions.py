"""`ask_user_question` through HTTP and the websocket on a live server, with the scripted agent.

The question is the model's call, the answer is its result, and the log alone says
whether the agent is waiting: every rule here is read back from the log.
"""

from __future__ import annotations

from typing import Any

from tasksurface.services.container import Services

from ..conftest import LiveServer
from ..support import Api, new_id, wait_for

ASK = "/ask Which region goes first? | EU | US"


def texts(event: dict[str, Any]) -> str:
    return "".join(b.get("text", "") for b in event["payload"].get("content", []))


def test_a_question_waits_for_its_answer_and_the_turn_goes_on_with_it(api: Api) -> None:
    sid = api.create_session()
    question = api.ask(sid, ASK)
    assert question["question"] == "Which region goes first?"
    assert question["options"] == ["EU", "US"]
    events = api.events(sid)
    assert [e["kind"] for e in events] == ["user/message", "tool/call"]  # no result: it waits
    assert events[-1]["payload"]["callId"] == question["callId"]

    answered = api.answer(sid, question["callId"], "  US \n")
    assert answered["answer"] == "US"  # trimmed, as logged
    events = api.settled(sid)
    assert [e["kind"] for e in events] == [
        "user/message",
        "tool/call",
        "tool/result",
        "assistant/message",
    ]
    result = events[2]["payload"]
    assert (result["callId"], result["ok"], texts(events[2]), result["meta"]) == (
        question["callId"],
        True,
        "US",
        {"answer": "US"},
    )
    assert events[2]["seq"] == answered["eventSeq"]
    assert "> US" in events[3]["payload"]["text"]  # the agent read the answer as its call's result
    assert api.question(sid) is None


def test_a_retry_with_the_same_answer_id_gets_the_first_result_and_other_text_is_refused(api: Api) -> None:
    sid = api.create_session()
    question = api.ask(sid, ASK)
    answer_id = new_id()
    first = api.answer(sid, question["callId"], "EU", answer_id)
    api.settled(sid)
    before = api.events(sid)

    assert api.answer(sid, question["callId"], "EU", answer_id) == first
    conflict = api.answer_response(sid, question["callId"], "US", answer_id)
    assert conflict.status_code == 400
    assert conflict.json()["error"]["code"] == "invalid-answer"
    assert conflict.json()["error"]["detail"] == "answer.id-conflict"
    late = api.answer_response(sid, question["callId"], "US")
    assert late.status_code == 409
    assert late.json()["error"]["code"] == "question-not-open"
    assert api.events(sid) == before  # nothing appended by any of them


def test_bad_answers_get_typed_refusals_and_leave_the_question_open(api: Api) -> None:
    sid = api.create_session()
    question = api.ask(sid, "/ask What is the codename?")
    call = question["callId"]
    before = api.events(sid)
    cases: list[tuple[Any, str | None, int, str, str | None]] = [
        ("   ", None, 400, "invalid-answer", "answer.empty"),
        ("x" * 4001, None, 400, "invalid-answer", "answer.too-long"),
        (42, None, 400, "invalid-answer", None),
        ("ok", "short", 400, "invalid-id", None),
    ]
    for text, answer_id, status, code, detail in cases:
        response = api.post(
            f"/api/sessions/{sid}/questions/{call}/answer",
            {"answerId": answer_id or new_id(), "text": text},
        )
        assert response.status_code == status, (text, response.text)
        error = response.json()["error"]
        assert (error["code"], error.get("detail")) == (code, detail)
    unknown_key = api.post(
        f"/api/sessions/{sid}/questions/{call}/answer", {"answerId": new_id(), "text": "a", "extra": 1}
    )
    assert unknown_key.status_code == 400
    wrong_call = api.answer_response(sid, "call_not_asked_1", "a")
    assert (wrong_call.status_code, wrong_call.json()["error"]["code"]) == (409, "question-not-open")
    assert api.events(sid) == before
    assert api.question(sid) == question


def test_an_ordinary_message_instead_of_an_answer_leaves_the_question_unanswered_in_the_log(api: Api) -> None:
    sid = api.create_session()
    question = api.ask(sid, ASK)
    api.send(sid, "Let us talk about something else.")
    events = api.settled(sid)
    kinds = [e["kind"] for e in events]
    assert kinds == ["user/message", "tool/call", "tool/result", "user/message", "assistant/message"]
    unanswered = events[2]["payload"]
    assert (unanswered["callId"], unanswered["ok"]) == (question["callId"], False)
    assert "did not answer" in texts(events[2])
    assert api.question(sid) is None
    assert "Question left unanswered." in api.get(f"/sessions/{sid}").text


def test_a_question_after_a_panel_keeps_the_panel_and_answering_does_not_restart_the_turn(
    api: Api, services: Services
) -> None:
    sid = api.create_session()
    question = api.ask(sid, "/surface fields\n" + ASK)
    surface = api.projection(sid)["active"]
    assert surface is not None  # the panel stays open under the question
    before = api.events(sid)
    api.answer(sid, question["callId"], "EU")
    # The answer woke the runner before it was acknowledged; idle, the runner has decided.
    wait_for(services.runner.idle)
    events = api.events(sid)
    # The panel ended the turn; the answer is logged, and the agent reads it with the submission.
    assert events[: len(before)] == before
    [answer] = events[len(before) :]
    assert (answer["kind"], answer["payload"]["callId"], answer["payload"]["ok"]) == (
        "tool/result",
        question["callId"],
        True,
    )
    assert api.projection(sid)["active"] == surface


def test_a_second_question_in_the_same_reply_is_not_run(api: Api) -> None:
    sid = api.create_session()
    question = api.ask(sid, "/ask First?\n/ask Second?")
    assert question["question"] == "First?"
    events = api.events(sid)
    assert [e["kind"] for e in events] == ["user/message", "tool/call", "tool/call", "tool/result"]
    assert events[3]["payload"]["ok"] is False
    assert "waiting for the user's answer" in texts(events[3])
    api.answer(sid, question["callId"], "one")
    events = api.settled(sid)
    assert events[-1]["kind"] == "assistant/message"
    assert "> one" in events[-1]["payload"]["text"]


def test_a_malformed_question_is_refused_and_nothing_waits(api: Api) -> None:
    sid = api.create_session()
    for arguments in ('{"question": ""}', '{"question": "a", "question": "b"}', '{"question": "a", "x": 1}'):
        api.send(sid, "/tool ask_user_question " + arguments)
        events = api.settled(sid)
        result = [e for e in events if e["kind"] == "tool/result"][-1]
        assert result["payload"]["ok"] is False, arguments
        assert api.question(sid) is None


def test_the_websocket_shows_the_question_and_takes_the_answer(api: Api) -> None:
    sid = api.create_session()
    with api.socket(sid) as socket:
        hello = socket.receive_until(lambda m: m.get("type") == "hello")
        assert hello["question"] is None
        api.send(sid, ASK)
        change = socket.receive_until(lambda m: bool(m.get("question")))
        question = change["question"]
        assert 'id="question-takeover"' in change["questionHtml"]
        assert question["callId"] in change["questionHtml"]
        reply = socket.call(
            "question.answer", {"callId": question["callId"], "answerId": new_id(), "text": "EU"}
        )
        assert reply["result"]["answer"] == "EU"
        socket.receive_until(lambda m: m.get("type") == "change" and m.get("question") is None)
        bad = socket.call(
            "question.answer", {"callId": question["callId"], "answerId": new_id(), "text": "US"}
        )
        assert bad["error"]["code"] == "question-not-open"


def test_fork_and_rewind_recover_the_question_from_the_log(api: Api, services: Services) -> None:
    sid = api.create_session()
    question = api.ask(sid, ASK)
    call_seq = len(api.events(sid))
    fork = api.fork(sid, call_seq)
    assert api.question(fork) == question  # the same call, copied, waits in the fork too
    api.answer(fork, question["callId"], "US")
    api.settled(fork)
    assert api.question(sid) == question  # answering the fork leaves the origin waiting

    rewound = api.post(f"/api/sessions/{sid}/rewind", {"toSeq": call_seq - 1})
    assert rewound.status_code == 200
    assert api.question(sid) is None
    api.post(f"/api/sessions/{fork}/rewind", {"toSeq": call_seq})
    assert api.question(fork) == question  # rewinding to the call itself opens it again


def test_without_javascript_the_page_asks_and_a_plain_form_answers(api: Api) -> None:
    sid = api.create_session()
    question = api.ask(sid, "/surface fields\n" + ASK)
    page = api.get(f"/sessions/{sid}").text
    assert 'id="question-takeover"' in page
    assert '<div id="dock-slot" hidden>' in page  # the dock is rendered, and hidden
    assert 'id="task-surface-dock"' in page
    assert f'action="/sessions/{sid}/messages" hidden>' in page  # so is the composer
    url = f"/sessions/{sid}/questions/{question['callId']}/answer"

    refused = api.post(url, data={"answerId": new_id(), "text": "  "}, allow_redirects=False)
    assert refused.status_code == 422
    assert "write an answer or pick one of the suggestions" in refused.text
    assert api.question(sid) == question

    answer_id = new_id()
    done = api.post(url, data={"answerId": answer_id, "option": "US", "text": ""}, allow_redirects=False)
    assert done.status_code == 303
    again = api.post(url, data={"answerId": answer_id, "option": "US", "text": ""}, allow_redirects=False)
    assert again.status_code == 303  # a double post is the same answer
    answers = [
        e
        for e in api.events(sid)
        if e["kind"] == "tool/result" and e["payload"]["callId"] == question["callId"]
    ]
    assert [a["payload"]["meta"] for a in answers] == [{"answer": "US"}]
    page = api.get(f"/sessions/{sid}").text
    assert 'id="question-takeover"' not in page
    assert '<div id="dock-slot">' in page


def test_only_the_owner_sees_or_answers_the_question(api: Api, live_server: LiveServer) -> None:
    sid = api.create_session()
    question = api.ask(sid, ASK)
    before = api.events(sid)
    with Api(live_server.url) as stranger:
        assert stranger.get(f"/api/sessions/{sid}").status_code == 404
        assert stranger.answer_response(sid, question["callId"], "EU").status_code == 404
        form = {"answerId": new_id(), "option": "EU"}
        url = f"/sessions/{sid}/questions/{question['callId']}/answer"
        assert stranger.post(url, data=form, allow_redirects=False).status_code == 404
    assert api.events(sid) == before
    assert api.question(sid) == question


def test_the_question_text_is_model_text_shown_as_written_and_loading_nothing(api: Api) -> None:
    hostile = "<script>alert(1)</script> ![x](http://127.0.0.1:9/leak.png) <img src=x onerror=alert(2)>"
    sid = api.create_session()
    api.ask(sid, "/ask " + hostile + " | <b>yes</b>")
    page = api.get(f"/sessions/{sid}").text
    assert "<script>alert(1)" not in page and "<img" not in page and "<b>yes</b>" not in page
    takeover = page[
        page.index('id="question-takeover"') : page.index("</form>", page.index("question-takeover"))
    ]
    asked = page[page.index("question-asked") : page.index('id="question-slot"')]
    for shown in (takeover, asked):
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in shown  # readable, not run
        assert "<img" not in shown and 'src="' not in shown  # escaped text only
    assert 'value="&lt;b&gt;yes&lt;/b&gt;"' in takeover

    api.send(sid, "/ask Is this the logo? ![the old logo](http://127.0.0.1:9/leak.png)")
    wait_for(lambda: (q := api.question(sid)) and "logo" in q["question"])
    takeover = api.get(f"/sessions/{sid}").text.split('id="question-takeover"')[1].split("</form>")[0]
    assert "the old logo" in takeover and "leak.png" not in takeover  # alt text only
