"""What one task's demo episode is, to the episode runner: a `DemoTask`.

The runner (robot_tasks/demo/runner.py) starts the task's nodes, sends its tree, prints
each phase as it starts, disturbs the run and grades the end; everything task-specific it
needs is in one DemoTask: the tree's phase and recovery nodes, the disturbance rule, the
grader over the sim's ground truth, what to record. Every field is plain data or a pure
callable, so a task package defines its DemoTask next to its leaves without importing the
runner or ROS, and its spec (task.py) names it.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, ClassVar, Sequence

from robot_tasks.tasks.errors import TaskError

CONFIG_DIR = Path(__file__).resolve().parents[2] / "config"


def sent_trajectory_topic(server: str = "arm_server") -> tuple[str, str, float]:
    """A DemoTask.bag_topics entry, (topic, type, max rate): every trajectory the arm server
    node `server` sent its driver (robot_tasks/demo/sent_trajectories.py checks them against
    the limits)."""
    return (f"{server}/sent_trajectory", "trajectory_msgs/msg/JointTrajectory", 0.0)


SENT_TRAJECTORY_TOPIC = sent_trajectory_topic()


def positions_of(poses: dict[str, tuple]) -> dict[str, Sequence[float]]:
    """{name: (x, y, z)} of the sim's ground-truth poses {name: ((x, y, z), (qx, qy, qz, qw))}."""
    return {name: pose[0] for name, pose in poses.items()}


# What a grader returns: (the report's key for the items, one row per item, all ok, a line of text)
Grade = tuple[str, list, bool, str]


@dataclass
class DisturbanceRule:
    """When and how a run is disturbed: the runner feeds a rule what happens and asks it.

    A rule is armed by what the tree does (on_phase_start: a phase node started, with how
    many items are done) or by what the executor logs (on_task_log), and `due(now, poses)`
    is asked every loop of the runner with the sim's ground truth: it returns the sim's
    PerturbObject request ({"object_name", "mode", "target"}) once, when the moment has come,
    and None otherwise. `now` is always sim time, so a delay means the same at any real-time
    factor. What the rule decided goes into `log` (the report's disturbance["log"]); `fired`
    says the request was given. A task's rule names its task and the modes it knows, and
    refuses any other mode when made. Subclasses override what they use; these defaults
    never disturb.
    """

    task: ClassVar[str] = ""
    modes: ClassVar[tuple[str, ...]] = ()
    mode: str
    fired: bool = False
    log: list[str] = field(default_factory=list)

    def __post_init__(self):
        if self.mode not in self.modes:
            raise ValueError(f"{self.task}: disturbance '{self.mode}' is not one of {', '.join(self.modes)}")

    def on_phase_start(self, phase: str, counted: int, now: float) -> None:
        """A phase node started; `counted` items are done."""

    def on_task_log(self, lines: Sequence[str], now: float) -> None:
        """Every tree-executor log line so far (a rule armed by what the tree says)."""

    def due(self, now: float, poses: dict[str, tuple]) -> dict | None:
        """The PerturbObject request to send now, or None."""
        return None


class Follower:
    """Something that watches the whole run and adds its findings to the report.

    The watcher calls every method from its one thread, in the order things arrived:
    on_change for each node status change, on_log for each tree-executor log line,
    on_poses for each ground-truth sample, on_message for each message of the task's
    `follow_topics`. `summary()` is merged into the report at the end. Subclasses
    override what they use; these defaults ignore everything.
    """

    def on_change(self, sim_time: float, change) -> None:
        """A node's status changed (robot_tasks_interfaces/NodeStatusChange)."""

    def on_log(self, line: str) -> None:
        """A tree-executor log line."""

    def on_poses(self, sim_time: float, positions: dict[str, Sequence[float]]) -> None:
        """The ground truth's positions {object: (x, y, z)}."""

    def on_message(self, topic: str, message) -> None:
        """A message of one of the task's follow_topics."""

    def summary(self) -> dict:
        return {}


@dataclass(frozen=True)
class FollowTopic:
    """A topic the task's follower hears, besides what the runner's watcher listens to itself.

    A task graded on what happened over time rather than on where things ended (the press:
    the contact force and the tool pose at every sim step) names the topics it needs; the
    watcher subscribes to each on its own node and hands every message, as it arrives, to
    the follower's on_message(topic, message). The task declares, the runner subscribes:
    the task's code holds no ROS node of its own.
    """

    topic: str
    msgtype: str                 # "geometry_msgs/msg/WrenchStamped"
    best_effort: bool = False    # for a best-effort publisher: a reliable subscriber gets nothing from it
    depth: int = 200             # a burst of samples (100 Hz) waits here while the watcher is busy


@dataclass(frozen=True)
class DemoTask:
    """What the runner needs to know about one task's demo.

    name        scene, config/<name>.yaml and the run folder's prefix
    tree_id     the tree the ExecuteTree goal names
    phases      MoveToPose/GripperCommand/MoveToJoints node names printed when they start and
                captured in the montage when they succeed
    counted     the phase whose success counts one item done ("release": a cube stacked)
    counted_as  the word for that count in captions ("stacked", "placed")
    recoveries  {(node name or registration ID, status): what it means}
    make_rule   mode (of `--disturb`) -> a DisturbanceRule
    grade       (final poses, first poses, counted events) -> a Grade (items key, rows, all ok,
                summary text); poses are {object name: ((x, y, z), (qx, qy, qz, qw))} from the sim's
                ground truth; each counted event is a Counted (sim time, every position then)
    optional (a demonstration-recording task):
    images      ((phase, file stem), ...): one saved image after each of these phases, and
                start_image / done_image before the goal and after the end; the montage
                is then these images in order
    scene_overrides, payload   options -> sim parameters / the ExecuteTree payload (dicts)
    trace_robot     namespace whose controller states make trace.npz ("" = none)
    bounded_phases  phases whose commanded arm steps are reported (max inf-norm step)
    bag_topics      ((topic, type, max rate), ...) for the MCAP bag; camera_topic joins
                    them when rendering is on
    follow      optional: () -> a Follower, fed the whole run, whose summary() is merged into
                the report (franka_pyramid: each robot's result, how long both arms moved at
                once, the cubes bumped)
    follow_topics   optional: FollowTopics whose every message goes to the follower's
                on_message(topic, message) (the press: force and pose samples)
    grade_followed  optional: (follower, run folder) -> the same four as `grade`, for a task
                graded on what its follower recorded instead of on the final poses (the press:
                10 N held at three targets); it may write files of its own into the run
                folder (press.csv, press.png); the follower's summary() is read after it.
                `grade` is then not called.
    timeout     optional: wall s for the whole run when the caller names none (None: the
                runner's default)
    """

    name: str
    tree_id: str
    phases: tuple[str, ...]
    counted: str
    counted_as: str
    recoveries: dict
    make_rule: Callable[[str], DisturbanceRule | None]
    grade: Callable[[dict, dict, list], Grade]
    images: tuple = ()
    start_image: str = ""
    done_image: str = ""
    scene_overrides: Callable | None = None
    payload: Callable | None = None
    trace_robot: str = ""
    bounded_phases: tuple = ()
    bag_topics: tuple = ()
    camera_topic: tuple | None = None
    follow: Callable[[], Follower] | None = None
    follow_topics: tuple[FollowTopic, ...] = ()
    grade_followed: Callable | None = None
    timeout: float | None = None

    def __post_init__(self):
        # both hand their data to a follower: without one they would fail mid-run, not here
        if (self.follow_topics or self.grade_followed) and self.follow is None:
            raise TaskError(f"{self.name}: follow_topics and grade_followed need a `follow` (the follower they feed)")

    @property
    def config(self) -> Path:
        return CONFIG_DIR / f"{self.name}.yaml"
