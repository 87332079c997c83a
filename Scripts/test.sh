#!/usr/bin/env bash
# Runs the whole test suite: installs dependencies if missing, builds in release mode (the
# end-to-end tests reconstruct real scenes), and runs every test. The Strecha end-to-end tests need
# ../shared beside the repository and say so when it is absent.
set -euo pipefail
cd "$(dirname "$0")/.."
bash Scripts/install-deps.sh
swift build -c release --build-tests
swift test -c release --skip-build "$@"
