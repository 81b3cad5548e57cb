"""RosSleep: wait a duration of the ROS node's clock -- sim time under use_sim_time.

BT.CPP's Sleep counts wall time. For a robot that is the same thing; for a simulated one
it is not: "wait 1 s for the bin to settle" means one second of physics, and on a loaded
machine the sim may run at half speed or less, so a wall second is only half a second of
settling, and "no bin came for a minute" of wall time may be a few sim seconds in which
the conveyor barely moved. RosSleep measures `msec` on the clock of the node that ticks
the tree (the tree_executor's: sim time when `use_sim_time` is set, the system clock
otherwise), so a tree behaves the same at any sim speed and against a real robot.

It needs no timer of its own: the tree executor ticks on that same clock.
"""
from __future__ import annotations

from robot_tasks.bt import InputPort, NodeStatus, StatefulActionNode
from robot_tasks.bt.errors import BehaviorTreeError


class RosSleep(StatefulActionNode):
    """RUNNING for `msec` ms of the node clock (sim time under use_sim_time), then SUCCESS."""

    def __init__(self, name, config, ros_node):
        super().__init__(name, config)
        self._ros_node = ros_node
        self._until_ns = 0

    @staticmethod
    def provided_ports():
        return [InputPort("msec", int, description="ms of the node's clock (sim time under use_sim_time)")]

    def _now_ns(self) -> int:
        if self._ros_node is None:
            raise BehaviorTreeError(f"node '{self.full_path}': RosSleep needs the ROS node that ticks the tree")
        return self._ros_node.get_clock().now().nanoseconds

    def on_start(self) -> NodeStatus:
        msec = self.get_input("msec")
        if msec < 0:
            raise BehaviorTreeError(f"node '{self.full_path}': msec must be >= 0, got {msec}")
        self._until_ns = self._now_ns() + int(msec) * 1_000_000
        return self.on_running()

    def on_running(self) -> NodeStatus:
        return NodeStatus.SUCCESS if self._now_ns() >= self._until_ns else NodeStatus.RUNNING

    def on_halted(self) -> None:
        self._until_ns = 0
