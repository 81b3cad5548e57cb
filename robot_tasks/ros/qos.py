"""QoS profiles several processes share (one definition each, so publisher and subscriber match)."""
from __future__ import annotations

from rclpy.qos import DurabilityPolicy, QoSProfile, ReliabilityPolicy

# "Latched": the last message is kept for late joiners (robot_description, camera/pose,
# markers) -- ROS 2's transient_local, reliable, depth 1.
LATCHED = QoSProfile(depth=1, reliability=ReliabilityPolicy.RELIABLE,
                     durability=DurabilityPolicy.TRANSIENT_LOCAL)
