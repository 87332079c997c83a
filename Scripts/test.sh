#!/usr/bin/env bash
# Runs the whole test suite: installs dependencies if missing, builds in release mode (the
# end-to-end tests reconstruct real scenes), runs every test, then the regression datasets of the
# `ci` subset (Datasets/manifest.json: a synthetic capture and a Strecha scene), which fails on any
# broken threshold. The Strecha tests need ../shared beside the repository and say so when it is absent.
set -euo pipefail
cd "$(dirname "$0")/.."
bash Scripts/install-deps.sh
swift build -c release --build-tests
swift test -c release --skip-build "$@"
bash Scripts/regression.sh --subset ci --output out/regression-ci
