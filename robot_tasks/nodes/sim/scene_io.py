"""The scene's ROS outputs besides the robots: the RGB-D camera and ground truth.

Camera (relative names, so `-r __ns:=` moves them): `camera/image_raw` (rgb8),
`camera/depth/image_raw` (32FC1, metres along the optical axis), `camera/camera_info`
(K, P; frame_id = `camera_optical_frame`: z forward, x right, y down) and
`camera/pose` (geometry_msgs/PoseStamped of that optical frame in "world",
transient_local — there is no tf2 here, so this is how perception learns where the
camera is).

Ground truth: `objects` (robot_tasks_interfaces/ObjectStateArray) and
`object_markers` (visualization_msgs/MarkerArray, one box per object) — for
evaluation and rviz only; trees must decide from perception, not from these.
"""
from __future__ import annotations

from builtin_interfaces.msg import Time
from geometry_msgs.msg import PoseStamped
from sensor_msgs.msg import CameraInfo, Image
from visualization_msgs.msg import MarkerArray

from robot_tasks.nodes.sim.convert import (
    WORLD_FRAME,
    camera_info,
    delete_all_marker,
    depth_image,
    object_marker,
    pose_stamped,
    rgb_image,
    set_stamp,
)
from robot_tasks.nodes.sim.wire import ObjectStatesWire
from robot_tasks.ros.qos import LATCHED
from robot_tasks_interfaces.msg import ObjectStateArray

CAMERA_NAME = "scene"
OPTICAL_FRAME = "camera_optical_frame"


class CameraIO:
    """Renders the scene camera at the configured size and publishes image, depth, info —
    only while somebody subscribes to one of them, like a lazy image_transport publisher."""

    def __init__(self, node, world, width: int, height: int):
        self.node = node
        self.world = world
        self.width, self.height = width, height
        self._image_pub = node.create_publisher(Image, "camera/image_raw", 2)
        self._depth_pub = node.create_publisher(Image, "camera/depth/image_raw", 2)
        self._info_pub = node.create_publisher(CameraInfo, "camera/camera_info", 2)
        self._pose_pub = node.create_publisher(PoseStamped, "camera/pose", LATCHED)
        self.rebind()

    def rebind(self) -> None:
        """(Re)create the resized camera from the world's scene camera; publish its pose."""
        self.camera = self.world.camera(CAMERA_NAME).resized(self.width, self.height)
        self._info = camera_info(self.camera.intrinsics(), OPTICAL_FRAME)
        position, orientation = self.camera.optical_pose()
        self._pose_pub.publish(pose_stamped(position, orientation, WORLD_FRAME))

    def watched(self) -> bool:
        """Does anybody read the camera? Rendering costs 20-40 ms a frame: skip it if not."""
        return any(pub.get_subscription_count() for pub in (self._image_pub, self._depth_pub, self._info_pub))

    def publish(self, ros_seconds: float) -> bool:
        """Render and send one frame if anybody reads the camera; True if it did."""
        if not self.watched():
            return False
        frame = self.camera.capture()
        rgb = rgb_image(frame.rgb, OPTICAL_FRAME)
        depth = depth_image(frame.depth, OPTICAL_FRAME)
        for msg in (rgb, depth, self._info):
            set_stamp(msg.header.stamp, ros_seconds)
        self._image_pub.publish(rgb)
        self._depth_pub.publish(depth)
        self._info_pub.publish(self._info)
        return True


class ObjectsIO:
    """Publishes every tracked object's ground-truth state, and markers when they move.

    `objects` goes out pre-serialized (wire.ObjectStatesWire; rebuilt when the object set
    changes).  `object_markers` is transient_local and sent only when an object moved
    more than MARKER_MOVE (or appeared): rviz keeps markers until told otherwise, so
    resending still objects would only cost time.
    """

    MARKER_MOVE = 1e-3        # m, and about 1e-3 rad of rotation (via quaternion dot)

    def __init__(self, node, world):
        self.world = world
        self._states_pub = node.create_publisher(ObjectStateArray, "objects", 10)
        self._markers_pub = node.create_publisher(MarkerArray, "object_markers", LATCHED)
        self._wire: ObjectStatesWire | None = None
        self._marked: dict = {}         # object name -> (position, orientation) last marked
        self._clear_markers = False

    def rebind(self) -> None:
        """After a reset the object set may shrink (conveyor bins): clear old markers once."""
        self._wire = None
        self._marked.clear()
        self._clear_markers = True

    def publish(self, ros_seconds: float) -> None:
        states = self.world.object_states()
        wire = self._wire
        if wire is None or len(wire.names) != len(states):     # objects only ever get added
            wire = self._wire = ObjectStatesWire(states, WORLD_FRAME)
        self._states_pub.publish(wire.serialize(ros_seconds, states))
        if self._clear_markers or self._moved(states):
            self._publish_markers(states, ros_seconds)

    def _moved(self, states) -> bool:
        marked, limit = self._marked, self.MARKER_MOVE
        for s in states:
            last = marked.get(s.name)
            if last is None:
                return True
            (x, y, z), q = last
            px, py, pz = s.position
            if abs(px - x) > limit or abs(py - y) > limit or abs(pz - z) > limit:
                return True
            o = s.orientation
            if abs(o[0] * q[0] + o[1] * q[1] + o[2] * q[2] + o[3] * q[3]) < 1.0 - 1e-7:
                return True
        return False

    def _publish_markers(self, states, ros_seconds: float) -> None:
        stamp = Time()
        set_stamp(stamp, ros_seconds)
        markers = MarkerArray()
        if self._clear_markers:
            markers.markers.append(delete_all_marker())
            self._clear_markers = False
        objects = self.world.objects
        markers.markers.extend(object_marker(s, i, objects[s.name].rgba, stamp) for i, s in enumerate(states))
        self._markers_pub.publish(markers)
        self._marked = {s.name: (s.position, s.orientation) for s in states}
