#!/usr/bin/env bash
# The main job on the bundled example: installs dependencies if missing, builds the CLI, renders a
# synthetic 12-view scene with known cameras, estimates the poses from the photos alone (intrinsics
# self-calibrated from scratch), and scores them against the truth.
# Output: out/example/ (scene/ holds the photos and ground truth, poses/ what the CLI wrote).
set -euo pipefail
cd "$(dirname "$0")/.."
bash Scripts/install-deps.sh
swift build -c release --product photogrammetry
BIN="$(swift build -c release --show-bin-path)/photogrammetry"
OUT=out/example
python3 Scripts/make_example_scene.py "$OUT/scene"
"$BIN" poses "$OUT/scene/images" -o "$OUT/poses"
"$BIN" evaluate-poses --ground-truth "$OUT/scene" "$OUT/poses"
echo "poses: $OUT/poses/poses.json, COLMAP model: $OUT/poses/colmap/, nerfstudio: $OUT/poses/transforms.json"
