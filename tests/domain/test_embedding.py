"""The frame-ancestors allow-list and what the log reports to a team's backend, as pure rules."""

from __future__ import annotations

import pytest

from tasksurface.domain.embedding import (
    BadFrameAncestors,
    check_frame_ancestors,
    embedding_on,
    origin_listed,
)
from tasksurface.domain.ids import CallId
from tasksurface.domain.question import OpenQuestion, answered, unanswered
from tasksurface.domain.webhook_events import (
    QUESTION_ANSWERED,
    SURFACE_DISMISSED,
    SURFACE_SUBMITTED,
    reported,
    session_created,
    user_of,
)

from .builders import event

LIST = "'self' https://app.example.com https://*.example.org:8443 http://localhost:5000"


REFUSED = ["*", "https:", "'unsafe-inline'", "https://a.example.com/path", "ftp://x.example", "'none' 'self'"]
REFUSED.append("")


@pytest.mark.parametrize("value", REFUSED)
def test_sources_that_admit_unlisted_sites_are_refused(value: str) -> None:
    with pytest.raises(BadFrameAncestors):
        check_frame_ancestors(value)


def test_the_list_is_normalised_and_says_whether_embedding_is_on() -> None:
    assert check_frame_ancestors("'SELF'  https://App.Example.com/") == "'self' https://app.example.com"
    assert not embedding_on("'self'") and not embedding_on("'none'")
    assert embedding_on("'self' https://app.example.com")


@pytest.mark.parametrize(
    ("origin", "listed"),
    [
        ("https://app.example.com", True),
        ("https://app.example.com:443", True),
        ("http://app.example.com", False),  # another scheme is another origin
        ("https://evil.app.example.com", False),
        ("https://a.example.org:8443", True),
        ("https://a.b.example.org:8443", True),
        ("https://example.org:8443", False),  # a wildcard matches subdomains only
        ("https://a.example.org", False),  # another port
        ("https://a.example.org.evil.com:8443", False),
        ("http://localhost:5000", True),
        ("http://localhost:5001", False),
        ("https://*.example.org:8443", False),
        ("null", False),
        ("", False),
    ],
)
def test_an_origin_is_listed_only_exactly_or_as_a_subdomain_of_a_wildcard(origin: str, listed: bool) -> None:
    assert origin_listed(origin, LIST) is listed


def test_users_are_named_only_when_the_team_or_its_proxy_named_them() -> None:
    assert user_of("embed:user-42") == "user-42" and user_of("user:ada") == "ada"
    assert user_of("anon:abc") is None and user_of("") is None
    created = session_created("s_1", "embed:u", "Plan")
    assert created.data == {"sessionId": "s_1", "user": "u", "title": "Plan"}


def test_a_panel_answer_a_dismissal_and_a_question_answer_are_reported() -> None:
    source = {
        "kind": "user",
        "rpcId": "rpc_00000001",
        "taskSurface": {
            "version": 1,
            "submissionId": "sub_00000001",
            "callId": "call_0000001",
            "surfaceId": "ts_00000001",
            "values": {"release": "Aurora"},
        },
    }
    content = [{"type": "text", "text": "Task Surface: Choose\n- Release: Aurora"}]
    message = event(3, "user/message", {"messageId": "msg_00000001", "source": source, "content": content})
    submitted = reported("s_1", "embed:u", message, None)
    assert submitted is not None and submitted.type == SURFACE_SUBMITTED
    assert submitted.data["values"] == {"release": "Aurora"} and submitted.data["text"].endswith("Aurora")

    plain = event(4, "user/message", {"messageId": "msg_00000002", "source": {"kind": "user"}, "content": []})
    assert reported("s_1", "embed:u", plain, None) is None

    closed = event(5, "task-surface/dismissed", {"surfaceId": "ts_1", "callId": "c_1", "dismissalId": "d_1"})
    dismissed = reported("s_1", "anon:x", closed, None)
    assert dismissed is not None and dismissed.type == SURFACE_DISMISSED and dismissed.data["user"] is None

    question = OpenQuestion(CallId("call_q000001"), 6, "Include staging?", ("yes", "no"))
    answer = event(7, "tool/result", answered(CallId("call_q000001"), "yes"))
    found = reported("s_1", "user:ada", answer, question)
    assert found is not None and found.type == QUESTION_ANSWERED
    assert found.data == {
        "sessionId": "s_1",
        "user": "ada",
        "callId": "call_q000001",
        "question": "Include staging?",
        "answer": "yes",
    }
    skipped = event(8, "tool/result", unanswered(CallId("call_q000001")))
    assert reported("s_1", "user:ada", skipped, question) is None
