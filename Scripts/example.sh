#!/usr/bin/env bash
# The main job on the bundled example: installs dependencies if missing, builds the CLI, renders a
# synthetic 24-view capture of a textured vase with exact ground truth (`photogrammetry synth`),
# estimates the camera poses from the photos alone (intrinsics self-calibrated from scratch), and
# scores them against the truth.
# Output: out/example/ (capture/ holds the photos, sidecars and ground truth; poses/ what the CLI wrote).
set -euo pipefail
cd "$(dirname "$0")/.."
bash Scripts/install-deps.sh
swift build -c release --product photogrammetry
BIN="$(swift build -c release --show-bin-path)/photogrammetry"
OUT=out/example
"$BIN" synth textured-vase -o "$OUT/capture" --views 24 --seed 1
"$BIN" poses "$OUT/capture/images" -o "$OUT/poses"
"$BIN" evaluate-poses --ground-truth "$OUT/capture" "$OUT/poses"
echo "poses: $OUT/poses/poses.json, COLMAP model: $OUT/poses/colmap/, nerfstudio: $OUT/poses/transforms.json"
