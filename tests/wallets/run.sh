#!/usr/bin/env bash
# The Rust wallet (`avalanche_rpc::transact`) builds what AvalancheJS builds
# (crosscheck.mjs, driven by tests/tests/wallet_crosscheck/), then a wallet library
# transacts against the devnet: runs transact.mjs (npm @avalabs/avalanchejs
# 5.2.0, pinned by package-lock.json: its `latest` tag is a placeholder) against a devnet on
# a free port (tests/with-devnet); then avalanche-sdk's C <-> P transfer examples
# (sdk-cchain.mjs: @avalanche-sdk/client 0.1.1); then the interop of this crate's portable partially-signed
# transaction with AvalancheJS's signer (interop.mjs, driven by cli/tests/interop_js.rs: each
# side completes what the other partly signed, issued on X and P). Exit 1 when a check fails.
#
#   tests/wallets/run.sh
set -euo pipefail
cd "$(dirname "$0")"
npm ci --no-audit --no-fund --loglevel=error
# The Rust wallet's builders against AvalancheJS's: the same bytes, fee and burn per case.
(cd ../.. && cargo test -p avalanche-rpc-tests --test wallet_crosscheck -- --ignored)
../with-devnet 19653 wallets node transact.mjs
# avalanche-sdk's C -> P and P -> C examples as written (@avalanche-sdk/client 0.1.1, given
# the devnet's chain IDs by sdk-local-chains.mjs): each amount exact after fees.
../with-devnet 29721 sdkc node sdk-cchain.mjs
# A portable file of this crate completed by AvalancheJS's addTxSignatures, and a transaction
# AvalancheJS built and partly signed completed by `avax-rpc wallet sign`: both accepted.
../with-devnet 29720 interop cargo test -p avax-rpc --test interop_js -- --ignored --nocapture
