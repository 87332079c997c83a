#!/usr/bin/env bash
# Pose benchmark: the project's `photogrammetry poses` against the faster COLMAP peer (pycolmap
# 4.2.1 by default; `--peer colmap` for the Debian COLMAP CLI) on one Strecha scene, in the same
# sitting, each under `/usr/bin/time -v`; both scored with `photogrammetry evaluate-poses --json`.
# Prints a table and appends a dated section to Benchmarks/poses.md (see Benchmarks/README.md).
#
# Usage: Scripts/benchmark/poses-vs-peer.sh [SCENE] [--runs N] [--peer pycolmap|colmap]
#                                           [--no-build] [--results FILE] [--keep]
#   SCENE        scene folder name under ../shared/datasets/strecha (default fountain-P11),
#                or a path to a scene folder (images/, images/K.txt, gt_dense_cameras/)
#   --runs N     run each tool N times, alternating which goes first; report medians (default 1)
#   --peer P     pycolmap (default; the faster peer in ../shared/docs/targets.md) or colmap
#   --no-build   use the existing release binary instead of running `swift build` first
#   --results F  results file to append to (default Benchmarks/poses.md)
#   --keep       keep the temporary output folders (default: deleted on success)
# Environment: STRECHA_ROOT (default <repo>/../shared/datasets/strecha), PYTHON (default python3).
set -Eeuo pipefail
trap 'echo "error: ${BASH_SOURCE[0]}:$LINENO: \`$BASH_COMMAND\` failed" >&2' ERR

die() { echo "error: $*" >&2; exit 1; }
script_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo_root="$(cd "$script_dir/../.." && pwd)"
orig_pwd="$PWD"
invocation="bash Scripts/benchmark/$(basename "$0")${*:+ $*}"

scene=fountain-P11 runs=1 peer=pycolmap build=1 keep=0 results="Benchmarks/poses.md"
scene_set=0
while [[ $# -gt 0 ]]; do
    case "$1" in
        --runs) [[ $# -ge 2 ]] || die "--runs needs a number"; runs="$2"; shift 2 ;;
        --runs=*) runs="${1#*=}"; shift ;;
        --peer) [[ $# -ge 2 ]] || die "--peer needs pycolmap or colmap"; peer="$2"; shift 2 ;;
        --peer=*) peer="${1#*=}"; shift ;;
        --no-build) build=0; shift ;;
        --results) [[ $# -ge 2 ]] || die "--results needs a file"; results="$2"; shift 2 ;;
        --results=*) results="${1#*=}"; shift ;;
        --keep) keep=1; shift ;;
        -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
        -*) die "unknown option $1 (see --help)" ;;
        *) [[ $scene_set -eq 0 ]] || die "only one SCENE may be given"; scene="$1"; scene_set=1; shift ;;
    esac
done
[[ "$runs" =~ ^[1-9][0-9]*$ ]] || die "--runs must be a positive integer, got '$runs'"
case "$peer" in pycolmap|colmap) ;; *) die "--peer must be pycolmap or colmap, got '$peer'" ;; esac
# Paths given on the command line are relative to where the script was started; then work from the root.
[[ "$results" == /* || "$results" == Benchmarks/poses.md ]] || results="$orig_pwd/$results"
[[ "$scene" != */* || "$scene" == /* ]] || scene="$orig_pwd/$scene"
cd "$repo_root"
[[ -f Package.swift ]] || die "$repo_root does not look like the project root (no Package.swift)"

# --- Data ----------------------------------------------------------------------------------------
PYTHON="${PYTHON:-python3}"
strecha_root="${STRECHA_ROOT:-$repo_root/../shared/datasets/strecha}"
if [[ "$scene" == */* ]]; then scene_dir="$scene"; else scene_dir="$strecha_root/$scene"; fi
[[ -d "$scene_dir" ]] || die "scene folder $scene_dir not found. The Strecha data is shared read-only \
data expected at ../shared/datasets/strecha/ next to the repository (or set STRECHA_ROOT); it is never \
copied into the repository."
scene_dir="$(cd "$scene_dir" && pwd)"
scene="$(basename "$scene_dir")"
images="$scene_dir/images" kfile="$scene_dir/images/K.txt"
[[ -d "$images" ]] || die "$images missing"
[[ -f "$kfile" ]] || die "$kfile missing (the scene's 3x3 intrinsics)"
[[ -d "$scene_dir/gt_dense_cameras" ]] || die "$scene_dir/gt_dense_cameras missing (ground truth)"
# Paths as written in the results: relative to the repository root when the data sits in ../shared.
parent_root="$(cd "$repo_root/.." && pwd)"
rel() {
    local p="$1"
    if [[ "$p" == "$repo_root"/* ]]; then p="${p#"$repo_root"/}"
    elif [[ "$p" == "$parent_root"/* ]]; then p="../${p#"$parent_root"/}"; fi
    echo "$p"
}
scene_rel="$(rel "$scene_dir")" images_rel="$(rel "$images")" kfile_rel="$(rel "$kfile")"

case "$scene" in
    fountain-P11) pos_target_mm=2.4 ;;
    Herz-Jesus-P8) pos_target_mm=3.0 ;;
    *) pos_target_mm="" ;;   # not in targets.md: compare with the peer measured in this sitting
esac

# --- Tools ---------------------------------------------------------------------------------------
if [[ ! -x /usr/bin/time ]]; then
    if [[ $(id -u) -eq 0 ]] && command -v apt-get >/dev/null; then
        echo "installing GNU time (Debian package 'time')" >&2
        DEBIAN_FRONTEND=noninteractive apt-get install -y -q time >/dev/null || die "apt-get install time failed"
    else
        die "/usr/bin/time missing: install the Debian package 'time' (apt-get install time)"
    fi
fi
# (Captured first: `grep -q` closing the pipe early would fail the check under pipefail.)
time_probe="$(/usr/bin/time -v true 2>&1 || true)"
grep -q "Maximum resident set size" <<<"$time_probe" || die "/usr/bin/time is not GNU time (no -v)"
if [[ "$peer" == pycolmap ]]; then
    peer_version="$("$PYTHON" -c 'import pycolmap; print(pycolmap.__version__)' 2>/dev/null)" \
        || die "pycolmap not importable by $PYTHON (pip install pycolmap==4.2.1)"
    [[ "$peer_version" == 4.2.1 ]] || echo "warning: pycolmap $peer_version installed; targets.md measured 4.2.1" >&2
    peer_label="pycolmap $peer_version"
    peer_desc="pycolmap $peer_version (PyPI), via \`Scripts/benchmark/pycolmap_poses.py\`: CPU SIFT (GPU off), one shared PINHOLE camera with the given K, exhaustive matching, incremental mapper with focal length / principal point / extra parameters not refined. The faster peer per \`../shared/docs/targets.md\` (fountain-P11: pycolmap 4.2.1 75 s vs the Debian COLMAP 3.8 CLI 127 s); the COLMAP CLI was not run in this sitting (\`--peer colmap\` runs it)."
else
    command -v colmap >/dev/null || die "colmap not found (apt-get install colmap)"
    peer_version="$(QT_QPA_PLATFORM=offscreen colmap help 2>/dev/null | awk 'NR == 1 { sub(/ --.*/, ""); print }')"
    [[ -n "$peer_version" ]] || peer_version="COLMAP"
    peer_label="$peer_version CLI"
    peer_desc="$peer_version CLI (Debian \`colmap\`, QT_QPA_PLATFORM=offscreen), via \`Scripts/benchmark/colmap_cli_poses.sh\`: CPU SIFT, one shared PINHOLE camera with the given K, exhaustive matching, incremental mapper with focal length / principal point / extra parameters not refined. Note: \`../shared/docs/targets.md\` measured pycolmap 4.2.1 as the faster peer (75 s vs 127 s for this CLI on fountain-P11), so the target ratio is meant against pycolmap."
fi

work="$(mktemp -d "${TMPDIR:-/tmp}/poses-bench.XXXXXX")"
cleanup() {
    local rc=$?
    if [[ $rc -eq 0 && $keep -eq 0 ]]; then rm -rf "$work"; else echo "outputs kept in $work" >&2; fi
}
trap cleanup EXIT
commands="$work/commands.sh" manifest="$work/manifest.tsv"
: >"$commands"; : >"$manifest"
record() { printf '%q ' "$@" | sed 's/ $//' >>"$commands"; echo >>"$commands"; }

# --- Build ---------------------------------------------------------------------------------------
uptime_start="$(uptime | sed 's/^ *//')"   # before the build
if [[ $build -eq 1 ]]; then
    echo "building: swift build -c release --product photogrammetry" >&2
    record swift build -c release --product photogrammetry
    swift build -c release --product photogrammetry >"$work/build.log" 2>&1 \
        || { tail -30 "$work/build.log" >&2; die "release build failed (log above)"; }
fi
bin_dir="$(swift build -c release --show-bin-path)"
[[ -x "$bin_dir/photogrammetry" ]] || die "$bin_dir/photogrammetry missing (build it, or drop --no-build)"
# Run a private copy so a concurrent rebuild of .build/ cannot swap the binary between runs.
mkdir "$work/bin"; cp "$bin_dir/photogrammetry" "$work/bin/photogrammetry"
bin="$work/bin/photogrammetry"
bin_sha="$(sha256sum "$bin" | cut -c1-12)"
echo "# $bin is a copy of $(rel "$bin_dir")/photogrammetry (sha256 $bin_sha…)" >>"$commands"

commit="$(git rev-parse --short=12 HEAD 2>/dev/null || echo unknown)"
dirty="$(git status --porcelain -- Sources Package.swift Package.resolved 2>/dev/null | wc -l)"
project="commit \`$commit\`"
if [[ "$dirty" -gt 0 ]]; then
    project+=" plus $dirty uncommitted change(s) under Sources/ or Package.* (the working tree as built)"
fi
project+="; release binary sha256 \`$bin_sha…\`; $(swift --version 2>/dev/null | awk 'NR == 1 { sub(/ \(.*/, ""); print }')"

# --- Machine and load ----------------------------------------------------------------------------
cpu_model="$(grep -m1 '^model name' /proc/cpuinfo | sed 's/.*: //')"
mem_gib="$(awk '/^MemTotal/ { printf "%.1f", $2 / 1048576 }' /proc/meminfo)"
machine="$(nproc) CPUs (nproc), ${cpu_model:-unknown CPU}, ${mem_gib} GiB RAM, $(uname -sr)"
# Busy CPU seconds of the whole machine so far (all CPUs; /proc/stat minus idle and iowait).
cpu_busy_seconds() { awk -v hz="$(getconf CLK_TCK)" '/^cpu / { printf "%.2f", ($2 + $3 + $4 + $7 + $8 + $9) / hz }' /proc/stat; }
busy_compilers() { ps -eo comm= | grep -cE '^(swift-frontend|swift-build|swift-driver|clang|clang\+\+|cc1plus|ld|ld\.lld|ld\.gold)$' || true; }

# --- Runs ----------------------------------------------------------------------------------------
run_tool() {  # KEY RUN
    local key="$1" run="$2" prefix="$work/run$2-$1" label cmd=()
    if [[ "$key" == ours ]]; then
        label="photogrammetry (ours)"
        cmd=("$bin" poses "$images_rel" -o "$prefix" --intrinsics-file "$kfile_rel")
    elif [[ "$peer" == pycolmap ]]; then
        label="$peer_label"
        cmd=("$PYTHON" Scripts/benchmark/pycolmap_poses.py "$images_rel" "$prefix" --k-file "$kfile_rel")
    else
        label="$peer_label"
        cmd=(bash Scripts/benchmark/colmap_cli_poses.sh "$images_rel" "$prefix" --k-file "$kfile_rel")
    fi
    echo "run $run/$runs: $label ..." >&2
    record /usr/bin/time -v -o "$prefix.time" "${cmd[@]}"
    local rc=0
    /usr/bin/time -v -o "$prefix.time" "${cmd[@]}" >"$prefix.log" 2>&1 || rc=$?
    if [[ $rc -ne 0 ]]; then
        tail -25 "$prefix.log" >&2
        die "$label failed (exit $rc); log: $prefix.log"
    fi
    grep -E 'Elapsed|Maximum resident' "$prefix.time" | sed 's/^[[:space:]]*/  /' >&2 || true
    record "$bin" evaluate-poses --ground-truth "$scene_rel" "$prefix" --json
    "$bin" evaluate-poses --ground-truth "$scene_rel" "$prefix" --json >"$prefix.eval.json" 2>"$prefix.eval.err" \
        || { cat "$prefix.eval.err" >&2; die "evaluate-poses failed on $label's output $prefix"; }
    printf '%s\t%s\t%s\t%s\n' "$key" "$label" "$run" "$prefix" >>"$manifest"
}

uptime_before="$(uptime | sed 's/^ *//')"; compilers_before="$(busy_compilers)"
cpu_busy_before="$(cpu_busy_seconds)" runs_t0="$EPOCHREALTIME"
for ((i = 1; i <= runs; i++)); do
    if ((i % 2 == 1)); then run_tool ours "$i"; run_tool "$peer" "$i"
    else run_tool "$peer" "$i"; run_tool ours "$i"; fi
done

cpu_busy_after="$(cpu_busy_seconds)" runs_t1="$EPOCHREALTIME"
uptime_after="$(uptime | sed 's/^ *//')"; compilers_after="$(busy_compilers)"
# CPU time the benchmarked commands used (GNU time: user + system), to tell how much other work
# shared the machine during the runs: machine busy time minus ours.
timed_cpu="$(awk -F': ' '/User time|System time/ { s += $2 } END { printf "%.2f", s }' "$work"/run*.time)"
read -r other_cpu other_cores runs_wall < <(awk -v b0="$cpu_busy_before" -v b1="$cpu_busy_after" -v t="$timed_cpu" \
    -v w0="$runs_t0" -v w1="$runs_t1" 'BEGIN { o = b1 - b0 - t; if (o < 0) o = 0; w = w1 - w0; printf "%.1f %.2f %.1f\n", o, o / w, w }')
load1_start="$(echo "$uptime_start" | sed 's/.*load average: *//; s/,.*//')"
load_note="During the runs ($runs_wall s) other processes used about $other_cpu CPU s (≈ $other_cores of $(nproc) cores; /proc/stat busy time minus the timed commands' user+system time); compiler processes seen before/after the runs: $compilers_before/$compilers_after; 1-minute load before the build was $load1_start."
if awk -v c="$other_cores" 'BEGIN { exit !(c > 0.1) }' || [[ "$compilers_before" -gt 0 || "$compilers_after" -gt 0 ]]; then
    load_note+=" Other work shared the machine, so absolute times are noisy; quote the ratio from this sitting."
else
    load_note+=" The machine was otherwise quiet."
fi

mkdir -p "$(dirname "$results")"
BENCH_SCENE="$scene" BENCH_SCENE_REL="$scene_rel" \
BENCH_DATE="$(date -u '+%Y-%m-%d %H:%M UTC')" BENCH_INVOCATION="$invocation" BENCH_MACHINE="$machine" \
BENCH_UPTIME_START="$uptime_start" BENCH_UPTIME_BEFORE="$uptime_before" BENCH_UPTIME_AFTER="$uptime_after" BENCH_LOAD_NOTE="$load_note" \
BENCH_PROJECT="$project" BENCH_PEER_KEY="$peer" BENCH_PEER_DESC="$peer_desc" \
BENCH_POS_TARGET_MM="$pos_target_mm" BENCH_MEM_TARGET_GB=1.5 BENCH_COMMANDS_FILE="$commands" \
    "$PYTHON" "$script_dir/poses_report.py" "$manifest" "$results"
