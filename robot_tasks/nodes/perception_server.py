"""perception_server node: DetectObjects + a detections stream from RGB-D camera topics.

    python -m robot_tasks.nodes.perception_server --ros-args -p stream_rate:=2.0
    python -m robot_tasks.nodes.perception_server --ros-args \
        -p camera_pose:="[0.95, 0.0, 1.55, 0.6855, 0.6855, -0.1734, -0.1734]"

Topics, parameters and behaviour: robot_tasks/ros/perception/__init__.py.
"""
import sys

from robot_tasks.ros.perception.run import main

if __name__ == "__main__":
    sys.exit(main())
