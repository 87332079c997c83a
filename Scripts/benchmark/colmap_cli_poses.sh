#!/usr/bin/env bash
# Peer run for the pose benchmark with the COLMAP command-line program (Debian package `colmap`),
# configured like Scripts/benchmark/pycolmap_poses.py and ../shared/docs/targets.md: CPU SIFT,
# one shared PINHOLE camera with the given K, exhaustive matching, incremental mapper with the
# intrinsics held fixed. Writes OUT_DIR/{database.db,sparse/,sparse_txt/,poses.json,timings.json}.
#
# Usage: colmap_cli_poses.sh SCENE_IMAGES_DIR OUT_DIR --k-file K.txt
set -euo pipefail

die() { echo "error: $*" >&2; exit 1; }
script_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
PYTHON="${PYTHON:-python3}"

[[ $# -eq 4 && "$3" == "--k-file" ]] || die "usage: $(basename "$0") SCENE_IMAGES_DIR OUT_DIR --k-file K.txt"
images="$1" out="$2" kfile="$4"
[[ -d "$images" ]] || die "$images is not a folder"
[[ -f "$kfile" ]] || die "$kfile not found"
command -v colmap >/dev/null || die "colmap not found (apt-get install colmap)"
export QT_QPA_PLATFORM=offscreen

read -r -a k <<<"$(tr -c '0-9eE.+-' ' ' <"$kfile")"
[[ ${#k[@]} -eq 9 ]] || die "$kfile: expected 9 numbers (3x3 K), found ${#k[@]}"
params="${k[0]},${k[4]},${k[2]},${k[5]}"   # fx,fy,cx,cy

mkdir -p "$out"
[[ -z "$(ls -A "$out")" ]] || die "$out is not empty"
mkdir "$out/sparse" "$out/sparse_txt_all"

now() { echo "$EPOCHREALTIME"; }
sub() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", a - b }'; }
declare -A seconds
step() {
    local name="$1"; shift
    local t0; t0=$(now)
    "$@"
    seconds[$name]=$(sub "$(now)" "$t0")
    printf '%s: %.1f s\n' "$name" "${seconds[$name]}"
}
t_start=$(now)
step extract colmap feature_extractor --database_path "$out/database.db" --image_path "$images" \
    --ImageReader.camera_model PINHOLE --ImageReader.single_camera 1 --ImageReader.camera_params "$params" \
    --SiftExtraction.use_gpu 0
step match colmap exhaustive_matcher --database_path "$out/database.db" --SiftMatching.use_gpu 0
step map colmap mapper --database_path "$out/database.db" --image_path "$images" --output_path "$out/sparse" \
    --Mapper.ba_refine_focal_length 0 --Mapper.ba_refine_principal_point 0 --Mapper.ba_refine_extra_params 0
export_step() {
    local models=() m
    for m in "$out"/sparse/*/; do
        m="${m%/}"
        mkdir "$out/sparse_txt_all/$(basename "$m")"
        colmap model_converter --input_path "$m" --output_path "$out/sparse_txt_all/$(basename "$m")" --output_type TXT
        models+=("$out/sparse_txt_all/$(basename "$m")")
    done
    [[ ${#models[@]} -gt 0 ]] || die "the mapper wrote no reconstruction"
    local best
    best=$("$PYTHON" "$script_dir/colmap_model_to_poses.py" --images "$images" --out "$out/poses.json" \
        --generator "$(colmap help 2>/dev/null | awk 'NR == 1 { sub(/ --.*/, ""); print }') CLI (Scripts/benchmark/colmap_cli_poses.sh)" "${models[@]}")
    mv "$best" "$out/sparse_txt"
}
step export export_step
total=$(sub "$(now)" "$t_start")
printf '{"extract": %s, "match": %s, "map": %s, "export": %s, "total": %s}\n' \
    "${seconds[extract]}" "${seconds[match]}" "${seconds[map]}" "${seconds[export]}" "$total" >"$out/timings.json"
printf 'steps: extract %.1f s, match %.1f s, map %.1f s, export %.1f s, total %.1f s\n' \
    "${seconds[extract]}" "${seconds[match]}" "${seconds[map]}" "${seconds[export]}" "$total"
