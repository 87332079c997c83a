#!/usr/bin/env bash
# Uses the library the way another Swift project does: Examples/SessionExample depends on a tagged
# clone of this repository by version (SwiftPM holds versioned dependencies to stricter rules than
# local ones: before tools version 6.2 it refused this package's C++ build flags there), is built
# in release mode, and runs a PhotogrammetrySession over a small synthetic capture: poses, bounds
# and a preview USDZ, which must exist and be a zip archive. Needs the release CLI for the capture
# (Scripts/test.sh builds it first). Checks what is committed: the clone is of HEAD.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cli="$root/.build/release/photogrammetry"
[ -x "$cli" ] || { echo "check-library-use: $cli is missing; run swift build -c release first" >&2; exit 1; }
work=$(mktemp -d "${TMPDIR:-/tmp}/library-use.XXXXXX")
trap 'rm -rf "$work"' EXIT
if [ -n "$(git -C "$root" status --porcelain -- Package.swift Sources Examples)" ]; then
    echo "check-library-use: note: uncommitted changes under Package.swift, Sources or Examples are not in the clone"
fi

git clone -q "$root" "$work/photogrammetry"
git -C "$work/photogrammetry" tag 0.1.0
cp -R "$root/Examples/SessionExample" "$work/SessionExample"
rm -rf "$work/SessionExample/.build"
echo "== building Examples/SessionExample against photogrammetry 0.1.0 (a versioned dependency)"
PHOTOGRAMMETRY_PACKAGE_URL="file://$work/photogrammetry" \
    swift build -c release --package-path "$work/SessionExample" 2>&1 | grep -vE '^\[[0-9]+/[0-9]+\] |^(Fetching|Fetched|Computing|Computed|Creating working copy|Working copy|Cloning|Cloned|Updating|Updated) ' || true
example="$work/SessionExample/.build/release/SessionExample"
[ -x "$example" ] || { echo "check-library-use: the example did not build" >&2; exit 1; }

"$cli" synth textured-vase -o "$work/capture" --views 16 --size 640x480 --photos-only > /dev/null
echo "== running it on a 16-photo synthetic capture"
"$example" "$work/capture/images" "$work/out" preview | tee "$work/run.log"
grep -q "^poses: 16 cameras registered, 0 not" "$work/run.log" \
    || { echo "check-library-use: the session did not register the 16 photos" >&2; exit 1; }
grep -q "^model: " "$work/run.log" || { echo "check-library-use: the session reported no model" >&2; exit 1; }
python3 -c "import sys, zipfile; z = zipfile.ZipFile(sys.argv[1]); assert any(n.endswith('.usdc') or n.endswith('.usda') for n in z.namelist()), z.namelist()" "$work/out/model.usdz" \
    || { echo "check-library-use: $work/out/model.usdz is not a USDZ archive with a layer" >&2; exit 1; }
echo "check-library-use: ok"
