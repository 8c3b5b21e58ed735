"""The Celery side of `TASKSURFACE_TASKS=celery`: one app definition for web processes and workers.

Redis is the broker and nothing else: task state and output are rows in the database, so no
result backend is used. The queue name is also the prefix of every Redis key, so two
deployments (or two test runs) can share one Redis without ever sharing a queue.
"""

from __future__ import annotations

from celery import Celery

from ..domain.ids import TaskId
from ..domain.tasks import TaskRecord

RUN_TASK = "tasksurface.run_task"


def make_celery(broker_url: str, queue: str) -> Celery:
    app = Celery("tasksurface", broker=broker_url, set_as_current=False)
    app.conf.update(
        task_default_queue=queue,
        broker_transport_options={"global_keyprefix": f"{queue}:"},
        task_ignore_result=True,
        task_acks_late=False,  # a delivery is claimed in the database; a lost heartbeat reports it
        worker_prefetch_multiplier=1,
        worker_enable_remote_control=False,
        worker_send_task_events=False,
        worker_hijack_root_logger=False,
        broker_connection_retry_on_startup=True,
        broker_connection_timeout=5,
    )
    return app


class CeleryDispatch:
    """Tasks wait in the queue as `queued` rows until a worker claims them."""

    host_kind = "worker"

    def __init__(self, app: Celery, queue: str) -> None:
        self.app = app
        self.queue = queue

    def host_id(self) -> str | None:
        return None

    def submit(self, task: TaskRecord, spec: dict[str, object]) -> None:
        self.app.send_task(RUN_TASK, args=[task.id], queue=self.queue)

    def cancel(self, task_id: TaskId) -> None:
        """Its worker sees the request on its next look at the database."""
