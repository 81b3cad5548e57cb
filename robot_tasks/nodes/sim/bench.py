"""Step-rate measurement of the real sim node loop, in-process (used by bench/sim_rate.py).

The node is built exactly as `main()` builds it (real rclpy context, real publishers
on loopback DDS), with real_time_factor 0 and the camera off, and its SteppingLoop
runs `steps` steps per repeat.  Raw `p.stepSimulation()` repeats in the *same* world
alternate with the node's, so both see the same contacts and sleeping bodies.
"""
from __future__ import annotations

import os
import statistics
import tempfile
import time
from dataclasses import dataclass

SETTLE_STEPS = 200


@dataclass(frozen=True)
class StepRates:
    """Median steps per second, raw PyBullet vs the node loop, by wall and by CPU time.

    CPU time is the whole process's (`time.process_time`: the stepping thread, the
    executor thread and the DDS threads), so it counts everything the node costs but
    not the time other processes on a shared machine take from it.
    """

    raw_wall: float
    node_wall: float
    raw_cpu: float
    node_cpu: float

    @property
    def wall_ratio(self) -> float:
        return self.node_wall / self.raw_wall

    @property
    def cpu_ratio(self) -> float:
        return self.node_cpu / self.raw_cpu


def bench_rates(scene: str, steps: int, joint_state_rate: float = 100.0, repeats: int = 3,
                object_rate: float = 10.0, controller_state: bool = False) -> StepRates:
    """Alternate `repeats` runs of raw stepping and of the node loop in one world
    (`controller_state`: the node also publishes both controllers' per-step states)."""
    from robot_tasks.ros.dds import configure_loopback_dds
    from robot_tasks.ros.domains import pick_free_domain_id

    configure_loopback_dds(domain_id=None if "ROS_DOMAIN_ID" in os.environ else pick_free_domain_id(),
                           log_dir=os.environ.get("ROS_LOG_DIR") or tempfile.mkdtemp(prefix="sim_bench_log_"))
    import pybullet as p
    import rclpy
    from rclpy.context import Context
    from rclpy.executors import SingleThreadedExecutor
    from rclpy.parameter import Parameter
    from rclpy.signals import SignalHandlerOptions

    from robot_tasks.nodes.sim.loop import ExecutorThread, SteppingLoop
    from robot_tasks.nodes.sim.node import SimNode

    context = Context()
    rclpy.init(context=context, signal_handler_options=SignalHandlerOptions.NO)
    node = spinner = None
    try:
        values = dict(scene=scene, real_time_factor=0.0, camera_rate=0.0,
                      joint_state_rate=float(joint_state_rate), object_rate=float(object_rate),
                      controller_state=bool(controller_state))
        overrides = [Parameter(name, value=value) for name, value in values.items()]
        node = SimNode("sim_bench", context=context, parameter_overrides=overrides)
        spinner = ExecutorThread(SingleThreadedExecutor(context=context),
                                 on_error=node.report_callback_error)
        spinner.executor.add_node(node)
        spinner.start()
        loop = SteppingLoop(node)
        never = lambda: False  # noqa: E731
        loop.run(never, max_steps=SETTLE_STEPS)
        runs = {"raw_wall": [], "node_wall": [], "raw_cpu": [], "node_cpu": []}
        cid = node.world.client

        def timed(kind, fn):
            w0, c0 = time.perf_counter(), time.process_time()
            fn()
            runs[f"{kind}_wall"].append(steps / (time.perf_counter() - w0))
            runs[f"{kind}_cpu"].append(steps / max(time.process_time() - c0, 1e-9))

        def raw():
            for _ in range(steps):
                p.stepSimulation(physicsClientId=cid)

        for _ in range(repeats):
            timed("raw", raw)
            timed("node", lambda: loop.run(never, max_steps=steps))
        return StepRates(**{k: statistics.median(v) for k, v in runs.items()})
    finally:
        if node is not None:
            node.inbox.close()
        if spinner is not None:
            spinner.stop()
        if node is not None:
            node.destroy_node()
        rclpy.try_shutdown(context=context)


def bench_step_rate(scene: str, steps: int, joint_state_rate: float = 100.0, repeats: int = 3) -> float:
    """Steps per wall second of the sim node loop (joint_states at `joint_state_rate`, camera off)."""
    return bench_rates(scene, steps, joint_state_rate, repeats).node_wall
