#!/usr/bin/env python3
"""Peer run for the pose benchmark: pycolmap (COLMAP's Python bindings, PyPI `pycolmap`) on one
folder of photos with known pinhole intrinsics, configured as in ../shared/docs/targets.md:

  * SIFT features on the CPU (GPU off), full resolution (COLMAP's default cap of 3200 px on the
    longest side does not bite for 3072x2048 Strecha images);
  * one shared PINHOLE camera with the given K (fx, fy, cx, cy taken from the 3x3 matrix);
  * exhaustive matching with geometric verification;
  * incremental mapper with focal length, principal point and extra parameters held fixed.

Writes, in OUT_DIR:
  database.db     the COLMAP database
  sparse/N/       COLMAP's binary models as the mapper wrote them
  sparse_txt/     the largest reconstruction as a COLMAP text model
  poses.json      that reconstruction in the format `photogrammetry evaluate-poses` reads
  timings.json    seconds per step (extract, match, map, export) and in total

Usage: pycolmap_poses.py SCENE_IMAGES_DIR OUT_DIR --k-file K.txt
"""

import argparse
import json
import sys
import time
from pathlib import Path

from colmap_model_to_poses import IMAGE_SUFFIXES, write_poses_json  # same folder

PINNED_PYCOLMAP = "4.2.1"


def read_k(path: Path):
    numbers = [float(v) for v in path.read_text().replace(",", " ").split()]
    if len(numbers) != 9:
        raise SystemExit(f"error: {path}: expected 9 numbers (3x3 K, row-major), found {len(numbers)}")
    fx, _, cx, _, fy, cy, _, _, _ = numbers
    return fx, fy, cx, cy


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("images", type=Path, help="folder of photos (e.g. .../fountain-P11/images)")
    parser.add_argument("out", type=Path, help="output folder (created; must be empty or missing)")
    parser.add_argument("--k-file", type=Path, required=True, help="3x3 intrinsics matrix K, row-major")
    parser.add_argument("--threads", type=int, default=-1, help="threads per step (-1: all cores)")
    args = parser.parse_args()

    import pycolmap

    if pycolmap.__version__ != PINNED_PYCOLMAP:
        print(f"warning: pycolmap {pycolmap.__version__} installed, the benchmark pins {PINNED_PYCOLMAP}",
              file=sys.stderr)
    if not args.images.is_dir():
        raise SystemExit(f"error: {args.images} is not a folder")
    names = sorted(p.name for p in args.images.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
    if not names:
        raise SystemExit(f"error: no images in {args.images}")
    args.out.mkdir(parents=True, exist_ok=True)
    if any(args.out.iterdir()):
        raise SystemExit(f"error: {args.out} is not empty")
    fx, fy, cx, cy = read_k(args.k_file)
    database = args.out / "database.db"
    sparse = args.out / "sparse"
    sparse.mkdir()

    timings = {}
    t_start = time.perf_counter()

    # 1. Features: CPU SIFT, one shared PINHOLE camera with the known K.
    reader = pycolmap.ImageReaderOptions()
    reader.camera_model = "PINHOLE"
    reader.camera_params = f"{fx!r},{fy!r},{cx!r},{cy!r}"
    extraction = pycolmap.FeatureExtractionOptions()
    extraction.use_gpu = False
    extraction.num_threads = args.threads
    t = time.perf_counter()
    pycolmap.extract_features(database, args.images, image_names=names,
                              camera_mode=pycolmap.CameraMode.SINGLE,
                              reader_options=reader, extraction_options=extraction,
                              device=pycolmap.Device.cpu)
    timings["extract"] = time.perf_counter() - t
    print(f"extract: {timings['extract']:.1f} s ({len(names)} images)", flush=True)

    # 2. Exhaustive matching + geometric verification on the CPU.
    matching = pycolmap.FeatureMatchingOptions()
    matching.use_gpu = False
    matching.num_threads = args.threads
    t = time.perf_counter()
    pycolmap.match_exhaustive(database, matching_options=matching, device=pycolmap.Device.cpu)
    timings["match"] = time.perf_counter() - t
    print(f"match: {timings['match']:.1f} s", flush=True)

    # 3. Incremental mapping with the intrinsics held fixed.
    pipeline = pycolmap.IncrementalPipelineOptions()
    pipeline.num_threads = args.threads
    pipeline.ba_refine_focal_length = False
    pipeline.ba_refine_principal_point = False
    pipeline.ba_refine_extra_params = False
    pipeline.mapper.abs_pose_refine_focal_length = False
    pipeline.mapper.abs_pose_refine_extra_params = False
    t = time.perf_counter()
    reconstructions = pycolmap.incremental_mapping(database, args.images, sparse, options=pipeline)
    timings["map"] = time.perf_counter() - t
    print(f"map: {timings['map']:.1f} s ({len(reconstructions)} model(s))", flush=True)

    # 4. Export the largest model as COLMAP text, and poses.json through the converter the
    #    COLMAP CLI peer uses too (camera-to-world), so both peers are scored the same way.
    t = time.perf_counter()
    models = []
    if reconstructions:
        best_id, best = max(reconstructions.items(), key=lambda kv: (kv[1].num_reg_images(), -kv[0]))
        text_dir = args.out / "sparse_txt"
        text_dir.mkdir()
        best.write_text(str(text_dir))
        models.append(text_dir)
        print(f"largest model: #{best_id}, {best.num_reg_images()}/{len(names)} images registered, "
              f"{best.num_points3D()} points", flush=True)
    _, registered = write_poses_json(models, args.images, args.out / "poses.json",
                                     f"pycolmap {pycolmap.__version__} (Scripts/benchmark/pycolmap_poses.py)")
    timings["export"] = time.perf_counter() - t
    timings["total"] = time.perf_counter() - t_start
    (args.out / "timings.json").write_text(json.dumps(timings, indent=2) + "\n")
    print("steps: " + ", ".join(f"{k} {v:.1f} s" for k, v in timings.items()), flush=True)
    return 0 if registered else 1


if __name__ == "__main__":
    sys.exit(main())
