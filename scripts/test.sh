#!/usr/bin/env bash
# Runs every test. Each package that touches Firestore starts its own emulator
# (store/storetest), so nothing needs to be running first. The race detector
# is on: the pipeline is concurrent by nature. The web client's browser tests
# (emulator/browser) need Chromium, which web-setup.sh installs when missing.
# Arguments go to both `go test` runs (e.g. -run, -v).
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/web-setup.sh # Chromium for the browser tests (emulator/browser)

# The rules' long random-game suites run without the race detector, at their
# full counts: they are pure and run on one goroutine, where the detector
# finds nothing and costs five to ten times the time. Every other test of the
# rule packages (their concurrent ones among them) runs under it below. A
# suite added here must start no goroutine; a renamed one runs under the
# detector again (slower, never less checked).
rules_suites='^(TestConformance|TestRandomMatchesEveryMode|TestRandomMatches|TestPowerupFog|TestUndoEveryAction|TestUndoLargeImages|TestStrongBeatsRandom|TestClassicCeiling|TestClassicTableDecodes|TestPlanPlaysWholeMatches|TestTeamsFollowTheMatch)$'
go test -count=1 -timeout 20m -run "$rules_suites" "$@" ./domain/...

# The longest packages first: `go test` starts packages in the order given,
# as many at once as there are cores, so the long ones no longer wait at the
# end behind the short ones.
exec go test -race -count=1 -timeout 20m -skip "$rules_suites" "$@" \
  ./emulator/browser ./functions ./emulator/stack ./...
