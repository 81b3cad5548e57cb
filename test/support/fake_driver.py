"""A fake Panda driver with a real driver's interfaces — no physics, no PyBullet.

It stands in for the sim (or a real ros2_control robot) in the swap tests, to show the
servers need nothing but what a real driver offers (shared/ARCHITECTURE.md):
    publishes  joint_states (sensor_msgs/JointState, `rate` Hz, wall clock)
               robot_description (std_msgs/String, latched): the Panda URDF text
    serves     joint_trajectory_controller's follow_joint_trajectory action and
               joint_trajectory topic, as ros2_controllers' JTC does (jtc_standin.py, written
               from JTC's documentation and source; parameters `jtc_active`,
               `jtc_path_tolerance`, `jtc_goal_tolerance`, `jtc_goal_time`, `max_joint_speed`)
    serves     franka_gripper's actions, stop service and joint_states under franka_gripper/,
               as franka_ros2's franka_gripper does (franka_gripper_standin.py, written from
               its documentation and source); `object_width` > 0: an object that wide
               between the fingers; `finger_speed` caps each finger's speed (m/s);
               `gripper` false: no gripper driver at all (the fingers stay in joint_states,
               as joint_state_publisher keeps a joint nobody reports)
    publishes  joint_states with the fingers, merged as franka_ros2's joint_state_publisher does
Faster than real time, like the sim at rtf 0: `clock_speedup` > 0 publishes /clock running
that many times faster than the wall clock and follows trajectories and moves the fingers
on it; `command_delay` wall seconds pass before a command takes effect (in transit).

Run: python test/support/fake_driver.py --ros-args -p object_width:=0.05
"""
import importlib.util
import re
import sys
import time
from collections import deque
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # repo root, for robot_tasks
sys.path.insert(0, str(Path(__file__).resolve().parent))      # test/support, for the stand-ins

from robot_tasks.ros.dds import configure_loopback_dds  # noqa: E402  (imports no ROS)
from robot_tasks.ros.node_main import run_node  # noqa: E402  (imports no ROS)

configure_loopback_dds()

from franka_gripper_standin import StandInFrankaGripper  # noqa: E402
from jtc_standin import StandInJTC  # noqa: E402
from rclpy.node import Node  # noqa: E402
from rclpy.qos import DurabilityPolicy, QoSProfile, ReliabilityPolicy  # noqa: E402
from rclpy.time import Time  # noqa: E402
from rosgraph_msgs.msg import Clock  # noqa: E402
from sensor_msgs.msg import JointState  # noqa: E402
from std_msgs.msg import String  # noqa: E402

ARM = [f"panda_joint{i}" for i in range(1, 8)]
FINGERS = ["panda_finger_joint1", "panda_finger_joint2"]
HOME = [0.0, -0.785, 0.0, -2.356, 0.0, 1.571, 0.785]
LATCHED = QoSProfile(depth=1, reliability=ReliabilityPolicy.RELIABLE,
                     durability=DurabilityPolicy.TRANSIENT_LOCAL)


def panda_description() -> str:
    """The Panda URDF shipped in pybullet_data (a data folder; pybullet is not imported),
    with package:// mesh paths made absolute so Pinocchio can load collision meshes."""
    spec = importlib.util.find_spec("pybullet_data")
    folder = Path(list(spec.submodule_search_locations)[0]) / "franka_panda"
    text = (folder / "panda.urdf").read_text()
    return re.sub(r'filename="package://', f'filename="{folder}/', text)


class FakeDriver(Node):
    def __init__(self):
        super().__init__("fake_driver")
        self.rate = float(self.declare_parameter("rate", 100.0).value)
        self.object_width = float(self.declare_parameter("object_width", 0.0).value)
        self.finger_speed = float(self.declare_parameter("finger_speed", 0.1).value)
        self.clock_speedup = float(self.declare_parameter("clock_speedup", 0.0).value)
        self.command_delay = float(self.declare_parameter("command_delay", 0.0).value)
        self.delayed = deque()                   # (wall time due, apply function, args), in order
        self.wall0 = time.monotonic()
        self.clock_pub = self.create_publisher(Clock, "/clock", 10) if self.clock_speedup > 0 else None
        self.jtc = StandInJTC(
            self, ARM, HOME, self.driver_time,
            active=bool(self.declare_parameter("jtc_active", True).value),
            path_tolerance=float(self.declare_parameter("jtc_path_tolerance", 0.0).value),
            goal_tolerance=float(self.declare_parameter("jtc_goal_tolerance", 0.0).value),
            goal_time=float(self.declare_parameter("jtc_goal_time", 0.0).value),
            max_speed=float(self.declare_parameter("max_joint_speed", float("inf")).value))
        self.joint_pub = self.create_publisher(JointState, "joint_states", 10)
        self.description_pub = self.create_publisher(String, "robot_description", LATCHED)
        self.description_pub.publish(String(data=panda_description()))
        self.hand = None
        if self.declare_parameter("gripper", True).value:
            self.hand = StandInFrankaGripper(self, FINGERS, later=self.later, object_width=self.object_width,
                                             max_speed=2.0 * self.finger_speed)
        self.last_step = self.driver_time()
        self.create_timer(1.0 / self.rate, self.step)
        self.get_logger().info("fake driver up (Panda, no physics)")

    def driver_time(self) -> float:
        """Seconds on the driver's clock: wall time, or /clock's time when it runs faster."""
        wall = time.monotonic()
        return (wall - self.wall0) * self.clock_speedup if self.clock_speedup > 0 else wall

    def later(self, apply, *args) -> None:
        if self.command_delay > 0:
            self.delayed.append((time.monotonic() + self.command_delay, apply, args))
        else:
            apply(*args)

    def step(self) -> None:
        while self.delayed and self.delayed[0][0] <= time.monotonic():   # one delay: due in order
            _, apply, args = self.delayed.popleft()
            apply(*args)
        now = self.driver_time()
        if self.clock_pub is not None:
            self.clock_pub.publish(Clock(clock=Time(seconds=now).to_msg()))
        dt, self.last_step = now - self.last_step, now
        self.jtc.update(now, dt)
        if self.hand is not None:
            self.hand.update(now, dt)
        half = self.hand.width / 2.0 if self.hand is not None else 0.04
        msg = JointState()
        msg.header.stamp = Time(seconds=now).to_msg() if self.clock_pub else self.get_clock().now().to_msg()
        msg.name = ARM + FINGERS
        msg.position = self.jtc.q.tolist() + [half, half]
        msg.velocity = [0.0] * (len(ARM) + 2)
        self.joint_pub.publish(msg)


def main() -> int:
    return run_node(FakeDriver, configure_dds=False)  # DDS: set up above


if __name__ == "__main__":
    sys.exit(main())
