"""Content-free operating figures in the Prometheus text format: counts and timings, never text.

These are also the local interaction counters of the design (panels shown, submitted, dismissed,
bypassed): labels only ever carry host-defined names and codes, never a question, an option, a
value or an answer. Under several server processes, prometheus_client's multiprocess mode
(`PROMETHEUS_MULTIPROC_DIR`, set by the shipped gunicorn config) sums every process's figures,
so one scrape of any process reports the whole server.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterator, Sequence
from datetime import UTC, datetime
from typing import Any

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest
from prometheus_client.core import GaugeMetricFamily, Metric
from prometheus_client.multiprocess import MultiProcessCollector
from prometheus_client.registry import Collector

from .agent.ports import (
    CallSink,
    ModelBackend,
    ModelError,
    ModelReply,
    Outcome,
    StreamingModelBackend,
    ToolDefinition,
)
from .domain.events import SessionEvent
from .store.db import utc
from .store.records import InboxItem

LATENCY_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0)
MODEL_BUCKETS = (0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0, 120.0, 300.0)


def multiprocess_dir() -> str | None:
    return os.environ.get("PROMETHEUS_MULTIPROC_DIR") or None


class Metrics:
    """The figures of one app; exposition sums all processes when multiprocess mode is on."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        r = self.registry
        self.panels = Counter(
            "tasksurface_panels",
            "Task Surface panels by what the log decided: shown, submitted, dismissed, bypassed",
            ["event"],
            registry=r,
        )
        self.refusals = Counter(
            "tasksurface_refusals", "Typed refusals answered to a client, by code", ["code"], registry=r
        )
        self.submit_durable = Histogram(
            "tasksurface_submit_durable_seconds",
            "From an accepted panel submission to its message being durable in the log",
            buckets=LATENCY_BUCKETS,
            registry=r,
        )
        self.inbox_outcomes = Counter(
            "tasksurface_inbox_outcomes",
            "Terminal outcomes of claimed inbox items (committed or discarded)",
            ["outcome"],
            registry=r,
        )
        self.websockets = Gauge(
            "tasksurface_websocket_connections",
            "Open session websockets",
            registry=r,
            multiprocess_mode="livesum",
        )
        self.model_calls = Histogram(
            "tasksurface_model_call_seconds",
            "Duration of one model request",
            buckets=MODEL_BUCKETS,
            registry=r,
        )
        self.model_errors = Counter(
            "tasksurface_model_call_errors", "Model requests that failed, by kind", ["kind"], registry=r
        )
        for event in ("shown", "submitted", "dismissed", "bypassed"):
            self.panels.labels(event)  # present at zero, so a rate is defined from the start
        for outcome in ("committed", "discarded"):
            self.inbox_outcomes.labels(outcome)
        self._collectors: list[Collector] = []

    def add_collector(self, collector: Collector) -> None:
        """A figure read at scrape time (the inbox depth from the database)."""
        self._collectors.append(collector)
        if multiprocess_dir() is None:
            self.registry.register(collector)

    def interaction(self, event: str) -> None:
        self.panels.labels(event).inc()

    def refusal(self, code: str) -> None:
        self.refusals.labels(code).inc()

    def exposition(self) -> bytes:
        folder = multiprocess_dir()
        if folder is None:
            return generate_latest(self.registry)
        registry = CollectorRegistry()
        MultiProcessCollector(registry, path=folder)  # type: ignore[no-untyped-call]
        for collector in self._collectors:
            registry.register(collector)
        return generate_latest(registry)


class InboxDepth(Collector):
    """Inbox rows waiting in the whole database: the runners' queue depth, whichever process runs them."""

    def __init__(self, count: Callable[[], int]) -> None:
        self._count = count

    def collect(self) -> Iterator[Metric]:
        family = GaugeMetricFamily(
            "tasksurface_runner_queue_depth", "Inbox items waiting for admission, in the whole database"
        )
        family.add_metric([], float(self._count()))
        yield family


class OutcomeMetrics:
    """An inbox observer: the submit → durable latency of panel submissions, and every outcome."""

    def __init__(self, metrics: Metrics, clock: Callable[[], datetime] = lambda: datetime.now(UTC)) -> None:
        self.metrics = metrics
        self.clock = clock

    def outcome(self, item: InboxItem, outcome: Outcome, reason: str) -> None:
        self.metrics.inbox_outcomes.labels(outcome).inc()
        if outcome == "committed" and item.surface_id is not None and _is_submission(item.source):
            waited = (self.clock() - utc(item.created_at)).total_seconds()
            self.metrics.submit_durable.observe(max(waited, 0.0))


def _is_submission(source: dict[str, Any]) -> bool:
    surface = source.get("taskSurface")
    return isinstance(surface, dict) and "submissionId" in surface


class MeasuredBackend:
    """Times every model request and counts its failures; the model's words are not looked at."""

    def __init__(self, inner: ModelBackend, metrics: Metrics) -> None:
        self.inner = inner
        self.metrics = metrics

    def respond(self, history: Sequence[SessionEvent], tools: Sequence[ToolDefinition]) -> ModelReply:
        return self._timed(lambda: self.inner.respond(history, tools))

    def _timed(self, call: Callable[[], ModelReply]) -> ModelReply:
        started = time.monotonic()
        try:
            return call()
        except ModelError:
            self.metrics.model_errors.labels("provider").inc()
            raise
        except Exception:
            self.metrics.model_errors.labels("backend").inc()
            raise
        finally:
            self.metrics.model_calls.observe(time.monotonic() - started)


class MeasuredStreamingBackend(MeasuredBackend):
    def __init__(self, inner: StreamingModelBackend, metrics: Metrics) -> None:
        super().__init__(inner, metrics)
        self.streaming = inner

    def respond_streaming(
        self,
        history: Sequence[SessionEvent],
        tools: Sequence[ToolDefinition],
        on_text: Callable[[str], None],
        on_call: CallSink | None = None,
    ) -> ModelReply:
        return self._timed(lambda: self.streaming.respond_streaming(history, tools, on_text, on_call))


def measured(backend: ModelBackend, metrics: Metrics) -> ModelBackend:
    """The same backend, timed; a streaming one stays streaming."""
    if isinstance(backend, StreamingModelBackend):
        return MeasuredStreamingBackend(backend, metrics)
    return MeasuredBackend(backend, metrics)
