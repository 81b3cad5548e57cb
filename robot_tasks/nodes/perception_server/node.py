"""PerceptionServer: the ROS shell around robot_tasks.perception.Detector.

Threads, and why:
* executor thread (SingleThreadedExecutor): subscription callbacks only store message
  references in the CameraFeed; action and timer callbacks only hand work over. It
  never runs a detection, so cancels and images are handled while detections run.
* one detection thread (DetectionWorker): every detection, goal or stream, in turn.
* goal threads: each goal's blocking flow (goal_runner.run_goal); their outcome and
  feedback go back to the executor thread through a guard condition (ThreadBridge).
The stream publishes from the detection thread (one publisher, one thread), and only
while somebody subscribes to it: an idle server detects nothing. The camera images (and
/clock) are subscribed only while a goal runs or the stream is watched
(robot_tasks/ros/lazy_subscriptions.py), so an idle cell's camera renders nothing either.
"""
from __future__ import annotations

import concurrent.futures
import functools
import time

from geometry_msgs.msg import PoseStamped
from rclpy.action import ActionServer, CancelResponse, GoalResponse
from rclpy.clock import Clock, ClockType
from rclpy.node import Node
from rclpy.qos import HistoryPolicy, QoSProfile, ReliabilityPolicy
from rclpy.task import Future
from sensor_msgs.msg import CameraInfo, Image
from visualization_msgs.msg import MarkerArray

from robot_tasks.nodes.perception_server.camera_feed import CameraFeed
from robot_tasks.nodes.perception_server.detection_msgs import (
    detected_objects,
    detection_array,
    detection_markers,
    keep,
    set_stamp_ns,
)
from robot_tasks.nodes.perception_server.detection_worker import DetectionWorker, detect_snapshot
from robot_tasks.nodes.perception_server.goal_check import goal_problem
from robot_tasks.nodes.perception_server.goal_runner import CancelToken, GoalOutcome, GoalRequest, run_goal
from robot_tasks.nodes.perception_server.parameters import PerceptionConfig, declare_perception_params
from robot_tasks.nodes.perception_server.thread_bridge import ThreadBridge
from robot_tasks.perception import Detector
from robot_tasks.perception.catalog import catalog_for
from robot_tasks.ros.lazy_subscriptions import ServerStreams
from robot_tasks.ros.qos import LATCHED
from robot_tasks_interfaces.action import DetectObjects
from robot_tasks_interfaces.msg import DetectedObjectArray

Result = DetectObjects.Result
DETECTION_MARKERS_TOPIC = "detection_markers"   # the stream as visualization_msgs/MarkerArray
# Keep only the newest frames: an old frame is worth nothing to perception. Reliable by
# default: measured here, best-effort readers got 1 of 20 rgb/depth images of 320x240 over
# loopback (large samples lose UDP fragments). Drivers that publish best effort need
# camera_reliability:=best_effort (a reliable reader does not match them).
def camera_qos(reliability: str) -> QoSProfile:
    policy = ReliabilityPolicy.BEST_EFFORT if reliability == "best_effort" else ReliabilityPolicy.RELIABLE
    return QoSProfile(depth=2, history=HistoryPolicy.KEEP_LAST, reliability=policy)


MAX_PARALLEL_GOALS = 4
# The camera pose is latched (published once): LATCHED, so a late reader gets it too.


class PerceptionServer(Node):
    def __init__(self, node_name: str = "perception_server", **kwargs):
        super().__init__(node_name, **kwargs)
        self.cfg: PerceptionConfig = declare_perception_params(self)
        cfg = self.cfg
        self.detector = Detector(catalog_for(cfg.labels))      # the scene's objects only
        self.known_labels = sorted({spec.label for spec in self.detector.catalog})
        self.feed = CameraFeed(tolerance_ns=round(cfg.sync_tolerance * 1e9), fallback_pose=cfg.camera_pose)
        self.worker = DetectionWorker()
        self._goal_threads = concurrent.futures.ThreadPoolExecutor(MAX_PARALLEL_GOALS, thread_name_prefix="goal")
        self._bridge = ThreadBridge(self)
        self._cancel_tokens: dict[bytes, CancelToken] = {}

        qos = camera_qos(cfg.camera_reliability)
        self.camera = ServerStreams(self, lambda: [
            self.create_subscription(Image, cfg.image_topic, self.feed.add_rgb, qos),
            self.create_subscription(Image, cfg.depth_topic, self.feed.add_depth, qos),
            self.create_subscription(CameraInfo, cfg.camera_info_topic, self.feed.set_info, qos)],
            needed=lambda: bool(self._cancel_tokens) or self._stream_watched(), start_open=False)
        self._detect = functools.partial(
            detect_snapshot, self.detector, world_frame=cfg.world_frame, support_height=cfg.support_height,
            sources={"rgb": self.resolve_topic_name(cfg.image_topic),
                     "depth": self.resolve_topic_name(cfg.depth_topic)})
        if cfg.camera_pose_topic:
            self.create_subscription(PoseStamped, cfg.camera_pose_topic, self.feed.set_pose, LATCHED)
        self._action = ActionServer(self, DetectObjects, cfg.action_name, execute_callback=self._execute,
                                    goal_callback=lambda _goal: GoalResponse.ACCEPT,
                                    cancel_callback=self._on_cancel)

        self._stream_pub = None
        self._streamed_seq = 0
        self.stream_stats = {"published": 0, "skipped_busy": 0, "skipped_unwatched": 0}
        if cfg.stream_rate > 0:
            self._stream_pub = self.create_publisher(DetectedObjectArray, cfg.detections_topic, 10)
            self._markers_pub = self.create_publisher(MarkerArray, DETECTION_MARKERS_TOPIC, 10)   # for rviz2
            # Wall-clock timer: the stream's CPU cost stays bounded at any sim speed.
            self.create_timer(1.0 / cfg.stream_rate, self._stream_tick,
                              clock=Clock(clock_type=ClockType.STEADY_TIME))
        sources = ([f"topic '{cfg.camera_pose_topic}'"] if cfg.camera_pose_topic else []) \
            + (["parameter camera_pose"] if cfg.camera_pose is not None else [])
        pose = ", else ".join(sources) or "nowhere (set camera_pose or camera_pose_topic): goals will fail"
        self.get_logger().info(
            f"DetectObjects on '{cfg.action_name}'; images '{cfg.image_topic}' + '{cfg.depth_topic}', "
            f"pose from {pose}; looking for {', '.join(self.known_labels)}; streaming "
            + (f"'{cfg.detections_topic}' at {cfg.stream_rate:g} Hz" if cfg.stream_rate > 0 else "off"))

    # --- DetectObjects ------------------------------------------------------------------
    async def _execute(self, goal_handle):
        goal = goal_handle.request
        labels = tuple(goal.labels)
        problem = goal_problem(labels, goal.min_confidence, goal.timeout, self.known_labels)
        if problem is not None:
            goal_handle.abort()
            return self._result(GoalOutcome(Result.INVALID_GOAL, problem))
        timeout = goal.timeout if goal.timeout > 0 else self.cfg.default_timeout
        request = GoalRequest(labels, goal.min_confidence, time.monotonic() + timeout, self.feed.latest_seq)
        key = bytes(goal_handle.goal_id.uuid)
        token = self._cancel_tokens[key] = CancelToken()
        self.camera.hold()                        # the goal waits for a frame newer than itself
        done = Future()

        def feedback(phase: str) -> None:
            self._bridge.call_soon(self._publish_feedback, goal_handle, phase)

        def work() -> None:
            try:
                outcome = run_goal(request, self.feed, self.worker, self._detect, token, feedback)
            except Exception as err:  # a bug: report it as a result, keep serving
                outcome = GoalOutcome(Result.INTERNAL_ERROR, f"{type(err).__name__}: {err}")
            self._bridge.call_soon(done.set_result, outcome)

        try:
            self._goal_threads.submit(work)
            outcome: GoalOutcome = await done
        except RuntimeError as err:          # pool shut down: the node is stopping
            outcome = GoalOutcome(Result.INTERNAL_ERROR, f"perception server is shutting down ({err})")
        finally:
            self._cancel_tokens.pop(key, None)
        if outcome.error_code == Result.SUCCESS:
            goal_handle.succeed()
        elif outcome.error_code == Result.CANCELLED and goal_handle.is_cancel_requested:
            goal_handle.canceled()
        else:
            goal_handle.abort()
            if outcome.error_code in (Result.INTERNAL_ERROR, Result.PROCESSING_FAILED):
                self.get_logger().error(f"DetectObjects failed: {outcome.message}")
        return self._result(outcome)

    def _result(self, outcome: GoalOutcome):
        result = Result(error_code=outcome.error_code, message=outcome.message,
                        objects=detected_objects(outcome.detections))
        result.header.frame_id = self.cfg.world_frame
        set_stamp_ns(result.header.stamp, outcome.stamp_ns)
        return result

    def _publish_feedback(self, goal_handle, phase: str) -> None:
        if goal_handle.is_active:
            goal_handle.publish_feedback(DetectObjects.Feedback(phase=phase))

    def _on_cancel(self, goal_handle) -> CancelResponse:
        token = self._cancel_tokens.get(bytes(goal_handle.goal_id.uuid))
        if token is not None:
            token.set()
        return CancelResponse.ACCEPT

    # --- images: only while a goal runs or the stream is watched -------------------------
    def _stream_watched(self) -> bool:
        return self._stream_pub is not None and bool(
            self._stream_pub.get_subscription_count() or self._markers_pub.get_subscription_count())

    # --- detections stream ----------------------------------------------------------------
    def _stream_tick(self) -> None:
        if not self._stream_watched():
            self.stream_stats["skipped_unwatched"] += 1   # nobody listens: detect nothing
            return
        self.camera.hold()
        snap = self.feed.snapshot()
        if snap is None or snap.pair.seq == self._streamed_seq:
            return                                   # nothing new to look at
        try:
            job = self.worker.try_submit(self._stream_job, snap)
        except RuntimeError:                         # shutting down
            return
        if job is None:
            self.stream_stats["skipped_busy"] += 1   # a detection is running: skip, never queue
            return
        self._streamed_seq = snap.pair.seq

    def _stream_job(self, snap) -> None:
        """Runs on the detection thread."""
        try:
            frame = self._detect(snap)
        except Exception as err:
            self.get_logger().error(f"streaming detection failed: {err}", throttle_duration_sec=5.0)
            return
        found = keep(frame.detections, (), self.cfg.min_confidence)
        array = detection_array(found, frame.stamp_ns, self.cfg.world_frame)
        self._stream_pub.publish(array)
        self._markers_pub.publish(detection_markers(array))
        self.stream_stats["published"] += 1

    # --- shutdown --------------------------------------------------------------------------
    def close(self) -> None:
        """Stop the threads (call after the executor stopped, before destroy_node)."""
        self._bridge.close()
        for token in list(self._cancel_tokens.values()):
            token.set()
        self.feed.close()
        self.worker.shutdown()
        self._goal_threads.shutdown(wait=True, cancel_futures=True)
