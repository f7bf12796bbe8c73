#!/usr/bin/env bash
# The official Prometheus client's text parser, pinned, in a virtual environment of its own: the
# tests read /metrics with it. Idempotent: does nothing when it is already installed.
set -euo pipefail
cd "$(dirname "$0")"
if [ ! -x .venv/bin/python ] || ! .venv/bin/python -c "import prometheus_client" 2>/dev/null; then
  python3 -m venv .venv
  .venv/bin/pip install --quiet --disable-pip-version-check 'prometheus-client==0.26.0'
fi
