#!/usr/bin/env python3
"""A courtyard walk with exact ground truth, shaped like Strecha's castle scenes: four 12 m x 5 m
walls with two storeys of identical windows every 2 m, each on its own stone texture (value noise
and random discs), a textured floor and a plain sky; cameras on a circle of radius 2.5 m at eye
height, each turned --yaw degrees from the outward direction and tilted 8 degrees up, so the walk
closes a loop. Ray-cast with numpy, 2x2 supersampling, JPEG quality 95.

Writes, in OUT: images/NNNN.jpg, images/K.txt and gt_dense_cameras/NNNN.jpg.camera (the Strecha
layout, so `photogrammetry evaluate-poses --ground-truth OUT` scores a run).
--duplicate gives walls 0 and 2 (and 1 and 3) the very same texture: the courtyard is then
symmetric under a half turn and no method can tell the two halves apart.
--cameras DIR takes the camera layout of a real capture instead: Strecha `NNNN.jpg.camera` files
(K, rotation camera-to-world, centre; for example the castle scenes' `gt_dense_cameras/` in the
openMVG SfM_quality_evaluation repository, which `../shared` does not hold). The world is turned so
that the cameras' mean image-down axis points down, the walls enclose the cameras' ground-plane
bounding box with --margin metres to spare, --wall-height high, windows on every storey, and the
ground lies 1.6 m below the mean camera. Photos keep the files' K and size (times --scale). The
ground truth written is the input cameras in that turned frame (a similarity of the input).
Used by Benchmarks/pose-loops.md. Needs numpy and Pillow.

Usage: courtyard_scene.py OUT [--views 24] [--yaw 20] [--spots 1] [--duplicate]
       courtyard_scene.py OUT --cameras DIR [--margin 4] [--wall-height 14] [--scale 1]"""
import argparse, os
import numpy as np
from PIL import Image

p = argparse.ArgumentParser()
p.add_argument("out")
p.add_argument("--views", type=int, default=24)
p.add_argument("--duplicate", action="store_true")
p.add_argument("--width", type=int, default=800)
p.add_argument("--height", type=int, default=600)
p.add_argument("--spots", type=float, default=1.0)
p.add_argument("--yaw", type=float, default=20.0)
p.add_argument("--cameras")
p.add_argument("--margin", type=float, default=4.0)
p.add_argument("--wall-height", type=float, default=14.0)
p.add_argument("--scale", type=float, default=1.0)
a = p.parse_args()

rng = np.random.default_rng(3)


def read_cameras(folder):
    """Strecha camera files -> [(name, K, R camera-to-world, C, W, H)], in a frame with z up."""
    cams = []
    for name in sorted(n for n in os.listdir(folder) if n.endswith(".camera")):
        v = [float(x) for x in open(os.path.join(folder, name)).read().split()]
        cams.append((name[:-len(".camera")], np.array(v[0:9]).reshape(3, 3), np.array(v[12:21]).reshape(3, 3),
                     np.array(v[21:24]), int(v[24]), int(v[25])))
    down = np.mean([R[:, 1] for _, _, R, _, _, _ in cams], axis=0)
    up = -down / np.linalg.norm(down)
    x = np.cross([0.0, 1.0, 0.0] if abs(up[1]) < 0.9 else [1.0, 0.0, 0.0], up); x /= np.linalg.norm(x)
    M = np.stack([x, np.cross(up, x), up])  # rows: the new axes; a rotation (det +1)
    out = [(n, K, M @ R, M @ C, w, h) for n, K, R, C, w, h in cams]
    centres = np.array([c[3] for c in out])
    lo, hi = centres.min(0), centres.max(0)
    shift = np.array([(lo[0] + hi[0]) / 2, (lo[1] + hi[1]) / 2, centres[:, 2].mean() - 1.6])
    return [(n, K, R, C - shift, w, h) for n, K, R, C, w, h in out]


if a.cameras:
    cameras = read_cameras(a.cameras)
    span = np.array([c[3] for c in cameras])
    halfx = np.abs(span[:, 0]).max() + a.margin
    halfy = np.abs(span[:, 1]).max() + a.margin
    wall_h = a.wall_height
    W, H = int(round(cameras[0][4] * a.scale)), int(round(cameras[0][5] * a.scale))
    K = cameras[0][1] * np.array([[a.scale], [a.scale], [1.0]])
else:
    cameras = None
    halfx = halfy = 6.0
    wall_h = 5.0
    W, H = a.width, a.height
    K = np.array([[0.9 * W, 0, W / 2], [0, 0.9 * W, H / 2], [0, 0, 1.0]])
PPM = 160 if max(halfx, halfy) < 10 else 60  # texels per metre


def noise_texture(w, h, seed, spots=0.0):
    r = np.random.default_rng(seed)
    img = np.zeros((h, w), np.float32)
    for octave in range(3, 10):
        n = 2 ** octave
        gy, gx = max(2, int(n * h / w) + 2), n + 2
        coarse = r.random((gy, gx)).astype(np.float32)
        ys = np.linspace(0, gy - 1.001, h)
        xs = np.linspace(0, gx - 1.001, w)
        y0 = ys.astype(int); x0 = xs.astype(int)
        ay = (ys - y0)[:, None]; ax = (xs - x0)[None, :]
        c = coarse
        v = (c[y0][:, x0] * (1 - ax) + c[y0][:, x0 + 1] * ax) * (1 - ay) + (c[y0 + 1][:, x0] * (1 - ax) + c[y0 + 1][:, x0 + 1] * ax) * ay
        img += v / octave ** 0.7
    img -= img.min(); img /= img.max()
    if spots:
        from PIL import ImageDraw
        layer = Image.fromarray((img * 255).astype(np.uint8))
        dr = ImageDraw.Draw(layer)
        for _ in range(int(w * h / 400 * spots)):
            x, y = r.uniform(0, w), r.uniform(0, h); rad = r.uniform(2, 12)
            dr.ellipse((x - rad, y - rad, x + rad, y + rad), fill=int(r.uniform(0, 255)))
        img = np.asarray(layer, np.float32) / 255
    return img


def facade(seed, length):
    w, h = int(length * PPM), int(wall_h * PPM)
    t = 0.2 + 0.7 * noise_texture(w, h, seed, a.spots)
    u = (np.arange(w) + 0.5) / PPM
    v = (np.arange(h) + 0.5) / PPM  # height from the ground
    U, V = np.meshgrid(u, v)
    # windows: 1.0 m wide, 1.4 m high, every 2 m, two floors; mullion cross
    cu = np.mod(U, 2.0) - 1.0
    for base in ((0.9, 3.0) if wall_h <= 5 else np.arange(0.9, wall_h - 1.6, 3.4)):
        inside = (np.abs(cu) < 0.5) & (V > base) & (V < base + 1.4)
        frame = (np.abs(cu) < 0.58) & (V > base - 0.08) & (V < base + 1.48) & ~inside
        mull = inside & ((np.abs(cu) < 0.04) | (np.abs(V - base - 0.85) < 0.04))
        t = np.where(frame, 0.92, t)
        t = np.where(inside, 0.08 + 0.05 * t, t)
        t = np.where(mull, 0.85, t)
    return t[::-1].astype(np.float32)  # row 0 = top


walls = []
tex = {}
for k in range(4):
    seed = 100 + (k % 2 if a.duplicate else k)
    tex[k] = facade(seed, 2 * (halfy if k % 2 else halfx))
ground = 0.3 + 0.5 * noise_texture(int(2 * halfx * PPM), int(2 * halfy * PPM), 999)
tint = [np.array([0.95, 0.85, 0.7]), np.array([0.85, 0.8, 0.75]), np.array([0.95, 0.85, 0.7]), np.array([0.85, 0.8, 0.75])]
if not a.duplicate:
    tint = [np.array([0.95, 0.85, 0.7]), np.array([0.8, 0.85, 0.8]), np.array([0.9, 0.8, 0.8]), np.array([0.85, 0.8, 0.75])]


def sample(img, x, y):
    h, w = img.shape
    x = np.clip(x, 0, w - 1.001); y = np.clip(y, 0, h - 1.001)
    x0 = x.astype(int); y0 = y.astype(int); ax = x - x0; ay = y - y0
    return (img[y0, x0] * (1 - ax) + img[y0, x0 + 1] * ax) * (1 - ay) + (img[y0 + 1, x0] * (1 - ax) + img[y0 + 1, x0 + 1] * ax) * ay


def render(R, C):
    ss = 2
    ys, xs = np.mgrid[0:H * ss, 0:W * ss]
    px = (xs + 0.5) / ss; py = (ys + 0.5) / ss
    d = np.stack([(px - K[0, 2]) / K[0, 0], (py - K[1, 2]) / K[1, 1], np.ones_like(px)], -1) @ R.T  # world directions
    best = np.full(px.shape, np.inf); col = np.zeros(px.shape + (3,))
    # walls: k=0 at y=+halfy (normal -y), 1 at x=+halfx, 2 at y=-halfy, 3 at x=-halfx
    specs = [(1, halfy, 0, 1, halfx), (0, halfx, 1, -1, halfy), (1, -halfy, 0, -1, halfx), (0, -halfx, 1, 1, halfy)]
    for k, (axis, pos, uaxis, usign, half) in enumerate(specs):
        with np.errstate(divide="ignore", invalid="ignore"):
            t = (pos - C[axis]) / d[..., axis]
        P = C + t[..., None] * d
        u = usign * P[..., uaxis] + half
        ok = (t > 0) & (t < best) & (P[..., 2] >= 0) & (P[..., 2] <= wall_h) & (u >= 0) & (u <= 2 * half)
        val = sample(tex[k], u * PPM, (wall_h - P[..., 2]) * PPM)
        shade = 0.75 + 0.25 * [0.9, 0.6, 0.4, 0.75][k]
        c = (val * shade)[..., None] * tint[k]
        best = np.where(ok, t, best); col = np.where(ok[..., None], c, col)
    with np.errstate(divide="ignore", invalid="ignore"):
        t = -C[2] / d[..., 2]
    P = C + t[..., None] * d
    ok = (t > 0) & (t < best) & (np.abs(P[..., 0]) <= halfx) & (np.abs(P[..., 1]) <= halfy)
    g = sample(ground, (P[..., 0] + halfx) * PPM, (P[..., 1] + halfy) * PPM)
    col = np.where(ok[..., None], (g * 0.8)[..., None] * np.array([0.7, 0.7, 0.72]), col)
    sky = ~np.isfinite(best) & ~ok
    col[sky] = np.array([0.75, 0.82, 0.95])
    col = col.reshape(H, ss, W, ss, 3).mean(axis=(1, 3))
    col = np.clip(col, 0, 1) ** (1 / 2.2)
    return (col * 255 + 0.5).astype(np.uint8)


os.makedirs(f"{a.out}/images", exist_ok=True)
os.makedirs(f"{a.out}/gt_dense_cameras", exist_ok=True)
np.savetxt(f"{a.out}/images/K.txt", K, fmt="%.6f")


def walk():
    """The circular walk's cameras: (name, R camera-to-world, C)."""
    for i in range(a.views):
        ang = 2 * np.pi * i / a.views + rng.uniform(-0.03, 0.03)
        C = np.array([2.5 * np.cos(ang), 2.5 * np.sin(ang), 1.6 + rng.uniform(-0.1, 0.1)])
        yaw = ang + np.radians(a.yaw)
        fwd = np.array([np.cos(yaw), np.sin(yaw), np.tan(np.radians(8))]); fwd /= np.linalg.norm(fwd)
        right = np.cross(fwd, [0, 0, 1]); right /= np.linalg.norm(right)
        down = np.cross(fwd, right)
        yield f"{i:04d}.jpg", np.stack([right, down, fwd], 1), C


views = [(n, R, C) for n, _, R, C, _, _ in cameras] if cameras else list(walk())
for name, R, C in views:
    img = render(R, C)
    Image.fromarray(img).save(f"{a.out}/images/{name}", quality=95)
    with open(f"{a.out}/gt_dense_cameras/{name}.camera", "w") as fh:
        for row in K: fh.write(" ".join(f"{x:.6f}" for x in row) + "\n")
        fh.write("0 0 0\n")
        for row in R: fh.write(" ".join(f"{x:.9f}" for x in row) + "\n")
        fh.write(" ".join(f"{x:.9f}" for x in C) + "\n")
        fh.write(f"{W} {H}\n")
    print("wrote", name, flush=True)
print("wrote", len(views), "views to", a.out)
