#!/usr/bin/env python3
"""Turns a synthetic capture into a turntable capture: one textured backdrop, the same pixels in
every photo, painted wherever the object's mask is empty. The camera's view of the object is
unchanged, so the capture's ground truth still holds; what changes is that most of each photo
now keeps its place from photo to photo, as behind an object turning on a turntable in front of
a camera on a tripod. Used for Benchmarks/pose-still-backdrop.md.

    photogrammetry synth textured-vase -o VASE --views 32 --format png
    python3 Scripts/benchmark/still_backdrop.py VASE/images OUT/images
    photogrammetry poses OUT/images -o POSES --intrinsics-file OUT/images/K.txt
    photogrammetry evaluate-poses --ground-truth VASE POSES

Reads NNNN.png and NNNN_mask.png from SRC, writes NNNN.jpg (quality 95) and K.txt to DST: the
photos only, no masks (as from a phone). Needs numpy and Pillow.
"""

import argparse
import shutil
import sys
from pathlib import Path

import numpy as np
from PIL import Image


def backdrop(width: int, height: int, seed: int) -> np.ndarray:
    """Coloured value noise at three scales (40, 15 and 6 px cells), float RGB in 0..255."""
    rng = np.random.default_rng(seed)
    total = np.zeros((height, width, 3), np.float32)
    for cell in (40, 15, 6):
        coarse = rng.random((height // cell + 2, width // cell + 2, 3)).astype(np.float32)
        grown = Image.fromarray((coarse * 255).astype(np.uint8)).resize((width + 2 * cell, height + 2 * cell), Image.BICUBIC)
        total += np.asarray(grown, np.float32)[cell:cell + height, cell:cell + width] / 3
    return np.clip(total, 0, 255)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("src", type=Path, help="images/ of a `photogrammetry synth` capture written with --format png")
    parser.add_argument("dst", type=Path, help="folder for the turntable photos (created)")
    parser.add_argument("--seed", type=int, default=7, help="seed of the backdrop's texture (default 7)")
    args = parser.parse_args()

    photos = sorted(p for p in args.src.glob("*.png") if "_" not in p.stem)
    if not photos:
        print(f"error: {args.src}: no NNNN.png photos (write the capture with --format png)", file=sys.stderr)
        return 1
    args.dst.mkdir(parents=True, exist_ok=True)
    width, height = Image.open(photos[0]).size
    still = backdrop(width, height, args.seed)
    for photo in photos:
        mask_path = photo.with_name(photo.stem + "_mask.png")
        if not mask_path.exists():
            print(f"error: {mask_path}: missing (write the capture without --photos-only)", file=sys.stderr)
            return 1
        image = np.asarray(Image.open(photo).convert("RGB"), np.float32)
        mask = np.asarray(Image.open(mask_path).convert("L").resize((width, height)), np.float32)[..., None] / 255
        out = image * mask + still * (1 - mask)
        Image.fromarray(out.astype(np.uint8)).save(args.dst / (photo.stem + ".jpg"), quality=95)
    shutil.copy(args.src / "K.txt", args.dst / "K.txt")
    print(f"wrote {len(photos)} photos with a still backdrop to {args.dst}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
