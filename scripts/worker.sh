#!/usr/bin/env bash
# Starts a Celery worker for TASKSURFACE_TASKS=celery: it takes tasks from TASKSURFACE_CELERY_QUEUE
# on TASKSURFACE_CELERY_BROKER_URL and runs them against TASKSURFACE_DATABASE_URL, with the same
# settings as the web app. Extra arguments go to `celery worker` (e.g. --concurrency 16).
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
queue="${TASKSURFACE_CELERY_QUEUE:-tasksurface}"
exec .venv/bin/celery -A tasksurface.tasks.worker worker --pool threads --concurrency 8 \
  --queues "$queue" --without-gossip --without-mingle --without-heartbeat --loglevel INFO "$@"
