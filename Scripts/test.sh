#!/usr/bin/env bash
# Runs the whole test suite: installs dependencies if missing, builds in release mode (the
# end-to-end tests reconstruct real scenes), runs every test, then the regression datasets of the
# `ci` subset (Datasets/manifest.json: a synthetic capture and a Strecha scene), which fails on any
# broken threshold, and last Scripts/check-library-use.sh (Examples/SessionExample built against
# this repository as a versioned package dependency, and run). The Strecha tests need ../shared
# beside the repository and say so when it is absent.
# When a test fails, its assertion lines are printed again at the very end, so a log's tail names it.
set -euo pipefail
cd "$(dirname "$0")/.."
bash Scripts/install-deps.sh
swift build -c release --build-tests
mkdir -p out
log=out/test.log
status=0
swift test -c release --skip-build "$@" 2>&1 | tee "$log" || status=$?
if [ "$status" -ne 0 ]; then
    echo
    echo "== swift test failed (exit $status); the failures, from $log =="
    grep -E "\.swift:[0-9]+: error: |Test Case '.*' failed \(|Fatal error:|Segmentation fault|exited with (un)?caught signal" "$log" | head -60 || true
    exit "$status"
fi
bash Scripts/regression.sh --subset ci --output out/regression-ci
bash Scripts/check-library-use.sh
