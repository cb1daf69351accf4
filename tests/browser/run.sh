#!/usr/bin/env bash
# Checks generated/docs/api.html in headless Chromium: every method listed, search filters,
# method links scroll into view, and the Try it forms against three devnets (check.mjs starts
# and stops them, on 127.0.0.1:19660-19669, or from PORT_BASE on), "Fill forms" and every read
# method's filled form against a fresh one. Installs what it needs (Debian's chromium,
# playwright-core) and builds avalanche-devnet unless DEVNET_BIN names one.
#
#   tests/browser/run.sh [SCREENSHOT]     (default /tmp/api-page.png)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"

if [ ! -x "${CHROMIUM:-/usr/bin/chromium}" ]; then
  echo "installing chromium (apt)" >&2
  if [ "$(id -u)" -eq 0 ]; then sudo=""; else sudo="sudo"; fi
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq chromium >/dev/null
fi

if [ -z "${DEVNET_BIN:-}" ]; then
  echo "building avalanche-devnet (cargo build -p avalanche-devnet)" >&2
  (cd "$root" && cargo build -q -p avalanche-devnet)
  export DEVNET_BIN="${CARGO_TARGET_DIR:-$root/target}/debug/avalanche-devnet"
fi

cd "$here"
npm ci --no-audit --no-fund --loglevel=error
exec node check.mjs "${1:-${SCREENSHOT:-/tmp/api-page.png}}"
