"""Perception benchmark: detection latency and position error on seeded franka_stacking scenes,
and where the time of a detection goes on the ur10_palletizing scene.

    PYTHONPATH=. .venv/bin/python bench/perception.py [--seeds 20] [--repeats 3]

For each resolution, every seed builds the scene, renders one frame with the scene
camera (rendering is not timed), then times Detector.detect ``repeats`` times. Errors are
against the sim's ground truth. Two intrinsics are compared: the sim Camera's own K
(what the sim node publishes) and the K that robot_tasks.perception derives from
PyBullet's projection matrix (which models ER_TINY_RENDERER's half-pixel offset).
Runtime is bounded: about (seeds x 2 resolutions) renders plus the detections.

The palletizing part renders the belt's end after 25 s of conveyor (several bins in view,
at the 640 x 480 the cell's camera streams) and profiles Detector.detect with cProfile: the
median latency, then each stage's share of it (segmenting the image; fitting bins, and
within that the RANSAC of a bin's top face, perception/plane.py; fitting cubes, which the
default catalogue tries on every blue blob; the min-area rectangles both fits search),
the breakdown issue 16 asks for. The stages overlap (a rectangle is part of a fit).

Then old against new (issue 35: 3): `--compare REV` (default: the last revision of the
hand-written numpy perception, before OpenCV) loads robot_tasks/perception as it was at REV
from git into a temporary folder (``git show``; its imports renamed to a package of its own)
and times both on the same frames, in turns: franka_stacking at 320 x 240 and 640 x 480 and
ur10_palletizing at 640 x 480 (the belt after 25 s), with the whole catalogue. It prints the
median ms a frame of each, their ratio, and whether both found the same objects: the same
labels, each within 5 mm (half the 1 cm the cube tests hold) and 2 degrees of the other.
`--compare none` skips it.

Last, the scene's own labels against the whole catalogue, side by side on the same frames
(franka_stacking at 320 x 240 and ur10_palletizing at 640 x 480, the configs' sizes): the
`labels` that config/<scene>.yaml gives the perception_server (palletizing: ["bin"], which
its config does not set yet), median detect ms of each
detector timed in turns, the ratio, and whether both found the same objects (label and
position within 1 mm).
"""
from __future__ import annotations

import argparse
import cProfile
import dataclasses
import importlib
import math
import pstats
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import pybullet as p

from robot_tasks.perception import CameraIntrinsics, Detector, intrinsics_from_pybullet_projection
from robot_tasks.perception.catalog import catalog_for
from robot_tasks.perception.geometry import matrix_from_quat
from robot_tasks.process import load_plan
from robot_tasks.sim import World

CUBES = ["blue_cube", "green_cube", "red_cube", "yellow_cube"]


def _yaw(q) -> float:
    r = matrix_from_quat(q)
    return math.atan2(r[1, 0], r[0, 0])


def run(width: int, height: int, seeds: int, repeats: int) -> list[dict]:
    detector = Detector()
    rows = {name: {"lat": [], "err": [], "yaw": [], "found": 0, "extra": 0}
            for name in ("sim K", "pybullet K")}
    for seed in range(seeds):
        with World(scene="franka_stacking", seed=seed) as world:
            world.step(120)
            cam = world.camera("scene").resized(width, height)
            frame = cam.capture()
            k = cam.intrinsics()
            proj = p.computeProjectionMatrixFOV(cam.fov_deg, width / height, cam.near, cam.far)
            variants = {"sim K": CameraIntrinsics.from_k(k.matrix, width, height),
                        "pybullet K": intrinsics_from_pybullet_projection(proj, width, height)}
            truth = {s.name: s for s in world.object_states()}
            pose = cam.world_from_optical()
            for name, intrinsics in variants.items():
                row = rows[name]
                for _ in range(repeats):
                    t0 = time.perf_counter()
                    found = detector.detect(frame.rgb, frame.depth, intrinsics, pose)
                    row["lat"].append(time.perf_counter() - t0)
                for d in found:
                    if d.label not in truth:
                        row["extra"] += 1
                        continue
                    row["found"] += 1
                    s = truth[d.label]
                    row["err"].append(np.linalg.norm(np.subtract(d.position, s.position)))
                    dy = _yaw(d.orientation) - _yaw(s.orientation)
                    row["yaw"].append(abs(math.degrees((dy + math.pi / 4) % (math.pi / 2) - math.pi / 4)))
    out = []
    for name, row in rows.items():
        lat = np.array(row["lat"]) * 1000
        err = np.array(row["err"]) * 1000 if row["err"] else np.array([np.nan])
        out.append({"res": f"{width}x{height}", "K": name, "found": f"{row['found']}/{4 * seeds}",
                    "extra": row["extra"], "lat_med": np.median(lat), "lat_p90": np.percentile(lat, 90),
                    "err_med": np.median(err), "err_p90": np.percentile(err, 90), "err_max": err.max(),
                    "yaw_med": float(np.median(row["yaw"])) if row["yaw"] else float("nan")})
    return out


PALLET_STAGES = (("detect", "detector.py", "detect"),
                 ("segments (depth edges, blobs, outlines)", "detector.py", "_segments"),
                 ("fit a bin", "fit_bin.py", "fit_bin"),
                 ("  the top face's plane (RANSAC)", "plane.py", "dominant_plane"),
                 ("fit a cube (tried on the same blobs)", "fit_cube.py", "fit_cube"),
                 ("min-area rectangles (in both fits)", "geometry.py", "min_area_rectangle"))


def palletizing_breakdown(seeds: int, repeats: int) -> tuple[float, int, dict[str, float]]:
    """(median detect ms, bins found per frame summed, {stage: ms per detect}) on the belt."""
    detector, latencies, found, profile = Detector(), [], 0, cProfile.Profile()
    for seed in range(seeds):
        with World(scene="ur10_palletizing", seed=seed) as world:
            world.step(int(25.0 / world.time_step))          # the belt brings the next bins
            cam = world.camera("scene").resized(640, 480)
            frame, k, pose = cam.capture(), cam.intrinsics(), cam.world_from_optical()
            intrinsics = CameraIntrinsics.from_k(k.matrix, 640, 480)
            for _ in range(repeats):
                t0 = time.perf_counter()
                profile.enable()
                detections = detector.detect(frame.rgb, frame.depth, intrinsics, pose)
                profile.disable()
                latencies.append(time.perf_counter() - t0)
            found += sum(d.label == "bin" for d in detections)
    stats = pstats.Stats(profile).stats     # (file, line, function) -> (cc, nc, tottime, cumtime, callers)
    calls = len(latencies)
    stages = {}
    for label, file_end, function in PALLET_STAGES:
        cumulative = sum(v[3] for (file, _line, name), v in stats.items()
                         if file.endswith(file_end) and name == function)
        stages[label] = cumulative / calls * 1000
    return float(np.median(latencies) * 1000), found, stages


def scene_labels(scene: str) -> list[str]:
    """The labels config/<scene>.yaml gives its perception_server."""
    config = Path(__file__).resolve().parents[1] / "config" / f"{scene}.yaml"
    return list(load_plan(config).parameters("perception_server").get("labels") or [])


def same_detections(a, b, tolerance: float = 0.001) -> bool:
    return len(a) == len(b) and all(x.label == y.label and np.linalg.norm(np.subtract(x.position, y.position))
                                    <= tolerance for x, y in zip(a, b))


def labels_against_catalogue(scene: str, size: tuple[int, int], settle_s: float, seeds: int,
                             repeats: int, proposed: tuple = ()) -> dict:
    """Median detect ms with the whole catalogue and with the scene's labels (`proposed`
    when its config sets none yet), in turns on the same frames, and how many frames gave
    the same detections."""
    labels = scene_labels(scene) or list(proposed)
    detectors = {"catalogue_ms": Detector(), "labels_ms": Detector(catalog_for(labels))}
    times = {name: [] for name in detectors}
    same = 0
    for seed in range(seeds):
        with World(scene=scene, seed=seed) as world:
            world.step(int(settle_s / world.time_step))
            cam = world.camera("scene").resized(*size)
            frame, k, pose = cam.capture(), cam.intrinsics(), cam.world_from_optical()
            intrinsics = CameraIntrinsics.from_k(k.matrix, *size)
            found = {}
            for _ in range(repeats):
                for name, detector in detectors.items():
                    t0 = time.perf_counter()
                    found[name] = detector.detect(frame.rgb, frame.depth, intrinsics, pose)
                    times[name].append(time.perf_counter() - t0)
            same += same_detections(found["catalogue_ms"], found["labels_ms"])
    return {"labels": labels, "frames": seeds, "same": same,
            **{name: float(np.median(t) * 1000) for name, t in times.items()}}


REPO = Path(__file__).resolve().parents[1]
# The last revision whose robot_tasks/perception was hand-written numpy (before OpenCV).
NUMPY_PERCEPTION = "36ed8b7"


def load_perception_at(rev: str, name: str = "perception_at_rev"):
    """robot_tasks/perception as it was at git revision `rev`, imported as package `name`
    from a temporary folder (its own imports of robot_tasks.perception renamed to `name`)."""
    listing = subprocess.run(["git", "ls-tree", "--name-only", rev, "robot_tasks/perception/"], cwd=REPO,
                             capture_output=True, text=True, check=True).stdout.split()
    root = Path(tempfile.mkdtemp(prefix="perception_at_"))
    (root / name).mkdir()
    for path in (f for f in listing if f.endswith(".py")):
        text = subprocess.run(["git", "show", f"{rev}:{path}"], cwd=REPO, capture_output=True, text=True,
                              check=True).stdout
        (root / name / Path(path).name).write_text(text.replace("robot_tasks.perception", name))
    sys.path.insert(0, str(root))
    return importlib.import_module(name)


def rotation_angle_deg(q1, q2) -> float:
    return math.degrees(2.0 * math.acos(min(1.0, abs(float(np.dot(q1, q2))))))


def matching(a, b, position_m: float = 0.005, angle_deg: float = 2.0) -> tuple[bool, float]:
    """(same objects: labels, and each within the tolerances of the other; the largest position gap)."""
    if [d.label for d in a] != [d.label for d in b]:
        return False, float("nan")
    gaps = [float(np.linalg.norm(np.subtract(x.position, y.position))) for x, y in zip(a, b)]
    angles = [rotation_angle_deg(x.orientation, y.orientation) for x, y in zip(a, b)]
    return all(g <= position_m for g in gaps) and all(t <= angle_deg for t in angles), max(gaps, default=0.0)


def old_against_new(rev: str, seeds: int, repeats: int) -> list[dict]:
    """Median ms a frame of perception at `rev` and of this checkout's, in turns on the same frames."""
    old = load_perception_at(rev)
    cases = (("franka_stacking", (320, 240), 120 / 240.0), ("franka_stacking", (640, 480), 120 / 240.0),
             ("ur10_palletizing", (640, 480), 25.0))
    rows = []
    for scene, size, settle_s in cases:
        detectors = {"old": old.Detector(), "new": Detector()}
        times = {name: [] for name in detectors}
        same, worst, objects = 0, 0.0, 0
        for seed in range(seeds):
            with World(scene=scene, seed=seed) as world:
                world.step(int(round(settle_s / world.time_step)))
                cam = world.camera("scene").resized(*size)
                frame, k, pose = cam.capture(), cam.intrinsics(), cam.world_from_optical()
            intrinsics = CameraIntrinsics.from_k(k.matrix, *size)
            args = {"new": intrinsics, "old": old.CameraIntrinsics(**dataclasses.asdict(intrinsics))}
            found = {}
            for _ in range(repeats):
                for name, detector in detectors.items():
                    t0 = time.perf_counter()
                    found[name] = detector.detect(frame.rgb, frame.depth, args[name], pose)
                    times[name].append(time.perf_counter() - t0)
            ok, gap = matching(found["old"], found["new"])
            same += ok
            worst = max(worst, gap) if not math.isnan(gap) else worst
            objects += len(found["old"])
        rows.append({"scene": scene, "size": size, "frames": seeds, "same": same, "objects": objects,
                     "worst_mm": worst * 1000, **{f"{n}_ms": float(np.median(t) * 1000) for n, t in times.items()}})
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=20, help="scenes per resolution (default 20)")
    parser.add_argument("--repeats", type=int, default=3, help="timed detections per frame (default 3)")
    parser.add_argument("--compare", default=NUMPY_PERCEPTION, metavar="REV",
                        help="git revision whose perception to time against this one, side by side "
                             f"(default {NUMPY_PERCEPTION}: the hand-written numpy one); 'none' skips it")
    parser.add_argument("--only-compare", action="store_true", help="print only the old-against-new table")
    args = parser.parse_args()
    seeds, repeats = max(1, min(args.seeds, 200)), max(1, min(args.repeats, 20))
    if args.compare.lower() != "none":
        print(f"perception at {args.compare} (old) against this checkout (new), whole catalogue, "
              f"{seeds} frames x {repeats} in turns; same = same labels, each within 5 mm and 2 deg")
        print(f"{'scene':>17} {'size':>8} {'old ms':>7} {'new ms':>7} {'ratio':>6} {'same':>7} "
              f"{'objects':>7} {'max gap mm':>10}")
        for r in old_against_new(args.compare, seeds, repeats):
            print(f"{r['scene']:>17} {r['size'][0]}x{r['size'][1]:<4} {r['old_ms']:>7.1f} {r['new_ms']:>7.1f} "
                  f"{r['old_ms'] / r['new_ms']:>5.1f}x {r['same']:>3d}/{r['frames']:<3d} {r['objects']:>7d} "
                  f"{r['worst_mm']:>10.2f}")
        print()
        if args.only_compare:
            return
    print(f"franka_stacking, {seeds} seeds, {repeats} timed runs per frame; errors vs ground truth")
    header = (f"{'resolution':>10} {'intrinsics':>11} {'found':>7} {'extra':>5} {'lat med ms':>10} "
              f"{'lat p90 ms':>10} {'err med mm':>10} {'err p90 mm':>10} {'err max mm':>10} {'yaw med deg':>11}")
    print(header)
    print("-" * len(header))
    for width, height in ((320, 240), (640, 480)):
        for r in run(width, height, seeds, repeats):
            print(f"{r['res']:>10} {r['K']:>11} {r['found']:>7} {r['extra']:>5} {r['lat_med']:>10.1f} "
                  f"{r['lat_p90']:>10.1f} {r['err_med']:>10.2f} {r['err_p90']:>10.2f} {r['err_max']:>10.2f} "
                  f"{r['yaw_med']:>11.2f}")
    median_ms, found, stages = palletizing_breakdown(seeds, repeats)
    print(f"\nur10_palletizing, 640x480, {seeds} scenes x {repeats} (profiled): detect median {median_ms:.1f} ms, "
          f"{found} bins found in {seeds} frames")
    for label, ms in stages.items():
        print(f"  {label:<40} {ms:7.1f} ms a detect ({ms / stages['detect'] * 100:5.1f} %)")
    print("\nthe scene's labels (config/<scene>.yaml) against the whole catalogue, same frames, in turns")
    print(f"{'scene':>17} {'size':>8} {'catalogue ms':>12} {'labels ms':>10} {'ratio':>6} {'same':>7}  labels")
    for scene, size, settle_s, proposed in (("franka_stacking", (320, 240), 0.5, ()),
                                            ("ur10_palletizing", (640, 480), 25.0, ("bin",))):
        row = labels_against_catalogue(scene, size, settle_s, seeds, repeats, proposed)
        print(f"{scene:>17} {size[0]}x{size[1]:<4} {row['catalogue_ms']:>12.1f} {row['labels_ms']:>10.1f} "
              f"{row['catalogue_ms'] / row['labels_ms']:>5.2f}x {row['same']:>3d}/{row['frames']:<3d}  "
              f"{', '.join(row['labels'])}")


if __name__ == "__main__":
    main()
