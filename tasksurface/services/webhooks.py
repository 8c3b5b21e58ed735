"""Delivers the outbox to the team's backend as Standard Webhooks, retrying with backoff.

Only the configured URL is ever contacted: the URL comes from the settings, never from an
event, and redirects are not followed (a 3xx is a failed attempt). Each event keeps its
`webhook-id` across attempts; `webhook-timestamp` is the attempt's own time and
`webhook-signature` signs `id.timestamp.body` with the secret, as the spec says.
"""

from __future__ import annotations

import logging
import threading
import urllib.error
import urllib.request
from collections.abc import Callable
from datetime import datetime, timedelta

from standardwebhooks.webhooks import Webhook

from ..store import outbox
from ..store.db import Database

log = logging.getLogger("tasksurface.webhooks")
REQUEST_TIMEOUT = 10.0
LEASE = timedelta(seconds=REQUEST_TIMEOUT + 5)
"""Long enough to cover one attempt; a process that dies mid-attempt frees the row after it."""
IDLE_POLL = 1.0
"""How often rows written by other processes are looked for when nothing rang the bell."""
FIRST_RETRY = 1.0
KEEP_DELIVERED = timedelta(days=7)
"""How long a delivered event stays in the outbox (for an operator who wants to look)."""
PRUNE_EVERY = timedelta(hours=1)


class _NoRedirects(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: object, **kwargs: object) -> None:
        return None  # answered as the 3xx it is: only the configured URL is contacted


_OPENER = urllib.request.build_opener(_NoRedirects())


def backoff(attempts: int, ceiling: float) -> float:
    """Seconds before the next try after `attempts` failed ones: 1, 2, 4, … up to the ceiling."""
    return float(min(ceiling, FIRST_RETRY * 2.0 ** min(max(0, attempts - 1), 40)))  # no overflow, ever


class WebhookDelivery:
    def __init__(
        self,
        database: Database,
        url: str,
        secret: str,
        clock: Callable[[], datetime],
        max_backoff: float,
    ) -> None:
        self.database = database
        self.url = url
        self.signer = Webhook(secret)
        self.clock = clock
        self.max_backoff = max_backoff
        self._bell = threading.Event()
        self._stopping = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        self.database.on_reported = self._bell.set
        self._thread = threading.Thread(target=self._run, name="webhook-delivery", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stopping.set()
        self._bell.set()
        if self._thread is not None:
            self._thread.join(REQUEST_TIMEOUT + 2)

    def _run(self) -> None:
        pruned_at: datetime | None = None
        while not self._stopping.is_set():
            try:
                self.deliver_due()
                if pruned_at is None or self.clock() - pruned_at > PRUNE_EVERY:
                    pruned_at = self.clock()
                    with self.database.write() as db:
                        outbox.prune_delivered(db, pruned_at - KEEP_DELIVERED)
            except Exception:  # the database may be away for a moment; the rows wait for us
                log.exception("webhook delivery round failed")
            self._bell.wait(self._idle_seconds())
            self._bell.clear()

    def _idle_seconds(self) -> float:
        with self.database.read() as db:
            due = outbox.next_due(db)
        if due is None:
            return IDLE_POLL
        return max(0.02, min(IDLE_POLL, (due - self.clock()).total_seconds()))

    def deliver_due(self) -> int:
        """One round: lease what is due, post each, record the outcome. Returns how many went."""
        with self.database.write() as db:
            items = outbox.claim_due(db, self.clock(), LEASE)
        delivered = 0
        for item in items:
            if self._stopping.is_set():
                break  # the leases run out and another round (or process) takes them
            error = self._post(item)
            with self.database.write() as db:
                if error is None:
                    outbox.mark_delivered(db, item.id, self.clock())
                    delivered += 1
                else:
                    wait = backoff(item.attempts + 1, self.max_backoff)
                    outbox.mark_failed(db, item.id, self.clock() + timedelta(seconds=wait), error)
                    log.warning(
                        "webhook %s not delivered (%s); next try in %.0f s", item.webhook_id, error, wait
                    )
        return delivered

    def _post(self, item: outbox.OutboxItem) -> str | None:
        """Post one event; `None` when the receiver took it (2xx), else what went wrong."""
        at = self.clock()
        headers = {
            "Content-Type": "application/json",
            "User-Agent": "tasksurface-webhooks",
            "webhook-id": item.webhook_id,
            "webhook-timestamp": str(int(at.timestamp())),
            "webhook-signature": self.signer.sign(item.webhook_id, at, item.body),
        }
        request = urllib.request.Request(self.url, item.body.encode(), headers, method="POST")
        try:
            with _OPENER.open(request, timeout=REQUEST_TIMEOUT) as response:
                status = int(response.status)
        except urllib.error.HTTPError as exc:
            status = exc.code
        except (OSError, ValueError) as exc:  # refused, unreachable, timed out
            return f"{type(exc).__name__}: {exc}"
        return None if 200 <= status < 300 else f"HTTP {status}"
