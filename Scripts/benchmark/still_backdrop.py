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

With --disc R (metres), the object stands on a disc of radius R that turns with it: pixels
whose ray meets the floor (z = 0 in the capture's frame) within R of the vertical axis keep the
rendered floor (use `--surroundings room` for a textured one). The disc comes from the true
poses in SRC/../ground_truth/poses.json.

    photogrammetry synth textured-vase -o ROOM --views 24 --size 640x480 --format png --surroundings room
    python3 Scripts/benchmark/still_backdrop.py ROOM/images OUT/images --disc 0.25
    photogrammetry reconstruct OUT/images -o MESH.ply --intrinsics-file OUT/images/K.txt \
        --poses-output POSES --stereo-image-size 480
    photogrammetry evaluate --ground-truth ROOM --poses POSES/poses.json --surface MESH.ply

With --crop WxH, each photo is cut to its central W×H pixels after the backdrop is painted and
K.txt's principal point moves with the cut: the same capture through a longer lens, so that the
object fills most of the frame (render at a larger --size first). The true poses still hold.

    photogrammetry synth textured-vase -o BIG --views 24 --size 1600x1200 --format png --surroundings room
    python3 Scripts/benchmark/still_backdrop.py BIG/images OUT/images --disc 0.25 --crop 480x360

With --grey, the backdrop is flat grey instead: nothing behind the object to match, the control
for what the texture of a still backdrop does.

Reads NNNN.png and NNNN_mask.png from SRC, writes NNNN.jpg (quality 95) and K.txt to DST: the
photos only, no masks (as from a phone). Needs numpy and Pillow.
"""

import argparse
import json
import sys
from pathlib import Path

import numpy as np
from PIL import Image, ImageDraw


def backdrop(width: int, height: int, seed: int) -> np.ndarray:
    """Coloured value noise at three scales (40, 15 and 6 px cells), float RGB in 0..255."""
    rng = np.random.default_rng(seed)
    total = np.zeros((height, width, 3), np.float32)
    for cell in (40, 15, 6):
        coarse = rng.random((height // cell + 2, width // cell + 2, 3)).astype(np.float32)
        grown = Image.fromarray((coarse * 255).astype(np.uint8)).resize((width + 2 * cell, height + 2 * cell), Image.BICUBIC)
        total += np.asarray(grown, np.float32)[cell:cell + height, cell:cell + width] / 3
    return np.clip(total, 0, 255)


def rotation(q):
    """Rotation matrix of a unit quaternion [w, x, y, z]."""
    w, x, y, z = q
    return np.array([[1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
                     [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
                     [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)]])


def disc_masks(src: Path, radius: float, size) -> dict:
    """Per photo stem, the disc on the floor as the true camera sees it (L image, 255 inside)."""
    poses_path = src.parent / "ground_truth" / "poses.json"
    if not poses_path.exists():
        raise SystemExit(f"error: {poses_path}: missing (--disc needs the capture's ground truth)")
    masks = {}
    angles = np.linspace(0, 2 * np.pi, 256, endpoint=False)
    rim = np.stack([radius * np.cos(angles), radius * np.sin(angles), np.zeros_like(angles)], 1)
    for image in json.loads(poses_path.read_text())["images"]:
        k, r, c = image["intrinsics"], rotation(image["rotation"]), np.array(image["translation"])
        camera = (rim - c) @ r  # each row: R^T (X - C), camera-to-world R
        u = k["fx"] * camera[:, 0] / camera[:, 2] + k["cx"]
        v = k["fy"] * camera[:, 1] / camera[:, 2] + k["cy"]
        mask = Image.new("L", size, 0)
        ImageDraw.Draw(mask).polygon(list(zip(u, v)), fill=255)
        masks[Path(image["file"]).stem] = np.asarray(mask, np.float32)
    return masks


def crop_box(text: str, width: int, height: int):
    """The central box (left, top, right, bottom) of a WxH crop."""
    try:
        w, h = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise SystemExit(f"error: --crop {text}: expected WxH, such as 480x360")
    if not (0 < w <= width and 0 < h <= height):
        raise SystemExit(f"error: --crop {text}: must fit in the {width}x{height} photos")
    left, top = (width - w) // 2, (height - h) // 2
    return left, top, left + w, top + h


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("src", type=Path, help="images/ of a `photogrammetry synth` capture written with --format png")
    parser.add_argument("dst", type=Path, help="folder for the turntable photos (created)")
    parser.add_argument("--seed", type=int, default=7, help="seed of the backdrop's texture (default 7)")
    parser.add_argument("--disc", type=float, help="radius in metres of a turning disc under the object (see above)")
    parser.add_argument("--crop", help="WxH: keep each photo's central W×H pixels (see above)")
    parser.add_argument("--grey", action="store_true", help="a flat grey backdrop instead of the textured one (see above)")
    args = parser.parse_args()

    photos = sorted(p for p in args.src.glob("*.png") if "_" not in p.stem)
    if not photos:
        print(f"error: {args.src}: no NNNN.png photos (write the capture with --format png)", file=sys.stderr)
        return 1
    width, height = Image.open(photos[0]).size
    box = crop_box(args.crop, width, height) if args.crop else (0, 0, width, height)
    args.dst.mkdir(parents=True, exist_ok=True)
    still = np.full((height, width, 3), 128, np.float32) if args.grey else backdrop(width, height, args.seed)
    discs = disc_masks(args.src, args.disc, (width, height)) if args.disc else {}
    for photo in photos:
        mask_path = photo.with_name(photo.stem + "_mask.png")
        if not mask_path.exists():
            print(f"error: {mask_path}: missing (write the capture without --photos-only)", file=sys.stderr)
            return 1
        image = np.asarray(Image.open(photo).convert("RGB"), np.float32)
        mask = np.asarray(Image.open(mask_path).convert("L").resize((width, height)), np.float32)
        if photo.stem in discs:
            mask = np.maximum(mask, discs[photo.stem])
        mask = mask[..., None] / 255
        out = image * mask + still * (1 - mask)
        Image.fromarray(out.astype(np.uint8)).crop(box).save(args.dst / (photo.stem + ".jpg"), quality=95)
    k = np.loadtxt(args.src / "K.txt").reshape(3, 3)
    k[0, 2] -= box[0]
    k[1, 2] -= box[1]
    np.savetxt(args.dst / "K.txt", k, fmt="%.10g")
    print(f"wrote {len(photos)} photos with a still backdrop to {args.dst}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
