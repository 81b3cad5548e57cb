"""Where the arm is, seen on the robot's own computer: joint_states as timed JSON lines.

    python -m robot_tasks.testing.joint_probe panda/joint_states --seconds 60 --rate 10

A link fault cuts the task host off from the robot; what the robot itself does meanwhile
(does its controller finish the trajectory it accepted, or hold?) is only visible on the
robot's side of the cable. This client runs there and prints, at most `--rate` times a
second, {"t": wall time (time.time, one clock for both namespaces), "q": [...], "v": [...]}.
DDS as every CLI: loopback unless ROBOT_TASKS_DDS=system.
"""
from __future__ import annotations

import argparse
import json
import sys
import time


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("topic")
    parser.add_argument("--seconds", type=float, default=60.0, help="wall s to run")
    parser.add_argument("--rate", type=float, default=10.0, help="lines per second at most")
    args = parser.parse_args(argv)
    from rclpy.qos import qos_profile_sensor_data
    from sensor_msgs.msg import JointState

    from robot_tasks.ros.client import RosClient

    last = [0.0]

    def on_joints(msg) -> None:
        now = time.time()
        if now - last[0] >= 1.0 / args.rate:
            last[0] = now
            print(json.dumps({"t": round(now, 3), "q": [round(x, 4) for x in msg.position],
                              "v": [round(x, 4) for x in msg.velocity]}), flush=True)

    with RosClient("joint_probe") as ros:
        ros.node.create_subscription(JointState, args.topic, on_joints, qos_profile_sensor_data)
        try:
            ros.wait_for(lambda: False, args.seconds)     # spins the callbacks until the time is up
        except KeyboardInterrupt:
            pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
