#!/usr/bin/env python3
"""Checks that OUT/colmap (COLMAP text model) loads in pycolmap and agrees with OUT/poses.json.

Usage: check_colmap_export.py OUT_DIR
Exit 0 when pycolmap reads the model, every registered image of poses.json is in it with the same
camera-to-world pose (rotation within 1e-9 rad, centre within 1e-9 of scene units), and the
3D points and their tracks reference valid images and keypoints.
"""
import json
import sys
from pathlib import Path

import numpy as np
import pycolmap


def quaternion_matrix(w, x, y, z):
    n = np.sqrt(w * w + x * x + y * y + z * z)
    w, x, y, z = w / n, x / n, y / n, z / n
    return np.array([
        [1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
        [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
        [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)],
    ])


def main(out_dir: Path) -> int:
    poses = json.loads((out_dir / "poses.json").read_text())
    model = pycolmap.Reconstruction(str(out_dir / "colmap"))
    by_name = {image.name: image for image in model.images.values()}
    registered = [entry for entry in poses["images"] if entry["registered"]]
    problems = []
    if len(by_name) != len(registered):
        problems.append(f"{len(by_name)} images in the COLMAP model, {len(registered)} registered in poses.json")
    for entry in registered:
        image = by_name.get(entry["file"])
        if image is None:
            problems.append(f"{entry['file']} missing from the COLMAP model")
            continue
        world_from_camera = image.cam_from_world().inverse()
        rotation = world_from_camera.rotation.matrix()
        centre = world_from_camera.translation
        expected_rotation = quaternion_matrix(*entry["rotation"])
        expected_centre = np.array(entry["translation"])
        angle = np.arccos(np.clip((np.trace(expected_rotation.T @ rotation) - 1) / 2, -1, 1))
        if angle > 1e-6 or np.linalg.norm(centre - expected_centre) > 1e-6 * max(1.0, np.linalg.norm(expected_centre)):
            problems.append(f"{entry['file']}: pose differs (angle {angle:.3g} rad, centre {centre} vs {expected_centre})")
    for point_id, point in model.points3D.items():
        for element in point.track.elements:
            image = model.images[element.image_id]
            if element.point2D_idx >= len(image.points2D) or image.points2D[element.point2D_idx].point3D_id != point_id:
                problems.append(f"point {point_id}: track element {element.image_id}/{element.point2D_idx} does not point back")
                break
    print(f"pycolmap {pycolmap.__version__}: {model.num_reg_images()} images, {model.num_points3D()} points, "
          f"{len(model.cameras)} camera(s)")
    for problem in problems[:20]:
        print("problem:", problem)
    return 1 if problems else 0


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    sys.exit(main(Path(sys.argv[1])))
