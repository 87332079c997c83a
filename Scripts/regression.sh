#!/usr/bin/env bash
# Runs the reference datasets of Datasets/manifest.json (or the subset given with --subset), prints
# a table of metrics against thresholds, writes out/regression/report/index.html, and exits non-zero
# when a threshold breaks. Real scenes are read from ../shared beside the repository (skipped with a
# message when absent). Example: bash Scripts/regression.sh --subset ci
set -euo pipefail
cd "$(dirname "$0")/.."
bash Scripts/install-deps.sh
swift build -c release --product photogrammetry
BIN="$(swift build -c release --show-bin-path)/photogrammetry"
"$BIN" regression "$@"
