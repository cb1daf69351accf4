#!/usr/bin/env bash
# Third-party clients against the devnet: runs the read calls of AvalancheJS v3 and
# @avalanche-sdk/client (check.mjs, npm packages pinned by package-lock.json) against a devnet
# on a free port (tests/with-devnet). Exit 1 when a check fails. check.mjs takes any target's
# URL; CI also runs it against AvalancheGo after the wallet tour (.ci/run):
#
#   tests/clients/run.sh
#   tests/with-node PORT NAME sh -c 'cd tests/clients && node check.mjs "$NODE_URL"'
set -euo pipefail
cd "$(dirname "$0")"
npm ci --no-audit --no-fund --loglevel=error
../with-devnet 19651 clients node check.mjs
