"""Entry point of the `sim` process: a PyBullet scene that looks like ros2_control drivers.

    sim --ros-args -p scene:=franka_stacking -p seed:=3 -p real_time_factor:=1.0
    python -m robot_tasks.nodes.sim --ros-args -p scene:=ur10_palletizing
    robot-tasks sim --scene banana_bowl --rtf 0

Its own main loop: physics steps on the main thread, the executor spins in a second one
(loop.py says why). Stops cleanly on SIGINT/SIGTERM (exit code 0); a bad parameter exits
with code 2 and a message naming it.
"""
from __future__ import annotations

from robot_tasks.ros.node_main import run_node


def stepping_loop(node, executor, stop) -> None:
    """Step the world until `stop()`; the executor spins in its own thread meanwhile."""
    from robot_tasks.nodes.sim.commanders import CommanderWatch
    from robot_tasks.nodes.sim.loop import ExecutorThread, SteppingLoop

    spinner = ExecutorThread(executor, on_error=node.report_callback_error).start()
    try:
        loop = SteppingLoop(node)
        if loop.lead is not None:               # the bound starts once a commander is connected
            CommanderWatch(node, loop.lead)
        loop.run(stop)
        if loop.lead is not None and loop.lead.paced_spells:
            node.get_logger().info(loop.lead.summary())
        node.get_logger().info("stopping")
    finally:
        node.inbox.close()                      # no new work for the stepping thread
        spinner.stop()                          # executor down and joined before the node


def main(argv: list[str] | None = None) -> int:
    from robot_tasks.nodes.sim.node import SimNode

    return run_node(SimNode, argv, program="sim", main_loop=stepping_loop,
                    executor_kind="single_threaded")   # it spins in its own thread
