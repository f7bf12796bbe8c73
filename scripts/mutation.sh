#!/usr/bin/env bash
# `npm run mutation`: StrykerJS mutates the core and runs its unit tests against every mutant.
# Stryker lives in tools/mutation, installed here from its own lock file on first use, so that the
# project's install carries none of it; it runs the project's own vitest (found up the directory
# tree). Stryker 10 needs Node 22 or later; on an older Node this fetches Node 22 for the run from
# the npm registry (the platform's `node-<os>-<cpu>` package), leaving the machine's Node alone.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ ! -x tools/mutation/node_modules/@stryker-mutator/core/bin/stryker.js ]; then
  npm ci --prefix tools/mutation --no-audit --no-fund --loglevel=error
fi
stryker=(tools/mutation/node_modules/@stryker-mutator/core/bin/stryker.js run "$@")
major="$(node -p 'process.versions.node.split(".")[0]')"
if [ "$major" -ge 22 ]; then
  exec node "${stryker[@]}"
fi
platform="$(node -p 'process.platform + "-" + process.arch')"
exec npx --yes --package "node-$platform@22" node "${stryker[@]}"
