#!/usr/bin/env bash
# Batch benchmark (issue 7, acceptance 1): throughput of `photogrammetry batch` with --workers 1
# against --workers 2 on the same 20 small jobs.
#   Captures: 4 synthetic textured vases (`photogrammetry synth textured-vase --views 30 --size 320x240`,
#   seeds 1–4; 30 views is the fewest that register reliably at that size: 8, 12, 16 and 20 views
#   register 2–3 images only, because the views are split over three orbits).
#   Jobs: 20 jobs cycling over the captures, each asking for poses and bounds with the K file;
#   the first also asks for a preview GLB model (dense stereo, surface, texture).
# Each run is a whole `photogrammetry batch JOBS -o OUT --workers N` into a fresh OUT, under
# /usr/bin/time -v (wall time, peak memory of the runner, which holds every session); with
# --runs R each worker count runs R times, alternating which goes first, and medians are reported.
# Prints a table and appends a dated section to Benchmarks/batch.md (or --results FILE).
#
# Usage: Scripts/benchmark/batch.sh [--no-build] [--jobs N] [--runs R] [--results FILE]
set -Eeuo pipefail
trap 'echo "error: ${BASH_SOURCE[0]}:$LINENO: \`$BASH_COMMAND\` failed" >&2' ERR
die() { echo "error: $*" >&2; exit 1; }
repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$repo_root"
invocation="bash Scripts/benchmark/$(basename "$0")${*:+ $*}"
build=1 jobs=20 runs=1 results="Benchmarks/batch.md"
while [[ $# -gt 0 ]]; do
    case "$1" in
        --no-build) build=0; shift ;;
        --jobs) [[ $# -ge 2 ]] || die "--jobs needs a number"; jobs="$2"; shift 2 ;;
        --runs) [[ $# -ge 2 ]] || die "--runs needs a number"; runs="$2"; shift 2 ;;
        --results) [[ $# -ge 2 ]] || die "--results needs a file"; results="$2"; shift 2 ;;
        *) die "unknown argument $1 (see the header of $0)" ;;
    esac
done
if [[ $build == 1 ]]; then bash Scripts/install-deps.sh >/dev/null; swift build -c release --product photogrammetry >/dev/null; fi
work="$(mktemp -d "${TMPDIR:-/tmp}/batch-bench.XXXXXX")"
trap 'rm -rf "$work"' EXIT
# A private copy, so a concurrent rebuild cannot change the binary mid-benchmark.
cp "$(swift build -c release --show-bin-path)/photogrammetry" "$work/photogrammetry"
bin="$work/photogrammetry"
load_before=$(cut -d' ' -f1-3 /proc/loadavg)

for seed in 1 2 3 4; do
    "$bin" synth textured-vase -o "$work/vase-$seed" --views 30 --size 320x240 --seed "$seed" >/dev/null
done
python3 - "$work" "$jobs" > "$work/jobs.json" <<'PY'
import json, sys
work, count = sys.argv[1], int(sys.argv[2])
jobs = []
for i in range(count):
    requests = ["poses", "bounds"]
    if i == 0:
        requests.append({"type": "model", "detail": "preview", "format": "glb"})
    jobs.append({"id": f"job{i:02d}", "input": f"{work}/vase-{i % 4 + 1}", "intrinsicsFile": "images/K.txt", "requests": requests})
print(json.dumps(jobs, indent=1))
PY

# run WORKERS RUN: one whole batch into a fresh folder; prints "wall rss cpu completed"
run() {
    local workers="$1" n="$2" out="$work/out-$1-$2" timing="$work/time-$1-$2"
    /usr/bin/time -v "$bin" batch "$work/jobs.json" -o "$out" --workers "$workers" --json > "$work/log-$workers-$n" 2> "$timing" \
        || { tail -5 "$timing"; die "batch --workers $workers failed"; }
    local wall rss cpu completed
    wall=$(awk -F': ' '/Elapsed \(wall clock\)/ {print $2}' "$timing" | awk -F: '{ if (NF==3) print $1*3600+$2*60+$3; else print $1*60+$2 }')
    rss=$(awk -F': ' '/Maximum resident set size/ {printf "%.2f", $2*1024/1e9}' "$timing")
    cpu=$(awk -F': ' '/Percent of CPU this job got/ {sub("%", "", $2); print $2}' "$timing")
    completed=$("$bin" jobs list -o "$out" --state completed --json | python3 -c 'import json,sys; print(len(json.load(sys.stdin)))')
    echo "$wall $rss $cpu $completed"
}

declare -A walls rsss cpus dones
for ((n = 1; n <= runs; n++)); do
    order=(1 2); if (( n % 2 == 0 )); then order=(2 1); fi
    for workers in "${order[@]}"; do
        read -r wall rss cpu completed < <(run "$workers" "$n")
        echo "run $n, --workers $workers: $wall s, peak $rss GB, CPU $cpu %, $completed/$jobs completed"
        walls[$workers]+="$wall "; rsss[$workers]+="$rss "; cpus[$workers]+="$cpu "; dones[$workers]+="$completed "
    done
done
median() { tr ' ' '\n' | sed '/^$/d' | sort -g | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
w1=$(echo "${walls[1]}" | median); w2=$(echo "${walls[2]}" | median)
rows=()
for workers in 1 2; do
    wall=$(echo "${walls[$workers]}" | median)
    rss=$(echo "${rsss[$workers]}" | median)
    cpu=$(echo "${cpus[$workers]}" | median)
    done_min=$(echo "${dones[$workers]}" | tr ' ' '\n' | sed '/^$/d' | sort -g | head -1)
    rows+=("| $workers | $jobs | $wall | $(awk -v j="$jobs" -v w="$wall" 'BEGIN {printf "%.1f", j / w * 60}') | $(awk -v a="$w1" -v b="$wall" 'BEGIN {printf "%.2f×", a / b}') | $cpu % | $rss | $done_min/$jobs |")
done

{
    echo
    echo "## $(date -u +%Y-%m-%d) — $(git rev-parse --short HEAD)$(git diff --quiet HEAD -- Sources Package.swift || echo ' (uncommitted changes)'), $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), load $load_before before, $(cut -d' ' -f1-3 /proc/loadavg) after"
    echo
    echo "    $invocation"
    echo
    echo "$jobs jobs on 4 synthetic vases (30 views, 320×240, K file): poses + bounds each, and a preview GLB for job00."
    echo "Runs per worker count: $runs (medians)."
    echo
    echo "| workers | jobs | wall s | jobs/min | speed-up vs 1 worker | CPU (of 200 %) | peak GB | completed (worst run) |"
    echo "|---|---|---|---|---|---|---|---|"
    printf '%s\n' "${rows[@]}"
} | tee -a "$results"
echo "appended to $results"
