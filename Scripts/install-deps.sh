#!/usr/bin/env bash
# Installs what the project needs on Debian 12, idempotently: system libraries for the C++ shim,
# and the Python packages the tests and example use. Safe to run again; installs only what is missing.
set -euo pipefail

APT_PACKAGES=(
  libopencv-dev     # image decoding, SIFT, robust two-view and PnP estimators
  libceres-dev      # bundle adjustment (pulls in Eigen, glog, gflags)
  libeigen3-dev
  libdnnl-dev       # oneDNN: descriptor matching as integer matrix products (CPU kernel chosen at run time)
  libopenblas-dev   # the BLAS/LAPACK Debian's alternatives give SuiteSparse, Ceres' sparse solver (> 64 photos)
  libmeshoptimizer-dev  # mesh decimation to the detail levels' triangle caps (quadric collapses)
  libembree-dev     # ray casting for baking normal, displacement and ambient-occlusion maps
  libheif-dev       # HEIC/HEIF photos and their embedded depth (OpenCV 4.6 cannot read HEIC)
  libjpeg-dev       # JPEG data damaged mid-file is found through libjpeg's warnings (OpenCV drops them)
  libheif-examples  # tests: heif-enc makes the HEIC fixtures at run time
  libsqlite3-dev    # the batch ledger (GRDB links the system SQLite)
  python3-pip
  time              # /usr/bin/time for the benchmarks' peak memory
  chromium-headless-shell  # the regression report is checked by a headless browser screenshot
  slurm-wlm         # tests: the Slurm backend runs jobs on a real single-node cluster the test starts
  munge             # tests: Slurm's authentication daemon
)
PIP_PACKAGES=(
  "pycolmap==4.2.1" # tests: the COLMAP export must load in pycolmap
  numpy
  usd-core          # tests: exported USDZ must pass shared/tools/usdz_check.py (Pixar's pxr validators)
  trimesh           # tests: exported GLB and OBJ must load in trimesh with the right triangle count
  pillow            # tests: trimesh attaches texture images only when Pillow can decode them
  "pyodm==1.5.13"   # tests: the real NodeODM client drives `photogrammetry serve` end to end
)

SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi

missing=()
for pkg in "${APT_PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "installing Debian packages: ${missing[*]}"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
fi

if ! command -v swift >/dev/null 2>&1; then
  echo "error: the Swift toolchain (6.2 or newer) is not on PATH; install it from swift.org first" >&2
  exit 1
fi

PYTHON=${PYTHON:-python3}
need_pip=()
for spec in "${PIP_PACKAGES[@]}"; do
  name=${spec%%==*}
  want=${spec#*==}
  have=$($PYTHON -c "import importlib.metadata as m; print(m.version('$name'))" 2>/dev/null || true)
  if [ -z "$have" ] || { [ "$spec" != "$name" ] && [ "$have" != "$want" ]; }; then need_pip+=("$spec"); fi
done
if [ ${#need_pip[@]} -gt 0 ]; then
  echo "installing Python packages: ${need_pip[*]}"
  $PYTHON -m pip install -q "${need_pip[@]}" 2>/dev/null || $PYTHON -m pip install -q --break-system-packages "${need_pip[@]}"
fi
