#!/usr/bin/env bash
# Serves the app at http://127.0.0.1:5000 with SQLite and the offline scripted agent.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
export TASKSURFACE_MODEL="${TASKSURFACE_MODEL:-scripted}"
exec .venv/bin/flask --app app run --host 127.0.0.1 --port "${PORT:-5000}" "$@"
