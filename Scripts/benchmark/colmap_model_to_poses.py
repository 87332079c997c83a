#!/usr/bin/env python3
"""Convert a COLMAP text model (images.txt) into the poses.json that
`photogrammetry evaluate-poses` reads. Standard library only.

Given several model folders (e.g. one per reconstruction the mapper wrote), the one with the
most registered images is used; its path is printed on stdout.

Usage: colmap_model_to_poses.py --images IMAGES_DIR --out poses.json MODEL_TXT_DIR [MODEL_TXT_DIR ...]
"""

import argparse
import json
import math
import sys
from pathlib import Path

IMAGE_SUFFIXES = {".jpg", ".jpeg", ".png", ".tif", ".tiff", ".bmp", ".webp"}


def read_images_txt(path: Path):
    """{name: (qw, qx, qy, qz, tx, ty, tz)} world-to-camera, as COLMAP stores it."""
    poses = {}
    lines = [l for l in path.read_text().splitlines() if l.strip() and not l.startswith("#")]
    # Two lines per image: the pose line, then the 2D points (possibly empty, hence the filter
    # above cannot be used to pair them up); parse pose lines by their shape instead.
    for line in lines:
        parts = line.split()
        if len(parts) < 10:
            continue
        try:
            int(parts[0]); int(parts[8])
            values = [float(v) for v in parts[1:8]]
        except ValueError:
            continue
        name = " ".join(parts[9:])
        if Path(name).suffix.lower() not in IMAGE_SUFFIXES:
            continue
        poses[name] = tuple(values)
    return poses


def camera_to_world(qw, qx, qy, qz, tx, ty, tz):
    """Inverse of COLMAP's world-to-camera pose: quaternion [w, x, y, z] of Rᵀ and centre −Rᵀ t."""
    n = math.sqrt(qw * qw + qx * qx + qy * qy + qz * qz)
    qw, qx, qy, qz = qw / n, qx / n, qy / n, qz / n
    r = [
        [1 - 2 * (qy * qy + qz * qz), 2 * (qx * qy - qz * qw), 2 * (qx * qz + qy * qw)],
        [2 * (qx * qy + qz * qw), 1 - 2 * (qx * qx + qz * qz), 2 * (qy * qz - qx * qw)],
        [2 * (qx * qz - qy * qw), 2 * (qy * qz + qx * qw), 1 - 2 * (qx * qx + qy * qy)],
    ]
    centre = [-(r[0][i] * tx + r[1][i] * ty + r[2][i] * tz) for i in range(3)]
    q = [qw, -qx, -qy, -qz]  # conjugate = inverse rotation
    if q[0] < 0:
        q = [-v for v in q]
    return q, centre


def write_poses_json(models, images_dir: Path, out: Path, generator: str):
    """Writes poses.json for every photo in images_dir from the model (of `models`) with the most
    registered images; returns (that model's folder or None, registered count)."""
    names = sorted(p.name for p in images_dir.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
    best_dir, best = None, {}
    for model in models:
        images_txt = Path(model) / "images.txt"
        if not images_txt.is_file():
            print(f"warning: {images_txt} missing, skipped", file=sys.stderr)
            continue
        poses = read_images_txt(images_txt)
        if best_dir is None or len(poses) > len(best):
            best_dir, best = Path(model), poses
    entries = []
    for name in names:
        if name in best:
            q, c = camera_to_world(*best[name])
            entries.append({"file": name, "registered": True, "rotation": q, "translation": c})
        else:
            reason = "not in the largest reconstruction" if best_dir else "mapper produced no reconstruction"
            entries.append({"file": name, "registered": False, "reason": reason})
    document = {"convention": "camera_to_world", "quaternion_order": "wxyz",
                "generator": generator, "images": entries}
    out.write_text(json.dumps(document, indent=2) + "\n")
    print(f"{len(best)}/{len(names)} images registered in {best_dir}", file=sys.stderr)
    return best_dir, len(best)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("models", type=Path, nargs="+", help="COLMAP text model folders")
    parser.add_argument("--images", type=Path, required=True, help="folder of the photos (lists every image)")
    parser.add_argument("--out", type=Path, required=True, help="poses.json to write")
    parser.add_argument("--generator", default="COLMAP", help="free text stored as \"generator\"")
    args = parser.parse_args()
    best_dir, registered = write_poses_json(args.models, args.images, args.out, args.generator)
    print(best_dir if best_dir else "")
    return 0 if registered else 1


if __name__ == "__main__":
    sys.exit(main())
