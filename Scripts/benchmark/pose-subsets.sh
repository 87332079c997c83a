#!/usr/bin/env bash
# Wide-baseline robustness probe: runs `photogrammetry poses` (known K) on sparse subsets of the
# Strecha scenes, where consecutive views are 3-5 photos apart and three views share few points,
# and scores each with `photogrammetry evaluate-poses`. Prints one markdown table row per subset.
# The subsets are fixed (listed below), not chosen by result.
#
# Usage: Scripts/benchmark/pose-subsets.sh [--bin PATH]
#   --bin PATH   the photogrammetry binary (default .build/release/photogrammetry)
# Environment: STRECHA_ROOT (default <repo>/../shared/datasets/strecha).
set -euo pipefail

die() { echo "error: $*" >&2; exit 1; }
repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
bin="$repo_root/.build/release/photogrammetry"
while [[ $# -gt 0 ]]; do
    case "$1" in
        --bin) [[ $# -ge 2 ]] || die "--bin needs a path"; bin="$2"; shift 2 ;;
        -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
        *) die "unknown argument $1 (see --help)" ;;
    esac
done
root="${STRECHA_ROOT:-$repo_root/../shared/datasets/strecha}"
[[ -x "$bin" ]] || die "$bin not found (swift build -c release)"
[[ -d "$root/fountain-P11" && -d "$root/Herz-Jesus-P8" ]] || die "Strecha scenes not found under $root"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

subsets=(
    "fountain-P11: 0 3 6" "fountain-P11: 1 4 7" "fountain-P11: 2 5 8" "fountain-P11: 0 4 8"
    "fountain-P11: 0 4 9" "fountain-P11: 0 5 9" "fountain-P11: 1 5 9" "fountain-P11: 2 6 10"
    "fountain-P11: 0 5 10" "fountain-P11: 1 6 10" "fountain-P11: 0 3 6 9" "fountain-P11: 0 4 7 10"
    "Herz-Jesus-P8: 0 3 6" "Herz-Jesus-P8: 1 4 7" "Herz-Jesus-P8: 0 3 7" "Herz-Jesus-P8: 0 4 7"
    "Herz-Jesus-P8: 0 2 5 7"
)
echo "| scene | photos | registered | position error median / max | rotation error median / max |"
echo "|---|---|---|---|---|"
for entry in "${subsets[@]}"; do
    scene="${entry%%:*}"
    read -r -a ids <<<"${entry#*:}"
    dir="$work/$scene-$(IFS=-; echo "${ids[*]}")"
    mkdir -p "$dir/images"
    ln -s "$root/$scene/images/K.txt" "$dir/images/K.txt"
    ln -s "$root/$scene/gt_dense_cameras" "$dir/gt_dense_cameras"
    for i in "${ids[@]}"; do ln -s "$root/$scene/images/$(printf %04d "$i").jpg" "$dir/images/"; done
    "$bin" poses "$dir/images" -o "$dir/out" --intrinsics-file "$dir/images/K.txt" >"$dir/log" 2>&1 \
        || die "poses failed on $scene ${ids[*]} (log: $dir/log)"
    registered=$(grep -a -o 'registered [0-9]*/[0-9]*' "$dir/log" | head -1 | cut -d' ' -f2)
    if "$bin" evaluate-poses --ground-truth "$dir" "$dir/out/poses.json" >"$dir/eval" 2>&1; then
        position=$(sed -n 's/^position error: median \(.*\), max \(.*\)$/\1 \/ \2/p' "$dir/eval")
        rotation=$(sed -n 's/^rotation error: median \(.*\), max \(.*\)$/\1 \/ \2/p' "$dir/eval")
    else
        position="– (fewer than 3 registered)" rotation="–"
    fi
    echo "| $scene | ${ids[*]} | $registered | $position | $rotation |"
done
