#!/usr/bin/env bash
# PyJWT with its crypto extra, pinned, in a virtual environment of its own: the tests verify
# Roster's access tokens with it, a verifier in another language than Roster's. Idempotent: does
# nothing when it is already installed.
set -euo pipefail
cd "$(dirname "$0")"
if [ ! -x .venv/bin/python ] || ! .venv/bin/python -c "import jwt, cryptography" 2>/dev/null; then
  python3 -m venv .venv
  .venv/bin/pip install --quiet --disable-pip-version-check 'pyjwt[crypto]==2.15.1' 'cryptography==50.0.2'
fi
