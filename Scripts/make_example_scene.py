#!/usr/bin/env python3
"""Renders the bundled example: a textured synthetic scene with exactly known cameras.

Writes OUT/images/NNNN.jpg, OUT/images/K.txt and OUT/gt_dense_cameras/NNNN.jpg.camera in the
Strecha layout (see ../shared/datasets/strecha/README.md), so `photogrammetry poses` can run on it
and `photogrammetry evaluate-poses` can score the result. Deterministic for a seed.

The scene: a floor, two walls and a box, each with its own multi-scale procedural texture and
Lambertian shading, ray-cast with 2×2 supersampling. Cameras: an arc of views around the box.
Units are metres; the world z axis points up.

Usage: make_example_scene.py OUT [--views N] [--seed S] [--width W --height H]
"""
import argparse
from pathlib import Path

import numpy as np
from PIL import Image


def texture(rng, size=512):
    """Multi-octave value noise with sharp blobs: rich in SIFT features at many scales."""
    img = np.zeros((size, size))
    for octave in range(2, 8):
        n = 2 ** octave
        coarse = rng.random((n + 1, n + 1))
        ys = np.linspace(0, n, size)
        y0 = np.minimum(ys.astype(int), n - 1)
        f = ys - y0
        rows = coarse[y0] * (1 - f)[:, None] + coarse[y0 + 1] * f[:, None]
        layer = rows[:, y0] * (1 - f)[None, :] + rows[:, y0 + 1] * f[None, :]
        img += layer / (octave ** 0.7)
    img = (img - img.min()) / (img.max() - img.min())
    yy, xx = np.mgrid[0:size, 0:size]
    for _ in range(60):
        cx, cy, r = rng.random() * size, rng.random() * size, 3 + rng.random() * 14
        img[(xx - cx) ** 2 + (yy - cy) ** 2 < r * r] = rng.random()
    colour = rng.random(3) * 0.5 + 0.5
    return np.clip(img[..., None] * colour[None, None, :], 0, 1)


def rectangles(rng):
    """(origin, u edge, v edge, texture) per textured rectangle; normals face the cameras."""
    def rect(o, u, v):
        return np.array(o, float), np.array(u, float), np.array(v, float), texture(rng)

    h = 0.8  # box size
    box = [
        rect([-h / 2, -h / 2, 0], [h, 0, 0], [0, 0, h]),       # front (y = −h/2)
        rect([h / 2, -h / 2, 0], [0, h, 0], [0, 0, h]),        # right
        rect([-h / 2, h / 2, 0], [0, -h, 0], [0, 0, h]),       # left
        rect([-h / 2, -h / 2, h], [h, 0, 0], [0, h, 0]),       # top
    ]
    return [
        rect([-4, -4, 0], [8, 0, 0], [0, 8, 0]),               # floor
        rect([-4, 3, 0], [8, 0, 0], [0, 0, 4]),                # back wall
        rect([3, -4, 0], [0, 8, 0], [0, 0, 4]),                # side wall
    ] + box


def look_at(centre, target):
    """Camera-to-world rotation with columns x right, y down, z forward."""
    z = target - centre
    z /= np.linalg.norm(z)
    x = np.cross(z, [0, 0, 1.0])
    x /= np.linalg.norm(x)
    y = np.cross(z, x)
    return np.stack([x, y, z], axis=1)


def render(rects, k, world_from_camera, centre, width, height, light):
    ss = 2
    js, is_ = np.mgrid[0:height * ss, 0:width * ss]
    px = (is_ + 0.5) / ss  # pixel coordinates with the top-left corner at (0, 0)
    py = (js + 0.5) / ss
    d_cam = np.stack([(px - k[0, 2]) / k[0, 0], (py - k[1, 2]) / k[1, 1], np.ones_like(px)], axis=-1)
    d = d_cam @ world_from_camera.T
    best_t = np.full(px.shape, np.inf)
    colour = np.full(px.shape + (3,), 0.5)
    for origin, u, v, tex in rects:
        normal = np.cross(u, v)
        normal /= np.linalg.norm(normal)
        denom = d @ normal
        with np.errstate(divide="ignore", invalid="ignore"):
            t = ((origin - centre) @ normal) / denom
        hit = centre + t[..., None] * d
        rel = hit - origin
        s = rel @ u / (u @ u)
        w = rel @ v / (v @ v)
        ok = (t > 1e-6) & (t < best_t) & (s >= 0) & (s <= 1) & (w >= 0) & (w <= 1)
        if not ok.any():
            continue
        size = tex.shape[0]
        fx, fy = s[ok] * (size - 1), w[ok] * (size - 1)
        x0, y0 = np.floor(fx).astype(int).clip(0, size - 2), np.floor(fy).astype(int).clip(0, size - 2)
        ax, ay = (fx - x0)[:, None], (fy - y0)[:, None]
        sample = (tex[y0, x0] * (1 - ax) * (1 - ay) + tex[y0, x0 + 1] * ax * (1 - ay)
                  + tex[y0 + 1, x0] * (1 - ax) * ay + tex[y0 + 1, x0 + 1] * ax * ay)
        shade = 0.35 + 0.65 * abs(normal @ light)
        colour[ok] = sample * shade
        best_t[ok] = t[ok]
    colour = colour.reshape(height, ss, width, ss, 3).mean(axis=(1, 3))
    return (np.clip(colour, 0, 1) * 255).round().astype(np.uint8)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("out", type=Path)
    parser.add_argument("--views", type=int, default=12)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--width", type=int, default=1024)
    parser.add_argument("--height", type=int, default=768)
    args = parser.parse_args()

    rng = np.random.default_rng(args.seed)
    rects = rectangles(rng)
    f = 0.9 * args.width
    k = np.array([[f, 0, args.width / 2], [0, f, args.height / 2], [0, 0, 1]])
    light = np.array([0.4, -0.5, 0.75])
    light /= np.linalg.norm(light)
    images = args.out / "images"
    truth = args.out / "gt_dense_cameras"
    images.mkdir(parents=True, exist_ok=True)
    truth.mkdir(parents=True, exist_ok=True)
    (images / "K.txt").write_text("\n".join(" ".join(f"{x:.6f}" for x in row) for row in k) + "\n")
    target = np.array([0.0, 0.0, 0.4])
    for i in range(args.views):
        angle = np.deg2rad(-150 + 100 * i / max(1, args.views - 1))
        centre = np.array([3.2 * np.cos(angle), 3.2 * np.sin(angle), 1.6 + 0.2 * (i % 2)])
        r = look_at(centre, target)
        name = f"{i:04d}.jpg"
        Image.fromarray(render(rects, k, r, centre, args.width, args.height, light)).save(images / name, quality=95)
        numbers = list(k.ravel()) + [0, 0, 0] + list(r.ravel()) + list(centre) + [args.width, args.height]
        (truth / f"{name}.camera").write_text(" ".join(f"{x:.12g}" for x in numbers) + "\n")
    print(f"wrote {args.views} views of {args.width}x{args.height} to {args.out}")


if __name__ == "__main__":
    main()
