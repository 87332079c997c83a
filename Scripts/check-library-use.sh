#!/usr/bin/env bash
# Uses the library the way another Swift project does: Examples/SessionExample depends on a tagged
# clone of this repository by version (SwiftPM holds versioned dependencies to stricter rules than
# local ones: before tools version 6.2 it refused this package's C++ build flags there), is built
# in release mode, and runs a PhotogrammetrySession over a small synthetic capture: poses, bounds
# and a preview USDZ, which must exist and be a zip archive with a USD layer. Needs the release CLI
# for the capture (Scripts/test.sh builds it first). Checks what is committed: the clone is of
# HEAD, and the example is taken from the clone. Work folder: out/library-use (kept on failure).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cli="$root/.build/release/photogrammetry"
fail() { echo "check-library-use: $*" >&2; exit 1; }
[ -x "$cli" ] || fail "$cli is missing; run swift build -c release first"
git -C "$root" rev-parse --verify -q HEAD >/dev/null || fail "$root is not a git checkout with a commit: the check clones it"
work="$root/out/library-use"
rm -rf "$work"
mkdir -p "$work"
if [ -n "$(git -C "$root" status --porcelain -- Package.swift Sources Examples)" ]; then
    echo "check-library-use: note: uncommitted changes under Package.swift, Sources or Examples are not in the clone"
fi

git clone -q "$root" "$work/photogrammetry"
# Only HEAD, as 0.1.0: no other tag may satisfy the example's `from: "0.1.0"`.
git -C "$work/photogrammetry" tag -l | xargs -r git -C "$work/photogrammetry" tag -d >/dev/null
git -C "$work/photogrammetry" tag 0.1.0
cp -R "$work/photogrammetry/Examples/SessionExample" "$work/SessionExample"
echo "== building Examples/SessionExample against photogrammetry 0.1.0 (a versioned dependency)"
status=0
PHOTOGRAMMETRY_PACKAGE_URL="file://$work/photogrammetry" \
    swift build -c release --package-path "$work/SessionExample" > "$work/build.log" 2>&1 || status=$?
if [ "$status" -ne 0 ]; then
    grep -vE '^\[[0-9]+/[0-9]+\] |^(Fetching|Fetched|Computing|Computed|Creating working copy|Working copy|Cloning|Cloned|Updating|Updated) ' \
        "$work/build.log" | tail -30 >&2
    fail "the example did not build (exit $status); the whole log: $work/build.log"
fi
grep -E "^Build complete" "$work/build.log" || true
example="$work/SessionExample/.build/release/SessionExample"

"$cli" synth textured-vase -o "$work/capture" --views 16 --size 640x480 --photos-only > "$work/synth.log" 2>&1 \
    || fail "the synthetic capture could not be written: $work/synth.log"
echo "== running it on a 16-photo synthetic capture"
"$example" "$work/capture/images" "$work/out" preview > "$work/run.log" 2>&1 || status=$?
cat "$work/run.log"
[ "$status" -eq 0 ] || fail "the example exited with $status"
grep -q "^poses: 16 cameras registered, 0 not" "$work/run.log" || fail "the session did not register the 16 photos"
grep -q "^model: " "$work/run.log" || fail "the session reported no model"
python3 -c "import sys, zipfile; z = zipfile.ZipFile(sys.argv[1]); assert any(n.endswith(('.usdc', '.usda')) for n in z.namelist()), z.namelist()" \
    "$work/out/model.usdz" || fail "$work/out/model.usdz is not a USDZ archive with a USD layer"
rm -rf "$work"
echo "check-library-use: ok"
