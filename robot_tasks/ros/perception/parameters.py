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
| detections_topic   | detections              | robot_tasks_interfaces/DetectedObjectArray         |
| action_name        | detect_objects          | robot_tasks_interfaces/action/DetectObjects        |
| default_timeout    | 5.0                     | s a goal with timeout 0 waits for a frame + result |
| sync_tolerance     | 0.01                    | s between rgb and depth stamps of one pair          |

Numbers accept ints or floats (`-p stream_rate:=1`). Topic names are relative, so
`-r __ns:=/robot1` or `-r camera/image_raw:=/rs/color/image_raw` work as usual.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from rcl_interfaces.msg import ParameterDescriptor

from robot_tasks.ros.perception.camera_convert import CameraModelError, pose_from_list


class PerceptionParamError(ValueError):
    """A parameter value the node cannot run with; the message names the parameter."""


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
    detections_topic: str
    action_name: str
    default_timeout: float
    sync_tolerance: float


STRINGS = dict(image_topic="camera/image_raw", depth_topic="camera/depth/image_raw",
               camera_info_topic="camera/camera_info", camera_pose_topic="camera/pose",
               camera_reliability="reliable", world_frame="world", detections_topic="detections", action_name="detect_objects")
NUMBERS = dict(stream_rate=2.0, min_confidence=0.0, default_timeout=5.0, sync_tolerance=0.01)
_DYNAMIC = ParameterDescriptor(dynamic_typing=True)   # 1 as well as 1.0; lists of ints or floats


def _number(node, name: str, lo: float, hi: float = math.inf, lo_open: bool = False) -> float:
    value = node.get_parameter(name).value
    ok = isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)
    if ok:
        value = float(value)
        ok = (value > lo if lo_open else value >= lo) and value <= hi
    if not ok:
        bound = f"> {lo:g}" if lo_open else f">= {lo:g}"
        upper = f" and <= {hi:g}" if math.isfinite(hi) else ""
        raise PerceptionParamError(f"parameter '{name}' must be a finite number {bound}{upper}, got {value!r}")
    return value


def _string(node, name: str, allow_empty: bool = False) -> str:
    value = node.get_parameter(name).value
    if not isinstance(value, str) or (not value and not allow_empty):
        raise PerceptionParamError(f"parameter '{name}' must be a non-empty string, got {value!r}")
    return value


def _choice(node, name: str, choices: tuple[str, ...]) -> str:
    value = node.get_parameter(name).value
    if value not in choices:
        raise PerceptionParamError(f"parameter '{name}' must be one of {', '.join(choices)}, got {value!r}")
    return value


def _camera_pose(node) -> np.ndarray | None:
    value = node.get_parameter("camera_pose").value
    if value is None or (isinstance(value, (list, tuple)) and len(value) == 0):
        return None
    if not isinstance(value, (list, tuple)) or any(isinstance(v, (bool, str)) for v in value):
        raise PerceptionParamError(f"parameter 'camera_pose' must be 7 numbers [x, y, z, qx, qy, qz, qw], got {value!r}")
    try:
        return pose_from_list(value)
    except CameraModelError as err:
        raise PerceptionParamError(str(err)) from err


def _support_height(node) -> float | None:
    value = node.get_parameter("support_height").value
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise PerceptionParamError(f"parameter 'support_height' must be a finite number of metres "
                                   f"(or left unset), got {value!r}")
    return float(value)


def declare_perception_params(node) -> PerceptionConfig:
    """Declare every parameter on `node`, read them, and check them (PerceptionParamError)."""
    for name, default in {**STRINGS, **NUMBERS}.items():
        node.declare_parameter(name, default, _DYNAMIC)
    node.declare_parameter("camera_pose", None, _DYNAMIC)
    node.declare_parameter("support_height", None, _DYNAMIC)
    return PerceptionConfig(
        image_topic=_string(node, "image_topic"),
        depth_topic=_string(node, "depth_topic"),
        camera_info_topic=_string(node, "camera_info_topic"),
        camera_pose_topic=_string(node, "camera_pose_topic", allow_empty=True),
        camera_pose=_camera_pose(node),
        camera_reliability=_choice(node, "camera_reliability", ("reliable", "best_effort")),
        world_frame=_string(node, "world_frame"),
        support_height=_support_height(node),
        stream_rate=_number(node, "stream_rate", 0.0, 1000.0),
        min_confidence=_number(node, "min_confidence", 0.0, 1.0),
        detections_topic=_string(node, "detections_topic"),
        action_name=_string(node, "action_name"),
        default_timeout=_number(node, "default_timeout", 0.0, lo_open=True),
        sync_tolerance=_number(node, "sync_tolerance", 0.0, 10.0),
    )
