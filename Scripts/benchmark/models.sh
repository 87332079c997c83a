#!/usr/bin/env bash
# Model benchmark (issue 6): photos → textured model at every detail level, checked by
# ../shared/tools/usdz_check.py, with wall time and peak memory of each whole run.
#   1. fountain-P11 (../shared) at reduced, timed: the target is < 3 min and < 4 GB on the 2-core machine;
#   2. fountain-P11 and the synthetic textured vase (40 views, 1024×768) at preview, medium, full and
#      one custom setting (20k triangles, 2048², JPEG 0.85 base colour, diffuse + normal + roughness);
#      the vase also at reduced with every fifth photo held out (texture PSNR).
# Each run is a whole `photogrammetry reconstruct` (poses, dense, model, export) under /usr/bin/time -v.
# Prints a table and appends a dated section to Benchmarks/models.md.
#
# Usage: Scripts/benchmark/models.sh [--no-build] [--only-reduced] [--results FILE]
set -Eeuo pipefail
trap 'echo "error: ${BASH_SOURCE[0]}:$LINENO: \`$BASH_COMMAND\` failed" >&2' ERR
die() { echo "error: $*" >&2; exit 1; }
repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$repo_root"
invocation="bash Scripts/benchmark/$(basename "$0")${*:+ $*}"
build=1 only_reduced=0 results="Benchmarks/models.md"
while [[ $# -gt 0 ]]; do
    case "$1" in
        --no-build) build=0; shift ;;
        --only-reduced) only_reduced=1; shift ;;
        --results) [[ $# -ge 2 ]] || die "--results needs a file"; results="$2"; shift 2 ;;
        *) die "unknown argument $1 (see the header of $0)" ;;
    esac
done
fountain="${STRECHA_ROOT:-$repo_root/../shared/datasets/strecha}/fountain-P11"
checker="$repo_root/../shared/tools/usdz_check.py"
[[ -d "$fountain" ]] || die "fountain-P11 not found at $fountain (../shared must sit beside the repository)"
[[ -f "$checker" ]] || die "usdz_check.py not found at $checker"
if [[ $build == 1 ]]; then bash Scripts/install-deps.sh >/dev/null; swift build -c release --product photogrammetry >/dev/null; fi
bin="$(swift build -c release --show-bin-path)/photogrammetry"
work="$(mktemp -d "${TMPDIR:-/tmp}/models-bench.XXXXXX")"
"$bin" synth textured-vase -o "$work/vase40" --views 40 --seed 1 >/dev/null

rows=()
# run NAME INPUT K_FILE LEVEL [extra reconstruct options…]
run() {
    local name="$1" input="$2" kfile="$3" level="$4"; shift 4
    local out="$work/$name-$level.usdz" report="$work/$name-$level.json" timing="$work/$name-$level.time"
    local detail=("--detail" "$level")
    /usr/bin/time -v "$bin" reconstruct "$input" -o "$out" --intrinsics-file "$kfile" "${detail[@]}" "$@" \
        --model-report "$report" > "$work/$name-$level.log" 2> "$timing" || { tail -5 "$timing"; die "$name $level failed"; }
    local wall rss check
    wall=$(awk -F': ' '/Elapsed \(wall clock\)/ {print $2}' "$timing" | awk -F: '{ if (NF==3) print $1*3600+$2*60+$3; else print $1*60+$2 }')
    rss=$(awk -F': ' '/Maximum resident set size/ {printf "%.2f", $2/1048576}' "$timing")
    if python3 "$checker" "$out" --json > "$work/$name-$level.check" 2>&1; then check=pass; else check=FAIL; fi
    local summary
    summary=$(python3 - "$work/$name-$level.check" "$report" <<'PY'
import json, sys
check = json.loads(open(sys.argv[1]).read().strip().splitlines()[-1])
report = json.load(open(sys.argv[2]))
maps = ", ".join(f"{k} {v['size'][0]}" for k, v in sorted(check["maps"].items()))
psnr = report.get("meanPSNR")
print(f"{check['triangles']} | {maps} | {'%.2f dB' % psnr if psnr else '—'} | {report['seconds']:.1f}")
PY
)
    rows+=("| $name | $level${*:+ ($*)} | $summary | $wall | $rss | $check |")
    echo "${rows[-1]}"
}

run fountain-P11 "$fountain" "$fountain/images/K.txt" reduced
if [[ $only_reduced == 0 ]]; then
    for level in preview medium full; do run fountain-P11 "$fountain" "$fountain/images/K.txt" "$level"; done
    run fountain-P11 "$fountain" "$fountain/images/K.txt" custom --max-polygons 20000 --texture-size 2048 \
        --texture-format jpeg --jpeg-quality 0.85 --maps diffuse,normal,roughness
    run vase-40 "$work/vase40" "$work/vase40/images/K.txt" reduced --hold-out-every 5
    for level in preview medium full; do run vase-40 "$work/vase40" "$work/vase40/images/K.txt" "$level"; done
    run vase-40 "$work/vase40" "$work/vase40/images/K.txt" custom --max-polygons 20000 --texture-size 2048 \
        --texture-format jpeg --jpeg-quality 0.85 --maps diffuse,normal,roughness
fi

{
    echo
    echo "## $(date -u +%Y-%m-%d) — $(git rev-parse --short HEAD), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg) at the end"
    echo
    echo "    $invocation"
    echo
    echo "| capture | level | triangles | maps (edge, px) | held-out PSNR | model stage s | whole run s | peak GB | usdz_check |"
    echo "|---|---|---|---|---|---|---|---|---|"
    printf '%s\n' "${rows[@]}"
} >> "$results"
echo "appended to $results"
rm -rf "$work"
