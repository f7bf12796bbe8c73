#!/usr/bin/env bash
# Builds stripe-mock, a server of Stripe's API for the tests (pinned in go.mod as a tool; modules
# from the Go module proxy; a no-op when up to date).
set -euo pipefail
cd "$(dirname "$0")"
go build -o bin/stripe-mock github.com/stripe/stripe-mock
