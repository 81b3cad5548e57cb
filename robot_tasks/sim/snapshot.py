"""Render a scene to a PNG from its oblique `world.view` camera (for humans, not perception)."""
from __future__ import annotations

from pathlib import Path

from robot_tasks.sim.camera import Camera


def render_view(world, width: int = 640, height: int = 480, fov_deg: float = 50.0):
    """RGB image (H, W, 3) uint8 of the world from its snapshot view."""
    cam = Camera(world, width, height, fov_deg, world.view["position"], world.view["target"],
                 near=0.05, far=10.0)
    return cam.capture().rgb


def save_png(rgb, path) -> Path:
    from PIL import Image

    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    Image.fromarray(rgb).save(path)
    return path


def snapshot(scene: str, out_path, seed: int = 0, settle_steps: int = 120,
             width: int = 640, height: int = 480) -> Path:
    """Build `scene`, let it settle `settle_steps`, render its view to `out_path`."""
    from robot_tasks.sim.world import World

    with World(scene=scene, seed=seed) as world:
        world.step(settle_steps)
        return save_png(render_view(world, width, height), out_path)
