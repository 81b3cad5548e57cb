"""The franka_press experiment in-process: press the tilted wall, slide through poses, record it all.

This is the library driver of the benchmark (bench/controllers.py) and the sim's own tests
(test/sim/test_franka_press.py): no ROS, one World stepped here. The task itself, as a robot
runs it, is trees/franka_press.xml (`robot-tasks demo franka_press`): there the sequence lives
in the tree and reaches the same controllers through compliance_server and the sim node.
`PressLog` is shared: the demo records its ROS run into one for grading and the plot.

One episode, in sim time:
1. guarded approach: hold the approach pose a moment under the trajectory controller (the
   F/T sensor then has a still reading to tare), switch to "osc" and glide the tip along the
   wall's normal at `approach_speed` until the F/T sensor feels `contact_force_threshold`
   (or `approach_timeout` passes). Flying in under the force command alone hits the wall at
   ~0.3 m/s: a 215 N contact spike; at 2 cm/s the spike is ~33 N (measured);
2. hand over to "hybrid_press" (the sensor keeps its tare) commanding `force` along the
   normal at the in-plane origin; it settles for `settle` s;
3. for each in-plane waypoint (x, y in the wall frame, metres): glide the target there over
   `move_time` s (smoothstep), then hold it `hold_time` s.

Every world step the log keeps the normal force by two routes — the contact points between
robot and wall (ground truth) and the F/T sensor the controller reads — and the tool tip
(ground truth) and the target in the wall frame. The log is for grading and plots; the
controller itself sees only joint states and the F/T sensor.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pybullet as p

from robot_tasks.control.compliance import smoothstep, wall_press_command

CONTROLLER = "hybrid_press"
APPROACH_CONTROLLER = "osc"


@dataclass
class PressLog:
    """Time series of one episode; `phase`: -2 approaching, -1 pressing in, k on waypoint k."""

    time: list = field(default_factory=list)
    contact_force: list = field(default_factory=list)   # N along the normal, contact points
    sensed_force: list = field(default_factory=list)    # N along the normal, F/T sensor
    tip: list = field(default_factory=list)             # (x, y, z) in the wall frame, m
    target: list = field(default_factory=list)          # (x, y) in the wall frame, m
    phase: list = field(default_factory=list)
    holding: list = field(default_factory=list)         # the target is at rest

    def arrays(self) -> dict:
        return {k: np.asarray(v) for k, v in self.__dict__.items()}

    def settled(self, phase: int, last: float) -> np.ndarray:
        """Mask of the final `last` seconds of holding in `phase`."""
        a = self.arrays()
        mask = (a["phase"] == phase) & a["holding"]
        if not mask.any():
            return mask
        return mask & (a["time"] >= a["time"][mask].max() - last)


def run_press(world, waypoints, force: float = 10.0, settle: float = 0.6,
              move_time: float = 1.5, hold_time: float = 1.0, approach_speed: float = 0.02,
              contact_force_threshold: float = 1.0, approach_timeout: float = 3.0) -> PressLog:
    robot = world.robot("panda")
    world.step(max(1, int(round(0.05 / world.time_step))))   # held still: a valid F/T tare
    switch = robot.controllers
    switch.switch(APPROACH_CONTROLLER)
    approach = switch.current()
    rotation = switch.compliant[CONTROLLER].law.task_frame.rotation
    origin = switch.compliant[CONTROLLER].law.task_frame.position
    normal = rotation[:, 2]
    wall = world.static_bodies["wall"]
    log = PressLog()

    def record(shell, target_xy, phase: int, holding: bool) -> None:
        world.step()
        contacts = p.getContactPoints(robot.body_id, wall, physicsClientId=world.client)
        tip = rotation.T @ (np.array(robot.ee_pose()[0]) - origin)
        sensed = shell.last_state.wrench if shell.last_state is not None else np.zeros(6)
        log.time.append(world.time)
        log.contact_force.append(float(sum(c[9] for c in contacts)))
        log.sensed_force.append(float(normal @ sensed[:3]))
        log.tip.append(tip)
        log.target.append(np.array(target_xy, float))
        log.phase.append(phase)
        log.holding.append(holding)

    start = np.array(robot.ee_pose()[0])
    here = (rotation.T @ (start - origin))[:2]
    quaternion = switch.compliant[CONTROLLER].law.task_frame.quaternion
    for k in range(1, int(round(approach_timeout / world.time_step)) + 1):
        goal = start + normal * approach_speed * k * world.time_step
        approach.law.set_command(np.concatenate([goal, quaternion]))
        record(approach, here, -2, False)
        if log.sensed_force[-1] > contact_force_threshold:
            break

    switch.switch(CONTROLLER)
    shell = switch.current()
    law = shell.law
    law.set_command(wall_press_command([here[0], here[1], 0.0], force))
    for _ in range(int(round(settle / world.time_step))):
        record(shell, here, -1, True)
    for k, goal in enumerate(np.asarray(waypoints, float)):
        begin = here
        moves = int(round(move_time / world.time_step))
        for i in range(1, moves + 1):
            here = begin + smoothstep(i / moves) * (goal - begin)
            law.set_command(wall_press_command([here[0], here[1], 0.0], force))
            record(shell, here, k, False)
        for _ in range(int(round(hold_time / world.time_step))):
            record(shell, here, k, True)
    return log
