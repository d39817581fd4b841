#!/usr/bin/env bash
# Runs every test. Each package that touches Firestore starts its own emulator
# (store/storetest), so nothing needs to be running first.
set -euo pipefail
cd "$(dirname "$0")/.."
exec go test -count=1 -timeout 20m "$@" ./...
