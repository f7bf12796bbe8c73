#!/usr/bin/env bash
# Runs Schemathesis against a running `npm start` in open local mode and in secure mode, with every
# check but one (below); fails on any failure. Needs schemathesis (pinned in .ci/run) and Bun (npm install).
set -euo pipefail
cd "$(dirname "$0")/.."

examples="${SCHEMATHESIS_EXAMPLES:-40}"
export PYTHONPATH="$PWD/tools/schemathesis${PYTHONPATH:+:$PYTHONPATH}" SCHEMATHESIS_HOOKS=hooks

free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

server=""
stop_server() { if [ -n "$server" ]; then kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; server=""; fi; }
trap stop_server EXIT

run_mode() {
  local mode="$1" port key data
  port="$(free_port)"
  # The default store, SQLite, in a file of this run's own.
  data="$(mktemp -d)"
  key="schemathesis-$(python3 -c 'import secrets; print(secrets.token_hex(24))')"
  if [ "$mode" = open ]; then
    PORT="$port" ROSTER_DATA_DIR="$data" ROSTER_LOG_REQUESTS=false node_modules/.bin/bun app/main.ts >/dev/null 2>&1 &
  else
    PORT="$port" HOST=127.0.0.1 ROSTER_DATA_DIR="$data" ROSTER_MASTER_KEY="$key" ROSTER_LOG_REQUESTS=false node_modules/.bin/bun app/main.ts >/dev/null 2>&1 &
  fi
  server=$!
  for _ in $(seq 1 100); do curl -fs "http://127.0.0.1:$port/health/live" >/dev/null && break; sleep 0.1; done
  local auth=()
  if [ "$mode" = secure ]; then auth=(-H "Authorization: Bearer $key"); fi
  echo "== schemathesis, $mode mode"
  local status=0
  # Every check but use-after-free: endpoint 5 of the fixed interface is a DELETE that takes one
  # permission out of a role's record, not the record, so reading the record afterwards rightly finds
  # it. `--checks all` overrides a check disabled in the configuration, so it is excluded here; the
  # project's own tests read deleted members and roles back and expect 404.
  schemathesis --config-file tools/schemathesis/schemathesis.toml run "http://127.0.0.1:$port/api/v1/openapi.json" --url "http://127.0.0.1:$port" \
    --checks all --exclude-checks use_after_free --max-examples "$examples" --seed 1 --no-color "${auth[@]}" || status=$?
  stop_server
  rm -rf "$data"
  return "$status"
}

failed=0
run_mode open || failed=1
run_mode secure || failed=1
exit "$failed"
