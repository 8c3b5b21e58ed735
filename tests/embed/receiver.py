"""A team's backend as small as can be: a real HTTP server that records the webhooks it gets."""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from standardwebhooks.webhooks import Webhook

SECRET = "whsec_" + "MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"  # 24 bytes in base64, as the spec's examples


@dataclass(frozen=True)
class Delivery:
    headers: dict[str, str]
    body: bytes

    @property
    def webhook_id(self) -> str:
        return self.headers["webhook-id"]

    def verified(self, secret: str = SECRET) -> Any:
        """The payload, once the spec's own verifier accepts the signature."""
        return Webhook(secret).verify(self.body, self.headers)


class Receiver:
    """Answers `status(n)` for the n-th request (0-based); 204 by default."""

    def __init__(self, port: int, status: Callable[[int], int] = lambda n: 204, location: str = "") -> None:
        self.port = port
        self.url = f"http://127.0.0.1:{port}/hooks"
        self.deliveries: list[Delivery] = []
        self.requests = 0
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length", "0"))
                body = self.rfile.read(length)
                with receiver._lock:
                    code = status(receiver.requests)
                    receiver.requests += 1
                    if 200 <= code < 300:
                        headers = {k.lower(): v for k, v in self.headers.items()}
                        receiver.deliveries.append(Delivery(headers, body))
                self.send_response(code)
                if location:
                    self.send_header("Location", location)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args: Any) -> None:
                pass

        self._lock = threading.Lock()
        self._server = ThreadingHTTPServer(("127.0.0.1", port), Handler)
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)
        self._thread.start()

    def types(self) -> list[str]:
        return [d.verified()["type"] for d in list(self.deliveries)]

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(5)
