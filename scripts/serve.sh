#!/usr/bin/env bash
# Serves the app at http://127.0.0.1:5000 with SQLite and the offline scripted agent.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
export TASKSURFACE_MODEL="${TASKSURFACE_MODEL:-scripted}"
# A small pause between streamed pieces, so the page shows panels while they are written.
export TASKSURFACE_SCRIPTED_PAUSE="${TASKSURFACE_SCRIPTED_PAUSE:-0.02}"
exec .venv/bin/flask --app app run --host 127.0.0.1 --port "${PORT:-5000}" "$@"
