"""The websocket `/ws/sessions/<sid>`: hello, pushed changes, RPC frames and refusals, live."""

from __future__ import annotations

import json
import os
import socket
from collections.abc import Callable
from typing import Any

import pytest
import websocket

from tasksurface.services.container import Services

from ..support import Api, Socket, new_id

VALUES: dict[str, Any] = {
    "name": "3.1.0",
    "notes": "",
    "channel": "beta",
    "platforms": ["linux"],
    "announce": True,
    "rollout": ["us", "asia", "eu"],
}
Message = dict[str, Any]


def plain(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Pushed events without their HTML: what the HTTP log page returns."""
    for event in events:
        assert set(event) == {"seq", "kind", "at", "payload", "html"}, event
        assert isinstance(event["html"], str)
        if event["kind"] in ("user/message", "assistant/message", "task-surface/dismissed"):
            assert event["html"].strip(), event  # a visible transcript row
    return [{k: v for k, v in e.items() if k != "html"} for e in events]


def until(sock: Socket, predicate: Callable[[Message], bool]) -> list[Message]:
    """Every message received up to and including the first that matches."""
    start = len(sock.seen)
    sock.receive_until(predicate)
    return sock.seen[start:]


def has_event(kind: str) -> Callable[[Message], bool]:
    return lambda m: m["type"] == "change" and any(e["kind"] == kind for e in m["events"])


def pushed_events(messages: list[Message]) -> list[dict[str, Any]]:
    assert all(m["type"] == "change" for m in messages), messages
    return [e for m in messages for e in m["events"]]


def rpc_reply(sock: Socket, frame: str) -> Message:
    sock.ws.send(frame)
    return sock.receive_until(lambda m: m["type"] == "rpc")


def connect(api: Api, sid: str, after: int = 0) -> Socket:
    sock = api.socket(sid, after=after)
    assert sock.receive()["type"] == "hello"
    return sock


def test_hello_carries_newer_events_the_queue_and_the_surface_state(api: Api) -> None:
    sid = api.create_session()
    surface = api.show_surface(sid, "fields")
    api.pause(sid)
    item = api.send(sid, "waiting in line")
    for after in (0, 2):
        with api.socket(sid, after=after) as sock:
            hello = sock.receive()
            assert set(hello) == {
                "type",
                "events",
                "taskSurface",
                "question",
                "questionHtml",
                "queue",
                "tasks",
            }
            assert hello["type"] == "hello"
            assert (hello["question"], hello["questionHtml"]) == (None, "")
            assert plain(hello["events"]) == api.events(sid, after=after)
            assert [e["seq"] for e in hello["events"]] == list(range(after + 1, 5))
            assert hello["taskSurface"] == api.projection(sid)
            assert hello["taskSurface"]["active"]["surfaceId"] == surface
            assert (
                hello["queue"]["items"] == api.queue(sid) and hello["queue"]["items"][0]["id"] == item["id"]
            )
            assert hello["queue"]["paused"] is True
            assert "waiting in line" in hello["queue"]["html"]


def test_a_surface_turn_is_pushed_in_order_and_a_reconnect_gets_only_newer(api: Api) -> None:
    sid = api.create_session()
    with api.socket(sid) as sock:
        hello = sock.receive()
        assert hello["events"] == [] and hello["taskSurface"] == {"active": None, "pending": None}
        api.send(sid, "/surface fields")
        messages = until(sock, has_event("tool/result"))
    events = pushed_events(messages)
    kinds = ["user/message", "assistant/message", "tool/call", "tool/result"]
    assert [e["kind"] for e in events] == kinds and [e["seq"] for e in events] == [1, 2, 3, 4]
    assert plain(events) == api.settled(sid)
    active = api.projection(sid)["active"]
    assert active["surfaceId"] == events[-1]["payload"]["meta"]["surfaceId"]
    for message in messages:
        assert set(message["taskSurface"]) == {"active", "pending"}
        if message["events"] and message["events"][-1]["kind"] != "tool/result":
            assert message["taskSurface"]["active"] is None  # not open before its result
    assert messages[-1]["taskSurface"] == {"active": active, "pending": None}
    last_seen = events[-1]["seq"]
    dismissed = api.dismiss(sid, active["surfaceId"])  # while nobody listens
    with api.socket(sid, after=last_seen) as again:
        hello = again.receive()
    assert [(e["seq"], e["kind"]) for e in hello["events"]] == [
        (dismissed["eventSeq"], "task-surface/dismissed")
    ]
    assert plain(hello["events"]) == api.events(sid, after=last_seen)
    assert hello["taskSurface"] == {"active": None, "pending": None}
    with api.socket(sid, after=dismissed["eventSeq"]) as caught_up:
        assert caught_up.receive()["events"] == []


def test_a_reconnect_draws_again_the_open_rows_it_names_that_closed_meanwhile(api: Api) -> None:
    """A page names the rows it draws open; a panel that closed while it had no socket (here
    dismissed in another tab) has its row drawn again in the hello, as its close's push would."""
    sid = api.create_session()
    surface = api.show_surface(sid, "fields")
    row = next(e["seq"] for e in reversed(api.events(sid)) if e["kind"] == "tool/result")
    last_seen = api.events(sid)[-1]["seq"]
    shown = api.base.replace("http://", "ws://") + f"/ws/sessions/{sid}?after={last_seen}&open={row}"
    with Socket(shown, api.cookie()) as sock:
        assert "rows" not in sock.receive()  # still open: nothing to draw again
    api.dismiss(sid, surface)  # while nobody listens
    with Socket(shown, api.cookie()) as sock:
        hello = sock.receive()
    assert set(hello["rows"]) == {str(row)}
    assert 'class="surface-row state-dismissed"' in hello["rows"][str(row)]
    assert f'id="ev-{row}"' in hello["rows"][str(row)]
    with api.socket(sid, after=last_seen) as sock:
        assert "rows" not in sock.receive()  # a page that names no open row is sent none


def test_a_close_redraws_the_row_of_the_panel_open_now_after_changes_nobody_heard(api: Api) -> None:
    """Panels opened and closed while no page listened: the first close a page hears redraws the
    row of the panel open then, not of one an earlier page saw open."""
    sid = api.create_session()
    first = api.show_surface(sid, "fields")
    with api.socket(sid, after=api.events(sid)[-1]["seq"]) as sock:
        assert sock.receive()["type"] == "hello"  # a page saw the first panel open, then left
    api.dismiss(sid, first)  # nobody listens from here
    second = api.show_surface(sid, "fields")
    second_row = next(e["seq"] for e in reversed(api.events(sid)) if e["kind"] == "tool/result")
    with connect(api, sid, after=api.events(sid)[-1]["seq"]) as sock:
        api.dismiss(sid, second)
        message = sock.receive_until(has_event("task-surface/dismissed"))
    assert set(message["rows"]) == {str(second_row)}
    assert 'class="surface-row state-dismissed"' in message["rows"][str(second_row)]


def test_a_reconnect_across_a_rewind_reloads_the_page(api: Api) -> None:
    """A rewind while a page had no socket took rows it shows out of the history: the hello is a
    reset, as the rewind's own push is, so the page reloads rather than keep them."""
    sid = api.create_session()
    api.send(sid, "hello")
    api.settled(sid)
    surface = api.show_surface(sid, "fields")
    row = next(e["seq"] for e in reversed(api.events(sid)) if e["kind"] == "tool/result")
    last_seen = api.events(sid)[-1]["seq"]
    response = api.post(f"/api/sessions/{sid}/rewind", {"toSeq": 2})
    assert response.status_code == 200, response.text
    shown = api.base.replace("http://", "ws://") + f"/ws/sessions/{sid}?after={last_seen}&open={row}"
    with Socket(shown, api.cookie()) as sock:
        assert sock.receive() == {"type": "reset"}
    assert api.projection(sid)["active"] is None and surface  # the panel went with the rewind
    with connect(api, sid, after=response.json()["eventSeq"]) as sock:  # a reloaded page
        api.send(sid, "after the rewind")
        assert sock.receive_until(has_event("user/message"))["type"] == "change"


def test_a_held_submission_pushes_its_queue_row_then_the_commit(api: Api) -> None:
    sid = api.create_session()
    surface = api.show_surface(sid)
    active = api.projection(sid)["active"]
    result_seq = api.events(sid)[-1]["seq"]
    api.pause(sid)
    with connect(api, sid, after=result_seq) as sock:
        submission_id = new_id()
        accepted = api.submit(sid, surface, VALUES, submission_id)
        queued = sock.receive_until(lambda m: m["type"] == "change" and m.get("queue", {}).get("items"))
        [row] = queued["queue"]["items"]
        assert row == api.queue(sid)[0] and row["messageId"] == accepted["messageId"]
        assert row["placement"] == "queued" and "Release name: 3.1.0" in row["text"]
        assert row["source"] == {
            "kind": "user",
            "rpcId": row["source"]["rpcId"],
            "taskSurface": {
                "version": 1,
                "submissionId": submission_id,
                "callId": active["callId"],
                "surfaceId": surface,
                "values": VALUES,
            },
        }
        assert queued["queue"]["paused"] is True and queued["events"] == []
        pending = {"submissionId": submission_id, "messageId": accepted["messageId"], "phase": "queued"}
        assert queued["taskSurface"] == {"active": active, "pending": pending}
        api.pause(sid, False)
        commit = sock.receive_until(has_event("user/message"))
        # The admitted message waits a moment for the first words of the turn it starts.
        message, *started = commit["events"]
        assert message["kind"] == "user/message" and [e["kind"] for e in started] in (
            [],
            ["assistant/message"],
        )
        assert message["payload"]["messageId"] == accepted["messageId"]
        assert message["payload"]["source"]["taskSurface"]["submissionId"] == submission_id
        assert commit["taskSurface"] == {"active": None, "pending": None}  # closed in the same push
        assert commit["queue"]["items"] == []
        assert str(result_seq) in commit["rows"]  # the transcript row shows its new state
        if not started:
            sock.receive_until(has_event("assistant/message"))


def test_a_dismissal_reaches_every_subscriber_of_that_session_only(api: Api) -> None:
    sid = api.create_session()
    other = api.create_session()
    surface = api.show_surface(sid)
    active = api.projection(sid)["active"]
    result_seq = api.events(sid)[-1]["seq"]
    with connect(api, sid) as first, connect(api, sid) as second, connect(api, other) as bystander:
        dismissal_id = new_id()
        dismissed = api.dismiss(sid, surface, dismissal_id)
        pushes = [s.receive_until(has_event("task-surface/dismissed")) for s in (first, second)]
        assert pushes[0] == pushes[1]
        [event] = pushes[0]["events"]
        assert event["seq"] == dismissed["eventSeq"]
        assert event["payload"] == {
            "surfaceId": surface,
            "callId": active["callId"],
            "dismissalId": dismissal_id,
        }
        assert plain([event]) == api.events(sid, after=dismissed["eventSeq"] - 1)
        assert pushes[0]["taskSurface"] == {"active": None, "pending": None}
        assert str(result_seq) in pushes[0]["rows"]
        # A later change of its own session is the bystander's proof: pushes to one socket keep
        # their order, so a push of the dismissal would come before the ones of this message.
        item = api.send(other, "only for the other session")
        own = until(bystander, has_event("assistant/message"))
    assert [e["kind"] for e in pushed_events(own)] == ["user/message", "assistant/message"]
    assert pushed_events(own)[0]["payload"]["messageId"] == item["messageId"]
    assert all(m.get("taskSurface") == {"active": None, "pending": None} for m in own)


def test_rpc_get_active_and_submit_answer_like_http(api: Api) -> None:
    sid = api.create_session()
    surface = api.show_surface(sid)
    api.pause(sid)
    with connect(api, sid) as sock:

        def rpc(method: str, params: dict[str, Any]) -> dict[str, Any]:
            reply = sock.call(method, {"surfaceId": surface, **params})
            assert set(reply) == {"type", "id", "result"}, reply
            result: dict[str, Any] = reply["result"]
            return result

        assert rpc("taskSurface.getActive", {}) == api.get_active(sid, surface)
        bad_id = new_id()
        bad = rpc("taskSurface.submit", {"submissionId": bad_id, "values": {**VALUES, "announce": "yes"}})
        assert bad["reason"] == "invalid-submission"
        assert bad == api.submit(sid, surface, {**VALUES, "announce": "yes"}, bad_id)
        submission_id = new_id()
        body = {"submissionId": submission_id, "values": VALUES, "note": "via the socket"}
        first = rpc("taskSurface.submit", body)
        assert first["accepted"] is True and first["phase"] == "queued"
        assert rpc("taskSurface.submit", body) == first  # a retry returns the first result
        assert api.submit(sid, surface, VALUES, submission_id, note="via the socket") == first
        pending = {"submissionId": submission_id, "messageId": first["messageId"], "phase": "queued"}
        assert rpc("taskSurface.getActive", {})["pending"] == pending
        assert rpc("taskSurface.getActive", {}) == api.get_active(sid, surface)
        refused = {"accepted": False, "reason": "submission-pending"}
        assert rpc("taskSurface.submit", {"submissionId": new_id(), "values": VALUES}) == refused
        assert rpc("taskSurface.dismiss", {"dismissalId": new_id()}) == api.dismiss(sid, surface)
        assert api.dismiss(sid, surface) == {"dismissed": False, "reason": "submission-pending"}
        assert len(api.queue(sid)) == 1
        api.pause(sid, False)
        api.settled(sid)
        assert rpc("taskSurface.getActive", {}) == {"active": False, "reason": "not-open"}
        assert rpc("taskSurface.submit", body) == first  # still the first result after commit
    submitted = [
        e for e in api.events(sid) if e["kind"] == "user/message" and "taskSurface" in e["payload"]["source"]
    ]
    assert [e["payload"]["messageId"] for e in submitted] == [first["messageId"]]


def test_rpc_dismiss_answers_like_http_and_is_idempotent(api: Api) -> None:
    sid = api.create_session()
    surface = api.show_surface(sid)
    with connect(api, sid) as sock:
        dismissal_id = new_id()
        params = {"surfaceId": surface, "dismissalId": dismissal_id}
        first = sock.call("taskSurface.dismiss", params)["result"]
        assert first == {"dismissed": True, "eventSeq": api.events(sid)[-1]["seq"]}
        assert sock.call("taskSurface.dismiss", params)["result"] == first
        assert api.dismiss(sid, surface, dismissal_id) == first
        other = sock.call("taskSurface.dismiss", {"surfaceId": surface, "dismissalId": new_id()})
        assert other["result"] == {"dismissed": False, "reason": "not-open"} == api.dismiss(sid, surface)
        get_active = sock.call("taskSurface.getActive", {"surfaceId": surface})
        assert get_active["result"] == {"active": False, "reason": "not-open"}
    assert api.kinds(sid).count("task-surface/dismissed") == 1


def test_malformed_frames_get_typed_rpc_errors_and_the_socket_stays_usable(api: Api) -> None:
    sid = api.create_session()
    surface = api.show_surface(sid)
    before = (api.events(sid), api.queue(sid), api.projection(sid))
    get, submit, dismiss = "taskSurface.getActive", "taskSurface.submit", "taskSurface.dismiss"
    on = {"surfaceId": surface}
    valid_submit = {**on, "submissionId": new_id(), "values": VALUES}
    structured: list[tuple[Any, Any, Any, str]] = [
        ("p1", get, [surface], "invalid-params"),
        ("p2", get, "x", "invalid-params"),
        ("p3", get, None, "invalid-params"),
        ("m1", "taskSurface.remove", on, "unknown-method"),
        ("m2", None, on, "unknown-method"),
        (7, "getActive", on, "unknown-method"),
        ("s1", submit, {**valid_submit, "extra": 1}, "invalid-request"),
        ("s2", submit, {**valid_submit, "submissionId": "a/b/c/d/e"}, "invalid-id"),
        ("d1", dismiss, on, "invalid-id"),
        ("d2", dismiss, {**on, "dismissalId": new_id(), "x": 1}, "invalid-request"),
    ]
    for n, bad in enumerate(["abc/defghi", "short7c", "ünïcödé-id", "x" * 65, 12345678, None]):
        structured.append((f"g{n}", get, {"surfaceId": bad}, "invalid-id"))
        structured.append((f"s{n}", submit, {**valid_submit, "surfaceId": bad}, "invalid-id"))
        structured.append((f"d{n}", dismiss, {"surfaceId": bad, "dismissalId": new_id()}, "invalid-id"))
    unparsable = ["not json", '{"id": "r0", "method": ', '{"id": "r0", "params": {"x": NaN}}', "[1, 2]"]
    frames: list[tuple[str, Any, str]] = [
        (text, None, "invalid-json") for text in [*unparsable, '"x"', "null"]
    ]
    frames.append((json.dumps({"id": "p0", "method": get}), "p0", "invalid-params"))
    for rpc_id, method, params, code in structured:
        frames.append((json.dumps({"id": rpc_id, "method": method, "params": params}), rpc_id, code))
    with connect(api, sid) as sock:
        for frame, rpc_id, code in frames:
            reply = rpc_reply(sock, frame)
            assert reply == {
                "type": "rpc",
                "id": rpc_id,
                "error": {"code": code, "message": reply["error"]["message"]},
            }, frame
            assert isinstance(reply["error"]["message"], str) and reply["error"]["message"]
        assert (api.events(sid), api.queue(sid), api.projection(sid)) == before
        assert sock.call("taskSurface.getActive", {"surfaceId": surface})["result"]["active"] is True
        dismissed = api.dismiss(sid, surface)
        push = sock.receive_until(has_event("task-surface/dismissed"))
        assert push["events"][0]["seq"] == dismissed["eventSeq"]


def test_a_failure_of_the_server_answers_the_call_and_the_socket_stays(
    api: Api, services: Services, monkeypatch: pytest.MonkeyPatch
) -> None:
    sid = api.create_session()
    surface = api.show_surface(sid)
    params = {"surfaceId": surface, "submissionId": new_id(), "values": VALUES}

    def failing(*_args: object, **_kwargs: object) -> None:
        raise RuntimeError("the database went away mid-transaction")

    with connect(api, sid) as sock:
        monkeypatch.setattr(services.surfaces, "submit", failing)
        failed = sock.call("taskSurface.submit", dict(params))
        assert failed["error"]["code"] == "internal-server-error"
        monkeypatch.undo()
        # The same socket answers the retry, which is accepted once.
        assert sock.call("taskSurface.submit", dict(params))["result"]["accepted"] is True
    assert api.settled(sid)
    assert api.projection(sid)["active"] is None


def server_end_of(client: socket.socket) -> socket.socket:
    """The live server runs in this process: its end of this client's connection (a copy)."""
    mine = client.getsockname()
    for name in os.listdir("/proc/self/fd"):
        try:
            candidate = socket.socket(fileno=os.dup(int(name)))
        except OSError:
            continue  # not a socket
        try:
            if candidate.type == socket.SOCK_STREAM and candidate.getpeername() == mine:
                return candidate
        except OSError:
            pass  # a listening or unconnected socket
        candidate.close()
    raise AssertionError("the server's end of the connection was not found")


def test_a_push_leaves_without_waiting_for_the_frame_before_it_to_be_acknowledged(api: Api) -> None:
    """Nagle's algorithm off: a change written right after the answer to a call is not held
    until the browser acknowledges that answer (up to 40 ms later)."""
    sid = api.create_session()
    with connect(api, sid) as sock:
        assert sock.ws.sock is not None
        server_end = server_end_of(sock.ws.sock)
        try:
            assert server_end.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY) != 0
        finally:
            server_end.close()


def test_duplicate_keys_in_a_frame_are_refused_as_over_http(api: Api) -> None:
    sid = api.create_session()
    surface = api.show_surface(sid)
    with connect(api, sid) as sock:
        params = f'{{"surfaceId": "{surface}", "surfaceId": "{surface}"}}'
        reply = rpc_reply(sock, f'{{"id": "k1", "method": "taskSurface.getActive", "params": {params}}}')
        assert reply["type"] == "rpc" and reply["error"]["code"] == "duplicate-key", reply
        assert sock.call("taskSurface.getActive", {"surfaceId": surface})["result"]["active"] is True


def test_a_lone_surrogate_in_a_frame_gets_an_answer_not_a_dead_socket(api: Api) -> None:
    sid = api.create_session()
    surface = api.show_surface(sid)
    with connect(api, sid) as sock:
        params = json.dumps(
            {"surfaceId": surface, "submissionId": new_id(), "values": {**VALUES, "\ud800": 1}}
        )
        reply = rpc_reply(sock, f'{{"id": "u1", "method": "taskSurface.submit", "params": {params}}}')
        assert reply["result"]["accepted"] is False and reply["result"]["reason"] == "invalid-submission"
        assert sock.call("taskSurface.getActive", {"surfaceId": surface})["result"]["active"] is True


def test_a_bad_session_in_the_url_gets_an_error_and_a_close(api: Api) -> None:
    sid = api.create_session()
    base = api.base.replace("http://", "ws://") + "/ws/sessions/"
    cases = [
        ("s_noSuchSession01?after=0", "session-not-found"),
        ("short7c", "invalid-id"),
        ("x" * 65, "invalid-id"),
        ("abc%20defgh", "invalid-id"),
        ("abcd%C3%A9fghij", "invalid-id"),
        ("ab.cd.efgh", "invalid-id"),
        (f"{sid}?after=abc", "invalid-number"),
        (f"{sid}?after=4&open=5", "invalid-number"),
        (f"{sid}?after=4&open=0", "invalid-number"),
        (f"{sid}?after=4&open=x", "invalid-number"),
        (f"{sid}?after=" + "9" * 5000, "invalid-number"),
        (f"{sid}?after=4&open=" + "1" * 5000, "invalid-number"),
        (f"{sid}?after=40&" + "&".join(f"open={seq}" for seq in range(1, 10)), "invalid-number"),
    ]
    for tail, code in cases:
        sock = Socket(base + tail, api.cookie())  # the owner's cookie: only the URL is wrong
        try:
            message = sock.receive()
            assert message == {
                "type": "error",
                "error": {"code": code, "message": message["error"]["message"]},
            }
            opcode, frame = sock.ws.recv_data_frame(control_frame=True)
            assert opcode == websocket.ABNF.OPCODE_CLOSE and int.from_bytes(frame.data[:2], "big") == 1008
            assert not sock.ws.connected
        finally:
            sock.ws.shutdown()  # type: ignore[no-untyped-call]  # release the client socket
