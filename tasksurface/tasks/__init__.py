"""Running background tasks: the producers, the per-process host, the watcher and the Celery worker."""
