#!/usr/bin/env bash
# Serves app:app with gunicorn and the shipped gunicorn.conf.py.
# PORT (8000), WEB_CONCURRENCY (1; more needs PostgreSQL), TASKSURFACE_WEB_THREADS (1000) and every
# TASKSURFACE_* setting come from the environment; extra arguments go to gunicorn.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -x .venv/bin/gunicorn ]; then
  ./scripts/setup.sh
fi
export TASKSURFACE_ENV="${TASKSURFACE_ENV:-production}"
exec .venv/bin/gunicorn --config gunicorn.conf.py "$@" app:app
