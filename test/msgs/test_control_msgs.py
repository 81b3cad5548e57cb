"""control_msgs built from its field lists is the control_msgs of ros2_control (Kilted).

Upstream: ros-controls/control_msgs, branch master, commit
13dacdd8748264b6cd7cbbc9893c18c90e24be00 (release 6.8.0); these seven files are byte-identical
in Kilted's current release 6.10.0 (ros2-gbp/control_msgs-release, tag
release/kilted/control_msgs/6.10.0-1, commit f7e8631c2188e9123736e1b9002af3dc4e245b91).
GOLDEN hashes: rosbags 0.11.9's Typestore.hash_rihs01 (via test/msgs/rihs01.py, which spells
out the generated service/action parts) of upstream's files as fetched at that commit, computed
once in a scratch script outside the repo -- not from our files, not from our build. A Jazzy
install's `ros2 topic info -v` of a JTC's controller_state shows the same
JointTrajectoryControllerState hash. Jazzy's FollowJointTrajectory differs (no feedback
`index` / `multi_dof_index`): RIHS01_738ebcb7a2d7cfa42f9f1001cc99ce3a4383d1cfe508015d9be8485e4b1c66f6.
"""
from __future__ import annotations

import pytest
from interface_checks import Golden, check_rosbags_agrees_with_rosidl, check_type, interface_files

PACKAGE = "control_msgs"
POINT, MDOF_POINT = "trajectory_msgs/JointTrajectoryPoint", "trajectory_msgs/MultiDOFJointTrajectoryPoint"
GRIPPER_STATE = {"position": "double", "effort": "double", "stalled": "boolean", "reached_goal": "boolean"}

GOLDEN = {
    "control_msgs/msg/GripperCommand": Golden(
        "RIHS01_57eb8f326c9889ca8bb34ead82cc94cc09bf6bc5c3b6c09546dca3a00b589890",
        fields={"": {"position": "double", "max_effort": "double"}},
    ),
    "control_msgs/msg/JointComponentTolerance": Golden(
        "RIHS01_739ea7566931944d33830fa10f1bf5e7a7fbdc3172bce7a7eaac642bd6e3ffa4",
        fields={"": {"joint_name": "string", "component": "uint16", "position": "double",
                     "velocity": "double", "acceleration": "double"}},
        constants={"": {"X_AXIS": 1, "Y_AXIS": 2, "Z_AXIS": 3, "TRANSLATION": 4, "ROTATION": 5}},
    ),
    "control_msgs/msg/JointTolerance": Golden(
        "RIHS01_c254f9cece0f3b733017b6990fd46d1326e25242d6b8844398c97d9a88e7d648",
        fields={"": {"name": "string", "position": "double", "velocity": "double", "acceleration": "double"}},
    ),
    "control_msgs/msg/JointTrajectoryControllerState": Golden(
        "RIHS01_51d8dd89cc624cbe9daaeeb4d80d6de9b86168ffdc3be41fefc0953e3c26e480",
        fields={"": {"header": "std_msgs/Header", "joint_names": "sequence<string>",
                     "reference": POINT, "feedback": POINT, "error": POINT, "output": POINT,
                     "multi_dof_joint_names": "sequence<string>",
                     "multi_dof_reference": MDOF_POINT, "multi_dof_feedback": MDOF_POINT,
                     "multi_dof_error": MDOF_POINT, "multi_dof_output": MDOF_POINT,
                     "speed_scaling_factor": "double"}},
    ),
    "control_msgs/msg/SpeedScalingFactor": Golden(
        "RIHS01_0c240f349f2b74e33e8741f83e0f196ddeb6585923663876ed3c1f51f0566037",
        fields={"": {"factor": "double"}},
    ),
    "control_msgs/action/FollowJointTrajectory": Golden(
        "RIHS01_ff29901b2693f5deb847e96084a1c2cdb26e70b7c847be21859b70a55fb29cf0",
        fields={
            "Goal": {"trajectory": "trajectory_msgs/JointTrajectory",
                     "multi_dof_trajectory": "trajectory_msgs/MultiDOFJointTrajectory",
                     "path_tolerance": "sequence<control_msgs/JointTolerance>",
                     "component_path_tolerance": "sequence<control_msgs/JointComponentTolerance>",
                     "goal_tolerance": "sequence<control_msgs/JointTolerance>",
                     "component_goal_tolerance": "sequence<control_msgs/JointComponentTolerance>",
                     "goal_time_tolerance": "builtin_interfaces/Duration"},
            "Result": {"error_code": "int32", "error_string": "string"},
            "Feedback": {"header": "std_msgs/Header", "joint_names": "sequence<string>",
                         "desired": POINT, "actual": POINT, "error": POINT, "index": "int32",
                         "multi_dof_joint_names": "sequence<string>", "multi_dof_desired": MDOF_POINT,
                         "multi_dof_actual": MDOF_POINT, "multi_dof_error": MDOF_POINT,
                         "multi_dof_index": "int32"},
        },
        constants={"Result": {"SUCCESSFUL": 0, "INVALID_GOAL": -1, "INVALID_JOINTS": -2,
                              "OLD_HEADER_TIMESTAMP": -3, "PATH_TOLERANCE_VIOLATED": -4,
                              "GOAL_TOLERANCE_VIOLATED": -5}},
    ),
    "control_msgs/action/GripperCommand": Golden(
        "RIHS01_e17c0e644eccf14bea84a0a93e0977182872c2eb7873ca6694900059b46dbc84",
        fields={"Goal": {"command": "control_msgs/GripperCommand"},
                "Result": GRIPPER_STATE, "Feedback": GRIPPER_STATE},
    ),
}


@pytest.mark.parametrize("full_name", sorted(GOLDEN))
def test_type_is_upstreams(full_name):
    check_type(full_name, GOLDEN[full_name])


def test_every_interface_file_has_a_golden_hash():
    assert sorted(interface_files(PACKAGE)) == sorted(GOLDEN)


def test_rosbags_computes_the_hashes_rosidl_installed():
    """Two implementations, one input (our files): rosidl at build time, rosbags here."""
    assert check_rosbags_agrees_with_rosidl(PACKAGE) >= len(GOLDEN)


@pytest.mark.ros
def test_a_controller_state_publisher_announces_the_golden_hash(ros_node):
    """What a subscriber on another machine sees in discovery: type name and hash."""
    from control_msgs.msg import JointTrajectoryControllerState

    node, topic = ros_node.node, "/joint_trajectory_controller/controller_state"
    node.create_publisher(JointTrajectoryControllerState, topic, 10)
    ros_node.wait_for_publisher(topic)
    infos = node.get_publishers_info_by_topic(topic)
    assert [i.topic_type for i in infos] == ["control_msgs/msg/JointTrajectoryControllerState"]
    assert str(infos[0].topic_type_hash) == GOLDEN["control_msgs/msg/JointTrajectoryControllerState"].hash
