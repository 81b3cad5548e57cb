"""Record RGB-D frames and ground truth from a robot_tasks.sim scene into an .npz file,
for the fake camera to replay (the swap test's "camera from recorded images").

    python test/support/record_frames.py OUT.npz --scene franka_stacking --seed 2

Keys: rgb (N, H, W, 3) uint8; depth (N, H, W) float32 metres (inf = no return);
k (9,) row-major K; width, height; camera_pose (7,) [x, y, z, qx, qy, qz, qw] of the
optical frame in the world; truth_names, truth_labels (str arrays); truth_positions
(M, 3) world metres after the scene settled. Tests write it into a temp dir: a few
hundred kB that is cheaper to regenerate (~1 s) than to keep in git.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # repo root, for robot_tasks


def record(path: Path, scene: str = "franka_stacking", seed: int = 0, frames: int = 2,
           width: int = 320, height: int = 240, settle_steps: int = 120) -> Path:
    from robot_tasks.sim import World

    with World(scene=scene, seed=seed) as world:
        world.step(settle_steps)
        camera = world.camera("scene").resized(width, height)
        rgbs, depths = [], []
        for _ in range(frames):
            frame = camera.capture()
            rgbs.append(np.asarray(frame.rgb, dtype=np.uint8)[..., :3])
            depths.append(np.asarray(frame.depth, dtype=np.float32))
            world.step(24)                      # 0.1 s between frames: objects at rest
        k = camera.intrinsics()
        position, orientation = camera.optical_pose()
        states = world.object_states()
        np.savez_compressed(
            path, rgb=np.stack(rgbs), depth=np.stack(depths),
            k=np.asarray(k.matrix, dtype=float).reshape(9), width=k.width, height=k.height,
            camera_pose=np.array([*position, *orientation], dtype=float),
            truth_names=np.array([s.name for s in states]), truth_labels=np.array([s.label for s in states]),
            truth_positions=np.array([s.position for s in states], dtype=float))
    return Path(path)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--scene", default="franka_stacking")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--frames", type=int, default=2)
    args = parser.parse_args()
    print(record(args.out, args.scene, args.seed, args.frames))
