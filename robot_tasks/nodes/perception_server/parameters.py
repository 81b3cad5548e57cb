"""The perception_server's parameters: declared in one place, checked, with reasons on error.

| parameter          | default                 | meaning                                            |
|--------------------|-------------------------|----------------------------------------------------|
| image_topic        | camera/image_raw        | sensor_msgs/Image rgb8, bgr8, rgba8 or bgra8        |
| depth_topic        | camera/depth/image_raw  | sensor_msgs/Image 32FC1 (m) or 16UC1 (mm)           |
| camera_info_topic  | camera/camera_info      | sensor_msgs/CameraInfo (K of the images)            |
| camera_pose_topic  | camera/pose             | geometry_msgs/PoseStamped of the optical frame in    |
|                    |                         | the world (transient_local); "" = don't subscribe  |
| camera_pose        | [] (unset)              | [x, y, z, qx, qy, qz, qw] of the optical frame;     |
|                    |                         | used until/unless the pose topic has a message     |
| camera_reliability | reliable                | QoS of the camera readers: reliable | best_effort  |
|                    |                         | (must match the driver: best_effort for drivers    |
|                    |                         | publishing sensor-data QoS)                        |
| world_frame        | world                   | frame_id of results and of the pose topic          |
| support_height     | unset                   | table-top z [m]; unset = estimated per frame       |
| stream_rate        | 2.0                     | Hz of the detections topic; 0 = off                |
| min_confidence     | 0.0                     | confidence floor of the *streamed* detections      |
| labels             | [] (all)                | catalogue labels to look for (perception/catalog.py)|
|                    |                         | e.g. [red_cube, blue_cube]; a goal asking for any  |
|                    |                         | other label is rejected with this list             |
| detections_topic   | detections              | robot_tasks_interfaces/DetectedObjectArray         |
|                    |                         | (and `detection_markers`, the same as rviz2 boxes) |
| action_name        | detect_objects          | robot_tasks_interfaces/action/DetectObjects        |
| default_timeout    | 5.0                     | s a goal with timeout 0 waits for a frame + result |
| sync_tolerance     | 0.01                    | s between rgb and depth stamps of one pair          |

Numbers accept ints or floats (`-p stream_rate:=1`). Topic names are relative, so
`-r __ns:=/robot1` or `-r camera/image_raw:=/rs/color/image_raw` work as usual.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from robot_tasks.nodes.perception_server.camera_convert import CameraModelError, pose_from_list
from robot_tasks.perception.catalog import catalog_for
from robot_tasks.ros.errors import ParameterError
from robot_tasks.ros.parameters import declare


@dataclass(frozen=True)
class PerceptionConfig:
    image_topic: str
    depth_topic: str
    camera_info_topic: str
    camera_pose_topic: str
    camera_pose: np.ndarray | None
    camera_reliability: str
    world_frame: str
    support_height: float | None
    stream_rate: float
    min_confidence: float
    labels: tuple
    detections_topic: str
    action_name: str
    default_timeout: float
    sync_tolerance: float


def declare_perception_params(node) -> PerceptionConfig:
    """Declare every parameter on `node`, read them, and check them (ParameterError)."""
    def name(param, default, text, allow_empty=False):
        return declare(node, param, default, text, allow_empty=allow_empty)

    return PerceptionConfig(
        image_topic=name("image_topic", "camera/image_raw", "sensor_msgs/Image rgb8|bgr8|rgba8|bgra8"),
        depth_topic=name("depth_topic", "camera/depth/image_raw", "sensor_msgs/Image 32FC1 m | 16UC1 mm"),
        camera_info_topic=name("camera_info_topic", "camera/camera_info", "sensor_msgs/CameraInfo"),
        camera_pose_topic=name("camera_pose_topic", "camera/pose", "latched PoseStamped; '' = none",
                               allow_empty=True),
        camera_pose=_camera_pose(node, declare(node, "camera_pose", None, "x y z qx qy qz qw of the "
                                               "optical frame in the world", kind=list)),
        camera_reliability=declare(node, "camera_reliability", "reliable", "QoS of the camera readers",
                                   choices=("reliable", "best_effort")),
        world_frame=name("world_frame", "world", "frame_id of results and of the pose topic"),
        support_height=declare(node, "support_height", None, "table-top z [m]; unset = estimated",
                               kind=float),
        stream_rate=declare(node, "stream_rate", 2.0, "Hz of the detections topic; 0 = off",
                            minimum=0.0, maximum=1000.0),
        min_confidence=declare(node, "min_confidence", 0.0, "floor of the streamed detections",
                               minimum=0.0, maximum=1.0),
        labels=_labels(node, declare(node, "labels", [], "catalogue labels to look for; [] = all", kind=str)),
        detections_topic=name("detections_topic", "detections", "DetectedObjectArray stream"),
        action_name=name("action_name", "detect_objects", "DetectObjects action name"),
        default_timeout=declare(node, "default_timeout", 5.0, "s a goal with timeout 0 waits",
                                minimum=0.0, open_minimum=True),
        sync_tolerance=declare(node, "sync_tolerance", 0.01, "s between rgb and depth stamps",
                               minimum=0.0, maximum=10.0),
    )


def _labels(node, values) -> tuple:
    try:
        return tuple(spec.label for spec in catalog_for(values or []))
    except ValueError as err:
        raise ParameterError("labels", f": {err}", node=node.get_name()) from err


def _camera_pose(node, values) -> np.ndarray | None:
    if values is None:
        return None
    try:
        return pose_from_list(values)
    except CameraModelError as err:
        raise ParameterError("camera_pose", f": {err}", node=node.get_name()) from err
