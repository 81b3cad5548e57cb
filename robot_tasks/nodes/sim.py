"""The `sim` node: a PyBullet scene that looks like real ros2_control robot drivers.

    sim --ros-args -p scene:=franka_stacking -p seed:=3 -p real_time_factor:=1.0
    python -m robot_tasks.nodes.sim --ros-args -p scene:=ur10_palletizing
    robot-tasks sim --scene banana_bowl --rtf 0

Topics, services and parameters: robot_tasks/ros/sim/__init__.py and params.py.
Stops cleanly on SIGINT/SIGTERM (exit code 0); a bad parameter exits with code 2 and a
message naming it.
"""
from __future__ import annotations

import sys

from robot_tasks.ros.dds import configure_loopback_dds
from robot_tasks.ros.sim.bench import bench_step_rate
from robot_tasks.ros.stop_request import StopRequest  # bench/sim_rate.py calls it from here

__all__ = ["main", "bench_step_rate"]


def main(argv: list[str] | None = None) -> int:
    """Run the node; `argv` is the full argv or just the ROS arguments (`--ros-args ...`)."""
    argv = list(sys.argv if argv is None else argv)
    if not argv or argv[0].startswith("-"):
        argv.insert(0, "sim")                      # rcl expects a program name first
    stop = StopRequest().install()                  # SIGINT/SIGTERM: the stepping loop polls it
    configure_loopback_dds()                        # before rclpy.init(): loopback only

    import rclpy
    from rclpy.exceptions import NameValidationException, ParameterException
    from rclpy.executors import SingleThreadedExecutor
    from rclpy.signals import SignalHandlerOptions

    from robot_tasks.ros.sim.loop import ExecutorThread, SteppingLoop
    from robot_tasks.ros.sim.node import SimNode
    from robot_tasks.ros.sim.params import SimParamError
    from robot_tasks.sim.errors import SimError

    try:
        rclpy.init(args=argv, signal_handler_options=SignalHandlerOptions.NO)
    except Exception as err:  # noqa: BLE001 - rcl's argument errors have no public class
        print(f"sim: cannot start ROS with arguments {argv[1:]}: {err}", file=sys.stderr)
        return 2
    node = spinner = None
    try:
        try:
            node = SimNode()
        except (SimParamError, SimError, ParameterException, NameValidationException) as err:
            print(f"sim: {err}", file=sys.stderr)
            return 2
        spinner = ExecutorThread(SingleThreadedExecutor(), on_error=node.report_callback_error)
        spinner.executor.add_node(node)
        spinner.start()
        SteppingLoop(node).run(stop)
        node.get_logger().info("stopping")
        return 0
    finally:
        # Order matters (ros README): no new work, executor down and joined, then the node.
        if node is not None:
            node.inbox.close()
        if spinner is not None:
            spinner.stop()
        if node is not None:
            node.destroy_node()
        rclpy.try_shutdown()


if __name__ == "__main__":
    sys.exit(main())
