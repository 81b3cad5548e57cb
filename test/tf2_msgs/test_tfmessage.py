"""tf2_msgs built from its field list is the type every ROS 2 tool expects on /tf.

A ROS 2 tool (rviz2, `ros2 topic echo`, tf2_ros) matches a topic by its DDS type name
and, since Iron, by the type description hash (RIHS01) that rosidl computes from the
package name, type name and fields. GOLDEN_HASH is the hash that ROS 2's own tf2_msgs
publishes (`ros2 topic info -v /tf` on a ROS 2 install shows it), so equal hashes mean
a real install reads our /tf unchanged.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

GOLDEN_HASH = "RIHS01_e369d0f05a23ae52508854b66f6aa0437f3449d652e8cbf22d5abe85d020f087"


def installed_type_description() -> dict:
    path = Path(sys.prefix) / "share" / "tf2_msgs" / "msg" / "TFMessage.json"
    assert path.is_file(), f"{path} missing: build tf2_msgs (make setup)"
    return json.loads(path.read_text())


def test_type_name_fields_and_hash_are_ros2s():
    from tf2_msgs.msg import TFMessage

    assert TFMessage.get_fields_and_field_types() == {"transforms": "sequence<geometry_msgs/TransformStamped>"}
    description = installed_type_description()
    assert description["type_description_msg"]["type_description"]["type_name"] == "tf2_msgs/msg/TFMessage"
    own = [h["hash_string"] for h in description["type_hashes"] if h["type_name"] == "tf2_msgs/msg/TFMessage"]
    assert own == [GOLDEN_HASH]


def test_serialized_round_trip():
    from geometry_msgs.msg import TransformStamped
    from rclpy.serialization import deserialize_message, serialize_message

    from tf2_msgs.msg import TFMessage

    t = TransformStamped()
    t.header.frame_id, t.child_frame_id = "world", "panda/panda_link0"
    t.transform.translation.z, t.transform.rotation.w = 0.625, 1.0
    back = deserialize_message(serialize_message(TFMessage(transforms=[t, t])), TFMessage)
    assert [x.child_frame_id for x in back.transforms] == ["panda/panda_link0"] * 2
    assert back.transforms[1].transform.translation.z == 0.625


@pytest.mark.ros
def test_a_tf_publisher_announces_the_golden_hash(ros_node):
    """What a subscriber on another machine sees in discovery: type name and hash."""
    from tf2_msgs.msg import TFMessage

    node = ros_node.node
    node.create_publisher(TFMessage, "/tf", 10)
    ros_node.wait_for_publisher("/tf")
    infos = node.get_publishers_info_by_topic("/tf")
    assert [i.topic_type for i in infos] == ["tf2_msgs/msg/TFMessage"]
    assert str(infos[0].topic_type_hash) == GOLDEN_HASH
