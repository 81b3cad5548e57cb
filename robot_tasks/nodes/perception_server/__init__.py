"""The perception_server: RGB-D camera topics in, DetectObjects results and a stream of
DetectedObjectArray out (the ROS shell around robot_tasks.perception.Detector).

Topics (relative names; remap or set the *_topic parameters):
  sub  camera/image_raw        sensor_msgs/Image  rgb8 | bgr8 | rgba8 | bgra8   (reliable*)
  sub  camera/depth/image_raw  sensor_msgs/Image  32FC1 metres | 16UC1 mm      (reliable*)
  sub  camera/camera_info      sensor_msgs/CameraInfo (K)                      (reliable*)
  sub  camera/pose             geometry_msgs/PoseStamped of the optical frame  (transient_local)
  pub  detections              robot_tasks_interfaces/DetectedObjectArray
  action detect_objects        robot_tasks_interfaces/action/DetectObjects
*) parameter camera_reliability: reliable (default; large best-effort samples get lost
over loopback UDP) or best_effort (for drivers that publish sensor-data QoS).
It never subscribes to the sim's ground truth (`objects`).

Camera pose: there is no tf2 here. The pose of the camera's optical frame (x right,
y down, z forward) in the world comes from the `camera/pose` topic when a message has
arrived on it (it takes precedence, so a moved camera is followed), else from the
parameter `camera_pose` = [x, y, z, qx, qy, qz, qw]. With neither, goals end NO_IMAGE
saying so.

DetectObjects: the goal waits for an rgb+depth pair (matched by stamp) that arrives
after the goal, up to the goal's timeout (0 = parameter default_timeout), runs the
detector on it, keeps the requested labels (empty = all) and confidences, and returns
the objects in the world frame; result.header.stamp is the image's capture stamp.
Error codes: INVALID_GOAL (unknown label, min_confidence outside [0, 1], negative or
NaN timeout; the goal is accepted, then aborted with the reason), NO_IMAGE (no fresh
frame, camera_info or pose within the timeout; the message says which), TIMEOUT
(frame arrived but detection did not finish in time), PROCESSING_FAILED (unsupported
encoding, bad camera_info or pose, malformed image), CANCELLED, INTERNAL_ERROR.

Stream: at `stream_rate` Hz (wall clock) the newest pair is detected and published on
`detections` (min_confidence parameter applied), unless it was already published or a
detection is still running (then the tick is skipped: the stream never queues up).

Parameters: parameters.py. Threads: server.py. Modules: image_convert.py,
camera_convert.py, detection_msgs.py (message conversions), camera_feed.py (pairing),
detection_worker.py, goal_runner.py, goal_check.py, thread_bridge.py, run.py.
"""
