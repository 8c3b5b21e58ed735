#!/usr/bin/env bash
# Installs everything the tests need (Python packages, Chromium and its driver, axe-core) and runs
# lint, type checks and the whole suite. PostgreSQL joins when TASKSURFACE_TEST_POSTGRES_URL is set.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh

if ! command -v chromium >/dev/null 2>&1 || ! command -v chromedriver >/dev/null 2>&1; then
  echo "Installing Debian's chromium and chromium-driver for the browser tests…"
  sudo_cmd=""
  if [ "$(id -u)" != "0" ]; then sudo_cmd="sudo"; fi
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq chromium chromium-driver >/dev/null
fi

if [ ! -f node_modules/axe-core/axe.min.js ]; then
  echo "Installing axe-core from the npm registry for the accessibility tests…"
  npm ci --no-audit --no-fund --silent
fi

.venv/bin/ruff check .
.venv/bin/ruff format --check .
.venv/bin/mypy
exec .venv/bin/pytest "$@"
