"""What a demo episode watches while its tree runs: the RunWatcher and the RunState it fills.

The watcher is a RosClient spun in a thread: the tree executor's tree_status (each node's
status changes: the phases, the recoveries), its log lines (the task's decisions), the camera
(the montage's frames), the sim's ground truth of the objects and /clock come in; the
ExecuteTree goal and the sim's perturb_object requests go out. Everything it hears lands in
one RunState, read by the runner's loop under the state's lock; the topics a task names for
its follower (DemoTask.follow_topics) go, message by message, to that follower. `send_perturb` and
`print_events` are the loop's two steps that the two-host disturber reuses
(robot_tasks/testing/remote_disturb.py).
"""
from __future__ import annotations

import itertools
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from robot_tasks.demo.montage import image_from_message_fields, keep_frame
from robot_tasks.tasks.episode import DemoTask, Follower, FollowTopic, positions_of

if TYPE_CHECKING:                     # the runner's options, read here; the runner imports this module
    from robot_tasks.demo.runner import DemoOptions

MAX_FRAMES = 60          # montage tiles (keep_frame: past it, the last tile follows the run)
MAX_TASK_LOG = 400
TREE_EXECUTOR_LOGGER = "tree_executor"
_WATCHERS = itertools.count()    # numbers the watchers' node names within this process


# the leaves that move something: a task's phase is one of these (CompliantMove and
# SwitchController: the press's compliant moves and its hand-back to the trajectory controller)
PHASE_LEAVES = ("MoveToPose", "GripperCommand", "MoveToJoints", "CompliantMove", "SwitchController")


@dataclass(frozen=True)
class Counted:
    """One success of the task's counted phase: when, and where every object was then.

    The positions tell a grader which item that success was about (the one that arrived
    where it ends), which the order of successes alone cannot once an item is dragged,
    dropped or redone.
    """

    sim_time: float
    positions: dict       # name -> (x, y, z), sim ground truth


@dataclass
class RunState:
    """What the ROS callbacks saw (written on the executor thread, read under `lock`)."""

    lock: threading.Lock = field(default_factory=threading.Lock)
    sim_time: float = 0.0
    image: object = None
    positions: dict = field(default_factory=dict)   # name -> (x, y, z), sim ground truth (grading, rules)
    poses: dict = field(default_factory=dict)       # name -> ((x, y, z), (qx, qy, qz, qw))
    first_poses: dict = field(default_factory=dict)  # each object's pose when first seen
    counted: list = field(default_factory=list)    # a Counted per success of the counted phase
    frames: list = field(default_factory=list)      # (caption, RGB) kept for the montage
    captures: int = 0                               # phase ends captured, kept or not
    events: list = field(default_factory=list)      # (kind, text) for the main thread to print/act on
    released: int = 0
    last_status_wall: float = 0.0                   # monotonic time of the last tree_status message
    recoveries: list = field(default_factory=list)
    task_log: list = field(default_factory=list)    # the tree executor's log lines (its decisions)
    phase_windows: dict = field(default_factory=dict)  # phase -> [start, end] sim s (RUNNING -> SUCCESS)
    named_frames: dict = field(default_factory=dict)   # image stem -> RGB array (task.images)
    follower: Follower | None = None                # the task's `follow()`, if it has one
    goal: object = None                             # the ExecuteTree goal (a DriverGoal), once sent


class RunWatcher:
    """A RosClient spun in a thread: tree_status, camera, objects and /clock in;
    ExecuteTree and perturb_object out."""

    def __init__(self, task: DemoTask, state: RunState, status_log, options: "DemoOptions | None" = None,
                 run_dir: Path | None = None):
        from rcl_interfaces.msg import Log
        from rclpy.action import ActionClient
        from rclpy.qos import QoSProfile, ReliabilityPolicy
        from rosgraph_msgs.msg import Clock
        from sensor_msgs.msg import Image

        from robot_tasks.ros.client import RosClient
        from robot_tasks_interfaces.action import ExecuteTree
        from robot_tasks_interfaces.msg import ObjectStateArray, TreeStatus
        from robot_tasks_interfaces.srv import PerturbObject

        self.task, self.state, self.status_log = task, state, status_log
        followed = [(follow, _message_type(task, follow)) for follow in task.follow_topics]   # before any node
        # DDS: the demo has set up loopback itself (configure_loopback_dds, whatever the caller's environment)
        # one name per watcher: on a shared node set the last episode's node may outlive its
        # close() until rclpy frees it, and two nodes of one name clash on /rosout
        self.ros = RosClient(f"{task.name}_demo_{next(_WATCHERS)}", configure_dds=False)
        self.node = self.ros.node
        reliable = QoSProfile(depth=10, reliability=ReliabilityPolicy.RELIABLE)
        self.node.create_subscription(TreeStatus, "tree_status", self._on_status, QoSProfile(depth=100))
        render = options is None or options.render
        if render:
            self.node.create_subscription(Image, "camera/image_raw", self._on_image, 2)
        self.node.create_subscription(ObjectStateArray, "objects", self._on_objects, reliable)
        self.node.create_subscription(Log, "/rosout", self._on_rosout, QoSProfile(depth=100,
                                      reliability=ReliabilityPolicy.RELIABLE))
        self.node.create_subscription(Clock, "/clock", self._on_clock,
                                      QoSProfile(depth=1, reliability=ReliabilityPolicy.BEST_EFFORT))
        for follow, msgtype in followed:       # the task's own topics, straight to its follower
            self.node.create_subscription(msgtype, follow.topic,
                                          lambda msg, topic=follow.topic: state.follower.on_message(topic, msg),
                                          QoSProfile(depth=follow.depth, reliability=ReliabilityPolicy.BEST_EFFORT
                                                     if follow.best_effort else ReliabilityPolicy.RELIABLE))
        self.execute = ActionClient(self.node, ExecuteTree, "execute_tree")
        self.perturb = self.node.create_client(PerturbObject, "perturb_object")
        self.ExecuteTree, self.PerturbObject = ExecuteTree, PerturbObject
        self.trace = self.bag = None
        self.bag_counts: dict[str, int] = {}       # messages written per topic, once the bag is closed
        if options is not None and options.record and run_dir is not None:
            self._start_recording(task, render, run_dir)
        self.ros.start_thread()

    def _start_recording(self, task: DemoTask, render: bool, run_dir: Path) -> None:
        from robot_tasks.demo.trace_recorder import TraceRecorder
        from robot_tasks.ros.bag_recorder import BagRecorder, BagTopic

        if task.trace_robot:
            self.trace = TraceRecorder(self.node, task.trace_robot)
        topics = list(task.bag_topics) + ([task.camera_topic] if render and task.camera_topic else [])
        if topics:
            self.bag = BagRecorder(self.node, run_dir / "bag", [BagTopic(t, m, rate) for t, m, rate in topics])

    def recording_matched(self) -> bool:
        """Whether the control-step topics' subscriptions (the trace's, and the bag's of the same
        topics) have matched their publisher, so that both records start at the same step."""
        if self.trace is None:
            return True
        return self.trace.matched() and (self.bag is None or self.bag.matched(self.trace.topics))

    def close(self):
        self.ros.close()
        if self.bag is not None:
            self.bag_counts = self.bag.close()

    # ---- callbacks (executor thread) ----------------------------------------------------
    def _on_clock(self, msg):
        self.state.sim_time = msg.clock.sec + msg.clock.nanosec * 1e-9

    def _on_rosout(self, msg):
        if msg.name == TREE_EXECUTOR_LOGGER and len(self.state.task_log) < MAX_TASK_LOG:
            level = {20: "INFO", 30: "WARN", 40: "ERROR", 50: "FATAL"}.get(msg.level, str(msg.level))
            self.state.task_log.append(f"{self.state.sim_time:8.3f} {level} {msg.msg}")
            if self.state.follower is not None:
                self.state.follower.on_log(msg.msg)

    def _on_image(self, msg):
        self.state.image = msg

    def _on_objects(self, msg):
        poses = {o.name: ((o.pose.position.x, o.pose.position.y, o.pose.position.z),
                          (o.pose.orientation.x, o.pose.orientation.y, o.pose.orientation.z, o.pose.orientation.w))
                 for o in msg.objects}
        with self.state.lock:
            self.state.poses = poses
            self.state.positions = positions_of(poses)
            for name, pose in poses.items():
                self.state.first_poses.setdefault(name, pose)
        if self.state.follower is not None:
            self.state.follower.on_poses(self.state.sim_time, self.state.positions)

    def _on_status(self, msg):
        st, task = self.state, self.task
        st.last_status_wall = time.monotonic()
        # the tick's own sim time: /clock may have moved on before this message arrives, and a
        # phase window must end before the commands the next leaf sent in the same tick
        tick_time = msg.header.stamp.sec + msg.header.stamp.nanosec * 1e-9 or st.sim_time
        for change in msg.changes:
            if st.follower is not None:
                st.follower.on_change(st.sim_time, change)
            self.status_log.write(f"{st.sim_time:9.3f} tick {msg.tick_count:6d} {change.path} "
                                  f"{change.previous_status} -> {change.status}\n")
            name, status = change.name, change.status
            with st.lock:
                if name in task.phases and change.registration_id in PHASE_LEAVES:
                    if status == "RUNNING":
                        st.events.append(("phase", name))
                        st.phase_windows[name] = [round(tick_time, 4), None]
                    elif status == "SUCCESS":
                        if name in st.phase_windows:
                            st.phase_windows[name][1] = round(tick_time, 4)
                        stem = dict(task.images).get(name)
                        if stem is not None:
                            self.capture_named(stem)
                        if name == task.counted:
                            st.released += 1
                            st.counted.append(Counted(round(st.sim_time, 3), dict(st.positions)))
                        self._capture(f"{st.captures + 1:02d} {name} ({st.released} {task.counted_as})")
                what = task.recoveries.get((name, status)) or task.recoveries.get((change.registration_id, status))
                if what is not None:
                    st.recoveries.append({"sim_time": round(st.sim_time, 3), "what": what})
                    st.events.append(("recovery", what))

    def _pixels(self):
        image = self.state.image
        if image is None:
            return None
        try:
            return image_from_message_fields(image.width, image.height, image.step, image.encoding, image.data)
        except ValueError as exc:
            self.state.events.append(("warning", f"camera frame skipped: {exc}"))
            return None

    def _capture(self, caption):
        pixels = self._pixels()
        if pixels is None:
            return
        self.state.captures += 1
        keep_frame(self.state.frames, (caption, pixels), MAX_FRAMES)

    def capture_named(self, stem: str) -> bool:
        """Keep the latest camera frame as image `stem` (False when there is none)."""
        pixels = self._pixels()
        if pixels is not None:
            self.state.named_frames[stem] = pixels
        return pixels is not None


def _message_type(task: DemoTask, follow: FollowTopic):
    """The message class a FollowTopic names; a ValueError naming the task and topic if none."""
    from robot_tasks.ros.leaves.topic_nodes import import_message_type

    try:
        return import_message_type(follow.msgtype)
    except ValueError as exc:
        raise ValueError(f"{task.name}: follow topic {follow.topic}: {exc}") from None


def send_perturb(watcher, request):
    from geometry_msgs.msg import Pose

    target = Pose()
    target.position.x, target.position.y, target.position.z = request["target"]
    if "orientation" in request:          # else a Pose's default, identity, which DRAG sets
        target.orientation.x, target.orientation.y, target.orientation.z, target.orientation.w = \
            request["orientation"]
    return watcher.perturb.call_async(watcher.PerturbObject.Request(
        object_name=request["object_name"], mode=request["mode"], target=target))


def print_events(state, wall_start, say, rule) -> None:
    with state.lock:
        events, state.events = state.events, []
        released = state.released
    for kind, text in events:
        elapsed = time.monotonic() - wall_start
        if kind == "phase":
            say(f"[{elapsed:6.1f} s] {text}")
            if rule is not None:
                rule.on_phase_start(text, released, state.sim_time)
        else:
            say(f"[{elapsed:6.1f} s] {kind}: {text}")
