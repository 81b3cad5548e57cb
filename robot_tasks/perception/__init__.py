"""robot_tasks.perception: RGB-D frames in, labelled object poses in the world frame out.

numpy and OpenCV (``opencv-python-headless``, the setup.py extra "perception"), no ROS:
OpenCV does the per-pixel and per-outline work -- colour conversion, connected components,
convex hulls for the minimum-area rectangles, the erosion that finds occluded edges --
and the shape fitters are small numpy functions of one blob's 3-D points. The
perception_server node is a thin shell around :class:`Detector`.

Input contract (one frame)
--------------------------
rgb             uint8 array (H, W, 3); (H, W, 4) RGBA is accepted and the alpha ignored.
depth           float array (H, W), metres along the optical axis (the z of the point,
                not the length of the ray). 0, NaN and inf mean "no return".
                16UC1 millimetre images: pass ``depth.astype(np.float32) / 1000``.
intrinsics      :class:`CameraIntrinsics` (fx, fy, cx, cy, width, height) -- the K
                matrix of sensor_msgs/CameraInfo: ``CameraIntrinsics.from_k(msg.k,
                msg.width, msg.height)``. Pixel centres at integer (u, v), u right, v down.
world_T_camera  4x4 rigid transform taking points in the camera's *optical* frame
                (x right, y down, z forward -- ROS ``*_optical_frame``) to the world;
                ``pose_from_position_quaternion(xyz, qxyzw)`` builds it from parameters.
support_height  optional world z of the table top; estimated per frame when omitted.

Output contract
---------------
``Detector.detect`` returns a list of :class:`Detection` (label, position, orientation
quaternion xyzw, size, confidence 0..1, pixel_count, upside_down, bbox, truncated), all
in the world frame, sorted by label and then position so equal scenes give equal lists.
Malformed input raises :class:`PerceptionInputError` naming the argument; a frame with
no valid depth returns ``[]``.

What it recognises (see catalog.py; extend by adding ObjectSpecs)
-----------------------------------------------------------------
5 cm cubes (red, blue, green, yellow, orange, purple; level or tilted, e.g. leaning on
another), the YCB banana, the YCB bowl and open KLT-like bins (including whether a bin is
upside down).

PyBullet
--------
The sim renders with ``getCameraImage`` (OpenGL conventions). ``camera_from_pybullet``
turns its view/projection matrices into (intrinsics, world_T_camera) and
``depth_from_pybullet_buffer`` its depth buffer into metres; see pybullet_camera.py for
the half-pixel sampling offset of ER_TINY_RENDERER.

    from robot_tasks.perception import Detector, camera_from_pybullet, depth_from_pybullet_buffer
    intrinsics, world_T_camera = camera_from_pybullet(view, proj, width, height)
    depth = depth_from_pybullet_buffer(zbuffer, near, far)
    for d in Detector().detect(rgb, depth, intrinsics, world_T_camera):
        print(d.label, d.position, d.confidence)
"""
from robot_tasks.perception.camera import CameraIntrinsics, pose_from_position_quaternion
from robot_tasks.perception.catalog import DEFAULT_CATALOG, ObjectSpec
from robot_tasks.perception.color import ColorClass
from robot_tasks.perception.detection import Detection, PixelBox
from robot_tasks.perception.detector import Detector, DetectorConfig, detect_objects
from robot_tasks.perception.errors import PerceptionInputError
from robot_tasks.perception.pybullet_camera import (
                                                    camera_from_pybullet,
                                                    depth_from_pybullet_buffer,
                                                    intrinsics_from_pybullet_projection,
                                                    near_far_from_pybullet_projection,
                                                    pose_from_pybullet_view,
)

__all__ = [
    "CameraIntrinsics", "ColorClass", "DEFAULT_CATALOG", "Detection", "Detector", "DetectorConfig",
    "ObjectSpec", "PerceptionInputError", "PixelBox", "camera_from_pybullet",
    "depth_from_pybullet_buffer", "detect_objects", "intrinsics_from_pybullet_projection",
    "near_far_from_pybullet_projection", "pose_from_position_quaternion", "pose_from_pybullet_view",
]
