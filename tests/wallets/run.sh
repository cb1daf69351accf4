#!/usr/bin/env bash
# The Rust wallet (`avalanche_rpc::transact`) builds what AvalancheJS builds
# (crosscheck.mjs, driven by tests/tests/wallet_crosscheck/), then a wallet library
# transacts against the devnet: runs transact.mjs (npm @avalabs/avalanchejs
# 5.2.0, pinned by package-lock.json: its `latest` tag is a placeholder) against a devnet on
# a free port (tests/with-devnet). Exit 1 when a check fails.
#
#   tests/wallets/run.sh
set -euo pipefail
cd "$(dirname "$0")"
npm ci --no-audit --no-fund --loglevel=error
# The Rust wallet's builders against AvalancheJS's: the same bytes, fee and burn per case.
(cd ../.. && cargo test -p avalanche-rpc-tests --test wallet_crosscheck -- --ignored)
../with-devnet 19653 wallets node transact.mjs
