#!/usr/bin/env python3
"""Where does the pose error on a Strecha scene come from? Compares one or more sparse models
(COLMAP text format: ours in OUT/colmap, a peer's in OUT/sparse_txt) with the scene's ground truth.

For each model it prints:
  * the benchmark's scores (7-DoF similarity alignment of camera centres, as `evaluate-poses`)
    and each camera's error vector in the ground-truth frame (mm);
  * points, observations, track lengths, triangulation angles, and per image the observation
    count and reprojection residuals, with the model's own poses and with the true poses (the
    model's tracks re-triangulated from the true cameras);
  * the ground-truth consistency test: rotations and points are fitted to the model's
    observations twice, once with the camera centres held at the true centres and once held at
    the model's own (aligned) centres. If the true centres were exact, holding them instead of
    the model's would raise the least-squares cost by about (3n - 7) sigma^2 (chi-square with
    3n - 7 degrees of freedom, sigma^2 estimated from the fit); a much larger rise means the
    true centres disagree with the photos (for the given K) by more than the model's noise. Then
    each camera alone is freed from its true centre: a single wrong true camera would show as one
    large drop of the cost, a disagreement spread over the cameras as many.
    With --per-image-intrinsics the test is repeated with the focal length, the principal point, or
    both free per camera in both fits: if photo-to-photo changes of the intrinsics (focus breathing,
    a shifted crop) explained the disagreement, the rise would fall to what noise predicts.
With several models: the camera-centre differences between models (mm), the error of their
consensus (mean aligned centres), and the same consistency test with the other models' centres
held on the first model's tracks (a calibration: independent estimates of the same cameras). With --bootstrap N: the model's observations are replaced N
times by its own projections plus Gaussian noise of the fitted sigma, bundle-adjusted, and scored,
which gives the spread of the median error that the model's noise alone explains.

Needs numpy and scipy. Usage:
  pose_error_analysis.py SCENE_DIR MODEL_DIR [MODEL_DIR ...] [--bootstrap N [--sigma PX]] [--per-image-intrinsics]
e.g. pose_error_analysis.py ../shared/datasets/strecha/Herz-Jesus-P8 out/herz/colmap peer/sparse_txt
"""

import argparse
import glob
import os
import sys

import numpy as np
from scipy.optimize import least_squares
from scipy.sparse import coo_matrix
from scipy.spatial.transform import Rotation


# ---------------------------------------------------------------- reading

def quaternion_matrix(w, x, y, z):
    return np.array([[1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
                     [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
                     [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)]])


def read_model(directory):
    """COLMAP text model: pinhole camera(s), images (cam_from_world, keypoints), points."""
    for sub in ("", "colmap", "sparse_txt"):
        if os.path.isfile(os.path.join(directory, sub, "images.txt")):
            directory = os.path.join(directory, sub)
            break
    cameras = {}
    for line in open(os.path.join(directory, "cameras.txt")):
        if line.startswith("#") or not line.strip():
            continue
        t = line.split()
        p = [float(v) for v in t[4:]]
        if t[1] == "PINHOLE":
            cameras[int(t[0])] = (p[0], p[1], p[2], p[3])
        elif t[1] == "SIMPLE_PINHOLE":
            cameras[int(t[0])] = (p[0], p[0], p[1], p[2])
        else:
            raise SystemExit(f"{directory}: camera model {t[1]} is not supported (pinhole models only)")
    images = {}
    lines = [l for l in open(os.path.join(directory, "images.txt")) if not l.startswith("#")]
    for i in range(0, len(lines) - 1, 2):
        t = lines[i].split()
        if not t:
            continue
        keypoints = np.array(lines[i + 1].split(), dtype=float).reshape(-1, 3)[:, :2]
        images[int(t[0])] = dict(name=t[9], R=quaternion_matrix(*map(float, t[1:5])),
                                 t=np.array([float(v) for v in t[5:8]]), camera=cameras[int(t[8])],
                                 keypoints=keypoints)
    points = []
    for line in open(os.path.join(directory, "points3D.txt")):
        if line.startswith("#") or not line.strip():
            continue
        t = line.split()
        points.append((np.array([float(v) for v in t[1:4]]), np.array(t[8:], dtype=int).reshape(-1, 2)))
    return directory, images, points


def read_ground_truth(scene):
    truth = {}
    for path in sorted(glob.glob(os.path.join(scene, "gt_dense_cameras", "*.camera"))):
        v = np.array(open(path).read().split(), dtype=float)
        world_from_camera = v[12:21].reshape(3, 3)
        truth[os.path.basename(path)[: -len(".camera")]] = dict(R=world_from_camera.T, C=v[21:24])
    if not truth:
        raise SystemExit(f"{scene}: no gt_dense_cameras/*.camera")
    return truth


# ---------------------------------------------------------------- geometry

def umeyama(source, target):
    """Similarity (s, R, t) with target ≈ s R source + t, least squares."""
    ms, mt = source.mean(0), target.mean(0)
    s0, t0 = source - ms, target - mt
    U, S, Vt = np.linalg.svd(t0.T @ s0 / len(source))
    D = np.eye(3)
    if np.linalg.det(U) * np.linalg.det(Vt) < 0:
        D[2, 2] = -1
    R = U @ D @ Vt
    s = np.trace(np.diag(S) @ D) / ((s0 ** 2).sum() / len(source))
    return s, R, mt - s * R @ ms


class Observations:
    """A model's tracks as flat arrays: observation -> (camera index, point index, pixel)."""

    def __init__(self, images, points):
        self.ids = sorted(images)
        self.names = [images[i]["name"] for i in self.ids]
        index = {iid: a for a, iid in enumerate(self.ids)}
        cam, pnt, xy = [], [], []
        for p, (_, track) in enumerate(points):
            for image_id, keypoint in track:
                cam.append(index[image_id])
                pnt.append(p)
                xy.append(images[image_id]["keypoints"][keypoint])
        self.camera = np.array(cam)
        self.point = np.array(pnt)
        self.xy = np.array(xy)
        self.intrinsics = np.array([images[i]["camera"] for i in self.ids])  # fx fy cx cy per camera
        self.point_count = len(points)


def project(obs, R, C, P, xy=None, changes=None):
    """Residuals (projection minus keypoint). `changes`, per camera: relative focal-length
    change, principal-point shift x, y (px), applied to the model's intrinsics."""
    Xc = np.einsum("nij,nj->ni", R[obs.camera], P[obs.point] - C[obs.camera])
    k = obs.intrinsics[obs.camera]
    if changes is not None:
        d = changes[obs.camera]
        k = np.stack([k[:, 0] * (1 + d[:, 0]), k[:, 1] * (1 + d[:, 0]), k[:, 2] + d[:, 1], k[:, 3] + d[:, 2]], 1)
    uv = np.stack([k[:, 0] * Xc[:, 0] / Xc[:, 2] + k[:, 2], k[:, 1] * Xc[:, 1] / Xc[:, 2] + k[:, 3]], 1)
    return uv - (obs.xy if xy is None else xy)


INTRINSIC_CHANGES = {"focal": [0], "principal-point": [1, 2], "both": [0, 1, 2]}


def adjust(obs, R, C, P, free_rotation, free_centre, xy=None, iterations=50, intrinsics=None):
    """Least squares over the cameras marked free (rotation and/or centre) and all points, and,
    with `intrinsics` (a key of INTRINSIC_CHANGES), those intrinsics of every camera on its own.
    Returns (R, C, P, residuals)."""
    n = len(R)
    change_columns = INTRINSIC_CHANGES[intrinsics] if intrinsics else []
    w = len(change_columns)
    rot_free = np.flatnonzero(free_rotation)
    cen_free = np.flatnonzero(free_centre)
    rot_slot = -np.ones(n, int); rot_slot[rot_free] = np.arange(len(rot_free))
    cen_slot = -np.ones(n, int); cen_slot[cen_free] = np.arange(len(cen_free))
    base_rot = Rotation.from_matrix(R)
    r0, c0 = 3 * len(rot_free), 3 * len(cen_free)

    def unpack(x):
        rot = base_rot
        if len(rot_free):
            delta = np.zeros((n, 3)); delta[rot_free] = x[:r0].reshape(-1, 3)
            rot = Rotation.from_rotvec(delta) * base_rot
        centres = C.copy()
        if len(cen_free):
            centres[cen_free] = x[r0:r0 + c0].reshape(-1, 3)
        changes = np.zeros((n, 3))
        changes[:, change_columns] = x[r0 + c0:r0 + c0 + w * n].reshape(n, w)
        return rot.as_matrix(), centres, changes, x[r0 + c0 + w * n:].reshape(-1, 3)

    def residual(x):
        Rm, Cm, changes, Pm = unpack(x)
        return project(obs, Rm, Cm, Pm, xy, changes).ravel()

    # Jacobian sparsity: each residual pair depends on its camera's free blocks and its point.
    rows, cols = [], []
    m = len(obs.camera)
    r = np.arange(m)
    for block_slot, offset in ((rot_slot, 0), (cen_slot, r0)):
        has = block_slot[obs.camera] >= 0
        for d in range(3):
            for k in (0, 1):
                rows.append(2 * r[has] + k)
                cols.append(offset + 3 * block_slot[obs.camera[has]] + d)
    for d in range(w):
        for k in (0, 1):
            rows.append(2 * r + k)
            cols.append(r0 + c0 + w * obs.camera + d)
    for d in range(3):
        for k in (0, 1):
            rows.append(2 * r + k)
            cols.append(r0 + c0 + w * n + 3 * obs.point + d)
    rows, cols = np.concatenate(rows), np.concatenate(cols)
    x0 = np.concatenate([np.zeros(r0), C[cen_free].ravel(), np.zeros(w * n), P.ravel()])
    sparsity = coo_matrix((np.ones(len(rows)), (rows, cols)), shape=(2 * m, len(x0)))
    result = least_squares(residual, x0, jac_sparsity=sparsity, method="trf", x_scale="jac", max_nfev=iterations)
    Rm, Cm, _, Pm = unpack(result.x)
    return Rm, Cm, Pm, result.fun.reshape(-1, 2)


def scores(names, R, C, truth):
    """Benchmark scores: (per-camera error vectors in the true frame [m], rotation errors [deg])."""
    G = np.array([truth[n]["C"] for n in names])
    s, Ra, ta = umeyama(C, G)
    vectors = (s * (Ra @ C.T)).T + ta - G
    rotation = []
    for n, Rm in zip(names, R):
        aligned = Ra @ Rm.T  # world_from_camera in the true frame
        # Through the nearest rotation: arccos of the trace loses small angles to the rounding of
        # the true matrices (not orthonormal to 1e-6), and differs from `evaluate-poses`.
        rotation.append(np.degrees(Rotation.from_matrix(truth[n]["R"] @ aligned).magnitude()))
    return vectors, np.array(rotation)


# ---------------------------------------------------------------- report

def mm(values):
    return " ".join(f"{v * 1000:.2f}" for v in values)


def centre_test(obs, R_true_frame, C_held, P_true_frame, intrinsics=None):
    """Least-squares cost of the observations with rotations and points free and centres held
    (and, with `intrinsics`, those intrinsics free per camera)."""
    free = np.ones(len(C_held), bool)
    *_, residuals = adjust(obs, R_true_frame, C_held, P_true_frame, free, ~free, intrinsics=intrinsics,
                            iterations=100 if intrinsics else 50)
    return (residuals ** 2).sum()


def analyse(path, truth, bootstrap, sigma, rng, per_image_intrinsics=False):
    directory, images, points = read_model(path)
    obs = Observations(images, points)
    names = obs.names
    missing = [n for n in names if n not in truth]
    if missing:
        raise SystemExit(f"{directory}: no ground truth for {missing}")
    R = np.array([images[i]["R"] for i in obs.ids])
    C = np.array([-images[i]["R"].T @ images[i]["t"] for i in obs.ids])
    P = np.array([p for p, _ in points])
    print(f"== {directory}")
    vectors, rotation = scores(names, R, C, truth)
    errors = np.linalg.norm(vectors, axis=1)
    print(f"registered {len(names)}/{len(truth)}; position error median {np.median(errors) * 1000:.2f} mm, "
          f"max {errors.max() * 1000:.2f} mm; rotation median {np.median(rotation):.4f}°, max {rotation.max():.4f}°")
    print("per camera (mm; error vector x,y,z in the true frame):")
    for n, e, v in zip(names, errors, vectors):
        print(f"  {n}  {e * 1000:5.2f}  ({v[0] * 1000:+.1f}, {v[1] * 1000:+.1f}, {v[2] * 1000:+.1f})")

    lengths = np.bincount(obs.point)
    print(f"points {obs.point_count}, observations {len(obs.camera)}, mean track length {lengths.mean():.2f}; "
          "track lengths " + " ".join(f"{l}:{(lengths == l).sum()}" for l in range(2, lengths.max() + 1)))
    # Largest angle between the rays of a track.
    rays = P[obs.point] - C[obs.camera]
    rays /= np.linalg.norm(rays, axis=1, keepdims=True)
    largest = np.zeros(obs.point_count)
    order = np.argsort(obs.point, kind="stable")
    starts = np.searchsorted(obs.point[order], np.arange(obs.point_count))
    ends = np.append(starts[1:], len(order))
    for p in range(obs.point_count):
        d = rays[order[starts[p]:ends[p]]]
        largest[p] = np.degrees(np.arccos(np.clip((d @ d.T).min(), -1, 1)))
    print("triangulation angle (largest per point), percentiles 5/25/50/75/95: "
          + " ".join(f"{np.percentile(largest, q):.1f}°" for q in (5, 25, 50, 75, 95)))

    # Residuals with the model's poses, and with the true poses (points re-triangulated).
    own = np.linalg.norm(project(obs, R, C, P), axis=1)
    G_R = np.array([truth[n]["R"] for n in names])
    G_C = np.array([truth[n]["C"] for n in names])
    s, Ra, ta = umeyama(C, G_C)
    P_true_frame = (s * (Ra @ P.T)).T + ta
    fixed = np.zeros(len(names), bool)
    _, _, _, true_res = adjust(obs, G_R, G_C, P_true_frame, fixed, fixed)
    true = np.linalg.norm(true_res, axis=1)
    print("per image: observations, residual rms / median (px) with the model's poses, with the true poses; "
          "mean residual under the true poses (px)")
    for a, n in enumerate(names):
        m = obs.camera == a
        print(f"  {n}  {m.sum():6d}   {np.sqrt((own[m] ** 2).mean()):.3f} / {np.median(own[m]):.3f}   "
              f"{np.sqrt((true[m] ** 2).mean()):.3f} / {np.median(true[m]):.3f}   "
              f"({true_res[m, 0].mean():+.3f}, {true_res[m, 1].mean():+.3f})")
    print(f"  all   {len(own):6d}   {np.sqrt((own ** 2).mean()):.3f} / {np.median(own):.3f}   "
          f"{np.sqrt((true ** 2).mean()):.3f} / {np.median(true):.3f}")

    # Ground-truth consistency test (in the true frame, with the model's aligned rotations).
    R_true_frame = np.array([Rm @ Ra.T for Rm in R])
    C_aligned = (s * (Ra @ C.T)).T + ta
    cost_truth = centre_test(obs, R_true_frame, G_C, P_true_frame)
    cost_model = centre_test(obs, R_true_frame, C_aligned, P_true_frame)
    dof = 2 * len(obs.camera) - 3 * obs.point_count - 6 * len(names) + 7
    sigma2 = cost_model / dof
    expected = (3 * len(names) - 7) * sigma2
    print(f"consistency: cost with the true centres held {cost_truth:.1f} px², with the model's {cost_model:.1f} px²; "
          f"rise {cost_truth - cost_model:.1f} px², expected {expected:.1f} ± {np.sqrt(2 * (3 * len(names) - 7)) * sigma2:.1f} "
          f"if the true centres were exact (sigma {np.sqrt(sigma2):.3f} px per coordinate) → ratio "
          f"{(cost_truth - cost_model) / expected:.0f}")

    # Is one camera's true centre the odd one out? Free each camera in turn from its true centre.
    held = np.zeros(len(names), bool)
    drops = []
    for k in range(len(names)):
        free_centre = held.copy(); free_centre[k] = True
        *_, residuals = adjust(obs, R_true_frame, G_C, P_true_frame, np.ones(len(names), bool), free_centre)
        drops.append(cost_truth - (residuals ** 2).sum())
    print(f"per camera: cost drop when only that camera's centre is freed from the truth (noise alone: about "
          f"{3 * sigma2:.1f} px²): " + ", ".join(f"{n} {d:.1f}" for n, d in zip(names, drops)))

    # Could intrinsics that change from photo to photo (focus breathing, a shifted crop) reconcile
    # the true centres with the photos? Free them per camera in both fits of the test.
    if per_image_intrinsics:
        for kind in INTRINSIC_CHANGES:
            truth_cost = centre_test(obs, R_true_frame, G_C, P_true_frame, kind)
            model_cost = centre_test(obs, R_true_frame, C_aligned, P_true_frame, kind)
            print(f"consistency with {kind} free per camera: rise {truth_cost - model_cost:.1f} px² "
                  f"(expected {expected:.1f}) → ratio {(truth_cost - model_cost) / expected:.0f}")

    if bootstrap:
        first = np.zeros(len(names), bool); first[0] = True
        medians, maxima = [], []
        noise = sigma if sigma else np.sqrt(sigma2)
        exact = project(obs, R, C, P) + obs.xy
        for _ in range(bootstrap):
            xy = exact + rng.normal(0, noise, exact.shape)
            Rb, Cb, _, _ = adjust(obs, R, C, P, ~first, ~first, xy=xy, iterations=20)
            v, _ = scores(names, Rb, Cb, truth)
            e = np.linalg.norm(v, axis=1)
            medians.append(np.median(e)); maxima.append(e.max())
        print(f"bootstrap ({bootstrap} runs, sigma {noise:.3f} px): median error {np.mean(medians) * 1000:.2f} "
              f"± {np.std(medians) * 1000:.2f} mm (range {min(medians) * 1000:.2f}–{max(medians) * 1000:.2f}), "
              f"max error {np.mean(maxima) * 1000:.2f} ± {np.std(maxima) * 1000:.2f} mm")
    return names, C_aligned, (obs, R_true_frame, P_true_frame, cost_model, expected)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("scene", help="Strecha scene folder (with gt_dense_cameras/)")
    parser.add_argument("models", nargs="+", help="COLMAP text models (or folders holding colmap/ or sparse_txt/)")
    parser.add_argument("--bootstrap", type=int, default=0, metavar="N", help="noise resampling runs per model")
    parser.add_argument("--sigma", type=float, default=0, metavar="PX",
                        help="bootstrap noise per coordinate (default: the model's fitted sigma)")
    parser.add_argument("--per-image-intrinsics", action="store_true",
                        help="repeat the consistency test with focal length and/or principal point free per camera")
    args = parser.parse_args()
    truth = read_ground_truth(args.scene)
    rng = np.random.default_rng(1)
    aligned = [analyse(m, truth, args.bootstrap, args.sigma, rng, args.per_image_intrinsics) for m in args.models]
    if len(aligned) > 1:
        common = sorted(set.intersection(*(set(n) for n, _, _ in aligned)))
        centres = [np.array([C[n.index(k)] for k in common]) for n, C, _ in aligned]
        print("== between models (camera-centre differences after alignment, mm; median)")
        for a in range(len(centres)):
            for b in range(a + 1, len(centres)):
                s, R, t = umeyama(centres[a], centres[b])
                d = np.linalg.norm((s * (R @ centres[a].T)).T + t - centres[b], axis=1)
                print(f"  {args.models[a]} vs {args.models[b]}: {np.median(d) * 1000:.2f} (max {d.max() * 1000:.2f})")
        mean = np.mean(centres, 0)
        G = np.array([truth[k]["C"] for k in common])
        s, R, t = umeyama(mean, G)
        e = np.linalg.norm((s * (R @ mean.T)).T + t - G, axis=1)
        print(f"  consensus (mean of the aligned centres): median error {np.median(e) * 1000:.2f} mm, max {e.max() * 1000:.2f} mm")
        names0, C0, (obs, R0, P0, cost0, expected0) = aligned[0]
        if common == sorted(names0):
            print(f"== consistency test on {args.models[0]}'s tracks with other models' centres held "
                  f"(expected rise for exact centres {expected0:.1f} px²)")
            for m, (n, C, _) in zip(args.models[1:], aligned[1:]):
                other = np.array([C[n.index(k)] for k in names0])
                s, R, t = umeyama(other, C0)
                rise = centre_test(obs, R0, (s * (R @ other.T)).T + t, P0) - cost0
                print(f"  {m}: rise {rise:.1f} px²")
    return 0


if __name__ == "__main__":
    sys.exit(main())
