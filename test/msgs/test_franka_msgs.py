"""franka_msgs built from its field lists is franka_ros2's (the part franka_gripper serves).

Upstream: frankarobotics/franka_ros2, latest release v3.4.0 (branch jazzy), commit
29cb85a677b8f08888a0eb6f553ba89666ef64f7, folder franka_msgs/; the five files are the same
in v2.5.0 (branch humble). GOLDEN hashes: rosbags 0.11.9's Typestore.hash_rihs01 (via
test/msgs/rihs01.py, which spells out the generated action parts) of upstream's files as
fetched at that commit, computed once in a scratch script outside the repo -- not from our
files, not from our build.
"""
from __future__ import annotations

import pytest
from interface_checks import Golden, check_rosbags_agrees_with_rosidl, check_type, interface_files

PACKAGE = "franka_msgs"
OUTCOME = {"success": "boolean", "error": "string"}
WIDTH = {"current_width": "double"}

GOLDEN = {
    "franka_msgs/msg/GraspEpsilon": Golden(
        "RIHS01_387fda91ae7324c144958fa617e7d5dc21f99d6b054b141b073ead3d082f46d3",
        fields={"": {"inner": "double", "outer": "double"}},
    ),
    "franka_msgs/action/ErrorRecovery": Golden(
        "RIHS01_6c5dbf0517672f7127a92796e6a162d096e286c26f88c96177cb4c5448dfc5f5",
        fields={"Goal": {}, "Result": {}, "Feedback": {}},
    ),
    "franka_msgs/action/Grasp": Golden(
        "RIHS01_8e8a4bb9d96564ae56fb2d47e932c65656316f5c10365958a26df3517a06bb92",
        fields={"Goal": {"width": "double", "epsilon": "franka_msgs/GraspEpsilon",
                         "speed": "double", "force": "double"},
                "Result": OUTCOME, "Feedback": WIDTH},
    ),
    "franka_msgs/action/Homing": Golden(
        "RIHS01_2156a4bd902561e59e6081ba94428daf9a453f960596f8b7ca12e8281e0caeeb",
        fields={"Goal": {}, "Result": OUTCOME, "Feedback": WIDTH},
    ),
    "franka_msgs/action/Move": Golden(
        "RIHS01_ff1f93537cae0ce92792433e368199606771ad62bb819d78078bfe37144d3ef1",
        fields={"Goal": {"width": "double", "speed": "double"}, "Result": OUTCOME, "Feedback": WIDTH},
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


def test_grasp_epsilon_defaults_are_upstreams():
    """Default values are not part of the hash: upstream's are 0.005 m each way."""
    from franka_msgs.action import Grasp
    from franka_msgs.msg import GraspEpsilon

    assert (GraspEpsilon().inner, GraspEpsilon().outer) == (0.005, 0.005)
    assert Grasp.Goal().epsilon == GraspEpsilon(inner=0.005, outer=0.005)
