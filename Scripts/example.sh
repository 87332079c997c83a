#!/usr/bin/env bash
# The main job on the bundled example: installs dependencies if missing, builds the CLI, renders a
# synthetic 24-view capture of a textured vase with exact ground truth (`photogrammetry synth`),
# estimates the camera poses from the photos alone (intrinsics self-calibrated from scratch) and
# scores them against the truth, then reconstructs a textured model at the reduced detail level:
# dense stereo fused with the capture's LiDAR-like depth, a decimated mesh with a UV atlas, base
# colour baked from the photos (every fourth photo held out and scored), normal and occlusion maps.
# Output: out/example/ (capture/ the photos, sidecars and truth; poses/ the cameras; vase.usdz,
# vase.glb and the report).
set -euo pipefail
cd "$(dirname "$0")/.."
bash Scripts/install-deps.sh
swift build -c release --product photogrammetry
BIN="$(swift build -c release --show-bin-path)/photogrammetry"
OUT=out/example
"$BIN" synth textured-vase -o "$OUT/capture" --views 24 --seed 1 --size 800x600
"$BIN" poses "$OUT/capture/images" -o "$OUT/poses"
"$BIN" evaluate-poses --ground-truth "$OUT/capture" "$OUT/poses"
"$BIN" reconstruct "$OUT/capture" -o "$OUT/vase.usdz" --detail reduced --hold-out-every 4 \
    --model-report "$OUT/vase-report.json"
"$BIN" reconstruct "$OUT/capture" -o "$OUT/vase.glb" --detail preview
echo "poses: $OUT/poses/poses.json, COLMAP model: $OUT/poses/colmap/, nerfstudio: $OUT/poses/transforms.json"
echo "models: $OUT/vase.usdz (reduced), $OUT/vase.glb (preview); model report: $OUT/vase-report.json"
