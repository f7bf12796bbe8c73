#!/usr/bin/env bash
# Builds the tests' OTLP receiver (modules from the Go module proxy; a no-op when up to date).
set -euo pipefail
cd "$(dirname "$0")"
go build -o bin/otlp-receiver .
