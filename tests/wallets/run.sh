#!/usr/bin/env bash
# A wallet library transacts against the devnet: starts avalanche-devnet (built by cargo) on
# a free port, runs transact.mjs (npm @avalabs/avalanchejs 5.2.0, pinned by
# package-lock.json: its `latest` tag is a placeholder) and stops it. Exit 1 when a check
# fails.
#
#   tests/wallets/run.sh
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
cd "$root"
cargo build -q -p avalanche-devnet
port=19653
target/debug/avalanche-devnet --http-port "$port" >target/devnet-wallets.log 2>&1 &
devnet=$!
trap 'kill $devnet 2>/dev/null || true' EXIT
for _ in $(seq 100); do (exec 3<>/dev/tcp/127.0.0.1/$port) 2>/dev/null && break; sleep 0.1; done
cd "$here"
npm ci --no-audit --no-fund --loglevel=error
DEVNET_URL="http://127.0.0.1:$port" node transact.mjs
