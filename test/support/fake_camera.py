"""A fake RGB-D camera driver: replays recorded frames over the camera topic contract.

No physics and no PyBullet: it reads an .npz written by record_frames.py and publishes,
relative to its namespace, like the sim (or a RealSense driver) does:
    camera/image_raw        sensor_msgs/Image  (`encoding`: rgb8 or bgr8)
    camera/depth/image_raw  sensor_msgs/Image  (`depth_encoding`: 32FC1 m or 16UC1 mm)
    camera/camera_info      sensor_msgs/CameraInfo
    camera/pose             geometry_msgs/PoseStamped, transient_local (if `publish_pose`)
at `rate` Hz of wall time, cycling through the recorded frames; rgb, depth and info of
one frame share one stamp (wall clock). `encoding` may also be any other string
(e.g. "mono8"): the rgb data is then sent labelled with it, to test rejection.

Run: python test/support/fake_camera.py --ros-args -p frames:=/tmp/frames.npz
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # repo root, for robot_tasks

from robot_tasks.ros.dds import configure_loopback_dds  # noqa: E402  (imports no ROS)
from robot_tasks.ros.node_main import run_node  # noqa: E402  (imports no ROS)

configure_loopback_dds()

import numpy as np  # noqa: E402
from geometry_msgs.msg import PoseStamped  # noqa: E402
from rclpy.node import Node  # noqa: E402
from rclpy.qos import DurabilityPolicy, QoSProfile, ReliabilityPolicy  # noqa: E402
from sensor_msgs.msg import CameraInfo, Image  # noqa: E402

LATCHED = QoSProfile(depth=1, reliability=ReliabilityPolicy.RELIABLE,
                     durability=DurabilityPolicy.TRANSIENT_LOCAL)
OPTICAL_FRAME = "camera_optical_frame"


class FakeCamera(Node):
    def __init__(self):
        super().__init__("fake_camera")
        path = self.declare_parameter("frames", "").value
        rate = float(self.declare_parameter("rate", 5.0).value)
        self.encoding = self.declare_parameter("encoding", "rgb8").value
        self.depth_encoding = self.declare_parameter("depth_encoding", "32FC1").value
        publish_pose = bool(self.declare_parameter("publish_pose", True).value)
        data = np.load(path)
        self.rgb, self.depth = data["rgb"], data["depth"]
        self.info = CameraInfo(width=int(data["width"]), height=int(data["height"]),
                               distortion_model="plumb_bob")
        self.info.header.frame_id = OPTICAL_FRAME
        self.info.k = [float(v) for v in data["k"]]
        self.info.d = [0.0] * 5
        self.info.r = [1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0]
        k = self.info.k
        self.info.p = [k[0], 0.0, k[2], 0.0, 0.0, k[4], k[5], 0.0, 0.0, 0.0, 1.0, 0.0]
        self.image_pub = self.create_publisher(Image, "camera/image_raw", 2)
        self.depth_pub = self.create_publisher(Image, "camera/depth/image_raw", 2)
        self.info_pub = self.create_publisher(CameraInfo, "camera/camera_info", 2)
        if publish_pose:
            pose = PoseStamped()
            pose.header.frame_id = "world"
            x, y, z, qx, qy, qz, qw = (float(v) for v in data["camera_pose"])
            pose.pose.position.x, pose.pose.position.y, pose.pose.position.z = x, y, z
            o = pose.pose.orientation
            o.x, o.y, o.z, o.w = qx, qy, qz, qw
            self.pose_pub = self.create_publisher(PoseStamped, "camera/pose", LATCHED)
            self.pose_pub.publish(pose)
        self.index = 0
        self.create_timer(1.0 / rate, self.publish_frame)
        self.get_logger().info(f"replaying {len(self.rgb)} frame(s) from {path} at {rate:g} Hz")

    def publish_frame(self) -> None:
        i = self.index % len(self.rgb)
        self.index += 1
        stamp = self.get_clock().now().to_msg()
        rgb = self.rgb[i]
        if self.encoding == "bgr8":
            rgb = rgb[..., ::-1]
        h, w = rgb.shape[:2]
        image = Image(height=h, width=w, encoding=self.encoding, step=w * 3,
                      data=np.ascontiguousarray(rgb).tobytes())
        depth = self.depth[i]
        if self.depth_encoding == "16UC1":
            mm = np.where(np.isfinite(depth), np.round(depth * 1000.0), 0).clip(0, 65535)
            depth_bytes, bpp = mm.astype("<u2").tobytes(), 2
        else:
            depth_bytes, bpp = depth.astype("<f4").tobytes(), 4
        depth_msg = Image(height=h, width=w, encoding=self.depth_encoding, step=w * bpp, data=depth_bytes)
        for msg in (image, depth_msg, self.info):
            msg.header.stamp = stamp
            msg.header.frame_id = OPTICAL_FRAME
        self.image_pub.publish(image)
        self.depth_pub.publish(depth_msg)
        self.info_pub.publish(self.info)


def main() -> int:
    return run_node(FakeCamera, configure_dds=False)  # DDS: set up above


if __name__ == "__main__":
    sys.exit(main())
