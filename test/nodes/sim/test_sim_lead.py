"""rtf 0's bounded lead (robot_tasks/nodes/sim/lead.py), on a real sim process over loopback DDS.

A slow node: it commands a trajectory, waits for the arm to arrive, then "thinks" for a
wall second before its next command. While the trajectory runs the sim runs free; while
the node thinks, the sim may run only `max_lead` sim seconds past it, then at real time.
With the bound off (max_lead < 0, rtf 0 before issue 37) the same measurement finds the
sim many seconds ahead: the test would fail without the bound.
"""
from __future__ import annotations

import threading
import time

import numpy as np
import pytest
from ros_sim_helpers import CLOCK_QOS, PANDA_ARM, Recorder, trajectory, wait_for_log
from rosgraph_msgs.msg import Clock
from sensor_msgs.msg import JointState
from trajectory_msgs.msg import JointTrajectory

pytestmark = [pytest.mark.ros, pytest.mark.sim]

MAX_LEAD = 0.1
THINK_S = 1.0                   # wall s the slow node takes before its next command
SLACK_S = 0.25                  # sim s: /clock's own period and the samples' wall-clock jitter
TRAJ_TOPIC = "/panda/joint_trajectory_controller/joint_trajectory"
PACED_LINE = "stepping at real time until the next one (said once)"


class ClockLog:
    """(wall time of arrival, sim seconds) of every /clock message."""

    def __init__(self, node):
        self.samples: list[tuple[float, float]] = []
        self._lock = threading.Lock()
        node.node.create_subscription(Clock, "/clock", self._on_clock, CLOCK_QOS)

    def _on_clock(self, msg) -> None:
        with self._lock:
            self.samples.append((time.monotonic(), msg.clock.sec + msg.clock.nanosec * 1e-9))

    def between(self, start: float, end: float) -> list[tuple[float, float]]:
        with self._lock:
            return [s for s in self.samples if start <= s[0] <= end]


def arm(js) -> np.ndarray:
    position = dict(zip(js.name, js.position))
    return np.array([position[n] for n in PANDA_ARM])


def command_and_think(ros_node, publisher, joint_states, clock, goal) -> tuple[float, list]:
    """Send a 2 s trajectory to `goal`; return the wall s it took and the /clock samples of
    the THINK_S wall seconds after the arm arrived (the node thinks)."""
    start = arm(joint_states.latest())
    sent = time.monotonic()
    publisher.publish(trajectory(PANDA_ARM, [(start + (goal - start) / 2, 1.0), (goal, 2.0)]))
    joint_states.wait_for(lambda js: np.max(np.abs(arm(js) - goal)) < 0.01, "the arm at its goal", timeout=20.0)
    arrived = time.monotonic()
    time.sleep(THINK_S)
    # from 0.1 wall s on: within 0.01 rad of its goal the trajectory may still be running
    return arrived - sent, clock.between(arrived + 0.1, arrived + THINK_S)


@pytest.mark.parametrize("max_lead", [MAX_LEAD, -1.0], ids=["bounded", "off"])
def test_the_sim_runs_at_most_max_lead_ahead_of_a_slow_node(launcher, ros_node, max_lead):
    proc = launcher.start_module("robot_tasks.nodes.sim", name="sim_lead",
                                 params={"scene": "franka_stacking", "real_time_factor": 0.0,
                                         "camera_rate": 0.0, "object_rate": 0.0, "max_lead": max_lead})
    joint_states = Recorder(ros_node, JointState, "/panda/joint_states")
    clock = ClockLog(ros_node)
    publisher = ros_node.node.create_publisher(JointTrajectory, TRAJ_TOPIC, 10)
    ros_node.wait_for_subscriber(TRAJ_TOPIC)
    home = arm(joint_states.latest(30.0))
    for goal in (home + np.array([0.3, 0.2, 0.0, 0.2, 0.0, -0.2, 0.0]), home):
        moving_wall, gap = command_and_think(ros_node, publisher, joint_states, clock, goal)
        # while the sim carries out the command, nobody waits on anything but the world
        assert moving_wall < 1.5, f"a 2 s trajectory took {moving_wall:.2f} wall s at rtf 0"
        assert len(gap) > 10, f"only {len(gap)} /clock messages in {THINK_S} wall s"
        (wall0, sim0), (wall1, sim1) = gap[0], gap[-1]
        ahead = max(sim - sim0 - (wall - wall0) for wall, sim in gap)   # sim s beyond real time
        if max_lead >= 0:
            assert ahead <= max_lead + SLACK_S, (
                f"while the node thought, the sim ran {ahead:.2f} sim s ahead of real time "
                f"(max_lead {max_lead} s; {sim1 - sim0:.2f} sim s in {wall1 - wall0:.2f} wall s)")
            # never stopped: at real time, not waiting for a node that may never come
            assert sim1 - sim0 >= 0.5 * (wall1 - wall0), f"{sim1 - sim0:.2f} sim s in {wall1 - wall0:.2f} wall s"
        else:                                   # the old rtf 0: far ahead, the bound's test would fail
            assert ahead > 1.0, f"without a bound the sim ran only {ahead:.2f} sim s ahead of real time"
    log = proc.log_path.read_text(errors="replace")
    assert log.count(PACED_LINE) == (1 if max_lead >= 0 else 0), log[-2000:]
    ros_node.node.destroy_publisher(publisher)
    assert proc.stop() == "SIGINT rc=0"
    if max_lead >= 0:
        assert "real_time_factor 0: paced at real time 2 times" in proc.log_path.read_text(errors="replace")


@pytest.mark.parametrize("commander", [False, True], ids=["nobody", "an_action_client"])
def test_the_bound_holds_from_when_a_commander_connects(launcher, ros_node, action_clients, commander):
    """Before its first command a node is already visible to the sim (commanders.py): an
    action client of its trajectory controller, as the arm server is from its start. From
    then on the sim may run only max_lead ahead while that node plans its first goal; with
    nobody connected it still runs free (here: far ahead of real time)."""
    from control_msgs.action import FollowJointTrajectory

    proc = launcher.start_module("robot_tasks.nodes.sim", name="sim_lead_start",
                                 params={"scene": "franka_stacking", "real_time_factor": 0.0,
                                         "camera_rate": 0.0, "object_rate": 0.0, "max_lead": MAX_LEAD})
    clock = ClockLog(ros_node)
    action = "/panda/joint_trajectory_controller/follow_joint_trajectory"
    if commander:
        action_clients.wait_for_server(FollowJointTrajectory, action, timeout=30.0)
        wait_for_log(proc, "the lead bound holds from sim", timeout=10.0)
    else:
        ros_node.wait_for(lambda: len(clock.samples) > 0, "the sim's /clock", timeout=30.0)
    start = time.monotonic()
    time.sleep(THINK_S)                        # the node "plans its first goal": no command
    gap = clock.between(start, start + THINK_S)
    assert len(gap) > 10, f"only {len(gap)} /clock messages in {THINK_S} wall s"
    (wall0, sim0), (wall1, sim1) = gap[0], gap[-1]
    ahead = max(sim - sim0 - (wall - wall0) for wall, sim in gap)
    if commander:
        assert ahead <= MAX_LEAD + SLACK_S, f"{ahead:.2f} sim s ahead of real time with a commander connected"
        assert sim1 - sim0 >= 0.5 * (wall1 - wall0), f"{sim1 - sim0:.2f} sim s in {wall1 - wall0:.2f} wall s"
    else:
        assert ahead > 1.0, f"with nobody connected the sim ran only {ahead:.2f} sim s ahead of real time"
        assert "the lead bound holds from sim" not in proc.log_path.read_text(errors="replace")
    assert proc.stop() == "SIGINT rc=0"
