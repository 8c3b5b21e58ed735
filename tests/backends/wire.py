"""A local OpenAI-compatible server for tests: real HTTP on 127.0.0.1, real Chat Completions JSON
and server-sent events. It answers from a script and records every request it got, so tests
check what the backend really sent.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

MODEL = "wire-test-model"
API_KEY = "sk-wire-test-key"


@dataclass(frozen=True)
class Call:
    """One tool call in a scripted reply; `pieces` splits the arguments over several chunks."""

    call_id: str
    name: str
    arguments: str
    pieces: int = 3


@dataclass(frozen=True)
class Stream:
    """A streamed reply: text in the given pieces, then tool calls, then `[DONE]`."""

    text: Sequence[str] = ()
    calls: Sequence[Call] = ()
    delay: float = 0.0
    """Seconds to wait before each chunk, so a test can watch the stream arrive."""
    truncate: bool = False
    """Drop the connection after the text, halfway through a chunk (a provider that died)."""
    after_first: threading.Event | None = field(default=None, compare=False)
    """When given, the rest of the stream waits (up to 10 s) until it is set: a test sees what the
    first piece showed before the next one arrives, however busy the machine is."""


@dataclass(frozen=True)
class Failure:
    """An error answer as providers send it: a status and an OpenAI-style error body."""

    status: int
    message: str = "something went wrong"
    kind: str = "server_error"
    headers: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Stall:
    """Accept the request and say nothing for `seconds` (a provider that hangs)."""

    seconds: float


Answer = Stream | Failure | Stall


@dataclass(frozen=True)
class Request:
    path: str
    headers: dict[str, str]
    raw: bytes
    at: float

    @property
    def body(self) -> dict[str, Any]:
        decoded: dict[str, Any] = json.loads(self.raw)
        return decoded

    @property
    def messages(self) -> list[dict[str, Any]]:
        messages: list[dict[str, Any]] = self.body["messages"]
        return messages

    @property
    def tool_names(self) -> list[str]:
        return [t["function"]["name"] for t in self.body.get("tools", [])]


class WireServer:
    """Answers each POST to /v1/chat/completions with the next scripted answer."""

    def __init__(self) -> None:
        self.requests: list[Request] = []
        self._script: list[Answer] = []
        self._lock = threading.Lock()
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self._server.daemon_threads = True
        self.port = self._server.server_address[1]
        self.base_url = f"http://127.0.0.1:{self.port}/v1"
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)
        self._thread.start()

    def script(self, *answers: Answer) -> None:
        with self._lock:
            self._script.extend(answers)

    def remaining(self) -> int:
        with self._lock:
            return len(self._script)

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(5)

    def _next(self, request: Request) -> Answer:
        with self._lock:
            self.requests.append(request)
            if not self._script:
                return Failure(500, "the test script has no answer for this request", "unscripted")
            return self._script.pop(0)

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, format: str, *args: Any) -> None:
                pass

            def do_POST(self) -> None:
                raw = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                headers = {k.lower(): v for k, v in self.headers.items()}
                request = Request(self.path, headers, raw, time.monotonic())
                if self.path != "/v1/chat/completions":
                    self._json(404, error_body(f"no route {self.path}", "not_found"))
                    return
                answer = server._next(request)
                if isinstance(answer, Failure):
                    self._json(answer.status, error_body(answer.message, answer.kind), answer.headers)
                elif isinstance(answer, Stall):
                    time.sleep(answer.seconds)
                    self.close_connection = True
                else:
                    self._stream(answer)

            def _json(self, status: int, body: dict[str, Any], headers: dict[str, str] | None = None) -> None:
                data = json.dumps(body).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                for name, value in (headers or {}).items():
                    self.send_header(name, value)
                self.end_headers()
                self.wfile.write(data)

            def _stream(self, answer: Stream) -> None:
                self.send_response(200)
                self.send_header("Content-Type", "text/event-stream")
                self.send_header("Cache-Control", "no-cache")
                self.send_header("Connection", "close")
                self.end_headers()
                self.close_connection = True
                for index, event in enumerate(sse_events(answer)):
                    if answer.delay:
                        time.sleep(answer.delay)
                    if index > 1 and answer.after_first is not None:  # 0 is the role, 1 the first piece
                        answer.after_first.wait(10)
                    self.wfile.write(event)
                    self.wfile.flush()

        return Handler


def error_body(message: str, kind: str) -> dict[str, Any]:
    return {"error": {"message": message, "type": kind, "param": None, "code": kind}}


def chunk(delta: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
    return {
        "id": "chatcmpl-wire",
        "object": "chat.completion.chunk",
        "created": 1_800_000_000,
        "model": MODEL,
        "choices": [{"index": 0, "delta": delta, "logprobs": None, "finish_reason": finish}],
    }


def _split(text: str, pieces: int) -> list[str]:
    size = max(1, -(-len(text) // max(1, pieces)))
    return [text[i : i + size] for i in range(0, len(text), size)] or [""]


def sse_events(answer: Stream) -> Iterator[bytes]:
    """The chunks a provider streams: role, content pieces, tool call pieces, the finish, [DONE]."""
    chunks: list[dict[str, Any]] = [chunk({"role": "assistant", "content": ""})]
    chunks += [chunk({"content": piece}) for piece in answer.text]
    for index, call in enumerate(answer.calls):
        head = {"index": index, "id": call.call_id, "type": "function"}
        chunks.append(chunk({"tool_calls": [{**head, "function": {"name": call.name, "arguments": ""}}]}))
        for piece in _split(call.arguments, call.pieces):
            chunks.append(chunk({"tool_calls": [{"index": index, "function": {"arguments": piece}}]}))
    if answer.truncate:
        for item in chunks:
            yield b"data: " + json.dumps(item).encode() + b"\n\n"
        yield b'data: {"id": "chatcmpl-wire", "choi'
        return
    chunks.append(chunk({}, "tool_calls" if answer.calls else "stop"))
    for item in chunks:
        yield b"data: " + json.dumps(item).encode() + b"\n\n"
    yield b"data: [DONE]\n\n"
