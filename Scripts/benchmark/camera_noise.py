#!/usr/bin/env python3
"""Makes a rendered scene look more like a camera's photos: a Gaussian blur for the lens and the
sensor's anti-aliasing filter, shot and read noise in 8-bit values, and JPEG compression again.
Renders from courtyard_scene.py are noise-free, so they favour features that real photos do not
support (Benchmarks/pose-loops.md, "the other layouts"); this is the check against that.

Reads SCENE (images/*.jpg, images/K.txt, gt_dense_cameras/) and writes the same layout to OUT with
the photos degraded and the rest copied. The noise of a value v is Gaussian with standard
deviation sqrt(read² + gain·v) (default 1.5 and 0.02: a 6-megapixel DSLR at base ISO, about
1.5–2.5 levels), drawn from --seed, so a run is repeatable. Needs numpy and Pillow.

Usage: camera_noise.py SCENE OUT [--blur 0.6] [--read 1.5] [--gain 0.02] [--quality 92] [--seed 7]"""
import argparse, os, shutil
import numpy as np
from PIL import Image, ImageFilter

p = argparse.ArgumentParser()
p.add_argument("scene")
p.add_argument("out")
p.add_argument("--blur", type=float, default=0.6, help="Gaussian blur radius (pixels)")
p.add_argument("--read", type=float, default=1.5, help="read noise (8-bit levels)")
p.add_argument("--gain", type=float, default=0.02, help="shot noise variance per level")
p.add_argument("--quality", type=int, default=92, help="JPEG quality")
p.add_argument("--seed", type=int, default=7)
a = p.parse_args()

rng = np.random.default_rng(a.seed)
os.makedirs(os.path.join(a.out, "images"), exist_ok=True)
shutil.copytree(os.path.join(a.scene, "gt_dense_cameras"), os.path.join(a.out, "gt_dense_cameras"), dirs_exist_ok=True)
shutil.copy(os.path.join(a.scene, "images", "K.txt"), os.path.join(a.out, "images", "K.txt"))
names = sorted(n for n in os.listdir(os.path.join(a.scene, "images")) if n.lower().endswith(".jpg"))
for name in names:
    image = Image.open(os.path.join(a.scene, "images", name)).filter(ImageFilter.GaussianBlur(a.blur))
    v = np.asarray(image, np.float32)
    v = v + rng.normal(0, 1, v.shape) * np.sqrt(a.read ** 2 + a.gain * v)
    Image.fromarray(np.clip(v + 0.5, 0, 255).astype(np.uint8)).save(os.path.join(a.out, "images", name), quality=a.quality)
print(f"wrote {len(names)} photos to {a.out}")
