#!/usr/bin/env bash
# Checks generated/docs/api.html in headless Chromium: every method listed, search filters,
# method links scroll into view. Installs what it needs (Debian's chromium, playwright-core).
#
#   tests/browser/run.sh [SCREENSHOT]     (default /tmp/api-page.png)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"

if [ ! -x "${CHROMIUM:-/usr/bin/chromium}" ]; then
  echo "installing chromium (apt)" >&2
  if [ "$(id -u)" -eq 0 ]; then sudo=""; else sudo="sudo"; fi
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq chromium >/dev/null
fi

cd "$here"
npm ci --no-audit --no-fund --loglevel=error
exec node check.mjs "${1:-${SCREENSHOT:-/tmp/api-page.png}}"
