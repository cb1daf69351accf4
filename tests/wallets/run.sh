#!/usr/bin/env bash
# A wallet library transacts against the devnet: runs transact.mjs (npm @avalabs/avalanchejs
# 5.2.0, pinned by package-lock.json: its `latest` tag is a placeholder) against a devnet on
# a free port (tests/with-devnet). Exit 1 when a check fails.
#
#   tests/wallets/run.sh
set -euo pipefail
cd "$(dirname "$0")"
npm ci --no-audit --no-fund --loglevel=error
../with-devnet 19653 wallets node transact.mjs
