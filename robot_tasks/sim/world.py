"""The World: one PyBullet client (DIRECT, or GUI to watch), a fixed time step, and everything in it.

    with World(scene="franka_stacking", seed=3) as world:
        panda = world.robot("panda")
        panda.controller.command(trajectory)      # whole JointTrajectory, sim-time based
        world.step(240)                           # one simulated second at 240 Hz
        states = world.object_states()

Each `step()` first lets controllers, grippers and scene updaters (a conveyor) act at
the current sim time, then advances physics by one fixed step.

Physics rate and sub-steps: `time_step` is the world's step (what `step()` advances and
`time` counts); `physics_substeps` splits it into that many physics steps. Torque-level
controllers (the compliant controllers in `compliant.py`) register a *physics hook* and run
before every physics sub-step, as ros2_control runs a controller next to the hardware at
its own rate: `World(time_step=1/240, physics_substeps=4)` keeps the 240 Hz world while
the torque loop runs at 960 Hz. A scene that registers a `min_physics_rate` (franka_press)
gets enough sub-steps automatically. The defaults (1/240 s, one sub-step, no hooks) keep the
behaviour every existing scene was tuned with.  Nothing here sleeps or
reads the wall clock, so a caller can run the world at any speed; a ROS node just calls
`step()` in its own loop and reads `time`, `robot(..).joint_states()` and cameras.

`World(..., gui=True)` opens PyBullet's own window (an X display is needed) instead of
the headless DIRECT client. Nothing else changes: the physics is the same, and the
cameras render with the TinyRenderer in both modes, so their images are the same too.
"""
from __future__ import annotations

from typing import Callable

import numpy as np
import pybullet as p

from robot_tasks.sim.errors import SimError, UnknownName
from robot_tasks.sim.objects import ObjectState, SimObject, read_state

GUI_VIEW = dict(cameraDistance=1.9, cameraYaw=50.0, cameraPitch=-32.0)   # where the window looks from


def connect_gui() -> int:
    """A PyBullet GUI client; SimError (not a crash) when there is no X display."""
    import os

    if not os.environ.get("DISPLAY"):
        raise SimError("gui: no X display (DISPLAY is not set); run headless, or under xvfb-run to test")
    client = p.connect(p.GUI)
    if client < 0:
        raise SimError(f"gui: PyBullet could not open its window on DISPLAY={os.environ['DISPLAY']}")
    p.configureDebugVisualizer(p.COV_ENABLE_GUI, 0, physicsClientId=client)   # no side panels
    return client


class World:
    """A deterministic physics world.  Same scene + seed + commands give the same states."""

    def __init__(self, scene: str | None = None, seed: int = 0, time_step: float = 1.0 / 240.0,
                 gravity: float = -9.81, physics_substeps: int = 1, gui: bool = False, **scene_options):
        if int(physics_substeps) < 1 or int(physics_substeps) != physics_substeps:
            raise SimError(f"physics_substeps must be a whole number >= 1, got {physics_substeps}")
        self.time_step = float(time_step)
        if scene is not None:                   # a torque-control scene asks for more
            from robot_tasks.sim.scenes import substeps_for
            physics_substeps = max(int(physics_substeps), substeps_for(scene, self.time_step))
        self.physics_substeps = int(physics_substeps)
        self.physics_time_step = self.time_step / self.physics_substeps
        self.gravity = float(gravity)
        self.gui = bool(gui)
        self.client = connect_gui() if self.gui else p.connect(p.DIRECT)
        self.scene_name = scene
        self.scene_options = dict(scene_options)
        self._setup(seed)

    # --- lifecycle ---------------------------------------------------------------
    def _setup(self, seed: int) -> None:
        cid = self.client
        p.resetSimulation(physicsClientId=cid)
        p.setGravity(0, 0, self.gravity, physicsClientId=cid)
        # deterministicOverlappingPairs sorts broadphase pairs: same calls -> same result.
        p.setPhysicsEngineParameter(fixedTimeStep=self.physics_time_step, deterministicOverlappingPairs=1,
                                    physicsClientId=cid)
        self.seed = int(seed)
        self.rng = np.random.default_rng(self.seed)
        self.time = 0.0
        self.step_count = 0
        self.robots: dict = {}
        self.objects: dict[str, SimObject] = {}
        self.cameras: dict = {}
        self.updaters: list[Callable[["World"], None]] = []
        self.physics_hooks: list[Callable[[float], None]] = []   # run before each physics step
        self.physics_step_count = 0
        self.held_bodies: set[int] = set()          # bodies a gripper holds right now
        self.static_bodies: dict[str, int] = {}     # table, plane, pallet ... by name
        self.view = {"position": (1.6, -1.2, 1.5), "target": (0.4, 0.0, 0.6)}  # snapshot camera
        self.landmarks: dict[str, tuple] = {}       # named fixed poses (pallet slots ...)
        self.conveyor = None
        self._body_to_object: dict[int, SimObject] = {}
        if self.gui:     # drawing every body as it loads makes building ~30x slower
            p.configureDebugVisualizer(p.COV_ENABLE_RENDERING, 0, physicsClientId=cid)
        if self.scene_name is not None:
            from robot_tasks.sim.scenes import build_scene  # scenes import World: import late
            build_scene(self, self.scene_name, **self.scene_options)
        if self.gui:
            self._aim_gui_view()
            p.configureDebugVisualizer(p.COV_ENABLE_RENDERING, 1, physicsClientId=cid)

    def _aim_gui_view(self) -> None:
        """Point the window at what the scene camera looks at (else the origin)."""
        camera = self.cameras.get("scene")
        target = [float(v) for v in camera.target] if camera is not None else [0.0, 0.0, 0.5]
        p.resetDebugVisualizerCamera(cameraTargetPosition=target, physicsClientId=self.client, **GUI_VIEW)

    def reset(self, seed: int | None = None) -> None:
        """Rebuild the scene from scratch with `seed` (default: the current seed)."""
        self._setup(self.seed if seed is None else seed)

    def close(self) -> None:
        if self.client is not None and p.isConnected(self.client):
            p.disconnect(self.client)
        self.client = None

    def __enter__(self) -> "World":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    # --- stepping ---------------------------------------------------------------
    def step(self, n: int = 1) -> None:
        """Advance `n` fixed steps: controllers act at the current time, then physics."""
        cid = self.client
        robots = tuple(self.robots.values())
        for _ in range(int(n)):
            for robot in robots:
                if robot.controller is not None:
                    robot.controller.update(self.time)
                if robot.gripper is not None:
                    robot.gripper.update(self.time)
            for updater in self.updaters:
                updater(self)
            self._physics_steps(cid)
            self.step_count += 1
            self.time = self.step_count * self.time_step   # no drift from summing floats

    def _physics_steps(self, cid: int) -> None:
        """One world step of physics: `physics_substeps` steps, hooks before each."""
        hooks = self.physics_hooks
        for _ in range(self.physics_substeps):
            if hooks:
                now = self.physics_step_count * self.physics_time_step
                for hook in hooks:
                    hook(now)
            p.stepSimulation(physicsClientId=cid)
            self.physics_step_count += 1

    @property
    def physics_rate(self) -> float:
        """Physics (and torque-loop) steps per simulated second."""
        return 1.0 / self.physics_time_step

    def step_until(self, predicate: Callable[[], bool], timeout: float) -> bool:
        """Step until predicate() is true or `timeout` sim seconds pass; return predicate()."""
        end = self.time + timeout
        while not predicate():
            if self.time >= end:
                return False
            self.step()
        return True

    # --- contents ----------------------------------------------------------------
    def add_robot(self, robot) -> None:
        self.robots[robot.name] = robot

    def add_object(self, obj: SimObject) -> SimObject:
        self.objects[obj.name] = obj
        self._body_to_object[obj.body_id] = obj
        return obj

    def add_camera(self, name: str, camera) -> None:
        self.cameras[name] = camera

    def add_physics_hook(self, fn: Callable[[float], None]) -> None:
        """Register fn(sim_time) to run before every physics sub-step (a torque loop)."""
        self.physics_hooks.append(fn)

    def add_updater(self, fn: Callable[["World"], None]) -> None:
        """Register a function called with the world before every physics step."""
        self.updaters.append(fn)

    def robot(self, name: str):
        if name not in self.robots:
            raise UnknownName("robot", name, self.robots)
        return self.robots[name]

    def object(self, name: str) -> SimObject:
        if name not in self.objects:
            raise UnknownName("object", name, self.objects)
        return self.objects[name]

    def camera(self, name: str):
        if name not in self.cameras:
            raise UnknownName("camera", name, self.cameras)
        return self.cameras[name]

    def object_for_body(self, body_id: int) -> SimObject | None:
        return self._body_to_object.get(body_id)

    def object_states(self) -> list[ObjectState]:
        """Ground truth of every tracked object (for evaluation and markers only)."""
        return [read_state(obj, self.client) for obj in self.objects.values()]

    def object_state(self, name: str) -> ObjectState:
        return read_state(self.object(name), self.client)
