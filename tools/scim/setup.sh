#!/usr/bin/env bash
# The SCIM conformance tools from PyPI, pinned, in a virtual environment of their own: scim2-tester
# (its check_server, driven by check_server.py over scim2-client's httpx2 engine) and scim-sanity.
# The tests run both against `npm start`. Idempotent: does nothing when they are installed.
set -euo pipefail
cd "$(dirname "$0")"
if [ ! -x .venv/bin/scim-sanity ] || ! .venv/bin/python -c "import scim2_tester, httpx2" 2>/dev/null; then
  python3 -m venv .venv
  .venv/bin/pip install --quiet --disable-pip-version-check \
    'scim2-tester==0.5.2' 'scim2-client[httpx2]==0.13.2' 'scim-sanity==0.7.4'
fi
