"""Helper actions that speak the wire API, so tests read as what a client does."""

from __future__ import annotations

import json
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

import requests
import websocket

from tasksurface.domain.events import SessionEvent
from tasksurface.domain.ids import SessionId
from tasksurface.services.container import Services
from tasksurface.store.records import InboxItem

T = TypeVar("T")


def new_id() -> str:
    return uuid.uuid4().hex


def wait_for(probe: Callable[[], T | None], timeout: float = 10.0, interval: float = 0.02) -> T:
    """Poll until `probe` returns something truthy; fail loudly with what it last saw."""
    deadline = time.monotonic() + timeout
    last: T | None = None
    while time.monotonic() < deadline:
        last = probe()
        if last:
            return last
        time.sleep(interval)
    raise AssertionError(f"timed out waiting; last value: {last!r}")


RELEASE_VALUES: dict[str, Any] = {
    "name": "2.0",
    "notes": "",
    "channel": "stable",
    "platforms": ["linux"],
    "announce": False,
    "rollout": ["eu", "us", "asia"],
}
"""A valid answer to the `fields` demo panel (the release checklist)."""
TURN_ENDINGS = frozenset({"assistant/message", "agent/error", "task-surface/dismissed", "session/rewound"})


CONTEXT_KINDS = frozenset({"task/notice"})
"""Context that may land anywhere, even after a turn ended; it neither ends nor opens one."""


def turn_over(events: list[dict[str, Any]]) -> bool:
    """The log ends with a reply, an error, a dismissal or a rewind, or with tool events one of
    whose results ended the turn (the call that ended it may be followed by an answered question).
    Trailing context (a background task's notice) is read past."""
    events = [e for e in events if e["kind"] not in CONTEXT_KINDS]
    if not events:
        return False
    if events[-1]["kind"] in TURN_ENDINGS:
        return True
    tools = []
    for event in reversed(events):
        if event["kind"] not in ("tool/call", "tool/result"):
            break
        tools.append(event)
    return events[-1]["kind"] == "tool/result" and any(
        e["kind"] == "tool/result" and e["payload"].get("endsTurn") is True for e in tools
    )


class Api:
    def __init__(self, base_url: str, runner_idle: Callable[[], bool] | None = None) -> None:
        """`runner_idle`: for a server in this process, whether its runner serves no session now
        (a row it has claimed is in neither the queue nor the log until its admission commits)."""
        self.base = base_url
        self.http = requests.Session()
        self.runner_idle = runner_idle

    def __enter__(self) -> Api:
        return self

    def __exit__(self, *exc: object) -> None:
        self.http.close()

    # -- raw ---------------------------------------------------------------
    def get(self, path: str, **kwargs: Any) -> requests.Response:
        return self.http.get(self.base + path, timeout=10, **kwargs)

    def post(self, path: str, body: Any = None, **kwargs: Any) -> requests.Response:
        if body is not None:
            kwargs["json"] = body
        return self.http.post(self.base + path, timeout=10, **kwargs)

    # -- actions -----------------------------------------------------------
    def create_session(self) -> str:
        response = self.post("/api/sessions", {})
        assert response.status_code == 201, response.text
        session_id: str = response.json()["sessionId"]
        return session_id

    def send(self, sid: str, text: str) -> dict[str, Any]:
        response = self.post(f"/api/sessions/{sid}/messages", {"text": text})
        assert response.status_code == 202, response.text
        item: dict[str, Any] = response.json()
        return item

    def events(self, sid: str, after: int = 0) -> list[dict[str, Any]]:
        response = self.get(f"/api/sessions/{sid}/events", params={"after": after, "limit": 500})
        assert response.status_code == 200, response.text
        events: list[dict[str, Any]] = response.json()["events"]
        return events

    def kinds(self, sid: str) -> list[str]:
        return [e["kind"] for e in self.events(sid)]

    def projection(self, sid: str) -> dict[str, Any]:
        response = self.get(f"/api/sessions/{sid}/task-surface")
        assert response.status_code == 200, response.text
        state: dict[str, Any] = response.json()
        return state

    def get_active(self, sid: str, surface_id: str) -> dict[str, Any]:
        response = self.get(f"/api/sessions/{sid}/task-surfaces/{surface_id}")
        assert response.status_code == 200, response.text
        result: dict[str, Any] = response.json()
        return result

    def submit(
        self,
        sid: str,
        surface_id: str,
        values: dict[str, Any],
        submission_id: str | None = None,
        note: str | None = None,
    ) -> dict[str, Any]:
        body: dict[str, Any] = {"submissionId": submission_id or new_id(), "values": values}
        if note is not None:
            body["note"] = note
        response = self.post(f"/api/sessions/{sid}/task-surfaces/{surface_id}/submit", body)
        assert response.status_code == 200, response.text
        result: dict[str, Any] = response.json()
        return result

    def dismiss(self, sid: str, surface_id: str, dismissal_id: str | None = None) -> dict[str, Any]:
        response = self.post(
            f"/api/sessions/{sid}/task-surfaces/{surface_id}/dismiss",
            {"dismissalId": dismissal_id or new_id()},
        )
        assert response.status_code == 200, response.text
        result: dict[str, Any] = response.json()
        return result

    def queue(self, sid: str) -> list[dict[str, Any]]:
        response = self.get(f"/api/sessions/{sid}/queue")
        assert response.status_code == 200, response.text
        items: list[dict[str, Any]] = response.json()["items"]
        return items

    def pause(self, sid: str, paused: bool = True) -> None:
        response = self.post(f"/api/sessions/{sid}/agent", {"paused": paused})
        assert response.status_code == 200, response.text

    def settled(self, sid: str) -> list[dict[str, Any]]:
        """The log once the agent's turn is over: the queue is empty, and the last event ends a turn
        or the agent waits for the answer to its question, in two reads a moment apart.

        A row the runner has claimed is in neither the queue nor the log until its admission
        commits. With a server in this process, an idle runner before and after the reads proves no
        such row is in flight; a server in another process can only be read twice, so there a test that
        claims nothing more happens waits for a later event instead."""

        def idle() -> bool:
            return self.runner_idle is None or self.runner_idle()

        def probe() -> list[dict[str, Any]] | None:
            if not idle() or self.queue(sid):
                return None
            first = self.events(sid)
            if not first or not (turn_over(first) or self.question(sid)):
                return None
            time.sleep(0.05)
            second = self.events(sid)
            return second if first == second and idle() else None

        return wait_for(probe)

    def show_surface(self, sid: str, demo: str = "fields") -> str:
        """Ask the scripted agent for a demo panel; returns its surfaceId once it is open."""
        before = self.projection(sid)["active"]
        self.send(sid, f"/surface {demo}")
        state = wait_for(lambda: (a := self.projection(sid)["active"]) and a != before and a)
        surface_id: str = state["surfaceId"]
        self.settled(sid)
        return surface_id

    def show_model(self, sid: str, model: dict[str, Any]) -> dict[str, Any]:
        """Call show_task_surface verbatim through the scripted agent; returns the tool result."""
        self.send(sid, "/tool show_task_surface " + json.dumps({"model": model}))
        events = self.settled(sid)
        result: dict[str, Any] = [e for e in events if e["kind"] == "tool/result"][-1]
        return result

    def question(self, sid: str) -> dict[str, Any] | None:
        """The question the agent waits on, as the session read shows it."""
        response = self.get(f"/api/sessions/{sid}")
        assert response.status_code == 200, response.text
        question: dict[str, Any] | None = response.json()["question"]
        return question

    def ask(self, sid: str, text: str) -> dict[str, Any]:
        """Send `/ask …` (or several commands) and wait until the agent waits on its question."""
        self.send(sid, text)
        question: dict[str, Any] = wait_for(lambda: self.question(sid))
        self.settled(sid)
        return question

    def answer_response(
        self, sid: str, call_id: str, text: Any, answer_id: str | None = None
    ) -> requests.Response:
        return self.post(
            f"/api/sessions/{sid}/questions/{call_id}/answer",
            {"answerId": answer_id or new_id(), "text": text},
        )

    def answer(self, sid: str, call_id: str, text: str, answer_id: str | None = None) -> dict[str, Any]:
        response = self.answer_response(sid, call_id, text, answer_id)
        assert response.status_code == 200, response.text
        result: dict[str, Any] = response.json()
        return result

    def fork(self, sid: str, at_seq: int) -> str:
        """A new session whose history is this one's up to `at_seq`; its id."""
        response = self.post(f"/api/sessions/{sid}/fork", {"atSeq": at_seq})
        assert response.status_code == 201, response.text
        fork_id: str = response.json()["sessionId"]
        return fork_id

    def socket(self, sid: str, after: int = 0, language: str | None = None) -> Socket:
        """A websocket that carries this client's identity cookie, as a browser tab would; with
        `language`, the tab's page is in that language (its `lang` cookie)."""
        cookie = self.cookie() + (f"; lang={language}" if language else "")
        return Socket(self.base.replace("http://", "ws://") + f"/ws/sessions/{sid}?after={after}", cookie)

    def cookie(self) -> str:
        return "; ".join(f"{c.name}={c.value}" for c in self.http.cookies)


class Socket:
    """A websocket client that collects pushed messages and answers RPCs."""

    def __init__(self, url: str, cookie: str | None = None) -> None:
        self.ws = websocket.create_connection(url, timeout=10, cookie=cookie)
        self.seen: list[dict[str, Any]] = []

    def __enter__(self) -> Socket:
        return self

    def __exit__(self, *exc: object) -> None:
        self.ws.close()

    def receive(self, timeout: float = 10.0) -> dict[str, Any]:
        self.ws.settimeout(timeout)
        message: dict[str, Any] = json.loads(self.ws.recv())
        self.seen.append(message)
        return message

    def receive_until(
        self, predicate: Callable[[dict[str, Any]], bool], timeout: float = 10.0
    ) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            message = self.receive(max(0.05, deadline - time.monotonic()))
            if predicate(message):
                return message
        raise AssertionError(f"no matching message; saw {self.seen[-5:]!r}")

    def call(self, method: str, params: dict[str, Any]) -> dict[str, Any]:
        rpc_id = new_id()
        self.ws.send(json.dumps({"id": rpc_id, "method": method, "params": params}))
        return self.receive_until(lambda m: m.get("type") == "rpc" and m.get("id") == rpc_id)


@contextmanager
def held_claim(services: Services) -> Iterator[tuple[threading.Event, threading.Event]]:
    """Wrap the runner's admission so a test can act while the claim is held open."""
    claimed = threading.Event()
    release = threading.Event()
    original = services.runner.admit

    def slow_admit(session_id: SessionId, item: InboxItem) -> SessionEvent | None:
        claimed.set()
        release.wait(10)
        return original(session_id, item)

    services.runner.admit = slow_admit  # type: ignore[method-assign]
    try:
        yield claimed, release
    finally:
        release.set()
