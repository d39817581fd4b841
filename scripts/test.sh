#!/usr/bin/env bash
# Runs every test. Each package that touches Firestore starts its own emulator
# (store/storetest), so nothing needs to be running first. The race detector
# is on: the pipeline is concurrent by nature. The web client's browser tests
# (emulator/browser) need Chromium, which web-setup.sh installs when missing.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/web-setup.sh # Chromium for the browser tests (emulator/browser)
exec go test -race -count=1 -timeout 20m "$@" ./...
