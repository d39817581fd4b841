#!/usr/bin/env bash
# Runs every test. Each package that touches Firestore starts its own emulator
# (store/storetest), so nothing needs to be running first. The race detector
# is on: the pipeline is concurrent by nature.
set -euo pipefail
cd "$(dirname "$0")/.."
exec go test -race -count=1 -timeout 20m "$@" ./...
